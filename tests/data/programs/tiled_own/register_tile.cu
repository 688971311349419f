// A register-tiled SGEMM of one 128 x 128 block: each of 256 threads keeps
// an 8 x 8 tile of C in registers and, per step of k, reads 8 consecutive
// floats of A's tile (stored transposed) and 8 of B's from shared memory.
// ptxas makes each 8 reads two LDS.128; nvcc's PTX keeps the k loop and
// puts the 4-byte loads of one LDS.128 far apart, among the FMAs.
#include <cmath>
#include <cstdio>
#include <vector>

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__(256)
    tiledGemm(int n, const float *a, const float *b, float *c) {
  __shared__ float at[BK * BM]; // at[k * BM + m] = A[m][k]
  __shared__ float bt[BK * BN];
  const int tx = threadIdx.x % (BN / TN), ty = threadIdx.x / (BN / TN);
  a += blockIdx.y * BM * n;
  b += blockIdx.x * BN;
  c += blockIdx.y * BM * n + blockIdx.x * BN;
  float acc[TM * TN] = {};
  float ra[TM], rb[TN];
  for (int k0 = 0; k0 < n; k0 += BK) {
    for (int e = threadIdx.x; e < BM * BK; e += 256)
      at[(e % BK) * BM + e / BK] = a[(e / BK) * n + e % BK];
    for (int e = threadIdx.x; e < BK * BN; e += 256)
      bt[e] = b[(e / BN) * n + e % BN];
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      for (int i = 0; i < TM; ++i)
        ra[i] = at[k * BM + ty * TM + i];
      for (int j = 0; j < TN; ++j)
        rb[j] = bt[k * BN + tx * TN + j];
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i * TN + j] += ra[i] * rb[j];
    }
    __syncthreads();
    a += BK;
    b += BK * n;
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      c[(ty * TM + i) * n + tx * TN + j] = acc[i * TN + j];
}

int main() {
  const int n = 128;
  std::vector<float> ha(n * n), hb(n * n), hc(n * n);
  for (int i = 0; i < n * n; ++i) {
    ha[i] = float(i % 7) - 3;
    hb[i] = float(i % 5) - 2;
  }
  float *a, *b, *c;
  cudaMalloc(&a, n * n * sizeof(float));
  cudaMalloc(&b, n * n * sizeof(float));
  cudaMalloc(&c, n * n * sizeof(float));
  cudaMemcpy(a, ha.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
  tiledGemm<128, 128, 16, 8, 8><<<dim3(1, 1), 256>>>(n, a, b, c);
  cudaMemcpy(hc.data(), c, n * n * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float s = 0;
      for (int k = 0; k < n; ++k)
        s += ha[i * n + k] * hb[k * n + j];
      bad += std::fabs(s - hc[i * n + j]) > 1e-3f;
    }
  printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad != 0;
}
