// gmem-bank-conflict: reading a 32x32 float tile by column puts all 32 lanes
// of a warp in one bank (rows are 128 bytes apart): 32 wavefronts where 1
// would do. The twin pads each row by one float, so column neighbours are
// 33 words apart and fall in 32 different banks.
#include <cuda_runtime.h>

__global__ void columnTile(const float *in, float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y]; // expected-warning{{up to 32-way bank conflict in shared load of 'tile': 32 wavefronts per request, ideal 1 in columnTile}}  expected-note{{pad the last dimension of 'tile' by 1 element: tile[32][33]}}
}

__global__ void paddedTile(const float *in, float *out) {
  __shared__ float tile[32][33];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1024 * sizeof(float));
  cudaMalloc(&out, 1024 * sizeof(float));
  columnTile<<<1, dim3(32, 32)>>>(in, out);
  paddedTile<<<1, dim3(32, 32)>>>(in, out);
  return 0;
}
