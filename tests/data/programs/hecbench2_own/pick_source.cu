// Each thread writes the rows of out from one of two sources, chosen once
// by its flag, and then the rows of out2 from the other: nvcc loads each
// chosen address with one instruction that has no line of its own (.loc 0).
#include <cstdio>
#include <vector>

__global__ void fill(const int *flag, const float *__restrict__ a,
                     const float *__restrict__ b, float *__restrict__ out,
                     float *__restrict__ out2, int n, int rows) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const int f = flag[i];
#pragma unroll 1
  for (int r = 0; r < rows; ++r) {
    if (f == 0)
      out[r * n + i] = a[(r % 3) * n + i];
    else
      out[r * n + i] = b[i];
  }
#pragma unroll 1
  for (int r = 0; r < rows; ++r) {
    if (f == 0)
      out2[r * n + i] = b[i];
    else
      out2[r * n + i] = a[(r % 3) * n + i];
  }
}

int main() {
  const int n = 4096, rows = 8;
  std::vector<int> flag(n);
  std::vector<float> a(3 * n), b(n), out(rows * n), out2(rows * n);
  for (int i = 0; i < n; ++i) {
    flag[i] = (i * 7) % 5 < 2;
    b[i] = -i;
  }
  for (int i = 0; i < 3 * n; ++i)
    a[i] = i;
  int *dflag;
  float *da, *db, *dout, *dout2;
  cudaMalloc(&dflag, n * sizeof(int));
  cudaMalloc(&da, 3 * n * sizeof(float));
  cudaMalloc(&db, n * sizeof(float));
  cudaMalloc(&dout, rows * n * sizeof(float));
  cudaMalloc(&dout2, rows * n * sizeof(float));
  cudaMemcpy(dflag, flag.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(da, a.data(), 3 * n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  fill<<<n / 256, 256>>>(dflag, da, db, dout, dout2, n, rows);
  cudaMemcpy(out.data(), dout, rows * n * sizeof(float),
             cudaMemcpyDeviceToHost);
  cudaMemcpy(out2.data(), dout2, rows * n * sizeof(float),
             cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int r = 0; r < rows; ++r)
    for (int i = 0; i < n; ++i) {
      bad += out[r * n + i] != (flag[i] ? b[i] : a[(r % 3) * n + i]);
      bad += out2[r * n + i] != (flag[i] ? a[(r % 3) * n + i] : b[i]);
    }
  std::printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
