//===- functional_record_test.cpp - Recording that runs the kernels -------===//
//
// Programs built by nvcc and run against gmem's recording runtime with the
// executor on (--exec-budget): device memory then holds what a GPU
// computes. tests/data/executor/semantics.cu prints what its kernels
// computed; semantics.h100.txt is the same program's output on an H100
// (CUDA 13.0, tests/data/executor/programs.txt, measured with
// scripts/measure_programs.sh), which the recorded run must print bit for
// bit, but for the .approx instructions' few ulps. The other programs
// below check their own results and count their launches by arithmetic.
//
//===----------------------------------------------------------------------===//
#include "record_run.h"
#include "toolkit.h"

#include "llvm/Support/FileSystem.h"
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace gmem;

namespace {

std::vector<std::string> linesOf(const std::string &Text) {
  std::vector<std::string> Lines;
  std::istringstream In(Text);
  for (std::string L; std::getline(In, L);)
    Lines.push_back(L);
  return Lines;
}

class FunctionalRecord : public ::testing::Test {
protected:
  void SetUp() override {
    if (!*GMEM_RECORD_RUNTIME_DIR)
      GTEST_SKIP() << "gmem was built without the recording runtime";
    auto T = findToolkit("");
    if (!T)
      GTEST_SKIP() << llvm::toString(T.takeError());
    Tk = *T;
  }
  void TearDown() override {
    for (const std::string &F : Files)
      llvm::sys::fs::remove(F);
  }
  RecordedRun run(const std::string &Path,
                  const std::vector<std::string> &Deferrable = {}) {
    RecordRequest R;
    R.Deferrable = Deferrable;
    R.Kernels = &Kernels;
    R.Nvcc = Tk.Nvcc;
    R.NvccVersion = Tk.Version;
    R.Files = {Path};
    R.Flags = Flags;
    R.Board = "h100-sxm";
    R.RuntimeDir = GMEM_RECORD_RUNTIME_DIR;
    R.ExecSeconds = 60;
    R.OutputBytes = 1 << 20;
    auto Run = recordProgram(R);
    if (!Run) {
      ADD_FAILURE() << llvm::toString(Run.takeError());
      return {};
    }
    return *Run;
  }
  std::string write(const std::string &Code) {
    llvm::SmallString<128> P;
    llvm::sys::fs::createTemporaryFile("functional-test", "cu", P);
    std::ofstream(std::string(P)) << Code;
    Files.push_back(std::string(P));
    return std::string(P);
  }
  Toolkit Tk;
  std::vector<std::string> Files;
  std::vector<std::string> Flags; ///< nvcc's, for the next run().
  /// A kernel as gmem-analyze describes it to the recorder: its mangled
  /// name and its parameters' sizes.
  static Kernel kernelOf(const std::string &Mangled,
                         const std::vector<unsigned> &Bytes) {
    Kernel K;
    K.MangledName = Mangled;
    K.Params.resize(Bytes.size());
    for (size_t I = 0; I < Bytes.size(); ++I)
      K.Params[I].Bytes = Bytes[I];
    return K;
  }
  /// What gmem-analyze tells the recorder of the kernels: their parameters'
  /// sizes (without which it knows no launch's buffers).
  std::vector<Kernel> Kernels;
};

/// Whether two lines of semantics.cu's "approx" output agree within the
/// PTX ISA's bounds: sin and cos 2^-20.5 absolute; ex2, lg2, rsqrt and
/// the fast division about 2 ulps; tanh 2^-10.987 relative (columns in the
/// kernel's order).
bool approxAgree(const std::string &Ours, const std::string &Gpu) {
  std::istringstream A(Ours), B(Gpu);
  std::string Tag, Index, TagB, IndexB;
  A >> Tag >> Index;
  B >> TagB >> IndexB;
  if (Tag != TagB || Index != IndexB)
    return false;
  for (int Col = 0; Col < 7; ++Col) {
    std::string SX, SY;
    if (!(A >> SX) || !(B >> SY))
      return false;
    // strtod reads "inf" and "nan", as printf writes them.
    const double X = std::strtod(SX.c_str(), nullptr),
                 Y = std::strtod(SY.c_str(), nullptr);
    const double Tol = Col < 2    ? std::ldexp(1.0, -20)
                       : Col == 6 ? std::ldexp(std::fabs(Y), -10)
                                  : std::ldexp(std::fabs(Y), -21) + 1e-38;
    if (X != Y && !(std::fabs(X - Y) <= Tol))
      return false;
  }
  return true;
}

TEST_F(FunctionalRecord, KernelsComputeWhatTheH100Computed) {
  const std::string Dir =
      std::string(GMEM_SOURCE_DIR) + "/tests/data/executor/";
  RecordedRun Run = run(Dir + "semantics.cu");
  EXPECT_EQ(Run.Stopped, "") << Run.OutputTail.substr(0, 2000);
  EXPECT_TRUE(Run.Functional);
  std::ifstream In(Dir + "semantics.h100.txt");
  std::stringstream Gpu;
  Gpu << In.rdbuf();
  std::vector<std::string> Want = linesOf(Gpu.str());
  std::vector<std::string> Got = linesOf(Run.OutputTail);
  // The measured file ends with the measuring script's "exit status" line.
  ASSERT_FALSE(Want.empty());
  if (Want.back().rfind("exit status", 0) == 0)
    Want.pop_back();
  ASSERT_EQ(Got.size(), Want.size());
  size_t Approx = 0;
  for (size_t I = 0; I < Want.size(); ++I) {
    if (Want[I].rfind("approx", 0) == 0) {
      ++Approx;
      EXPECT_TRUE(approxAgree(Got[I], Want[I]))
          << "gmem: " << Got[I] << "\nH100: " << Want[I];
    } else {
      EXPECT_EQ(Got[I], Want[I]);
    }
  }
  EXPECT_EQ(Approx, 256u);
}

// A benchmark loop: 200 identical launches that overwrite what they do not
// read are run once and counted for each; the in-place update that follows
// reads what it writes and runs every time. The program checks both.
TEST_F(FunctionalRecord, RepeatedLaunchesKeepTheirResults) {
  const std::string P = write(R"(
#include <cstdio>
__global__ void scale(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}
__global__ void bump(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}
int main() {
  const int n = 1 << 16;
  static float h[1 << 16];
  for (int i = 0; i < n; ++i) h[i] = float(i);
  float *in, *out;
  cudaMalloc(&in, n * 4);
  cudaMalloc(&out, n * 4);
  cudaMemcpy(in, h, n * 4, cudaMemcpyHostToDevice);
  for (int r = 0; r < 200; ++r) scale<<<n / 256, 256>>>(in, out, n);
  for (int r = 0; r < 50; ++r) bump<<<n / 256, 256>>>(out, n);
  cudaMemcpy(h, out, n * 4, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (h[i] != 2.0f * i + 50.0f) { printf("wrong at %d: %g\n", i, h[i]); return 1; }
  printf("ok\n");
  return 0;
}
)");
  RecordedRun Run = run(P);
  EXPECT_EQ(Run.Stopped, "") << Run.OutputTail;
  EXPECT_EQ(Run.OutputTail, "ok\n");
  ASSERT_EQ(Run.Launches.size(), 250u);
  for (const RecordedLaunch &L : Run.Launches) {
    ASSERT_TRUE(L.Exec) << L.N;
    ASSERT_FALSE(L.Exec->Stats.empty());
  }
  // Every launch counts its own requests: scale's load, 256 blocks of 8
  // warps, 4 sectors each.
  EXPECT_EQ(Run.Launches[199].Exec->Stats[0].Requests, 2048u);
  EXPECT_EQ(Run.Launches[199].Exec->Stats[0].Units, 8192u);
  EXPECT_TRUE(Run.Forgets.empty());
}

// A graph captured across two streams (the second joins by waiting for an
// event recorded in the first), holding copies, a memset and a free, and
// one built with memory allocation and free nodes, as cuda-samples'
// graphMemoryNodes makes them: each replay runs the copies when the graph
// runs, so the host reads what the kernels computed; before, the copies
// ran at capture (stale results, "Validation FAILURE") and the free freed
// the buffer the replays then used, and the allocation node stopped the
// program (cudaErrorNotSupported). Graph memory freed outside the graph is
// there again at its next launch.
TEST_F(FunctionalRecord,
       GraphsCapturedAcrossStreamsRunTheirCopiesWhenLaunched) {
  const std::string P = write(R"(
#include <cstdio>
__global__ void square(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}
int main() {
  const int n = 4096;
  static float h[4096], got[4096];
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaEvent_t done, joined;
  cudaEventCreate(&done);
  cudaEventCreate(&joined);
  float *in, *out;
  cudaGraph_t g;
  cudaGraphExec_t e;
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  cudaMallocAsync(&in, n * 4, s1);
  cudaMallocAsync(&out, n * 4, s1);
  cudaMemsetAsync(out, 0, n * 4, s1);
  cudaMemcpyAsync(in, h, n * 4, cudaMemcpyHostToDevice, s1);
  square<<<n / 256, 256, 0, s1>>>(in, out, n);
  cudaEventRecord(done, s1);
  cudaStreamWaitEvent(s2, done, 0);
  cudaMemcpyAsync(got, out, n * 4, cudaMemcpyDeviceToHost, s2);
  cudaFreeAsync(in, s2);
  cudaFreeAsync(out, s2);
  cudaEventRecord(joined, s2);
  cudaStreamWaitEvent(s1, joined, 0);
  if (cudaStreamEndCapture(s1, &g) != cudaSuccess) return 2;
  cudaGraphInstantiate(&e, g, 0);
  for (int r = 1; r <= 3; ++r) {
    for (int i = 0; i < n; ++i) h[i] = float(r * i % 97);
    cudaGraphLaunch(e, s1);
    cudaStreamSynchronize(s1);
    for (int i = 0; i < n; ++i)
      if (got[i] != h[i] * h[i]) { printf("capture %d: wrong at %d\n", r, i); return 1; }
  }
  cudaGraph_t b;
  cudaGraphCreate(&b, 0);
  cudaMemAllocNodeParams a = {};
  a.poolProps.allocType = cudaMemAllocationTypePinned;
  a.poolProps.location.type = cudaMemLocationTypeDevice;
  a.bytesize = n * 4;
  cudaGraphNode_t alloc, copy, kern, copyBack, freed;
  if (cudaGraphAddMemAllocNode(&alloc, b, nullptr, 0, &a) != cudaSuccess) return 3;
  float *d = (float *)a.dptr;
  cudaGraphAddMemcpyNode1D(&copy, b, &alloc, 1, d, h, n * 4, cudaMemcpyHostToDevice);
  cudaKernelNodeParams k = {};
  void *args[] = {&d, &d, (void *)&n};
  k.func = (void *)square;
  k.gridDim = dim3(n / 256);
  k.blockDim = dim3(256);
  k.kernelParams = args;
  cudaGraphAddKernelNode(&kern, b, &copy, 1, &k);
  cudaGraphAddMemcpyNode1D(&copyBack, b, &kern, 1, got, d, n * 4, cudaMemcpyDeviceToHost);
  if (cudaGraphAddMemFreeNode(&freed, b, &copyBack, 1, d) != cudaSuccess) return 4;
  cudaGraphExec_t be;
  cudaGraphInstantiate(&be, b, 0);
  cudaGraphLaunch(be, s1);
  cudaStreamSynchronize(s1);
  for (int i = 0; i < n; ++i)
    if (got[i] != h[i] * h[i]) { printf("built: wrong at %d\n", i); return 1; }
  // Graph memory freed outside the graph: its next launch allocates it
  // again.
  if (cudaFree(d) != cudaSuccess) return 5;
  for (int i = 0; i < n; ++i) h[i] = float(i % 7);
  cudaGraphLaunch(be, s1);
  cudaStreamSynchronize(s1);
  for (int i = 0; i < n; ++i)
    if (got[i] != h[i] * h[i]) { printf("again: wrong at %d\n", i); return 1; }
  printf("ok\n");
  return 0;
}
)");
  Kernels = {kernelOf("_Z6squarePKfPfi", {8, 8, 4})};
  RecordedRun Run = run(P);
  EXPECT_EQ(Run.Stopped, "") << Run.OutputTail;
  EXPECT_EQ(Run.OutputTail, "ok\n");
  // Three replays of the captured graph and two of the built one.
  EXPECT_EQ(Run.Launches.size(), 5u);
}

// A benchmark's loop sets a buffer before every launch (llm.c flushes the
// L2 with a 50 MB memset 6000 times): a memset that finds the buffer as the
// last one left it is not made again, but one after a kernel wrote it is,
// and the bytes it sets are known even after a launch the recording did
// not run (a library call) made every buffer unknown.
TEST_F(FunctionalRecord, MemsetsAroundLaunchesLeaveWhatTheGpuHolds) {
  const std::string P = write(R"(
#include <cstdio>
#include <cublas_v2.h>
__global__ void bump(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += i;
}
int main() {
  const int n = 1 << 16;
  static int h[1 << 16];
  int *x;
  cudaMalloc(&x, n * 4);
  for (int r = 0; r < 3; ++r) {
    cudaMemset(x, 1, n * 4);
    cudaMemset(x, 1, n * 4);
    bump<<<n / 256, 256>>>(x, n);
  }
  cudaMemcpy(h, x, n * 4, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (h[i] != 0x01010101 + i) { printf("first: wrong at %d\n", i); return 1; }
  cublasHandle_t b;
  cublasCreate(&b);
  cudaMemset(x, 0, n * 4);
  float one = 1, *f = reinterpret_cast<float *>(x);
  cublasSscal(b, 1, &one, f, 1);
  cudaMemset(x, 0, n * 4);
  bump<<<n / 256, 256>>>(x, n);
  cudaMemcpy(h, x, n * 4, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (h[i] != i) { printf("second: wrong at %d\n", i); return 1; }
  printf("ok\n");
  return 0;
}
)");
  Flags = {"-lcublas"};
  Kernels = {kernelOf("_Z4bumpPii", {8, 4})};
  RecordedRun Run = run(P);
  EXPECT_EQ(Run.Stopped, "") << Run.OutputTail;
  EXPECT_EQ(Run.OutputTail, "ok\n");
  ASSERT_EQ(Run.Launches.size(), 4u);
  EXPECT_EQ(Run.Forgets.size(), 1u); // The library call.
  // The last launch read bytes the host set after the library call: its
  // input image is known.
  ASSERT_EQ(Run.Launches[3].ImageKnown.size(), 1u);
  EXPECT_TRUE(Run.Launches[3].ImageKnown.begin()->second);
}

// A program that checks its kernel against cuBLAS, as GEMM tutorials do
// (cublasGemmEx with A and B swapped for row-major C): the recording's
// GEMMs compute on the host, so the checks against a host reference pass
// (transposed operands, a strided batch, double precision with scalars in
// device memory), the kernel after them reads known bytes, and nothing is
// forgotten until a TF32 GEMM, which gmem does not compute.
TEST_F(FunctionalRecord, CublasGemmsComputeWhatTheProgramChecks) {
  const std::string P = write(R"(
#include <cmath>
#include <cstdio>
#include <cublas_v2.h>
__global__ void rowMajor(int m, int n, int k, const float *a, const float *b,
                         float *c) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m && j < n) {
    float s = 0;
    for (int l = 0; l < k; ++l) s += a[i * k + l] * b[l * n + j];
    c[i * n + j] = 2 * s + 0.5f * c[i * n + j];
  }
}
static float a[70 * 33], b[33 * 50], c[70 * 50], mine[70 * 50], ref[70 * 50];
static double da[6 * 5], db[5 * 4], dc[6 * 4], dref[6 * 4];
bool near(float x, float y) { return std::fabs(x - y) <= 1e-4f * (1 + std::fabs(y)); }
int main() {
  const int m = 70, n = 50, k = 33;
  for (int i = 0; i < m * k; ++i) a[i] = (i % 13) * 0.25f - 1;
  for (int i = 0; i < k * n; ++i) b[i] = (i % 7) * 0.5f - 1.5f;
  for (int i = 0; i < m * n; ++i) c[i] = (i % 5) - 2.f;
  float *A, *B, *C, *Cref;
  cudaMalloc(&A, sizeof a); cudaMalloc(&B, sizeof b);
  cudaMalloc(&C, sizeof c); cudaMalloc(&Cref, sizeof c);
  cudaMemcpy(A, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(B, b, sizeof b, cudaMemcpyHostToDevice);
  cudaMemcpy(C, c, sizeof c, cudaMemcpyHostToDevice);
  cudaMemcpy(Cref, c, sizeof c, cudaMemcpyHostToDevice);
  cublasHandle_t h;
  cublasCreate(&h);
  float alpha = 2, beta = 0.5f;
  // Row-major C = 2 A B + C / 2 as column-major C^T = 2 B^T A^T + C^T / 2.
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, B, CUDA_R_32F, n,
               A, CUDA_R_32F, k, &beta, Cref, CUDA_R_32F, n,
               CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
  rowMajor<<<dim3(4, 5), dim3(16, 16)>>>(m, n, k, A, B, C);
  cudaMemcpy(mine, C, sizeof c, cudaMemcpyDeviceToHost);
  cudaMemcpy(ref, Cref, sizeof c, cudaMemcpyDeviceToHost);
  for (int i = 0; i < m * n; ++i) {
    double s = 0;
    for (int l = 0; l < k; ++l) s += a[i / n * k + l] * b[l * n + i % n];
    if (!near(ref[i], float(2 * s + 0.5 * c[i])) || !near(mine[i], ref[i])) {
      printf("gemmex: wrong at %d\n", i); return 1;
    }
  }
  // Column-major op(A) = A^T (A stored k x m), op(B) = B^T (B stored n x k):
  // C (m x n) = A^T B^T + C / 2, once as a batch of one, from c again.
  cudaMemcpy(C, c, sizeof c, cudaMemcpyHostToDevice);
  cudaMemcpy(Cref, c, sizeof c, cudaMemcpyHostToDevice);
  cublasSgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_T, m, n, k, &alpha, A,
                            k, 0, B, n, 0, &beta, C, m, 0, 1);
  cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_T, m, n, k, &alpha, A, k, B, n, &beta,
              Cref, m);
  cudaMemcpy(mine, C, sizeof c, cudaMemcpyDeviceToHost);
  cudaMemcpy(ref, Cref, sizeof c, cudaMemcpyDeviceToHost);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double s = 0;
      for (int l = 0; l < k; ++l) s += a[l + i * k] * b[j + l * n];
      if (!near(ref[i + j * m], float(2 * s + 0.5 * c[i + j * m])) ||
          mine[i + j * m] != ref[i + j * m]) {
        printf("sgemm: wrong at %d %d\n", i, j); return 1;
      }
    }
  for (int i = 0; i < 30; ++i) da[i] = i * 0.125;
  for (int i = 0; i < 20; ++i) db[i] = 3 - i * 0.25;
  double *DA, *DB, *DC, *S;
  cudaMalloc(&DA, sizeof da); cudaMalloc(&DB, sizeof db);
  cudaMalloc(&DC, sizeof dc); cudaMalloc(&S, 16);
  double s[2] = {1.5, 0};
  cudaMemcpy(DA, da, sizeof da, cudaMemcpyHostToDevice);
  cudaMemcpy(DB, db, sizeof db, cudaMemcpyHostToDevice);
  cudaMemcpy(S, s, 16, cudaMemcpyHostToDevice);
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE);
  // beta 0: C's bytes (never written) are not read.
  cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 6, 4, 5, S, DA, 6, DB, 5, S + 1,
              DC, 6);
  cudaMemcpy(dc, DC, sizeof dc, cudaMemcpyDeviceToHost);
  for (int j = 0; j < 4; ++j)
    for (int i = 0; i < 6; ++i) {
      double t = 0;
      for (int l = 0; l < 5; ++l) t += da[i + l * 6] * db[l + j * 5];
      if (std::fabs(dc[i + j * 6] - 1.5 * t) > 1e-12) {
        printf("dgemm: wrong at %d %d\n", i, j); return 1;
      }
    }
  cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST);
  rowMajor<<<dim3(4, 5), dim3(16, 16)>>>(m, n, k, A, B, Cref);
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, B, CUDA_R_32F, n,
               A, CUDA_R_32F, k, &beta, Cref, CUDA_R_32F, n,
               CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
  printf("ok\n");
  return 0;
}
)");
  Flags = {"-lcublas"};
  Kernels = {kernelOf("_Z8rowMajoriiiPKfS0_Pf", {4, 4, 4, 8, 8, 8})};
  RecordedRun Run = run(P);
  EXPECT_EQ(Run.Stopped, "") << Run.OutputTail;
  EXPECT_EQ(Run.OutputTail, "ok\n");
  ASSERT_EQ(Run.Launches.size(), 2u);
  // Every input of the second launch was known: Cref is the Sgemm's.
  for (const auto &[File, Known] : Run.Launches[1].ImageKnown)
    EXPECT_TRUE(Known) << File;
  EXPECT_EQ(Run.LibraryComputed,
            (std::map<std::string, unsigned>{{"cublasDgemm_v2", 1},
                                             {"cublasGemmEx", 1},
                                             {"cublasSgemmStridedBatched", 1},
                                             {"cublasSgemm_v2", 1}}));
  ASSERT_EQ(Run.Forgets.size(), 1u); // The TF32 GEMM, after both launches.
  EXPECT_EQ(Run.Forgets[0].second, 2u);
}

