// A radix sort's last step, as CUB's single-tile sort ends: each thread
// holds ITEMS keys ranked across the block, BlockExchange scatters them to
// shared memory and reads them back striped, and each item is stored if it
// lies within the n keys. The kernel ends with the last item's guarded
// store: ptxas makes its bound an exit (@P EXIT) and moves the last item's
// shared load after it, so warps whose lanes are all past n never make
// that load (tests/golden/build_edges_test.cpp, PtxasMerges). The result
// is checked; the program exits 1 on a wrong one.
#include <cub/block/block_exchange.cuh>
#include <cstdio>

constexpr int Block = 256, Items = 19;

__global__ void scatter_tail(const int *in, int *out, int n) {
  using Exchange = cub::BlockExchange<int, Block, Items>;
  __shared__ typename Exchange::TempStorage s;
  int keys[Items], ranks[Items];
  for (int i = 0; i < Items; ++i) {
    const int at = threadIdx.x * Items + i;
    keys[i] = at < n ? in[at] : 0;
    // Reversed: the rank of the item at `at` among the n keys.
    ranks[i] = at < n ? n - 1 - at : at;
  }
  Exchange(s).ScatterToStriped(keys, ranks);
  for (int i = 0; i < Items; ++i) {
    const int at = i * Block + threadIdx.x;
    if (at < n)
      out[at] = keys[i];
  }
}

int main() {
  const int Max = Block * Items;
  static int h[Max], got[Max];
  int *in, *out, bad = 0;
  for (int i = 0; i < Max; ++i)
    h[i] = 3 * i + 1;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  // 16 keys as Thrust's sort example has; then 4700, which reaches the
  // last item's row in its first 92 threads.
  for (int n : {16, 4700}) {
    scatter_tail<<<1, Block>>>(in, out, n);
    cudaMemcpy(got, out, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i)
      bad += got[i] != h[n - 1 - i];
  }
  printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad != 0;
}
