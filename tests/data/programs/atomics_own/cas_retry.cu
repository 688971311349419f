// Compare-and-swap retry loops: a float maximum built on atomicCAS (the
// idiom for atomics the hardware lacks) and a lock. Within one warp the
// retries follow from the lanes alone; with several warps racing for the
// same words, how often each loop runs again is decided by timing, so
// gmem reports the fewest requests a GPU can make and says why
// (tests/golden/build_edges_test.cpp, RetryLoops).
#include <algorithm>
#include <cstdio>
#include <vector>

__device__ float atomicMaxFloat(float *addr, float v) {
  int *word = reinterpret_cast<int *>(addr);
  int old = *word, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= v)
      break;
    old = atomicCAS(word, assumed, __float_as_int(v));
  } while (assumed != old);
  return __int_as_float(old);
}

// Each thread offers its element to one of Bins maxima.
__global__ void binMax(const float *in, float *out, int n, int bins) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicMaxFloat(&out[i % bins], in[i]);
}

// One lane per warp takes a lock to append its warp's sum to a list.
__global__ void lockedAppend(const float *in, float *list, int *count,
                             int *lock) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[i];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    const int at = *(volatile int *)count;
    list[at] = v;
    *(volatile int *)count = at + 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}

int main() {
  const int n = 1 << 16, bins = 4;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = float((i * 7919) % 10007);
  float *in, *out, *list;
  int *count, *lock;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, bins * sizeof(float));
  cudaMalloc(&list, n / 32 * sizeof(float));
  cudaMalloc(&count, sizeof(int));
  cudaMalloc(&lock, sizeof(int));
  cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  int failed = 0;
  // One warp, then 2048 warps racing for 4 words.
  for (int threads : {32, n}) {
    cudaMemset(out, 0, bins * sizeof(float));
    binMax<<<(threads + 255) / 256, threads < 256 ? threads : 256>>>(
        in, out, threads, bins);
    std::vector<float> got(bins), want(bins, 0.0f);
    cudaMemcpy(got.data(), out, bins * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < threads; ++i)
      want[i % bins] = std::max(want[i % bins], h[i]);
    for (int b = 0; b < bins; ++b)
      if (got[b] != want[b]) {
        std::printf("binMax over %d: bin %d is %g, not %g\n", threads, b,
                    got[b], want[b]);
        failed = 1;
      }
  }
  cudaMemset(count, 0, sizeof(int));
  cudaMemset(lock, 0, sizeof(int));
  lockedAppend<<<n / 256, 256>>>(in, list, count, lock);
  int appended = 0;
  cudaMemcpy(&appended, count, sizeof(int), cudaMemcpyDeviceToHost);
  if (appended != n / 32) {
    std::printf("lockedAppend: %d sums, not %d\n", appended, n / 32);
    failed = 1;
  }
  std::printf(failed ? "FAILED\n" : "PASSED\n");
  return failed;
}
