//===- host_launches_test.cpp - Launches computed from host code ----------===//
//
// Each test writes a small CUDA program, parses it with the analyzer's front
// end (stand-in CUDA headers) and checks the launches the host interpreter
// finds in main(). Expected values are worked out by hand from the program
// text, as the CUDA runtime would compute them.
//
//===----------------------------------------------------------------------===//
#include "frontend.h"
#include "host_launches.h"
#include "translate.h"
#include "clang/Frontend/ASTUnit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <chrono>
#include <fstream>
#include <set>

using namespace gmem;

namespace {

struct Result {
  std::unique_ptr<clang::ASTUnit> AST;
  HostLaunches H;
  std::string Path;
};

/// Parses Source (written to prog.cu in a fresh temporary directory) and
/// finds its launches.
Result analyze(const std::string &Source, const LaunchOverrides &O = {},
               const std::string &CudaPath = "none",
               const ArchRules *Arch = nullptr) {
  Result R;
  llvm::SmallString<128> Dir;
  if (llvm::sys::fs::createUniqueDirectory("gmem-host", Dir)) {
    ADD_FAILURE() << "cannot create a temporary directory";
    return R;
  }
  R.Path = (Dir + "/prog.cu").str();
  std::ofstream(R.Path) << Source;
  FrontendOptions FO;
  FO.CudaPath = CudaPath;
  auto AST = parseCudaFile(R.Path, FO);
  if (!AST) {
    ADD_FAILURE() << "parse failed: " << llvm::toString(AST.takeError());
    return R;
  }
  R.AST = std::move(*AST);
  R.H = findHostLaunches(R.AST->getASTContext(), {}, O, Arch);
  llvm::sys::fs::remove(R.Path);
  llvm::sys::fs::remove(Dir);
  return R;
}

/// 1-based line of the first line of Source containing Marker.
unsigned lineOf(const std::string &Source, const std::string &Marker) {
  size_t Pos = Source.find(Marker);
  EXPECT_NE(Pos, std::string::npos) << Marker;
  return 1 + std::count(Source.begin(), Source.begin() + Pos, '\n');
}

Dim3 d3(uint64_t X, uint64_t Y = 1, uint64_t Z = 1) { return Dim3{X, Y, Z}; }

std::string str(const Dim3 &D) {
  return "(" + std::to_string(D.X) + "," + std::to_string(D.Y) + "," +
         std::to_string(D.Z) + ")";
}

void expectInt(const ArgValue &A, int64_t V) {
  EXPECT_EQ(A.Kind, ArgValue::Int) << A.Reason;
  EXPECT_EQ(A.IntValue, V);
}

void expectFloat(const ArgValue &A, double V) {
  EXPECT_EQ(A.Kind, ArgValue::Float) << A.Reason;
  EXPECT_EQ(A.FloatValue, V);
}

void expectPointer(const ArgValue &A, const std::string &Alloc,
                   uint64_t Offset) {
  EXPECT_EQ(A.Kind, ArgValue::Pointer) << A.Reason;
  EXPECT_EQ(A.Allocation, Alloc);
  EXPECT_EQ(A.AlignOffset, Offset);
}

void expectUnknown(const ArgValue &A, const std::string &ReasonPart) {
  EXPECT_EQ(A.Kind, ArgValue::Unknown);
  EXPECT_NE(A.Reason.find(ReasonPart), std::string::npos)
      << "reason: " << A.Reason << "\nexpected to contain: " << ReasonPart;
}

bool contains(const std::vector<std::string> &V, const std::string &Part) {
  for (const std::string &S : V)
    if (S.find(Part) != std::string::npos)
      return true;
  return false;
}

std::string join(const std::vector<std::string> &V) {
  std::string Out;
  for (const std::string &S : V)
    Out += S + "\n";
  return Out;
}

const char *Kernels = R"(
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
__global__ void k1(float *p, int n) {}
__global__ void k2(float *out, const float *in, int nx, int ny) {}
__global__ void kf(float *p, float a, double b, unsigned u, long long w,
                   bool flag, char c) {}
)";

} // namespace

