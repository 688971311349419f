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

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>

namespace {

using nlohmann::json;
using namespace gmem::test;

class StaticVsExecuted : public ::testing::TestWithParam<std::string> {};

TEST_P(StaticVsExecuted, SameFigures) {
  const std::string Examples = std::string(GMEM_SOURCE_DIR) + "/examples";
  const json Model = analyzeAs(Examples, GetParam(), "model");
  const json Run = analyzeAs(Examples, GetParam(), "executed");
  ASSERT_TRUE(Model.is_object() && Run.is_object()) << GetParam();
  if (Run["compiler"].value("launches", "") != "recorded")
    GTEST_SKIP() << "no toolkit to build and record with: "
                 << Run["compiler"].dump();
  expectSameFigures(Model, Run);
}

std::vector<std::string> examples() {
  std::vector<std::string> Names;
  for (const auto &E : std::filesystem::directory_iterator(
           std::string(GMEM_SOURCE_DIR) + "/examples"))
    // The printed seed reads out of its shared tile: it is there to be
    // flagged, not run.
    if (E.path().extension() == ".cu" &&
        E.path().filename() != "transpose_seed_printed.cu")
      Names.push_back(E.path().filename().string());
  std::sort(Names.begin(), Names.end());
  return Names;
}

INSTANTIATE_TEST_SUITE_P(Examples, StaticVsExecuted,
                         ::testing::ValuesIn(examples()), [](const auto &Info) {
                           std::string N = Info.param;
                           N = N.substr(0, N.size() - 3);
                           for (char &C : N)
                             if (!std::isalnum(static_cast<unsigned char>(C)))
                               C = '_';
                           return N;
                         });

} // namespace
