#include <cuda_runtime.h>

#include "split.h"

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  // A quarter of the most threads a block may have.
  int threads = prop.maxThreadsPerBlock / 4;
  int n = 1 << 16;
  float *a;
  cudaMalloc(&a, n * sizeof(float));
  scaleAll<float>(a, n, threads);
  shiftAll(a, n);
  notGiven(a);
  notGiven(a);
  cudaFree(a);
  return 0;
}