// HGEMM tutorials check their tensor-core kernels against cublasGemmEx on
// half matrices summed in half precision (CUBLAS_COMPUTE_16F, as
// Bruce-Lee-LY/cuda_hgemm and cuda_back2back_hgemm call it) or against
// cublasHgemm, and others sum in float into bfloat16: the recording
// computes them, each element rounded once to C's type from its exact sum,
// so the bits are those of the correctly rounded result (cuBLAS's are
// within its own rounding).
TEST_F(FunctionalRecord, HalfAndBfloat16GemmsAreComputed) {
  const std::string P = write(R"(
#include <cstdio>
#include <cstring>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
static __half a[24 * 40], b[40 * 16], c[24 * 16];
static __nv_bfloat16 d[24 * 16];
static double exact[24 * 16];
int main() {
  const int m = 24, n = 16, k = 40;
  // Sums whose last bits need rounding, and one past half's range.
  for (int i = 0; i < m * k; ++i) a[i] = __double2half((i % 17) * 0.3 - 2);
  for (int i = 0; i < k * n; ++i) b[i] = __double2half((i % 11) * 0.7 - 3);
  a[0] = __double2half(60000.0);
  b[0] = __double2half(30.0);
  __half *A, *B, *C;
  __nv_bfloat16 *D;
  cudaMalloc(&A, sizeof a); cudaMalloc(&B, sizeof b);
  cudaMalloc(&C, sizeof c); cudaMalloc(&D, sizeof d);
  cudaMemcpy(A, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(B, b, sizeof b, cudaMemcpyHostToDevice);
  cublasHandle_t h;
  cublasCreate(&h);
  // Column-major C (m x n) = A (m x k) B (k x n).
  __half one = __double2half(1.0), zero = __double2half(0.0);
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, CUDA_R_16F, m,
               B, CUDA_R_16F, k, &zero, C, CUDA_R_16F, m, CUBLAS_COMPUTE_16F,
               CUBLAS_GEMM_DEFAULT_TENSOR_OP);
  float alpha = 0.5f, beta = 0;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, A, CUDA_R_16F, m,
               B, CUDA_R_16F, k, &beta, D, CUDA_R_16BF, m, CUBLAS_COMPUTE_32F,
               CUBLAS_GEMM_DEFAULT_TENSOR_OP);
  // cublasHgemm is the first GemmEx: the same bits.
  static __half e[24 * 16];
  __half *E;
  cudaMalloc(&E, sizeof e);
  cublasHgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, m, B, k, &zero, E,
              m);
  cudaMemcpy(e, E, sizeof e, cudaMemcpyDeviceToHost);
  cudaMemcpy(c, C, sizeof c, cudaMemcpyDeviceToHost);
  cudaMemcpy(d, D, sizeof d, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double s = 0;
      for (int l = 0; l < k; ++l)
        s += double(__half2float(a[i + l * m])) * __half2float(b[l + j * k]);
      exact[i + j * m] = s;
      __half hc = __double2half(s);
      __nv_bfloat16 hd = __double2bfloat16(0.5 * s);
      wrong += std::memcmp(&hc, &c[i + j * m], 2) != 0;
      wrong += std::memcmp(&hd, &d[i + j * m], 2) != 0;
    }
  wrong += std::memcmp(c, e, sizeof c) != 0;
  printf("%d wrong, c[0] %g, d[0] %g\n", wrong, __half2float(c[0]),
         __bfloat162float(d[0]));
  return wrong != 0;
}
)");
  Flags = {"-lcublas"};
  RecordedRun Run = run(P);
  EXPECT_EQ(Run.Stopped, "") << Run.OutputTail;
  // c[0] overflows half (1.8e6): infinity, as a GPU rounds it.
  EXPECT_EQ(Run.OutputTail, "0 wrong, c[0] inf, d[0] 901120\n");
  EXPECT_EQ(Run.LibraryComputed, (std::map<std::string, unsigned>{
                                     {"cublasGemmEx", 2}, {"cublasHgemm", 1}}));
  EXPECT_TRUE(Run.Forgets.empty());
}

