// Register-blocked tiled SGEMM, C = A @ B for row-major M x K and K x N
// matrices (M = N = K = 256), in the steps people take when tuning it:
//
// - sgemmShared32: 32 x 32 shared tiles of A and B, one result per thread.
//   The row of As is read by an unrolled loop: the compiler loads four
//   consecutive floats with one LDS.128.
// - sgemm1DTile<64,64,8,8>: a 1-D thread tile; each thread computes 8
//   results of a column, keeping one element of Bs in a register.
// - sgemm2DTile<64,64,8,4,4>: a 2-D thread tile of 4 x 4 results, with
//   register copies of a column of As and a row of Bs.
// - sgemm2DTileVec<64,64,8,4,4>: the same with float4 global loads and As
//   stored transposed, so that both shared reads are four consecutive
//   floats (LDS.128).
// - sgemm2DTilePad<64,64,8,4,4,4>: As transposed with a row padded by 4
//   floats, which changes the banks of the transposing stores.
//
// Build: nvcc -arch=sm_90 -lineinfo -o sgemm_tiled sgemm_tiled.cu
// Analyze: gmem-analyze sgemm_tiled.cu
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  {                                                                            \
    const cudaError_t error = call;                                            \
    if (error != cudaSuccess) {                                                \
      printf("Error: %s:%d, ", __FILE__, __LINE__);                            \
      printf("code:%d, reason: %s\n", error, cudaGetErrorString(error));       \
      exit(1);                                                                 \
    }                                                                          \
  }

// One result per thread; a 32 x 32 block walks K in steps of 32.
__global__ void sgemmShared32(int M, int N, int K, const float *A,
                              const float *B, float *C) {
  __shared__ float As[32][32];
  __shared__ float Bs[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
  float acc = 0.0f;
  for (int t = 0; t < K; t += 32) {
    As[ty][tx] = A[row * K + t + tx];
    Bs[ty][tx] = B[(t + ty) * N + col];
    __syncthreads();
    for (int k = 0; k < 32; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

// Block tile BM x BN, K step BK, BM / TM * BN threads; thread t computes
// rows TM * (t / BN) ... + TM - 1 of column t % BN.
template <int BM, int BN, int BK, int TM>
__global__ void sgemm1DTile(int M, int N, int K, const float *A,
                            const float *B, float *C) {
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int t = threadIdx.x;
  const int tRow = t / BN, tCol = t % BN;
  // Loading: As as BM rows of BK, Bs as BK rows of BN, one element each.
  const int aRow = t / BK, aCol = t % BK;
  const int bRow = t / BN, bCol = t % BN;
  const float *Ablk = A + blockIdx.y * BM * K;
  const float *Bblk = B + blockIdx.x * BN;
  float acc[TM] = {0.0f};
  for (int k0 = 0; k0 < K; k0 += BK) {
    As[aRow * BK + aCol] = Ablk[aRow * K + k0 + aCol];
    Bs[bRow * BN + bCol] = Bblk[(k0 + bRow) * N + bCol];
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      float b = Bs[k * BN + tCol];
      for (int i = 0; i < TM; ++i)
        acc[i] += As[(tRow * TM + i) * BK + k] * b;
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    C[(blockIdx.y * BM + tRow * TM + i) * N + blockIdx.x * BN + tCol] = acc[i];
}

// 2-D thread tile: (BM / TM) x (BN / TN) threads, each TM x TN results.
template <int BM, int BN, int BK, int TM, int TN>
__global__ void sgemm2DTile(int M, int N, int K, const float *A,
                            const float *B, float *C) {
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  constexpr int Threads = (BM / TM) * (BN / TN);
  const int t = threadIdx.x;
  const int tRow = t / (BN / TN), tCol = t % (BN / TN);
  const float *Ablk = A + blockIdx.y * BM * K;
  const float *Bblk = B + blockIdx.x * BN;
  float acc[TM][TN] = {{0.0f}};
  float regA[TM], regB[TN];
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int e = t; e < BM * BK; e += Threads)
      As[e] = Ablk[(e / BK) * K + k0 + e % BK];
    for (int e = t; e < BK * BN; e += Threads)
      Bs[e] = Bblk[(k0 + e / BN) * N + e % BN];
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      for (int i = 0; i < TM; ++i)
        regA[i] = As[(tRow * TM + i) * BK + k];
      for (int j = 0; j < TN; ++j)
        regB[j] = Bs[k * BN + tCol * TN + j];
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += regA[i] * regB[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(blockIdx.y * BM + tRow * TM + i) * N + blockIdx.x * BN +
        tCol * TN + j] = acc[i][j];
}

// As transposed (AsT[k][m], rows of BM + PAD floats) so that a thread's TM
// values of A are consecutive; global tiles loaded as float4.
template <int BM, int BN, int BK, int TM, int TN, int PAD>
__device__ void sgemm2DTileVecBody(int N, int K, const float *A,
                                   const float *B, float *C) {
  __shared__ float AsT[BK * (BM + PAD)];
  __shared__ float Bs[BK * BN];
  constexpr int Threads = (BM / TM) * (BN / TN);
  const int t = threadIdx.x;
  const int tRow = t / (BN / TN), tCol = t % (BN / TN);
  const float *Ablk = A + blockIdx.y * BM * K;
  const float *Bblk = B + blockIdx.x * BN;
  float acc[TM][TN] = {{0.0f}};
  float regA[TM], regB[TN];
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int e = t; e < BM * BK / 4; e += Threads) {
      int r = e / (BK / 4), c4 = e % (BK / 4);
      float4 v = reinterpret_cast<const float4 *>(
          &Ablk[r * K + k0 + c4 * 4])[0];
      AsT[(c4 * 4 + 0) * (BM + PAD) + r] = v.x;
      AsT[(c4 * 4 + 1) * (BM + PAD) + r] = v.y;
      AsT[(c4 * 4 + 2) * (BM + PAD) + r] = v.z;
      AsT[(c4 * 4 + 3) * (BM + PAD) + r] = v.w;
    }
    for (int e = t; e < BK * BN / 4; e += Threads) {
      int r = e / (BN / 4), c4 = e % (BN / 4);
      reinterpret_cast<float4 *>(&Bs[r * BN + c4 * 4])[0] =
          reinterpret_cast<const float4 *>(&Bblk[(k0 + r) * N + c4 * 4])[0];
    }
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      for (int i = 0; i < TM; ++i)
        regA[i] = AsT[k * (BM + PAD) + tRow * TM + i];
      for (int j = 0; j < TN; ++j)
        regB[j] = Bs[k * BN + tCol * TN + j];
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j)
          acc[i][j] += regA[i] * regB[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j)
      C[(blockIdx.y * BM + tRow * TM + i) * N + blockIdx.x * BN +
        tCol * TN + j] = acc[i][j];
}

template <int BM, int BN, int BK, int TM, int TN>
__global__ void sgemm2DTileVec(int M, int N, int K, const float *A,
                               const float *B, float *C) {
  sgemm2DTileVecBody<BM, BN, BK, TM, TN, 0>(N, K, A, B, C);
}

template <int BM, int BN, int BK, int TM, int TN, int PAD>
__global__ void sgemm2DTilePad(int M, int N, int K, const float *A,
                               const float *B, float *C) {
  sgemm2DTileVecBody<BM, BN, BK, TM, TN, PAD>(N, K, A, B, C);
}

// Reference on the host, in double.
static void reference(int M, int N, int K, const float *A, const float *B,
                      float *C) {
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int k = 0; k < K; ++k)
        s += (double)A[i * K + k] * B[k * N + j];
      C[i * N + j] = (float)s;
    }
}

