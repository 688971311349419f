//===- build_edges_test.cpp - What nvcc builds, gmem records --------------===//
//
// Programs at the edges of a build that nvcc accepts: runtime calls CUDA 13
// removed, nvcc's own flags, C files, OpenMP, cuBLAS without -l flags,
// internal-linkage kernels, buffers freed and allocated again, runs that
// stop after a failed check or whose launches the runtime refuses. Each is
// given as a user would give it (files, the Makefile's flags after --, no
// more), and each must be recorded with every launch it made. Needs nvcc and
// gmem's recording runtime; skipped where the build has none.
//
//===----------------------------------------------------------------------===//
#include "analysis.h"
#include "device_name.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <vector>

using namespace gmem::test;
using nlohmann::json;

namespace {

/// Runs gmem-analyze on Args with a fresh cache, as JSON; skips the test
/// where recording cannot be set up.
json analyzed(const std::string &Name, const std::string &Args,
              int ExpectedExit = 0, ToolRun *Out = nullptr,
              const std::string &BuildFlags = "") {
  const std::string Cache = ::testing::TempDir() + "/gmem-cache-edges-" + Name;
  std::filesystem::remove_all(Cache);
  ToolRun R = runTool(Args + " --format json --cache-dir " + Cache +
                      (BuildFlags.empty() ? "" : " -- " + BuildFlags));
  if (Out)
    *Out = R;
  json J = json::parse(R.Out, nullptr, false);
  if (J.is_discarded()) {
    ADD_FAILURE() << "exit " << R.Exit << ": " << R.Out << R.Err;
    return json::object();
  }
  EXPECT_EQ(R.Exit, ExpectedExit) << R.Err;
  return J;
}

bool canRecord(const json &J) {
  const std::string Why = J["compiler"].value("launches_why", "");
  return Why.find("no recording runtime") == std::string::npos &&
         Why.find("recording needs nvcc") == std::string::npos;
}

std::string notes(const json &J) {
  return J["compiler"].value("build_notes", json::array()).dump();
}

TEST(DeviceName, ClangAndNvccNamesOfInternalKernelsShareAKey) {
  // As Clang 19 and nvcc 13 mangle `static __global__ void k(float *)` and
  // `namespace { __global__ void k2(float *, int); }` of st.cu.
  EXPECT_EQ(gmem::deviceNameKey("_ZL1kPf"), gmem::deviceNameKey("_Z1kPf"));
  EXPECT_EQ(
      gmem::deviceNameKey("_ZN12_GLOBAL__N_12k2EPfi"),
      gmem::deviceNameKey("_ZN33_GLOBAL__N__43f9a74a_5_st_cu_main2k2EPfi"));
  // Other kernels keep their own keys.
  EXPECT_NE(gmem::deviceNameKey("_Z1kPf"), gmem::deviceNameKey("_Z1kPi"));
  EXPECT_NE(gmem::deviceNameKey("_ZN12_GLOBAL__N_12k2EPfi"),
            gmem::deviceNameKey("_ZN12_GLOBAL__N_12k3EPfi"));
  EXPECT_EQ(gmem::deviceNameKey("_Z1kILi32EEvPf"), "_Z1kILi32EEvPf");
  // A static kernel under -rdc=true, as nvcc 13 named cuda-samples'
  // jacobiCudaGraphs' finalError (gmem-verify on the H200), is the kernel.
  EXPECT_EQ(
      gmem::deviceNameKey("__nv_static_30__00cde091_9_jacobi_cu_3dc991e0__Z10"
                          "finalErrorPdS_"),
      gmem::deviceNameKey("_ZL10finalErrorPdS_"));
  EXPECT_EQ(gmem::deviceNameKey("__nv_static_x"), "__nv_static_x");
}

TEST(BuildEdges, StaticAndAnonymousNamespaceKernelsAreSimulated) {
  std::string Src = writeTemp("internal.cu", R"(
static __global__ void scale(float *a) { a[threadIdx.x] *= 2; }
namespace {
__global__ void stride(float *a, int s) { a[threadIdx.x * s] = 0; }
}
int main() {
  float *a;
  cudaMalloc(&a, 32 * 4 * sizeof(float));
  scale<<<1, 32>>>(a);
  stride<<<1, 32>>>(a, 4);
  return 0;
}
)");
  json J = analyzed("internal", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["launches"], "recorded");
  ASSERT_EQ(J["launches"].size(), 2u) << J["warnings"].dump();
  EXPECT_EQ(J["launches"][0]["kernel"], "scale");
  EXPECT_EQ(J["launches"][1]["kernel"], "stride");
  // 32 lanes 16 bytes apart: 16 sectors for one store request.
  EXPECT_EQ(J["launches"][1]["metrics"]["gst_transactions_per_request"], 16.0)
      << J["launches"][1]["metrics"].dump();
  EXPECT_EQ(J["warnings"].dump().find("not in the analysed source"),
            std::string::npos);
}

TEST(BuildEdges, RemovedRuntimeCallsBuildThroughTheCompatibilityHeader) {
  std::string Src = writeTemp("removed.cu", R"(
__global__ void fill(int *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 1; }
int main() {
  int *a;
  cudaMalloc(&a, 1024 * sizeof(int));
  fill<<<4, 256>>>(a);
  cudaThreadSynchronize();
  fill<<<8, 128>>>(a);
  cudaThreadExit();
  return 0;
}
)");
  json J = analyzed("removed", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["launches"], "recorded")
      << J["compiler"].value("launches_why", "");
  ASSERT_EQ(J["launches"].size(), 2u);
  EXPECT_EQ(J["launches"][1]["grid"], json({8, 1, 1}));
  EXPECT_NE(notes(J).find("cudaThreadSynchronize (removed in CUDA 13)"),
            std::string::npos)
      << notes(J);
  EXPECT_NE(notes(J).find("cudaThreadExit"), std::string::npos);
  // Rodinia's build scripts for CUDA 13 map the name themselves; the
  // header then leaves it alone (it declared cudaDeviceSynchronize a
  // second time, and Clang stopped with exit 2).
  json D = analyzed("removed_mapped", Src, 0, nullptr,
                    "-DcudaThreadSynchronize=cudaDeviceSynchronize");
  ASSERT_EQ(D["launches"].size(), 2u) << D.dump();
  EXPECT_EQ(D["launches"][1]["grid"], json({8, 1, 1}));
}

// What Learn CUDA Programming's programs (docs/PUBLIC_PROGRAMS.md) need:
// CUDA 12's cudaMemPrefetchAsync and cudaMemAdvise with a device number
// (CUDA 13 takes a cudaMemLocation; nvcc rejects the old forms), a launch
// whose chevrons a formatter spaced (`<< <`, `>> >`: Clang rejected the
// host function), and two calls an H200 refuses while the program goes on:
// a cudaMemcpy into a CUDA array's handle (the recording copied the image
// over its own record and crashed) and the device runtime's sync depth.
TEST(BuildEdges, OldFormsSpacedChevronsAndCallsTheGpuRefuses) {
  std::string Src = writeTemp("old_forms.cu", R"(#include <cstdio>
__global__ void add(int n, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += 2 * x[i];
}
void run(int n, const float *x, float *y) {
  add << < n / 256, 256 >> > (n, x, y);
}
int main() {
  const int n = 1 << 16;
  float *x, *y;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&y, n * sizeof(float));
  for (int i = 0; i < n; ++i) x[i] = 1, y[i] = 2;
  cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseSetReadMostly, 0);
  cudaMemPrefetchAsync(x, n * sizeof(float), 0);
  cudaMemPrefetchAsync(y, n * sizeof(float), 0, 0);
  run(n, x, y);
  cudaDeviceSynchronize();
  cudaMemPrefetchAsync(y, n * sizeof(float), cudaCpuDeviceId);
  if (y[n - 1] != 4) return 3;
  cudaChannelFormatDesc f = cudaCreateChannelDesc<unsigned char>();
  cudaArray_t a;
  static unsigned char image[256 * 256];
  cudaMallocArray(&a, &f, 256, 256);
  if (cudaMemcpy(a, image, sizeof image, cudaMemcpyHostToDevice) == cudaSuccess)
    return 4;
  if (cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 4) !=
      cudaErrorUnsupportedLimit)
    return 5;
  cudaGetLastError();
  add<<<n / 128, 128>>>(n, x, y);
  cudaDeviceSynchronize();
  printf("%g\n", y[0]);
  return 0;
}
)");
  json J = analyzed("old_forms", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["launches"], "recorded")
      << J["compiler"].value("launches_why", "");
  EXPECT_NE(notes(J).find("cudaMemPrefetchAsync with a device number"),
            std::string::npos)
      << notes(J);
  EXPECT_NE(notes(J).find("cudaMemAdvise with a device number"),
            std::string::npos);
  // Both launches, the run to its end: the checks saw what a GPU gives.
  ASSERT_EQ(J["launches"].size(), 2u) << J["warnings"].dump();
  EXPECT_EQ(J["launches"][0]["grid"], json({256, 1, 1}));
  EXPECT_EQ(J["launches"][1]["grid"], json({512, 1, 1}));
  // The spaced launch is read where its chevrons open, as every launch
  // is, and no host code is rejected.
  EXPECT_EQ(J["launches"][0]["loc"],
            json({{"file", Src}, {"line", 7}, {"col", 7}}));
  EXPECT_EQ(J["launches"][1]["loc"].value("col", 0), 6);
  EXPECT_EQ(J["warnings"].dump().find("Clang rejects"), std::string::npos)
      << J["warnings"].dump();
}

// cudaMemcpy checks the side its kind calls the device's: a copy written
// in the wrong direction fails (CUDA Programming's check1api exits there on
// a GPU), as do a pageable buffer given as a device-to-device source and a
// host-to-device copy into host memory; a __device__ variable and host
// memory cudaHostRegister pinned are the device's. The program printed
// these lines on an H200 (session 47).
TEST(BuildEdges, CopiesInTheWrongDirectionFailAsOnTheGpu) {
  std::string Src = writeTemp("copies.cu", R"(#include <cstdio>
__device__ float table[4];
int main() {
  float h[4] = {1, 2, 3, 4}, back[4] = {};
  float *d;
  cudaMalloc(&d, sizeof h);
  printf("wrong direction: %d\n", (int)cudaMemcpy(d, h, sizeof h, cudaMemcpyDeviceToHost));
  cudaGetLastError();
  float *t;
  cudaGetSymbolAddress((void **)&t, table);
  printf("symbol HtoD: %d\n", (int)cudaMemcpy(t, h, sizeof h, cudaMemcpyHostToDevice));
  static float pinned[1024];
  pinned[0] = 7;
  printf("register: %d\n", (int)cudaHostRegister(pinned, sizeof pinned, 0));
  printf("registered DtoH: %d\n", (int)cudaMemcpy(back, pinned, sizeof h, cudaMemcpyDeviceToHost));
  printf("registered DtoD: %d\n", (int)cudaMemcpy(d, pinned, sizeof h, cudaMemcpyDeviceToDevice));
  printf("pageable DtoD: %d\n", (int)cudaMemcpy(d, h, sizeof h, cudaMemcpyDeviceToDevice));
  cudaGetLastError();
  printf("HtoD into host: %d\n", (int)cudaMemcpy(back, h, sizeof h, cudaMemcpyHostToDevice));
  cudaGetLastError();
  printf("back %g\n", back[0]);
  return 0;
}
)");
  json J = analyzed("copies", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"].value("program_output", ""),
            "wrong direction: 1\nsymbol HtoD: 0\nregister: 0\n"
            "registered DtoH: 0\nregistered DtoD: 0\npageable DtoD: 1\n"
            "HtoD into host: 1\nback 7\n");
}

