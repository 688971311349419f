// Kernels on 16-bit floats, as machine-learning code writes them: __half and
// __nv_bfloat16 through their overloaded operators and conversions, packed
// __half2, eight bf16 values moved as one 16-byte vector, and a bf16 row
// reduction. The loads and stores go through CUDA's class types, whose
// operators live in cuda_fp16.hpp and cuda_bf16.hpp.
//
//   halfScale      out[i] = in[i] * s                         (2-byte LDG/STG)
//   bf16Residual   out[i] = a[i] + b[i]           (llm.c's residual_forward)
//   half2Axpy      y[i] = __hfma2(a, x[i], y[i])   (packed: 4-byte LDG/STG)
//   bf16Pack8      eight bf16 per thread as one int4  (llm.c's x128 loads)
//   bf16RowSum     one warp per row of C values: strided bf16 loads, float
//                  accumulation, a shuffle reduction, lane 0 stores the sum
//
// Build: nvcc -arch=sm_90 -lineinfo -o half_precision half_precision.cu
// Analyze: gmem-analyze half_precision.cu
#include <cstdio>
#include <cstdlib>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
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

__global__ void halfScale(__half *out, const __half *in, __half s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * s;
}

__global__ void bf16Residual(__nv_bfloat16 *out, const __nv_bfloat16 *a,
                             const __nv_bfloat16 *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a[i] + b[i];
}

__global__ void half2Axpy(__half2 *y, const __half2 *x, __half2 a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __hfma2(a, x[i], y[i]);
}

// Eight bf16 values as one 16-byte load and store.
struct alignas(16) Pack8 {
  __nv_bfloat16 v[8];
};

__global__ void bf16Pack8(__nv_bfloat16 *out, const __nv_bfloat16 *in,
                          float scale, int n) {
  int i = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  if (i < n) {
    Pack8 p = *reinterpret_cast<const Pack8 *>(in + i);
    Pack8 q;
    for (int k = 0; k < 8; ++k)
      q.v[k] = __float2bfloat16(__bfloat162float(p.v[k]) * scale);
    *reinterpret_cast<Pack8 *>(out + i) = q;
  }
}

__global__ void bf16RowSum(float *sums, const __nv_bfloat16 *in, int rows,
                           int C) {
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int row = blockIdx.x * (blockDim.x / 32) + warp;
  if (row >= rows)
    return;
  float s = 0.0f;
  for (int c = lane; c < C; c += 32)
    s += __bfloat162float(in[row * C + c]);
  for (int o = 16; o > 0; o /= 2)
    s += __shfl_xor_sync(0xffffffffu, s, o);
  if (lane == 0)
    sums[row] = s;
}

int main() {
  const int n = 1 << 20, rows = 1024, C = 768;
  __half *h0, *h1;
  __nv_bfloat16 *b0, *b1, *b2;
  float *sums;
  CHECK(cudaMalloc((void **)&h0, n * sizeof(__half)));
  CHECK(cudaMalloc((void **)&h1, n * sizeof(__half)));
  CHECK(cudaMalloc((void **)&b0, n * sizeof(__nv_bfloat16)));
  CHECK(cudaMalloc((void **)&b1, n * sizeof(__nv_bfloat16)));
  CHECK(cudaMalloc((void **)&b2, n * sizeof(__nv_bfloat16)));
  CHECK(cudaMalloc((void **)&sums, rows * sizeof(float)));
  CHECK(cudaMemset(h0, 0, n * sizeof(__half)));
  CHECK(cudaMemset(h1, 0, n * sizeof(__half)));
  CHECK(cudaMemset(b1, 0, n * sizeof(__nv_bfloat16)));
  CHECK(cudaMemset(b2, 0, n * sizeof(__nv_bfloat16)));

  halfScale<<<n / 256, 256>>>(h0, h1, __float2half(2.0f), n);
  CHECK(cudaGetLastError());
  bf16Residual<<<n / 256, 256>>>(b0, b1, b2, n);
  CHECK(cudaGetLastError());
  half2Axpy<<<n / 2 / 256, 256>>>((__half2 *)h0, (const __half2 *)h1,
                                  __floats2half2_rn(0.5f, 0.5f), n / 2);
  CHECK(cudaGetLastError());
  bf16Pack8<<<n / 8 / 128, 128>>>(b0, b1, 0.5f, n);
  CHECK(cudaGetLastError());
  bf16RowSum<<<rows / 8, 256>>>(sums, b0, rows, C);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  float h[4];
  CHECK(cudaMemcpy(h, sums, sizeof(h), cudaMemcpyDeviceToHost));
  printf("sums[0] = %f\n", h[0]);
  CHECK(cudaFree(h0));
  CHECK(cudaFree(h1));
  CHECK(cudaFree(b0));
  CHECK(cudaFree(b1));
  CHECK(cudaFree(b2));
  CHECK(cudaFree(sums));
  return 0;
}
