//===- hopper_h200_test.cpp - TMA and wgmma against an H200 -------------===//
//
// tests/data/programs/hopper/tma_wgmma.cu loads and stores TMA boxes
// (every swizzle, boxes partly and wholly outside their tensors), runs
// wgmma on shared-memory and register operands of every input type and
// layout, and a small GEMM of both, and checks every byte against layouts
// worked out on the host; an H200 passes all 22 cases
// (tests/data/measured/hopper/tma_wgmma.h200.txt). Recorded by
// gmem-analyze, its kernels run on the executor: the tensor maps are the
// recording driver's, the cases pass, and every launch's counts agree
// with gmem-verify's on the H200. The GPU's per-line counters count each
// warp's wgmma as a shared instruction with its warpgroup's operand
// wavefronts, and its kernel totals do not; gmem's line table does the
// same: 20 launches match, and in 2 the GPU counts the wgmma of an inlined
// function at its call's line (explained).
//
//===----------------------------------------------------------------------===//
#include "differential.h"

#include <gtest/gtest.h>
#include <string>

namespace {

const std::string Dir =
    std::string(GMEM_SOURCE_DIR) + "/tests/data/programs/hopper";
const std::string Flags = " -- -gencode arch=compute_90a,code=sm_90a -lcuda";

nlohmann::json analyze(const std::string &File) {
  return nlohmann::json::parse(
      gmem::test::commandOutput("cd " + Dir + " && " + GMEM_ANALYZE_EXE +
                                " --format json " + File + Flags +
                                " 2>/dev/null"),
      nullptr, /*allow_exceptions=*/false);
}

TEST(HopperOnH200, TmaAndWgmmaRunAsOnTheGpuAndEveryLaunchMatches) {
  const std::string Out = gmem::test::commandOutput(
      "cd " + Dir + " && " + GMEM_ANALYZE_EXE +
      " --compare ../../measured/hopper/tma_wgmma.h200.json tma_wgmma.cu" +
      Flags + " 2>&1");
  if (Out.find("launches recorded from a run") == std::string::npos)
    GTEST_SKIP() << "no toolkit to build and record with:\n" << Out;
  EXPECT_NE(Out.find("22 launches: 20 match, 2 differ (2 explained, 0 "
                     "unexplained), 0 not compared"),
            std::string::npos)
      << Out;
  const nlohmann::json J = analyze("tma_wgmma.cu");
  ASSERT_TRUE(J.contains("compiler")) << J.dump();
  EXPECT_EQ(J["compiler"].value("program_exit", -1), 0);
  EXPECT_NE(J["compiler"].value("program_output", "").find("0 case(s) differ"),
            std::string::npos)
      << J["compiler"].value("program_output", "");
  for (const auto &L : J["launches"])
    EXPECT_EQ(L.value("path", ""), "executed") << L.dump();
}

// A box whose innermost coordinate is not at a multiple of 16 bytes: the
// H200 stopped 7 of 7 such launches with an illegal instruction.
TEST(HopperOnH200, AnUnalignedBoxStopsItsLaunchAsOnTheGpu) {
  const nlohmann::json J = analyze("tma_unaligned.cu");
  if (!J.contains("launches") || J["launches"].empty())
    GTEST_SKIP() << "no toolkit to build and record with: " << J.dump();
  const std::string Why = J["launches"][0].value("path_why", "");
  EXPECT_NE(Why.find("innermost coordinate (90) is not at a multiple of 16 "
                     "bytes"),
            std::string::npos)
      << Why;
  // The program's copy returns the fault, which it prints, as on the H200.
  EXPECT_EQ(J["compiler"].value("program_output", ""),
            "an illegal instruction was encountered\n");
  EXPECT_EQ(J["compiler"].value("program_exit", -1), 1);
}

} // namespace