TEST(BuildEdges, NvccFlagsGoToNvccAndClangIsToldWhatItUnderstands) {
  // A constexpr host function called from a kernel needs
  // --expt-relaxed-constexpr from nvcc; Clang needs nothing. -arch is
  // gmem's own; -Xcompiler's value is the host compiler's.
  std::string Src = writeTemp("flags.cu", R"(
constexpr int width() { return 64; }
__global__ void row(float *a) { a[threadIdx.x * width()] = SCALE; }
int main() {
  float *a;
  cudaMalloc(&a, 64 * 32 * sizeof(float));
  row<<<1, 32>>>(a);
  return 0;
}
)");
  json J = analyzed("flags", Src, 0, nullptr,
                    "--expt-relaxed-constexpr -arch=sm_70 -Xcompiler -Wall "
                    "-DSCALE=2.0f -O3");
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["launches"], "recorded")
      << J["compiler"].value("launches_why", "");
  ASSERT_EQ(J["launches"].size(), 1u);
  // 256-byte stride: one sector per lane.
  EXPECT_EQ(J["launches"][0]["metrics"]["gst_transactions_per_request"], 32.0);
  const std::string N = notes(J);
  EXPECT_NE(N.find("--expt-relaxed-constexpr: nvcc's option, given to nvcc "
                   "only"),
            std::string::npos)
      << N;
  EXPECT_NE(N.find("-arch=sm_70: gmem sets this"), std::string::npos) << N;
  EXPECT_NE(N.find("-Xcompiler -Wall"), std::string::npos) << N;
  EXPECT_NE(N.find("-O3"), std::string::npos) << N;
}

TEST(BuildEdges, AnArchSpecificTargetIsTheOneGmemBuildsFor) {
  // wgmma compiles for sm_90a alone: gmem's own sm_90 build failed
  // (ptxas: "not supported on .target 'sm_90'") and the launch was not
  // recorded.
  std::string Src = writeTemp("arch_a.cu", R"(
__global__ void fill(float *a) {
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  a[blockIdx.x * blockDim.x + threadIdx.x] = 1.f;
}
int main() {
  float *a;
  cudaMalloc(&a, 1024 * sizeof(float));
  fill<<<8, 128>>>(a);
  return 0;
}
)");
  json J = analyzed("arch_a", Src, 0, nullptr,
                    "-gencode arch=compute_90a,code=sm_90a");
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["launches"], "recorded")
      << J["compiler"].value("launches_why", "");
  ASSERT_EQ(J["launches"].size(), 1u);
  EXPECT_EQ(J["launches"][0]["metrics"]["gst_transactions_per_request"], 4.0);
}

TEST(BuildEdges, ACFileIsHostCAndItsLaunchesAreRecorded) {
  // main() in C, as Rodinia's programs have it: time() and gettimeofday()
  // are C's, and the kernel is launched through an extern "C" wrapper.
  // Old C that GCC accepts with a warning and Clang 19 rejects (an
  // implicit int return, Rodinia's backprop) parses.
  std::string Main = writeTemp("main.c", R"(#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>
void run_kernel(int n);
twice(n) int n; { return 2 * n; }
int main(int argc, char **argv) {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  srand((unsigned)time(NULL));
  run_kernel(argc > 1 ? atoi(argv[1]) : twice(2048));
  printf("done\n");
  return 0;
}
)");
  std::string Kernels = writeTemp("kernels.cu", R"(
__global__ void add(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1;
}
extern "C" void run_kernel(int n) {
  float *a;
  cudaMalloc(&a, n * sizeof(float));
  add<<<(n + 255) / 256, 256>>>(a, n);
  cudaThreadSynchronize();
}
)");
  json J = analyzed("cfile", Main + " " + Kernels + " --run-args 2048");
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["launches"], "recorded")
      << J["compiler"].value("launches_why", "");
  ASSERT_EQ(J["launches"].size(), 1u);
  EXPECT_EQ(J["launches"][0]["grid"], json({8, 1, 1}));
  EXPECT_EQ(J["warnings"].dump().find("could not parse"), std::string::npos)
      << J["warnings"].dump();
}

TEST(BuildEdges, AnArchiveAmongTheFlagsIsLinkedAfterTheSources) {
  // As a Makefile links a helper library: `nvcc main.cu libscale.a`. The
  // archive is no source for Clang; nvcc links it after the sources, whose
  // calls it resolves (before them, ld would have taken nothing from it).
  const std::string Dir = ::testing::TempDir() + "/gmem-archive";
  std::filesystem::create_directories(Dir);
  std::ofstream(Dir + "/scale.cpp") << "int scaleOf(int n) { return 2 * n; }\n";
  const std::string Ar = Dir + "/libscale.a";
  std::filesystem::remove(Ar);
  ASSERT_EQ(std::system(("g++ -c -o " + Dir + "/scale.o " + Dir +
                         "/scale.cpp && ar rcs " + Ar + " " + Dir + "/scale.o")
                            .c_str()),
            0);
  std::string Main = writeTemp("archive_main.cu", R"(#include <cstdio>
int scaleOf(int n);
__global__ void fill(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 1;
}
int main() {
  const int n = scaleOf(1024);
  float *a;
  cudaMalloc(&a, n * sizeof(float));
  fill<<<n / 256, 256>>>(a, n);
  cudaDeviceSynchronize();
  printf("%d\n", n);
  return 0;
}
)");
  json J = analyzed("archive", Main, 0, nullptr, Ar);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["launches"], "recorded")
      << J["compiler"].value("launches_why", "");
  ASSERT_EQ(J["launches"].size(), 1u);
  // scaleOf(1024) from the archive: 2048 threads, 8 blocks of 256.
  EXPECT_EQ(J["launches"][0]["grid"], json({8, 1, 1}));
  EXPECT_NE(notes(J).find("libscale.a: a linker input"), std::string::npos)
      << notes(J);
}

TEST(BuildEdges, ASourceAmongTheFlagsIsReadAndBuilt) {
  // As nvcc takes a program of two files, `nvcc kernel.cu main.cpp`, with
  // main.cpp given after "--" (Kobzol/hardware-effects-gpu's demos: main()
  // in init.cpp calls run() in the .cu). Clang took it for a second input
  // of the parse: "no __global__ kernel", nothing recorded.
  std::string Main = writeTemp("flags_main.cpp", R"(#include <cstdio>
void run(int n);
int main() {
  run(3);
  printf("ok\n");
  return 0;
}
)");
  std::string Kernel = writeTemp("flags_kernel.cu", R"(
__global__ void scale(float *a, int s) { a[threadIdx.x * s] *= 2; }
void run(int s) {
  float *a;
  cudaMalloc(&a, 32 * 3 * sizeof(float));
  scale<<<1, 32>>>(a, s);
  cudaDeviceSynchronize();
}
)");
  json J = analyzed("flags_source", Kernel, 0, nullptr, Main);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["launches"], "recorded")
      << J["compiler"].value("launches_why", "");
  EXPECT_EQ(J["compiler"].value("program_output", ""), "ok\n");
  ASSERT_EQ(J["launches"].size(), 1u);
  // Lanes 3 words apart: 12 bytes x 32 lanes over 12 sectors, 2 accesses.
  EXPECT_EQ(J["launches"][0]["accesses"].size(), 2u);
  EXPECT_NE(notes(J).find("flags_main.cpp: a source file, read and built "
                          "with the others"),
            std::string::npos)
      << notes(J);
}

TEST(AsyncCopies, ABypassingCopyIntoAPaddedTileIsBoundedBothSides) {
  // A warp copies 8 rows of 64 bytes, 512 bytes apart, into shared rows of
  // 80 (16 of padding), 16 bytes a lane bypassing L1 (cp.async.cg), as the
  // padded tiles of cuda_hgemm's WMMA kernels. Each quarter warp reads two
  // rows (2 lines, 4 sectors) and writes two rows that span 2 lines and 5
  // chunks of 32 bytes: its wavefronts lie in [2, 8] (the most lines
  // either side, one a lane), its sectors as L1 counts them in [4, 5] (an
  // H200 counted 5 for that layout: tests/data/measured/hgemm). Only the
  // executed PTX pairs the sides; the model's figure would be one-sided.
  std::string Src = writeTemp("padded_tile.cu", R"(#include <cstdio>
#include <cuda_pipeline.h>
__global__ void paddedTile(const float4 *in, float *out) {
  __shared__ float4 tile[8][5];
  const int row = threadIdx.x / 4, col = threadIdx.x % 4;
  __pipeline_memcpy_async(&tile[row][col], &in[row * 32 + col],
                          sizeof(float4));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[threadIdx.x] = tile[row][col].x;
}
int main() {
  float4 *in;
  float *out, h[32];
  cudaMalloc(&in, 256 * sizeof(float4));
  cudaMalloc(&out, 32 * sizeof(float));
  cudaMemset(in, 0, 256 * sizeof(float4));
  paddedTile<<<1, 32>>>(in, out);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("%f\n", h[0]);
  return 0;
}
)");
  json J = analyzed("padded_tile", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  ASSERT_EQ(J["launches"].size(), 1u);
  const json &L = J["launches"][0];
  const json *Global = nullptr, *Shared = nullptr;
  for (const json &A : L["accesses"])
    if (A.contains("async_partner"))
      (A["space"] == "shared" ? Shared : Global) = &A;
  ASSERT_TRUE(Global && Shared) << L["accesses"].dump();
  EXPECT_EQ((*Shared)["wavefronts"], json({{"min", 8}, {"max", 32}}))
      << Shared->dump();
  EXPECT_EQ((*Global)["sectors"], json({{"min", 16}, {"max", 20}}))
      << Global->dump();
  EXPECT_NE((*Shared)["unknown_reason"].get<std::string>().find("bypasses L1"),
            std::string::npos);
  EXPECT_NE((*Global)["unknown_reason"].get<std::string>().find("bypasses L1"),
            std::string::npos);
  // The shared efficiency: the copy's 512 bytes and the read-back's 128
  // (.x of rows 80 bytes apart: 8 banks, 4 words each, 4 wavefronts) over
  // 4 + [8, 32] wavefronts of 128 bytes: [13.89, 41.67] %.
  const json &B = L["metric_bounds"]["shared_efficiency"];
  EXPECT_NEAR(B.value("min", 0.0), 100.0 * 640 / (128 * 36), 1e-9) << B;
  EXPECT_NEAR(B.value("max", 0.0), 100.0 * 640 / (128 * 12), 1e-9) << B;
}

TEST(BuildEdges, AFileClangRejectsDoesNotStopAProgramNvccBuilds) {
  // GCC accepts the two-argument malloc attribute (as glibc's and GCC's own
  // headers use it); Clang 19 rejects it at file scope, where no function
  // body holds the error. nvcc's host compiler builds the file.
  std::string Host = writeTemp("gcc_only.cpp", R"(#include <cstdlib>
void release(void *p) { std::free(p); }
void *acquire(std::size_t n) __attribute__((malloc, malloc(release, 1)));
void *acquire(std::size_t n) { return std::malloc(n); }
void run(int n);
int main() {
  void *p = acquire(16);
  run(1 << 12);
  release(p);
  return 0;
}
)");
  std::string Kernels = writeTemp("gcc_only_kernels.cu", R"(
__global__ void half(float *a) { a[2 * (blockIdx.x * blockDim.x + threadIdx.x)] = 0; }
void run(int n) {
  float *a;
  cudaMalloc(&a, 2 * n * sizeof(float));
  half<<<n / 128, 128>>>(a);
}
)");
  ToolRun R;
  json J = analyzed("gcc_only", Host + " " + Kernels, 0, &R);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["launches"], "recorded");
  ASSERT_EQ(J["launches"].size(), 1u) << R.Err;
  EXPECT_EQ(J["launches"][0]["grid"], json({32, 1, 1}));
  // 32 lanes 8 bytes apart: 8 sectors per store request.
  EXPECT_EQ(J["launches"][0]["metrics"]["gst_transactions_per_request"], 8.0);
  EXPECT_NE(J["warnings"].dump().find("gcc_only.cpp: Clang could not parse "
                                      "it, nvcc built it"),
            std::string::npos)
      << J["warnings"].dump();
  // Without nvcc's build the same error stops the analysis.
  ToolRun Interp = runTool(Host + " " + Kernels + " --host interpret");
  EXPECT_EQ(Interp.Exit, 2);
}

