// CUB's device-wide selection (cub::DeviceSelect::If), whose sweep kernel
// scans each tile's selection flags with a block scan and reads the warps'
// totals from shared memory on four paths (first tile or not, full tile or
// not). On each path ptxas keeps a total read alone at +16 and drops the
// two that the 16-byte window at +32 reads; gmem follows the SASS's loads
// in order to see which (tests/golden/build_edges_test.cpp, PtxasMerges).
// The selection is checked against the host's; the program exits 1 on a
// wrong one.
#include <cub/device/device_select.cuh>
#include <cstdio>
#include <vector>

struct Odd {
  __device__ bool operator()(int x) const { return x & 1; }
};

int main() {
  const int n = 100000;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i)
    h[i] = (i * 7919) % 1009;
  int *in, *out, *count;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMalloc(&count, sizeof(int));
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  size_t bytes = 0;
  cub::DeviceSelect::If(nullptr, bytes, in, out, count, n, Odd());
  void *temp;
  cudaMalloc(&temp, bytes);
  cub::DeviceSelect::If(temp, bytes, in, out, count, n, Odd());
  int got = 0;
  cudaMemcpy(&got, count, sizeof(int), cudaMemcpyDeviceToHost);
  std::vector<int> sel(n);
  cudaMemcpy(sel.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0, k = 0;
  for (int i = 0; i < n; ++i)
    if (h[i] & 1)
      bad += k >= got || sel[k++] != h[i];
  bad += k != got;
  printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad != 0;
}
