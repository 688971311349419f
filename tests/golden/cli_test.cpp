//===- cli_test.cpp - gmem-analyze as a user runs it ----------------------===//
#include "analysis.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

using namespace gmem::test;

namespace {

// transpose.cu checks each kernel's result, so a plain run executes its
// kernels (5 s of CPU); where a test is about options and views, not about
// what the kernels compute, they need not run.
ToolRun runQuick(const std::string &Args) {
  return runTool(Args + " --exec-budget 0");
}

TEST(Cli, TransposeWithTheSeedsBlock) {
  ToolRun R = runTool("examples/transpose.cu --block 32,16");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_NE(R.Out.find("naiveGmem<<<(128,256,1), (32,16,1)>>>"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("gld_transactions_per_request"), std::string::npos);
  EXPECT_NE(R.Out.find("transposeSmemUnrollPad<<<(64,256,1), (32,16,1)>>>"),
            std::string::npos);
}

TEST(Cli, VersionNamesTheReleaseAndItsClang) {
  ToolRun R = runTool("--version");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  // The project's version (CMakeLists.txt) and the Clang the tool was built
  // against, 19 (README: parsing CUDA with Clang 19).
  EXPECT_EQ(R.Out.rfind("gmem-analyze 0.1.0 (Clang 19.", 0), 0u) << R.Out;
  EXPECT_NE(R.Out.find(", recording runtime for CUDA "), std::string::npos);
  EXPECT_TRUE(R.Err.empty()) << R.Err;
}

TEST(Cli, GmemVerifyAnswersVersion) {
#ifdef GMEM_VERIFY_EXE
  // Before: "unknown option '--version'", exit 2.
  std::string Out;
  if (FILE *P = popen(GMEM_VERIFY_EXE " --version 2>&1", "r")) {
    char B[256];
    while (fgets(B, sizeof B, P))
      Out += B;
    EXPECT_EQ(pclose(P), 0) << Out;
  }
  EXPECT_EQ(Out.rfind("gmem-verify 0.1.0 (CUPTI of CUDA ", 0), 0u) << Out;
#else
  GTEST_SKIP() << "gmem-verify is built only where CUDA has CUPTI";
#endif
}

/// The kernels of the launch headers in a text report, in order.
std::vector<std::string> launchedKernels(const std::string &Out) {
  std::vector<std::string> Names;
  size_t Pos = 0;
  while ((Pos = Out.find("<<<(", Pos)) != std::string::npos) {
    size_t Start = Out.rfind('\n', Pos);
    Start = Start == std::string::npos ? 0 : Start + 1;
    if (Out.compare(Start, 2, "  ") != 0) // Not a note or a table row.
      Names.push_back(Out.substr(Start, Pos - Start));
    Pos += 4;
  }
  return Names;
}

// Nsight Compute's launch selection. transpose.cu launches naiveGmem,
// copyGmem, copyRow, transposeSmem, transposeSmemPad and
// transposeSmemUnrollPad, in that order.
TEST(Cli, KernelRegexLaunchSkipAndCount) {
  ToolRun R = runQuick("examples/transpose.cu --kernel regex:^transposeSmem");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_EQ(launchedKernels(R.Out),
            (std::vector<std::string>{"transposeSmem", "transposeSmemPad",
                                      "transposeSmemUnrollPad"}));
  R = runQuick("examples/transpose.cu --kernel regex:Smem --launch-skip 1 "
               "--launch-count 1");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_EQ(launchedKernels(R.Out),
            (std::vector<std::string>{"transposeSmemPad"}));
  R = runQuick("examples/transpose.cu --launch-skip 2 --launch-count 2");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_EQ(launchedKernels(R.Out),
            (std::vector<std::string>{"copyRow", "transposeSmem"}));
  // Nsight Compute's spellings: -k, -s, -c.
  R = runQuick("examples/transpose.cu -k regex:Smem -s 1 -c 1");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_EQ(launchedKernels(R.Out),
            (std::vector<std::string>{"transposeSmemPad"}));
  // Bad selections say why, exit 2; a pattern that is no regular
  // expression before the program is built and run.
  R = runTool("examples/transpose.cu --kernel 'regex:('");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_EQ(R.Err, "gmem-analyze: error: --kernel 'regex:(': not a regular "
                   "expression (parentheses not balanced)\n");
  R = runQuick("examples/transpose.cu --kernel regex:^nothing");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find("matches no kernel"), std::string::npos) << R.Err;
  R = runQuick("examples/transpose.cu --launch-skip 6");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find("--launch-skip 6 leaves none of the 6 launches"),
            std::string::npos)
      << R.Err;
}

TEST(Cli, BlockOverrideRederivesTheGrid) {
  ToolRun R =
      runQuick("examples/transpose.cu --block 16,16 --kernel naiveGmem");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_NE(R.Out.find("naiveGmem<<<(256,256,1), (16,16,1)>>>"),
            std::string::npos)
      << R.Out;
}

