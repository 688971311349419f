// Triangular loop nests, one column per thread: the inner loop's start or
// bound moves with the outer index, so its trip count does too (counted to
// the second order, simulator/loop_skip.h). TRI_N sets the size.
#include <cstdio>
#include <cuda_runtime.h>

#ifndef TRI_N
#define TRI_N 512
#endif

// prefix[i][col] = sum of a[0..i][col]: a growing triangle.
__global__ void prefixSums(const float *a, float *prefix, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= n)
    return;
  for (int i = 0; i < n; ++i) {
    float s = 0.0f;
    for (int k = 0; k <= i; ++k)
      s += a[k * n + col];
    prefix[i * n + col] = s;
  }
}

// Back substitution with an upper triangular u, from the last row up:
// each row reads the rows already solved below it.
__global__ void backSubstitution(const float *u, float *x, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= n)
    return;
  for (int i = n - 1; i >= 0; --i) {
    float s = x[i * n + col];
    for (int k = i + 1; k < n; ++k)
      s -= u[i * n + k] * x[k * n + col];
    x[i * n + col] = s / u[i * n + i];
  }
}

int main() {
  const int n = TRI_N;
  float *a, *x;
  if (cudaMalloc(&a, sizeof(float) * n * n) != cudaSuccess ||
      cudaMalloc(&x, sizeof(float) * n * n) != cudaSuccess) {
    std::fprintf(stderr, "cudaMalloc failed\n");
    return 1;
  }
  cudaMemset(a, 0, sizeof(float) * n * n);
  cudaMemset(x, 0, sizeof(float) * n * n);
  prefixSums<<<(n + 127) / 128, 128>>>(a, x, n);
  backSubstitution<<<(n + 127) / 128, 128>>>(a, x, n);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::fprintf(stderr, "kernels failed\n");
    return 1;
  }
  cudaFree(a);
  cudaFree(x);
  return 0;
}