// GEMV tutorials check their kernels against cublasSgemv (a row-major
// matrix as the transpose of a column-major one): both operations, strided
// vectors and double precision are computed, so the checks pass.
TEST_F(FunctionalRecord, CublasGemvsComputeWhatTheProgramChecks) {
  const std::string P = write(R"(
#include <cmath>
#include <cstdio>
#include <cublas_v2.h>
static float a[37 * 20], x[2 * 37], y[3 * 37], yinit[3 * 37];
static double da[5 * 3], dx[3], dy[5];
int main() {
  const int m = 37, n = 20; // a: m x n, column-major, lda = m
  for (int i = 0; i < m * n; ++i) a[i] = (i % 11) * 0.5f - 2;
  for (int i = 0; i < 2 * m; ++i) x[i] = (i % 5) - 2.f;
  for (int i = 0; i < 3 * m; ++i) yinit[i] = (i % 3) * 0.25f;
  float *A, *X, *Y;
  cudaMalloc(&A, sizeof a); cudaMalloc(&X, sizeof x); cudaMalloc(&Y, sizeof y);
  cudaMemcpy(A, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(X, x, sizeof x, cudaMemcpyHostToDevice);
  cublasHandle_t h;
  cublasCreate(&h);
  const float alpha = 2, beta = 0.5f;
  for (int t = 0; t < 2; ++t) {
    cublasOperation_t op = t ? CUBLAS_OP_T : CUBLAS_OP_N;
    const int rows = t ? n : m, cols = t ? m : n;
    cudaMemcpy(Y, yinit, sizeof y, cudaMemcpyHostToDevice);
    // y[0, 3, 6, ...] = 2 op(a) x[0, 2, 4, ...] + y / 2
    cublasSgemv(h, op, m, n, &alpha, A, m, X, 2, &beta, Y, 3);
    cudaMemcpy(y, Y, sizeof y, cudaMemcpyDeviceToHost);
    for (int i = 0; i < rows; ++i) {
      double s = 0;
      for (int l = 0; l < cols; ++l)
        s += (t ? a[l + i * m] : a[i + l * m]) * x[2 * l];
      const double want = 2 * s + 0.5 * yinit[3 * i];
      if (std::fabs(y[3 * i] - want) > 1e-4 * (1 + std::fabs(want)) ||
          y[3 * i + 1] != yinit[3 * i + 1]) {
        printf("sgemv %d: wrong at %d\n", t, i); return 1;
      }
    }
  }
  for (int i = 0; i < 15; ++i) da[i] = i * 0.125;
  for (int i = 0; i < 3; ++i) dx[i] = 1 - i;
  double *DA, *DX, *DY;
  cudaMalloc(&DA, sizeof da); cudaMalloc(&DX, sizeof dx);
  cudaMalloc(&DY, sizeof dy);
  cudaMemcpy(DA, da, sizeof da, cudaMemcpyHostToDevice);
  cudaMemcpy(DX, dx, sizeof dx, cudaMemcpyHostToDevice);
  const double one = 1, zero = 0;
  // beta 0: y's bytes (never written) are not read.
  cublasDgemv(h, CUBLAS_OP_N, 5, 3, &one, DA, 5, DX, 1, &zero, DY, 1);
  cudaMemcpy(dy, DY, sizeof dy, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 5; ++i)
    if (dy[i] != da[i] - da[i + 10]) {
      printf("dgemv: wrong at %d\n", i); return 1;
    }
  printf("ok\n");
  return 0;
}
)");
  Flags = {"-lcublas"};
  RecordedRun Run = run(P);
  EXPECT_EQ(Run.Stopped, "") << Run.OutputTail;
  EXPECT_EQ(Run.OutputTail, "ok\n");
  EXPECT_EQ(Run.LibraryComputed,
            (std::map<std::string, unsigned>{{"cublasDgemv_v2", 1},
                                             {"cublasSgemv_v2", 2}}));
  EXPECT_TRUE(Run.Forgets.empty());
}

// A loop that launches until the kernel says it is done: 1000 halved until
// 0 takes 10 launches (500, 250, 125, 62, 31, 15, 7, 3, 1, 0).
TEST_F(FunctionalRecord, ConvergenceLoopsLaunchAsOftenAsOnTheGpu) {
  const std::string P = write(R"(
#include <cstdio>
__global__ void halve(int *v, int *done) {
  if (threadIdx.x == 0) { *v /= 2; *done = *v == 0; }
}
int main() {
  int *v, *done, h = 1000, d = 0, launches = 0;
  cudaMalloc(&v, 4);
  cudaMalloc(&done, 4);
  cudaMemcpy(v, &h, 4, cudaMemcpyHostToDevice);
  while (!d && launches < 100) {
    halve<<<1, 32>>>(v, done);
    ++launches;
    cudaMemcpy(&d, done, 4, cudaMemcpyDeviceToHost);
  }
  printf("%d\n", launches);
  return 0;
}
)");
  RecordedRun Run = run(P);
  EXPECT_EQ(Run.Stopped, "") << Run.OutputTail;
  EXPECT_EQ(Run.OutputTail, "10\n");
  EXPECT_EQ(Run.Launches.size(), 10u);
}

// Kernels the model prices without data (gmem-analyze names them) wait
// until the host touches what they touch: a copy back of one buffer runs
// the launches up to the last that touches it, in order; a launch whose
// results nobody reads never runs; a memset of a buffer no waiting launch
// touches runs none; a free runs those that touch the freed buffer.
TEST_F(FunctionalRecord, LaunchesRunWhenTheirResultsAreRead) {
  const std::string P = write(R"(
#include <cstdio>
__global__ void fill(int *p, int v) { p[threadIdx.x] = v + threadIdx.x; }
int main() {
  int *a, *b, *c, h = 0;
  cudaMalloc(&a, 128);
  cudaMalloc(&b, 128);
  cudaMalloc(&c, 128);
  fill<<<1, 32>>>(a, 10); // launch 0
  fill<<<1, 32>>>(b, 20); // launch 1
  fill<<<1, 32>>>(a, 30); // launch 2
  cudaMemset(b, 0, 4);    // runs 0 and 1
  cudaMemcpy(&h, a + 1, 4, cudaMemcpyDeviceToHost); // runs 2
  printf("%d\n", h);
  fill<<<1, 32>>>(b, 50); // launch 3
  cudaFree(b);            // runs 3
  fill<<<1, 32>>>(c, 60); // launch 4: nobody reads c
  cudaMemset(a, 0, 4);    // runs none
  return 0;
}
)");
  Kernels = {kernelOf("_Z4fillPii", {8, 4})};
  RecordedRun Run = run(P, {"_Z4fillPii"});
  EXPECT_EQ(Run.Stopped, "") << Run.OutputTail;
  EXPECT_EQ(Run.OutputTail, "31\n");
  ASSERT_EQ(Run.Launches.size(), 5u);
  const bool Ran[] = {true, true, true, true, false};
  for (size_t I = 0; I < 5; ++I) {
    EXPECT_EQ(Run.Launches[I].Exec != nullptr, Ran[I]) << "launch " << I;
    // The model prices them, but a launch that runs is priced all the
    // same: its figures are the reference the model's are checked against.
    if (Run.Launches[I].Exec)
      EXPECT_TRUE(Run.Launches[I].Exec->Priced) << "launch " << I;
  }
  // Without the name, every launch runs as it is made, priced.
  Run = run(P);
  EXPECT_EQ(Run.OutputTail, "31\n");
  for (size_t I = 0; I < Run.Launches.size(); ++I) {
    ASSERT_NE(Run.Launches[I].Exec, nullptr) << "launch " << I;
    EXPECT_TRUE(Run.Launches[I].Exec->Priced) << "launch " << I;
    EXPECT_EQ(Run.Launches[I].Exec->Stats.size(), 1u) << "launch " << I;
  }
}

} // namespace