// The seeds' ground-truth program: every one of its 31 launches, checked
// against main() in examples/seeds_gt.cu by hand.
TEST(HostLaunches, SeedsGroundTruthProgram) {
  std::string Path = std::string(GMEM_SOURCE_DIR) + "/examples/seeds_gt.cu";
  if (!llvm::sys::fs::exists(Path))
    GTEST_SKIP() << Path << " not found";
  std::ifstream In(Path);
  std::string Source((std::istreambuf_iterator<char>(In)),
                     std::istreambuf_iterator<char>());
  // With the stand-in headers and, where installed, CUDA's own.
  std::vector<std::string> CudaPaths = {"none"};
  if (llvm::sys::fs::exists("/usr/local/cuda/include/cuda_runtime.h"))
    CudaPaths.push_back("/usr/local/cuda");
  for (const std::string &Cuda : CudaPaths) {
    SCOPED_TRACE("CUDA headers: " + Cuda);
    Result R = analyze(Source, {}, Cuda);
    const std::vector<Launch> &L = R.H.Launches;
    ASSERT_EQ(L.size(), 31u);
    EXPECT_TRUE(R.H.Warnings.empty()) << join(R.H.Warnings);
    struct Expect {
      const char *Kernel;
      Dim3 Grid, Block;
      uint64_t Smem;
    };
    // nrows = ncols = 1 << 12, block (32, 16): grid (4096/32, 4096/16);
    // grid2 = ((128 + 1) / 2, 256); 128 x 32 threads for seed 001; N = 1024
    // with 32 x 32 blocks; NL = 8192; one block of 32x32 or 32x16 with
    // (33) * 32 * 4 and the like bytes of dynamic shared memory; M = 1024.
    const Expect E[31] = {
        {"naiveGmem", d3(128, 256), d3(32, 16), 0},
        {"naiveGmemBook", d3(128, 256), d3(32, 16), 0},
        {"copyGmem", d3(128, 256), d3(32, 16), 0},
        {"copyRow", d3(128, 256), d3(32, 16), 0},
        {"transposeSmem", d3(128, 256), d3(32, 16), 0},
        {"transposeSmemPad", d3(128, 256), d3(32, 16), 0},
        {"transposeSmemUnrollPad", d3(64, 256), d3(32, 16), 0},
        {"global_add", d3(128), d3(32), 0},
        {"global_add_permuted", d3(128), d3(32), 0},
        {"global_add_offset", d3(128), d3(32), 0},
        {"global_add_stride", d3(128), d3(32), 0},
        {"global_add_broadcast", d3(128), d3(32), 0},
        {"transpose1", d3(32, 32), d3(32, 32), 0},
        {"transpose2", d3(32, 32), d3(32, 32), 0},
        {"transpose3", d3(32, 32), d3(32, 32), 0},
        {"gTranspose0", d3(256, 256), d3(32, 32), 0},
        {"gTranspose1", d3(256, 256), d3(32, 32), 0},
        {"gTranspose2", d3(256, 256), d3(32, 32), 0},
        {"setRowReadRow", d3(1), d3(32, 32), 0},
        {"setColReadCol", d3(1), d3(32, 32), 0},
        {"setRowReadCol", d3(1), d3(32, 32), 0},
        {"setRowReadColDyn", d3(1), d3(32, 32), 4096},
        {"setRowReadColIpad", d3(1), d3(32, 32), 0},
        {"setRowReadColDynIpad", d3(1), d3(32, 32), 4224},
        {"setRowReadColRect", d3(1), d3(32, 16), 0},
        {"setRowReadColRectDyn", d3(1), d3(32, 16), 2048},
        {"setRowReadColRectPad1", d3(1), d3(32, 16), 0},
        {"setRowReadColRectPad2", d3(1), d3(32, 16), 0},
        {"setRowReadColRectDynPad", d3(1), d3(32, 16), 2112},
        {"sgemm_naive", d3(32, 32), d3(32, 32), 0},
        {"sgemm_coalescing<32>", d3(32, 32), d3(1024), 0},
    };
    for (size_t I = 0; I < 31; ++I) {
      SCOPED_TRACE(E[I].Kernel);
      EXPECT_EQ(L[I].Kernel, E[I].Kernel);
      EXPECT_EQ(L[I].Grid, E[I].Grid) << str(L[I].Grid);
      EXPECT_EQ(L[I].Block, E[I].Block) << str(L[I].Block);
      EXPECT_EQ(L[I].DynamicSmem, E[I].Smem);
      EXPECT_TRUE(L[I].Unresolved.empty()) << join(L[I].Unresolved);
      EXPECT_EQ(
          L[I].Loc.Line,
          lineOf(Source, std::string(E[I].Kernel) == "sgemm_coalescing<32>"
                             ? "sgemm_coalescing<32><<<"
                             : std::string(E[I].Kernel) + "<<<"));
    }
    // Seed 000: naiveGmem(out, in, ncols, nrows), copyGmem(out, in, nrows,
    // ncols), both 4096; the pointers come from dalloc() and are named by
    // the variables that receive them.
    for (size_t I = 0; I < 7; ++I) {
      ASSERT_EQ(L[I].Args.size(), 4u);
      expectPointer(L[I].Args[0], "out", 0);
      expectPointer(L[I].Args[1], "in", 0);
      expectInt(L[I].Args[2], 4096);
      expectInt(L[I].Args[3], 4096);
    }
    for (size_t I = 7; I < 12; ++I) {
      ASSERT_EQ(L[I].Args.size(), 3u);
      expectPointer(L[I].Args[0], "x", 0);
      expectPointer(L[I].Args[1], "y", 0);
      expectPointer(L[I].Args[2], "z", 0);
    }
    for (size_t I = 12; I < 15; ++I) {
      expectPointer(L[I].Args[0], "A", 0);
      expectPointer(L[I].Args[1], "B", 0);
      expectInt(L[I].Args[2], 1024);
    }
    for (size_t I = 15; I < 18; ++I) {
      expectPointer(L[I].Args[0], "s", 0);
      expectPointer(L[I].Args[1], "st", 0);
      expectInt(L[I].Args[2], 8192);
    }
    for (size_t I = 18; I < 29; ++I) {
      ASSERT_EQ(L[I].Args.size(), 1u);
      expectPointer(L[I].Args[0], "o", 0);
    }
    for (size_t I = 29; I < 31; ++I) {
      ASSERT_EQ(L[I].Args.size(), 8u);
      expectInt(L[I].Args[0], 1024);
      expectInt(L[I].Args[1], 1024);
      expectInt(L[I].Args[2], 1024);
      expectFloat(L[I].Args[3], 1.0);
      expectPointer(L[I].Args[4], "gA", 0);
      expectPointer(L[I].Args[5], "gB", 0);
      expectFloat(L[I].Args[6], 0.0);
      expectPointer(L[I].Args[7], "gC", 0);
    }
  }
}

// Launches name kernels as the translator does ("sgemm_coalescing<32>"):
// findHostLaunches warns about any launch whose kernel it does not find.
TEST(HostLaunches, NamesMatchTheTranslatedKernels) {
  std::string Src = std::string(Kernels) + R"(
template <const unsigned int BLOCKSIZE>
__global__ void tiled(int M, float *C) { C[threadIdx.x % BLOCKSIZE] = M; }
namespace ns {
template <typename T, int N> __global__ void fill(T *p) { p[N] = 0; }
}
int main() {
  float *C;
  cudaMalloc(&C, 4096);
  tiled<32><<<1, 32>>>(1, C);
  ns::fill<float, 4><<<1, 32>>>(C);
  k1<<<1, 32>>>(C, 3);
  return 0;
}
)";
  Result R = analyze(Src);
  std::vector<Kernel> Translated = translateKernels(R.AST->getASTContext());
  HostLaunches H = findHostLaunches(R.AST->getASTContext(), Translated, {});
  ASSERT_EQ(H.Launches.size(), 3u);
  EXPECT_EQ(H.Launches[0].Kernel, "tiled<32>");
  EXPECT_EQ(H.Launches[1].Kernel, "ns::fill<float, 4>");
  EXPECT_TRUE(H.Warnings.empty()) << join(H.Warnings);
  // A kernel missing from the translation is named in a warning.
  HostLaunches Missing =
      findHostLaunches(R.AST->getASTContext(), {Translated.front()}, {});
  EXPECT_TRUE(contains(Missing.Warnings, "was not translated"))
      << join(Missing.Warnings);
}

// Seed 000's own main (transposeRectangle): the block comes from argv with a
// default, and the grid is derived from it.
const char *ArgvBlockProgram = R"(
__global__ void transposeNaiveRow(float *out, float *in, const int nx,
                                  const int ny) {}
