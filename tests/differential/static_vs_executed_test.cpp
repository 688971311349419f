//===- static_vs_executed_test.cpp - The model against the executed PTX ---===//
//
// Every example is analysed twice, as a user would run it: priced by the
// kernel model (--path model) and run on the PTX nvcc emitted in the same
// build (--path executed). Where the model knows a figure, the executor
// must give the same value, launch by launch, for every metric (requests,
// sectors, wavefronts, instructions, efficiencies): they share no code
// between the source and the request events (Clang's AST against nvcc's
// PTX), so agreement checks both. The executor must know
// every figure, except for the instructions it does not implement
// (texture and surface), which it names.
//
//===----------------------------------------------------------------------===//
#include "differential.h"
#include "example_files.h"

#include <gtest/gtest.h>
#include <string>

namespace {

using nlohmann::json;
using namespace gmem::test;

class StaticVsExecuted : public ::testing::TestWithParam<std::string> {};

TEST_P(StaticVsExecuted, SameFigures) {
  const std::string Examples = std::string(GMEM_SOURCE_DIR) + "/examples";
  // The model's run records the launches without running the kernels: its
  // figures are the same either way on every example (the examples' checks
  // of their results do not decide their launches), and the figures that
  // need the kernels run (instructions issued) come from the executor
  // itself. Running them twice took half of the suite's longest tests.
  const json Model =
      analyzeAs(Examples, GetParam(), "model", /*ExecSeconds=*/0);
  const json Run = analyzeAs(Examples, GetParam(), "executed");
  ASSERT_TRUE(Model.is_object() && Run.is_object()) << GetParam();
  if (Run["compiler"].value("launches", "") != "recorded")
    GTEST_SKIP() << "no toolkit to build and record with: "
                 << Run["compiler"].dump();
  expectSameFigures(Model, Run);
}

// The printed seed reads out of its shared tile: it is there to be flagged,
// not run.
INSTANTIATE_TEST_SUITE_P(
    Examples, StaticVsExecuted,
    ::testing::ValuesIn(cudaFiles(std::string(GMEM_SOURCE_DIR) + "/examples",
                                  "transpose_seed_printed.cu")),
    [](const auto &Info) { return testNameOf(Info.param); });

} // namespace
