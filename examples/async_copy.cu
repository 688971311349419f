// Asynchronous global-to-shared copies (cp.async, Ampere and later: the
// LDGSTS instruction), as double-buffered kernels write them. The copy's
// global side is a global load for the L1 counters (its requests and
// sectors), but not for the SASS instruction and byte counts of global
// loads; its shared side is in no shared load or store counter.
//
//   pipelineScale   tiles of 256 floats, two stages: while tile t is read
//                   from shared memory, tile t + 1 is on its way
//                   (__pipeline_memcpy_async, 4 bytes per thread)
//   cudaCopyVec4    one float4 per thread through cuda::memcpy_async and a
//                   per-thread cuda::pipeline (16 bytes: LDGSTS.128)
//   pipelineGather  each thread copies every 4th float (a strided source:
//                   16 sectors per request)
//
// Build: nvcc -arch=sm_90 -lineinfo -o async_copy async_copy.cu
// Analyze: gmem-analyze async_copy.cu
#include <cstdio>
#include <cstdlib>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
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

#define TILE 256

__global__ void pipelineScale(float *out, const float *in, int tiles) {
  __shared__ float buf[2][TILE];
  const int base = blockIdx.x * tiles * TILE;
  __pipeline_memcpy_async(&buf[0][threadIdx.x], &in[base + threadIdx.x],
                          sizeof(float));
  __pipeline_commit();
  for (int t = 0; t < tiles; ++t) {
    if (t + 1 < tiles)
      __pipeline_memcpy_async(&buf[(t + 1) % 2][threadIdx.x],
                              &in[base + (t + 1) * TILE + threadIdx.x],
                              sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    out[base + t * TILE + threadIdx.x] = 2.0f * buf[t % 2][threadIdx.x];
    __syncthreads();
  }
}

__global__ void cudaCopyVec4(float4 *out, const float4 *in) {
  __shared__ float4 buf[TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&buf[threadIdx.x], &in[i],
                     cuda::aligned_size_t<16>(sizeof(float4)), pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  __syncthreads();
  out[i] = buf[TILE - 1 - threadIdx.x];
  pipe.consumer_release();
}

__global__ void pipelineGather(float *out, const float *in) {
  __shared__ float buf[TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __pipeline_memcpy_async(&buf[threadIdx.x], &in[4 * i], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[i] = buf[threadIdx.x];
}

int main() {
  const int blocks = 256, tiles = 8, n = blocks * tiles * TILE;
  float *in, *out;
  CHECK(cudaMalloc((void **)&in, 4 * n * sizeof(float)));
  CHECK(cudaMalloc((void **)&out, n * sizeof(float)));
  float *h = (float *)malloc(4 * n * sizeof(float));
  for (int i = 0; i < 4 * n; ++i)
    h[i] = (float)(i % 1000);
  CHECK(cudaMemcpy(in, h, 4 * n * sizeof(float), cudaMemcpyHostToDevice));

  pipelineScale<<<blocks, TILE>>>(out, in, tiles);
  CHECK(cudaGetLastError());
  cudaCopyVec4<<<n / 4 / TILE, TILE>>>((float4 *)out, (const float4 *)in);
  CHECK(cudaGetLastError());
  pipelineGather<<<n / TILE, TILE>>>(out, in);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaMemcpy(h, out, n * sizeof(float), cudaMemcpyDeviceToHost));
  printf("out[1] = %f (4 expected)\n", h[1]);
  int status = h[1] == 4.0f ? 0 : 1;
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  free(h);
  return status;
}
