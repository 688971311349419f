//===- cublas_gemm.cpp - cuBLAS's GEMMs and GEMVs computed on the host ----===//
//
// Programs check their kernels against cuBLAS (a GEMM tutorial compares
// its kernel's C with cublasGemmEx's), so a GEMM that runs nothing stops
// them at the first check. When recording is functional, the GEMMs here
// compute C = alpha op(A) op(B) + beta C over the program's buffers (a
// GEMV as the GEMM of one row): each element's products summed in double
// and rounded once to C's type. That is the exact result to within C's
// rounding, which cuBLAS is too to within its own (it sums in the compute
// type, in its kernel's order: half precision for CUBLAS_COMPUTE_16F, as
// the HGEMM tutorials call it): the values agree to cuBLAS's error, not
// always to the bit. C's bytes are known where A and B (and C, when beta is
// not zero) were.
//
// What is not computed here (the compute types that round their inputs,
// TF32 and the other _FAST ones, a pointer outside device memory, the
// execution budget spent) is a library call as before: logged, every
// device byte unknown.
//
//===----------------------------------------------------------------------===//
#include "float_bits.h"
#include "library_call.h"

#include <cublas_v2.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

/// cublasSetPointerMode's setting, in the handle's zeroed object (zero is
/// CUBLAS_POINTER_MODE_HOST, cuBLAS's default).
cublasPointerMode_t &pointerMode(cublasHandle_t H) {
  return *reinterpret_cast<cublasPointerMode_t *>(H);
}

size_t sizeOf(cudaDataType T) {
  switch (T) {
  case CUDA_R_64F:
    return 8;
  case CUDA_R_32F:
    return 4;
  case CUDA_R_16F:
  case CUDA_R_16BF:
    return 2;
  default:
    return 0;
  }
}

double valueAt(const void *P, cudaDataType T, int64_t I) {
  switch (T) {
  case CUDA_R_64F:
    return static_cast<const double *>(P)[I];
  case CUDA_R_32F:
    return static_cast<const float *>(P)[I];
  case CUDA_R_16F:
    return gmem::exec::halfToDouble(static_cast<const uint16_t *>(P)[I]);
  default: // CUDA_R_16BF
    return gmem::exec::bf16ToDouble(static_cast<const uint16_t *>(P)[I]);
  }
}

/// A column-major matrix as stored: Rows x Cols, Ld elements apart.
struct Matrix {
  const void *P;
  cudaDataType T;
  int64_t Rows, Cols, Ld;
  const char *column(int64_t J) const {
    return static_cast<const char *>(P) + J * Ld * int64_t(sizeOf(T));
  }
  size_t columnBytes() const { return size_t(Rows) * sizeOf(T); }
  /// Whether every column lies in device memory (and is known).
  bool inDevice(bool Known) const {
    for (int64_t J = 0; J < Cols; ++J)
      if (!gmemRecordDeviceRange(column(J), columnBytes(), Known))
        return false;
    return true;
  }
};

/// One GEMM of a batch, with cuBLAS's arguments.
struct Gemm {
  cublasOperation_t OpA, OpB;
  int64_t M, N, K;
  Matrix A, B, C;
  double Alpha, Beta;
};

/// op(X) packed as a column-major Rows x Cols array of doubles.
std::vector<double> packed(const Matrix &X, cublasOperation_t Op, int64_t Rows,
                           int64_t Cols) {
  std::vector<double> Out(size_t(Rows * Cols));
  for (int64_t J = 0; J < Cols; ++J)
    for (int64_t I = 0; I < Rows; ++I)
      Out[size_t(I + J * Rows)] = Op == CUBLAS_OP_N
                                      ? valueAt(X.P, X.T, I + J * X.Ld)
                                      : valueAt(X.P, X.T, J + I * X.Ld);
  return Out;
}

