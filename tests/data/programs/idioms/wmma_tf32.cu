// TF32 tensor-core fragments (WMMA 16x16x8): tiles loaded from global
// memory and from shared memory, in both layouts, and accumulators stored
// row-major and column-major. ptxas makes each A or B fragment load four
// 32-bit loads (no LDSM for 32-bit elements). The inputs are small
// integers, exact in TF32, so the product is exact; it is checked on the
// host and the program exits 1 on a wrong element.
#include <mma.h>
#include <cstdio>
#include <vector>
using namespace nvcuda;

constexpr int M = 64, N = 64, K = 32;

using FragA = wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32,
                             wmma::row_major>;
using FragBCol = wmma::fragment<wmma::matrix_b, 16, 16, 8,
                                wmma::precision::tf32, wmma::col_major>;
using FragAcc = wmma::fragment<wmma::accumulator, 16, 16, 8, float>;

// One warp per 16x16 tile of C: A row-major, B column-major (b is N x K),
// both from global memory; C stored row-major.
__global__ void tf32Global(const float *a, const float *b, float *c) {
  const int tm = blockIdx.y * 16, tn = blockIdx.x * 16;
  FragA fa;
  FragBCol fb;
  FragAcc fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int k = 0; k < K; k += 8) {
    wmma::load_matrix_sync(fa, a + tm * K + k, K);
    wmma::load_matrix_sync(fb, b + tn * K + k, K);
    for (int t = 0; t < fa.num_elements; ++t)
      fa.x[t] = wmma::__float_to_tf32(fa.x[t]);
    for (int t = 0; t < fb.num_elements; ++t)
      fb.x[t] = wmma::__float_to_tf32(fb.x[t]);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(c + tm * N + tn, fc, N, wmma::mem_row_major);
}

// The same tiles staged in shared memory, A column-major (as[k][m]) and B
// row-major (bs[k][n]), 4 floats of padding per row; C stored
// column-major.
__global__ void tf32Shared(const float *a, const float *b, float *c) {
  constexpr int Pad = 4;
  __shared__ float as[8][16 + Pad], bs[8][16 + Pad];
  const int tm = blockIdx.y * 16, tn = blockIdx.x * 16, t = threadIdx.x;
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32,
                 wmma::col_major>
      fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32,
                 wmma::row_major>
      fb;
  FragAcc fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int k = 0; k < K; k += 8) {
    for (int e = t; e < 128; e += 32) {
      as[e / 16][e % 16] = a[(tm + e % 16) * K + k + e / 16];
      bs[e / 16][e % 16] = b[(tn + e % 16) * K + k + e / 16];
    }
    __syncwarp();
    wmma::load_matrix_sync(fa, &as[0][0], 16 + Pad);
    wmma::load_matrix_sync(fb, &bs[0][0], 16 + Pad);
    wmma::mma_sync(fc, fa, fb, fc);
    __syncwarp();
  }
  wmma::store_matrix_sync(c + tn * M + tm, fc, M, wmma::mem_col_major);
}

int main() {
  std::vector<float> a(M * K), b(N * K), want(M * N);
  for (int i = 0; i < M * K; ++i)
    a[i] = float(i % 7 - 3);
  for (int i = 0; i < N * K; ++i)
    b[i] = float(i % 5 - 2);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      float s = 0;
      for (int k = 0; k < K; ++k)
        s += a[m * K + k] * b[n * K + k];
      want[m * N + n] = s;
    }
  float *da, *db, *dc;
  cudaMalloc(&da, a.size() * sizeof(float));
  cudaMalloc(&db, b.size() * sizeof(float));
  cudaMalloc(&dc, want.size() * sizeof(float));
  cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice);
  std::vector<float> got(M * N);
  int bad = 0;
  const dim3 grid(N / 16, M / 16);
  tf32Global<<<grid, 32>>>(da, db, dc);
  cudaMemcpy(got.data(), dc, got.size() * sizeof(float),
             cudaMemcpyDeviceToHost);
  for (int i = 0; i < M * N; ++i)
    bad += got[i] != want[i];
  tf32Shared<<<grid, 32>>>(da, db, dc);
  cudaMemcpy(got.data(), dc, got.size() * sizeof(float),
             cudaMemcpyDeviceToHost);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n)
      bad += got[n * M + m] != want[m * N + n];
  std::printf("%s: %d wrong elements\n", bad ? "FAILED" : "PASSED", bad);
  return bad ? 1 : 0;
}
