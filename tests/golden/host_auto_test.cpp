//===- host_auto_test.cpp - --host auto: record when nvcc builds ----------===//
//
// The default records a program that nvcc builds and runs (every launch as
// the program made it, with its line from the binary's line table, and the
// SASS from that same build), and reads the host code otherwise, saying
// why in the JSON. Needs nvcc and gmem's recording runtime; skipped where
// the build has none.
//
//===----------------------------------------------------------------------===//
#include "analysis.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

using namespace gmem::test;
using nlohmann::json;

namespace {

/// A fresh cache, so that the build happens in this test.
std::string freshCache(const std::string &Name) {
  std::string Dir = ::testing::TempDir() + "/gmem-cache-" + Name;
  std::filesystem::remove_all(Dir);
  return Dir;
}

bool canRecord(const json &Compiler) {
  const std::string Why = Compiler.value("launches_why", "");
  return Why.find("no recording runtime") == std::string::npos &&
         Why.find("recording needs nvcc") == std::string::npos;
}

// The launch goes through a variadic template with std::forward (as llm.c's
// benchmark_kernel does) and its grid comes from a std::vector's size: the
// host code runs for real, so both are what the program used.
const char *Forwarded = R"(#include <utility>
#include <vector>
__global__ void scale(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2.0f;
}
template <class Kernel, class... Args>
void launch(Kernel k, int blocks, Args &&...args) {
  k<<<blocks, 128>>>(std::forward<Args>(args)...);
}
int main() {
  std::vector<int> sizes = {1000, 3000};
  float *a;
  cudaMalloc(&a, 3000 * sizeof(float));
  for (int n : sizes)
    launch(scale, (n + 127) / 128, a, n);
  cudaDeviceSynchronize();
  return 0;
}
)";

TEST(HostAuto, RecordsWhenNvccBuildsTheProgram) {
  std::string Src = writeTemp("forwarded.cu", Forwarded);
  std::string Cache = freshCache("forwarded");
  ToolRun R = runTool(Src + " --format json --cache-dir " + Cache);
  ASSERT_EQ(R.Exit, 0) << R.Err;
  json J = json::parse(R.Out);
  if (!canRecord(J["compiler"]))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["launches"], "recorded");
  EXPECT_FALSE(J["compiler"].contains("launches_why"));
  ASSERT_EQ(J["launches"].size(), 2u) << R.Out;
  // ceil(1000 / 128) = 8 and ceil(3000 / 128) = 24 blocks, both launched
  // by the <<<>>> inside the template: line 9 from the binary's line table,
  // column 4 (its <<<) from the parsed source.
  EXPECT_EQ(J["launches"][0]["grid"], json({8, 1, 1}));
  EXPECT_EQ(J["launches"][1]["grid"], json({24, 1, 1}));
  for (const json &L : J["launches"]) {
    EXPECT_EQ(L["loc"]["line"], 9) << L["loc"].dump();
    EXPECT_EQ(L["loc"]["col"], 4) << L["loc"].dump();
  }
  // The SASS came from the binary that was run: the cache holds the
  // program and its disassembly, and no separate compile of the file.
  EXPECT_TRUE(std::filesystem::exists(Cache + "/bin"));
  EXPECT_FALSE(std::filesystem::exists(Cache + "/sass")) << Cache;
  EXPECT_EQ(J["compiler"]["used"], "nvcc");
  EXPECT_EQ(J["compiler"]["merging_checked"], true);
}

TEST(HostAuto, InterpretsWithTheReasonWhenNvccCannotLink) {
  // helper() is declared and never defined: the link fails, while the
  // branch that calls it is never taken, so reading the host code works.
  std::string Src = writeTemp("unlinked.cu", R"(void helper();
__global__ void fill(int *a) { a[threadIdx.x] = 1; }
int main(int argc, char **) {
  int *a;
  cudaMalloc(&a, 256 * sizeof(int));
  if (argc > 5)
    helper();
  fill<<<1, 256>>>(a);
  return 0;
}
)");
  ToolRun R = runTool(Src + " --format json --cache-dir " + freshCache("u"));
  ASSERT_EQ(R.Exit, 0) << R.Err;
  json J = json::parse(R.Out);
  if (!canRecord(J["compiler"]))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["launches"], "interpreted");
  const std::string Why = J["compiler"]["launches_why"];
  EXPECT_NE(Why.find("nvcc could not build the program"), std::string::npos)
      << Why;
  EXPECT_NE(Why.find("helper"), std::string::npos) << Why;
  ASSERT_EQ(J["launches"].size(), 1u);
  EXPECT_EQ(J["launches"][0]["loc"]["line"], 8);
  EXPECT_NE(J["warnings"].dump().find("the program was not recorded"),
            std::string::npos)
      << J["warnings"].dump();
  // --host record makes the same failure an error with nvcc's words.
  ToolRun Rec = runTool(Src + " --host record");
  EXPECT_EQ(Rec.Exit, 2);
  EXPECT_NE(Rec.Err.find("error: --host record: nvcc could not build"),
            std::string::npos)
      << Rec.Err;
}

