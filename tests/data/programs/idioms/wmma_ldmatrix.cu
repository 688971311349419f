// Tensor-core fragments: WMMA 16x16x16 half-precision tiles loaded from
// global and from shared memory, and ldmatrix on a shared tile with and
// without padding. The GEMM's result is checked on the host.
#include <cuda_fp16.h>
#include <mma.h>
#include <cstdio>
#include <vector>
using namespace nvcuda;

constexpr int M = 64, N = 64, K = 64;

// One warp per 16x16 tile of C, fragments loaded from global memory.
__global__ void wmmaGlobal(const half *a, const half *b, float *c) {
  const int tm = blockIdx.y * 16, tn = blockIdx.x * 16;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(fa, a + tm * K + k, K);
    wmma::load_matrix_sync(fb, b + tn * K + k, K);
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(c + tm * N + tn, fc, N, wmma::mem_row_major);
}

// The same with the tiles staged in shared memory.
__global__ void wmmaShared(const half *a, const half *b, float *c) {
  __shared__ half as[16 * 16], bs[16 * 16];
  const int tm = blockIdx.y * 16, tn = blockIdx.x * 16, t = threadIdx.x;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    for (int e = t; e < 256; e += 32) {
      as[e] = a[(tm + e / 16) * K + k + e % 16];
      bs[e] = b[(tn + e / 16) * K + k + e % 16];
    }
    __syncwarp();
    wmma::load_matrix_sync(fa, as, 16);
    wmma::load_matrix_sync(fb, bs, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    __syncwarp();
  }
  wmma::store_matrix_sync(c + tm * N + tn, fc, N, wmma::mem_row_major);
}

// ldmatrix .x4 of a 32 x 8 half tile whose rows are Pitch halves apart:
// each lane gives one row's address; out gets the four registers.
template <int Pitch> __global__ void ldmatrixTile(const half *in, unsigned *out) {
  __shared__ __align__(16) half s[32 * Pitch];
  const int t = threadIdx.x;
  for (int e = t; e < 32 * 8; e += 32)
    s[(e / 8) * Pitch + e % 8] = in[e];
  __syncwarp();
  unsigned r0, r1, r2, r3;
  const unsigned addr =
      unsigned(__cvta_generic_to_shared(&s[t * Pitch]));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(addr));
  out[t * 4 + 0] = r0;
  out[t * 4 + 1] = r1;
  out[t * 4 + 2] = r2;
  out[t * 4 + 3] = r3;
}

int main() {
  std::vector<half> ha(M * K), hb(N * K);
  std::vector<float> want(M * N, 0.0f), got(M * N);
  for (int i = 0; i < M * K; ++i)
    ha[i] = __float2half(float(i % 7 - 3));
  for (int i = 0; i < N * K; ++i)
    hb[i] = __float2half(float(i % 5 - 2));
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < K; ++k)
        want[m * N + n] += __half2float(ha[m * K + k]) * __half2float(hb[n * K + k]);
  half *a, *b;
  float *c;
  unsigned *r;
  cudaMalloc(&a, M * K * sizeof(half));
  cudaMalloc(&b, N * K * sizeof(half));
  cudaMalloc(&c, M * N * sizeof(float));
  cudaMalloc(&r, 128 * sizeof(unsigned));
  cudaMemcpy(a, ha.data(), M * K * sizeof(half), cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb.data(), N * K * sizeof(half), cudaMemcpyHostToDevice);
  int bad = 0;
  for (int pass = 0; pass < 2; ++pass) {
    cudaMemset(c, 0, M * N * sizeof(float));
    if (pass == 0)
      wmmaGlobal<<<dim3(N / 16, M / 16), 32>>>(a, b, c);
    else
      wmmaShared<<<dim3(N / 16, M / 16), 32>>>(a, b, c);
    cudaMemcpy(got.data(), c, M * N * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < M * N; ++i)
      if (got[i] != want[i]) {
        printf("wmma %s: mismatch at %d: %f, expected %f\n",
               pass ? "shared" : "global", i, got[i], want[i]);
        bad = 1;
        break;
      }
  }
  std::vector<unsigned> h(128);
  ldmatrixTile<8><<<1, 32>>>(a, r);
  cudaMemcpy(h.data(), r, 128 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  unsigned x = 0;
  for (unsigned v : h)
    x = x * 31 + v;
  ldmatrixTile<16><<<1, 32>>>(a, r);
  cudaMemcpy(h.data(), r, 128 * sizeof(unsigned), cudaMemcpyDeviceToHost);
  for (unsigned v : h)
    x = x * 31 + v;
  printf("wmma: %s, ldmatrix: %08x\n", bad ? "mismatch" : "ok", x);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  cudaFree(r);
  return bad;
}
