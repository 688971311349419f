// gmem-misaligned-access: 8-byte loads from a float pointer advanced by one
// float start 4 bytes past an 8-byte boundary: every lane faults. The twin
// reads from the allocation's start (cudaMalloc aligns to 256 bytes).
#include <cuda_runtime.h>

__global__ void shiftedPairs(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float2 v = reinterpret_cast<const float2 *>(in + 1)[i]; // expected-error{{misaligned global load of 'in': 1024 lane accesses of 8 bytes start at an address that is not a multiple of 8 in shiftedPairs}}
  out[i] = v.x + v.y;
}

__global__ void alignedPairs(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float2 v = reinterpret_cast<const float2 *>(in)[i];
  out[i] = v.x + v.y;
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 4096 * sizeof(float));
  cudaMalloc(&out, 2048 * sizeof(float));
  shiftedPairs<<<8, 128>>>(in, out);
  alignedPairs<<<8, 128>>>(in, out);
  return 0;
}