TEST(HostAuto, LaunchValuesGivenOnTheCommandLineAreInterpreted) {
  // --block is a launch the program does not make; the host code derives
  // the grid from it: ceil(4096 / 16) = 256 blocks per side.
  ToolRun R = runTool("examples/transpose.cu --block 16,16 --kernel "
                      "naiveGmem --format json");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  json J = json::parse(R.Out);
  EXPECT_EQ(J["compiler"]["launches"], "interpreted");
  EXPECT_NE(J["compiler"]["launches_why"].get<std::string>().find("--block"),
            std::string::npos);
  EXPECT_EQ(J["launches"][0]["grid"], json({256, 256, 1}));
}

TEST(HostAuto, AFileWithoutMainIsInterpreted) {
  std::string Src = writeTemp("nomain.cu", "__global__ void k(float *a) {\n"
                                           "  a[threadIdx.x] = 0;\n}\n");
  ToolRun R = runTool(Src + " --grid 1 --block 64 --format json");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  json J = json::parse(R.Out);
  EXPECT_EQ(J["compiler"]["launches"], "interpreted");
  // The launch values come from the command line in any case; what
  // decided it first is that nothing could be run.
  EXPECT_EQ(J["compiler"]["launches_why"], "no file defines main()");
}

TEST(HostAuto, ACrashAfterLaunchesReportsThemThenExitsTwo) {
  std::string Src = writeTemp("crash.cu", R"(#include <csignal>
__global__ void k(int *a) { a[threadIdx.x] = 1; }
int main() {
  int *d;
  cudaMalloc(&d, 1024);
  k<<<1, 64>>>(d);
  std::raise(SIGSEGV);
  k<<<2, 64>>>(d);
}
)");
  ToolRun R = runTool(Src + " --format json");
  json J = json::parse(R.Out, nullptr, false);
  ASSERT_FALSE(J.is_discarded()) << R.Out << R.Err;
  if (!canRecord(J["compiler"]))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(R.Exit, 2);
  // The recorded launch, then the one reading the host code finds after
  // the crash, marked as read.
  ASSERT_EQ(J["launches"].size(), 2u);
  EXPECT_EQ(J["launches"][0]["grid"], json({1, 1, 1}));
  EXPECT_FALSE(J["launches"][0].contains("origin"));
  EXPECT_EQ(J["launches"][1]["grid"], json({2, 1, 1}));
  EXPECT_EQ(J["launches"][1]["origin"], "interpreted");
  EXPECT_NE(J["compiler"]["host_stopped"].get<std::string>().find(
                "was killed (Segmentation fault) at " + Src +
                ":7 after 1 launches"),
            std::string::npos)
      << J["compiler"]["host_stopped"];
  EXPECT_NE(R.Err.find("error: the program was killed"), std::string::npos)
      << R.Err;
}

} // namespace

namespace {

TEST(HostAuto, AFailedResultCheckKeepsTheRecordedLaunchAndAddsTheRest) {
  // texture_reads.cu checks texScale's output, which no kernel computes
  // when recording runs none (--exec-budget 0), and exits 1 after the first
  // of its two launches: that launch stays as recorded, and the second
  // comes from the host code.
  ToolRun R =
      runTool("examples/texture_reads.cu --exec-budget 0 --format json");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  json J = json::parse(R.Out);
  if (!canRecord(J["compiler"]))
    GTEST_SKIP() << J["compiler"].dump();
  EXPECT_EQ(J["compiler"]["launches"], "recorded");
  EXPECT_NE(J["warnings"].dump().find(
                "the recorded run stopped after 1 launches (the program "
                "exited with 1); reading the host code found 2: the 1 after "
                "them are reported as read"),
            std::string::npos)
      << J["warnings"].dump();
  ASSERT_EQ(J["launches"].size(), 2u);
  EXPECT_FALSE(J["launches"][0].contains("origin"));
  EXPECT_EQ(J["launches"][1]["kernel"], "surfStore");
  EXPECT_EQ(J["launches"][1]["origin"], "interpreted");
}

} // namespace
