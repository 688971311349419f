//===- ldgsts_lines_h200_test.cpp - Async copies' lines against an H200 ---===//
//
// bench/ldgsts_lines.cu copies with 23 lane layouts, each set by
// cudaMemcpyToSymbol into a __constant__ table before its launches, through
// L1 and bypassing it, with and without an L2 prefetch hint: 157 launches
// whose kernel and per-line counters an H200 measured
// (tests/data/measured/ldgsts/lines.json). Recorded by gmem-analyze, every
// launch runs on the executor with the table the host wrote last, and its
// copies are priced by simulator/async_copy_units.cpp: 115 launches match
// and 42 bypassing ones are bounded on both sides, their measured
// wavefronts and per-line sectors inside the bounds.
//
//===----------------------------------------------------------------------===//
#include "differential.h"

#include <gtest/gtest.h>
#include <string>

namespace {

TEST(LdgstsLinesOnH200, EveryLayoutMatchesOrLiesInItsBounds) {
  const std::string Out = gmem::test::commandOutput(
      "cd " + std::string(GMEM_SOURCE_DIR) + "/bench && " + GMEM_ANALYZE_EXE +
      " --compare ../tests/data/measured/ldgsts/lines.json ldgsts_lines.cu"
      " -- -arch=sm_90 -lineinfo 2>&1");
  if (Out.find("launches recorded from a run") == std::string::npos)
    GTEST_SKIP() << "no toolkit to build and record with:\n" << Out;
  // A launch repeated with the same arguments after the host rewrote the
  // table it reads was once taken for a repeat: all 157 priced as layout 0,
  // 86 unexplained.
  EXPECT_NE(Out.find("157 launches: 115 match, 42 differ (42 explained, 0 "
                     "unexplained), 0 not compared"),
            std::string::npos)
      << Out;
  // Layout 4 bypassing L1 (launch 30): L1 counts 16 sectors a request, the
  // line 24, between each quarter warp's distinct sectors and one a lane.
  EXPECT_NE(Out.find("ldgsts_lines.cu:35       2048          2048  "
                     "32768-65536 / 49152"),
            std::string::npos)
      << Out;
}

} // namespace
