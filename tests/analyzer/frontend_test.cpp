//===- frontend_test.cpp - Parsing .cu files as nvcc users write them -----===//
#include "test_util.h"

#include "build_flags.h"
#include "launch_chevrons.h"

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/Support/FileSystem.h"
#include <fstream>
#include <gtest/gtest.h>

namespace gmem::test {
namespace {

/// Writes Code to a temporary file and parses it; the file is removed after.
struct ParseResult {
  llvm::Expected<std::unique_ptr<clang::ASTUnit>> AST;
  std::string Path;
  std::string Stderr;
};

ParseResult parseCode(const std::string &Code, const FrontendOptions &O) {
  llvm::SmallString<128> Dir;
  llvm::sys::fs::createUniqueDirectory("gmem-frontend-test", Dir);
  std::string Path = (Dir + "/prog.cu").str();
  std::ofstream(Path) << Code;
  ::testing::internal::CaptureStderr();
  auto AST = parseCudaFile(Path, O);
  std::string Err = ::testing::internal::GetCapturedStderr();
  llvm::sys::fs::remove_directories(Dir);
  return {std::move(AST), Path, Err};
}

bool hasFunction(clang::ASTUnit &AST, const std::string &Name) {
  for (const clang::Decl *D :
       AST.getASTContext().getTranslationUnitDecl()->decls())
    if (const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D))
      if (FD->getNameAsString() == Name && FD->hasBody())
        return true;
  return false;
}

class Frontend : public BothHeaders {
protected:
  FrontendOptions opts() const { return optionsFor(GetParam()); }
};

// The seeds' program: host code with main, printf, <cstdio>, macros, a
// template kernel launched as sgemm_coalescing<32>.
TEST_P(Frontend, ParsesTheSeedsProgramQuietly) {
  std::string Path = std::string(GMEM_SOURCE_DIR) + "/examples/seeds_gt.cu";
  ::testing::internal::CaptureStderr();
  auto AST = parseCudaFile(Path, opts());
  std::string Err = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(static_cast<bool>(AST)) << llvm::toString(AST.takeError());
  EXPECT_EQ(Err, "");
  EXPECT_TRUE(hasFunction(**AST, "main"));
  EXPECT_TRUE(hasFunction(**AST, "naiveGmem"));
  EXPECT_TRUE(hasFunction(**AST, "dalloc"));
}

// nvcc needs no #include at all for the runtime API, dim3 or printf.
TEST_P(Frontend, FileWithoutIncludes) {
  ParseResult R = parseCode(R"(
__global__ void k(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 2 * a[i];
  if (i == 0) printf("n = %d\n", n);
}
int main() {
  float *d;
  cudaMalloc(&d, 100 * sizeof(float));
  cudaMemset(d, 0, 100 * sizeof(float));
  dim3 block(32), grid((100 + block.x - 1) / block.x);
  k<<<grid, block>>>(d, 100);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) printf("%s\n", cudaGetErrorString(e));
  cudaDeviceSynchronize();
  cudaFree(d);
  return 0;
}
)",
                            opts());
  ASSERT_TRUE(static_cast<bool>(R.AST))
      << llvm::toString(R.AST.takeError()) << R.Stderr;
  EXPECT_EQ(R.Stderr, "");
}

// Host code as people write it: C++ headers, templates, events, vector types.
TEST_P(Frontend, HostCodeWithLibraryHeaders) {
  ParseResult R = parseCode(R"(
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cmath>
#include <cuda_runtime.h>
#include <cuda.h>
#include <device_launch_parameters.h>
#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  fprintf(stderr, "%s\n", cudaGetErrorString(e)); exit(1); } } while (0)
template <typename T, int N> __global__ void fill(T *p, T v) {
  p[blockIdx.x * N + threadIdx.x] = v + (T)sqrtf((float)threadIdx.x);
}
__global__ void vec(float4 *a, const float2 *b, double2 *c, int2 *d) {
  int i = threadIdx.x;
  a[i] = make_float4(b[i].x, b[i].y, 0.f, 1.f);
  c[i].x = fmax(1.0, 2.0);
  atomicAdd(&d[0].x, 1);
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 10;
  std::vector<float> h(n);
  std::fill(h.begin(), h.end(), 1.0f);
  float *d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  CHECK(cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaEvent_t a, b;
  cudaEventCreate(&a); cudaEventCreate(&b);
  cudaEventRecord(a);
  fill<float, 32><<<n / 32, 32>>>(d, 2.0f);
  cudaEventRecord(b); cudaEventSynchronize(b);
  float ms = 0; cudaEventElapsedTime(&ms, a, b);
  cudaDeviceProp prop; cudaGetDeviceProperties(&prop, 0);
  printf("%s %.3f ms %d\n", prop.name, ms, prop.multiProcessorCount);
  CHECK(cudaFree(d));
  return 0;
}
)",
                            opts());
  ASSERT_TRUE(static_cast<bool>(R.AST))
      << llvm::toString(R.AST.takeError()) << R.Stderr;
  EXPECT_EQ(R.Stderr, "");
}

