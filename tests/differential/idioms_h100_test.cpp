//===- idioms_h100_test.cpp - The idioms of issue 30 against an H100 ------===//
//
// tests/data/programs/idioms: CUB block primitives, WMMA and ldmatrix,
// grid-wide sync, Thrust, a captured lambda with __constant__ data, and a
// device function of another file (-rdc=true), each measured with
// gmem-verify on an H100, and TF32 WMMA on an H200
// (tests/data/measured/idioms; programs.txt beside the programs).
// gmem-analyze, given only the files and nvcc's flags, must agree with
// every launch: as many launches match as listed, and the others are
// explained (a spin-wait's polls, which timing decides; executions with
// every lane predicated off), never a mismatch. Thrust's async copy's
// shared efficiency matches since its shared side is priced from both
// sides' addresses (simulator/async_copy_units.h).
//
//===----------------------------------------------------------------------===//
#include "differential.h"

#include <gtest/gtest.h>
#include <ostream>
#include <string>

namespace {

struct Idiom {
  const char *Name, *Args;
  int Launches, Match;
  const char *Board = "h100"; ///< Which measurement: NAME.BOARD.json.
};

void PrintTo(const Idiom &I, std::ostream *OS) { *OS << I.Name; }

class IdiomsOnH100 : public ::testing::TestWithParam<Idiom> {};

TEST_P(IdiomsOnH100, EveryLaunchAgrees) {
  const Idiom &I = GetParam();
  const std::string Dir =
      std::string(GMEM_SOURCE_DIR) + "/tests/data/programs/idioms";
  const std::string Cmd = "cd " + Dir + " && " + GMEM_ANALYZE_EXE +
                          " --compare ../../measured/idioms/" + I.Name +
                          "." + I.Board + ".json " + I.Args + " 2>&1";
  const std::string Out = gmem::test::commandOutput(Cmd);
  if (Out.find("launches recorded from a run") == std::string::npos)
    GTEST_SKIP() << "no toolkit to build and record with:\n" << Out;
  const std::string Want = std::to_string(I.Launches) +
                           " launches: " + std::to_string(I.Match) +
                           " match, " + std::to_string(I.Launches - I.Match) +
                           " differ (" + std::to_string(I.Launches - I.Match) +
                           " explained, 0 unexplained), 0 not compared";
  EXPECT_NE(Out.find(Want), std::string::npos) << Want << "\n" << Out;
}

// The counts are those of gmem-analyze --compare against the H100 run.
INSTANTIATE_TEST_SUITE_P(
    Idioms, IdiomsOnH100,
    ::testing::Values(Idiom{"cub_block", "cub_block.cu", 5, 5},
                      Idiom{"wmma_ldmatrix", "wmma_ldmatrix.cu", 4, 4},
                      // TF32 fragments: four 32-bit loads each, no LDSM.
                      Idiom{"wmma_tf32", "wmma_tf32.cu", 2, 2, "h200"},
                      Idiom{"lambda_const",
                            "lambda_const.cu -- --extended-lambda", 3, 3},
                      Idiom{"rdc", "rdc_main.cu rdc_lib.cu -- -rdc=true", 1, 1},
                      Idiom{"grid_sync", "grid_sync.cu", 1, 0},
                      Idiom{"thrust_algos", "thrust_algos.cu", 14, 10}),
    [](const auto &Info) { return std::string(Info.param.Name); });

} // namespace
