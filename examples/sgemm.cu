// Seed 004 ("Global memory coalescing", after siboehm's "How to optimize a
// CUDA matmul kernel"): C = alpha * A @ B + beta * C for M = N = K = 1024.
// sgemm_naive maps threadIdx.x to rows of C, so a warp reads 32 rows of A and
// writes a column of C; sgemm_coalescing<32> maps consecutive threads of a
// 1-D block to consecutive columns, so a warp broadcasts one element of A and
// reads a row segment of B. Both use a grid of CEIL_DIV(M,32) x CEIL_DIV(N,32)
// blocks of 32 * 32 threads (2-D for the naive kernel, 1-D for the other).
//
// Build: nvcc -arch=sm_90 -lineinfo -o sgemm sgemm.cu
// Analyze: gmem-analyze sgemm.cu
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

#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))

// The previous kernel the seed recalls: x follows threadIdx.x, so threads of
// a warp load non-consecutive rows of A.
__global__ void sgemm_naive(int M, int N, int K, float alpha, const float *A,
                            const float *B, float beta, float *C) {
  const uint x = blockIdx.x * blockDim.x + threadIdx.x;
  const uint y = blockIdx.y * blockDim.y + threadIdx.y;

  // `if` condition is necessary for when M or N aren't multiples of 32.
  if (x < M && y < N) {
    float tmp = 0.0;
    for (int i = 0; i < K; ++i) {
      tmp += A[x * K + i] * B[i * N + y];
    }
    // C = alpha*(A@B)+beta*C
    C[x * N + y] = alpha * tmp + beta * C[x * N + y];
  }
}

// The seed's kernel: only the first two lines change.
template <const uint BLOCKSIZE>
__global__ void sgemm_coalescing(int M, int N, int K, float alpha,
                                 const float *A, const float *B, float beta,
                                 float *C) {
  const int x = blockIdx.x * BLOCKSIZE + (threadIdx.x / BLOCKSIZE);
  const int y = blockIdx.y * BLOCKSIZE + (threadIdx.x % BLOCKSIZE);

  if (x < M && y < N) {
    float tmp = 0.0;
    for (int i = 0; i < K; ++i) {
      tmp += A[x * K + i] * B[i * N + y];
    }
    C[x * N + y] = alpha * tmp + beta * C[x * N + y];
  }
}

void randomize_matrix(float *mat, int N) {
  for (int i = 0; i < N; i++) {
    float tmp = (float)(rand() % 5) + 0.01 * (rand() % 5);
    tmp = (rand() % 2 == 0) ? tmp : tmp * (-1.);
    mat[i] = tmp;
  }
}

// Both kernels sum in the same order, so they agree up to rounding; the
// relative tolerance catches indexing errors, not last-bit differences.
bool verify_matrix(const float *ref, const float *out, int N) {
  for (int i = 0; i < N; i++) {
    double diff = fabs((double)ref[i] - out[i]);
    if (diff > 1e-4 * (1.0 + fabs((double)ref[i]))) {
      printf("Divergence! Should %5.2f, Is %5.2f (Diff %5.2f) at %d\n", ref[i],
             out[i], diff, i);
      return false;
    }
  }
  return true;
}

int main() {
  const int M = 1024, N = 1024, K = 1024;
  float alpha = 1.0f, beta = 0.0f;

  size_t bytesA = sizeof(float) * M * K;
  size_t bytesB = sizeof(float) * K * N;
  size_t bytesC = sizeof(float) * M * N;
  float *A = (float *)malloc(bytesA);
  float *B = (float *)malloc(bytesB);
  float *C = (float *)malloc(bytesC);
  float *C_ref = (float *)malloc(bytesC);
  srand(0);
  randomize_matrix(A, M * K);
  randomize_matrix(B, K * N);
  randomize_matrix(C, M * N);

  float *dA, *dB, *dC;
  CHECK(cudaMalloc((void **)&dA, bytesA));
  CHECK(cudaMalloc((void **)&dB, bytesB));
  CHECK(cudaMalloc((void **)&dC, bytesC));
  CHECK(cudaMemcpy(dA, A, bytesA, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dB, B, bytesB, cudaMemcpyHostToDevice));

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  float ms;
  double flops = 2.0 * M * N * K;

  // gridDim stays the same for both kernels
  dim3 gridDim(CEIL_DIV(M, 32), CEIL_DIV(N, 32));

  // the naive kernel: a 2-D block of 32 x 32 threads
  dim3 blockDimNaive(32, 32);
  CHECK(cudaMemcpy(dC, C, bytesC, cudaMemcpyHostToDevice));
  CHECK(cudaEventRecord(start));
  sgemm_naive<<<gridDim, blockDimNaive>>>(M, N, K, alpha, dA, dB, beta, dC);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(stop));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaMemcpy(C_ref, dC, bytesC, cudaMemcpyDeviceToHost));
  printf("sgemm_naive: %.3f ms, %.1f GFLOPS\n", ms, flops / ms / 1e6);

  // make blockDim 1-D, but don't change the number of threads
  dim3 blockDim(32 * 32);
  CHECK(cudaMemcpy(dC, C, bytesC, cudaMemcpyHostToDevice));
  CHECK(cudaEventRecord(start));
  sgemm_coalescing<32><<<gridDim, blockDim>>>(M, N, K, alpha, dA, dB, beta, dC);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(stop));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  CHECK(cudaMemcpy(C, dC, bytesC, cudaMemcpyDeviceToHost));
  printf("sgemm_coalescing<32>: %.3f ms, %.1f GFLOPS, %s\n", ms,
         flops / ms / 1e6,
         verify_matrix(C_ref, C, M * N) ? "matches sgemm_naive" : "WRONG");

  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  free(A);
  free(B);
  free(C);
  free(C_ref);
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dB));
  CHECK(cudaFree(dC));
  return 0;
}
