//===- measured_json_test.cpp - Writing and merging measured.json ---------===//
//
// Values are those of the ground truth's sgemm_coalescing<32> launch
// (h200_summary.txt: 67141632 load requests, 2.50 sectors per request,
// 82.5% load efficiency); the round trip reads them back with the
// measured.json reader of gmem_measured.
//
//===----------------------------------------------------------------------===//
#include "importers.h"
#include "measured_json.h"

#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::cupti;

namespace {
MeasuredLaunch sgemmLaunch() {
  MeasuredLaunch L;
  L.Index = 31;
  L.Kernel = "sgemm_coalescing<32>";
  L.Demangled = "void sgemm_coalescing<32u>(int, int, int, float, float "
                "const*, float const*, float, float*)";
  L.Mangled = "_Z16sgemm_coalescingILj32EEviiifPKfS1_fPf";
  L.Grid = {1024, 1, 1};
  L.Block = {1024, 1, 1};
  MeasuredArg M;
  M.Type = "int";
  M.Size = 4;
  M.Value = 1024;
  MeasuredArg Alpha;
  Alpha.Type = "float";
  Alpha.Size = 4;
  Alpha.FloatValue = 1.0;
  MeasuredArg A;
  A.Type = "const float*";
  A.Size = 8;
  A.AlignOffset = 0;
  L.Args = {M, Alpha, A};
  L.Metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] = 67141632;
  L.Metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 167854080;
  L.Metrics["smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"] =
      82.5;
  MeasuredLine Ln;
  Ln.File = "seeds_gt.cu";
  Ln.Line = 290;
  Ln.InstExecuted = 100;
  Ln.Sectors = 400;
  Ln.SectorsIdeal = 400;
  L.Lines = {Ln};
  return L;
}

Measurement oneLaunch() {
  Measurement M;
  M.Device = "NVIDIA H200";
  M.ComputeCapability = "9.0";
  M.DriverVersion = "580.159.04";
  M.CudaVersion = "13.0";
  M.Date = "2026-11-21T10:00:00Z";
  M.Program = {"./seeds_gt"};
  M.Launches = {sgemmLaunch()};
  return M;
}
} // namespace

TEST(CuptiMeasuredJson, CountersAreIntegersRatiosAreNot) {
  std::string Text = measurementToJson(oneLaunch()).dump();
  EXPECT_NE(Text.find("\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\":"
                      "67141632,"),
            std::string::npos);
  EXPECT_NE(Text.find("op_ld.pct\":82.5"), std::string::npos);
  EXPECT_EQ(Text.find("\"error\""), std::string::npos);
}

TEST(CuptiMeasuredJson, NonFiniteMetricsAreLeftOut) {
  Measurement M = oneLaunch();
  M.Launches[0].Metrics["smsp__sass_average_data_bytes_per_sector_mem_"
                        "global_op_st.pct"] = 0.0 / 0.0;
  OrderedJson J = measurementToJson(M);
  EXPECT_FALSE(J["launches"][0]["metrics"].contains(
      "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct"));
}

TEST(CuptiMeasuredJson, RoundTripsThroughTheReader) {
  std::string Text = measurementToJson(oneLaunch()).dump(1);
  ImportResult R = parseMeasuredJson(Text, "measured.json");
  ASSERT_TRUE(R) << R.error();
  EXPECT_EQ(R->Tool, "gmem-verify");
  EXPECT_EQ(R->Device, "NVIDIA H200");
  EXPECT_EQ(R->ComputeCapability, "9.0");
  EXPECT_EQ(R->DriverVersion, "580.159.04");
  ASSERT_EQ(R->Launches.size(), 1u);
  const MeasuredLaunch &L = R->Launches[0];
  EXPECT_EQ(L.Index, 31u);
  EXPECT_EQ(L.Kernel, "sgemm_coalescing<32>");
  EXPECT_EQ(L.Grid, (std::array<uint64_t, 3>{1024, 1, 1}));
  ASSERT_EQ(L.Args.size(), 3u);
  EXPECT_EQ(*L.Args[0].Value, 1024);
  EXPECT_DOUBLE_EQ(*L.Args[1].FloatValue, 1.0);
  EXPECT_EQ(*L.Args[2].AlignOffset, 0u);
  EXPECT_DOUBLE_EQ(
      L.Metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
      167854080.0);
  ASSERT_EQ(L.Lines.size(), 1u);
  EXPECT_EQ(L.Lines[0].Line, 290u);
  EXPECT_EQ(L.Lines[0].SectorsIdeal, 400u);
}