// The stand-ins must give the vector types nvcc's sizes and alignments, or
// struct member offsets and access sizes would differ between the modes.
TEST_P(Frontend, VectorTypesHaveNvccLayout) {
  ParseResult R = parseCode(R"(
#include <cuda_runtime.h>
static_assert(sizeof(float2) == 8 && alignof(float2) == 8, "");
static_assert(sizeof(float3) == 12 && alignof(float3) == 4, "");
static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "");
static_assert(sizeof(double2) == 16 && alignof(double2) == 16, "");
static_assert(sizeof(int2) == 8 && alignof(int2) == 8, "");
static_assert(sizeof(int4) == 16 && alignof(int4) == 16, "");
static_assert(sizeof(char4) == 4 && alignof(char4) == 4, "");
static_assert(sizeof(short2) == 4 && alignof(short2) == 4, "");
static_assert(sizeof(uchar2) == 2 && alignof(uchar2) == 2, "");
static_assert(sizeof(longlong2) == 16 && alignof(longlong2) == 16, "");
static_assert(sizeof(dim3) == 12, "");
__global__ void k(float4 *p) { p[threadIdx.x] = make_float4(0, 0, 0, 0); }
)",
                            opts());
  ASSERT_TRUE(static_cast<bool>(R.AST))
      << llvm::toString(R.AST.takeError()) << R.Stderr;
}

// Errors: Clang's own diagnostics on stderr, then a one-line summary.
TEST_P(Frontend, ErrorsAreCountedAndShown) {
  ParseResult R = parseCode("__global__ void k(float *a) {\n"
                            "  a[threadIdx.x] = undeclared_thing;\n"
                            "  int x = ;\n"
                            "}\n",
                            opts());
  ASSERT_FALSE(static_cast<bool>(R.AST));
  std::string Msg = llvm::toString(R.AST.takeError());
  // The first error's line, the count and what to do.
  EXPECT_EQ(Msg, R.Path + ":2: 2 error(s) above; fix them or pass the flags "
                          "the file needs after --");
  EXPECT_NE(R.Stderr.find(R.Path + ":2:20: error: use of undeclared "
                                   "identifier 'undeclared_thing'"),
            std::string::npos)
      << R.Stderr;
  EXPECT_NE(R.Stderr.find(R.Path + ":3:11: error: expected expression"),
            std::string::npos)
      << R.Stderr;
}

TEST_P(Frontend, MissingFile) {
  auto AST = parseCudaFile("/nonexistent/dir/prog.cu", opts());
  ASSERT_FALSE(static_cast<bool>(AST));
  std::string Msg = llvm::toString(AST.takeError());
  EXPECT_EQ(Msg.rfind("/nonexistent/dir/prog.cu: cannot read", 0), 0u) << Msg;
}

// What a file needs beyond CUDA (macros, include paths) comes after '--'.
TEST_P(Frontend, ExtraArgumentsReachClang) {
  const char *Code = "__global__ void k(float *a) { a[TILE] = 0; }\n";
  FrontendOptions O = opts();
  ParseResult Without = parseCode(Code, O);
  EXPECT_FALSE(static_cast<bool>(Without.AST));
  llvm::consumeError(Without.AST.takeError());
  O.ExtraArgs = {"-DTILE=7"};
  ParseResult With = parseCode(Code, O);
  ASSERT_TRUE(static_cast<bool>(With.AST))
      << llvm::toString(With.AST.takeError());
}

// Warnings are off: only errors would be worth the user's attention.
TEST_P(Frontend, WarningsAreNotPrinted) {
  ParseResult R = parseCode(R"(
__global__ void k(float *a) {
  int unused;
  unsigned u = -1;
  if (u = 3) a[0] = 1.0;
}
)",
                            opts());
  ASSERT_TRUE(static_cast<bool>(R.AST)) << llvm::toString(R.AST.takeError());
  EXPECT_EQ(R.Stderr, "");
}

// nvcc (with GCC as its host compiler) warns about `register` in C++17 and
// builds the code; Clang 19 makes it an error (SHOC's S3D and MaxFlops
// kernels declare their registers so).
TEST_P(Frontend, RegisterStorageClassIsAcceptedAsNvccAcceptsIt) {
  ParseResult R = parseCode(R"(
__global__ void k(float *a) {
  register float x = a[threadIdx.x];
  a[threadIdx.x] = x * x;
}
)",
                            opts());
  ASSERT_TRUE(static_cast<bool>(R.AST)) << llvm::toString(R.AST.takeError());
  EXPECT_TRUE(hasFunction(**R.AST, "k"));
  EXPECT_EQ(R.Stderr, "");
}