TEST(BuildEdges, DeviceCodeClangRejectsLeavesOnlyItsKernelsWithoutAModel) {
  // nvcc passes inline PTX's %-names through; Clang rejects "%laneid"
  // (an invalid % escape): the file stopped with exit 2. Now the kernel
  // that reaches it, through a device function, has no model and is
  // priced by its executed PTX; the other kernel keeps its model.
  std::string Src = writeTemp("rejected.cu", R"(
__device__ unsigned lane() {
  unsigned l;
  asm("mov.u32 %0, %laneid;" : "=r"(l));
  return l;
}
__global__ void strided(float *a) { a[lane() * 32 + blockIdx.x] = 1.f; }
__global__ void plain(float *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 2.f; }
int main() {
  float *a;
  cudaMalloc(&a, 1024 * sizeof(float));
  strided<<<32, 32>>>(a);
  plain<<<8, 128>>>(a);
  return 0;
}
)");
  json J = analyzed("rejected", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  ASSERT_EQ(J["launches"].size(), 2u) << J.dump();
  // Lanes 128 bytes apart: a sector each.
  EXPECT_EQ(J["launches"][0]["metrics"]["gst_transactions_per_request"], 32.0);
  EXPECT_EQ(J["launches"][0]["path"], "executed");
  EXPECT_EQ(J["launches"][1]["metrics"]["gst_transactions_per_request"], 4.0);
  EXPECT_EQ(J["launches"][1]["path"], "model");
  EXPECT_NE(J.dump().find("device code Clang rejects and nvcc built; no model "
                          "for strided"),
            std::string::npos)
      << J.dump();
  // Without nvcc to build it, the error stands (exit 2).
  ToolRun R = runTool(Src + " --host interpret --format json");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find("invalid % escape"), std::string::npos) << R.Err;
}

TEST(BuildEdges, AKernelWithNoModelIsPricedByItsExecutedPtx) {
  // The kernel's file is one Clang rejects (as above), so the model has no
  // kernel for the launch; the recording ran it on nvcc's PTX, which
  // prices it: 4 x 32 warps storing floats 16 bytes apart, 16 sectors per
  // request; and the host's check of what it wrote passes (exit 0).
  std::string Host = writeTemp("no_model_host.cpp", R"(void run(float *h);
int main() {
  float h[4];
  run(h);
  return h[0] == 1 ? 0 : 1;
}
)");
  std::string Kernels = writeTemp("no_model_kernels.cu", R"(#include <cstdlib>
void release(void *p) { std::free(p); }
void *acquire(std::size_t n) __attribute__((malloc, malloc(release, 1)));
void *acquire(std::size_t n) { return std::malloc(n); }
__global__ void spread(float *a) {
  a[4 * (blockIdx.x * blockDim.x + threadIdx.x)] = 1;
}
void run(float *h) {
  void *p = acquire(16);
  float *a;
  cudaMalloc(&a, 4 * 4096 * sizeof(float));
  spread<<<32, 128>>>(a);
  cudaMemcpy(h, a, 4 * sizeof(float), cudaMemcpyDeviceToHost);
  release(p);
}
)");
  ToolRun R;
  json J = analyzed("no_model", Host + " " + Kernels, 0, &R);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["program_exit"], 0) << J["compiler"].dump();
  ASSERT_EQ(J["launches"].size(), 1u) << R.Err;
  const json &L = J["launches"][0];
  EXPECT_EQ(L["kernel"], "spread");
  EXPECT_EQ(L["path"], "executed");
  EXPECT_EQ(L["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"],
            128.0);
  EXPECT_EQ(L["metrics"]["gst_transactions_per_request"], 16.0);
  EXPECT_EQ(J["warnings"].dump().find("not simulated"), std::string::npos)
      << J["warnings"].dump();
  // It has no model to fall back on: --path model prices it the same way.
  json M =
      analyzed("no_model_path_model", Host + " " + Kernels + " --path model");
  ASSERT_EQ(M["launches"].size(), 1u);
  EXPECT_EQ(M["launches"][0]["path"], "executed");
  EXPECT_EQ(M["launches"][0]["metrics"]["gst_transactions_per_request"], 16.0);
}

TEST(BuildEdges, ClangSeesNvccsVersionAsNvccDefinesIt) {
  // Code picks APIs by nvcc's version (HeCBench's nonzero: thrust's
  // iterators where CUDA 13 removed CUB's); Clang must take the branch nvcc
  // takes, or the file does not parse and its kernels have no model.
  std::string Src = writeTemp("nvcc_version.cu", R"(
#if !defined(__CUDACC_VER_MAJOR__) || __CUDACC_VER_MAJOR__ < 12 || \
    !defined(__CUDACC_VER_MINOR__)
#error "not nvcc's version"
#endif
__global__ void pairs(float *a) { a[2 * threadIdx.x] = 0; }
int main() {
  float *a;
  cudaMalloc(&a, 64 * sizeof(float));
  pairs<<<1, 32>>>(a);
  return 0;
}
)");
  json J = analyzed("nvcc_version", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  ASSERT_EQ(J["launches"].size(), 1u) << J["warnings"].dump();
  EXPECT_EQ(J["launches"][0]["path"], "model") << J["warnings"].dump();
  EXPECT_EQ(J["launches"][0]["metrics"]["gst_transactions_per_request"], 8.0);
}

TEST(PtxasMerges, AWindowPartlyReadIsOneWideLoad) {
  // CUB's block reduction (its default algorithm) ends with thread 0
  // reading the other 31 warps' totals, words 9 to 39 of its storage: 31
  // loads in the PTX, which ptxas makes eight 16-byte loads of the aligned
  // windows they fall in (words 8 to 39). Measured on the H200 for the
  // same CUB code in HeCBench's dp4a (docs/PUBLIC_PROGRAMS.md): 8
  // instructions, 8 wavefronts, one block of 1024 threads.
  std::string Src =
      writeTemp("block_total.cu", R"(#include <cub/block/block_reduce.cuh>
__global__ void total(const int *in, int *out) {
  using Reduce = cub::BlockReduce<int, 1024>;
  __shared__ typename Reduce::TempStorage s;
  const int v = Reduce(s).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0)
    *out = v;
}
int main() {
  int *in, *out, h = 1;
  cudaMalloc(&in, 1024 * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemset(in, 0, 1024 * sizeof(int));
  total<<<1, 1024>>>(in, out);
  cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
  return h;
}
)");
  json J = analyzed("block_total", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["program_exit"], 0);
  ASSERT_EQ(J["launches"].size(), 1u) << J["warnings"].dump();
  const json *Totals = nullptr;
  for (const json &A : J["launches"][0]["accesses"])
    if (A["space"] == "shared" && A["op"] == "load")
      Totals = &A;
  ASSERT_NE(Totals, nullptr) << J["launches"][0].dump();
  EXPECT_EQ((*Totals)["compiled"]["state"], "merged");
  EXPECT_EQ((*Totals)["compiled"]["width"], 16);
  EXPECT_EQ((*Totals)["requests"], 8);
  EXPECT_EQ((*Totals)["wavefronts"], 8);
}

TEST(PtxasMerges, StoresOfBothSidesOfABoundsCheckAreOneStore) {
  // The book's boundary-checked tiled product (Programming Massively
  // Parallel Processors, Fig. 5.13): `if (in) Ms[ty][tx] = M[...]; else
  // Ms[ty][tx] = 0;`. ptxas selects the value and stores once: one STS per
  // warp and phase, on the loop's line, whichever side its lanes took (the
  // H200 counted 4194304 STS for 4096 blocks x 8 warps x 64 phases x 2
  // tiles of the book's program: tests/data/measured/pmpp/
  // tiled_matmul_bc.json). Here 3 x 3 blocks of 8 warps, 3 phases of a
  // 40-wide matrix, so that warps of the last phase and column of blocks
  // have lanes on both sides: 216 STS of one wavefront per tile (a warp's
  // two 64-byte rows), which the model prices alone.
  const std::string Src = writeTemp("bounded_tiles.cu", R"(#define T 16
__global__ void tiled(const float *M, const float *N, float *P, int W) {
  __shared__ float Ms[T][T], Ns[T][T];
  int tx = threadIdx.x, ty = threadIdx.y;
  int Row = blockIdx.y * T + ty, Col = blockIdx.x * T + tx;
  float v = 0.0f;
  for (int ph = 0; ph < (W + T - 1) / T; ++ph) {
    if (Row < W && ph * T + tx < W)
      Ms[ty][tx] = M[Row * W + ph * T + tx];
    else
      Ms[ty][tx] = 0.0f;
    if (ph * T + ty < W && Col < W)
      Ns[ty][tx] = N[(ph * T + ty) * W + Col];
    else
      Ns[ty][tx] = 0.0f;
    __syncthreads();
    for (int k = 0; k < T; ++k)
      v += Ms[ty][k] * Ns[k][tx];
    __syncthreads();
  }
  if (Row < W && Col < W)
    P[Row * W + Col] = v;
}
int main() {
  const int W = 40;
  float *M, *N, *P;
  cudaMalloc(&M, W * W * sizeof(float));
  cudaMalloc(&N, W * W * sizeof(float));
  cudaMalloc(&P, W * W * sizeof(float));
  cudaMemset(M, 0, W * W * sizeof(float));
  cudaMemset(N, 0, W * W * sizeof(float));
  tiled<<<dim3(3, 3), dim3(T, T)>>>(M, N, P, W);
  return cudaDeviceSynchronize() != cudaSuccess;
}
)");
  json J = analyzed("bounded_tiles", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  ASSERT_EQ(J["launches"].size(), 1u) << J["warnings"].dump();
  const json &L = J["launches"][0];
  EXPECT_EQ(L["path"], "model") << L["path_why"].dump();
  EXPECT_EQ(L["metrics"]["smsp__sass_inst_executed_op_shared_st.sum"], 432);
  EXPECT_EQ(
      L["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"],
      432);
  unsigned Merged = 0;
  for (const json &A : L["accesses"])
    if (A["space"] == "shared" && A["op"] == "store" &&
        A["compiled"].value("branches", 0) == 2) {
      ++Merged;
      EXPECT_EQ(A["requests"], 216);
      EXPECT_EQ(A["compiled"]["instruction"], "STS");
    }
  EXPECT_EQ(Merged, 2u) << L["accesses"].dump();
}

TEST(PtxasMerges, WidthsFollowWhereTheVariableLies) {
  // Two CUB warp-reduction storages of 24 bytes, a at 0 and b at 24 of the
  // block's shared memory: thread 0 reads words 2 to 4 of each. ptxas
  // reads a's as LDS.64 at 8 and LDS at 16, b's (at 32 to 44) as one
  // LDS.128 of the aligned window at 32 (the SASS of this file; the same
  // CUB code in HeCBench's channelSum, measured on the H200 in
  // tests/data/measured/hecbench: 3 requests per block; this kernel, in
  // tests/data/measured/hecbench2/own_two_sums.json, too).
  const std::string Src =
      sourceDir() + "/tests/data/programs/hecbench2_own/two_sums.cu";
  json J = analyzed("two_sums", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["program_exit"], 0);
  ASSERT_EQ(J["launches"].size(), 1u) << J["warnings"].dump();
  std::map<int, const json *> Loads; // By the kernel's line.
  for (const json &A : J["launches"][0]["accesses"])
    if (A["space"] == "shared" && A["op"] == "load")
      Loads[A["line"].get<int>()] = &A;
  ASSERT_EQ(Loads.size(), 2u) << J["launches"][0].dump();
  const json &First = *Loads.at(7), &Second = *Loads.at(8);
  EXPECT_EQ(First["compiled"]["width"], 8);
  EXPECT_EQ(First["requests"], 2);
  EXPECT_EQ(Second["compiled"]["width"], 16);
  EXPECT_EQ(Second["requests"], 1);
}

/// Requests and wavefronts of a launch's shared accesses (loads only, or
/// loads and stores) that the binary's line table puts on Line.
static std::pair<int, int> sharedOnLine(const json &Launch, int Line,
                                        bool LoadsOnly = true) {
  int Requests = 0, Wavefronts = 0;
  for (const json &A : Launch["accesses"])
    if (A["space"] == "shared" && (!LoadsOnly || A["op"] == "load") &&
        A["compiled"].value("line", A["line"].get<int>()) == Line) {
      Requests += A["requests"].get<int>();
      Wavefronts += A["wavefronts"].get<int>();
    }
  return {Requests, Wavefronts};
}

TEST(PtxasMerges, CubWarpTotalsReadAsTheBinaryReadsThem) {
  // The shared loads of CUB's warp totals that ptxas makes fewer and wider
  // than the PTX's, per kernel of warp_totals.cu (its comment says how),
  // as the H200 counted them at the CUB line that reads the totals (with
  // raking_scan's one store there)
  // (tests/data/measured/cub_own/own_warp_totals.json; CUB's own device
  // reduction, block reduction and block scan examples measured alike:
  // docs/PUBLIC_PROGRAMS.md). Before, the PTX's counts: 6, 9 and 544
  // requests (raking_scan's was right here; in CUB's example, where its
  // segment word and segment share a line, it was 3 where the GPU has 2).
  const std::string Src =
      sourceDir() + "/tests/data/programs/cub_own/warp_totals.cu";
  json J = analyzed("warp_totals", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["program_output"].get<std::string>().find("PASSED"),
            0u)
      << J["compiler"].dump();
  struct Want {
    const char *Kernel;
    int Line, Requests, Wavefronts;
  };
  const Want Wants[] = {{"partial_sum", 143, 3, 3},
                        {"dynamic_sum", 143, 8, 8},
                        {"warp_scan", 154, 384, 608},
                        {"raking_scan", 189, 2, 4}};
  ASSERT_EQ(J["launches"].size(), 4u) << J["warnings"].dump();
  for (const Want &W : Wants) {
    const json *L = nullptr;
    for (const json &X : J["launches"])
      if (X["kernel"] == W.Kernel)
        L = &X;
    ASSERT_NE(L, nullptr) << W.Kernel;
    const auto [Requests, Wavefronts] =
        sharedOnLine(*L, W.Line, /*LoadsOnly=*/false);
    EXPECT_EQ(Requests, W.Requests) << W.Kernel << ": " << L->dump();
    EXPECT_EQ(Wavefronts, W.Wavefronts) << W.Kernel;
  }
}

TEST(PtxasMerges, LoadsMovedPastTheLastGuardedExitRunWhereTheirUseRuns) {
  // striped_tail.cu ends as CUB's single-tile radix sort does: 19 striped
  // shared loads, then 19 guarded stores. ptxas makes the last store's
  // bound an exit and moves the last load after it, so warps with no lane
  // in bounds make 18 loads, not 19. As the H200 counted them at CUB's
  // line (tests/data/measured/cub_own/own_striped_tail.json): 16 keys, 144
  // instructions of which 7 by warps whose lanes are all predicated off
  // (ptxas guards the first item's load), 137 requests and wavefronts;
  // 4700 keys, whose last row the first 3 warps reach, 147. Before: 145
  // and 152, the PTX's 19 loads in every warp (Thrust's sort example
  // differed alike on 3 launches).
  const std::string Src =
      sourceDir() + "/tests/data/programs/cub_own/striped_tail.cu";
  json J = analyzed("striped_tail", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["program_output"].get<std::string>().find("PASSED"),
            0u)
      << J["compiler"].dump();
  ASSERT_EQ(J["launches"].size(), 2u) << J["warnings"].dump();
  const int Want[] = {137, 147};
  for (size_t K = 0; K < 2; ++K) {
    const auto [Requests, Wavefronts] = sharedOnLine(J["launches"][K], 759);
    EXPECT_EQ(Requests, Want[K]) << J["launches"][K].dump();
    EXPECT_EQ(Wavefronts, Want[K]);
  }
}

TEST(PtxasMerges, ALoadReadWithItsWholeAlignedWindowCountsItsWavefronts) {
  // Thrust's scan by key (scan_by_key.cu) runs CUB's DeviceScanByKeyKernel,
  // whose block scan reads the warps' 8-byte (flag, value) totals; on one
  // path ptxas reads the total at +8 of the storage with the 16 bytes at
  // +0 (one LDS.128 for the PTX's 8-byte load), which takes more
  // wavefronts. As the H200 counted them on CUB's line
  // (tests/data/measured/cub_own/own_scan_by_key.json): one tile, 36
  // requests and 72 wavefronts, for the inclusive and the exclusive scan;
  // two tiles, 64 and 118. Before, 63 wavefronts for one tile (Thrust's own
  // scan_by_key example differed alike, docs/PUBLIC_PROGRAMS.md).
  const std::string Src =
      sourceDir() + "/tests/data/programs/cub_own/scan_by_key.cu";
  json J = analyzed("scan_by_key", Src, 0, nullptr, "-std=c++17");
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["program_output"].get<std::string>().find("PASSED"),
            0u)
      << J["compiler"].dump();
  std::vector<std::pair<int, int>> Got;
  for (const json &L : J["launches"])
    if (L["kernel"].get<std::string>().find("DeviceScanByKeyKernel<") !=
        std::string::npos)
      Got.push_back(sharedOnLine(L, 154));
  const std::vector<std::pair<int, int>> Want = {
      {36, 72}, {36, 72}, {64, 118}, {64, 118}};
  EXPECT_EQ(Got, Want) << J["warnings"].dump();
}

TEST(PtxasMerges, TheBinarysLoadsInOrderSayWhichRereadsItDropped) {
  // select_sweep.cu runs cub::DeviceSelect::If, whose sweep kernel reads
  // the warps' totals on four paths; on each the PTX reads 4 bytes at +8
  // and +16, 16 at +16, 4 at +32, 16 at +32 and 4 at +40, and the SASS
  // 4 at +8 and +16 and 16 at +16 and +32: ptxas dropped the reads at +32
  // and +40, inside the window at +32, on every path. As the H200 counted
  // them on CUB's line (tests/data/measured/cub_own/own_select_sweep.json):
  // 768 requests, 1152 wavefronts. Before, 672 and 1008: the last 8
  // candidates in program order were dropped, three from each of the last
  // two paths (the +16 read among them) and none from the first.
  const std::string Src =
      sourceDir() + "/tests/data/programs/cub_own/select_sweep.cu";
  json J = analyzed("select_sweep", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["program_output"].get<std::string>().find("PASSED"),
            0u)
      << J["compiler"].dump();
  const json *Sweep = nullptr;
  for (const json &L : J["launches"])
    if (L["kernel"].get<std::string>().find("DeviceSelectSweepKernel<") !=
        std::string::npos)
      Sweep = &L;
  ASSERT_NE(Sweep, nullptr) << J["warnings"].dump();
  const auto [Requests, Wavefronts] = sharedOnLine(*Sweep, 154);
  EXPECT_EQ(Requests, 768);
  EXPECT_EQ(Wavefronts, 1152);
  // The look-back's prefix reads (single_pass_scan_operators.cuh): 4 bytes
  // at +68 on line 1325 and at +76 on line 1337 on one path, the line table
  // puts both LDS on 1325; on the other, 8 bytes at +72 (1337) and 4 at
  // +68 (1325) are one LDS.128 at +64 on 1337 (place_match.h). The H200:
  // 336 instructions of one wavefront on 1325, 12 of two on 1337. Before,
  // 180 and 180 on each.
  EXPECT_EQ(sharedOnLine(*Sweep, 1325), std::make_pair(336, 336));
  EXPECT_EQ(sharedOnLine(*Sweep, 1337), std::make_pair(12, 24));
  // The look-back polls its predecessors' status with generic loads, whose
  // bytes the GPU counts among the shared data bytes: as often as timing
  // decides, so the shared efficiency is not known (the H200: 59.18 %).
  EXPECT_TRUE((*Sweep)["metrics"]["shared_efficiency"].is_null());
  EXPECT_NE((*Sweep)["unknown_metrics"]
                .value("shared_efficiency", "")
                .find("count among the shared data bytes"),
            std::string::npos)
      << (*Sweep)["unknown_metrics"].dump();
}

TEST(ForkJoin, ThrustSetOperationsGiveTheGpusResultsUnderRecording) {
  // set_ops.cu checks Thrust's set intersection, difference, symmetric
  // difference and union against the host's. Their serial merge reads the
  // key past a used-up list, which no thread wrote, and advances a cursor
  // on the comparison (set_operations.h); the executor runs both sides and
  // keeps the cursor's two values (executor/fork_join.cpp), so every
  // output is known and the program passes its checks as on the H200
  // (tests/data/measured/cub_own/own_set_ops.out). Before, the cursors
  // were unknown from there on, the outputs with them, and Thrust's own
  // example printed zeros for the sets. The 3000-key difference's merge,
  // as the H200 counted it (own_set_ops.json): line 956, 288 shared
  // loads of 559 wavefronts; 926, 16 of 34.
  const std::string Src =
      sourceDir() + "/tests/data/programs/cub_own/set_ops.cu";
  json J = analyzed("set_ops", Src, 0, nullptr, "-std=c++17");
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["program_output"].get<std::string>().find("PASSED"),
            0u)
      << J["compiler"].dump();
  const json *Difference = nullptr;
  for (const json &L : J["launches"])
    if (L["kernel"].get<std::string>().find("serial_set_difference") !=
        std::string::npos)
      Difference = &L; // The last: 3000 keys.
  ASSERT_NE(Difference, nullptr) << J["warnings"].dump();
  EXPECT_EQ(sharedOnLine(*Difference, 956), std::make_pair(288, 559));
  EXPECT_EQ(sharedOnLine(*Difference, 926), std::make_pair(16, 34));
}

