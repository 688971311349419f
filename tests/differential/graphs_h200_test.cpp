//===- graphs_h200_test.cpp - A CUDA graph's launches beside gmem-verify's
//-===//
//
// tests/data/programs/graphs/parity_graph.cu launches two kernels
// directly, captures them into a CUDA graph that it launches twice, then
// launches them directly again; built with -rdc=true, its atomics stay
// ATOM (no result, one elected lane), and the line table gives one
// atomicAdd's instruction to the next one's line. On an H200
// (tests/data/measured/graphs): gmem-verify measures the four direct
// launches, leaves the captured ones alone and counts two graph launches;
// countParity issues 6144 global atomic requests and no reduction.
//
//===----------------------------------------------------------------------===//
#include "differential.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace {

const std::string Src = std::string(GMEM_SOURCE_DIR) + "/tests/data";
const std::string Cache =
    " --cache-dir " + ::testing::TempDir() + "/gmem-cache-graphs ";

TEST(GraphsOnH200, GraphReplaysAreRecordedAndAtomicsAreWhatPtxasMade) {
  const nlohmann::json J = nlohmann::json::parse(
      gmem::test::commandOutput(
          "cd " + Src + "/programs/graphs && " + GMEM_ANALYZE_EXE + Cache +
          " --format json parity_graph.cu -- -rdc=true 2>/dev/null"),
      nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(J.is_object() && J.contains("launches")) << J.dump();
  std::ifstream In(Src + "/measured/graphs/parity_graph.json");
  const nlohmann::json M = nlohmann::json::parse(In);
  // One direct launch of each kernel, the graph's two replays of both,
  // then one direct launch of each again: the GPU ran eight (the report
  // keeps alike launches of one place as one entry with a count).
  unsigned Launches = 0, Counted = 0;
  for (const nlohmann::json &L : J["launches"]) {
    Launches += L["count"].get<unsigned>();
    if (L["kernel"] != "countParity")
      continue;
    Counted += L["count"].get<unsigned>();
    for (const char *Metric :
         {"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
          "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
          "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
          "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
          "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"})
      EXPECT_EQ(L["metrics"][Metric].get<double>(),
                M["launches"][1]["metrics"][Metric].get<double>())
          << Metric << " " << L["grid"].dump();
  }
  EXPECT_EQ(Launches, 8u) << J["warnings"].dump();
  EXPECT_EQ(Counted, 4u);
  EXPECT_EQ(M["graph_launches"], 2);
  // The kernel model alone (it does not follow binary_partition's group
  // sizes) still says no request is a reduction: the SASS has none, though
  // the first atomicAdd's result is unused and the line table gives its
  // ATOMG to the second's line.
  const nlohmann::json Model = nlohmann::json::parse(
      gmem::test::commandOutput(
          "cd " + Src + "/programs/graphs && " + GMEM_ANALYZE_EXE + Cache +
          " --format json --path model parity_graph.cu -- -rdc=true "
          "2>/dev/null"),
      nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(Model.is_object() && Model.contains("launches"));
  for (const nlohmann::json &L : Model["launches"])
    if (L["kernel"] == "countParity")
      EXPECT_EQ(
          L["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"], 0)
          << L["grid"].dump();
}

TEST(GraphsOnH200, TheComparisonLeavesGraphLaunchesOutOfTheMatching) {
  // The measurement holds the direct launches only: the recording's graph
  // replays must not take the place of the last two direct launches.
  const std::string Out = gmem::test::commandOutput(
      "cd " + Src + "/programs/graphs && " + GMEM_ANALYZE_EXE + Cache +
      " parity_graph.cu --compare " + Src +
      "/measured/graphs/parity_graph.json -- -rdc=true 2>&1; echo exit $?");
  EXPECT_NE(Out.find("4 recorded launch(es) ran from CUDA graphs"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("countParity<<<(16,1,1), (512,1,1)>>>"), std::string::npos)
      << Out;
  EXPECT_NE(Out.find("4 launches: 4 match, 0 differ"), std::string::npos)
      << Out;
  EXPECT_NE(Out.find("exit 0"), std::string::npos) << Out;
}

} // namespace
