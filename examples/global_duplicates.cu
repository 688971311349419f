// 4-byte global loads whose lanes repeat addresses, under lane patterns that
// tell apart how the GPU counts the bytes of such a request (the numerator
// of load efficiency) and its ideal sectors.
//
// Each launch is one warp in one block, so the counters read exact integers.
// dupLoad<P> reads in[pick(P, lane)] with the patterns P below (in floats;
// 1024 is another row of a 2-D array), for the lanes that `active` selects:
//   0 lane                             contiguous
//   1 0                                one address for the whole warp
//   2 max(lane - 12, 0)                13 lanes on word 0, then distinct
//   3 min(lane, 11)                    distinct, then 21 lanes on word 11
//   4 row(lane / 16) + max(lane % 16 - 12, 0)   pattern 2 per half-warp
//   5 row(lane / 16) + min(lane % 16, 11)       pattern 3 per half-warp
//   6 row(lane / 16) + 7, lanes with lane % 16 < 8 only
//   7 lane / 2                         pairs of lanes share a word
//   8 lane % 16                        the two half-warps read the same words
//   9 lane % 4                         four words, repeated
//  10 lane == 31 ? 0 : lane            the last lane repeats the first
//  11 row(lane / 16) + 4 + min(lane % 16, 11)  pattern 5 from mid-sector
//  12 row(lane / 16) + 1012 + min(lane % 16, 11)  pattern 5 at a row's end
//
// Build: nvcc -arch=sm_90 -lineinfo -o global_duplicates global_duplicates.cu
// Analyze: gmem-analyze global_duplicates.cu
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
  int half = lane / 16, h = lane % 16;
  switch (p) {
  case 0:
    return lane;
  case 1:
    return 0;
  case 2:
    return max(lane - 12, 0);
  case 3:
    return min(lane, 11);
  case 4:
    return half * ROW + max(h - 12, 0);
  case 5:
    return half * ROW + min(h, 11);
  case 6:
    return half * ROW + 7;
  case 7:
    return lane / 2;
  case 8:
    return h;
  case 9:
    return lane % 4;
  case 11:
    return half * ROW + 4 + min(h, 11);
  case 12:
    return half * ROW + 1012 + min(h, 11);
  default:
    return lane == 31 ? 0 : lane;
  }
}

template <int P> __global__ void dupLoad(const float *in, float *out) {
  int lane = threadIdx.x;
  bool active = P != 6 || lane % 16 < 8;
  if (active)
    out[lane] = in[pick(P, lane)];
}

template <int P> void run(const float *in, float *out) {
  dupLoad<P><<<1, 32>>>(in, out);
  CHECK(cudaGetLastError());
}

int main() {
  const int n = 2 * ROW;
  float *h = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    h[i] = (float)i;
  float *dIn, *dOut;
  CHECK(cudaMalloc((void **)&dIn, n * sizeof(float)));
  CHECK(cudaMalloc((void **)&dOut, 32 * sizeof(float)));
  CHECK(cudaMemcpy(dIn, h, n * sizeof(float), cudaMemcpyHostToDevice));
  run<0>(dIn, dOut);
  run<1>(dIn, dOut);
  run<2>(dIn, dOut);
  run<3>(dIn, dOut);
  run<4>(dIn, dOut);
  run<5>(dIn, dOut);
  run<6>(dIn, dOut);
  run<7>(dIn, dOut);
  run<8>(dIn, dOut);
  run<9>(dIn, dOut);
  run<10>(dIn, dOut);
  run<11>(dIn, dOut);
  run<12>(dIn, dOut);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, dOut, 32 * sizeof(float), cudaMemcpyDeviceToHost));
  printf("out[31] = %f\n", h[31]);
  CHECK(cudaFree(dIn));
  CHECK(cudaFree(dOut));
  free(h);
  return 0;
}
