// Segmented sums with Thrust's scan by key, which its CUDA backend runs as
// CUB's DeviceScanByKeyKernel: a block scan of (flag, value) pairs whose
// warp totals the last step reads from shared memory. On one path ptxas
// reads the 8-byte total at +8 of the storage with the 16 bytes at +0 (one
// LDS.128 for the PTX's ld.shared.v2), which gmem prices as the binary
// makes it (tests/golden/build_edges_test.cpp, PtxasMerges). Each result
// is checked against the host's; the program exits 1 on a wrong one.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/scan.h>
#include <cstdio>

int main() {
  int bad = 0;
  // One tile, as Thrust's own example; then two, the second scanned with
  // the first's prefix.
  for (int n : {15, 5000}) {
    thrust::host_vector<int> keys(n), vals(n);
    for (int i = 0; i < n; ++i) {
      keys[i] = i / 7; // Segments of 7.
      vals[i] = i % 5 + 1;
    }
    thrust::device_vector<int> dk = keys, dv = vals, out(n);
    for (int exclusive = 0; exclusive < 2; ++exclusive) {
      if (exclusive)
        thrust::exclusive_scan_by_key(dk.begin(), dk.end(), dv.begin(),
                                      out.begin());
      else
        thrust::inclusive_scan_by_key(dk.begin(), dk.end(), dv.begin(),
                                      out.begin());
      thrust::host_vector<int> got = out;
      int sum = 0;
      for (int i = 0; i < n; ++i) {
        if (i == 0 || keys[i] != keys[i - 1])
          sum = 0;
        const int before = sum;
        sum += vals[i];
        bad += got[i] != (exclusive ? before : sum);
      }
    }
  }
  printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad != 0;
}
