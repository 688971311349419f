// gmem-partial-warp: 48 threads per block fill one warp and half of a
// second: 16 of the 64 lanes idle in every block (25%). The twin launches
// 64 threads per block.
#include <cuda_runtime.h>

__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

int main() {
  const int n = 3072;
  float *x;
  cudaMalloc(&x, n * sizeof(float));
  scale<<<n / 48, 48>>>(x, n); // expected-warning{{launch of scale with 48 threads per block leaves 16 of 64 lanes idle in every block (25% of the warps' lanes)}}
  scale<<<n / 64, 64>>>(x, n);
  return 0;
}