int main(int argc, char **argv) {
  int nx = 1 << 11;
  int ny = 1 << 11;
  int blockx = 16;
  int blocky = 16;
  if (argc > 1) blockx = atoi(argv[1]);
  if (argc > 2) blocky = atoi(argv[2]);
  size_t nBytes = nx * ny * sizeof(float);
  dim3 block(blockx, blocky);
  dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
  float *d_A, *d_C;
  cudaMalloc((float **)&d_A, nBytes);
  cudaMalloc((float **)&d_C, nBytes);
  transposeNaiveRow<<<grid, block>>>(d_C, d_A, nx, ny);
  return 0;
}
)";

// Run with no arguments (argc == 1) the program takes its defaults: block
// 16 x 16, grid (2048 / 16)^2.
TEST(HostLaunches, NoArgumentsTakeTheDefaults) {
  Result R = analyze(std::string(Kernels) + ArgvBlockProgram);
  ASSERT_EQ(R.H.Launches.size(), 1u);
  const Launch &L = R.H.Launches[0];
  EXPECT_TRUE(L.Unresolved.empty()) << join(L.Unresolved);
  EXPECT_EQ(L.Block, d3(16, 16));
  EXPECT_EQ(L.Grid, d3(128, 128));
  expectPointer(L.Args[0], "d_C", 0);
  expectPointer(L.Args[1], "d_A", 0);
  expectInt(L.Args[2], 2048);
  expectInt(L.Args[3], 2048);
}

// The host's integer arithmetic is C++'s at the operands' width
// (model/int_semantics.h): INT_MIN / -1 is undefined at 32 bits, an int
// compared with an unsigned converts to unsigned, -7 / 2 truncates.
TEST(HostLaunches, IntegerOperatorsFollowCpp) {
  Result R = analyze(std::string(Kernels) + R"(
#include <climits>
int main() {
  float *p;
  cudaMalloc(&p, 4096);
  int m = INT_MIN, neg = -1;
  unsigned big = 4000000000u;
  k1<<<1, 32>>>(p, m / neg);
  k1<<<1, 32>>>(p, neg < big ? 1 : 2);
  k1<<<1, 32>>>(p, -7 / 2 + (m + m));
  return 0;
}
)");
  ASSERT_EQ(R.H.Launches.size(), 3u);
  const std::vector<Launch> &L = R.H.Launches;
  expectUnknown(L[0].Args[1], "division overflows");
  expectInt(L[1].Args[1], 2);  // -1 converts to 4294967295u.
  expectInt(L[2].Args[1], -3); // INT_MIN + INT_MIN wraps to 0, as GPUs do.
}

// --run-args "32 8" is "./prog 32 8": block 32 x 8, grid (64, 256).
TEST(HostLaunches, RunArgsAreTheCommandLine) {
  LaunchOverrides O;
  O.RunArgs = {"32", "8"};
  Result R = analyze(std::string(Kernels) + ArgvBlockProgram, O);
  ASSERT_EQ(R.H.Launches.size(), 1u);
  const Launch &L = R.H.Launches[0];
  EXPECT_TRUE(L.Unresolved.empty()) << join(L.Unresolved);
  EXPECT_EQ(L.Block, d3(32, 8));
  EXPECT_EQ(L.Grid, d3(64, 256));
  O.RunArgs = {"64"}; // argc == 2: blocky keeps its default.
  Result R2 = analyze(std::string(Kernels) + ArgvBlockProgram, O);
  ASSERT_EQ(R2.H.Launches.size(), 1u);
  EXPECT_EQ(R2.H.Launches[0].Block, d3(64, 16));
}

// Helpers that scan argv, in the manner of the CUDA samples' command-line
// parsers: with no arguments they return their defaults; with arguments
// they parse them with the C library (strncmp, atoi, strtol, sscanf,
// std::stoi, atof).
TEST(HostLaunches, ArgvScanningHelpers) {
  std::string Src = std::string(Kernels) + R"(
#include <string>
#include <cstring>
#include <cstdio>
static int findIntFlag(int argc, const char **argv, const char *flag, int def) {
  size_t len = strlen(flag);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    while (*a == '-') a++;
    if (strncmp(a, flag, len) == 0 && a[len] == '=')
      return atoi(a + len + 1);
  }
  return def;
}
int main(int argc, char **argv) {
  int n = findIntFlag(argc, (const char **)argv, "n", 1024);
  int threads = findIntFlag(argc, (const char **)argv, "threads", 128);
  long m = argc > 1 ? strtol(argv[argc - 1], nullptr, 16) : 7;
  int s = 3;
  if (argc > 2) sscanf(argv[2], "%d", &s);
  int t = argc > 3 ? std::stoi(argv[3]) : 5;
  float f = argc > 1 ? atof("2.5") : 1.0f;
  float *d;
  cudaMalloc(&d, n * 4);
  k1<<<n / threads, threads>>>(d, (int)m);
  k1<<<s, t>>>(d, (int)(f * 2));
  return 0;
}
)";
  Result R = analyze(Src);
  ASSERT_EQ(R.H.Launches.size(), 2u);
  EXPECT_EQ(R.H.Launches[0].Grid, d3(8));
  EXPECT_EQ(R.H.Launches[0].Block, d3(128));
  expectInt(R.H.Launches[0].Args[1], 7);
  EXPECT_EQ(R.H.Launches[1].Grid, d3(3));
  EXPECT_EQ(R.H.Launches[1].Block, d3(5));
  expectInt(R.H.Launches[1].Args[1], 2);
  LaunchOverrides O;
  // n = 4096, threads = 256; m = 0x20 from the last argument; s = 9; t = 64.
  O.RunArgs = {"--n=4096", "9", "64", "-threads=256", "20"};
  Result A = analyze(Src, O);
  ASSERT_EQ(A.H.Launches.size(), 2u);
  EXPECT_TRUE(A.H.Launches[0].Unresolved.empty())
      << join(A.H.Launches[0].Unresolved);
  EXPECT_EQ(A.H.Launches[0].Grid, d3(16));
  EXPECT_EQ(A.H.Launches[0].Block, d3(256));
  expectInt(A.H.Launches[0].Args[1], 32);
  EXPECT_EQ(A.H.Launches[1].Grid, d3(9));
  EXPECT_EQ(A.H.Launches[1].Block, d3(64));
  expectInt(A.H.Launches[1].Args[1], 5);
}

