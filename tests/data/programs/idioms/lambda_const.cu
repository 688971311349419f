// A kernel templated on a lambda that captures a pointer and a scale; a
// __grid_constant__ struct read by member and by index; a gather through a
// __constant__ permutation filled with cudaMemcpyToSymbol. Compile with
// --extended-lambda. Results are checked on the host.
#include <cstdio>
#include <vector>

template <class F> __global__ void apply(int n, F f) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    f(i);
}

struct Params {
  float scale[4];
  int stride;
  const float *src;
};

__global__ void scaled(const __grid_constant__ Params p, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = p.src[(i * p.stride) % n] * p.scale[i % 4];
}

__constant__ int perm[1024];

__global__ void gather(const float *in, float *out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[(blockIdx.x % 64) * 1024 + perm[threadIdx.x + (blockIdx.x % 4) * 256]];
}

int main() {
  const int n = 1 << 16;
  std::vector<float> h(n), got(n);
  for (int i = 0; i < n; ++i)
    h[i] = float(i % 977);
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  const float k = 3.0f;
  const float *src = in;
  float *dst = out;
  apply<<<n / 256, 256>>>(n, [=] __device__(int i) { dst[i] = src[n - 1 - i] * k; });
  cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (got[i] != h[n - 1 - i] * k) {
      printf("lambda: mismatch at %d\n", i);
      return 1;
    }
  Params p = {{1.0f, 2.0f, 3.0f, 4.0f}, 33, in};
  scaled<<<n / 256, 256>>>(p, out, n);
  cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (got[i] != h[(i * 33) % n] * float(i % 4 + 1)) {
      printf("grid constant: mismatch at %d\n", i);
      return 1;
    }
  int hp[1024];
  for (int i = 0; i < 1024; ++i)
    hp[i] = (i * 389) % 1024;
  cudaMemcpyToSymbol(perm, hp, sizeof hp);
  gather<<<n / 256, 256>>>(in, out);
  cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    const int b = i / 256, t = i % 256;
    if (got[i] != h[(b % 64) * 1024 + hp[t + (b % 4) * 256]]) {
      printf("constant gather: mismatch at %d\n", i);
      return 1;
    }
  }
  printf("lambda, grid constant, constant gather: ok\n");
  cudaFree(in);
  cudaFree(out);
  return 0;
}
