//===- instruction_issue_test.cpp - PTX instructions run, as SASS ones ----===//
//
// simulator/launch_time.h: the SASS warp instructions a run's PTX ones
// stand for, worked out by hand. reduce0 of How_to_optimize_in_GPU's
// reductions (its nvcc 13 sm_90 build) holds 39 PTX instructions, 14 of
// them in its loop (3 of those memory instructions), and 56 SASS ones, 28
// in the loop: ptxas made about 15 of the loop's one rem.u32.
//
//===----------------------------------------------------------------------===//
#include "dram_traffic.h"
#include "launch_time.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace gmem;

namespace {

SassAccount reduce0Sass() {
  SassAccount S;
  S.Read = true;
  S.AllInstructions = 56;
  S.LoopInstructions = 28;
  S.LoopMemory = 3; // LDS, LDS, STS; the PTX's loop has 3 as well.
  return S;
}

/// 1000 warp instructions reached, 800 of them in the loop.
PtxIssue reduce0Run() {
  PtxIssue I;
  I.Issued = 1000;
  I.IssuedInLoops = 800;
  I.Static = 39;
  I.StaticInLoops = 14;
  I.StaticMemoryInLoops = 3;
  return I;
}

TEST(InstructionIssue, LoopsAndStraightCodeWeighedApart) {
  const PtxIssue I = reduce0Run();
  const auto N = sassWarpInstructions(I, reduce0Sass());
  ASSERT_TRUE(N);
  // 800 x 28 / 14 in the loop, 200 x (56 - 28) / (39 - 14) outside.
  EXPECT_DOUBLE_EQ(*N, 800.0 * 2 + 200.0 * 28 / 25);
}

TEST(InstructionIssue, UnrolledLoopsStandForSeveralIterations) {
  // ptxas unrolled the loop 4 times: 4 copies of its 3 memory instructions
  // and of its 28 SASS instructions, each SASS iteration 4 PTX ones.
  SassAccount S = reduce0Sass();
  S.AllInstructions = 56 - 28 + 4 * 28;
  S.LoopInstructions = 4 * 28;
  S.LoopMemory = 4 * 3;
  const PtxIssue I = reduce0Run();
  EXPECT_DOUBLE_EQ(*sassWarpInstructions(I, S), 800.0 * 2 + 200.0 * 28 / 25);
}

TEST(InstructionIssue, WithoutLoopsOrCountsTheWholeKernelsRatio) {
  SassAccount S;
  S.Read = true;
  S.AllInstructions = 23; // The seeds' naiveGmem: straight code.
  PtxIssue I;
  I.Issued = 27 * 100;
  I.Static = 27;
  EXPECT_DOUBLE_EQ(*sassWarpInstructions(I, S), 2300.0);
  // No SASS read, or no PTX: nothing to weigh with.
  EXPECT_FALSE(sassWarpInstructions(I, SassAccount()));
  EXPECT_FALSE(sassWarpInstructions(PtxIssue(), S));
}

} // namespace

// simulator/dram_traffic.h: a launch reads its code besides its data, 16
// bytes a SASS instruction. examples/bank_contention.cu's kernels that load
// no global data read, on the H200 (tests/data/traffic/h200_ncu.csv), 3072
// bytes for 35 SASS instructions and 7168 for 287 (its 64 loads unrolled).
TEST(LaunchReads, CodeBesidesTheData) {
  SassAccount S;
  S.Read = true;
  S.AllInstructions = 35;
  EXPECT_EQ(launchReadBytes(S), LaunchReadFixed + 35 * 16);
  EXPECT_LT(std::fabs(double(launchReadBytes(S)) - 3072), 0.05 * 3072);
  S.AllInstructions = 287;
  EXPECT_LT(std::fabs(double(launchReadBytes(S)) - 7168), 0.05 * 7168);
  // No SASS read: the median of what the examples' launches read besides
  // their data.
  EXPECT_EQ(launchReadBytes(SassAccount()), LaunchReadOverhead);
}