TEST(Cli, JsonHasNsightComputeNames) {
  ToolRun R = runTool("examples/coalescing.cu --format json --kernel "
                      "global_add_offset");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  auto J = nlohmann::json::parse(R.Out);
  ASSERT_EQ(J["launches"].size(), 1u);
  auto &L = J["launches"][0];
  EXPECT_EQ(L["kernel"], "global_add_offset");
  EXPECT_EQ(L["grid"], nlohmann::json::array({128, 1, 1}));
  EXPECT_EQ(L["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"],
            256.0);
  EXPECT_EQ(L["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"],
            1280.0); // 5 sectors x 2 loads x 128 warps.
  EXPECT_EQ(L["metrics"]["gld_efficiency"], 80.0);
  EXPECT_EQ(L["accesses"].size(), 3u);
}

TEST(Cli, EmitModel) {
  ToolRun R = runTool("examples/coalescing.cu --emit-model");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  auto J = nlohmann::json::parse(R.Out);
  EXPECT_EQ(J["schema"], gmem::ModelSchemaVersion);
  EXPECT_EQ(J["launches"].size(), 8u);
}

TEST(Cli, ParseErrorIsExit2WithClangsDiagnostic) {
  std::string Bad = writeTemp("bad.cu", "__global__ void k(float *a) {\n"
                                        "  a[threadIdx.x] = 1.0f\n}\n");
  ToolRun R = runTool(Bad);
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find("bad.cu:2"), std::string::npos) << R.Err;
  EXPECT_NE(R.Err.find("error"), std::string::npos);
}

TEST(Cli, UnknownKernelIsExit2) {
  ToolRun R = runQuick("examples/transpose.cu --kernel nosuch");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find("no kernel named 'nosuch'"), std::string::npos) << R.Err;
  EXPECT_NE(R.Err.find("naiveGmem"), std::string::npos);
}

TEST(Cli, BadBlocksAreExit2) {
  // The architecture's limits, said before anything is built (a zero block
  // was once "division by zero at transpose.cu:260; pass --grid", after
  // the program's build and run).
  ToolRun Big = runTool("examples/transpose.cu --block 64,32");
  EXPECT_EQ(Big.Exit, 2);
  EXPECT_EQ(Big.Err, "gmem-analyze: error: block 64,32,1 has 2048 threads; "
                     "sm_90 allows at most 1024\n");
  ToolRun Zero = runTool("examples/transpose.cu --block 0,16");
  EXPECT_EQ(Zero.Exit, 2);
  EXPECT_EQ(Zero.Err, "gmem-analyze: error: block 0,16,1 has a zero x "
                      "dimension; pass --block with positive sizes\n");
  ToolRun Bad = runTool("examples/transpose.cu --block 32,x");
  EXPECT_EQ(Bad.Exit, 2);
}

TEST(Cli, GpuNamesAKnownBoardOfItsArchitecture) {
  // Before: an unknown board was a warning, and the analysis went on.
  ToolRun R = runTool("examples/transpose.cu --gpu rtx-9999");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_EQ(R.Err.rfind("gmem-analyze: error: --gpu 'rtx-9999': not a known "
                        "board; one of h100-sxm, ",
                        0),
            0u)
      << R.Err;
  R = runTool("examples/transpose.cu --gpu quadro-p2000 --arch sm_90");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_EQ(R.Err, "gmem-analyze: error: --gpu quadro-p2000 is a sm_61 board "
                   "(Quadro P2000) but --arch is sm_90; give one of them\n");
  // Alone, a board sets the rules (before: sm_90 whatever the board).
  R = runTool("examples/transpose.cu --gpu quadro-p2000 --kernel copyRow "
              "--host interpret");
  EXPECT_EQ(R.Exit, 0) << R.Err;
  EXPECT_NE(R.Out.find("copyRow<<<(128,256,1), (32,16,1)>>> at "
                       "examples/transpose.cu:320:12 [sm_61, "),
            std::string::npos)
      << R.Out;
}

TEST(Cli, KernelsNoLaunchReachesAreListed) {
  // Before: a kernel main() never launches left the report without a word.
  std::string Src = writeTemp("unlaunched.cu",
                              "__global__ void used(float *a) {\n"
                              "  a[threadIdx.x] = 1.0f;\n"
                              "}\n"
                              "__global__ void unused(float *a) {\n"
                              "  a[threadIdx.x * 32] = 1.0f;\n"
                              "}\n"
                              "int main() {\n"
                              "  float *a;\n"
                              "  cudaMalloc(&a, 4096);\n"
                              "  used<<<1, 32>>>(a);\n"
                              "  cudaDeviceSynchronize();\n"
                              "}\n");
  ToolRun R = runTool(Src + " --host interpret");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_NE(R.Out.find("\nkernels no launch reaches (1; --kernel NAME with "
                       "--grid and --block analyses one):\n  unused at " +
                       Src + ":4:17\n"),
            std::string::npos)
      << R.Out;
  R = runTool(Src + " --host interpret --format json");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  auto J = nlohmann::json::parse(R.Out);
  ASSERT_EQ(J["kernels_not_launched"].size(), 1u) << R.Out;
  EXPECT_EQ(J["kernels_not_launched"][0]["kernel"], "unused");
  EXPECT_EQ(J["kernels_not_launched"][0]["line"], 4);
}

