// Each warp's first thread leaves its warp's total in shared memory; then
// the first threads read the totals, the others a zero of their own, by
// reference: nvcc selects between a shared and a local address and loads
// through the generic one.
#include <cstdio>

struct Total {
  float sum;
  int count;
};

__global__ void totals(const float *in, float *out) {
  __shared__ Total warp[32];
  const int t = threadIdx.x;
  Total mine{in[blockIdx.x * blockDim.x + t], 1};
  for (int o = 16; o > 0; o /= 2) {
    mine.sum += __shfl_down_sync(~0u, mine.sum, o);
    mine.count += __shfl_down_sync(~0u, mine.count, o);
  }
  if (t % 32 == 0)
    warp[t / 32] = mine;
  __syncthreads();
  const Total zero{0, 0};
  const Total &v = t < blockDim.x / 32 ? warp[t] : zero;
  out[blockIdx.x * blockDim.x + t] = v.sum + v.count;
}

int main() {
  const int n = 64 * 256;
  float *in, *out, h[256];
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  totals<<<64, 256>>>(in, out);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("%s\n", h[0] == 32 && h[8] == 0 ? "PASS" : "FAIL");
  return 0;
}
