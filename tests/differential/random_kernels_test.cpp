//===- random_kernels_test.cpp - The model against the PTX, random kernels ===//
//
// Programs nobody wrote by hand (tests/common/random_kernels.h: 40 random
// kernels, each launched once with a random grid and block) are analysed
// with --path model and --path executed, and every figure of every launch
// must agree. Every address in them depends only on the launch, so the
// model prices each launch completely and the executor is checked against
// it, and the model against nvcc's PTX; except where the model says it
// cannot tell what a line compiled to (then gmem-analyze executes it).
//
// Seeds 1 to 2 run here (80 kernels); GMEM_DIFF_SEEDS=N runs seeds 1 to N
// (scripts/differential_random.sh runs 250 seeds: 10 000 kernels).
//
//===----------------------------------------------------------------------===//
#include "differential.h"
#include "random_kernels.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>

namespace {

using namespace gmem::test;
using nlohmann::json;
namespace fs = std::filesystem;

constexpr unsigned KernelsPerProgram = 40;

class RandomKernels : public ::testing::TestWithParam<unsigned> {};

TEST_P(RandomKernels, ModelAndExecutedGiveTheSameFigures) {
  const unsigned Seed = GetParam();
  const fs::path Dir =
      fs::path(::testing::TempDir()) / ("gmem_diff_" + std::to_string(Seed));
  fs::create_directories(Dir);
  {
    std::ofstream Out(Dir / "random.cu");
    Out << KernelWriter(Seed).program(KernelsPerProgram);
  }
  SCOPED_TRACE((Dir / "random.cu").string());
  const json Model = analyzeAs(Dir.string(), "random.cu", "model");
  const json Run = analyzeAs(Dir.string(), "random.cu", "executed");
  ASSERT_TRUE(Model.is_object() && Run.is_object());
  if (Run["compiler"].value("launches", "") != "recorded")
    GTEST_SKIP() << "no toolkit to build and record with: "
                 << Run["compiler"].dump();
  ASSERT_EQ(Model["launches"].size(), KernelsPerProgram) << Model["warnings"];
  // None of these kernels holds an instruction the executor lacks: every
  // launch is compared, but those the model says it is unsure of.
  unsigned Unsure = 0;
  for (const json &L : Model["launches"])
    Unsure += modelUnsure(L);
  EXPECT_EQ(expectSameFigures(Model, Run) + Unsure, KernelsPerProgram);
  RecordProperty("launches", int(Run["launches"].size()));
  RecordProperty("model_unsure", int(Unsure));
  if (!HasFailure() && !std::getenv("GMEM_DIFF_KEEP"))
    fs::remove_all(Dir);
}

std::vector<unsigned> seeds() {
  unsigned N = 2;
  if (const char *E = std::getenv("GMEM_DIFF_SEEDS"))
    N = unsigned(std::max(1, std::atoi(E)));
  std::vector<unsigned> Out;
  for (unsigned S = 1; S <= N; ++S)
    Out.push_back(S);
  return Out;
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomKernels, ::testing::ValuesIn(seeds()));

} // namespace
