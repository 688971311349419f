//===- nvprof_csv_test.cpp - Importing nvprof --metrics --csv logs --------===//
//
// The recorded logs hold the numbers the seeds print or state (see
// tests/data/imports/README.md).
//
//===----------------------------------------------------------------------===//
#include "importers.h"
#include "test_paths.h"

#include <gtest/gtest.h>
#include <map>

using namespace gmem;
using test::importFile;

namespace {

using D = std::array<uint64_t, 3>;

std::vector<std::string> kernels(const Measurement &M) {
  std::vector<std::string> Names;
  for (const MeasuredLaunch &L : M.Launches)
    Names.push_back(L.Kernel);
  return Names;
}

TEST(NvprofCsv, Seed001CoalescingDegrees) {
  ImportResult R = readNvprofCsv(importFile("nvprof_seed001.csv"));
  ASSERT_TRUE(R) << R.error();
  EXPECT_EQ(R->Tool, "nvprof-csv");
  EXPECT_EQ(R->Device, "Seed notes GPU");
  EXPECT_EQ(kernels(*R),
            (std::vector<std::string>{"global_add", "global_add_permuted",
                                      "global_add_offset", "global_add_stride",
                                      "global_add_broadcast"}));
  const std::vector<double> Gld = {4, 4, 5, 32, 2.5}, Gst = {4, 4, 5, 32, 4},
                            LdEff = {100, 100, 80, 12.5, 82.5},
                            StEff = {100, 100, 80, 12.5, 100};
  for (size_t I = 0; I < Gld.size(); ++I) {
    const MeasuredLaunch &L = R->Launches[I];
    EXPECT_EQ(L.Index, I);
    // nvprof logs no configuration.
    EXPECT_EQ(L.Grid, (D{0, 0, 0}));
    EXPECT_EQ(L.Block, (D{0, 0, 0}));
    // Under the nvprof name and under Nsight Compute's.
    EXPECT_EQ(L.Metrics.at("gld_transactions_per_request"), Gld[I]);
    EXPECT_EQ(L.Metrics.at("l1tex__average_t_sectors_per_request_pipe_lsu_"
                           "mem_global_op_ld.ratio"),
              Gld[I]);
    EXPECT_EQ(L.Metrics.at("gst_transactions_per_request"), Gst[I]);
    EXPECT_EQ(L.Metrics.at("l1tex__average_t_sectors_per_request_pipe_lsu_"
                           "mem_global_op_st.ratio"),
              Gst[I]);
    EXPECT_EQ(L.Metrics.at("gld_efficiency"), LdEff[I]);
    EXPECT_EQ(
        L.Metrics.at(
            "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"),
        LdEff[I]);
    EXPECT_EQ(L.Metrics.at("gst_efficiency"), StEff[I]);
    EXPECT_EQ(L.Metrics.size(), 8u);
  }
}

TEST(NvprofCsv, Seed003SharedTransactionsPerRequest) {
  ImportResult R = readNvprofCsv(importFile("nvprof_seed003.csv"));
  ASSERT_TRUE(R) << R.error();
  ASSERT_EQ(R->Launches.size(), 11u);
  std::map<std::string, std::pair<double, double>> Expected = {
      {"setRowReadRow", {1, 1}},          {"setColReadCol", {32, 32}},
      {"setRowReadCol", {32, 1}},         {"setRowReadColDyn", {32, 1}},
      {"setRowReadColIpad", {1, 1}},      {"setRowReadColDynIpad", {1, 1}},
      {"setRowReadColRect", {16, 1}},     {"setRowReadColRectDyn", {16, 1}},
      {"setRowReadColRectPad1", {2, 1}},  {"setRowReadColRectPad2", {1, 1}},
      {"setRowReadColRectDynPad", {2, 1}}};
  for (const MeasuredLaunch &L : R->Launches) {
    ASSERT_EQ(Expected.count(L.Kernel), 1u) << L.Kernel;
    EXPECT_EQ(L.Demangled, L.Kernel + "(int*)");
    // No Nsight Compute metric is this ratio: only the nvprof name.
    EXPECT_EQ(L.Metrics.size(), 2u);
    EXPECT_EQ(L.Metrics.at("shared_load_transactions_per_request"),
              Expected[L.Kernel].first);
    EXPECT_EQ(L.Metrics.at("shared_store_transactions_per_request"),
              Expected[L.Kernel].second);
  }
}

TEST(NvprofCsv, Seed002KeepsNvprofsKernelOrder) {
  ImportResult R = readNvprofCsv(importFile("nvprof_seed002.csv"));
  ASSERT_TRUE(R) << R.error();
  EXPECT_EQ(R->Device, "GeForce GTX 560 Ti");
  EXPECT_EQ(kernels(*R), (std::vector<std::string>{"gTranspose2", "gTranspose0",
                                                   "gTranspose1"}));
  const char *Pct =
      "smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct";
  EXPECT_EQ(R->Launches[0].Metrics.at(Pct), 100.0);
  EXPECT_EQ(R->Launches[1].Metrics.at(Pct), 0.0);
  EXPECT_EQ(R->Launches[2].Metrics.at("shared_efficiency"), 6.06);
  EXPECT_EQ(R->Launches[2].Metrics.at(Pct), 6.06);
}

TEST(NvprofCsv, Seed000SkipsProgramOutput) {
  ImportResult R = readNvprofCsv(importFile("nvprof_seed000.csv"));
  ASSERT_TRUE(R) << R.error();
  EXPECT_EQ(R->Device, "Quadro P2000");
  EXPECT_EQ(kernels(*R), (std::vector<std::string>{"copyGmem", "naiveGmem"}));
  EXPECT_EQ(R->Launches[0].Metrics.at("gld_transactions_per_request"),
            16.000004);
  EXPECT_EQ(R->Launches[1].Metrics.at("gst_transactions_per_request"), 32.0);
  EXPECT_EQ(R->Launches[1].Metrics.at("gst_efficiency"), 12.5);
}

const char *const Header = "\"Device\",\"Kernel\",\"Invocations\",\"Metric "
                           "Name\",\"Metric Description\",\"Min\",\"Max\","
                           "\"Avg\"\n";

TEST(NvprofCsv, ReadsThroughputsAndUtilizationLevels) {
  ImportResult R = parseNvprofCsv(
      std::string(Header) +
          "\"Tesla P100-PCIE-16GB (0)\",\"void benchmark_func(int2*)\",1,"
          "\"tex_cache_throughput\",\"Unified Cache Throughput\","
          "157.162440GB/s,157.162440GB/s,157.162440GB/s\n"
          "\"Tesla P100-PCIE-16GB (0)\",\"void benchmark_func(int2*)\",1,"
          "\"l2_utilization\",\"L2 Cache Utilization\",Low (1),Low (1),"
          "Low (1)\n"
          "\"Tesla P100-PCIE-16GB (0)\",\"void benchmark_func(int2*)\",1,"
          "\"gld_transactions\",\"Global Load Transactions\",1024,1024,1024\n",
      "t.csv");
  ASSERT_TRUE(R) << R.error();
  ASSERT_EQ(R->Launches.size(), 1u);
  const MeasuredLaunch &L = R->Launches[0];
  EXPECT_EQ(L.Kernel, "benchmark_func");
  EXPECT_DOUBLE_EQ(L.Metrics.at("tex_cache_throughput"), 157.16244e9);
  EXPECT_EQ(L.Metrics.at("l2_utilization"), 1.0);
  EXPECT_EQ(L.Metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
            1024.0);
}

TEST(NvprofCsv, BadValueNamesItsLine) {
  ImportResult R = readNvprofCsv(importFile("nvprof_bad_value.csv"));
  ASSERT_FALSE(R);
  EXPECT_EQ(R.error(),
            importFile("nvprof_bad_value.csv") +
                ":10: metric gld_efficiency: Avg \"<OVERFLOW>\" is not a "
                "number");
}

TEST(NvprofCsv, MissingColumnTruncatedAndEmpty) {
  ImportResult NoAvg = parseNvprofCsv(
      "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Min\"\n",
      "a.csv");
  ASSERT_FALSE(NoAvg);
  EXPECT_EQ(NoAvg.error(),
            "a.csv:1: no \"Avg\" column in the header (an nvprof --metrics "
            "--csv log has \"Metric Name\" and \"Avg\")");

  ImportResult Cut = parseNvprofCsv(
      std::string(Header) + "\"GPU (0)\",\"k(int*)\",1,\"gld_efficiency\"",
      "cut.csv");
  ASSERT_FALSE(Cut);
  EXPECT_EQ(Cut.error(), "cut.csv:2: expected 8 fields as in the "
                         "header, found 4 (truncated line?)");

  ImportResult Empty = readNvprofCsv(importFile("empty.csv"));
  ASSERT_FALSE(Empty);
  EXPECT_EQ(Empty.error(), importFile("empty.csv") + ": empty file");

  ImportResult HeaderOnly = parseNvprofCsv(Header, "h.csv");
  ASSERT_FALSE(HeaderOnly);
  EXPECT_EQ(HeaderOnly.error(),
            "h.csv:1: a header but no metric rows follow (truncated file?)");
}

TEST(NvprofToNsight, MapsCountsToCountsAndRatiosToRatios) {
  EXPECT_EQ(nvprofToNsight("gld_transactions"),
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  EXPECT_EQ(nvprofToNsight("gst_transactions_per_request"),
            "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st."
            "ratio");
  EXPECT_EQ(nvprofToNsight("shared_store_transactions"),
            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
  EXPECT_EQ(nvprofToNsight("global_load_requests"),
            "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
  EXPECT_EQ(nvprofToNsight("shared_load_transactions_per_request"),
            std::nullopt);
  EXPECT_EQ(nvprofToNsight("no_such_metric"), std::nullopt);
}

} // namespace
