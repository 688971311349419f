//===- launch_time_test.cpp - Durations against the H200's ----------------===//
//
// The seeds' transposes (examples/transpose.cu, 4096 x 4096 floats, blocks
// of 32x16) on an H200 at the base clock Nsight Compute locks it to: which
// unit limits each, and each unit's bound worked out from the launch's
// figures and the rates of simulator/launch_time.h. The comparison with the
// durations the H200 measured is docs/TRAFFIC.md's.
//
//===----------------------------------------------------------------------===//
#include "analysis.h"
#include "csv.h"
#include "launch_time.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>

using namespace gmem;
using namespace gmem::test;

namespace {

/// Kernel name -> its launch's JSON object.
std::map<std::string, nlohmann::json>
predictedLaunches(const std::string &Args) {
  std::map<std::string, nlohmann::json> P;
  ToolRun R = runTool(Args + " --format json");
  EXPECT_EQ(R.Exit, 0) << R.Err;
  if (R.Exit)
    return P;
  const auto J = nlohmann::json::parse(R.Out);
  for (const auto &L : J["launches"])
    P.emplace(L["kernel"].get<std::string>(), L);
  return P;
}

/// Kernel name -> its launch's "time" object.
std::map<std::string, nlohmann::json> predictedTimes(const std::string &Args) {
  std::map<std::string, nlohmann::json> P;
  for (const auto &[Kernel, L] : predictedLaunches(Args))
    P.emplace(Kernel, L["time"]);
  return P;
}

const char *const Transposes =
    "examples/transpose.cu --gpu h200 --exec-budget 0";

TEST(LaunchTime, EachTransposeIsLimitedByItsBusiestUnit) {
  // Which unit limits each launch follows from its figures: strided loads
  // and stores load L2 (naiveGmem's 8x load sectors, copyGmem's 32-sector
  // stores), the copy and the padded tile move their 117 MB at DRAM's
  // Little's-law rate, the 16-way conflicting tile keeps the L1 pipe busy,
  // and the unrolled tile's half as many blocks leave L2 the longest. How
  // close the durations come to the H200's, and whether each pair of
  // variants is ordered as measured, is docs/TRAFFIC.md's
  // (scripts/traffic_validation.py), not a test's: no test asserts a time.
  const auto Predicted = predictedTimes(Transposes);
  const std::map<std::string, std::string> Limit = {
      {"naiveGmem", "L2"},          {"copyGmem", "L2"},
      {"copyRow", "DRAM"},          {"transposeSmem", "L1"},
      {"transposeSmemPad", "DRAM"}, {"transposeSmemUnrollPad", "L2"}};
  ASSERT_EQ(Predicted.size(), Limit.size());
  for (const auto &[Kernel, Unit] : Limit) {
    const auto &T = Predicted.at(Kernel);
    ASSERT_TRUE(T.value("known", false)) << Kernel << ": " << T;
    EXPECT_EQ(T["limit"], Unit) << Kernel;
  }
}

TEST(LaunchTime, EachUnitsBoundFromTheLaunchsFigures) {
  const auto Launch = predictedLaunches(Transposes).at("copyRow");
  const auto &T = Launch["time"];
  ASSERT_TRUE(T.value("known", false)) << T;
  const TimeRates Rates;
  const double Clock = 1.5e9, SMs = 132;
  EXPECT_EQ(T["clock_hz"], Clock);
  // 128 x 256 blocks of 512 threads: the busiest SM runs ceil(32768 / 132)
  // = 249 of them, 4 at a time (2048 threads), 64 warps resident, each
  // with its one load request of 128 bytes in flight. The launch makes
  // 2^19 load and 2^19 store requests of 4 sectors; DRAM reads 64 MiB and
  // the launch's code and parameters, and writes 47.5 MiB.
  const double Blocks = 249, Share = Blocks / 32768, Sectors = 1 << 21;
  const double Requests = 1 << 19;
  const double Dram =
      67108864.0 + Launch["dram"]["launch_bytes"].get<double>() + 49807360.0;
  const double InFlight = SMs * 64 * 128;
  const double DramRate = std::min(Rates.DramShare * 6016 / 8 * 3201e6 * 2,
                                   InFlight / Rates.DramLatencySeconds);
  EXPECT_NEAR(DramRate, 2.163e12, 1e9); // Little's law, not the peak.
  const double L1PerKind =
      std::max(Requests, Sectors / Rates.L1SectorsPerCycle);
  const std::map<std::string, double> Want = {
      {"DRAM", Dram / DramRate},
      {"L2", (Sectors * Rates.L1MissShare + Sectors) * 32 /
                 (Rates.L2BytesPerSmCycle * SMs * Clock)},
      // The data pipe, after a DRAM round trip.
      {"L1", Rates.DramLatencySeconds + Share * 2 * L1PerKind / Clock},
      {"block launch",
       Blocks * (Rates.CyclesPerBlock + 16 * Rates.CyclesPerWarp) / Clock}};
  ASSERT_EQ(T["bounds"].size(), Want.size());
  for (const auto &B : T["bounds"]) {
    const std::string Unit = B["unit"];
    EXPECT_NEAR(B["seconds"].get<double>(), Want.at(Unit), 1e-9) << Unit;
  }
  EXPECT_EQ(T["limit"], "DRAM");
  EXPECT_NEAR(T["seconds"].get<double>(), Rates.LaunchSeconds + Want.at("DRAM"),
              1e-12);
  // The lanes asked for the 64 MiB input and the 64 MiB output.
  EXPECT_EQ(T["requested_bytes"], 2 * 67108864.0);
}

TEST(LaunchTime, ATinyLaunchWaitsARoundTripBeforeItsDataPipe) {
  // examples/coalescing.cu: 128 blocks of one warp read x and y and write
  // z, 16 KiB each. The coalesced warp's 3 requests of 4 sectors take 2
  // cycles each of its SM's data pipe, at 2 sectors a cycle; the strided
  // one's, 32 sectors each, 16. Both wait a DRAM round trip first, so the
  // strided launch comes out slower (the H200 measured 2.6 and 2.7 us),
  // although its 8 times larger requests keep more bytes in flight.
  const auto T =
      predictedTimes("examples/coalescing.cu --gpu h200 --exec-budget 0");
  const TimeRates Rates;
  const double Clock = 1.5e9;
  auto Bound = [&](const std::string &Kernel, const std::string &Unit) {
    for (const auto &B : T.at(Kernel)["bounds"])
      if (B["unit"] == Unit)
        return B["seconds"].get<double>();
    ADD_FAILURE() << Kernel << " has no " << Unit << " bound";
    return 0.0;
  };
  EXPECT_NEAR(Bound("global_add", "L1"),
              Rates.DramLatencySeconds + 3 * 2 / Clock, 1e-12);
  EXPECT_NEAR(Bound("global_add_stride", "L1"),
              Rates.DramLatencySeconds + 3 * 16 / Clock, 1e-12);
  EXPECT_LT(Bound("global_add_stride", "DRAM"), Bound("global_add", "DRAM"));
  EXPECT_LT(T.at("global_add")["seconds"].get<double>(),
            T.at("global_add_stride")["seconds"].get<double>());
}

TEST(LaunchTime, TextSaysWhatLimitsItAndWhatItAssumes) {
  ToolRun R = runTool(std::string(Transposes) + " --kernel copyRow");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_NE(R.Out.find("  time (NVIDIA H200 at 1.50 GHz, its base clock, as "
                       "Nsight Compute locks it): 56.1 us (estimate), "
                       "limited by DRAM (116.92 MB at 2.16 TB/s); L2 "),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("effective bandwidth 2.39 TB/s"), std::string::npos)
      << R.Out;
}

TEST(LaunchTime, UnrecordedBuffersGiveARange) {
  // Read from the host code, the buffers' sizes are not known: DRAM's bytes
  // are only bounded, so the duration is a range whose low end leaves
  // DRAM out.
  const auto T = predictedTimes(
      "examples/transpose.cu --gpu h200 --host interpret --kernel copyRow");
  const auto &C = T.at("copyRow");
  EXPECT_FALSE(C.value("known", true)) << C;
  ASSERT_TRUE(C.contains("seconds_at_least")) << C;
  EXPECT_LT(C["seconds_at_least"].get<double>(),
            C["seconds_at_most"].get<double>());
  EXPECT_NE(C["why"].get<std::string>().find("only bounded"),
            std::string::npos);
}

TEST(LaunchTime, BoardsBeforeVoltaRunAtTheirBoostClock) {
  // nvprof did not lock clocks: the seeds' Quadro P2000 ran at 1480.5 MHz.
  const auto T = predictedTimes(
      "examples/transpose.cu --gpu quadro-p2000 --kernel copyRow");
  EXPECT_EQ(T.at("copyRow")["clock_hz"], 1480500000.0);
  EXPECT_EQ(T.at("copyRow")["clock"], "its boost clock, as nvprof ran it");
}

/// The measured smsp__inst_executed.sum of each kernel's first launch in
/// examples/transpose (tests/data/traffic/h200_ncu.csv).
std::map<std::string, double> measuredTransposeInstructions() {
  std::map<std::string, double> M;
  std::ifstream In(sourceDir() + "/tests/data/traffic/h200_ncu.csv");
  std::string Line;
  std::getline(In, Line);
  const auto Header = csv::splitRecord(Line);
  size_t Inst = 0;
  for (size_t I = 0; Header && I < Header->size(); ++I)
    if ((*Header)[I].rfind("smsp__inst_executed.sum", 0) == 0)
      Inst = I;
  while (std::getline(In, Line)) {
    const auto Fields = csv::splitRecord(Line);
    if (!Inst || !Fields || Fields->size() <= Inst ||
        (*Fields)[0] != "examples/transpose")
      continue;
    const std::string &Name = (*Fields)[2];
    M.emplace(Name.substr(0, Name.find('(')), std::stod((*Fields)[Inst]));
  }
  return M;
}

// Run by the functional recording, each transpose knows the PTX warp
// instructions it reached; weighed by what ptxas made of the kernel, they
// are the SASS warp instructions the H200 issued (straight-line kernels:
// exactly), and bound the duration at 3 per SM and cycle, with the
// 16-way tile's extra shared wavefronts, which hold their warps' issue
// slots too.
TEST(LaunchTime, InstructionIssueFromTheExecutedPtx) {
  const auto Measured = measuredTransposeInstructions();
  ASSERT_EQ(Measured.size(), 6u);
  ToolRun R = runTool("examples/transpose.cu --gpu h200 --format json");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  const auto J = nlohmann::json::parse(R.Out);
  ASSERT_EQ(J["launches"].size(), 6u);
  const TimeRates Rates;
  for (const auto &L : J["launches"]) {
    const std::string Kernel = L["kernel"];
    SCOPED_TRACE(Kernel);
    ASSERT_TRUE(L.contains("sass_warp_instructions")) << L.dump();
    const double Sass = L["sass_warp_instructions"];
    EXPECT_NEAR(Sass, Measured.at(Kernel), 0.01 * Measured.at(Kernel));
    const auto &G = L["grid"], &B = L["block"];
    const double Blocks = G[0].get<double>() * G[1].get<double>(),
                 Warps = B[0].get<double>() * B[1].get<double>() / 32;
    // Every warp reaches at least one instruction.
    EXPECT_GE(L["ptx_issue"]["warp_instructions"].get<double>(),
              Blocks * Warps);
    double Replays = 0;
    for (const auto &A : L["accesses"])
      if (A["space"] == "shared")
        Replays += A["wavefronts"].get<double>() - A["requests"].get<double>();
    // The busiest SM's share of the blocks, as the other bounds take it.
    const double PerSM = std::ceil(Blocks / 132);
    const double Want =
        (Sass + Replays) * PerSM / Blocks / (Rates.IssuePerSmCycle * 1.5e9);
    const auto &Bounds = L["time"]["bounds"];
    auto Issue = std::find_if(Bounds.begin(), Bounds.end(), [](const auto &B) {
      return B["unit"] == "instruction issue";
    });
    ASSERT_NE(Issue, Bounds.end()) << Bounds.dump();
    EXPECT_NEAR((*Issue)["seconds"].get<double>(), Want, 1e-9);
    if (Kernel == "transposeSmem")
      EXPECT_EQ(Replays, 8388608.0 - 524288);
  }
}

// Without a run of the kernels nothing counts their instructions: the
// duration says it leaves instruction issue out.
TEST(LaunchTime, UnexecutedLaunchesSayIssueIsNotPriced) {
  const auto T = predictedTimes(std::string(Transposes) + " --kernel copyRow");
  EXPECT_NE(T.at("copyRow").value("unpriced", "").find("not executed"),
            std::string::npos)
      << T.at("copyRow");
  ToolRun R = runTool(std::string(Transposes) + " --kernel copyRow");
  EXPECT_NE(R.Out.find("not priced: instruction issue: the launch was not "
                       "executed"),
            std::string::npos)
      << R.Out;
}

} // namespace
