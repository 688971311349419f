//===- validation_data_test.cpp - The examples' GPU measurements ----------===//
//
// scripts/measure_examples.sh runs gmem-verify on every example on the lent
// GPU and writes tests/data/measured/<example>.json; scripts/
// make_validation.py turns them, with gmem-analyze --compare, into
// docs/VALIDATION.md. These tests check, without a GPU or Clang, that the
// recorded files are complete, that gmem-verify's counters agree with what
// Nsight Compute measured for the same kernels and launch configurations
// (tests/data/groundtruth/h200_ncu_seeds.csv), and that docs/VALIDATION.md
// covers every recorded launch. (The comparison with the predictions needs
// the analyzer: tests/golden/compare_groundtruth_test.cpp.)
//
//===----------------------------------------------------------------------===//
#include "compare.h"
#include "importers.h"
#include "launch_time.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <numeric>
#include <sstream>

using namespace gmem;
namespace fs = std::filesystem;

namespace {

const fs::path MeasuredDir = fs::path(GMEM_SOURCE_DIR) / "tests/data/measured";

std::vector<fs::path> measuredFiles() {
  std::vector<fs::path> Files;
  if (fs::is_directory(MeasuredDir))
    for (const fs::directory_entry &E : fs::directory_iterator(MeasuredDir))
      if (E.path().extension() == ".json")
        Files.push_back(E.path());
  std::sort(Files.begin(), Files.end());
  return Files;
}

#define SKIP_WITHOUT_MEASUREMENTS(Files)                                       \
  do {                                                                         \
    if ((Files).empty())                                                       \
      GTEST_SKIP() << "no measurements in " << MeasuredDir                     \
                   << " yet: run scripts/measure_examples.sh on a GPU";        \
  } while (false)

TEST(ValidationData, EveryFileRecordsItsDeviceAndEveryLaunch) {
  std::vector<fs::path> Files = measuredFiles();
  SKIP_WITHOUT_MEASUREMENTS(Files);
  for (const fs::path &P : Files) {
    SCOPED_TRACE(P.string());
    ImportResult R = readMeasuredJson(P.string());
    ASSERT_TRUE(bool(R)) << R.error();
    EXPECT_EQ(R->Tool, "gmem-verify");
    EXPECT_FALSE(R->Device.empty());
    EXPECT_FALSE(R->ComputeCapability.empty());
    EXPECT_FALSE(R->DriverVersion.empty());
    EXPECT_FALSE(R->CudaVersion.empty());
    EXPECT_FALSE(R->Date.empty());
    EXPECT_FALSE(R->Launches.empty());
    for (const MeasuredLaunch &L : R->Launches) {
      SCOPED_TRACE(L.Kernel);
      EXPECT_TRUE(
          L.Metrics.count("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"));
      // Built with -lineinfo: the SASS counters map to source lines.
      EXPECT_FALSE(L.Lines.empty());
    }
  }
}

TEST(ValidationData, EveryRunnableExampleIsMeasured) {
  std::vector<fs::path> Files = measuredFiles();
  SKIP_WITHOUT_MEASUREMENTS(Files);
  for (const fs::directory_entry &E :
       fs::directory_iterator(fs::path(GMEM_SOURCE_DIR) / "examples")) {
    if (E.path().extension() != ".cu")
      continue;
    std::string Name = E.path().stem().string();
    if (Name == "transpose_seed_printed")
      continue; // Faults on the GPU by design (examples/README.md).
    EXPECT_TRUE(fs::exists(MeasuredDir / (Name + ".json"))) << Name;
  }
}

/// examples/bank_contention.cu on the H200 (its 132 SMs): lane L of warp W
/// reads word (L * S + R * 33 + W) mod 1024 of a shared tile, so each load
/// costs gcd(S, 32) wavefronts by the bank rule, and each store of the
/// row-wise fill one. Launches of at most one block per SM count exactly
/// that; more blocks cost more, never more than SharedContentionAtMost
/// above it (simulator/launch_time.h), and above it somewhere (the effect
/// the bound is about is there).
TEST(ValidationData, SharedContentionStaysWithinItsBound) {
  ImportResult R =
      readMeasuredJson((MeasuredDir / "bank_contention.json").string());
  ASSERT_TRUE(bool(R)) << R.error();
  ASSERT_EQ(R->Launches.size(), 192u);
  unsigned Above = 0;
  for (const MeasuredLaunch &L : R->Launches) {
    SCOPED_TRACE(L.Kernel + " on " + std::to_string(L.Grid[0]) + " blocks");
    unsigned Stride = 0;
    ASSERT_EQ(std::sscanf(L.Kernel.c_str(), "columnReads<%u", &Stride), 1);
    const double Ways = double(std::gcd(Stride, 32u));
    const double LdRule =
        Ways * L.Metrics.at("smsp__sass_inst_executed_op_shared_ld.sum");
    const double StRule =
        L.Metrics.at("smsp__sass_inst_executed_op_shared_st.sum");
    const double Ld =
        L.Metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum");
    const double St =
        L.Metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
    if (L.Grid[0] <= 132) {
      EXPECT_EQ(Ld, LdRule);
      EXPECT_EQ(St, StRule);
      continue;
    }
    EXPECT_GE(Ld + St, LdRule + StRule);
    EXPECT_LE(Ld + St, (LdRule + StRule) * (1 + SharedContentionAtMost));
    Above += Ld + St > LdRule + StRule;
  }
  EXPECT_GT(Above, 0u);
}

/// gmem-verify (CUPTI range profiler) and Nsight Compute count the same
/// events: for a kernel of the ground truth run with the same grid and
/// block, global counts agree exactly and shared wavefronts per request
/// within the contention of large grids.
TEST(ValidationData, AgreesWithNsightComputeOnTheSameKernels) {
  std::vector<fs::path> Files = measuredFiles();
  SKIP_WITHOUT_MEASUREMENTS(Files);
  ImportResult Truth = readNcuCsv(std::string(GMEM_SOURCE_DIR) +
                                  "/tests/data/groundtruth/h200_ncu_seeds.csv");
  ASSERT_TRUE(bool(Truth)) << Truth.error();
  const char *Exact[] = {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                         "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                         "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
                         "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                         "smsp__sass_inst_executed_op_shared_ld.sum",
                         "smsp__sass_inst_executed_op_shared_st.sum"};
  unsigned Compared = 0;
  for (const fs::path &P : Files) {
    ImportResult R = readMeasuredJson(P.string());
    ASSERT_TRUE(bool(R)) << R.error();
    for (const MeasuredLaunch &L : R->Launches) {
      const MeasuredLaunch *T = nullptr;
      for (const MeasuredLaunch &C : Truth->Launches)
        if (C.Kernel == L.Kernel && C.Grid == L.Grid && C.Block == L.Block)
          T = &C;
      if (!T)
        continue;
      SCOPED_TRACE(P.filename().string() + ": " + L.Kernel);
      ++Compared;
      for (const char *Name : Exact) {
        if (L.Metrics.count(Name) && T->Metrics.count(Name)) {
          EXPECT_EQ(L.Metrics.at(Name), T->Metrics.at(Name)) << Name;
        }
      }
      for (const char *Op : {"ld", "st"}) {
        std::string Inst =
            std::string("smsp__sass_inst_executed_op_shared_") + Op + ".sum";
        std::string Wave =
            std::string("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_") + Op +
            ".sum";
        if (!L.Metrics.count(Wave) || !T->Metrics.count(Wave) ||
            !L.Metrics.at(Inst) || !T->Metrics.at(Inst))
          continue;
        double Mine = L.Metrics.at(Wave) / L.Metrics.at(Inst);
        double Theirs = T->Metrics.at(Wave) / T->Metrics.at(Inst);
        EXPECT_LE(std::fabs(Mine - Theirs), std::max(0.03 * Theirs, 0.15))
            << Wave << " per instruction";
      }
    }
  }
  // The examples are the seeds' kernels: most run as in the ground truth.
  EXPECT_GE(Compared, 20u);
}

TEST(ValidationData, DocumentCoversEveryMeasuredLaunch) {
  std::vector<fs::path> Files = measuredFiles();
  SKIP_WITHOUT_MEASUREMENTS(Files);
  std::ifstream In(fs::path(GMEM_SOURCE_DIR) / "docs/VALIDATION.md");
  ASSERT_TRUE(In) << "docs/VALIDATION.md is missing: run "
                     "scripts/make_validation.py";
  std::stringstream S;
  S << In.rdbuf();
  std::string Doc = S.str();
  for (const fs::path &P : Files) {
    ImportResult R = readMeasuredJson(P.string());
    ASSERT_TRUE(bool(R)) << R.error();
    std::string Rel = "tests/data/measured/" + P.filename().string();
    EXPECT_NE(Doc.find(Rel), std::string::npos) << Rel;
    // Regenerated after the last measurement: the same date and driver.
    EXPECT_NE(Doc.find(R->Date), std::string::npos)
        << Rel
        << ": docs/VALIDATION.md is older than the measurement; run "
           "scripts/make_validation.py";
    EXPECT_NE(Doc.find(R->DriverVersion), std::string::npos) << Rel;
    for (const MeasuredLaunch &L : R->Launches)
      EXPECT_NE(Doc.find("`" + L.Kernel + "`"), std::string::npos)
          << Rel << ": " << L.Kernel;
  }
}

} // namespace
