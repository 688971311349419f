//===- record_test.cpp - The recording runtime and what gmem makes of it --===//
//
// The programs run here, built by nvcc and run against gmem's recording
// libcudart with no GPU, are tests/data/record/recorded_host.cu (host code
// the interpreter does not follow; not yet measured on a GPU, so not among
// the examples) and small programs written below for one family each. Expected configurations follow
// from the programs' own arithmetic; the board figures (132 SMs for
// h100-sxm, 108 for a100-sxm) from host/runtime/boards.cpp; the pitch of
// a 4000-byte row (4096) was measured on an H100.
//
//===----------------------------------------------------------------------===//
#include "record_run.h"
#include "recorded_launches.h"
#include "test_util.h"
#include "toolkit.h"

#include "llvm/Support/FileSystem.h"
#include <fstream>
#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::test;

namespace {

TEST(RecordLog, ReadsEventsAndDropsALineCutByACrash) {
  auto R = parseRecordLog(
      "{\"ev\":\"alloc\",\"id\":1,\"base\":4096,\"bytes\":100,\"kind\":"
      "\"device\"}\n"
      "{\"ev\":\"launch\",\"n\":0,\"kernel\":\"_Z1kPf\",\"api\":\"<<<>>>\","
      "\"grid\":[2,1,1],\"block\":[64,1,1],\"smem\":0,\"stream\":0,"
      "\"args\":[\"0410000000000000\"]}\n"
      "{\"ev\":\"read\",\"id\":1,\"bytes\":4,\"api\":\"cudaMemcpy\"}\n"
      "{\"ev\":\"missing\",\"api\":\"cudaFoo\"}\n"
      "{\"ev\":\"launch\",\"n\":1,\"ker");
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Launches.size(), 1u);
  EXPECT_EQ(R->Launches[0].Grid.X, 2u);
  EXPECT_EQ(R->Launches[0].Block.X, 64u);
  ASSERT_EQ(R->Launches[0].Args.size(), 1u);
  EXPECT_EQ(R->Launches[0].Args[0]->size(), 8u);
  EXPECT_EQ((*R->Launches[0].Args[0])[1], 0x10);
  ASSERT_EQ(R->Reads.size(), 1u);
  EXPECT_EQ(R->Reads[0].LaunchesBefore, 1u);
  EXPECT_EQ(R->Missing, std::vector<std::string>{"cudaFoo"});
  // A bad line before the end is an error, not skipped.
  EXPECT_FALSE(bool(parseRecordLog("{\"ev\":1}\nnot json\n{}\n")));
}

Kernel kernelWith(std::vector<Param> Ps) {
  Kernel K;
  K.Name = "k";
  K.MangledName = "_Z1k";
  K.Params = std::move(Ps);
  return K;
}

Param param(ParamKind Kind, IntType T, unsigned Bytes) {
  Param P;
  P.Name = "p";
  P.Kind = Kind;
  P.Type = T;
  P.Bytes = Bytes;
  P.TypeName = "S";
  return P;
}

std::vector<uint8_t> bytesOf(uint64_t V, unsigned N) {
  std::vector<uint8_t> B(N);
  for (unsigned I = 0; I < N; ++I)
    B[I] = uint8_t(V >> (8 * I));
  return B;
}

TEST(RecordedLaunches, ArgumentsDecodeByParameterType) {
  std::vector<Kernel> Ks = {
      kernelWith({param(ParamKind::Pointer, {64, false}, 8),
                  param(ParamKind::Pointer, {64, false}, 8),
                  param(ParamKind::Int, {32, true}, 4),
                  param(ParamKind::Int, {16, false}, 2),
                  param(ParamKind::Float, {32, true}, 4),
                  param(ParamKind::Other, {32, true}, 12)})};
  RecordedRun Run;
  Run.Allocs.push_back({1, 0x10000, 4000, 0, "device"});
  RecordedLaunch L;
  L.Mangled = "_Z1k";
  L.Grid = {3, 1, 1};
  L.Block = {128, 1, 1};
  L.ArgsKnown = true;
  float F = 2.5f;
  uint32_t FBits;
  std::memcpy(&FBits, &F, 4);
  L.Args = {bytesOf(0x10000 + 1000, 8), bytesOf(0, 8),
            bytesOf(uint32_t(-7), 4),   bytesOf(0xfffe, 2),
            bytesOf(FBits, 4),          bytesOf(0, 12)};
  Run.Launches.push_back(L);
  RecordedLaunches Out = launchesFromRecording(Run, Ks);
  ASSERT_EQ(Out.Launches.size(), 1u);
  const Launch &G = Out.Launches[0];
  EXPECT_EQ(G.Grid.X, 3u);
  EXPECT_EQ(G.Args[0].Allocation, "cudaMalloc #1");
  EXPECT_EQ(G.Args[0].AlignOffset, 1000u); // Exact, not modulo 256.
  EXPECT_EQ(G.Args[1].Allocation, NullPointer);
  EXPECT_EQ(G.Args[2].IntValue, -7);
  EXPECT_EQ(G.Args[3].IntValue, 0xfffe);
  EXPECT_EQ(G.Args[4].Kind, ArgValue::Float);
  EXPECT_EQ(G.Args[4].FloatValue, 2.5);
  EXPECT_EQ(G.Args[5].Kind, ArgValue::Unknown);
  EXPECT_TRUE(Out.Warnings.empty());
}