TEST(PtxasMerges, EachWarpGathersItsOwnPartsOfAWideLoad) {
  // One block of 8 warps, each thread an 8 x 8 register tile: per step of
  // k, 8 consecutive floats of A's tile, which ptxas reads with two
  // LDS.128 where the PTX has eight 4-byte loads among the FMAs. Warps
  // take turns of a few hundred instructions, so one warp's loads of one
  // LDS.128 come apart; each warp's are still one instruction: 8 warps x
  // 8 tiles of k x 16 steps x 2 = 2048 requests of 2 wavefronts (two
  // 16-byte rows a warp; 4352 and 5632 before the fix), as the H200
  // counted (tests/data/measured/howto/own_register_tile.json; SGEMM_CUDA's
  // autotuned kernel, the same loads, too: measured/sgemm/sgemm_9.json).
  const std::string Src =
      sourceDir() + "/tests/data/programs/tiled_own/register_tile.cu";
  json J = analyzed("register_tile", Src + " --path executed");
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  ASSERT_EQ(J["launches"].size(), 1u) << J["warnings"].dump();
  const json &L = J["launches"][0];
  EXPECT_EQ(L["path"], "executed");
  std::map<int, std::pair<int, int>> Loads; // Line: requests, wavefronts.
  for (const json &A : L["accesses"])
    if (A["space"] == "shared" && A["op"] == "load")
      Loads[A["line"].get<int>()] = {A["requests"], A["wavefronts"]};
  EXPECT_EQ(Loads, (std::map<int, std::pair<int, int>>{{29, {2048, 4096}},
                                                       {31, {2048, 16384}}}))
      << L["accesses"].dump();
}

TEST(PredicatedOff, WarpsWithEveryLaneOffExecuteWhatPtxasPredicated) {
  // Branch sides ptxas predicates instead of branching around: a warp none
  // of whose lanes takes them executes them all the same, counted on their
  // lines with no request. treeSum (64 blocks of 8 warps): from s = 32 on,
  // 4, 6 and 7 warps of a block have no lane with tid % (2 s) == 0, so 17
  // per block x 64 = 1088 executions of each of line 20's 3 instructions,
  // 9024 + 3264 = 12288. prefetchSum: every warp skips the next step's 2
  // loads on its last step, 64 x 2 = 128 beside 384 requests. scaleTile's
  // bounds check is an EXIT, not a predicate: none. unrolledSteps (128
  // blocks of 4 warps): no lane passes `blockDim.x >= 256` nor `>= 512`,
  // yet each of their 3 instructions runs in all 512 warps; 2 warps of a
  // block have no tid < 64. The H200 counted these
  // (tests/data/measured/olcf/own_predicated.json, gmem-verify counting
  // memory instructions that only ran predicated off).
  const std::string Dir = sourceDir() + "/tests/data/programs/predicated_own";
  for (const char *Path : {"model", "executed"}) {
    SCOPED_TRACE(Path);
    json J = analyzed(std::string("predicated_") + Path,
                      Dir + "/predicated.cu --path " + Path);
    if (!canRecord(J))
      GTEST_SKIP() << J["compiler"].dump();
    ASSERT_EQ(J["launches"].size(), 4u) << J["warnings"].dump();
    std::map<std::pair<std::string, int>, std::pair<int, int>> Lines;
    for (const json &L : J["launches"]) {
      EXPECT_EQ(L["path"], Path);
      for (const json &A : L["accesses"]) {
        auto &[Requests, Off] = Lines[{L["kernel"], A["line"].get<int>()}];
        Requests += A["requests"].get<int>();
        Off += A.value("predicated_off", 0);
      }
    }
    EXPECT_EQ(Lines[std::make_pair(std::string("treeSum"), 20)],
              std::make_pair(9024, 3264));
    EXPECT_EQ(Lines[std::make_pair(std::string("prefetchSum"), 50)],
              std::make_pair(384, 128));
    EXPECT_EQ(Lines[std::make_pair(std::string("scaleTile"), 33)],
              std::make_pair(600, 0));
    for (int Line : {68, 71})
      EXPECT_EQ(Lines[std::make_pair(std::string("unrolledSteps"), Line)],
                std::make_pair(0, 3 * 512))
          << Line;
    EXPECT_EQ(Lines[std::make_pair(std::string("unrolledSteps"), 74)],
              std::make_pair(3 * 256, 3 * 256));
  }
  const ToolRun R =
      runTool("--cache-dir " + ::testing::TempDir() +
              "/gmem-cache-predicated " + Dir + "/predicated.cu --compare " +
              sourceDir() + "/tests/data/measured/olcf/own_predicated.json");
  EXPECT_EQ(R.Exit, 0) << R.Out << R.Err;
  // A line with no request at all still matches its predicated-off runs.
  EXPECT_NE(R.Out.find("4 launches: 4 match, 0 differ"), std::string::npos)
      << R.Out;
}

