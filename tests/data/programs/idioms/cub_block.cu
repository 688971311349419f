// CUB's block and warp primitives as real kernels use them: BlockLoad and
// BlockStore in their direct, vectorized and transposing forms, BlockScan,
// BlockReduce and WarpReduce. Each result is checked on the host (exit 1
// on a mismatch), so a run that does not compute them stops here.
#include <cub/cub.cuh>
#include <cstdio>
#include <vector>

constexpr int Threads = 128, Items = 4, Tile = Threads * Items;

template <cub::BlockLoadAlgorithm L, cub::BlockStoreAlgorithm S>
__global__ void loadScanStore(const int *in, int *out) {
  using Load = cub::BlockLoad<int, Threads, Items, L>;
  using Store = cub::BlockStore<int, Threads, Items, S>;
  using Scan = cub::BlockScan<int, Threads>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Store::TempStorage store;
    typename Scan::TempStorage scan;
  } temp;
  int v[Items];
  Load(temp.load).Load(in + blockIdx.x * Tile, v);
  __syncthreads();
  Scan(temp.scan).InclusiveSum(v, v);
  __syncthreads();
  Store(temp.store).Store(out + blockIdx.x * Tile, v);
}

__global__ void reduceBlock(const int *in, int *out) {
  using Reduce = cub::BlockReduce<int, Threads>;
  __shared__ typename Reduce::TempStorage temp;
  int sum = Reduce(temp).Sum(in[blockIdx.x * Threads + threadIdx.x]);
  if (threadIdx.x == 0)
    out[blockIdx.x] = sum;
}

__global__ void reduceWarps(const int *in, int *out) {
  using Reduce = cub::WarpReduce<int>;
  __shared__ typename Reduce::TempStorage temp[Threads / 32];
  const int warp = threadIdx.x / 32;
  int sum = Reduce(temp[warp]).Sum(in[blockIdx.x * Threads + threadIdx.x]);
  if (threadIdx.x % 32 == 0)
    out[blockIdx.x * (Threads / 32) + warp] = sum;
}

int check(const char *what, const std::vector<int> &got,
          const std::vector<int> &want) {
  for (size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i]) {
      printf("%s: mismatch at %zu: %d, expected %d\n", what, i, got[i],
             want[i]);
      return 1;
    }
  printf("%s: ok\n", what);
  return 0;
}

int main() {
  const int blocks = 64, n = blocks * Tile;
  std::vector<int> h(n), got(n), scan(n);
  for (int i = 0; i < n; ++i)
    h[i] = (i * 37) % 101 - 50;
  for (int b = 0; b < blocks; ++b)
    for (int i = 0, s = 0; i < Tile; ++i)
      scan[b * Tile + i] = s += h[b * Tile + i];
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int bad = 0;
  loadScanStore<cub::BLOCK_LOAD_DIRECT, cub::BLOCK_STORE_DIRECT>
      <<<blocks, Threads>>>(in, out);
  cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
  bad |= check("direct", got, scan);
  loadScanStore<cub::BLOCK_LOAD_VECTORIZE, cub::BLOCK_STORE_VECTORIZE>
      <<<blocks, Threads>>>(in, out);
  cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
  bad |= check("vectorize", got, scan);
  loadScanStore<cub::BLOCK_LOAD_TRANSPOSE, cub::BLOCK_STORE_TRANSPOSE>
      <<<blocks, Threads>>>(in, out);
  cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
  bad |= check("transpose", got, scan);
  const int rblocks = n / Threads;
  std::vector<int> sums(rblocks), wsums(rblocks * Threads / 32);
  for (int b = 0; b < rblocks; ++b)
    for (int i = 0; i < Threads; ++i) {
      sums[b] += h[b * Threads + i];
      wsums[(b * Threads + i) / 32] += h[b * Threads + i];
    }
  reduceBlock<<<rblocks, Threads>>>(in, out);
  got.assign(rblocks, 0);
  cudaMemcpy(got.data(), out, rblocks * sizeof(int), cudaMemcpyDeviceToHost);
  bad |= check("block reduce", got, sums);
  reduceWarps<<<rblocks, Threads>>>(in, out);
  got.assign(wsums.size(), 0);
  cudaMemcpy(got.data(), out, wsums.size() * sizeof(int),
             cudaMemcpyDeviceToHost);
  bad |= check("warp reduce", got, wsums);
  cudaFree(in);
  cudaFree(out);
  return bad;
}