/// C's columns [J0, J1): blocks of columns and rows small enough for L1,
/// the inner loop over rows (vectorised without reordering the sums).
void multiply(const Gemm &G, const std::vector<double> &A,
              const std::vector<double> &B, int64_t J0, int64_t J1) {
  constexpr int64_t Cols = 8, Rows = 512;
  std::vector<double> Acc(Cols * Rows);
  char *C = const_cast<char *>(G.C.column(0));
  for (int64_t J = J0; J < J1; J += Cols) {
    const int64_t NJ = std::min(Cols, J1 - J);
    for (int64_t I = 0; I < G.M; I += Rows) {
      const int64_t NI = std::min(Rows, G.M - I);
      std::fill(Acc.begin(), Acc.end(), 0.0);
      for (int64_t L = 0; L < G.K; ++L) {
        const double *Col = &A[size_t(I + L * G.M)];
        for (int64_t JJ = 0; JJ < NJ; ++JJ) {
          const double Bv = B[size_t(L + (J + JJ) * G.K)];
          double *Out = &Acc[size_t(JJ * Rows)];
          for (int64_t II = 0; II < NI; ++II)
            Out[II] += Col[II] * Bv;
        }
      }
      for (int64_t JJ = 0; JJ < NJ; ++JJ)
        for (int64_t II = 0; II < NI; ++II) {
          const int64_t E = I + II + (J + JJ) * G.C.Ld;
          double V = G.Alpha * Acc[size_t(JJ * Rows + II)];
          // cuBLAS reads no C when beta is zero (it may hold NaNs).
          if (G.Beta != 0)
            V += G.Beta * valueAt(C, G.C.T, E);
          switch (G.C.T) {
          case CUDA_R_64F:
            reinterpret_cast<double *>(C)[E] = V;
            break;
          case CUDA_R_32F:
            reinterpret_cast<float *>(C)[E] = float(V);
            break;
          case CUDA_R_16F:
            reinterpret_cast<uint16_t *>(C)[E] =
                uint16_t(gmem::exec::doubleToHalf(V));
            break;
          default: // CUDA_R_16BF
            reinterpret_cast<uint16_t *>(C)[E] =
                uint16_t(gmem::exec::doubleToBf16(V));
          }
        }
    }
  }
}

void compute(const Gemm &G) {
  const std::vector<double> A = packed(G.A, G.OpA, G.M, G.K);
  const std::vector<double> B = packed(G.B, G.OpB, G.K, G.N);
  const int64_t Threads = std::max<int64_t>(
      1, std::min<int64_t>(std::thread::hardware_concurrency(), G.N / 64));
  std::vector<std::thread> Pool;
  const int64_t Per = (G.N + Threads - 1) / Threads;
  for (int64_t T = 0; T < Threads; ++T) {
    const int64_t J0 = T * Per, J1 = std::min(G.N, J0 + Per);
    if (J0 < J1)
      Pool.emplace_back([&G, &A, &B, J0, J1] { multiply(G, A, B, J0, J1); });
  }
  for (std::thread &T : Pool)
    T.join();
}

double scalar(cublasHandle_t H, const void *P, cudaDataType T, bool &Known) {
  if (pointerMode(H) == CUBLAS_POINTER_MODE_DEVICE)
    Known &= gmemRecordDeviceRange(P, sizeOf(T), 1) != 0;
  return valueAt(P, T, 0);
}

