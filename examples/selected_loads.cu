// Loads in branches that nvcc turns into one load of a per-lane selected
// address: the source has a load per branch, the GPU one request per warp
// for all of them (SEL of the addresses, then one LDG).
//
//   switchArrays   switch (threadIdx.x % 3): a[i], b[i] or c[i]
//   switchRows     the same switch over three rows of one array
//   pickHalf       lanes of the lower half-warp read a[i], the upper b[i]
//
// Build: nvcc -arch=sm_90 -lineinfo -o selected_loads selected_loads.cu
// Analyze: gmem-analyze selected_loads.cu
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

__global__ void switchArrays(float *out, const float *a, const float *b,
                             const float *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v;
  switch (threadIdx.x % 3) {
  case 0:
    v = a[i];
    break;
  case 1:
    v = b[i];
    break;
  default:
    v = c[i];
    break;
  }
  out[i] = v;
}

__global__ void switchRows(float *out, const float *m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v;
  switch (threadIdx.x % 3) {
  case 0:
    v = m[i];
    break;
  case 1:
    v = m[n + i];
    break;
  default:
    v = m[2 * n + i];
    break;
  }
  out[i] = v;
}

__global__ void pickHalf(float *out, const float *a, const float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v;
  if (threadIdx.x % 32 < 16)
    v = a[i];
  else
    v = b[i];
  out[i] = v;
}

int main() {
  const int n = 1 << 20;
  float *a, *b, *c, *out;
  CHECK(cudaMalloc((void **)&a, 3 * n * sizeof(float)));
  CHECK(cudaMalloc((void **)&b, n * sizeof(float)));
  CHECK(cudaMalloc((void **)&c, n * sizeof(float)));
  CHECK(cudaMalloc((void **)&out, n * sizeof(float)));
  CHECK(cudaMemset(a, 0, 3 * n * sizeof(float)));
  CHECK(cudaMemset(b, 0, n * sizeof(float)));
  CHECK(cudaMemset(c, 0, n * sizeof(float)));

  switchArrays<<<n / 256, 256>>>(out, a, b, c);
  CHECK(cudaGetLastError());
  switchRows<<<n / 256, 256>>>(out, a, n);
  CHECK(cudaGetLastError());
  pickHalf<<<n / 256, 256>>>(out, a, b);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  float h;
  CHECK(cudaMemcpy(&h, out, sizeof(float), cudaMemcpyDeviceToHost));
  printf("out[0] = %f\n", h);
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  CHECK(cudaFree(out));
  return 0;
}