TEST(PtxasMerges, AStructsFieldsAlongALoopAreReadInWindowsAcrossLines) {
  // tile[j].x, .y and .z of a 12-byte struct on three lines, the loop
  // unrolled by 8: ptxas reads the 96 bytes in six LDS.128 whose windows
  // start on each line in turn, two a line. 4 blocks of 4 warps, 4 tiles
  // of 128 iterations: 16 * 4 * 128 / 8 * 2 = 2048 requests a line, each
  // read by every lane at one address in 2 wavefronts, as an H200 measured
  // (tests/data/measured/lcp/own_struct_tile.json). The executed PTX had
  // counted 8192 a line: the reconciler took each field's loads for runs
  // merged with their own next iterations, 12 bytes away.
  const std::string Src =
      sourceDir() + "/tests/data/programs/lcp_own/struct_tile.cu";
  json J = analyzed("struct_tile", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["program_exit"], 0);
  ASSERT_EQ(J["launches"].size(), 1u) << J["warnings"].dump();
  unsigned Fields = 0;
  for (const json &A : J["launches"][0]["accesses"])
    if (A["space"] == "shared" && A["op"] == "load") {
      ++Fields;
      EXPECT_EQ(A["requests"], 2048) << A.dump();
      EXPECT_EQ(A["wavefronts"], 4096) << A.dump();
    }
  EXPECT_EQ(Fields, 3u);
}

TEST(PtxasMerges, ALoopUnrolledFurtherKeepsItsWideLoads) {
  // Thread 0 sums 8 warp totals: nvcc unrolls the loop by 4 (loads at +0,
  // +4, +8, +12) with a one-load remainder loop; ptxas unrolls it further
  // (four LDS.128 a trip, then two, then one, then LDS) and reads every 4
  // iterations with one LDS.128: 2 requests per block, 8 for 4 blocks
  // (HeCBench's groupnorm_backward_kernel, the same loop, measured on the
  // H200: 2 per block; this kernel: tests/data/measured/hecbench2,
  // own_warp_totals.json).
  const std::string Src =
      sourceDir() + "/tests/data/programs/hecbench2_own/warp_totals.cu";
  json J = analyzed("warp_totals", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["program_exit"], 0);
  ASSERT_EQ(J["launches"].size(), 1u) << J["warnings"].dump();
  const json *Sums = nullptr;
  for (const json &A : J["launches"][0]["accesses"])
    if (A["space"] == "shared" && A["op"] == "load")
      Sums = &A;
  ASSERT_NE(Sums, nullptr) << J["launches"][0].dump();
  EXPECT_EQ((*Sums)["requests"], 8);
  EXPECT_EQ((*Sums)["wavefronts"], 8);
}

TEST(CompiledLines, ALoadNvccGaveNoLineIsCountedWhereTheSassHasIt) {
  // Each row of out is copied from a or b by a flag, each row of out2 from
  // the other: nvcc makes each if's two sides one load of a selected
  // address on line 0 of its line table, and ptxas counts them on lines 17
  // and 26, a's both times (HeCBench's sampling: 4 launches differed per
  // line). 16 blocks of 8 warps, 8 rows: 1024 loads on each of those
  // lines, none on 19 or 24, as the H200 counted
  // (tests/data/measured/hecbench3/own_pick_source.json).
  const std::string Src =
      sourceDir() + "/tests/data/programs/hecbench2_own/pick_source.cu";
  json J = analyzed("pick_source", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["program_exit"], 0);
  ASSERT_EQ(J["launches"].size(), 1u) << J["warnings"].dump();
  std::map<int, int> Loads; // Requests by line.
  for (const json &A : J["launches"][0]["accesses"])
    if (A["op"] == "load")
      Loads[A["line"].get<int>()] += A["requests"].get<int>();
  EXPECT_EQ(Loads, (std::map<int, int>{{13, 128}, {17, 1024}, {26, 1024}}))
      << J["launches"][0]["accesses"].dump();
}

TEST(CompiledLines, AnAtomicCalledOnItsHeadersLineNumberKeepsTheCallersRow) {
  // atomicAdd is line 112 of CUDA 13's device_atomic_functions.hpp; called
  // on line 112 of the program, its REDG gets no row of its own in ptxas's
  // line table (the line number does not change), and the H200 counted
  // its 2048 requests on the program's line 112, none on the header's
  // (tests/data/measured/atomics_own/letter_bins.json; PMPP's histogram
  // likewise). The shared kernel's atomics keep the header's line.
  const std::string Src =
      sourceDir() + "/tests/data/programs/atomics_own/letter_bins.cu";
  const ToolRun R =
      runTool("--cache-dir " + ::testing::TempDir() +
              "/gmem-cache-letter-bins " + Src + " --compare " + sourceDir() +
              "/tests/data/measured/atomics_own/letter_bins.json");
  if (R.Err.find("no recording runtime") != std::string::npos ||
      R.Err.find("recording needs nvcc") != std::string::npos)
    GTEST_SKIP() << R.Err;
  EXPECT_EQ(R.Exit, 0) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("2 launches: 2 match, 0 differ"), std::string::npos)
      << R.Out;
}

TEST(CompiledLines, CallSitesBalancedKeepTheLineOfTheirInstruction) {
  // Two calls of one inlined __ldg helper: nvcc's line table gives both
  // LDG.128 to the first call, the matcher gives each call its own, and
  // each stays counted on the header line the GPU reports (HeCBench
  // reverse2D, the same helper: 2048 instructions on
  // sm_32_intrinsics.hpp:131 measured on the H200, none on the helper's
  // line; tests/data/measured/hecbench4). 128 blocks of 8 warps: 1024
  // requests each, 16 sectors a request (32 lanes x 16 bytes).
  const std::string Src =
      sourceDir() + "/tests/data/programs/hecbench4_own/swap_ends.cu";
  json J = analyzed("swap_ends", Src, 0, nullptr, "-O3");
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["program_exit"], 0);
  ASSERT_EQ(J["launches"].size(), 1u) << J["warnings"].dump();
  std::map<std::pair<std::string, int>, int> Loads; // Requests by line.
  for (const json &A : J["launches"][0]["accesses"]) {
    if (A["op"] != "load")
      continue;
    const json &C = A["compiled"];
    std::string File = C.value("file", A["file"].get<std::string>());
    File = File.substr(File.rfind('/') + 1);
    Loads[{File, C.value("line", A["line"].get<int>())}] +=
        A["requests"].get<int>();
    EXPECT_EQ(A["sectors"], 16 * 1024);
  }
  EXPECT_EQ(Loads, (std::map<std::pair<std::string, int>, int>{
                       {{"sm_32_intrinsics.hpp", 131}, 2048}}))
      << J["launches"][0]["accesses"].dump();
}

TEST(CompiledLines, StoresNvccForwardedAreMadeWhereTheBinaryHasThem) {
  // An exclusive scan in shared memory, as HeCBench's scan writes it (its
  // 40 int, short and char launches differed per line, 80 in all): nvcc
  // forwards the last down-sweep step's stores to the copy out, loading
  // each thread's two words once on no line; ptxas counts that load on
  // the loop's line (one LDS.64 for int, two LDS.U8 for char), stores the
  // step's two words with one instruction on the second store's line
  // (STS.64, or STS of two shorts), and gives the second load of the step
  // before it the first load's line. The H200's counts
  // (tests/data/measured/hecbench2/own_forwarded_scan.json): every kernel
  // figure and every line equal, the executions of warps whose lanes are
  // all predicated off included (line 26 of the int scan: 2048 requests,
  // 5888 instructions).
  const std::string Dir = sourceDir() + "/tests/data/programs/hecbench2_own";
  const std::string Measured =
      sourceDir() + "/tests/data/measured/hecbench2/own_forwarded_scan.json";
  json J =
      analyzed("forwarded_scan", Dir + "/forwarded_scan.cu", 0, nullptr, "-O3");
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  std::ifstream In(Measured);
  const json M = json::parse(In);
  ASSERT_EQ(J["launches"].size(), 3u) << J["warnings"].dump();
  ASSERT_EQ(M["launches"].size(), 3u);
  for (size_t I = 0; I < 3; ++I)
    for (const char *Metric :
         {"smsp__sass_inst_executed_op_shared_ld.sum",
          "smsp__sass_inst_executed_op_shared_st.sum",
          "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
          "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"})
      EXPECT_EQ(J["launches"][I]["metrics"][Metric].get<double>(),
                M["launches"][I]["metrics"][Metric].get<double>())
          << J["launches"][I]["kernel"] << " " << Metric;
  const ToolRun R =
      runTool("--cache-dir " + ::testing::TempDir() +
              "/gmem-cache-edges-forwarded_scan " + Dir +
              "/forwarded_scan.cu --compare " + Measured + " -- -O3");
  EXPECT_EQ(R.Exit, 0) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("3 launches: 3 match, 0 differ"), std::string::npos)
      << R.Out;
}

TEST(RacingAtomics, AddressesFromARacingAtomicAreCountedNotPriced) {
  // Stream compaction by warp-aggregated atomics: in a launch of one warp
  // the slots follow the input, and the store's sectors are those of each
  // iteration's run of kept elements after the ones before (worked out
  // here from the input); with 128 warps racing for the counter, which
  // warp gets which slots is the GPU's timing: the requests are counted,
  // the sectors are bounds, and the report says why. A launch of 32 warps
  // of which only the first has elements (and so makes atomics) is as
  // fixed as the one-warp launch: priced (PMPP's frontier BFS on its
  // small graph, measured on an H200, matched so: docs/PUBLIC_PROGRAMS.md).
  json J =
      analyzed("compact_atomics",
               sourceDir() + "/tests/data/programs/idioms/compact_atomics.cu");
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  ASSERT_EQ(J["launches"].size(), 3u) << J["warnings"].dump();
  const auto Expected = [](int N) {
    uint64_t Requests = 0, Sectors = 0, Base = 0;
    for (int I = 0; I < N; I += 32) {
      uint64_t Kept = 0;
      for (int L = I; L < I + 32; ++L)
        Kept += (L * 7919) % 13 < 5;
      if (!Kept)
        continue;
      ++Requests;
      Sectors += (4 * (Base + Kept) - 1) / 32 - 4 * Base / 32 + 1;
      Base += Kept;
    }
    return std::make_pair(Requests, Sectors);
  };
  const auto [Requests, Sectors] = Expected(1 << 14);
  const auto Store = [](const json &L) {
    for (const json &A : L["accesses"])
      if (A["op"] == "store")
        return A;
    return json();
  };
  const json One = Store(J["launches"][0]), Many = Store(J["launches"][1]),
             FirstOnly = Store(J["launches"][2]);
  EXPECT_EQ(One["requests"], Requests);
  EXPECT_EQ(One["sectors"], Sectors) << One.dump();
  EXPECT_EQ(Many["requests"], Requests);
  EXPECT_TRUE(Many["sectors"].is_object()) << Many.dump();
  EXPECT_NE(Many.value("unknown_reason", "").find("racing atomics"),
            std::string::npos)
      << Many.dump();
  const auto [FirstRequests, FirstSectors] = Expected(32);
  EXPECT_EQ(FirstRequests, 1u);
  EXPECT_EQ(FirstOnly["requests"], FirstRequests);
  EXPECT_EQ(FirstOnly["sectors"], FirstSectors) << FirstOnly.dump();
}

