//===- fast_path_examples_test.cpp - Fast path == every warp on real code -===//
//
// Every launch of every program in examples/ (seeds_gt.cu included) is
// simulated by classes of alike blocks (what
// analyze() does) and by the every-warp reference, at full size: all counts,
// examples and diagnostics must be equal.
//
//===----------------------------------------------------------------------===//
#include "analysis.h"
#include "example_files.h"
#include "fast_path_compare.h"
#include "simulate.h"

#include <gtest/gtest.h>
#include <string>

using namespace gmem;
using namespace gmem::test;

namespace {

void expectSameAsEveryWarp(const std::string &Path) {
  const Analysis &A = analyze(Path, measuredDeviceOverrides(Path));
  ASSERT_FALSE(A.Results.empty()) << Path;
  SimOptions Every;
  Every.Exhaustive = true;
  Every.MaxWarps = ~uint64_t(0);
  for (const LaunchResult &R : A.Results) {
    LaunchResult Ref = simulate(*R.K, R.L, Every);
    EXPECT_EQ(compareResults(R, Ref), "") << Path << ": " << R.K->Name;
    EXPECT_EQ(R.Warps, Ref.Warps);
    EXPECT_EQ(R.WarpsEvaluated + R.WarpsDerived, R.Warps);
  }
}

TEST(FastPathOnPrograms, EveryExampleIsChecked) {
  // The six seed programs, seeds_gt.cu and the compiled-form examples.
  EXPECT_GE(cudaFiles(sourceDir() + "/examples").size(), 9u);
}

// One test per example, so that GoogleTest's shards share the reference
// runs (together the suite's longest test).
class EveryExample : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryExample, EqualsEveryWarp) {
  expectSameAsEveryWarp(sourceDir() + "/examples/" + GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    FastPathOnPrograms, EveryExample,
    ::testing::ValuesIn(cudaFiles(sourceDir() + "/examples")),
    [](const auto &Info) { return testNameOf(Info.param); });

// The loop nests counted by periods (the default) against every iteration
// of every loop, on every warp.
TEST(FastPathOnPrograms, LoopNestsEqualEveryIteration) {
  const Analysis &A = analyze(sourceDir() + "/examples/loop_nests.cu");
  ASSERT_EQ(A.Results.size(), 7u);
  SimOptions Every;
  Every.Exhaustive = true;
  Every.EveryIteration = true;
  Every.MaxWarps = ~uint64_t(0);
  for (const LaunchResult &R : A.Results) {
    LaunchResult Ref = simulate(*R.K, R.L, Every);
    EXPECT_EQ(compareResults(R, Ref), "") << R.K->Name;
  }
}

} // namespace