TEST(HostLaunches, BlockOverrideRecomputesTheGrid) {
  LaunchOverrides O;
  O.Block = d3(32, 16);
  Result R = analyze(std::string(Kernels) + ArgvBlockProgram, O);
  ASSERT_EQ(R.H.Launches.size(), 1u);
  const Launch &L = R.H.Launches[0];
  EXPECT_TRUE(L.Unresolved.empty()) << join(L.Unresolved);
  EXPECT_EQ(L.Block, d3(32, 16));
  // (2048 + 31) / 32 = 64, (2048 + 15) / 16 = 128.
  EXPECT_EQ(L.Grid, d3(64, 128)) << str(L.Grid);
}

TEST(HostLaunches, Dim3ArithmeticAndConstants) {
  std::string Src = std::string(Kernels) + R"(
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))
#define TILE 32
const int nrows = 1 << 12;
static const int ncols = nrows / 2;
enum { Width = 100 };
int main() {
  dim3 block(TILE, 8);
  dim3 grid((ncols + block.x - 1) / block.x, CEIL_DIV(nrows, block.y));
  k2<<<grid, block>>>(nullptr, nullptr, ncols, nrows);
  block.x = 64;
  grid.x = CEIL_DIV(1000, block.x);
  grid.y = nrows > 100 ? 3 : 4;
  k2<<<grid, block, sizeof(double) * TILE * (TILE + 1)>>>(0, 0, Width, -1);
  dim3 g2;
  g2 = dim3(std::min(7, 5), std::max(2u, 3u));
  unsigned u = 0;
  int n = 10;
  n *= 3; n -= 2; n <<= 1; n |= 1; n %= 50;
  kf<<<g2, dim3(32 * 32)>>>(0, 1.5f / 2, 1.0 / 3, u - 1, 1LL << 40, n > 5, 'A');
  return 0;
}
)";
  Result R = analyze(Src);
  ASSERT_EQ(R.H.Launches.size(), 3u);
  const Launch &A = R.H.Launches[0], &B = R.H.Launches[1], &C = R.H.Launches[2];
  EXPECT_EQ(A.Grid, d3(64, 512)) << str(A.Grid); // 2048/32, 4096/8.
  EXPECT_EQ(A.Block, d3(32, 8));
  EXPECT_EQ(A.DynamicSmem, 0u);
  expectPointer(A.Args[0], "nullptr", 0);
  expectInt(A.Args[2], 2048);
  expectInt(A.Args[3], 4096);
  EXPECT_EQ(B.Block, d3(64, 8));
  EXPECT_EQ(B.Grid, d3(16, 3)) << str(B.Grid); // ceil(1000/64) = 16.
  EXPECT_EQ(B.DynamicSmem, 8u * 32 * 33);
  expectInt(B.Args[2], 100);
  expectInt(B.Args[3], -1);
  EXPECT_EQ(C.Grid, d3(5, 3)) << str(C.Grid);
  EXPECT_EQ(C.Block, d3(1024));
  ASSERT_EQ(C.Args.size(), 7u);
  expectFloat(C.Args[1], 0.75);
  expectFloat(C.Args[2], 1.0 / 3);
  expectInt(C.Args[3], 4294967295); // unsigned wrap-around.
  expectInt(C.Args[4], int64_t(1) << 40);
  expectInt(C.Args[5], 1);  // ((10*3-2) << 1 | 1) % 50 = 57 % 50 = 7 > 5.
  expectInt(C.Args[6], 65); // 'A'.
  for (const Launch &L : R.H.Launches)
    EXPECT_TRUE(L.Unresolved.empty()) << join(L.Unresolved);
}

TEST(HostLaunches, LaunchesInHelperFunctionsWithPointerOffsets) {
  std::string Src = std::string(Kernels) + R"(
static void run(float *d, int n, dim3 block) {
  dim3 grid((n + block.x - 1) / block.x);
  k1<<<grid, block>>>(d, n);
}
float *alloc(size_t n) {
  float *p;
  cudaMalloc(&p, n * sizeof(float));
  return p;
}
int main() {
  float *d_a = alloc(4096);
  float *d_b = alloc(4096);
  run(d_a, 1000, dim3(128));
  run(d_a + 3, 2000, dim3(256));
  float *q = d_b + 8;
  q += 56;
  run(q, 64, 32);
  run(&d_b[1], 1, 32);
  run((float *)((char *)d_a + 3), 1, 32);
  run(d_b - 1, 1, 32);
  return 0;
}
)";
  Result R = analyze(Src);
  ASSERT_EQ(R.H.Launches.size(), 6u);
  const std::vector<Launch> &L = R.H.Launches;
  EXPECT_EQ(L[0].Grid, d3(8)); // ceil(1000 / 128).
  EXPECT_EQ(L[0].Block, d3(128));
  expectPointer(L[0].Args[0], "d_a", 0);
  expectInt(L[0].Args[1], 1000);
  EXPECT_EQ(L[1].Grid, d3(8)); // ceil(2000 / 256).
  expectPointer(L[1].Args[0], "d_a", 12);
  expectPointer(L[2].Args[0], "d_b", 0); // 64 floats = 256 bytes.
  EXPECT_EQ(L[2].Grid, d3(2));
  expectPointer(L[3].Args[0], "d_b", 4);
  expectPointer(L[4].Args[0], "d_a", 3);
  expectPointer(L[5].Args[0], "d_b", 252);
  // The launch is in run(): its location is there, once per call.
  unsigned Line = lineOf(Src, "k1<<<grid, block>>>");
  for (const Launch &X : L)
    EXPECT_EQ(X.Loc.Line, Line);

  LaunchOverrides O;
  O.Block = d3(64);
  Result R2 = analyze(Src, O);
  ASSERT_EQ(R2.H.Launches.size(), 6u);
  EXPECT_EQ(R2.H.Launches[0].Grid, d3(16)); // ceil(1000 / 64).
  EXPECT_EQ(R2.H.Launches[1].Grid, d3(32)); // ceil(2000 / 64).
  EXPECT_EQ(R2.H.Launches[2].Grid, d3(1));
  EXPECT_EQ(R2.H.Launches[1].Block, d3(64));
}