TEST(RecordedLaunches, WhatTheRecordingCannotVouchForIsSaid) {
  std::vector<Kernel> Ks = {
      kernelWith({param(ParamKind::Pointer, {64, false}, 8)})};
  RecordedRun Run;
  Run.Allocs.push_back({1, 0x10000, 256, 0, "device"});
  RecordedLaunch L;
  L.Mangled = "_Z1k";
  L.Grid = {1, 1, 1};
  L.Block = {32, 1, 1};
  L.ArgsKnown = true;
  L.Args = {bytesOf(0x10000, 8)};
  Run.Launches = {L, L, L};
  Run.Launches[1].Error = "cudaErrorInvalidConfiguration";
  Run.Launches[2].N = 2;
  Run.Reads.push_back({1, 4, "cudaMemcpy", 2}); // After launches 1 and 2.
  Run.Missing = {"cudaGraphAddEmptyNode"};
  Run.Stopped = "exited with 1";
  RecordedLaunches Out = launchesFromRecording(Run, Ks);
  EXPECT_EQ(Out.Launches.size(), 2u); // The refused one is not simulated.
  ASSERT_EQ(Out.Warnings.size(), 4u);
  EXPECT_NE(Out.Warnings[0].find("refused"), std::string::npos);
  EXPECT_NE(Out.Warnings[1].find("launches from 3 on follow cudaMemcpy"),
            std::string::npos)
      << Out.Warnings[1];
  EXPECT_NE(Out.Warnings[2].find("cudaGraphAddEmptyNode"), std::string::npos);
  EXPECT_NE(Out.Warnings[3].find("exited with 1 after 3 launches"),
            std::string::npos);
}

/// Builds and runs Path (or Code written to a file) against the recorder.
class RecordRun : public ::testing::Test {
protected:
  void SetUp() override {
    if (!*GMEM_RECORD_RUNTIME_DIR)
      GTEST_SKIP() << "gmem was built without the recording runtime";
    auto T = findToolkit("");
    if (!T)
      GTEST_SKIP() << llvm::toString(T.takeError());
    Tk = *T;
  }
  RecordedRun run(const std::string &Path, std::vector<std::string> Args,
                  const std::string &Board = "h100-sxm",
                  unsigned TimeLimit = 60) {
    Translated Tr = translateFile(Path, Headers::Cuda);
    Kernels = Tr.Kernels;
    RecordRequest R;
    R.Nvcc = Tk.Nvcc;
    R.NvccVersion = Tk.Version;
    R.Files = {Path};
    R.Board = Board;
    R.RunArgs = std::move(Args);
    R.TimeLimit = TimeLimit;
    R.RuntimeDir = GMEM_RECORD_RUNTIME_DIR;
    R.Kernels = &Kernels;
    auto Run = recordProgram(R);
    if (!Run) {
      ADD_FAILURE() << llvm::toString(Run.takeError());
      return {};
    }
    return *Run;
  }
  std::string write(const std::string &Code) {
    llvm::SmallString<128> P;
    llvm::sys::fs::createTemporaryFile("record-test", "cu", P);
    std::ofstream(std::string(P)) << Code;
    Files.push_back(std::string(P));
    return std::string(P);
  }
  void TearDown() override {
    for (const std::string &F : Files)
      llvm::sys::fs::remove(F);
  }
  Toolkit Tk;
  std::vector<Kernel> Kernels;
  std::vector<std::string> Files;
};

