// A scan whose if/else both store to out[] on lines of their own, and whose
// loop keeps two values across a barrier: the program that made gmem's SASS
// matcher crash (issue 29). nvcc compiles it; gmem must analyse it.
#include <cuda_runtime.h>

__global__ void treeScan(float *out, const float *in, unsigned n, float *totals)
{
  extern __shared__ float s[];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;

  s[2*t]     = in[2*g];
  s[2*t + 1] = in[2*g + 1];
  __syncthreads();

  float a = s[0];
  float b = a + s[1];

  for (int d = 1; d < n; d *= 2)
  {
    if (2*t >= d)
    {
      a = s[2*t-d] + s[2*t];
      b = s[2*t+1-d] + s[2*t+1];
    }
    __syncthreads();

    s[2*t] = a;
    s[2*t+1] = b;

    __syncthreads();
  }

  totals[blockIdx.x] = s[n-1];

  if (t == 0)
  {
    out[2*g]     = 0;
    out[2*g+1]   = s[2*t];
  }
  else
  {
    out[2*g]     = s[2*t-1];
    out[2*g + 1] = s[2*t];
  }
}

int main() {
  float *in, *out, *totals; unsigned n = 1 << 16, b = 256;
  cudaMalloc(&in, n * 4); cudaMalloc(&out, n * 4); cudaMalloc(&totals, 1024 * 4);
  cudaMemset(in, 0, n * 4);
  treeScan<<<n / (2 * b), b, 2 * b * 4>>>(out, in, 2 * b, totals);
  cudaDeviceSynchronize();
  return 0;
}