/// Runs Batch GEMMs (the first G, the next Stride elements further on
/// each); a call it cannot compute is logged as one that ran nothing.
cublasStatus_t run(const char *Api, cublasHandle_t H, Gemm G, const void *Alpha,
                   const void *Beta, cudaDataType Scalar, int64_t Batch = 1,
                   int64_t StrideA = 0, int64_t StrideB = 0,
                   int64_t StrideC = 0) {
  const bool Shapes = G.M >= 0 && G.N >= 0 && G.K >= 0 && Batch >= 0 &&
                      G.A.Ld >= std::max<int64_t>(1, G.A.Rows) &&
                      G.B.Ld >= std::max<int64_t>(1, G.B.Rows) &&
                      G.C.Ld >= std::max<int64_t>(1, G.M);
  const bool Types = sizeOf(G.C.T) && sizeOf(G.A.T) && sizeOf(G.B.T);
  if (!H || !Shapes || !Types || !gmemRecordLibraryMayCompute())
    return cublasStatus_t(gmemRecordLibraryCall(Api));
  const auto Start = std::chrono::steady_clock::now();
  bool Known = true;
  G.Alpha = scalar(H, Alpha, Scalar, Known);
  G.Beta = scalar(H, Beta, Scalar, Known);
  std::vector<Gemm> All;
  for (int64_t I = 0; I < Batch; ++I) {
    Gemm One = G;
    One.A.P = G.A.column(0) + I * StrideA * int64_t(sizeOf(G.A.T));
    One.B.P = G.B.column(0) + I * StrideB * int64_t(sizeOf(G.B.T));
    One.C.P = G.C.column(0) + I * StrideC * int64_t(sizeOf(G.C.T));
    if (!One.A.inDevice(false) || !One.B.inDevice(false) ||
        !One.C.inDevice(false))
      return cublasStatus_t(gmemRecordLibraryCall(Api));
    Known &= One.A.inDevice(true) && One.B.inDevice(true) &&
             (G.Beta == 0 || One.C.inDevice(true));
    All.push_back(One);
  }
  for (const Gemm &One : All) {
    // Unknown inputs give unknown outputs: nothing to compute.
    if (Known && One.M && One.N)
      compute(One);
    for (int64_t J = 0; J < One.N; ++J)
      gmemRecordComputed(const_cast<char *>(One.C.column(J)),
                         One.C.columnBytes(), Known);
  }
  gmemRecordLibraryComputed(Api, std::chrono::duration<double>(
                                     std::chrono::steady_clock::now() - Start)
                                     .count());
  return CUBLAS_STATUS_SUCCESS;
}

Gemm gemm(cublasOperation_t OpA, cublasOperation_t OpB, int64_t M, int64_t N,
          int64_t K, const void *A, cudaDataType AT, int64_t Lda, const void *B,
          cudaDataType BT, int64_t Ldb, void *C, cudaDataType CT, int64_t Ldc) {
  // Conjugation is transposition for the real types computed here.
  const bool TA = OpA != CUBLAS_OP_N, TB = OpB != CUBLAS_OP_N;
  return {TA ? CUBLAS_OP_T : CUBLAS_OP_N,
          TB ? CUBLAS_OP_T : CUBLAS_OP_N,
          M,
          N,
          K,
          {A, AT, TA ? K : M, TA ? M : K, Lda},
          {B, BT, TB ? N : K, TB ? K : N, Ldb},
          {C, CT, M, N, Ldc},
          0,
          0};
}

/// The scalars' type for a compute type computed here, or none (the _FAST
/// ones round their inputs in ways cuBLAS chooses).
bool scalarType(cublasComputeType_t Compute, cudaDataType CT,
                cudaDataType &Scalar) {
  switch (Compute) {
  case CUBLAS_COMPUTE_16F:
  case CUBLAS_COMPUTE_16F_PEDANTIC:
    Scalar = CUDA_R_16F;
    return CT == CUDA_R_16F;
  case CUBLAS_COMPUTE_32F:
  case CUBLAS_COMPUTE_32F_PEDANTIC:
    Scalar = CUDA_R_32F;
    return CT == CUDA_R_32F || CT == CUDA_R_16F || CT == CUDA_R_16BF;
  case CUBLAS_COMPUTE_64F:
  case CUBLAS_COMPUTE_64F_PEDANTIC:
    Scalar = CUDA_R_64F;
    return CT == CUDA_R_64F;
  default:
    return false;
  }
}

/// The cudaDataType of a typed API's element.
template <typename T> constexpr cudaDataType typeOf() {
  if constexpr (std::is_same_v<T, double>)
    return CUDA_R_64F;
  else if constexpr (std::is_same_v<T, __half>)
    return CUDA_R_16F;
  else
    return CUDA_R_32F;
}