// Allocations are named by the variable that holds them; different
// variables of one spelling get distinct names, since equal names alias.
TEST(HostLaunches, AllocationsAreNamedByTheirVariables) {
  std::string Src = R"(
__global__ void k(float *a, float *b) {}
float *g_buf;
static float *alloc(int n) { float *p; cudaMalloc(&p, n * 4); return p; }
static void init() { cudaMalloc(&g_buf, 100); }
static void other() {
  float *d_a; cudaMalloc(&d_a, 8);
  k<<<1, 32>>>(d_a, g_buf + 1);
}
int main() {
  init();
  float *d_a; cudaMalloc(&d_a, 8);
  k<<<1, 32>>>(d_a, alloc(10));
  other();
  float *h = (float *)malloc(100);
  float arr[8];
  k<<<1, 32>>>(h, arr + 2);
  float *w = h;
  *w++ = 0.0f; // Moves w once.
  w[1] = 2.0f;
  k<<<1, 32>>>(w, h);
  return 0;
}
)";
  Result R = analyze(Src);
  const std::vector<Launch> &L = R.H.Launches;
  ASSERT_EQ(L.size(), 4u);
  expectPointer(L[3].Args[0], "h", 4);
  expectPointer(L[3].Args[1], "h", 0);
  expectPointer(L[0].Args[0], "d_a", 0);
  expectPointer(L[0].Args[1], "alloc(10)", 0);
  expectPointer(L[1].Args[0], "d_a#2", 0);
  expectPointer(L[1].Args[1], "g_buf", 4);
  expectPointer(L[2].Args[0], "h", 0);
  expectPointer(L[2].Args[1], "arr", 8);
}

TEST(HostLaunches, LaunchInALoopGivesOneLaunchPerIteration) {
  std::string Src = std::string(Kernels) + R"(
int main(int argc, char **argv) {
  float *d;
  cudaMalloc(&d, 1 << 20);
  const int n = 4096;
  for (int threads = 32; threads <= 256; threads *= 2)
    k1<<<n / threads, threads>>>(d, threads);
  int i = 0;
  while (true) {
    if (++i > 2) break;
    k1<<<i, 32>>>(d + i, i);
  }
  for (int bs : {64, 128})
    k1<<<1, bs>>>(d, bs);
  for (int r = 0; r < atoi(argv[1]); ++r)
    k1<<<7, 32>>>(d, r);
  return 0;
}
)";
  Result R = analyze(Src);
  const std::vector<Launch> &L = R.H.Launches;
  ASSERT_EQ(L.size(), 9u);
  uint64_t T = 32;
  for (size_t I = 0; I < 4; ++I, T *= 2) {
    EXPECT_EQ(L[I].Grid, d3(4096 / T));
    EXPECT_EQ(L[I].Block, d3(T));
    expectInt(L[I].Args[1], int64_t(T));
  }
  EXPECT_EQ(L[4].Grid, d3(1));
  expectPointer(L[4].Args[0], "d", 4);
  EXPECT_EQ(L[5].Grid, d3(2));
  expectPointer(L[5].Args[0], "d", 8);
  EXPECT_EQ(L[6].Block, d3(64));
  EXPECT_EQ(L[7].Block, d3(128));
  // A loop with an unknown trip count: its body once.
  EXPECT_EQ(L[8].Grid, d3(7));
  expectInt(L[8].Args[1], 0);
}

TEST(HostLaunches, LaunchCapStopsWithAWarning) {
  std::string Src = std::string(Kernels) + R"(
int main() {
  for (int i = 0; i < 20000; i++)
    k1<<<1, 32>>>(0, i);
  return 0;
}
)";
  Result R = analyze(Src);
  EXPECT_EQ(R.H.Launches.size(), 10000u);
  EXPECT_TRUE(contains(R.H.Warnings, "more than 10000 launches"))
      << join(R.H.Warnings);
  expectInt(R.H.Launches.back().Args[1], 9999);
}

TEST(HostLaunches, UnknownSourcesAreNamed) {
  std::string Src = std::string(Kernels) + R"(
int main(int argc, char **argv) {
  int n;
  scanf("%d", &n);
  int r = rand() % 64;
  float *d;
  cudaError_t e = cudaMalloc(&d, 100);
  int big = 0;
  for (long i = 0; i < 100000000; i++) big += 1;
  int small = 0;
  for (int i = 0; i < 10; i++) small += 3;
  k1<<<n, 32>>>(d, r);
  k1<<<2, 32>>>(d, (int)e);
  k1<<<2, 32, argc * 4>>>(d, big);
  k1<<<2, 32>>>(d, small);
  return 0;
}
)";
  // The long loop is skipped, not run: its launches below still come out.
  Result R = analyze(Src);
  ASSERT_EQ(R.H.Launches.size(), 4u);
  const std::vector<Launch> &L = R.H.Launches;
  std::string Scanf =
      "read by scanf() at prog.cu:" + std::to_string(lineOf(Src, "scanf("));
  EXPECT_TRUE(contains(L[0].Unresolved, "grid.x: " + Scanf + "; pass --grid"))
      << join(L[0].Unresolved);
  expectUnknown(L[0].Args[1], "returned by rand() at prog.cu:" +
                                  std::to_string(lineOf(Src, "rand()")));
  expectUnknown(L[1].Args[1], "returned by cudaMalloc()");
  EXPECT_TRUE(L[1].Unresolved.empty());
  EXPECT_EQ(L[2].DynamicSmem, 4u); // argc == 1: run with no arguments.
  EXPECT_TRUE(L[2].Unresolved.empty()) << join(L[2].Unresolved);
  expectUnknown(L[2].Args[1], "runs too long to follow");
  expectInt(L[3].Args[1], 30);
}