TEST(RetryLoops, TimingDecidesHowOftenAtomicsAreRetried) {
  // A compare-and-swap loop (a float maximum) and a lock. The executor runs
  // each warp alone, which makes the fewest requests: with one warp that
  // count is the GPU's; with 2048 warps racing for 4 words or one lock it
  // is a lower bound, said as such ("timing"), and the H200 made more
  // (tests/data/measured/pcuda/own_cas_retry.json: 4562 and 8801619
  // instructions on the atomicCAS line).
  const std::string Src =
      sourceDir() + "/tests/data/programs/atomics_own/cas_retry.cu";
  json J = analyzed("cas_retry", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  ASSERT_EQ(J["launches"].size(), 3u) << J["warnings"].dump();
  const auto Cas = [](const json &L) {
    for (const json &A : L["accesses"])
      if (A["op"] == "atomic" &&
          A["text"].get<std::string>().find("atomicCAS") != std::string::npos)
        return A;
    return json();
  };
  // One warp: its own retries, as the GPU made them (6 on the H200).
  const json One = Cas(J["launches"][0]);
  EXPECT_EQ(One["requests"], 6) << One.dump();
  EXPECT_FALSE(One.contains("unknown_cause")) << One.dump();
  // 2048 warps: every warp with a lane above its bin's maximum so far
  // makes at least one compare-and-swap; the GPU's 4562 are at least as many.
  std::vector<float> In(1 << 16);
  for (size_t I = 0; I < In.size(); ++I)
    In[I] = float((I * 7919) % 10007);
  float Max[4] = {0, 0, 0, 0};
  uint64_t WarpsThatSwap = 0;
  for (size_t W = 0; W < In.size() / 32; ++W) {
    bool Swaps = false;
    for (size_t I = W * 32; I < W * 32 + 32; ++I)
      Swaps |= In[I] > Max[I % 4];
    for (size_t I = W * 32; I < W * 32 + 32; ++I)
      Max[I % 4] = std::max(Max[I % 4], In[I]);
    WarpsThatSwap += Swaps;
  }
  const json Many = Cas(J["launches"][1]);
  EXPECT_EQ(Many["unknown_cause"], "timing") << Many.dump();
  ASSERT_TRUE(Many["requests"].is_object()) << Many.dump();
  const uint64_t Fewest = Many["requests"]["min"].get<uint64_t>();
  EXPECT_GE(Fewest, WarpsThatSwap);
  EXPECT_LE(Fewest, 4562u);
  EXPECT_NE(Many["unknown_reason"].get<std::string>().find(
                "compare-and-swap retry loop"),
            std::string::npos);
  // The lock: each warp's one lane takes it once at the least.
  const json Lock = Cas(J["launches"][2]);
  EXPECT_EQ(Lock["unknown_cause"], "timing") << Lock.dump();
  EXPECT_EQ(Lock["requests"], json({{"min", 2048}})) << Lock.dump();
  // The GPU made no fewer: explained on the line, not a difference.
  const ToolRun R =
      runTool("--cache-dir " + ::testing::TempDir() + "/gmem-cache-retry " +
              Src + " --compare " + sourceDir() +
              "/tests/data/measured/pcuda/own_cas_retry.json");
  EXPECT_EQ(R.Exit, 0) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("3 launches: 1 match, 2 differ (2 explained, 0 "
                       "unexplained)"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("(d) at least 2048 requests predicted, 8801619 "
                       "instructions measured"),
            std::string::npos)
      << R.Out;
  // Fewer than the fewest is a difference: the lock's line made 2000.
  std::ifstream File(sourceDir() +
                     "/tests/data/measured/pcuda/own_cas_retry.json");
  json Measured = json::parse(File);
  for (json &Line : Measured["launches"][2]["lines"])
    if (Line["line"] == 202)
      Line["inst_executed"] = Line["sectors"] = Line["sectors_ideal"] = 2000;
  const std::string Fewer = ::testing::TempDir() + "/cas_retry_fewer.json";
  std::ofstream(Fewer) << Measured.dump();
  const ToolRun F = runTool("--cache-dir " + ::testing::TempDir() +
                            "/gmem-cache-retry " + Src + " --compare " + Fewer);
  EXPECT_EQ(F.Exit, 1) << F.Out << F.Err;
  EXPECT_NE(F.Out.find("at least 2048 requests predicted, 2000 instructions "
                       "measured, fewer than the fewest"),
            std::string::npos)
      << F.Out;
}

namespace {

// The lane patterns of tests/data/programs/atomics_own/shared_contention.cu
// (words of the element type).
int contentionPick(int P, int Lane) {
  const int Row = 1024;
  switch (P) {
  case 0:
    return Lane;
  case 1:
    return 0;
  case 2:
    return Lane / 2;
  case 3:
    return Lane % 8;
  case 4:
    return Lane < 16 ? 0 : Lane;
  case 5:
    return 2 * Lane;
  case 6:
    return 8 * Lane;
  case 7:
    return (Lane % 2) * Row;
  case 8:
    return (Lane / 16) * Row + Lane % 4;
  case 9:
    return std::min(Lane, 11);
  case 10:
    return Lane % 16;
  case 11:
    return 32 * Lane;
  default:
    return Lane;
  }
}

} // namespace

TEST(SharedAtomics, WavefrontsFollowTheInstructionPtxasChose) {
  // One warp of shared-memory atomics under 13 lane patterns, measured on
  // an H200 (tests/data/measured/atomics_own/shared_contention.json). The
  // rules, worked out here from the lanes' 4-byte words: ATOMS.ADD and
  // .MAX serve each lane on its own, lanes on one word too (the busiest
  // bank's lanes); ATOMS.CAS twice that; ATOMS.POPC.INC (an add of 1 whose
  // result is unused) counts a bank's distinct words, as a store; a float
  // add is a loop of rounds, each a load of the lanes left (its bank's
  // distinct words) and a compare-and-swap of 2 wavefronts, in which the
  // lowest lane of each bank succeeds. The 64-bit add's loop follows a rule
  // not found: unknown.
  const std::string Src =
      sourceDir() + "/tests/data/programs/atomics_own/shared_contention.cu";
  json J = analyzed("shared_contention", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  ASSERT_EQ(J["launches"].size(), 91u) << J["warnings"].dump();
  const auto Atomic = [](const json &L, const char *Op) {
    for (const json &A : L["accesses"])
      if (A["op"] == Op && A["space"] == "shared" &&
          A["text"].get<std::string>().find("atomic") != std::string::npos)
        return A;
    return json();
  };
  for (int P = 0; P < 13; ++P) {
    const int Lanes = P == 12 ? 8 : 32;
    // Per bank: lanes, and distinct words.
    std::map<int, int> LanesOf;
    std::map<int, std::set<int>> WordsOf;
    for (int L = 0; L < Lanes; ++L) {
      ++LanesOf[contentionPick(P, L) % 32];
      WordsOf[contentionPick(P, L) % 32].insert(contentionPick(P, L));
    }
    int BusiestLanes = 0, BusiestWords = 0;
    for (const auto &[Bank, N] : LanesOf)
      BusiestLanes = std::max(BusiestLanes, N);
    for (const auto &[Bank, W] : WordsOf)
      BusiestWords = std::max(BusiestWords, int(W.size()));
    // The float add's rounds.
    uint64_t Rounds = 0, LoadWavefronts = 0;
    for (uint32_t Left = Lanes == 32 ? ~0u : 0xffu; Left; ++Rounds) {
      std::map<int, std::set<int>> Words;
      for (int L = 0; L < 32; ++L)
        if (Left >> L & 1)
          Words[contentionPick(P, L) % 32].insert(contentionPick(P, L));
      size_t Ways = 0;
      for (const auto &[Bank, W] : Words)
        Ways = std::max(Ways, W.size());
      LoadWavefronts += Ways;
      std::set<int> Taken;
      for (int L = 0; L < 32; ++L)
        if (Left >> L & 1 && Taken.insert(contentionPick(P, L) % 32).second)
          Left &= ~(1u << L);
    }
    // Each pattern launches addUsed, addUnused, increment, maxUsed,
    // casUsed, addFloat and addDouble, in that order.
    const auto At = [&](size_t K) -> const json & {
      return J["launches"][size_t(7 * P) + K];
    };
    SCOPED_TRACE("pattern " + std::to_string(P));
    for (const size_t K : {0, 1, 3})
      EXPECT_EQ(Atomic(At(K), "atomic")["wavefronts"], BusiestLanes)
          << At(K).dump();
    EXPECT_EQ(At(2)["kernel"], "increment");
    EXPECT_EQ(Atomic(At(2), "atomic")["wavefronts"], BusiestWords);
    EXPECT_EQ(Atomic(At(4), "atomic")["wavefronts"], 2 * BusiestLanes);
    const json Cas = Atomic(At(5), "atomic"), Load = Atomic(At(5), "load");
    EXPECT_EQ(Cas["requests"], Rounds) << At(5).dump();
    EXPECT_EQ(Cas["wavefronts"], 2 * Rounds);
    EXPECT_EQ(Load["requests"], Rounds);
    EXPECT_EQ(Load["wavefronts"], LoadWavefronts);
    const json Wide = Atomic(At(6), "atomic");
    EXPECT_FALSE(Wide["wavefronts"].is_number()) << Wide.dump();
    EXPECT_NE(Wide.value("unknown_reason", "").find("compare-and-swaps"),
              std::string::npos)
        << Wide.dump();
  }
  // Against the H200: every launch but the 64-bit adds' matches; those are
  // explained by the unknown they carry.
  const ToolRun R =
      runTool("--cache-dir " + ::testing::TempDir() +
              "/gmem-cache-contention " + Src + " --compare " + sourceDir() +
              "/tests/data/measured/atomics_own/shared_contention.json");
  EXPECT_EQ(R.Exit, 0) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("91 launches: 78 match, 13 differ (13 explained, 0 "
                       "unexplained)"),
            std::string::npos)
      << R.Out;
}

TEST(ConcurrentLaunches, LaunchesOfSeveralThreadsAreRecordedAndMeasuredAlone) {
  // Four OpenMP threads each launch one kernel three times on a stream of
  // their own. Every launch is recorded, and each matches what the H200
  // measured with gmem-verify running the measured launch alone
  // (tests/data/measured/pcuda/own_concurrent.json): 8192 blocks of 8
  // warps reading x at a stride of 3 floats, 12 sectors per load request.
  const std::string Src =
      sourceDir() + "/tests/data/programs/concurrent_own/concurrent.cu";
  const std::string Flags = "-Xcompiler -fopenmp";
  json J = analyzed("concurrent", Src, 0, nullptr, Flags);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  // Repeats of one launch in a row are reported once with their count.
  unsigned Launches = 0;
  for (const json &L : J["launches"])
    Launches += L["count"].get<unsigned>();
  EXPECT_EQ(Launches, 12u) << J["warnings"].dump();
  for (const json &L : J["launches"])
    for (const json &A : L["accesses"])
      if (A["text"].get<std::string>().find("x[") != std::string::npos) {
        EXPECT_EQ(A["requests"], 8192 * 8);
        EXPECT_EQ(A["sectors"], 8192 * 8 * 12);
      }
  const ToolRun R =
      runTool("--cache-dir " + ::testing::TempDir() +
              "/gmem-cache-concurrent " + Src + " --compare " + sourceDir() +
              "/tests/data/measured/pcuda/own_concurrent.json -- " + Flags);
  EXPECT_EQ(R.Exit, 0) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("12 launches: 12 match, 0 differ"), std::string::npos)
      << R.Out;
}

