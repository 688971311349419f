// Each thread of a 16-thread block subtracts, for each column i, the
// products of its row's earlier entries from its entry i of a shared tile,
// as an LU factorisation does: the source loads and stores s[t][i] on every
// j, and nvcc keeps it in a register for the whole j loop.
#include <cstdio>

__global__ void eliminate(float *m) {
  __shared__ float s[16][16];
  const int t = threadIdx.x;
  for (int i = 0; i < 16; i++)
    s[i][t] = m[i * 16 + t];
  __syncthreads();
  for (int i = 0; i < 15; i++) {
    if (t > i) {
      for (int j = 0; j < i; j++)
        s[t][i] -= s[t][j] * s[j][i];
      s[t][i] /= s[i][i];
    }
    __syncthreads();
  }
  for (int i = 0; i < 16; i++)
    m[i * 16 + t] = s[i][t];
}

int main() {
  float h[256], *d;
  for (int i = 0; i < 256; i++)
    h[i] = i % 17 == 0 ? 16.0f : 1.0f / (1 + i % 7);
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  eliminate<<<1, 16>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < 256; i++)
    sum += h[i];
  std::printf("%.4f\n", sum);
  return 0;
}