TEST(HostLaunches, TemplateKernels) {
  std::string Src = R"(
template <const unsigned int BLOCKSIZE>
__global__ void tiled(int M, float *C) {}
template <typename T>
__global__ void fill(T *p, T v) {}
int main() {
  float *C; cudaMalloc(&C, 4096);
  double *D; cudaMalloc(&D, 4096);
  tiled<32><<<dim3(4, 4), dim3(32 * 32)>>>(64, C);
  tiled<16><<<dim3(8, 8), 256>>>(64, C);
  fill<<<1, 32>>>(C, 2.5f);
  fill<<<1, 32>>>(D, 0.25);
  return 0;
}
)";
  Result R = analyze(Src);
  ASSERT_EQ(R.H.Launches.size(), 4u);
  const std::vector<Launch> &L = R.H.Launches;
  EXPECT_EQ(L[0].Kernel, "tiled<32>");
  EXPECT_EQ(L[0].Block, d3(1024));
  EXPECT_EQ(L[0].Grid, d3(4, 4));
  EXPECT_EQ(L[1].Kernel, "tiled<16>");
  EXPECT_EQ(L[1].Block, d3(256));
  EXPECT_EQ(L[2].Kernel, "fill<float>");
  expectFloat(L[2].Args[1], 2.5);
  EXPECT_EQ(L[3].Kernel, "fill<double>");
  expectPointer(L[3].Args[0], "D", 0);
  expectFloat(L[3].Args[1], 0.25);
}

TEST(HostLaunches, OverridesReplaceGridSmemAndArguments) {
  std::string Src = std::string(Kernels) + R"(
int main(int argc, char **argv) {
  int nx = atoi(argv[1]);
  float *d; cudaMalloc(&d, 100);
  k2<<<nx / 32, 32, nx * 4>>>(d, d + 1, nx, 7);
  kf<<<1, 32>>>(d, 1.0f, 2.0, 3, 4, true, 'x');
  return 0;
}
)";
  LaunchOverrides O;
  O.Grid = d3(10, 2);
  O.DynamicSmem = 512;
  O.Args["nx"] = "0x100";
  O.Args["a"] = "0.5";
  O.Args["u"] = "abc";
  O.Args["in"] = "8";
  Result R = analyze(Src, O);
  ASSERT_EQ(R.H.Launches.size(), 2u);
  const Launch &A = R.H.Launches[0], &B = R.H.Launches[1];
  EXPECT_TRUE(A.Unresolved.empty()) << join(A.Unresolved);
  EXPECT_EQ(A.Grid, d3(10, 2));
  EXPECT_EQ(A.DynamicSmem, 512u);
  expectInt(A.Args[2], 256);
  expectInt(A.Args[3], 7);
  expectPointer(A.Args[1], "d", 8);
  EXPECT_EQ(B.Grid, d3(10, 2));
  expectFloat(B.Args[1], 0.5);
  expectUnknown(B.Args[3], "--arg u=abc: u is an integer");

  // Without --arg or --run-args, nx is unknown and says why and where.
  Result R2 = analyze(Src);
  expectUnknown(
      R2.H.Launches[0].Args[2],
      "argv[1] at prog.cu:" + std::to_string(lineOf(Src, "atoi(argv[1])")) +
          " is null: the program is run with 0 arguments; give its "
          "arguments with --run-args");
  LaunchOverrides RA;
  RA.RunArgs = {"96"};
  Result R3 = analyze(Src, RA);
  expectInt(R3.H.Launches[0].Args[2], 96);
  EXPECT_EQ(R3.H.Launches[0].Grid, d3(3));
  EXPECT_EQ(R3.H.Launches[0].DynamicSmem, 384u);
}

TEST(HostLaunches, ArgOverrideParsing) {
  ArgValue A = parseArgOverride("n", "-12", ParamKind::Int, IntType{32, true});
  expectInt(A, -12);
  expectInt(parseArgOverride("n", "0xff", ParamKind::Int, IntType{8, false}),
            255);
  expectUnknown(parseArgOverride("n", "300", ParamKind::Int, IntType{8, false}),
                "does not fit");
  expectFloat(parseArgOverride("a", "1e-3", ParamKind::Float, {}), 1e-3);
  expectUnknown(parseArgOverride("a", "x", ParamKind::Float, {}),
                "floating-point");
  ArgValue P = parseArgOverride("p", "260", ParamKind::Pointer, {});
  expectPointer(P, "p", 4);
}

// The book's transpose.cu picks its kernel through a pointer set in a switch
// on a value from argv: every kernel it may launch is reported.
TEST(HostLaunches, KernelPointerChosenBySwitch) {
  std::string Body = R"(
__global__ void copyRow(float *out, float *in, const int nx, const int ny) {}
__global__ void copyCol(float *out, float *in, const int nx, const int ny) {}
__global__ void naiveRow(float *out, float *in, const int nx, const int ny) {}
int main(int argc, char **argv) {
  int iKernel = KERNEL;
  if (argc > 1 && KERNEL < 0) iKernel = atoi(argv[1]);
  int nx = 1 << 11, ny = 1 << 11;
  dim3 block(16, 16);
  dim3 grid((nx + block.x - 1) / block.x, (ny + block.y - 1) / block.y);
  float *d_A, *d_C;
  cudaMalloc((float **)&d_A, nx * ny * 4);
  cudaMalloc((float **)&d_C, nx * ny * 4);
  void (*kernel)(float *, float *, int, int);
  const char *kernelName;
  switch (iKernel) {
  case 0:
    kernel = &copyRow;
    kernelName = "CopyRow";
    break;
  case 1:
    kernel = &copyCol;
    kernelName = "CopyCol";
    break;
  case 2:
  default:
    kernel = naiveRow;
    kernelName = "NaiveRow";
    break;
  }
  kernel<<<grid, block>>>(d_C, d_A, nx, ny);
  return 0;
}
)";
  // Run with no arguments, iKernel stays -1: the default case.
  Result None = analyze(std::string(Kernels) + "#define KERNEL -1\n" + Body);
  ASSERT_EQ(None.H.Launches.size(), 1u);
  EXPECT_EQ(None.H.Launches[0].Kernel, "naiveRow");
  LaunchOverrides O;
  O.RunArgs = {"0"};
  Result Zero = analyze(std::string(Kernels) + "#define KERNEL -1\n" + Body, O);
  ASSERT_EQ(Zero.H.Launches.size(), 1u);
  EXPECT_EQ(Zero.H.Launches[0].Kernel, "copyRow");
  // A choice the program's input makes: every kernel is reported.
  std::string Unknown = Body;
  std::string Pick = "if (argc > 1 && KERNEL < 0) iKernel = atoi(argv[1]);";
  Unknown.replace(Unknown.find(Pick), Pick.size(),
                  "if (KERNEL < 0) iKernel = rand();");
  Result Any = analyze(std::string(Kernels) + "#define KERNEL -1\n" + Unknown);
  ASSERT_EQ(Any.H.Launches.size(), 3u);
  std::set<std::string> Names;
  for (const Launch &L : Any.H.Launches) {
    Names.insert(L.Kernel);
    EXPECT_EQ(L.Grid, d3(128, 128));
    expectInt(L.Args[2], 2048);
  }
  EXPECT_EQ(Names, (std::set<std::string>{"copyRow", "copyCol", "naiveRow"}));
  Result One = analyze(std::string(Kernels) + "#define KERNEL 1\n" + Body);
  ASSERT_EQ(One.H.Launches.size(), 1u);
  EXPECT_EQ(One.H.Launches[0].Kernel, "copyCol");
}

