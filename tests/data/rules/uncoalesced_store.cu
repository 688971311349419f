// gmem-uncoalesced-store: fires on a column write, silent on its row twin.
// Lanes of columnWrite write floats n = 1024 apart: 32 sectors per request
// where the warp's 128 bytes fit in 4.
#include <cuda_runtime.h>

__global__ void columnWrite(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i * n] = in[i]; // expected-warning{{uncoalesced global store to 'out': 32 sectors per request, ideal 4 (12.5% efficiency) in columnWrite}}
}

// With a 2-D block whose x indexes rows, the swap of the thread-index roles
// is the checked fix: lanes then walk along a row, 4 sectors per request.
__global__ void fillByColumn(float *out, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y * blockDim.y + threadIdx.y;
  out[r * n + c] = 0.0f; // expected-warning{{uncoalesced global store to 'out': 32 sectors per request, ideal 4 (12.5% efficiency) in fillByColumn}} expected-note{{swap the roles of threadIdx.x and threadIdx.y}}
}

__global__ void rowWrite(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

int main() {
  const int n = 1024;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * n * sizeof(float));
  columnWrite<<<n / 128, 128>>>(in, out, n);
  rowWrite<<<n / 128, 128>>>(in, out, n);
  fillByColumn<<<dim3(n / 32, n / 8), dim3(32, 8)>>>(out, n);
  return 0;
}
