#include <cub/block/block_reduce.cuh>
__global__ void sums(const int *in, int *out) {
  using Reduce =
      cub::BlockReduce<int, 8, cub::BLOCK_REDUCE_WARP_REDUCTIONS, 16>;
  __shared__ typename Reduce::TempStorage a, b;
  const int t = threadIdx.y * 8 + threadIdx.x;
  const int x = Reduce(a).Sum(in[t]);
  const int y = Reduce(b).Sum(2 * in[t]);
  if (t == 0) {
    out[0] = x;
    out[1] = y;
  }
}
int main() {
  int *in, *out, h[2] = {0, 0};
  cudaMalloc(&in, 128 * sizeof(int));
  cudaMalloc(&out, 2 * sizeof(int));
  cudaMemset(in, 0, 128 * sizeof(int));
  sums<<<1, dim3(8, 16)>>>(in, out);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  return h[0] + h[1];
}
