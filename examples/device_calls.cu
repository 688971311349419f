// __device__ functions and cooperative groups as real kernels use them.
//
//   bestOfThree    a shared-memory wavefront step in the manner of Rodinia's
//                  needle: each thread takes the maximum of three neighbours
//                  through an inlined function that returns early from an
//                  if/else (the lanes return from the function, not the
//                  kernel), then writes the tile back
//   storeTwice     a __noinline__ function called from two places: nvcc
//                  keeps one copy of its code, which runs once per call
//   tileRowSums    one row per warp through cooperative_groups: the row is
//                  blockIdx.x * meta_group_size() + meta_group_rank() of a
//                  thread_block_tile<32>, reduced with the tile's shuffles
//   tile16Copy     tiles of 16 threads, each copying a 16-float segment
//
// Build: nvcc -arch=sm_90 -lineinfo -o device_calls device_calls.cu
// Analyze: gmem-analyze device_calls.cu
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

#define CHECK(call)                                                            \
  {                                                                            \
    const cudaError_t error = call;                                            \
    if (error != cudaSuccess) {                                                \
      printf("Error: %s:%d, ", __FILE__, __LINE__);                            \
      printf("code:%d, reason: %s\n", error, cudaGetErrorString(error));       \
      exit(1);                                                                 \
    }                                                                          \
  }

#define BLOCK 256

__device__ int maximum(int a, int b, int c) {
  int k;
  if (a <= b)
    k = b;
  else
    k = a;
  if (k <= c)
    return c;
  else
    return k;
}

__global__ void bestOfThree(int *out, const int *in) {
  __shared__ int s[BLOCK + 2];
  int t = threadIdx.x;
  int base = blockIdx.x * BLOCK;
  s[t] = in[base + t];
  if (t < 2)
    s[BLOCK + t] = in[base + BLOCK + t];
  __syncthreads();
  int m = maximum(s[t], s[t + 1], s[t + 2]);
  __syncthreads();
  s[t] = m;
  __syncthreads();
  out[base + t] = s[BLOCK - 1 - t];
}

__device__ __noinline__ void storeScaled(float *p, int i, float v) {
  p[i] = 2.0f * v;
}

__global__ void storeTwice(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  storeScaled(out, i, in[i]);
  storeScaled(out, n + i, in[n + i]);
}

__global__ void tileRowSums(float *sums, const float *m, int cols) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  float s = 0.0f;
  for (int c = warp.thread_rank(); c < cols; c += warp.size())
    s += m[row * cols + c];
  for (int o = warp.size() / 2; o > 0; o /= 2)
    s += warp.shfl_xor(s, o);
  if (warp.thread_rank() == 0)
    sums[row] = s;
}

__global__ void tile16Copy(float *out, const float *in) {
  cg::thread_block_tile<16> tile =
      cg::tiled_partition<16>(cg::this_thread_block());
  int segment = blockIdx.x * tile.meta_group_size() + tile.meta_group_rank();
  out[segment * 16 + tile.thread_rank()] =
      in[segment * 32 + tile.thread_rank()];
}

int main() {
  const int blocks = 512, n = blocks * BLOCK, rows = 1024, cols = 512;
  int *ia, *ib;
  float *fa, *fb;
  CHECK(cudaMalloc((void **)&ia, (n + 2) * sizeof(int)));
  CHECK(cudaMalloc((void **)&ib, n * sizeof(int)));
  CHECK(cudaMalloc((void **)&fa, rows * cols * sizeof(float))); // >= 2 n
  CHECK(cudaMalloc((void **)&fb, 2 * n * sizeof(float)));
  CHECK(cudaMemset(ia, 0, (n + 2) * sizeof(int)));
  CHECK(cudaMemset(fa, 0, rows * cols * sizeof(float)));

  bestOfThree<<<blocks, BLOCK>>>(ib, ia);
  CHECK(cudaGetLastError());
  storeTwice<<<blocks, BLOCK>>>(fb, fa, n);
  CHECK(cudaGetLastError());
  tileRowSums<<<rows / (BLOCK / 32), BLOCK>>>(fb, fa, cols);
  CHECK(cudaGetLastError());
  tile16Copy<<<n / 2 / BLOCK, BLOCK>>>(fb, fa);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  float h;
  CHECK(cudaMemcpy(&h, fb, sizeof(float), cudaMemcpyDeviceToHost));
  printf("fb[0] = %f\n", h);
  CHECK(cudaFree(ia));
  CHECK(cudaFree(ib));
  CHECK(cudaFree(fa));
  CHECK(cudaFree(fb));
  return 0;
}
