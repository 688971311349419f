// gmem-shared-out-of-bounds: a tile sized for 32 threads, launched with 64:
// threads 32 to 63 of each block store past its 128 bytes (32 lanes per
// block, 2 blocks: 64 lane accesses). The twin sizes it from the block.
#include <cuda_runtime.h>

__global__ void smallTile(const float *in, float *out) {
  __shared__ float tile[32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = in[i]; // expected-error{{shared store of 'tile' out of bounds: 64 lane accesses fall outside its 128 bytes in smallTile}}
  __syncthreads();
  out[i] = tile[threadIdx.x]; // expected-error{{shared load of 'tile' out of bounds: 64 lane accesses fall outside its 128 bytes in smallTile}}
}

__global__ void fittingTile(const float *in, float *out) {
  __shared__ float tile[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  out[i] = tile[threadIdx.x];
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 128 * sizeof(float));
  cudaMalloc(&out, 128 * sizeof(float));
  smallTile<<<2, 64>>>(in, out);
  fittingTile<<<2, 64>>>(in, out);
  return 0;
}