TEST(HostLaunches, ConditionsReturnsAndExits) {
  std::string Src = std::string(Kernels) + R"(
static int pick(int argc) {
  if (argc > 3)
    return 64;
  return 32;
}
static int twice(int v) { return 2 * v; }
static void check(cudaError_t e) {
  if (e != cudaSuccess) {
    printf("error\n");
    exit(1);
  }
}
int g_scale = 3;
void setScale(int s) { g_scale = s; }
void bump(int &v) { v += 5; }
int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s N\n", argv[0]);
    return 1;
  }
  float *d;
  check(cudaMalloc(&d, 100));
  int p = pick(argc);
  int t = twice(21);
  setScale(4);
  int v = 1;
  bump(v);
  k1<<<t, p>>>(d, g_scale * v);
  return 0;
}
)";
  // Run with no arguments, main() prints its usage and returns.
  EXPECT_TRUE(analyze(Src).H.Launches.empty());
  LaunchOverrides O;
  O.RunArgs = {"1", "2", "3"}; // argc == 4: pick() returns 64.
  Result R = analyze(Src, O);
  ASSERT_EQ(R.H.Launches.size(), 1u);
  const Launch &L = R.H.Launches[0];
  EXPECT_EQ(L.Grid, d3(42));
  EXPECT_EQ(L.Block, d3(64));
  EXPECT_TRUE(L.Unresolved.empty()) << join(L.Unresolved);
  expectInt(L.Args[1], 24);
}

// Constructs the interpreter does not follow must leave it standing, with
// reasons for what they make unknown.
TEST(HostLaunches, NeverCrashesOnUnusualHostCode) {
  std::string Src = std::string(Kernels) + R"(
#include <vector>
struct Config { int n; float *buf; int get() const { return n; } };
static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
static int forever(int n) { return forever(n + 1); }
int main(int argc, char **argv) {
  Config c{12, nullptr};
  std::vector<float> h(16);
  auto lam = [](int x) { return x + 1; };
  int i = 0;
again:
  if (++i < 3) goto again;
  int f = fact(5);
  int z = 0;
  int q = 10 / z;
  try { if (argc > 5) throw 1; } catch (...) {}
  int loop = 0;
  while (1) { if (rand() > 5) break; loop++; }
  do { loop--; } while (0);
  int deep = forever(1);
  int arr[4] = {1, 2, 3};
  arr[3] = arr[0] + arr[2];
  k1<<<c.n, lam(31)>>>(c.buf, c.get());
  k1<<<f, arr[3]>>>(h.data(), q);
  k1<<<i, 32>>>(c.buf + 1, loop + deep);
  return 0;
}
)";
  Result R = analyze(Src);
  ASSERT_EQ(R.H.Launches.size(), 3u);
  const std::vector<Launch> &L = R.H.Launches;
  EXPECT_TRUE(contains(L[0].Unresolved, "grid.x: the struct member `c.n`"))
      << join(L[0].Unresolved);
  EXPECT_TRUE(contains(L[0].Unresolved, "block.x:")) << join(L[0].Unresolved);
  EXPECT_EQ(L[0].Args[0].Kind, ArgValue::Pointer);
  EXPECT_EQ(L[0].Args[0].Allocation, "c.buf");
  EXPECT_EQ(L[1].Grid, d3(120));
  EXPECT_EQ(L[1].Block, d3(4));
  expectPointer(L[1].Args[0], "h.data()", 0);
  expectUnknown(L[1].Args[1], "division by zero at prog.cu:");
  // The goto is not followed: i stays 1 after the first ++i.
  EXPECT_TRUE(contains(R.H.Warnings, "goto is not followed"))
      << join(R.H.Warnings);
  EXPECT_TRUE(contains(R.H.Warnings, "calls nest deeper than"))
      << join(R.H.Warnings);
  EXPECT_EQ(L[2].Args[1].Kind, ArgValue::Unknown);
}

TEST(HostLaunches, LaunchThroughTheRuntimeApiIsAWarning) {
  for (const char *Mode : {"none", ""}) {
    Result R = analyze(std::string(Kernels) + R"(
int main() {
  float *a;
  int n = 1;
  void *args[] = {&a, &n};
  cudaLaunchKernel((const void *)k1, dim3(4), dim3(32), args, 0, 0);
  return 0;
}
)",
                       {}, Mode);
    EXPECT_TRUE(R.H.Launches.empty());
    EXPECT_TRUE(contains(R.H.Warnings, "cudaLaunchKernel() is not followed"))
        << Mode << ": " << join(R.H.Warnings);
  }
}

TEST(HostLaunches, NoMainNoLaunches) {
  Result R =
      analyze(std::string(Kernels) + "void host() { k1<<<1, 32>>>(0, 1); }\n");
  EXPECT_TRUE(R.H.Launches.empty());
  EXPECT_TRUE(contains(R.H.Warnings, "no main()")) << join(R.H.Warnings);
}

