// A driver of our own for pranjalssh/fast.cu's Hopper GEMM kernels 2 to 5
// (examples/matmul/matmul_N.cuh, unmodified): C (column-major, bf16) =
// A (row-major) x B (column-major), at a size given on the command line,
// each kernel's result checked exactly against the host's (small integer
// inputs: every sum exact in f32, then rounded to bf16 as the kernels do).
// Kernel 6 is left out: its schedule needs sizes that are multiples of
// 2048. Build beside fast.cu's examples/ folder:
//   nvcc -std=c++17 -O3 -DNDEBUG -w --expt-relaxed-constexpr
//     --expt-extended-lambda -gencode arch=compute_90a,code=sm_90a
//     -lineinfo fastdrv.cu -lcuda
// and run it with the size: fastdrv 256.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda/barrier>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <vector>

typedef __nv_bfloat16 bf16;
#define CEIL_DIV(M, N) (((M) + (N)-1) / (N))
static void checkCuda(cudaError_t E, const char *File, int Line) {
  if (E != cudaSuccess) {
    printf("%s:%d: %s\n", File, Line, cudaGetErrorString(E));
    exit(1);
  }
}
#define cudaCheck(err) (checkCuda(err, __FILE__, __LINE__))

#include "examples/matmul/matmul_2.cuh"
#include "examples/matmul/matmul_3.cuh"
#include "examples/matmul/matmul_4.cuh"
#include "examples/matmul/matmul_5.cuh"
#include "examples/matmul/matmul_6.cuh"

int main(int argc, char **argv) {
  const int S = argc > 1 ? atoi(argv[1]) : 512;
  const int M = S, N = S, K = S;
  std::vector<bf16> A(size_t(M) * K), B(size_t(N) * K), C(size_t(M) * N);
  std::vector<int> IA(A.size()), IB(B.size());
  for (size_t I = 0; I < A.size(); ++I)
    A[I] = __float2bfloat16(float(IA[I] = int((I * 7 + I / 13) % 5) - 2));
  for (size_t I = 0; I < B.size(); ++I)
    B[I] = __float2bfloat16(float(IB[I] = int((I * 3 + I / 17) % 5) - 2));
  std::vector<bf16> Want(C.size());
  for (int Col = 0; Col < N; ++Col)
    for (int Row = 0; Row < M; ++Row) {
      long Sum = 0;
      for (int Kk = 0; Kk < K; ++Kk)
        Sum += long(IA[size_t(Row) * K + Kk]) * IB[size_t(Col) * K + Kk];
      Want[size_t(Col) * M + Row] = __float2bfloat16(float(Sum));
    }
  bf16 *DA, *DB, *DC;
  cudaCheck(cudaMalloc(&DA, A.size() * 2));
  cudaCheck(cudaMalloc(&DB, B.size() * 2));
  cudaCheck(cudaMalloc(&DC, C.size() * 2));
  cudaCheck(cudaMemcpy(DA, A.data(), A.size() * 2, cudaMemcpyHostToDevice));
  cudaCheck(cudaMemcpy(DB, B.data(), B.size() * 2, cudaMemcpyHostToDevice));
  int Failed = 0;
  for (int Kernel = 2; Kernel <= 5; ++Kernel) {
    cudaCheck(cudaMemset(DC, 0, C.size() * 2));
    switch (Kernel) {
    case 2: runKernel2(M, N, K, DA, DB, DC); break;
    case 3: runKernel3(M, N, K, DA, DB, DC, nullptr); break;
    case 4: runKernel4(M, N, K, DA, DB, DC, nullptr); break;
    case 5: runKernel5(M, N, K, DA, DB, DC, nullptr); break;
    case 6: runKernel6(M, N, K, DA, DB, DC, nullptr); break;
    }
    cudaCheck(cudaGetLastError());
    cudaCheck(cudaMemcpy(C.data(), DC, C.size() * 2, cudaMemcpyDeviceToHost));
    int Bad = 0;
    for (size_t I = 0; I < C.size(); ++I)
      Bad += __bfloat162float(C[I]) != __bfloat162float(Want[I]);
    printf("kernel %d: %d of %zu differ\n", Kernel, Bad, C.size());
    Failed += Bad != 0;
  }
  return Failed ? 1 : 0;
}