TEST_F(RecordRun, EveryLaunchOfTheExampleInOrderWithItsRealValues) {
  const std::string Ex =
      std::string(GMEM_SOURCE_DIR) + "/tests/data/record/recorded_host.cu";
  RecordedRun Run = run(Ex, {"4096", "8"});
  EXPECT_EQ(Run.Stopped, "") << Run.OutputTail;
  ASSERT_EQ(Run.Launches.size(), 7u) << Run.OutputTail;
  auto Name = [&](size_t I) { return Run.Launches[I].Mangled; };
  EXPECT_EQ(Name(0), "_Z14gatherPermutedPKfPKiPfi");
  EXPECT_EQ(Run.Launches[0].Grid.X, 4096u / 256);
  EXPECT_EQ(Name(1), "_Z9histogramPKjPjij");
  EXPECT_EQ(Run.Launches[1].Grid.X, 132u); // multiProcessorCount.
  EXPECT_EQ(Name(2), "_Z9scaleRowsILi128EEvPfif");
  EXPECT_EQ(Run.Launches[2].Grid.X, (4095u + 127) / 128);
  EXPECT_EQ(Run.Launches[3].Grid.X, 8u); // One block per row.
  EXPECT_EQ(Run.Launches[4].Api, "cudaLaunchKernel");
  EXPECT_EQ(Run.Launches[5].Graph, Run.Launches[6].Graph);
  EXPECT_GE(Run.Launches[5].Graph, 0);
  RecordedLaunches L = launchesFromRecording(Run, Kernels);
  ASSERT_EQ(L.Launches.size(), 7u);
  // scaleRows on dOut + 1: the second allocation, 4 bytes in.
  EXPECT_EQ(L.Launches[2].Args[0].Allocation, "cudaMalloc #2");
  EXPECT_EQ(L.Launches[2].Args[0].AlignOffset, 4u);
  EXPECT_EQ(L.Launches[2].Args[1].IntValue, 4095);
  EXPECT_EQ(L.Launches[2].Args[2].FloatValue, 2.0);
  // copyPitched's pitch: 1000 floats rounded up to 4096 bytes.
  EXPECT_EQ(L.Launches[3].Args[1].IntValue, 4096);
  EXPECT_EQ(L.Launches[3].Args[0].Allocation, "cudaMallocPitch #6");
  EXPECT_EQ(L.Launches[6].Args[2].FloatValue, 1.5);
  // The bins are read after the last launch: nothing to warn about.
  EXPECT_TRUE(L.Warnings.empty()) << L.Warnings.front();

  // Another board, another grid.
  RecordedRun A100 = run(Ex, {"4096", "8"}, "a100-sxm");
  ASSERT_EQ(A100.Launches.size(), 7u);
  EXPECT_EQ(A100.Launches[1].Grid.X, 108u);
}

TEST_F(RecordRun, RefusedLaunchesMissingCallsAndEarlyExits) {
  std::string P = write(R"(
#include <cstdio>
__global__ void k(float *a) { a[threadIdx.x] = 1; }
int main() {
  float *d;
  cudaMalloc(&d, 4096);
  k<<<1, 2048>>>(d);  // More threads than a block may have.
  if (cudaGetLastError() != cudaErrorInvalidConfiguration) return 3;
  k<<<2, 32>>>(d);
  cudaGraph_t g;
  if (cudaGraphCreate(&g, 0) != cudaSuccess) {
    std::fprintf(stderr, "no graphs\n");
    return 1;
  }
  k<<<4, 32>>>(d);
  return 0;
}
)");
  RecordedRun Run = run(P, {});
  EXPECT_EQ(Run.Stopped, "exited with 1");
  EXPECT_NE(Run.OutputTail.find("no graphs"), std::string::npos);
  ASSERT_EQ(Run.Launches.size(), 2u);
  EXPECT_EQ(Run.Launches[0].Error, "cudaErrorInvalidConfiguration");
  EXPECT_EQ(Run.Launches[1].Grid.X, 2u);
  EXPECT_EQ(Run.Missing, std::vector<std::string>{"cudaGraphCreate"});
}

TEST_F(RecordRun, CrashesAndHangsStopWithTheLaunchesMadeBefore) {
  std::string P = write(R"(
#include <cstdlib>
#include <csignal>
__global__ void k(int *a) { a[threadIdx.x] = 1; }
int main(int argc, char **argv) {
  int *d;
  cudaMalloc(&d, 1024);
  k<<<1, 64>>>(d);
  if (argc > 1) std::raise(SIGSEGV);
  for (volatile int i = 0;; ) (void)i;
}
)");
  RecordedRun Crash = run(P, {"crash"});
  EXPECT_NE(Crash.Stopped.find("killed"), std::string::npos) << Crash.Stopped;
  EXPECT_EQ(Crash.Launches.size(), 1u);
  RecordedRun Hang = run(P, {}, "h100-sxm", 1);
  EXPECT_EQ(Hang.Stopped, "stopped after the time limit of 1 s");
  EXPECT_EQ(Hang.Launches.size(), 1u);
}

TEST_F(RecordRun, AProgramNvccRejectsIsAnErrorWithNvccsWords) {
  std::string P = write("int main() { return undeclared; }\n");
  RecordRequest R;
  R.Nvcc = Tk.Nvcc;
  R.Files = {P};
  R.Board = "h100-sxm";
  R.RuntimeDir = GMEM_RECORD_RUNTIME_DIR;
  auto Run = recordProgram(R);
  ASSERT_FALSE(bool(Run));
  std::string Msg = llvm::toString(Run.takeError());
  EXPECT_NE(Msg.find("nvcc could not build"), std::string::npos);
  EXPECT_NE(Msg.find("undeclared"), std::string::npos) << Msg;
}

} // namespace