// Host code as nvcc reads it: min/max on integers and floats in host code
// (nvcc's headers make them __host__ __device__), a runtime call CUDA 13
// removed, <cooperative_groups.h> and CCCL's <cuda/std/...>; with the CUDA
// installation and with the stand-in headers.
TEST(HostLaunches, HostCodeAsNvccReadsIt) {
  std::string Src = R"(
#include <cooperative_groups.h>
#include <cuda/std/type_traits>
#include <cuda_profiler_api.h>
namespace cg = cooperative_groups;
__global__ void k(float *a, int n) {
  cg::thread_block b = cg::this_thread_block();
  b.sync();
  if (threadIdx.x < n) a[threadIdx.x] = 0;
}
int main() {
  int n = max(1000, 24);                 // 1000
  unsigned m = min(n, 4096u);            // 1000 (unsigned)
  float f = max(1.5f, 2.5f);             // 2.5
  long long l = min(-3ll, 5ll);          // -3
  float *a;
  cudaMalloc(&a, n * sizeof(float));
  k<<<(m + 255) / 256, (int)(f * 100)>>>(a, (int)l);
  cudaThreadSynchronize();
  cudaProfilerStop();
  return 0;
}
)";
  for (std::string Path : {"none", ""}) {
    if (Path.empty() &&
        !llvm::sys::fs::exists("/usr/local/cuda/include/cuda_runtime.h"))
      continue;
    Result R = analyze(Src, {}, Path);
    ASSERT_EQ(R.H.Launches.size(), 1u) << "cuda-path '" << Path << "'";
    EXPECT_EQ(R.H.Launches[0].Grid, d3(4));
    EXPECT_EQ(R.H.Launches[0].Block, d3(250));
    expectInt(R.H.Launches[0].Args[1], -3);
  }
}

// cudaGetDeviceProperties and cudaDeviceGetAttribute give what the compute
// capability fixes, from the architecture table (arch.h; the CUDA C++
// Programming Guide's technical specifications): on sm_90, 1024 threads per
// block, grids up to (2^31 - 1, 65535, 65535), blocks up to (1024, 1024,
// 64), 48 KiB of shared memory per block (227 KiB opted in), warps of 32;
// on sm_75, 64 KiB opted in. The number of SMs differs between boards of
// one architecture: unknown, and said so.
TEST(HostLaunches, DevicePropertiesAreTheTargetArchitectures) {
  std::string Src = std::string(Kernels) + R"(
static int widest(const cudaDeviceProp &p) { return p.maxGridSize[0]; }
int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  float *d;
  cudaMalloc(&d, 1 << 20);
  int threads = prop.maxThreadsPerBlock / 4;
  int rows = 100000;
  dim3 grid(2, min(rows, prop.maxGridSize[1]));
  k1<<<grid, threads, prop.sharedMemPerBlock / 4>>>(d, prop.major * 10 + prop.minor);
  k1<<<widest(prop), prop.maxThreadsDim[2]>>>(d, prop.warpSize);
  int gy = 0, optin = 0, sms = 0;
  cudaDeviceGetAttribute(&gy, cudaDevAttrMaxGridDimY, 0);
  cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  k1<<<gy, 32, optin>>>(d, 0);
  k1<<<prop.multiProcessorCount * 4, 32>>>(d, 0);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  k1<<<1, 32>>>(d, sms);
  return 0;
}
)";
  unsigned SmLine = lineOf(Src, "k1<<<prop.multiProcessorCount");
  unsigned AttrLine = lineOf(Src, "(&sms, cudaDevAttrMultiProcessorCount");
  for (std::string Path : {"none", ""}) {
    if (Path.empty() &&
        !llvm::sys::fs::exists("/usr/local/cuda/include/cuda_runtime.h"))
      continue;
    for (const char *ArchName : {"sm_90", "sm_75"}) {
      const ArchRules *A = findArch(ArchName);
      ASSERT_NE(A, nullptr);
      bool Hopper = A->Sm == 90;
      SCOPED_TRACE(Path + " " + ArchName);
      Result R = analyze(Src, {}, Path, A);
      const auto &L = R.H.Launches;
      ASSERT_EQ(L.size(), 5u) << join(R.H.Warnings);
      EXPECT_EQ(L[0].Grid, d3(2, 65535));
      EXPECT_EQ(L[0].Block, d3(256));
      EXPECT_EQ(L[0].DynamicSmem, 48u * 1024 / 4);
      expectInt(L[0].Args[1], Hopper ? 90 : 75);
      EXPECT_EQ(L[1].Grid, d3(2147483647));
      EXPECT_EQ(L[1].Block, d3(64));
      expectInt(L[1].Args[1], 32);
      EXPECT_EQ(L[2].Grid, d3(65535));
      EXPECT_EQ(L[2].DynamicSmem, (Hopper ? 227u : 64u) * 1024);
      EXPECT_EQ(join(L[3].Unresolved),
                "grid.x: `prop.multiProcessorCount` (prog.cu:" +
                    std::to_string(SmLine) +
                    ") depends on the GPU model, not only on " + ArchName +
                    " (--sm-count N gives it); pass --grid\n");
      expectUnknown(L[4].Args[1],
                    "(prog.cu:" + std::to_string(AttrLine) +
                        ") depends on the GPU model, not only on " + ArchName);
      // --sm-count gives the board's number of SMs to both queries.
      LaunchOverrides O;
      O.SmCount = 132;
      Result S = analyze(Src, O, Path, A);
      ASSERT_EQ(S.H.Launches.size(), 5u) << join(S.H.Warnings);
      EXPECT_EQ(S.H.Launches[3].Grid, d3(528));
      expectInt(S.H.Launches[4].Args[1], 132);
    }
  }
}

// A local table of structs filled by its initializer and only read (as
// helper_cuda.h's _ConvertSMVer2Cores searches its cores-per-SM table) is
// read from the initializer; a table the function writes is not.
TEST(HostLaunches, ReadOnlyStructTablesAreRead) {
  std::string Src = std::string(Kernels) + R"(
struct Entry { int Key, Value; };
static int lookup(int key) {
  Entry table[] = {{0x80, 64}, {0x86, 128}, {0x90, 128}, {-1, -1}};
  int i = 0;
  while (table[i].Key != -1) {
    if (table[i].Key == key)
      return table[i].Value;
    i++;
  }
  return table[i - 1].Value;
}
static int written(int key) {
  Entry table[] = {{1, 2}};
  table[0].Value = key;
  return table[0].Value;
}
int main() {
  float *d;
  cudaMalloc(&d, 1 << 20);
  k1<<<lookup(0x86), 32>>>(d, lookup(0x75));
  k1<<<1, 32>>>(d, written(7));
  return 0;
}
)";
  Result R = analyze(Src);
  ASSERT_EQ(R.H.Launches.size(), 2u) << join(R.H.Warnings);
  EXPECT_EQ(R.H.Launches[0].Grid, d3(128));
  expectInt(R.H.Launches[0].Args[1], 128); // Not found: the last entry.
  EXPECT_EQ(R.H.Launches[1].Args[1].Kind, ArgValue::Unknown);
}
