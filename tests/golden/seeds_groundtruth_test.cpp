//===- seeds_groundtruth_test.cpp - seeds_gt.cu against Hopper counters ---===//
//
// Golden values: tests/data/groundtruth/h200_ncu_seeds.csv, what Nsight Compute
// measured for every launch of seeds_gt.cu on an H200 (sm_90). Request,
// instruction and sector counts and efficiencies must match exactly; shared
// wavefronts per request within 3 % or 0.15, whichever is larger (what
// groundtruth/README.md describes for large grids: warps of several blocks
// on an SM contending, a timing effect).
//
//===----------------------------------------------------------------------===//
#include "analysis.h"
#include "importers.h"
#include "launch_time.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::test;

namespace {

const std::string GtSource = sourceDir() + "/examples/seeds_gt.cu";
const std::string GtCsv = groundTruthDir() + "/h200_ncu_seeds.csv";

const Measurement &measured() {
  static Measurement M = [] {
    ImportResult R = readNcuCsv(GtCsv);
    if (!R) {
      ADD_FAILURE() << R.error();
      return Measurement();
    }
    return *R;
  }();
  return M;
}

double predicted(const LaunchResult &R, const std::string &Name) {
  const Metric &M = R.Metrics.at(Name);
  EXPECT_TRUE(M.Value.has_value())
      << R.K->Name << " " << Name << ": " << M.UnknownReason;
  return M.Value.value_or(-1);
}

TEST(SeedsGroundTruth, SameLaunchesInTheSameOrder) {
  const Analysis &A = analyze(GtSource);
  const Measurement &M = measured();
  ASSERT_EQ(M.Launches.size(), 31u);
  ASSERT_EQ(A.Results.size(), M.Launches.size());
  for (size_t I = 0; I < A.Results.size(); ++I) {
    const LaunchResult &R = A.Results[I];
    const MeasuredLaunch &L = M.Launches[I];
    EXPECT_EQ(R.K->Name, L.Kernel) << "launch " << I;
    EXPECT_EQ(R.L.Grid, (Dim3{L.Grid[0], L.Grid[1], L.Grid[2]})) << L.Kernel;
    EXPECT_EQ(R.L.Block, (Dim3{L.Block[0], L.Block[1], L.Block[2]}))
        << L.Kernel;
  }
}

TEST(SeedsGroundTruth, CountsAndEfficienciesMatchExactly) {
  const Analysis &A = analyze(GtSource);
  const Measurement &M = measured();
  ASSERT_EQ(A.Results.size(), M.Launches.size());
  const char *Exact[] = {
      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
      "smsp__sass_inst_executed_op_shared_ld.sum",
      "smsp__sass_inst_executed_op_shared_st.sum",
  };
  const char *Percent[] = {
      "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
      "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
  };
  for (size_t I = 0; I < A.Results.size(); ++I) {
    const LaunchResult &R = A.Results[I];
    const MeasuredLaunch &L = M.Launches[I];
    for (const char *Name : Exact)
      EXPECT_EQ(predicted(R, Name), L.Metrics.at(Name))
          << "launch " << I << " " << L.Kernel << ": " << Name;
    // ncu prints percentages with two decimals.
    for (const char *Name : Percent)
      EXPECT_NEAR(predicted(R, Name), L.Metrics.at(Name), 0.005)
          << "launch " << I << " " << L.Kernel << ": " << Name;
  }
}

TEST(SeedsGroundTruth, SharedWavefrontsPerRequestWithinCounterNoise) {
  const Analysis &A = analyze(GtSource);
  const Measurement &M = measured();
  ASSERT_EQ(A.Results.size(), M.Launches.size());
  for (size_t I = 0; I < A.Results.size(); ++I) {
    const LaunchResult &R = A.Results[I];
    const MeasuredLaunch &L = M.Launches[I];
    for (const char *Op : {"ld", "st"}) {
      std::string Inst =
          std::string("smsp__sass_inst_executed_op_shared_") + Op + ".sum";
      std::string Wave =
          std::string("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_") + Op +
          ".sum";
      double MeasuredInst = L.Metrics.at(Inst);
      if (MeasuredInst == 0)
        continue;
      double Want = L.Metrics.at(Wave) / MeasuredInst;
      double Got = predicted(R, Wave) / predicted(R, Inst);
      double Tolerance = std::max(0.03 * Want, 0.15);
      EXPECT_NEAR(Got, Want, Tolerance)
          << "launch " << I << " " << L.Kernel << " shared " << Op;
    }
  }
}

TEST(SeedsGroundTruth, SharedWavefrontsAboveTheRuleOnlyWithinContention) {
  // The timing model's figure: the bank rule's wavefronts, exact for a
  // launch of at most one block per SM of the H200's 132, and a bound for
  // more, which the measured ones (loads and stores) lie within.
  const Analysis &A = analyze(GtSource);
  const Measurement &M = measured();
  ASSERT_EQ(A.Results.size(), M.Launches.size());
  MemorySystem H200;
  H200.SMs = 132;
  unsigned Checked = 0;
  for (size_t I = 0; I < A.Results.size(); ++I) {
    const LaunchResult &R = A.Results[I];
    const MeasuredLaunch &L = M.Launches[I];
    SCOPED_TRACE("launch " + std::to_string(I) + " " + L.Kernel);
    const LaunchTime T = predictTime(R, H200);
    const double Measured =
        L.Metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") +
        L.Metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
    if (!T.SharedWavefronts) {
      EXPECT_EQ(Measured, 0);
      continue;
    }
    ++Checked;
    EXPECT_GE(Measured, double(T.SharedWavefronts));
    EXPECT_LE(Measured, double(T.SharedWavefrontsAtMost));
    if (R.L.Grid.count() <= H200.SMs)
      EXPECT_EQ(T.SharedWavefrontsAtMost, T.SharedWavefronts);
  }
  EXPECT_EQ(Checked, 16u); // 5 transposes through shared memory, 11 layouts.
}

TEST(SeedsGroundTruth, SimulatesTheWholeProgram) {
  // Every warp-level request of the program is counted (about 160 million);
  // how long that takes is the benchmark's business (scripts/bench.sh,
  // docs/PERFORMANCE.md), not a test's. Both times are printed.
  const Analysis &A = analyze(GtSource);
  uint64_t Requests = 0;
  for (const LaunchResult &R : A.Results)
    for (const AccessStats &S : R.PerAccess)
      Requests += S.Requests;
  std::printf("seeds_gt.cu: %llu warp-level requests simulated in %.1f s "
              "(%.1f s CPU)\n",
              (unsigned long long)Requests, A.Seconds, A.CpuSeconds);
  EXPECT_GT(Requests, 150000000u);
}

TEST(SeedsGroundTruth, PrintedUnrollPadIsOutOfBounds) {
  // groundtruth/README.md: seed 000's transposeSmemUnrollPad as printed reads
  // tile[irow][icol] with irow up to 31 on a 16-row tile.
  const Analysis &A =
      analyze(sourceDir() + "/examples/transpose_seed_printed.cu");
  bool Flagged = false;
  for (const LaunchResult &R : A.Results)
    for (const std::string &D : R.Diagnostics)
      Flagged |= D.find("out of bounds") != std::string::npos &&
                 D.find("tile") != std::string::npos;
  EXPECT_TRUE(Flagged);
}

} // namespace
