// A shared array read past its end, as the flash attention of the GPU MODE
// lectures (lecture 12) reads its S: 64 threads read small[0..63] of a
// 32-element array declared after a 256-element one. ptxas places a
// kernel's shared arrays as declared, small last, so the read leaves the
// block's shared memory and the launch faults; built with -rdc=true,
// nvlink places them, small first, and the read lands in big.
#include <cstdio>

__global__ void overrun(float *out) {
  __shared__ float big[256];
  __shared__ float small[32];
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    big[i] = float(i);
  if (threadIdx.x < 32)
    small[threadIdx.x] = -1.0f;
  __syncthreads();
  out[threadIdx.x] = small[threadIdx.x];
  out[64 + threadIdx.x] = big[255 - threadIdx.x];
}

int main() {
  float *d;
  cudaMalloc(&d, 128 * sizeof(float));
  overrun<<<1, 64>>>(d);
  float h[128];
  cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("copy: %s\n", cudaGetErrorName(e));
  return 0;
}
