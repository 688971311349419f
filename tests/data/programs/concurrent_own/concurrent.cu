// Launches of one kernel that overlap on the GPU: OpenMP threads each
// launching on a stream of their own, as OLCF's hw10 does. A GPU's per-line
// SASS counts are those of every launch of the kernel running while they
// are enabled, so gmem-verify runs the measured launch alone
// (gpu/cupti/inject.cpp, gate()); tests/golden/build_edges_test.cpp
// (ConcurrentLaunches) compares them with gmem's prediction.
// Build: nvcc -Xcompiler -fopenmp concurrent.cu
#include <cstdio>
#include <cstdlib>
#include <omp.h>
#include <vector>

constexpr int Streams = 4;
constexpr int Rounds = 3;

// Every launch reads x with the same stride, so each of them has the same
// counts whichever thread's launch a run measures.
__global__ void gatherAxpy(const float *x, float *y, float a, int n,
                           int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += a * x[(i * stride) % n];
}

int main() {
  const int n = 1 << 21, stride = 3;
  std::vector<float> h(size_t(n) * Streams);
  for (size_t i = 0; i < h.size(); ++i)
    h[i] = float(i % 1000);
  float *x, *y;
  cudaMalloc(&x, h.size() * sizeof(float));
  cudaMalloc(&y, h.size() * sizeof(float));
  cudaMemcpy(x, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(y, 0, h.size() * sizeof(float));
#pragma omp parallel for num_threads(Streams)
  for (int s = 0; s < Streams; ++s) {
    cudaStream_t st;
    cudaStreamCreate(&st);
    for (int r = 0; r < Rounds; ++r)
      gatherAxpy<<<n / 256, 256, 0, st>>>(x + size_t(s) * n,
                                          y + size_t(s) * n, 0.5f, n, stride);
    cudaStreamSynchronize(st);
    cudaStreamDestroy(st);
  }
  std::vector<float> out(h.size());
  cudaMemcpy(out.data(), y, out.size() * sizeof(float),
             cudaMemcpyDeviceToHost);
  for (int s = 0; s < Streams; ++s)
    for (int i = 0; i < n; ++i) {
      float want = Rounds * 0.5f * h[size_t(s) * n + size_t(i) * stride % n];
      if (out[size_t(s) * n + i] != want) {
        std::printf("FAIL at stream %d, element %d: %f, not %f\n", s, i,
                    out[size_t(s) * n + i], want);
        return 1;
      }
    }
  std::printf("PASS: %d launches on %d streams\n", Streams * Rounds, Streams);
  return 0;
}