namespace {

// Module variables hold their initial values as the module's load leaves
// them (nvcc leaves the host's copy, which stands for device memory,
// zero): Q[t] + D[t] + D[3 - t] through the pointer initialised to D.
TEST_F(FunctionalRecord, ModuleVariablesStartWithTheirInitialBytes) {
  const std::string P = write(R"(
#include <cstdio>
__constant__ short Q[] = {32, 33, 51, 81};
__device__ int D[] = {7, 8, 9, 10};
__device__ int *Ptr = D;
__global__ void k(int *out) {
  out[threadIdx.x] = Q[threadIdx.x] + D[threadIdx.x] + Ptr[3 - threadIdx.x];
}
int main() {
  int *o, h[4];
  cudaMalloc(&o, 16);
  k<<<1, 4>>>(o);
  cudaMemcpy(h, o, 16, cudaMemcpyDeviceToHost);
  printf("%d %d %d %d\n", h[0], h[1], h[2], h[3]);
  return 0;
}
)");
  RecordedRun Run = run(P);
  EXPECT_EQ(Run.Stopped, "") << Run.OutputTail;
  EXPECT_EQ(Run.OutputTail, "49 50 68 98\n");
}

// A texture over a CUDA array, filled by cudaMemcpy3D, and a surface
// written by one kernel and read back through a texture by the next: a
// kernel that reads or writes through such an object runs as it is made
// (the arrays are among no launch's pointers), even when the model prices
// it without data.
TEST_F(FunctionalRecord, TexturesAndSurfacesReadWhatTheHostAndKernelsWrote) {
  const std::string P = write(R"(
#include <cstdio>
__global__ void doubleTexels(cudaSurfaceObject_t s, cudaTextureObject_t t) {
  int x = threadIdx.x, y = blockIdx.x;
  surf2Dwrite(2.0f * tex2D<float>(t, x + 0.5f, y + 0.5f), s, x * 4, y);
}
__global__ void gather(float *out, cudaTextureObject_t t) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * blockDim.x + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}
int main() {
  const int w = 8, h = 4;
  float in[w * h], back[w * h];
  for (int i = 0; i < w * h; ++i) in[i] = float(i);
  cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
  cudaArray_t src, dst;
  cudaMalloc3DArray(&src, &d, make_cudaExtent(w, h, 0));
  cudaMallocArray(&dst, &d, w, h, cudaArraySurfaceLoadStore);
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(in, w * 4, w, h);
  p.dstArray = src;
  p.extent = make_cudaExtent(w, h, 1);
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&p);
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  cudaTextureDesc td = {};
  cudaTextureObject_t ts, tdst;
  cudaSurfaceObject_t s;
  r.res.array.array = src;
  cudaCreateTextureObject(&ts, &r, &td, nullptr);
  r.res.array.array = dst;
  cudaCreateTextureObject(&tdst, &r, &td, nullptr);
  cudaCreateSurfaceObject(&s, &r);
  doubleTexels<<<h, w>>>(s, ts);
  float *out;
  cudaMalloc(&out, sizeof back);
  gather<<<h, w>>>(out, tdst);
  cudaMemcpy(back, out, sizeof back, cudaMemcpyDeviceToHost);
  for (int i = 0; i < w * h; ++i)
    if (back[i] != 2.0f * i) { printf("wrong at %d: %g\n", i, back[i]); return 1; }
  printf("ok\n");
  return 0;
}
)");
  Kernels = {kernelOf("_Z6gatherPfy", {8, 8})};
  RecordedRun Run = run(P, {"_Z6gatherPfy", "_Z12doubleTexelsyy"});
  EXPECT_EQ(Run.Stopped, "") << Run.OutputTail;
  EXPECT_EQ(Run.OutputTail, "ok\n");
  ASSERT_EQ(Run.Launches.size(), 2u);
  EXPECT_TRUE(Run.Forgets.empty());
}

} // namespace
