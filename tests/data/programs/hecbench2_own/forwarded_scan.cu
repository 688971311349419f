// An exclusive scan of 256 values per chunk in shared memory (up-sweep,
// then down-sweep), chunks taken by a grid-stride loop, as HeCBench's scan
// does it. nvcc forwards the last down-sweep step's stores to the copy
// out: it loads the two words each thread owns once, after the last
// barrier, on no line (`.loc 1 0 0`), stores them back under the step's
// guard and stores the global copies from registers. ptxas puts that load
// on the loop's line (one LDS.64 for int), makes the step's two stores one
// STS.64 on the second store's line, and gives the second load of the
// step before it the first load's line. Checked against the H200 per line
// (tests/data/measured/hecbench2/own_forwarded_scan.json).
#include <cstdio>
#include <vector>

template <typename T>
__global__ void chunkScan(const T *in, T *out, int chunks) {
  __shared__ T buf[256];
  const int t = threadIdx.x;
  for (int c = blockIdx.x; c < chunks; c += gridDim.x) {
    buf[2 * t] = in[c * 256 + 2 * t];
    buf[2 * t + 1] = in[c * 256 + 2 * t + 1];
    int step = 1;
    for (int width = 128; width > 0; width >>= 1) {
      __syncthreads();
      if (t < width) {
        const int left = step * (2 * t + 1) - 1;
        buf[left + step] += buf[left];
      }
      step <<= 1;
    }
    if (t == 0)
      buf[255] = 0;
    for (int width = 1; width < 256; width <<= 1) {
      step >>= 1;
      __syncthreads();
      if (t < width) {
        const int left = step * (2 * t + 1) - 1;
        const T carried = buf[left];
        buf[left] = buf[left + step];
        buf[left + step] += carried;
      }
    }
    out[c * 256 + 2 * t] = buf[2 * t];
    out[c * 256 + 2 * t + 1] = buf[2 * t + 1];
  }
}

template <typename T> int check(int chunks) {
  std::vector<T> h(chunks * 256), r(chunks * 256);
  for (size_t i = 0; i < h.size(); ++i)
    h[i] = T(i % 3);
  T *in, *out;
  cudaMalloc(&in, h.size() * sizeof(T));
  cudaMalloc(&out, h.size() * sizeof(T));
  cudaMemcpy(in, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
  chunkScan<T><<<chunks / 2, 128>>>(in, out, chunks);
  cudaMemcpy(r.data(), out, r.size() * sizeof(T), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int c = 0; c < chunks; ++c) {
    T sum = 0;
    for (int i = 0; i < 256; ++i) {
      wrong += r[c * 256 + i] != sum;
      sum += h[c * 256 + i];
    }
  }
  cudaFree(in);
  cudaFree(out);
  return wrong;
}

int main() {
  const int wrong = check<int>(64) + check<short>(64) + check<char>(64);
  std::printf("%s\n", wrong ? "FAIL" : "PASS");
  return wrong != 0;
}