TEST(ReferenceRun, WhereTheModelDiffersFromTheRunTheRunIsKept) {
  // An LU step on a shared tile (Rodinia's lud_diagonal): the source loads
  // and stores s[t][i] on every j, nvcc keeps it in a register for the j
  // loop, and the kernel model, complete, counts 270 shared load
  // instructions and 564 wavefronts. The program reads its result, so the
  // recording ran the launch on its PTX: 278 and 588, what the H200
  // measured (tests/data/measured/rodinia2/own_running_sums.json). That
  // run is the reference: the report keeps its figures and says why.
  const std::string Src =
      sourceDir() + "/tests/data/programs/rodinia_own/running_sums.cu";
  json J = analyzed("running_sums", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  ASSERT_EQ(J["launches"].size(), 1u) << J["warnings"].dump();
  const json &L = J["launches"][0];
  EXPECT_EQ(L["path"], "executed");
  EXPECT_NE(L["path_why"].get<std::string>().find("differ"), std::string::npos)
      << L["path_why"];
  EXPECT_EQ(L["metrics"]["smsp__sass_inst_executed_op_shared_ld.sum"], 278);
  EXPECT_EQ(
      L["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"],
      588);
  EXPECT_EQ(L["metrics"]["smsp__sass_inst_executed_op_shared_st.sum"], 136);
  EXPECT_EQ(
      L["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"],
      388);
  // The model alone keeps its own figures.
  json M = analyzed("running_sums_model", Src + " --path model");
  ASSERT_EQ(M["launches"].size(), 1u);
  EXPECT_EQ(M["launches"][0]["path"], "model");
  EXPECT_EQ(
      M["launches"][0]["metrics"]["smsp__sass_inst_executed_op_shared_ld.sum"],
      270);
}

TEST(GenericAccesses, LanesArePricedWhereTheirAddressesLie) {
  // `t < 8 ? warp[t] : zero` by reference: nvcc loads both fields through
  // a generic address selected between shared and local memory. Per block
  // warp 0's first 8 lanes read shared memory (2 requests of 1 wavefront)
  // and warps 1 to 7 their own local zero (14 executions with no
  // request): 128 shared requests and 896 such executions for 64 blocks,
  // as the H200 counted (tests/data/measured/hecbench3,
  // own_shared_or_local.json: 1536 instructions on the line with its 512
  // stores, 128 wavefronts; HeCBench's rowwiseMoments had its 640 shared
  // wavefronts predicted as global sectors).
  const std::string Src =
      sourceDir() + "/tests/data/programs/hecbench2_own/shared_or_local.cu";
  json J = analyzed("shared_or_local", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  ASSERT_EQ(J["launches"].size(), 1u) << J["warnings"].dump();
  const json &L = J["launches"][0];
  int SharedLoads = 0, SharedWaves = 0, Local = 0, GlobalAtLine = 0;
  for (const json &A : L["accesses"]) {
    if (A["line"] != 25 || A["op"] != "load")
      continue;
    if (A["space"] == "shared") {
      SharedLoads += A["requests"].get<int>();
      SharedWaves += A["wavefronts"].get<int>();
    } else {
      GlobalAtLine += A["requests"].get<int>();
    }
    Local += A.value("local_executions", 0);
  }
  EXPECT_EQ(SharedLoads, 128) << L["accesses"].dump();
  EXPECT_EQ(SharedWaves, 128);
  EXPECT_EQ(GlobalAtLine, 0);
  EXPECT_EQ(Local, 896);
  EXPECT_EQ(L["metrics"]["smsp__sass_inst_executed_op_shared_ld.sum"], 128);
  // The shared lanes' 4096 bytes count among the global load bytes too,
  // and each execution's one local address (4 bytes, 1024 executions) in
  // both: 65536 + 8192 bytes in 2048 sectors, 4096 + 8192 bytes in 640
  // wavefronts, as the H200 counted (tests/data/measured/hecbench3,
  // own_shared_or_local.json: 112.5 % and 15 %).
  EXPECT_EQ(L["metrics"]["smsp__sass_average_data_bytes_per_sector_mem_"
                         "global_op_ld.pct"],
            112.5);
  EXPECT_EQ(L["metrics"]["shared_efficiency"], 15.0);
}

TEST(CompiledForms, ALoadItsLoopStoresBackIsMadeOnce) {
  // d[i] += s[i + k] for 64 k: nothing else the loop stores may write
  // d[i], so nvcc loads it once before the loop and keeps it in a register,
  // storing it every iteration (the s loads may alias d: the stores stay).
  // 16 warps: 16 loads of d, 16 x 64 of s, 16 x 64 stores. The same
  // transformation in HeCBench's interleave, measured on the H200
  // (tests/data/measured/hecbench2): 4097 loads a thread of a 4096-trip
  // loop, where the source has 8192.
  std::string Src = writeTemp("promoted.cu", R"(
__global__ void accumulate(int *d, const int *s) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 64; k++)
    d[i] += s[i + k];
}
int main() {
  int *d, *s;
  cudaMalloc(&d, 512 * sizeof(int));
  cudaMalloc(&s, 576 * sizeof(int));
  cudaMemset(d, 0, 512 * sizeof(int));
  cudaMemset(s, 0, 576 * sizeof(int));
  accumulate<<<4, 128>>>(d, s);
  return cudaDeviceSynchronize() != cudaSuccess;
}
)");
  json J = analyzed("promoted", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  ASSERT_EQ(J["launches"].size(), 1u) << J["warnings"].dump();
  const json &L = J["launches"][0];
  EXPECT_EQ(L["path"], "model");
  EXPECT_EQ(L["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"],
            16 + 16 * 64);
  EXPECT_EQ(L["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"],
            16 * 64);
}

TEST(CompiledForms, AValueStoredAcrossABarrierIsLoadedEveryIteration) {
  // One thread carries a seed from each window to the next through shared
  // memory and every thread reads it after __syncthreads(), as SHOC's Scan
  // does: the loop stores the seed's bytes, but across the barrier another
  // thread's store may be the one read, so ptxas loads it in every
  // iteration (the unroll pragma makes it peel one, whose LDS lies before
  // the loop). 2 blocks of 4 warps, 32 iterations each: 256 loads, each a
  // broadcast of one word. On the H200, Scan's bottom_scan executed 2048
  // such loads in 512 warps of 4 windows (tests/data/measured/shoc).
  std::string Src = writeTemp("seed_across_barrier.cu", R"(
template <int Threads>
__global__ void runningSum(const float *in, float *out, int n) {
  __shared__ float seed;
  if (threadIdx.x == 0)
    seed = 0;
  __syncthreads();
#pragma unroll 2
  for (int base = threadIdx.x; base < n; base += Threads) {
    const float v = in[base] + seed;
    out[base] = v;
    __syncthreads();
    if (threadIdx.x == Threads - 1)
      seed = v;
    __syncthreads();
  }
}
int main() {
  float *in, *out;
  cudaMalloc(&in, 4096 * sizeof(float));
  cudaMalloc(&out, 4096 * sizeof(float));
  cudaMemset(in, 0, 4096 * sizeof(float));
  runningSum<128><<<2, 128>>>(in, out, 4096);
  return cudaDeviceSynchronize() != cudaSuccess;
}
)");
  json J = analyzed("seed_across_barrier", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  ASSERT_EQ(J["launches"].size(), 1u) << J["warnings"].dump();
  const json &L = J["launches"][0];
  EXPECT_EQ(L["path"], "model");
  EXPECT_EQ(L["metrics"]["smsp__sass_inst_executed_op_shared_ld.sum"], 256);
  EXPECT_EQ(
      L["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"],
      256);
}

TEST(BuildEdges, OpenMpHostCodeBuildsWithTheHostCompilersOpenMp) {
  std::string Src = writeTemp("omp.cu", R"(#include <omp.h>
#include <cstdio>
__global__ void copy(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
int main() {
  omp_set_num_threads(2);
  float *in, *out;
  cudaMalloc(&in, 4096 * sizeof(float));
  cudaMalloc(&out, 4096 * sizeof(float));
  int threads = 0;
#pragma omp parallel
  {
#pragma omp atomic
    threads++;
  }
  std::printf("%d threads\n", threads);
  copy<<<16, 256>>>(in, out);
  return 0;
}
)");
  json J = analyzed("omp", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["launches"], "recorded")
      << J["compiler"].value("launches_why", "");
  ASSERT_EQ(J["launches"].size(), 1u);
  EXPECT_NE(notes(J).find("OpenMP"), std::string::npos) << notes(J);
}

TEST(BuildEdges, CublasIsLinkedWithoutFlagsAndNamed) {
  std::string Src = writeTemp("blas.cu", R"(#include <cublas_v2.h>
__global__ void zero(float *a) { a[blockIdx.x * 64 + threadIdx.x] = 0; }
int main() {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 1;
  float *a;
  cudaMalloc(&a, 64 * 64 * sizeof(float));
  zero<<<64, 64>>>(a);
  float one = 1;
  cublasSscal(h, 64 * 64, &one, a, 1);
  return 0;
}
)");
  json J = analyzed("blas", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["launches"], "recorded")
      << J["compiler"].value("launches_why", "");
  ASSERT_EQ(J["launches"].size(), 1u);
  EXPECT_NE(notes(J).find("the program calls libcublas: linked with gmem's "
                          "stand-in"),
            std::string::npos)
      << notes(J);
  EXPECT_EQ(notes(J).find("libcublasLt"), std::string::npos) << notes(J);
  EXPECT_NE(J["warnings"].dump().find("cublasSscal"), std::string::npos);
}

TEST(BuildEdges, AReallocatedBufferKnowsWhatWasCopiedIntoIt) {
  // Each configuration frees and allocates its buffers again; the gather's
  // indices are copied in just before each launch, so its addresses are
  // known every time: 32 lanes reading 32 consecutive floats (4 sectors).
  std::string Src = writeTemp("realloc.cu", R"(#include <vector>
__global__ void gather(const float *in, const int *idx, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i]];
}
int main() {
  for (int n = 1024; n <= 4096; n *= 2) {
    float *in, *out;
    int *idx;
    cudaMalloc(&in, n * sizeof(float));
    cudaMalloc(&idx, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(float));
    std::vector<int> h(n);
    for (int i = 0; i < n; ++i) h[i] = n - 1 - i;
    cudaMemcpy(idx, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    gather<<<n / 256, 256>>>(in, idx, out);
    cudaFree(in);
    cudaFree(idx);
    cudaFree(out);
  }
  return 0;
}
)");
  json J = analyzed("realloc", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  ASSERT_EQ(J["launches"].size(), 3u);
  for (const json &L : J["launches"]) {
    EXPECT_EQ(L["metrics"]["gld_transactions_per_request"], 4.0)
        << L["metrics"].dump() << J["warnings"].dump();
  }
  EXPECT_EQ(J["warnings"].dump().find("not known"), std::string::npos)
      << J["warnings"].dump();
}

TEST(BuildEdges, LaunchesOfARunThatStopsAtAFailedCheckAreKept) {
  // The result check fails (kernels do not run under recording) after the
  // first launch; the host code then reads a struct member gmem does not
  // follow. The recorded launch is reported, with how the run stopped.
  std::string Src = writeTemp("check.cu", R"(#include <cstdio>
#include <cstdlib>
#include <cstring>
struct Header { int width, height; };
__global__ void twice(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2 * in[i];
}
int main(int argc, char **argv) {
  Header header;
  std::memset(&header, 0, sizeof header);
  header.width = argc > 1 ? std::atoi(argv[1]) : 512;
  header.height = header.width / 2;
  int n = header.width * header.height;
  int *in, *out, *h = (int *)std::malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i) h[i] = i;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice);
  twice<<<n / 256, 256>>>(in, out);
  cudaMemcpy(h, out, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i)
    if (h[i] != 2 * i) {
      std::printf("INCORRECT at %d: FAIL\n", i);
      return 1;
    }
  twice<<<n / 128, 128>>>(out, in);
  return 0;
}
)");
  // Without running the kernels (--exec-budget 0) the check fails: the
  // recorded launch stays and the host code's later ones are added.
  ToolRun R;
  json J = analyzed("check", Src + " --run-args 256 --exec-budget 0", 0, &R);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["launches"], "recorded");
  ASSERT_GE(J["launches"].size(), 1u) << R.Err;
  // 256 * 128 / 256 blocks, as the run made them.
  EXPECT_EQ(J["launches"][0]["grid"], json({128, 1, 1}));
  EXPECT_FALSE(J["launches"][0].contains("origin"));
  EXPECT_NE(J["warnings"].dump().find("the recorded run stopped after 1 "
                                      "launches (the program exited with 1)"),
            std::string::npos)
      << J["warnings"].dump();
  // Whatever reading the host code added is marked as read.
  for (size_t I = 1; I < J["launches"].size(); ++I)
    EXPECT_EQ(J["launches"][I]["origin"], "interpreted");

  // Running them (the default), the check passes as on a GPU and the run
  // makes its second launch itself.
  J = analyzed("check", Src + " --run-args 256", 0, &R);
  ASSERT_EQ(J["launches"].size(), 2u) << R.Err;
  for (const json &L : J["launches"])
    EXPECT_FALSE(L.contains("origin")) << L.dump();
  EXPECT_EQ(J["launches"][1]["grid"], json({256, 1, 1}));
  EXPECT_EQ(J["warnings"].dump().find("stopped"), std::string::npos)
      << J["warnings"].dump();
}

