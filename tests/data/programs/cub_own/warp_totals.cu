// CUB block reductions and scans whose last step reads the warps' totals
// from shared memory, each a way ptxas reads them with fewer, wider loads
// than the PTX has (tests/golden/build_edges_test.cpp, PtxasMerges):
//   partial_sum: a partial tile; nvcc guards the last total's load with a
//     branch and ptxas reads it with the one before (LDS.64);
//   dynamic_sum: storage in dynamic shared memory, totals read as one 4-
//     and one 8-byte load before the 16-byte ones; ptxas reads the first
//     window with one LDS.128;
//   warp_scan: each warp reads a total alone and then the window around
//     it; ptxas reads it once;
//   raking_scan: a raking thread reads a segment word, then the segment.
// Each kernel's result is checked; the program exits 1 on a wrong one.
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cstdio>

__global__ void partial_sum(const int *in, int *out, int n) {
  using Reduce = cub::BlockReduce<int, 256>;
  __shared__ typename Reduce::TempStorage s;
  const int t = threadIdx.x;
  const int v = Reduce(s).Sum(t < n ? in[t] : 0, n);
  if (t == 0)
    *out = v;
}

__global__ void dynamic_sum(const int *in, int *out) {
  using Reduce = cub::BlockReduce<int, 1024>;
  extern __shared__ char smem[];
  auto &s = *reinterpret_cast<typename Reduce::TempStorage *>(smem);
  const int v = Reduce(s).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0)
    *out = v;
}

__global__ void warp_scan(const int *in, int *out) {
  using Scan = cub::BlockScan<int, 1024, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ typename Scan::TempStorage s;
  int v = in[threadIdx.x];
  Scan(s).ExclusiveSum(v, v);
  out[threadIdx.x] = v;
}

__global__ void raking_scan(const int *in, int *out) {
  using Scan = cub::BlockScan<int, 64, cub::BLOCK_SCAN_RAKING>;
  __shared__ typename Scan::TempStorage s;
  int v[16];
  for (int i = 0; i < 16; ++i)
    v[i] = in[threadIdx.x * 16 + i];
  Scan(s).ExclusiveSum(v, v);
  for (int i = 0; i < 16; ++i)
    out[threadIdx.x * 16 + i] = v[i];
}

int main() {
  const int N = 1024;
  int h[N], *in, *out;
  for (int i = 0; i < N; ++i)
    h[i] = i % 7;
  cudaMalloc(&in, N * sizeof(int));
  cudaMalloc(&out, N * sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  int bad = 0, got[N];
  long want = 0;

  partial_sum<<<1, 256>>>(in, out, 200);
  cudaMemcpy(got, out, sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 200; ++i)
    want += h[i];
  bad += got[0] != want;

  dynamic_sum<<<1, 1024, sizeof(cub::BlockReduce<int, 1024>::TempStorage)>>>(
      in, out);
  cudaMemcpy(got, out, sizeof(int), cudaMemcpyDeviceToHost);
  want = 0;
  for (int i = 0; i < N; ++i)
    want += h[i];
  bad += got[0] != want;

  for (int k = 0; k < 2; ++k) {
    if (k == 0)
      warp_scan<<<1, 1024>>>(in, out);
    else
      raking_scan<<<1, 64>>>(in, out);
    cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
    want = 0;
    for (int i = 0; i < N; ++i) {
      bad += got[i] != want;
      want += h[i];
    }
  }
  printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad != 0;
}
