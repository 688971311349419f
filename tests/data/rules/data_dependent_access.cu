// gmem-data-dependent-access: a gather through an index array; where it
// reads depends on idx's contents, which the source does not show (8 blocks
// of 4 warps: 32 requests). The twin computes its index.
#include <cuda_runtime.h>

__global__ void gather(const float *in, const int *idx, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i]]; // expected-warning{{global load of 'in' has an address that depends on loaded data: its cost cannot be predicted from the source (32 requests) in gather}}
}

__global__ void direct(const float *in, const int *idx, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

int main() {
  float *in, *out;
  int *idx;
  cudaMalloc(&in, 1024 * sizeof(float));
  cudaMalloc(&idx, 1024 * sizeof(int));
  cudaMalloc(&out, 1024 * sizeof(float));
  gather<<<8, 128>>>(in, idx, out);
  direct<<<8, 128>>>(in, idx, out);
  return 0;
}