/// cublas{H,S,D}gemm and their strided batches: every operand a T.
template <typename T>
cublasStatus_t typed(const char *Api, cublasHandle_t H, cublasOperation_t OpA,
                     cublasOperation_t OpB, int M, int N, int K, const T *Alpha,
                     const T *A, int Lda, long long StrideA, const T *B,
                     int Ldb, long long StrideB, const T *Beta, T *C, int Ldc,
                     long long StrideC, int Batch) {
  constexpr cudaDataType Ty = typeOf<T>();
  return run(Api, H,
             gemm(OpA, OpB, M, N, K, A, Ty, Lda, B, Ty, Ldb, C, Ty, Ldc), Alpha,
             Beta, Ty, Batch, StrideA, StrideB, StrideC);
}

/// cublas{S,D}gemv: y = alpha op(A) x + beta y, computed as the GEMM
/// y^T = x^T op(A)^T of one row, so that x's and y's strides are the
/// leading dimensions of one-row matrices.
template <typename T>
cublasStatus_t gemv(const char *Api, cublasHandle_t H, cublasOperation_t Op,
                    int M, int N, const T *Alpha, const T *A, int Lda,
                    const T *X, int IncX, const T *Beta, T *Y, int IncY) {
  // cuBLAS walks a negative stride from the vector's far end; not here.
  if (IncX <= 0 || IncY <= 0)
    return cublasStatus_t(gmemRecordLibraryCall(Api));
  constexpr cudaDataType Ty =
      std::is_same_v<T, double> ? CUDA_R_64F : CUDA_R_32F;
  const bool TA = Op != CUBLAS_OP_N;
  // op(A) is Rows x Cols.
  const int Rows = TA ? N : M, Cols = TA ? M : N;
  return run(Api, H,
             gemm(CUBLAS_OP_N, TA ? CUBLAS_OP_N : CUBLAS_OP_T, 1, Rows, Cols, X,
                  Ty, IncX, A, Ty, Lda, Y, Ty, IncY),
             Alpha, Beta, Ty);
}

} // namespace

extern "C" {

cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t H,
                                       cublasPointerMode_t Mode) {
  if (H)
    pointerMode(H) = Mode;
  return cublasStatus_t(gmemRecordLibraryCall("cublasSetPointerMode_v2"));
}

cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t H,
                                       cublasPointerMode_t *Mode) {
  *Mode = H ? pointerMode(H) : CUBLAS_POINTER_MODE_HOST;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSgemm_v2(cublasHandle_t H, cublasOperation_t OpA,
                              cublasOperation_t OpB, int M, int N, int K,
                              const float *Alpha, const float *A, int Lda,
                              const float *B, int Ldb, const float *Beta,
                              float *C, int Ldc) {
  return typed("cublasSgemm_v2", H, OpA, OpB, M, N, K, Alpha, A, Lda, 0, B, Ldb,
               0, Beta, C, Ldc, 0, 1);
}

cublasStatus_t cublasHgemm(cublasHandle_t H, cublasOperation_t OpA,
                           cublasOperation_t OpB, int M, int N, int K,
                           const __half *Alpha, const __half *A, int Lda,
                           const __half *B, int Ldb, const __half *Beta,
                           __half *C, int Ldc) {
  return typed("cublasHgemm", H, OpA, OpB, M, N, K, Alpha, A, Lda, 0, B, Ldb, 0,
               Beta, C, Ldc, 0, 1);
}

cublasStatus_t cublasDgemm_v2(cublasHandle_t H, cublasOperation_t OpA,
                              cublasOperation_t OpB, int M, int N, int K,
                              const double *Alpha, const double *A, int Lda,
                              const double *B, int Ldb, const double *Beta,
                              double *C, int Ldc) {
  return typed("cublasDgemm_v2", H, OpA, OpB, M, N, K, Alpha, A, Lda, 0, B, Ldb,
               0, Beta, C, Ldc, 0, 1);
}

cublasStatus_t cublasSgemv_v2(cublasHandle_t H, cublasOperation_t Op, int M,
                              int N, const float *Alpha, const float *A,
                              int Lda, const float *X, int IncX,
                              const float *Beta, float *Y, int IncY) {
  return gemv("cublasSgemv_v2", H, Op, M, N, Alpha, A, Lda, X, IncX, Beta, Y,
              IncY);
}

cublasStatus_t cublasDgemv_v2(cublasHandle_t H, cublasOperation_t Op, int M,
                              int N, const double *Alpha, const double *A,
                              int Lda, const double *X, int IncX,
                              const double *Beta, double *Y, int IncY) {
  return gemv("cublasDgemv_v2", H, Op, M, N, Alpha, A, Lda, X, IncX, Beta, Y,
              IncY);
}

cublasStatus_t cublasGemmEx(cublasHandle_t H, cublasOperation_t OpA,
                            cublasOperation_t OpB, int M, int N, int K,
                            const void *Alpha, const void *A, cudaDataType AT,
                            int Lda, const void *B, cudaDataType BT, int Ldb,
                            const void *Beta, void *C, cudaDataType CT, int Ldc,
                            cublasComputeType_t Compute, cublasGemmAlgo_t) {
  cudaDataType Scalar;
  if (!scalarType(Compute, CT, Scalar))
    return cublasStatus_t(gmemRecordLibraryCall("cublasGemmEx"));
  return run("cublasGemmEx", H,
             gemm(OpA, OpB, M, N, K, A, AT, Lda, B, BT, Ldb, C, CT, Ldc), Alpha,
             Beta, Scalar);
}

cublasStatus_t cublasHgemmStridedBatched(
    cublasHandle_t H, cublasOperation_t OpA, cublasOperation_t OpB, int M,
    int N, int K, const __half *Alpha, const __half *A, int Lda,
    long long StrideA, const __half *B, int Ldb, long long StrideB,
    const __half *Beta, __half *C, int Ldc, long long StrideC, int Batch) {
  return typed("cublasHgemmStridedBatched", H, OpA, OpB, M, N, K, Alpha, A, Lda,
               StrideA, B, Ldb, StrideB, Beta, C, Ldc, StrideC, Batch);
}

cublasStatus_t cublasSgemmStridedBatched(
    cublasHandle_t H, cublasOperation_t OpA, cublasOperation_t OpB, int M,
    int N, int K, const float *Alpha, const float *A, int Lda,
    long long StrideA, const float *B, int Ldb, long long StrideB,
    const float *Beta, float *C, int Ldc, long long StrideC, int Batch) {
  return typed("cublasSgemmStridedBatched", H, OpA, OpB, M, N, K, Alpha, A, Lda,
               StrideA, B, Ldb, StrideB, Beta, C, Ldc, StrideC, Batch);
}

cublasStatus_t cublasDgemmStridedBatched(
    cublasHandle_t H, cublasOperation_t OpA, cublasOperation_t OpB, int M,
    int N, int K, const double *Alpha, const double *A, int Lda,
    long long StrideA, const double *B, int Ldb, long long StrideB,
    const double *Beta, double *C, int Ldc, long long StrideC, int Batch) {
  return typed("cublasDgemmStridedBatched", H, OpA, OpB, M, N, K, Alpha, A, Lda,
               StrideA, B, Ldb, StrideB, Beta, C, Ldc, StrideC, Batch);
}

cublasStatus_t cublasGemmStridedBatchedEx(
    cublasHandle_t H, cublasOperation_t OpA, cublasOperation_t OpB, int M,
    int N, int K, const void *Alpha, const void *A, cudaDataType AT, int Lda,
    long long StrideA, const void *B, cudaDataType BT, int Ldb,
    long long StrideB, const void *Beta, void *C, cudaDataType CT, int Ldc,
    long long StrideC, int Batch, cublasComputeType_t Compute,
    cublasGemmAlgo_t) {
  cudaDataType Scalar;
  if (!scalarType(Compute, CT, Scalar))
    return cublasStatus_t(gmemRecordLibraryCall("cublasGemmStridedBatchedEx"));
  return run("cublasGemmStridedBatchedEx", H,
             gemm(OpA, OpB, M, N, K, A, AT, Lda, B, BT, Ldb, C, CT, Ldc), Alpha,
             Beta, Scalar, Batch, StrideA, StrideB, StrideC);
}

} // extern "C"
