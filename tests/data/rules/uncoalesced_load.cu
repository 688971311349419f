// gmem-uncoalesced-load: fires on a column read, silent on its row twin.
// Lanes of columnRead read floats n = 1024 apart (4096 bytes): 32 sectors
// per request where the warp's 128 bytes fit in 4.
#include <cuda_runtime.h>

__global__ void columnRead(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * n]; // expected-warning{{uncoalesced global load from 'in': 32 sectors per request, ideal 4 (12.5% efficiency) in columnRead}}
}

__global__ void rowRead(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

int main() {
  const int n = 1024;
  float *in, *out;
  cudaMalloc(&in, n * n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  columnRead<<<n / 128, 128>>>(in, out, n);
  rowRead<<<n / 128, 128>>>(in, out, n);
  return 0;
}
