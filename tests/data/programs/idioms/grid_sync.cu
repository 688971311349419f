// A cooperative launch whose blocks meet at grid.sync(): each thread writes
// its element, the grid synchronises, then each reads its neighbour's.
#include <cooperative_groups.h>
#include <cstdio>
#include <vector>
namespace cg = cooperative_groups;

__global__ void neighbours(float *a, float *b, int n) {
  cg::grid_group grid = cg::this_grid();
  const int i = int(grid.thread_rank());
  if (i < n)
    a[i] = float(i) * 0.5f;
  grid.sync();
  if (i < n)
    b[i] = a[(i + 1) % n] + a[i];
}

int main() {
  const int blocks = 32, threads = 256, n = blocks * threads;
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  int N = n;
  void *args[] = {&a, &b, &N};
  if (cudaLaunchCooperativeKernel((void *)neighbours, blocks, threads, args) !=
      cudaSuccess) {
    printf("cooperative launch refused\n");
    return 1;
  }
  std::vector<float> h(n);
  cudaMemcpy(h.data(), b, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (h[i] != float((i + 1) % n) * 0.5f + float(i) * 0.5f) {
      printf("mismatch at %d: %f\n", i, h[i]);
      return 1;
    }
  printf("grid sync: ok\n");
  cudaFree(a);
  cudaFree(b);
  return 0;
}
