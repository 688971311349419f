// Global atomics and reductions, under lane patterns that tell apart how the
// GPU counts the sectors of an atomic request.
//
// An atomic whose result is used compiles to ATOMG (Nsight's op_atom
// counters); one whose result is not used compiles to REDG (op_red). Each
// pattern launch is one warp in one block, so the counters read exact
// integers. atomRed<P> adds to p[pick(P, lane)] and ignores the result;
// atomUse<P> stores the old value. Float adds: nvcc does not combine them
// across lanes (their order changes the sum). P, in floats (1024 is another
// row):
//   0 lane                        distinct words, 4 sectors
//   1 0                           one word for the whole warp
//   2 lane / 2                    pairs of lanes share a word
//   3 lane % 8                    8 words of one sector, 4 lanes each
//   4 lane < 16 ? 0 : lane        16 lanes on word 0, then distinct
//   5 2 * lane                    every other word, 8 sectors
//   6 8 * lane                    one word per sector, 32 sectors
//   7 (lane % 2) * ROW            two rows, 16 lanes on each one's word 0
//   8 (lane / 16) * ROW + lane % 4   two rows, 4 words each, 4 lanes each
//   9 min(lane, 11)               distinct, then 21 lanes on word 11
//  10 lane % 16                   the two half-warps on the same words
//  11 lane, lanes below 8 only    a partial warp
//
// countPerBlock adds 1 per thread to one counter per block: an integer add
// to an address every lane shares, which nvcc turns into one atomic per
// warp (VOTEU.ANY, POPC, and the add issued by one elected lane).
//
// Build: nvcc -arch=sm_90 -lineinfo -o atomics atomics.cu
// Analyze: gmem-analyze atomics.cu
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  {                                                                            \
    const cudaError_t error = call;                                            \
    if (error != cudaSuccess) {                                                \
      printf("Error: %s:%d, ", __FILE__, __LINE__);                            \
      printf("code:%d, reason: %s\n", error, cudaGetErrorString(error));       \
      exit(1);                                                                 \
    }                                                                          \
  }

#define ROW 1024

__device__ __forceinline__ int pick(int p, int lane) {
  switch (p) {
  case 0:
    return lane;
  case 1:
    return 0;
  case 2:
    return lane / 2;
  case 3:
    return lane % 8;
  case 4:
    return lane < 16 ? 0 : lane;
  case 5:
    return 2 * lane;
  case 6:
    return 8 * lane;
  case 7:
    return (lane % 2) * ROW;
  case 8:
    return (lane / 16) * ROW + lane % 4;
  case 9:
    return min(lane, 11);
  case 10:
    return lane % 16;
  default:
    return lane;
  }
}

template <int P> __global__ void atomRed(float *p) {
  int lane = threadIdx.x;
  if (P != 11 || lane < 8)
    atomicAdd(&p[pick(P, lane)], 1.0f);
}

template <int P> __global__ void atomUse(float *p, float *old) {
  int lane = threadIdx.x;
  if (P != 11 || lane < 8)
    old[lane] = atomicAdd(&p[pick(P, lane)], 1.0f);
}

__global__ void countPerBlock(int *counts) { atomicAdd(&counts[blockIdx.x], 1); }

template <int P> void run(float *p, float *old) {
  atomRed<P><<<1, 32>>>(p);
  CHECK(cudaGetLastError());
  atomUse<P><<<1, 32>>>(p, old);
  CHECK(cudaGetLastError());
}

int main() {
  const int n = 2 * ROW;
  float *p, *old;
  int *counts;
  CHECK(cudaMalloc((void **)&p, n * sizeof(float)));
  CHECK(cudaMalloc((void **)&old, 32 * sizeof(float)));
  CHECK(cudaMalloc((void **)&counts, 256 * sizeof(int)));
  CHECK(cudaMemset(p, 0, n * sizeof(float)));
  CHECK(cudaMemset(counts, 0, 256 * sizeof(int)));
  run<0>(p, old);
  run<1>(p, old);
  run<2>(p, old);
  run<3>(p, old);
  run<4>(p, old);
  run<5>(p, old);
  run<6>(p, old);
  run<7>(p, old);
  run<8>(p, old);
  run<9>(p, old);
  run<10>(p, old);
  run<11>(p, old);
  countPerBlock<<<256, 256>>>(counts);
  CHECK(cudaGetLastError());
  int h[256];
  CHECK(cudaMemcpy(h, counts, sizeof(h), cudaMemcpyDeviceToHost));
  printf("counts[0] = %d (256 expected)\n", h[0]);
  CHECK(cudaFree(p));
  CHECK(cudaFree(old));
  CHECK(cudaFree(counts));
  return h[0] == 256 ? 0 : 1;
}
