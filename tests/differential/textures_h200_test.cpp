//===- textures_h200_test.cpp - Texture and surface objects against an H200
//===//
//
// tests/data/programs/textures/sampling.cu fetches through textures of
// every kind (point and linear filtering, each address mode, normalized
// coordinates, 8-bit channels, layered, 3-D and cube arrays, pitched and
// linear memory, gathers) and surfaces, and checks every value against the
// rules an H200 follows (tests/data/measured/textures/sampling.h200.txt:
// the H200's values against them). Recorded by gmem-analyze, its kernels run
// on the executor: the program's checks pass, so it runs to its end, and
// every launch's counts agree with gmem-verify's on the H200.
//
//===----------------------------------------------------------------------===//
#include "differential.h"

#include <gtest/gtest.h>
#include <string>

namespace {

TEST(TexturesOnH200, TheProgramRunsToItsEndAndEveryLaunchMatches) {
  const std::string Dir =
      std::string(GMEM_SOURCE_DIR) + "/tests/data/programs/textures";
  const std::string Out = gmem::test::commandOutput(
      "cd " + Dir + " && " + GMEM_ANALYZE_EXE +
      " --compare ../../measured/textures/sampling.h200.json sampling.cu 2>&1");
  if (Out.find("launches recorded from a run") == std::string::npos)
    GTEST_SKIP() << "no toolkit to build and record with:\n" << Out;
  EXPECT_EQ(Out.find("the program exited"), std::string::npos) << Out;
  EXPECT_NE(Out.find("17 launches: 17 match, 0 differ (0 explained, 0 "
                     "unexplained), 0 not compared"),
            std::string::npos)
      << Out;
}

} // namespace
