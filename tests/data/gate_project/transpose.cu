#include <cuda_runtime.h>

// Transposes an n x n matrix, one element per thread.
__global__ void transposeNaive(const float *in, float *out, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < n && c < n)
    out[c * n + r] = in[r * n + c];
}

int main() {
  const int n = 1024;
  float *in, *out;
  cudaMalloc(&in, n * n * sizeof(float));
  cudaMalloc(&out, n * n * sizeof(float));
  dim3 block(16, 16);
  dim3 grid((n + block.x - 1) / block.x, (n + block.y - 1) / block.y);
  transposeNaive<<<grid, block>>>(in, out, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  return 0;
}