TEST(Cli, EveryOutputGivesTheSameCheckedAdvice) {
  // Before: the text said "make threadIdx.x index the fastest-varying
  // dimension" while the findings had re-simulated that swap and found it
  // only moves the cost to the store, and neither offered the shared tile.
  const std::string F = "examples/transpose.cu --kernel naiveGmem";
  ToolRun Text = runQuick(F);
  ToolRun Diags = runQuick(F + " --format diagnostics -fno-color-diagnostics");
  ToolRun Json = runQuick(F + " --format json");
  ASSERT_EQ(Text.Exit, 0) << Text.Err;
  ASSERT_EQ(Json.Exit, 0) << Json.Err;
  const std::string Fix =
      "fix, checked by re-simulating the changed model: stage each block's "
      "elements through a shared tile of 4-byte elements, __shared__ "
      "tile[16][34] (rows padded by 2): load 'in' with threadIdx.x and "
      "threadIdx.y swapped into it, __syncthreads(), then store 'out' in the "
      "current thread order from it";
  EXPECT_NE(Text.Out.find("; " + Fix), std::string::npos) << Text.Out;
  EXPECT_NE(Diags.Out.find(": note: " + Fix), std::string::npos) << Diags.Out;
  EXPECT_EQ(Text.Out.find("fastest-varying"), std::string::npos) << Text.Out;
  auto J = nlohmann::json::parse(Json.Out);
  bool Found = false;
  for (const auto &A : J["launches"][0]["accesses"])
    if (A["text"] == "in[iy*nx+ix]") {
      Found = true;
      EXPECT_EQ(A["advice"].get<std::string>().rfind(Fix, 0), 0u) << A;
    }
  EXPECT_TRUE(Found) << Json.Out;
}