TEST(BuildEdges, AProgramWhoseEveryLaunchIsRefusedSaysSo) {
  // A block of 1024 x 2 threads: cudaErrorInvalidConfiguration on a GPU
  // (the CUDA runtime's limit is 1024 threads a block), so there is
  // nothing to predict. The error says so instead of asking how the
  // kernel is launched.
  std::string Src = writeTemp("refused.cu", R"(#include <cstdio>
__global__ void add(const int *a, int *b, int nx) {
  int i = blockIdx.y * blockDim.y * nx + blockIdx.x * blockDim.x + threadIdx.x;
  b[i] += a[i];
}
int main() {
  int nx = 8192, *a, *b;
  cudaMalloc(&a, nx * 16 * sizeof(int));
  cudaMalloc(&b, nx * 16 * sizeof(int));
  dim3 block(1024, 2), grid(nx / 1024, 8);
  add<<<grid, block>>>(a, b, nx);
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
)");
  const std::string Cache = ::testing::TempDir() + "/gmem-cache-edges-refused";
  std::filesystem::remove_all(Cache);
  ToolRun R = runTool(Src + " --cache-dir " + Cache);
  if (R.Err.find("launches recorded from a run") == std::string::npos)
    GTEST_SKIP() << "not recorded: " << R.Err;
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_NE(R.Err.find("the CUDA runtime refused every launch the program "
                       "made (1, each named in a note)"),
            std::string::npos)
      << R.Err;
  EXPECT_NE(R.Err.find("cudaErrorInvalidConfiguration"), std::string::npos)
      << R.Err;
  EXPECT_EQ(R.Err.find("is not launched from main()"), std::string::npos)
      << R.Err;
}

TEST(BuildEdges, AProgramThatLaunchesNoKernelOfItsOwnHasNothingToAnalyze) {
  // Thrust's basic_vector example only fills and copies vectors, which
  // instantiates CUB's EmptyKernel from a header and launches nothing: the
  // run is the answer (no launch, exit 0), not a request for --grid and
  // --block. A kernel of the file itself, not launched, still asks.
  writeTemp("lib_kernel.cuh",
            "__global__ void libKernel(int *p) { *p = 0; }\n");
  std::string Src = writeTemp("lib_only.cu", R"(#include "lib_kernel.cuh"
#include <cstdio>
int main() {
  int *p;
  cudaMalloc(&p, sizeof(int));
  std::printf("allocated\n");
  return 0;
}
)");
  ToolRun R;
  json J = analyzed("lib_only", Src, 0, &R);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["launches"].size(), 0u) << R.Err;
  EXPECT_NE(J["warnings"].dump().find("launched no kernel"), std::string::npos)
      << J["warnings"].dump();
  std::string Own = writeTemp("own_unlaunched.cu", R"(
__global__ void mine(int *p) { *p = 0; }
int main() { return 0; }
)");
  const std::string Cache =
      ::testing::TempDir() + "/gmem-cache-edges-own-unlaunched";
  std::filesystem::remove_all(Cache);
  R = runTool(Own + " --cache-dir " + Cache);
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_NE(R.Err.find("mine is not launched from main()"), std::string::npos)
      << R.Err;
}

TEST(BuildEdges, ClusterGroupsParseAsNvccSeesThem) {
  // CUDA 13 declares cooperative_groups::cluster_group only under
  // __NVCC__ (or _CG_CLUSTER_INTRINSICS_AVAILABLE).
  std::string Src = writeTemp("cluster.cu", R"(#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void __cluster_dims__(2, 1, 1) ranks(unsigned *out) {
  cg::cluster_group c = cg::this_cluster();
  out[blockIdx.x * blockDim.x + threadIdx.x] = c.block_rank();
}
int main() {
  unsigned *out;
  cudaMalloc(&out, 4 * 64 * sizeof(unsigned));
  ranks<<<4, 64>>>(out);
  return 0;
}
)");
  json J = analyzed("cluster", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  ASSERT_EQ(J["launches"].size(), 1u);
  EXPECT_EQ(J["launches"][0]["metrics"]["gst_transactions_per_request"], 4.0);
}

} // namespace

namespace {

TEST(BuildEdges, TheMatcherPlacesLeftOverInstructionsOfSeveralClasses) {
  // tests/data/programs/tree_scan.cu: accesses of two classes whose lines
  // have no instruction, each with left-over instructions elsewhere. The
  // matcher read an instruction it had already placed and crashed (exit
  // 139) on this program as nvcc 13 compiles it.
  ToolRun R = runTool("tests/data/programs/tree_scan.cu --emit-model");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  json J = json::parse(R.Out);
  ASSERT_EQ(J["kernels"].size(), 1u);
  if (J["compiler"]["used"] != "nvcc")
    GTEST_SKIP() << "no nvcc: the matcher did not run";
  // Every access got a compiled form.
  for (const json &A : J["kernels"][0]["accesses"])
    EXPECT_TRUE(A.contains("compiled")) << A.dump();
}

} // namespace

TEST(DeviceRuntime, HeapPlacementsAreBoundedAndPrintfKeepsItsEfficiencies) {
  // tests/data/programs/runtime_own/device_runtime.cu, measured on the H200
  // (tests/data/measured/runtime_own/device_runtime.json).
  const std::string Src =
      sourceDir() + "/tests/data/programs/runtime_own/device_runtime.cu";
  json J = analyzed("device_runtime", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["program_exit"], 0);
  ASSERT_EQ(J["launches"].size(), 4u) << J["warnings"].dump();
  auto Access = [&](int Launch, int Line, const char *Op) {
    for (const json &A : J["launches"][Launch]["accesses"])
      if (A["line"] == Line && A["op"] == Op && A["space"] == "global")
        return A;
    ADD_FAILURE() << Launch << " " << Line << " " << Op;
    return json::object();
  };
  // printEvery: printf's own requests are the driver's code, which L1's
  // counters see and the efficiencies' SASS counters do not. Loads at a
  // stride of two floats use half of each sector, stores all of it (the
  // H200: 50 % and 100 %, with 4096 load requests for 128 load
  // instructions).
  const json &Print = J["launches"][0];
  EXPECT_EQ(Print["metrics"]["gld_efficiency"], 50.0);
  EXPECT_EQ(Print["metrics"]["gst_efficiency"], 100.0);
  EXPECT_TRUE(Print["metrics"]["gld_transactions_per_request"].is_null());
  EXPECT_EQ(Print["metric_bounds"]["gld_transactions_per_request"]
                 ["excludes_runtime_requests"],
            true);
  // heapRows: each lane's 20-byte row is an allocation of its own, on 16
  // bytes after the one before ends, so 32 bytes at least from any other
  // lane's same element: 32 sectors a request wherever they lie (the H200:
  // 20480 on each of lines 33 and 36 for 640 requests).
  EXPECT_EQ(Access(1, 33, "store")["sectors"], 20480);
  EXPECT_EQ(Access(1, 36, "load")["sectors"], 20480);
  // heapBlockBuffer: a block's 256 floats are one allocation, 16-byte
  // aligned: a warp's 128 bytes take 4 sectors or 5 by where it lies.
  for (auto [Line, Op] : {std::pair(53, "store"), std::pair(56, "load")}) {
    const json A = Access(2, Line, Op);
    EXPECT_EQ(A["requests"], 128);
    EXPECT_EQ(A["sectors"], json({{"min", 512}, {"max", 640}})) << A.dump();
    EXPECT_NE(A["unknown_reason"].get<std::string>().find("device-heap"),
              std::string::npos);
  }
  // heapList: one lane a request: 1 sector wherever the node lies.
  EXPECT_EQ(Access(3, 80, "load")["sectors"], 100);
  // Compared with what the H200 measured without kernel replay
  // (gmem-verify --no-replay): the heap kernels' efficiencies (22.22 % and
  // 14.63 % for heapRows), heapBlockBuffer's shared efficiency, whose
  // generic global requests' bytes count among the shared ones (184.03 %),
  // and its lines within their bounds (the H200 placed the block on 32
  // bytes).
  const std::string Measured =
      sourceDir() + "/tests/data/measured/runtime_own/device_runtime.json";
  const std::string Cache =
      "--cache-dir " + ::testing::TempDir() + "/gmem-cache-runtime ";
  const ToolRun R = runTool(Cache + Src + " --compare " + Measured);
  EXPECT_EQ(R.Exit, 0) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("4 launches: 0 match, 4 differ (4 explained, 0 "
                       "unexplained)"),
            std::string::npos)
      << R.Out;
  for (const char *Row :
       {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct       "
        "22.2222      22.2222            0  match",
        "shared_efficiency                                                  "
        "184.0278     184.0278            0  match",
        "(c) 256 instructions and 1024 to 1152 sectors predicted, 256 and "
        "1024 measured"})
    EXPECT_NE(R.Out.find(Row), std::string::npos) << Row << "\n" << R.Out;
  EXPECT_EQ(R.Out.find("(g) "), std::string::npos) << R.Out;
  // With kernel replay (gmem-verify's default), heapRows got no memory
  // from malloc (0 load instructions): the heap kernels' totals are set
  // aside, their lines compared.
  const ToolRun Replayed =
      runTool(Cache + Src + " --compare " + sourceDir() +
              "/tests/data/measured/runtime_own/device_runtime_replayed.json");
  EXPECT_EQ(Replayed.Exit, 0) << Replayed.Out << Replayed.Err;
  EXPECT_NE(Replayed.Out.find("(g) the kernel uses the device heap"),
            std::string::npos)
      << Replayed.Out;
  // A line outside its bounds is a difference.
  std::ifstream File(Measured);
  json Edited = json::parse(File);
  for (json &Line : Edited["launches"][2]["lines"])
    if (Line["line"] == 53)
      Line["sectors"] = 1200;
  const std::string Outside = ::testing::TempDir() + "/runtime_outside.json";
  std::ofstream(Outside) << Edited.dump();
  const ToolRun F = runTool(Cache + Src + " --compare " + Outside);
  EXPECT_EQ(F.Exit, 1) << F.Out << F.Err;
  EXPECT_NE(F.Out.find("1024 to 1152 sectors predicted, 256 and 1200 "
                       "measured, outside what the bounds allow"),
            std::string::npos)
      << F.Out;
}

TEST(DeviceRuntime, VirtualCallsOnHeapObjectsRunTheirOverrides) {
  // tests/data/programs/runtime_own/virtual_heap.cu: objects made with new
  // in one kernel, their virtual apply called in the next (a vtable's
  // entries are functions' addresses; a warp's lanes may call different
  // overrides), and a block from __nv_aligned_device_malloc. Measured on
  // the H200 without kernel replay (tests/data/measured/runtime_own/
  // virtual_heap.json).
  const std::string Src =
      sourceDir() + "/tests/data/programs/runtime_own/virtual_heap.cu";
  json J = analyzed("virtual_heap", Src);
  if (!canRecord(J))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["program_exit"], 0) << J["warnings"].dump();
  ASSERT_EQ(J["launches"].size(), 4u) << J["warnings"].dump();
  std::map<std::pair<int, int>, std::pair<int, int>> Lines; // Launch, line.
  for (int L = 0; L < 4; ++L)
    for (const json &A : J["launches"][L]["accesses"])
      if (A["space"] == "global" && A["sectors"].is_number()) {
        auto &[Requests, Sectors] = Lines[{L, A["line"].get<int>()}];
        Requests += A["requests"].get<int>();
        Sectors += A["sectors"].get<int>();
      }
  // applyOps: 8 blocks of 8 warps call Scale::apply (this->f, one sector,
  // and in[i], 4), 8 call PairSum::apply (in[2 i] and in[2 i + 1], 8
  // each), all load their object's vtable and its entry.
  EXPECT_EQ(Lines[std::make_pair(1, 19)], std::make_pair(128, 64 * 5));
  EXPECT_EQ(Lines[std::make_pair(1, 26)], std::make_pair(128, 128 * 8));
  // alignedBuffer: a block of 256 floats on 128 bytes: 4 sectors a warp,
  // wherever the allocator puts it.
  EXPECT_EQ(Lines[std::make_pair(3, 61)], std::make_pair(256, 1024));
  const ToolRun R =
      runTool("--cache-dir " + ::testing::TempDir() + "/gmem-cache-virtual " +
              Src + " --compare " + sourceDir() +
              "/tests/data/measured/runtime_own/virtual_heap.json");
  EXPECT_EQ(R.Exit, 0) << R.Out << R.Err;
  EXPECT_NE(R.Out.find("4 launches: 0 match, 4 differ (4 explained, 0 "
                       "unexplained)"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("virtual_heap.cu:41        384           384  768 / "
                       "768              0 / 0                   match"),
            std::string::npos)
      << R.Out;
}