TEST(CuptiMeasuredJson, GraphLaunchesAreCountedOnlyWhenThereWereSome) {
  Measurement M = oneLaunch();
  EXPECT_FALSE(measurementToJson(M).contains("graph_launches"));
  M.GraphLaunches = 2;
  std::string Text = measurementToJson(M).dump(1);
  ImportResult R = parseMeasuredJson(Text, "measured.json");
  ASSERT_TRUE(R) << R.error();
  EXPECT_EQ(R->GraphLaunches, 2u);
  EXPECT_EQ(R->Launches.size(), 1u);
}

TEST(CuptiMeasuredJson, CountersTakenWithoutReplayAreSaid) {
  // gmem-verify --no-replay: each counter run took one pass, so no launch
  // was replayed; every launch read carries it, and a document without the
  // field was replayed (gmem-verify's default, Nsight Compute's).
  Measurement M = oneLaunch();
  EXPECT_FALSE(measurementToJson(M).contains("kernel_replay"));
  ImportResult Replayed =
      parseMeasuredJson(measurementToJson(M).dump(1), "measured.json");
  ASSERT_TRUE(Replayed) << Replayed.error();
  EXPECT_TRUE(Replayed->Launches[0].KernelReplay);
  M.KernelReplay = false;
  ImportResult R =
      parseMeasuredJson(measurementToJson(M).dump(1), "measured.json");
  ASSERT_TRUE(R) << R.error();
  EXPECT_FALSE(R->KernelReplay);
  EXPECT_FALSE(R->Launches[0].KernelReplay);
  OrderedJson Bad = measurementToJson(M);
  Bad["kernel_replay"] = "no";
  ImportResult Wrong = parseMeasuredJson(Bad.dump(1), "measured.json");
  ASSERT_FALSE(Wrong);
  EXPECT_NE(Wrong.error().find("kernel_replay"), std::string::npos)
      << Wrong.error();
}

TEST(CuptiMeasuredJson, ErrorIsRecordedForTheLauncher) {
  OrderedJson J =
      measurementToJson(Measurement(), "cuptiProfilerHostInitialize: no");
  EXPECT_EQ(J["error"], "cuptiProfilerHostInitialize: no");
  EXPECT_TRUE(J["launches"].empty());
}

TEST(CuptiMergeLinePass, AddsLinesByIndex) {
  Measurement Counters = oneLaunch();
  Counters.Launches[0].Lines.clear();
  Measurement Lines = oneLaunch();
  Lines.Launches[0].Metrics.clear();
  MergeOutcome M =
      mergeLinePass(measurementToJson(Counters), measurementToJson(Lines));
  EXPECT_TRUE(M.Warnings.empty());
  ASSERT_EQ(M.Doc["launches"][0]["lines"].size(), 1u);
  EXPECT_EQ(M.Doc["launches"][0]["lines"][0]["line"], 290);
  EXPECT_EQ(M.Doc["launches"][0]["metrics"].size(), 3u);
}

TEST(CuptiMergeLinePass, DifferentConfigurationKeepsNoLines) {
  Measurement Counters = oneLaunch();
  Counters.Launches[0].Lines.clear();
  Measurement Lines = oneLaunch();
  Lines.Launches[0].Grid = {512, 1, 1};
  MergeOutcome M =
      mergeLinePass(measurementToJson(Counters), measurementToJson(Lines));
  ASSERT_EQ(M.Warnings.size(), 1u);
  EXPECT_NE(M.Warnings[0].find("launch 31 differs"), std::string::npos);
  EXPECT_TRUE(M.Doc["launches"][0]["lines"].empty());
}

TEST(CuptiMergeLinePass, LaunchesOnOneSideOnlyAreReported) {
  Measurement Counters = oneLaunch();
  Measurement Lines = oneLaunch();
  Lines.Launches[0].Index = 32;
  MergeOutcome M =
      mergeLinePass(measurementToJson(Counters), measurementToJson(Lines));
  ASSERT_EQ(M.Warnings.size(), 2u);
  EXPECT_NE(M.Warnings[0].find("launch 31"), std::string::npos);
  EXPECT_NE(M.Warnings[1].find("launch 32"), std::string::npos);
}