TEST(Cli, OldArchitecturesAreShownAsNvprofShowedThem) {
  // Seed 000's Quadro P2000 measured transposeSmem's loads at 16
  // transactions per request (nvprof counted 8-byte units on Pascal) and
  // its stores at 4. Before, --gpu quadro-p2000 printed 4 for the loads
  // and simulated sm_90.
  ToolRun R = runTool("examples/transpose.cu --gpu quadro-p2000 --kernel "
                      "transposeSmem --host interpret");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_NE(R.Out.find("  Invocations                               Metric "
                       "Name                           Metric Description    "
                       "     Min         Max         Avg\n"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("              gld_transactions_per_request         "
                       "Global Load Transactions Per Request   16.000000   "
                       "16.000000   16.000000\n"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("gst_transactions_per_request        Global Store "
                       "Transactions Per Request    4.000000"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("(definition) nvprof on Pascal (sm_61) counted a "
                       "coalesced 4-byte load request as 16 transactions"),
            std::string::npos)
      << R.Out;
}

TEST(Cli, ExcessiveSectorsPerLaunchAndAccess) {
  // naiveGmem's strided load: 524288 requests of 32 sectors where 4 hold
  // the bytes, so 524288 x 28 sectors over the ideal; the store none.
  ToolRun R = runQuick("examples/transpose.cu --kernel naiveGmem");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_NE(R.Out.find("excessive sectors (over the fewest that hold the "
                       "bytes asked for): 14680064 of 16777216 global load "
                       "sectors, 0 of 2097152 store sectors\n"),
            std::string::npos)
      << R.Out;
  R = runQuick("examples/transpose.cu --kernel naiveGmem --format json");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  auto J = nlohmann::json::parse(R.Out);
  const auto &L = J["launches"][0];
  EXPECT_EQ(L["excessive_sectors"]["load"], 14680064);
  EXPECT_EQ(L["excessive_sectors"]["store"], 0);
  for (const auto &A : L["accesses"])
    EXPECT_EQ(A["excessive_sectors"], A["op"] == "load" ? 14680064 : 0) << A;
}

TEST(Cli, ReportFoldsAccessesWithNoRequest) {
  // Rows of accesses the compiler kept in a register crowded the report's
  // tables (3 of 7 rows in one kernel): they are folded under them now.
  ToolRun R = runTool("examples/unrolled_reuse.cu --format html");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  const size_t At = R.Out.find("<details class=\"no-requests\"><summary>");
  ASSERT_NE(At, std::string::npos) << R.Out;
  const size_t End = R.Out.find("</details>", At);
  const std::string Folded = R.Out.substr(At, End - At);
  EXPECT_NE(Folded.find(" with no request (a value the compiler reused"),
            std::string::npos)
      << Folded;
  // Every folded row made no request; no unfolded row is one of them.
  size_t Rows = 0;
  for (size_t P = Folded.find("\" class=\"access"); P != std::string::npos;
       P = Folded.find("\" class=\"access", P + 1), ++Rows) {
    const std::string Row = Folded.substr(P, Folded.find("</tr>", P) - P);
    EXPECT_NE(Row.find("</td><td>0</td><td>0</td>"), std::string::npos)
        << Row; // Requests, then sectors or wavefronts.
  }
  EXPECT_GT(Rows, 0u);
}

TEST(Cli, QuietFindingsHaveNoNotes) {
  ToolRun R = runQuick("examples/transpose.cu --kernel naiveGmem --format "
                       "diagnostics --quiet");
  EXPECT_EQ(R.Exit, 0) << R.Err; // Warnings, not errors.
  EXPECT_NE(R.Out.find("warning: uncoalesced global load from 'in'"),
            std::string::npos)
      << R.Out;
  EXPECT_EQ(R.Out.find("note:"), std::string::npos) << R.Out;
  EXPECT_TRUE(R.Err.empty()) << R.Err;
}

TEST(Cli, ValueFromArgvNamesTheFlag) {
  std::string Src =
      writeTemp("argv.cu", "#include <cstdlib>\n"
                           "__global__ void scale(float *a, int n) {\n"
                           "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  if (i < n) a[i] *= 2.0f;\n}\n"
                           "int main(int argc, char **argv) {\n"
                           "  int n = atoi(argv[1]);\n  float *a;\n"
                           "  cudaMalloc(&a, n * sizeof(float));\n"
                           "  scale<<<4, 256>>>(a, n);\n  return 0;\n}\n");
  // Recorded with no argument, atoi(argv[1]) crashes before the launch;
  // then gmem's reading of the host code says which value is missing.
  ToolRun R = runTool(Src);
  EXPECT_EQ(R.Exit, 2);
  // The crash names its line (before: "killed (Segmentation fault)").
  EXPECT_NE(R.Err.find("the recorded run stopped after 0 launches (the "
                       "program was killed (Segmentation fault) at " +
                       Src + ":7)"),
            std::string::npos)
      << R.Err;
  EXPECT_NE(R.Err.find("argv.cu:10"), std::string::npos) << R.Err;
  EXPECT_NE(R.Err.find("--arg n=VALUE"), std::string::npos) << R.Err;
  EXPECT_NE(R.Err.find("argv[1] at argv.cu:7 is null"), std::string::npos)
      << R.Err;
  EXPECT_NE(R.Err.find("--run-args"), std::string::npos) << R.Err;
  // Run as "./argv 1000": the same launch as with --arg n=1000.
  ToolRun Run = runTool(Src + " --run-args 1000");
  EXPECT_EQ(Run.Exit, 0) << Run.Err;
  EXPECT_NE(Run.Out.find("scale<<<(4,1,1), (256,1,1)>>>"), std::string::npos);
  ToolRun Ok = runTool(Src + " --arg n=1000");
  EXPECT_EQ(Ok.Exit, 0) << Ok.Err;
  // 1000 of 1024 threads active: 32 warps, the last with 8 lanes; load and
  // store each 32 requests.
  EXPECT_NE(Ok.Out.find("scale<<<(4,1,1), (256,1,1)>>>"), std::string::npos);
}

// Seed 002's lecture reads N from argv[1]: "./lecture_transpose 4096" has
// min(ceil(4096 / 32), 1024) = 128 blocks per side.
TEST(Cli, RunArgsGiveTheLaunchesOfThatRun) {
  ToolRun R = runTool("examples/lecture_transpose.cu --run-args 4096 "
                      "--kernel gTranspose1");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_NE(R.Out.find("gTranspose1<<<(128,128,1), (32,32,1)>>>"),
            std::string::npos)
      << R.Out;
  // The default run's launches (N = 8192) are checked by examples_test.
}

// A timing loop launches the same kernel the same way 100 times: one entry
// with its count, then the launch after the loop (different n) on its own.
TEST(Cli, RepeatedLaunchIsReportedOnceWithItsCount) {
  std::string Src = writeTemp(
      "loop.cu", "__global__ void scale(float *a, int n) {\n"
                 "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "  if (i < n) a[i] *= 2.0f;\n}\n"
                 "int main() {\n  float *a;\n  cudaMalloc(&a, 4096);\n"
                 "  for (int r = 0; r < 100; ++r)\n"
                 "    scale<<<4, 256>>>(a, 1024);\n"
                 "  scale<<<4, 256>>>(a, 512);\n  return 0;\n}\n");
  ToolRun T = runTool(Src);
  ASSERT_EQ(T.Exit, 0) << T.Err;
  EXPECT_NE(T.Out.find("scale<<<(4,1,1), (256,1,1)>>> x100 at "),
            std::string::npos)
      << T.Out;
  ToolRun J = runTool(Src + " --format json");
  ASSERT_EQ(J.Exit, 0) << J.Err;
  auto Launches = nlohmann::json::parse(J.Out)["launches"];
  ASSERT_EQ(Launches.size(), 2u);
  EXPECT_EQ(Launches[0]["count"], 100);
  EXPECT_EQ(Launches[0]["loc"]["line"], 9);
  EXPECT_EQ(Launches[1]["count"], 1);
  // 1024 threads, 32 warps, each loads and stores 4 sectors.
  EXPECT_EQ(
      Launches[0]["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"],
      32.0);
}

// main() in a .cpp file, kernels and their launch wrappers (one in a
// namespace, one using a static helper) in a .cu file: one program.
TEST(Cli, SeveralFilesAreOneProgram) {
  writeTemp("mf_kernels.h",
            "#pragma once\n"
            "void launchScale(float *a, int n, int t);\n"
            "namespace ops {\n"
            "void launchCopy(float *o, const float *i, int n);\n"
            "}\n");
  std::string Cu = writeTemp(
      "mf_kernels.cu",
      "#include \"mf_kernels.h\"\n"
      "__global__ void scale(float *a, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) a[i] *= 2.0f;\n}\n"
      "__global__ void copyStrided(float *o, const float *in, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n / 2) o[i] = in[2 * i];\n}\n"
      "static int blocksFor(int n, int t) { return (n + t - 1) / t; }\n"
      "void launchScale(float *a, int n, int t) {\n"
      "  scale<<<blocksFor(n, t), t>>>(a, n);\n}\n"
      "namespace ops {\n"
      "void launchCopy(float *o, const float *in, int n) {\n"
      "  copyStrided<<<(n / 2 + 127) / 128, 128>>>(o, in, n);\n}\n}\n");
  std::string Main = writeTemp(
      "mf_main.cpp", "#include <cuda_runtime.h>\n#include <cstdlib>\n"
                     "#include \"mf_kernels.h\"\n"
                     "int main(int argc, char **argv) {\n"
                     "  int n = argc > 1 ? atoi(argv[1]) : 1 << 16;\n"
                     "  float *a, *b;\n  cudaMalloc(&a, n * 4);\n"
                     "  cudaMalloc(&b, n * 4);\n"
                     "  for (int r = 0; r < 10; ++r) launchScale(a, n, 256);\n"
                     "  ops::launchCopy(b, a, n);\n  return 0;\n}\n");
  ToolRun R = runTool(Cu + " " + Main + " --format json");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  auto L = nlohmann::json::parse(R.Out)["launches"];
  ASSERT_EQ(L.size(), 2u) << R.Out;
  // 65536 / 256 blocks, ten times; (32768 + 127) / 128 blocks.
  EXPECT_EQ(L[0]["kernel"], "scale");
  EXPECT_EQ(L[0]["grid"], nlohmann::json::array({256, 1, 1}));
  EXPECT_EQ(L[0]["count"], 10);
  EXPECT_EQ(L[0]["loc"]["line"], 12);
  EXPECT_EQ(L[1]["kernel"], "copyStrided");
  EXPECT_EQ(L[1]["grid"], nlohmann::json::array({256, 1, 1}));
  EXPECT_EQ(L[1]["block"], nlohmann::json::array({128, 1, 1}));
  // in[2 * i]: 32 lanes 8 bytes apart, 8 sectors per request.
  EXPECT_EQ(L[1]["metrics"]["gld_transactions_per_request"], 8.0);
  ToolRun Two = runTool(Main + " " + Main);
  EXPECT_EQ(Two.Exit, 2);
  EXPECT_NE(Two.Err.find("both define main()"), std::string::npos) << Two.Err;
}

// tests/data/programs/split: main() calls a template wrapper that only the
// kernels' file instantiates (template void scaleAll<float>(...)), and a
// wrapper whose launch is in a static helper of that file; it also calls a
// function no file defines. threads = maxThreadsPerBlock / 4 = 1024 / 4 on
// sm_90; n = 65536: scale<float> gets (65536 + 255) / 256 = 256 blocks,
// shift 65536 / 128 = 512.
TEST(Cli, SplitProgramFollowsTemplateInstancesAndStaticHelpers) {
  const std::string Dir = "tests/data/programs/split/";
  ToolRun R = runTool(Dir + "split_main.cpp " + Dir +
                      "split_kernels.cu --compiler source --format json");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  auto J = nlohmann::json::parse(R.Out);
  auto L = J["launches"];
  ASSERT_EQ(L.size(), 2u) << R.Out;
  EXPECT_EQ(L[0]["kernel"], "scale<float>");
  EXPECT_EQ(L[0]["grid"], nlohmann::json::array({256, 1, 1}));
  EXPECT_EQ(L[0]["block"], nlohmann::json::array({256, 1, 1}));
  EXPECT_EQ(L[0]["loc"]["line"], 21);
  EXPECT_EQ(L[1]["kernel"], "shift");
  EXPECT_EQ(L[1]["grid"], nlohmann::json::array({512, 1, 1}));
  EXPECT_EQ(L[1]["block"], nlohmann::json::array({128, 1, 1}));
  EXPECT_EQ(L[1]["loc"]["line"], 29);
  // notGiven() is called twice and reported once, where it is declared.
  unsigned NotGiven = 0;
  for (const std::string W : J["warnings"])
    if (W.find("notGiven()") != std::string::npos) {
      ++NotGiven;
      EXPECT_NE(W.find("split_main.cpp:15: notGiven() is declared "
                       "(split.h:9) but defined in none of the given files"),
                std::string::npos)
          << W;
    }
  EXPECT_EQ(NotGiven, 1u) << J["warnings"].dump();
  // main's file alone: what it calls is named, with where it is declared.
  ToolRun Alone = runTool(Dir + "split_main.cpp --compiler source");
  EXPECT_EQ(Alone.Exit, 2);
  EXPECT_NE(Alone.Err.find("split_main.cpp:13: scaleAll<float>() is declared "
                           "(split.h:6) but defined in none of the given "
                           "files"),
            std::string::npos)
      << Alone.Err;
  EXPECT_NE(Alone.Err.find("split_main.cpp:14: shiftAll() is declared "
                           "(split.h:7)"),
            std::string::npos)
      << Alone.Err;
}

// --arg is judged by the launches simulated: strided, which main() does not
// launch, takes `stride` when --kernel names it; without --kernel the
// launches of main() have no parameter `stride` and the flag is reported.
TEST(Cli, ArgWarningIsJudgedByTheSimulatedLaunches) {
  const std::string Files = "tests/data/programs/split/split_main.cpp "
                            "tests/data/programs/split/split_kernels.cu "
                            "--compiler source --format json --arg stride=2";
  ToolRun K = runTool(Files + " --kernel strided --grid 1 --block 32");
  ASSERT_EQ(K.Exit, 0) << K.Err;
  auto KJ = nlohmann::json::parse(K.Out);
  ASSERT_EQ(KJ["launches"].size(), 1u) << K.Out;
  EXPECT_EQ(KJ["launches"][0]["kernel"], "strided");
  EXPECT_EQ(KJ["warnings"].dump().find("--arg stride"), std::string::npos)
      << KJ["warnings"].dump();
  ToolRun All = runTool(Files);
  ASSERT_EQ(All.Exit, 0) << All.Err;
  auto AJ = nlohmann::json::parse(All.Out);
  EXPECT_NE(AJ["warnings"].dump().find(
                "--arg stride=2: no launched kernel (scale<float>; shift) "
                "has a parameter stride"),
            std::string::npos)
      << AJ["warnings"].dump();
}

// Host code Clang rejects does not cost the kernels: the launch it breaks
// is named with the flags that supply it, the others are analysed (exit 0).
// An error in a kernel still stops the analysis (exit 2).
TEST(Cli, HostCodeThatDoesNotParseKeepsTheKernels) {
  std::string Body =
      "__global__ void scale(float *a, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) a[i] *= 2.0f;\n}\n"
      "__global__ void twice(float *a, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  if (i < n) a[2 * i] += DEVICE_ERROR;\n}\n"
      "int main() {\n  int n = 4096;\n  float *a;\n"
      "  cudaMalloc(&a, n * sizeof(float));\n"
      "  scale<<<n / 256, 256>>>(a, n);\n"
      "  twice<<<n / 256, not_declared>>>(a, n);\n  return 0;\n}\n";
  std::string Host =
      writeTemp("hosterr.cu", "#define DEVICE_ERROR 1.0f\n" + Body);
  ToolRun R = runTool(Host);
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_NE(R.Out.find("hosterr.cu:15: use of undeclared identifier "
                       "'not_declared'"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("twice is not launched by the host code that parsed; "
                       "analyse it with --kernel 'twice' --grid"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("scale<<<(16,1,1), (256,1,1)>>>"), std::string::npos);
  std::string Device = writeTemp(
      "deverr.cu", "#define DEVICE_ERROR not_declared_either\n" + Body);
  EXPECT_EQ(runTool(Device).Exit, 2);
}

// A program in the manner of the SDK samples (written here): flag helpers
// scanning argv, a device picker, a template kernel chosen by block size and
// launched 300 times in a timing loop. With no arguments: dA = 320 x 320,
// dB = 640 x 320, grid (640 / 32, 320 / 32); -wB=320 --hA=64 gives (10, 2).
TEST(Cli, SdkStyleProgramAnalyzesWithNoFlags) {
  const std::string File = "tests/data/programs/sdk_style_matmul.cu";
  ToolRun R = runTool(File + " --format json");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  auto L = nlohmann::json::parse(R.Out)["launches"];
  ASSERT_EQ(L.size(), 1u) << R.Out;
  EXPECT_EQ(L[0]["kernel"], "matMul<32>");
  EXPECT_EQ(L[0]["grid"], nlohmann::json::array({20, 10, 1}));
  EXPECT_EQ(L[0]["block"], nlohmann::json::array({32, 32, 1}));
  EXPECT_EQ(L[0]["count"], 300);
  ToolRun A = runTool(File + " --run-args '-wA=640 --hA=64 -wB=320'");
  ASSERT_EQ(A.Exit, 0) << A.Err;
  EXPECT_NE(A.Out.find("matMul<32><<<(10,2,1), (32,32,1)>>> x300"),
            std::string::npos)
      << A.Out;
}

TEST(Cli, MissingFileAndBadFlags) {
  EXPECT_EQ(runTool("no/such/file.cu").Exit, 2);
  EXPECT_EQ(runTool("examples/transpose.cu --arch sm_12").Exit, 2);
  EXPECT_EQ(runTool("examples/transpose.cu --format xml").Exit, 2);
  EXPECT_EQ(runTool("examples/transpose.cu --frobnicate").Exit, 2);
  EXPECT_EQ(runTool("examples/transpose.cu --arg nx").Exit, 2);
  EXPECT_EQ(runTool("examples/transpose.cu --arg nosuch=3").Exit, 2);
}

// One llvm::cl parser for the analysis and the gate: "--opt value" and
// "--opt=value" mean the same, and --help is generated from both
// categories without LLVM's own options.
TEST(Cli, OptionsTakeTheirValueEitherWayAndHelpIsGenerated) {
  ToolRun Spaced = runQuick("examples/transpose.cu --kernel copyRow "
                            "--block 32,16 --format json");
  ToolRun Joined = runQuick("examples/transpose.cu --kernel=copyRow "
                            "--block=32,16 --format=json");
  ASSERT_EQ(Spaced.Exit, 0) << Spaced.Err;
  ASSERT_EQ(Joined.Exit, 0) << Joined.Err;
  EXPECT_EQ(Spaced.Out, Joined.Out);
  nlohmann::json J = nlohmann::json::parse(Joined.Out);
  EXPECT_EQ(J["launches"][0]["block"], nlohmann::json::array({32, 16, 1}));

  ToolRun Help = runTool("--help");
  ASSERT_EQ(Help.Exit, 0) << Help.Err;
  for (const char *Line :
       {"Analysis options:", "--block=<X[,Y[,Z]]>", "--threads=<N>",
        "CI gate options", "--checks=<GLOBS>", "-p <BUILD_DIR>",
        "--export-fixes=<FILE>", "Exit codes: 0 done"})
    EXPECT_NE(Help.Out.find(Line), std::string::npos) << Line;
  // LLVM's own options (its pass timers, its --threads) stay out of it.
  EXPECT_EQ(Help.Out.find("time-passes"), std::string::npos);
  EXPECT_EQ(Help.Out.find("=<uint>"), std::string::npos);

  // A misspelt flag is bad usage, with LLVM's suggestion.
  ToolRun Typo = runTool("examples/transpose.cu --blok 32");
  EXPECT_EQ(Typo.Exit, 2);
  EXPECT_NE(Typo.Err.find("Did you mean '--block'?"), std::string::npos)
      << Typo.Err;
  // A missing value too, whatever follows.
  EXPECT_EQ(runTool("examples/transpose.cu --block").Exit, 2);
}

// The same program in two folders, each analysed from its own folder by
// the same relative name: the second run must not take the first one's

/// A program whose host code makes one launch, scale<<<1, 128>>> on line 6
/// after an #include line.
const char *const ScaleProgram =
    "__global__ void scale(float *x) { x[threadIdx.x] *= 2.f; }\n"
    "int main() {\n"
    "  float *x;\n"
    "  cudaMalloc(&x, 128 * sizeof(float));\n"
    "  scale<<<1, 128>>>(x);\n"
    "  return 0;\n"
    "}\n";

// cached build, whose line tables name the first folder's file.
TEST(Cli, RecordedLaunchesNameTheFileAnalysedNotACachedCopy) {
  const std::string Root = ::testing::TempDir() + "/same_program";
  const std::string Cache = Root + "/cache";
  std::filesystem::remove_all(Root);
  for (const char *Copy : {"a", "b"}) {
    SCOPED_TRACE(Copy);
    const std::string Dir = Root + "/" + Copy;
    std::filesystem::create_directories(Dir);
    std::ofstream(Dir + "/prog.cu") << "#include <cuda_runtime.h>\n"
                                    << ScaleProgram;
    const std::string Out = Dir + "/out.json";
    std::string Cmd = "cd " + Dir + " && " + GMEM_ANALYZE_EXE +
                      " prog.cu --format json --cache-dir " + Cache + " >" +
                      Out + " 2>/dev/null";
    ASSERT_EQ(std::system(Cmd.c_str()), 0);
    std::ifstream In(Out);
    nlohmann::json J = nlohmann::json::parse(In);
    ASSERT_EQ(J["launches"].size(), 1u) << J;
    EXPECT_EQ(J["launches"][0]["loc"]["file"], "prog.cu") << J;
    EXPECT_EQ(J["launches"][0]["loc"]["line"], 6) << J;
  }
}

// Triangles (tests/data/programs/triangles.cu, n = 512, 16 warps of one
// column each): counted to the second order, the same as every iteration,
// and as worked out by hand. prefixSums' row i reads i + 1 rows: 512 * 513
// / 2 loads per warp, 4 sectors each (a warp's 32 floats of one row).
// backSubstitution's row i reads the 511 - i rows below: 512 * 511 / 2 per
// warp; u[i * n + k] is one float for the whole warp, 1 sector.
TEST(Cli, TrianglesCountAsEveryIterationAndByHand) {
  const std::string File = "tests/data/programs/triangles.cu --format json";
  ToolRun Fast = runTool(File);
  ToolRun Slow = runTool(File + " --every-iteration");
  ASSERT_EQ(Fast.Exit, 0) << Fast.Err;
  ASSERT_EQ(Slow.Exit, 0) << Slow.Err;
  nlohmann::json F = nlohmann::json::parse(Fast.Out)["launches"];
  nlohmann::json S = nlohmann::json::parse(Slow.Out)["launches"];
  ASSERT_EQ(F.size(), 2u) << Fast.Out;
  for (nlohmann::json *L : {&F, &S})
    for (nlohmann::json &X : *L)
      for (const char *How : {"time", "warps_evaluated", "warps_derived"})
        X.erase(How);
  EXPECT_EQ(F, S);
  auto Access = [&](size_t Launch, const std::string &Text) {
    for (const nlohmann::json &A : F[Launch]["accesses"])
      if (A["text"] == Text)
        return A;
    return nlohmann::json();
  };
  const uint64_t Warps = 16;
  nlohmann::json A = Access(0, "a[k * n + col]");
  EXPECT_EQ(A["requests"], Warps * 512 * 513 / 2) << A;
  EXPECT_EQ(A["sectors"], 4 * Warps * 512 * 513 / 2) << A;
  nlohmann::json U = Access(1, "u[i * n + k]");
  EXPECT_EQ(U["requests"], Warps * 512 * 511 / 2) << U;
  EXPECT_EQ(U["sectors"], Warps * 512 * 511 / 2) << U;
  nlohmann::json X = Access(1, "x[k * n + col]");
  EXPECT_EQ(X["sectors"], 4 * Warps * 512 * 511 / 2) << X;
}

TEST(Cli, ExhaustiveIsTheSameAndMaxWarpsBoundsIt) {
  // The reference gives the table the fast path gives.
  ToolRun Fast = runTool("examples/coalescing.cu --format json");
  ToolRun Every = runTool("examples/coalescing.cu --format json --exhaustive");
  ASSERT_EQ(Fast.Exit, 0) << Fast.Err;
  ASSERT_EQ(Every.Exit, 0) << Every.Err;
  auto Strip = [](std::string S) { // Only the evaluated/derived split differs.
    for (const char *Key : {"\"warps_evaluated\"", "\"warps_derived\""})
      for (size_t At; (At = S.find(Key)) != std::string::npos;)
        S.erase(At, S.find('\n', At) - At);
    return S;
  };
  EXPECT_EQ(Strip(Fast.Out), Strip(Every.Out));
  // 524288 warps one by one are more than --max-warps 1000: one warning
  // naming the launch and the flag, and the figures are unknown.
  ToolRun R = runQuick("examples/transpose.cu --block 32,16 --kernel naiveGmem "
                       "--exhaustive --max-warps 1000");
  EXPECT_EQ(R.Exit, 0);
  EXPECT_NE(R.Err.find("warning: examples/transpose.cu:"), std::string::npos)
      << R.Err;
  EXPECT_NE(R.Err.find("more than --max-warps 1000"), std::string::npos);
  EXPECT_NE(R.Out.find("unknown"), std::string::npos);
}

} // namespace

// A note on compiled code that stands for no access (here an inline-asm
// load) is about its kernel: where the program never launches that kernel,
// the note is counted, not shown, unless --kernel asks for it.
TEST(Cli, NotesOnKernelsNoLaunchReachesAreLeftOut) {
  const std::string Dir = ::testing::TempDir() + "/unreached";
  std::filesystem::create_directories(Dir);
  std::ofstream(Dir + "/prog.cu") << R"(#include <cuda_runtime.h>
__global__ void viaAsm(float *x, float *y) {
  float v;
  asm volatile("ld.global.f32 %0, [%1];" : "=f"(v) : "l"(x + threadIdx.x));
  y[threadIdx.x] = v;
}
)" << ScaleProgram;
  auto Run = [&](const std::string &Args) {
    const std::string Err = Dir + "/err.txt";
    std::string Cmd = "cd " + Dir + " && " + GMEM_ANALYZE_EXE + " prog.cu " +
                      Args + " --cache-dir " + Dir + "/cache >/dev/null 2>" +
                      Err;
    std::system(Cmd.c_str());
    std::ifstream In(Err);
    return std::string(std::istreambuf_iterator<char>(In), {});
  };
  std::string Err = Run("");
  if (Err.find("compiler merging was not checked") != std::string::npos)
    GTEST_SKIP() << "no nvcc: " << Err;
  EXPECT_EQ(Err.find("viaAsm: LDG"), std::string::npos) << Err;
  EXPECT_NE(Err.find("1 note on the compiled code of 1 kernel that no launch "
                     "reaches left out"),
            std::string::npos)
      << Err;
  // Asked for, the note is shown where the model prices the launch; run on
  // the PTX, the asm's load is executed and the note has nothing to say.
  Err = Run("--kernel viaAsm --grid 1 --block 32 --path model");
  EXPECT_NE(Err.find("viaAsm: LDG"), std::string::npos) << Err;
  Err = Run("--kernel viaAsm --grid 1 --block 32");
  EXPECT_EQ(Err.find("viaAsm: LDG"), std::string::npos) << Err;
}