// A program split over files: quoted includes resolve beside the file,
// also when the path is relative, and device functions from a user header
// are inlined with their own locations.
TEST_P(Frontend, UserHeadersBesideTheFile) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("gmem-frontend-test", Dir));
  std::ofstream((Dir + "/helper.cuh").str())
      << "#pragma once\n"
         "__device__ inline int idx2(int r, int c, int w) { return r * w + c; "
         "}\n"
         "__device__ inline void put(float *p, int i) { p[i] = 0; }\n";
  std::ofstream((Dir + "/prog.cu").str())
      << "#include \"helper.cuh\"\n"
         "__global__ void k(float *p, int w) {\n"
         "  put(p, idx2(threadIdx.y, threadIdx.x, w));\n"
         "}\n";
  llvm::SmallString<128> Old;
  llvm::sys::fs::current_path(Old);
  llvm::sys::fs::set_current_path(Dir);
  Translated T = translateFile("prog.cu", GetParam());
  llvm::sys::fs::set_current_path(Old);
  llvm::sys::fs::remove_directories(Dir);
  const Kernel &K = T.kernel("k");
  ASSERT_EQ(K.Accesses.size(), 1u);
  EXPECT_EQ(K.Accesses[0].Loc.File, "./helper.cuh");
  EXPECT_EQ(K.Accesses[0].Loc.Line, 3u);
  EXPECT_EQ(K.Loc.File, "prog.cu");
  EXPECT_EQ(K.Loc.Line, 2u);
}

// Chevrons a formatter spaced are joined where they open and close a
// launch, every other character left on its column; `operator<< <T>`, a
// template's `>> >`, comments and literals are left alone.
// Relocatable device code, as nvcc's options ask for it (nvcc --help:
// --relocatable-device-code=true|false, -rdc; --device-c, -dc, which
// implies it): then nvlink lays out the shared arrays (Program's
// LinkerPlacesShared).
TEST(BuildFlags, RelocatableDeviceCodeAsNvccReadsIt) {
  using V = std::vector<std::string>;
  EXPECT_TRUE(gmem::relocatableDeviceCode(V{"-O3", "-rdc=true"}));
  EXPECT_TRUE(gmem::relocatableDeviceCode(V{"-rdc", "true", "-lineinfo"}));
  EXPECT_TRUE(gmem::relocatableDeviceCode(V{"--relocatable-device-code=true"}));
  EXPECT_TRUE(gmem::relocatableDeviceCode(V{"-dc"}));
  EXPECT_TRUE(gmem::relocatableDeviceCode(V{"--device-c"}));
  EXPECT_FALSE(gmem::relocatableDeviceCode(V{"-rdc=false"}));
  EXPECT_FALSE(gmem::relocatableDeviceCode(V{"-rdc", "false"}));
  EXPECT_FALSE(gmem::relocatableDeviceCode(V{"-rdc"}));
  EXPECT_FALSE(gmem::relocatableDeviceCode(V{"-O3", "-lineinfo"}));
  EXPECT_FALSE(gmem::relocatableDeviceCode(V{}));
}

TEST(LaunchChevrons, SplitLaunchChevronsAreJoinedInPlace) {
  EXPECT_EQ(joinSplitChevrons("k << < g, b >> > (x);"),
            "k <<<  g, b >>>  (x);");
  EXPECT_EQ(joinSplitChevrons("k< <\t<g, f(a >> 1, b[2])> > >(x);"),
            "k<<<  g, f(a >> 1, b[2])>>>  (x);");
  // Only the split side changes; nothing split, nothing returned.
  EXPECT_EQ(joinSplitChevrons("k<<<g, b>> >(x);"), "k<<<g, b>>> (x);");
  EXPECT_EQ(joinSplitChevrons("k<<<g, b>>>(x);"), "");
  EXPECT_EQ(
      joinSplitChevrons("friend std::ostream &operator<< <>(std::ostream &, "
                        "const V<T> &);\nstd::vector<std::vector<V<int>> > v;"),
      "");
  EXPECT_EQ(joinSplitChevrons("// k << < g, b >> > (x);\n"
                              "const char *s = \"<< < >> >\";\n"
                              "/* << < */ int i = 1'000 >> 2;"),
            "");
  // A split opening with no closing before the statement ends stays.
  EXPECT_EQ(joinSplitChevrons("a << < b; c >> > d;"), "");
}

// A launch spaced so parses, and its kernel call is where nvcc reads it.
TEST(LaunchChevrons, ASpacedLaunchParses) {
  ParseResult R =
      parseCode("__global__ void k(int *p) { p[threadIdx.x] = 1; }\n"
                "void run(int *p) { k << < 1, 32 >> > (p); }\n",
                optionsFor(Headers::Stub));
  ASSERT_TRUE(static_cast<bool>(R.AST))
      << llvm::toString(R.AST.takeError()) << R.Stderr;
  EXPECT_TRUE(hasFunction(**R.AST, "run"));
}

GMEM_BOTH_HEADERS(Frontend);

} // namespace
} // namespace gmem::test