// An LU factorisation launches two kernels per step, each with its own
// grid: past --line-runs, each kernel's first launch is kept for the
// per-line runs, then the others in order; the rest come back in order.
TEST(CuptiLineRuns, EachKernelsFirstThenInOrder) {
  OrderedJson Doc = {{"launches", OrderedJson::array()}};
  for (unsigned I = 0; I < 6; ++I)
    Doc["launches"].push_back(
        {{"index", I}, {"kernel", I < 5 ? "lu_kernel1" : "lu_kernel2"}});
  OrderedJson Aside = setAsideFromLineRuns(Doc, 3);
  auto Indices = [](const OrderedJson &Launches) {
    std::vector<unsigned> Out;
    for (const OrderedJson &L : Launches)
      Out.push_back(L["index"].get<unsigned>());
    return Out;
  };
  EXPECT_EQ(Indices(Doc["launches"]), (std::vector<unsigned>{0, 1, 5}));
  EXPECT_EQ(Indices(Aside), (std::vector<unsigned>{2, 3, 4}));
  putBackLaunches(Doc, std::move(Aside));
  EXPECT_EQ(Indices(Doc["launches"]),
            (std::vector<unsigned>{0, 1, 2, 3, 4, 5}));
  // Within the limit nothing is set aside.
  EXPECT_TRUE(setAsideFromLineRuns(Doc, 6).empty());
  EXPECT_EQ(Doc["launches"].size(), 6u);
}

TEST(CuptiIso8601, Shape) {
  std::string D = utcNowIso8601();
  ASSERT_EQ(D.size(), 20u);
  EXPECT_EQ(D[4], '-');
  EXPECT_EQ(D[10], 'T');
  EXPECT_EQ(D.back(), 'Z');
}

// The traffic run's figures of sgemm_coalescing<32> as gmem-verify measured
// them on the H200 (tests/data/traffic/verify/sgemm.json).
TEST(CuptiMergeTrafficPass, AddsTheTrafficMetricsByIndex) {
  Measurement Counters = oneLaunch();
  Measurement Traffic = oneLaunch();
  Traffic.Launches[0].Lines.clear();
  Traffic.Launches[0].Metrics = {{"dram__bytes_read.sum", 12589056},
                                 {"gpu__time_duration.sum", 365088},
                                 {"sm__cycles_elapsed.avg.per_second", 1.97e9}};
  MergeOutcome M =
      mergeTrafficPass(measurementToJson(Counters), measurementToJson(Traffic));
  EXPECT_TRUE(M.Warnings.empty());
  const OrderedJson &Metrics = M.Doc["launches"][0]["metrics"];
  EXPECT_EQ(Metrics.size(), 6u); // The counters' three and these three.
  EXPECT_EQ(Metrics["dram__bytes_read.sum"], 12589056);
  EXPECT_EQ(Metrics["gpu__time_duration.sum"], 365088);
  EXPECT_DOUBLE_EQ(Metrics["sm__cycles_elapsed.avg.per_second"].get<double>(),
                   1.97e9);
  EXPECT_EQ(M.Doc["launches"][0]["lines"].size(), 1u); // Kept.
}

TEST(CuptiMergeTrafficPass, MissingOrDifferentLaunchesAreSaid) {
  Measurement Counters = oneLaunch();
  Measurement Traffic = oneLaunch();
  Traffic.Launches[0].Block = {64, 1, 1};
  Traffic.Launches[0].Metrics = {{"dram__bytes_read.sum", 1}};
  MergeOutcome M =
      mergeTrafficPass(measurementToJson(Counters), measurementToJson(Traffic));
  ASSERT_EQ(M.Warnings.size(), 1u);
  EXPECT_NE(M.Warnings[0].find("launch 31 differs"), std::string::npos);
  EXPECT_FALSE(
      M.Doc["launches"][0]["metrics"].contains("dram__bytes_read.sum"));
  Traffic.Launches.clear();
  M = mergeTrafficPass(measurementToJson(Counters), measurementToJson(Traffic));
  ASSERT_EQ(M.Warnings.size(), 1u);
  EXPECT_NE(M.Warnings[0].find("no DRAM bytes or duration"), std::string::npos);
}
