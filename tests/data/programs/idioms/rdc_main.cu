// Kernels that call __device__ functions of another file (rdc_lib.cu),
// linked as nvcc -rdc=true links them.
#include <cstdio>
#include <vector>

extern __device__ float load3(const float *p, int i);
extern __device__ void storeStrided(float *p, int i, float v);

__global__ void sums(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    storeStrided(out, i, load3(in, i));
}

int main() {
  const int n = 1 << 15;
  std::vector<float> h(3 * n), got(2 * n);
  for (int i = 0; i < 3 * n; ++i)
    h[i] = float(i % 13);
  float *in, *out;
  cudaMalloc(&in, 3 * n * sizeof(float));
  cudaMalloc(&out, 2 * n * sizeof(float));
  cudaMemcpy(in, h.data(), 3 * n * sizeof(float), cudaMemcpyHostToDevice);
  sums<<<n / 256, 256>>>(in, out, n);
  cudaMemcpy(got.data(), out, 2 * n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (got[2 * i] != h[3 * i] + h[3 * i + 1] + h[3 * i + 2]) {
      printf("mismatch at %d\n", i);
      return 1;
    }
  printf("separate compilation: ok\n");
  cudaFree(in);
  cudaFree(out);
  return 0;
}