static bool same(const float *ref, const float *out, int n) {
  for (int i = 0; i < n; ++i)
    if (fabs(ref[i] - out[i]) > 1e-3 * (1.0 + fabs(ref[i])))
      return false;
  return true;
}

int main() {
  const int M = 256, N = 256, K = 256;
  const size_t bytesA = sizeof(float) * M * K, bytesB = sizeof(float) * K * N,
               bytesC = sizeof(float) * M * N;
  float *A = (float *)malloc(bytesA), *B = (float *)malloc(bytesB);
  float *C = (float *)malloc(bytesC), *Cref = (float *)malloc(bytesC);
  srand(1);
  for (int i = 0; i < M * K; ++i)
    A[i] = (float)(rand() % 9 - 4) / 4;
  for (int i = 0; i < K * N; ++i)
    B[i] = (float)(rand() % 9 - 4) / 4;
  reference(M, N, K, A, B, Cref);

  float *dA, *dB, *dC;
  CHECK(cudaMalloc((void **)&dA, bytesA));
  CHECK(cudaMalloc((void **)&dB, bytesB));
  CHECK(cudaMalloc((void **)&dC, bytesC));
  CHECK(cudaMemcpy(dA, A, bytesA, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B, bytesB, cudaMemcpyHostToDevice));

  sgemmShared32<<<dim3(N / 32, M / 32), dim3(32, 32)>>>(M, N, K, dA, dB, dC);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(C, dC, bytesC, cudaMemcpyDeviceToHost));
  printf("sgemmShared32: %s\n", same(Cref, C, M * N) ? "ok" : "WRONG");

  sgemm1DTile<64, 64, 8, 8>
      <<<dim3(N / 64, M / 64), 64 * 64 / 8>>>(M, N, K, dA, dB, dC);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(C, dC, bytesC, cudaMemcpyDeviceToHost));
  printf("sgemm1DTile: %s\n", same(Cref, C, M * N) ? "ok" : "WRONG");

  sgemm2DTile<64, 64, 8, 4, 4>
      <<<dim3(N / 64, M / 64), 16 * 16>>>(M, N, K, dA, dB, dC);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(C, dC, bytesC, cudaMemcpyDeviceToHost));
  printf("sgemm2DTile: %s\n", same(Cref, C, M * N) ? "ok" : "WRONG");

  sgemm2DTileVec<64, 64, 8, 4, 4>
      <<<dim3(N / 64, M / 64), 16 * 16>>>(M, N, K, dA, dB, dC);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(C, dC, bytesC, cudaMemcpyDeviceToHost));
  printf("sgemm2DTileVec: %s\n", same(Cref, C, M * N) ? "ok" : "WRONG");

  sgemm2DTilePad<64, 64, 8, 4, 4, 4>
      <<<dim3(N / 64, M / 64), 16 * 16>>>(M, N, K, dA, dB, dC);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(C, dC, bytesC, cudaMemcpyDeviceToHost));
  printf("sgemm2DTilePad: %s\n", same(Cref, C, M * N) ? "ok" : "WRONG");

  CHECK(cudaFree(dA));
  CHECK(cudaFree(dB));
  CHECK(cudaFree(dC));
  free(A);
  free(B);
  free(C);
  free(Cref);
  return 0;
}
