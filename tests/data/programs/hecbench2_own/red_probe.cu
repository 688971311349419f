// One warp, one atomic per lane: how many L1 sectors a global RED/ATOM
// request with lanes on the same address costs.
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void red(const int *idx, int *bins) {
  atomicAdd(&bins[idx[threadIdx.x]], 1);
}
__global__ void atom(const int *idx, int *bins, int *old) {
  old[threadIdx.x] = atomicAdd(&bins[idx[threadIdx.x]], 1);
}

int main() {
  const int Patterns = 12;
  int h[Patterns][32];
  unsigned s = 12345;
  for (int l = 0; l < 32; ++l) {
    h[0][l] = l;                         // 32 words: 4 sectors
    h[1][l] = 0;                         // one address
    h[2][l] = l % 16;                    // 16 words twice
    h[3][l] = l / 2;                     // pairs of neighbours
    h[4][l] = (l % 8) * 8;               // 8 sectors, 4 lanes on one word each
    h[5][l] = l < 16 ? 0 : l;            // 16 on one word, 16 apart
    h[6][l] = (l % 4) * 8 + (l / 4) % 2; // 4 sectors, 2 words x 4 lanes
    h[7][l] = l % 2;                     // 2 words of one sector, 16 each
    s = s * 1103515245u + 12345u;
    h[8][l] = (s >> 16) % 64; // random in 64 words (8 sectors)
    s = s * 1103515245u + 12345u;
    h[9][l] = (s >> 16) % 256;  // random in 256 words
    h[10][l] = (l % 4) * 1024;  // 4 far apart words, 8 lanes each
    h[11][l] = l == 31 ? 0 : l; // lanes 0 and 31 on word 0
  }
  int *idx, *bins, *old;
  cudaMalloc(&idx, sizeof h);
  cudaMalloc(&bins, 8192 * sizeof(int));
  cudaMalloc(&old, 32 * sizeof(int));
  cudaMemcpy(idx, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemset(bins, 0, 8192 * sizeof(int));
  for (int p = 0; p < Patterns; ++p)
    red<<<1, 32>>>(idx + 32 * p, bins);
  for (int p = 0; p < Patterns; ++p)
    atom<<<1, 32>>>(idx + 32 * p, bins, old);
  int out[8192];
  cudaMemcpy(out, bins, sizeof out, cudaMemcpyDeviceToHost);
  long total = 0;
  for (int i = 0; i < 8192; ++i)
    total += out[i];
  printf("%ld atomics\n", total);
  return total != 2 * Patterns * 32;
}
