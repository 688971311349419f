// 8- and 16-byte shared-memory accesses (LDS.64 / LDS.128, STS.64 / STS.128)
// under lane patterns that tell the hardware's rule apart: how many lanes
// one wavefront serves, and what a broadcast or a conflict costs.
//
// Each launch is one warp in one block, so the counters read exact integers.
// wideLoad<T, P> reads buf[pick(P, lane)] and wideStore<T, P> writes it, for
// T = float2 (8 bytes) and float4 (16 bytes) and the patterns P below (in
// elements of T):
//   0 lane          contiguous
//   1 0             one address for the whole warp
//   2 lane / 2      pairs of lanes share an element
//   3 lane / 16     one address per half-warp
//   4 lane % 16     the two half-warps read the same elements
//   5 lane / 8      one address per quarter-warp
//   6 lane % 8      the four quarter-warps read the same elements
//   7 lane * 2      every other element
//   8 lane * 8      8 elements apart
//   9 (lane % 8) * 8  quarter-warps repeat a pattern 8 elements apart
//  10 lane % 2      two addresses, alternating
//  11 lane ^ 16     the half-warps swapped
//
// Build: nvcc -arch=sm_90 -lineinfo -o shared_wide shared_wide.cu
// Analyze: gmem-analyze shared_wide.cu
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

#define ELEMS 256

__device__ __forceinline__ int pick(int p, int lane) {
  return p == 0    ? lane
         : p == 1  ? 0
         : p == 2  ? lane / 2
         : p == 3  ? lane / 16
         : p == 4  ? lane % 16
         : p == 5  ? lane / 8
         : p == 6  ? lane % 8
         : p == 7  ? lane * 2
         : p == 8  ? lane * 8
         : p == 9  ? (lane % 8) * 8
         : p == 10 ? lane % 2
                   : lane ^ 16;
}

template <typename T, int P> __global__ void wideLoad(const T *in, T *out) {
  __shared__ T buf[ELEMS];
  int t = threadIdx.x;
  for (int i = t; i < ELEMS; i += 32)
    buf[i] = in[i];
  __syncthreads();
  out[t] = buf[pick(P, t)];
}

template <typename T, int P> __global__ void wideStore(const T *in, T *out) {
  __shared__ T buf[ELEMS];
  int t = threadIdx.x;
  buf[pick(P, t)] = in[t];
  __syncthreads();
  out[t] = buf[t];
}

template <typename T, int P> void launchPattern(const T *in, T *out) {
  wideLoad<T, P><<<1, 32>>>(in, out);
  CHECK(cudaGetLastError());
  wideStore<T, P><<<1, 32>>>(in, out);
  CHECK(cudaGetLastError());
}

template <typename T> void launchAll(const T *in, T *out) {
  launchPattern<T, 0>(in, out);
  launchPattern<T, 1>(in, out);
  launchPattern<T, 2>(in, out);
  launchPattern<T, 3>(in, out);
  launchPattern<T, 4>(in, out);
  launchPattern<T, 5>(in, out);
  launchPattern<T, 6>(in, out);
  launchPattern<T, 7>(in, out);
  launchPattern<T, 8>(in, out);
  launchPattern<T, 9>(in, out);
  launchPattern<T, 10>(in, out);
  launchPattern<T, 11>(in, out);
}

int main() {
  const size_t bytes = ELEMS * sizeof(float4);
  float *h = (float *)malloc(bytes);
  for (size_t i = 0; i < bytes / sizeof(float); ++i)
    h[i] = (float)(i % 13);
  float *dIn, *dOut;
  CHECK(cudaMalloc((void **)&dIn, bytes));
  CHECK(cudaMalloc((void **)&dOut, bytes));
  CHECK(cudaMemcpy(dIn, h, bytes, cudaMemcpyHostToDevice));

  launchAll<float2>((const float2 *)dIn, (float2 *)dOut);
  launchAll<float4>((const float4 *)dIn, (float4 *)dOut);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, dOut, bytes, cudaMemcpyDeviceToHost));
  printf("out[5] = %f\n", h[5]);

  CHECK(cudaFree(dIn));
  CHECK(cudaFree(dOut));
  free(h);
  return 0;
}
