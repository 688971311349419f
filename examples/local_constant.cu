// Thread-private arrays and __constant__ tables beside global traffic. A
// local array indexed at run time lives in local memory (LDL, STL), which
// the global load and store counters leave out; a __constant__ table is
// read through the constant cache (LDC), also outside them. gmem counts
// neither as global traffic and says how many local instructions the SASS
// holds.
//
//   localUniform   stores 64 loaded values into t[(j * k) & 63], then reads
//                  t[k & 63]: every lane the same index
//   localPerLane   the same, reading t[(lane * 7 + k) & 63]: an index per lane
//   constUniform   in[i] * coef[k]
//   constPerLane   in[i] * coef[threadIdx.x % 64]
//
// Build: nvcc -arch=sm_90 -lineinfo -o local_constant local_constant.cu
// Analyze: gmem-analyze local_constant.cu
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

#define STRIDE 16384

__constant__ float coef[64];

__global__ void localUniform(float *out, const float *in, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t[64];
  for (int j = 0; j < 64; ++j)
    t[(j * k) & 63] = in[i + j * STRIDE];
  out[i] = t[k & 63];
}

__global__ void localPerLane(float *out, const float *in, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float t[64];
  for (int j = 0; j < 64; ++j)
    t[(j * k) & 63] = in[i + j * STRIDE];
  out[i] = t[(threadIdx.x % 32 * 7 + k) & 63];
}

__global__ void constUniform(float *out, const float *in, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * coef[k];
}

__global__ void constPerLane(float *out, const float *in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * coef[threadIdx.x % 64];
}

int main() {
  const int n = 64 * STRIDE;
  float *in, *out, h[64];
  for (int j = 0; j < 64; ++j)
    h[j] = 1.0f / (j + 1);
  CHECK(cudaMemcpyToSymbol(coef, h, sizeof(h)));
  CHECK(cudaMalloc((void **)&in, n * sizeof(float)));
  CHECK(cudaMalloc((void **)&out, STRIDE * sizeof(float)));
  CHECK(cudaMemset(in, 0, n * sizeof(float)));

  localUniform<<<STRIDE / 256, 256>>>(out, in, 3);
  CHECK(cudaGetLastError());
  localPerLane<<<STRIDE / 256, 256>>>(out, in, 3);
  CHECK(cudaGetLastError());
  constUniform<<<STRIDE / 256, 256>>>(out, in, 5);
  CHECK(cudaGetLastError());
  constPerLane<<<STRIDE / 256, 256>>>(out, in);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, out, sizeof(float), cudaMemcpyDeviceToHost));
  printf("out[0] = %f\n", h[0]);
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  return 0;
}
