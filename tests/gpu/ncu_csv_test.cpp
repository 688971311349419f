//===- ncu_csv_test.cpp - Importing Nsight Compute --csv exports ----------===//
//
// The golden values are Nsight Compute's own measurements on an H200 in
// tests/data/groundtruth/h200_ncu_seeds.csv (summarised in h200_summary.txt).
//
//===----------------------------------------------------------------------===//
#include "importers.h"
#include "test_paths.h"

#include <gtest/gtest.h>

using namespace gmem;
using test::groundTruthCsv;
using test::importFile;

namespace {

using D = std::array<uint64_t, 3>;

const char *const LdReq = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
const char *const LdSec = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
const char *const StSec = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
const char *const LdPct =
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct";

TEST(NcuCsv, ImportsEveryLaunchOfTheGroundTruth) {
  ImportResult R = readNcuCsv(groundTruthCsv());
  ASSERT_TRUE(R) << R.error();
  EXPECT_EQ(R->Tool, "ncu-csv");
  EXPECT_EQ(R->ComputeCapability, "9.0");
  EXPECT_EQ(R->Program, std::vector<std::string>{"seeds_gt"});
  // seeds_gt.cu's main() launches 31 kernels, in this order.
  const std::vector<std::string> Kernels = {"naiveGmem",
                                            "naiveGmemBook",
                                            "copyGmem",
                                            "copyRow",
                                            "transposeSmem",
                                            "transposeSmemPad",
                                            "transposeSmemUnrollPad",
                                            "global_add",
                                            "global_add_permuted",
                                            "global_add_offset",
                                            "global_add_stride",
                                            "global_add_broadcast",
                                            "transpose1",
                                            "transpose2",
                                            "transpose3",
                                            "gTranspose0",
                                            "gTranspose1",
                                            "gTranspose2",
                                            "setRowReadRow",
                                            "setColReadCol",
                                            "setRowReadCol",
                                            "setRowReadColDyn",
                                            "setRowReadColIpad",
                                            "setRowReadColDynIpad",
                                            "setRowReadColRect",
                                            "setRowReadColRectDyn",
                                            "setRowReadColRectPad1",
                                            "setRowReadColRectPad2",
                                            "setRowReadColRectDynPad",
                                            "sgemm_naive",
                                            "sgemm_coalescing<32>"};
  ASSERT_EQ(R->Launches.size(), Kernels.size());
  for (size_t I = 0; I < Kernels.size(); ++I) {
    EXPECT_EQ(R->Launches[I].Kernel, Kernels[I]) << "launch " << I;
    EXPECT_EQ(R->Launches[I].Index, I);
    // measure.sh asks for 17 metrics.
    EXPECT_EQ(R->Launches[I].Metrics.size(), 17u) << "launch " << I;
    EXPECT_TRUE(R->Launches[I].Args.empty());
  }
}

TEST(NcuCsv, ReadsValuesUnitsAndConfigurations) {
  ImportResult R = readNcuCsv(groundTruthCsv());
  ASSERT_TRUE(R) << R.error();
  const MeasuredLaunch &Naive = R->Launches[0];
  EXPECT_EQ(Naive.Demangled, "naiveGmem(float *, float *, int, int)");
  EXPECT_EQ(Naive.Block, (D{32, 16, 1}));
  EXPECT_EQ(Naive.Grid, (D{128, 256, 1}));
  EXPECT_EQ(Naive.Metrics.at(LdSec), 16777216.0);
  EXPECT_EQ(Naive.Metrics.at(LdReq), 524288.0);
  EXPECT_EQ(Naive.Metrics.at(StSec), 2097152.0);
  EXPECT_EQ(Naive.Metrics.at(LdPct), 12.5);
  EXPECT_EQ(Naive.Metrics.at("dram__bytes_read.sum"), 67116800.0);
  EXPECT_EQ(Naive.Metrics.at("gpu__time_duration.sum"), 104704.0);

  const MeasuredLaunch &Dyn = R->Launches[21];
  EXPECT_EQ(Dyn.Kernel, "setRowReadColDyn");
  EXPECT_EQ(Dyn.Grid, (D{1, 1, 1}));
  EXPECT_EQ(Dyn.Block, (D{32, 32, 1}));
  EXPECT_EQ(
      Dyn.Metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
      1024.0);
  EXPECT_EQ(Dyn.Metrics.at("smsp__sass_inst_executed_op_shared_ld.sum"), 32.0);

  const MeasuredLaunch &Gemm = R->Launches[30];
  EXPECT_EQ(Gemm.Demangled,
            "void sgemm_coalescing<32>(int, int, int, float, const float *, "
            "const float *, float, float *)");
  EXPECT_EQ(Gemm.Block, (D{1024, 1, 1}));
  EXPECT_EQ(Gemm.Grid, (D{32, 32, 1}));
  EXPECT_EQ(Gemm.Metrics.at(LdReq), 67141632.0);
  EXPECT_EQ(Gemm.Metrics.at(LdSec), 167903232.0);
  EXPECT_EQ(Gemm.Metrics.at(LdPct), 82.51);
}

const char *const Header =
    "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"CC\","
    "\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";

TEST(NcuCsv, ScalesUnitsBackToBaseAndSkipsNotAvailable) {
  ImportResult R = parseNcuCsv(
      std::string(Header) +
          "\"0\",\"k(int)\",\"(32, 1, 1)\",\"(4, 1, 1)\",\"8.6\","
          "\"gpu__time_duration.sum\",\"usecond\",\"104.70\"\n"
          "\"0\",\"k(int)\",\"(32, 1, 1)\",\"(4, 1, 1)\",\"8.6\","
          "\"dram__bytes_read.sum\",\"Mbyte\",\"67.12\"\n"
          "\"0\",\"k(int)\",\"(32, 1, 1)\",\"(4, 1, 1)\",\"8.6\","
          "\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\",\"Ksector\","
          "\"16.78\"\n"
          "\"0\",\"k(int)\",\"(32, 1, 1)\",\"(4, 1, 1)\",\"8.6\","
          "\"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct\","
          "\"%\",\"n/a\"\n"
          "\"1\",\"k(int)\",\"(64, 1, 1)\",\"(2, 1, 1)\",\"8.6\","
          "\"gpu__time_duration.sum\",\"msecond\",\"1.5\"\n",
      "scaled.csv");
  ASSERT_TRUE(R) << R.error();
  ASSERT_EQ(R->Launches.size(), 2u);
  const auto &M = R->Launches[0].Metrics;
  EXPECT_DOUBLE_EQ(M.at("gpu__time_duration.sum"), 104700.0);
  EXPECT_DOUBLE_EQ(M.at("dram__bytes_read.sum"), 67120000.0);
  EXPECT_DOUBLE_EQ(M.at(LdSec), 16780.0);
  EXPECT_EQ(M.count(LdPct), 0u);
  EXPECT_DOUBLE_EQ(R->Launches[1].Metrics.at("gpu__time_duration.sum"), 1.5e6);
  EXPECT_EQ(R->Launches[1].Block, (D{64, 1, 1}));
  EXPECT_EQ(R->ComputeCapability, "8.6");
}

TEST(NcuCsv, TruncatedFileNamesTheLine) {
  // The file's line 40 is cut inside a quoted field.
  ImportResult R = readNcuCsv(importFile("ncu_truncated.csv"));
  ASSERT_FALSE(R);
  EXPECT_EQ(R.error(),
            importFile("ncu_truncated.csv") +
                ":40: a quoted field is not closed (truncated line?)");
}

TEST(NcuCsv, LineCutBetweenFieldsIsShort) {
  ImportResult R = parseNcuCsv(
      std::string("==PROF== Connected to process 1 (./a.out)\n") + Header +
          "\"0\",\"k(int)\",\"(32, 1, 1)\",\"(4, 1, 1)\",\"9.0\","
          "\"gpu__time_duration.sum\",\"ns\",\"2,432\"\n"
          "\"1\",\"k(int)\",\"(32, 1, 1)\",",
      "cut.csv");
  ASSERT_FALSE(R);
  EXPECT_EQ(R.error(), "cut.csv:4: expected 8 fields as in the "
                       "header, found 4 (truncated line?)");
}

TEST(NcuCsv, MissingColumnIsNamed) {
  ImportResult R = readNcuCsv(importFile("ncu_missing_column.csv"));
  ASSERT_FALSE(R);
  EXPECT_EQ(R.error(),
            importFile("ncu_missing_column.csv") +
                ":1: no \"Block Size\" column in the header (export the "
                "details page with ncu --csv)");
}

TEST(NcuCsv, BadValuesAreNamedWithTheirLine) {
  auto Row = [](const std::string &Id, const std::string &Block,
                const std::string &Value) {
    return "\"" + Id + "\",\"k(int)\",\"" + Block +
           "\",\"(4, 1, 1)\",\"9.0\",\"gpu__time_duration.sum\",\"ns\",\"" +
           Value + "\"\n";
  };
  ImportResult NotANumber = parseNcuCsv(
      std::string(Header) + Row("0", "(32, 1, 1)", "12 ns"), "v.csv");
  ASSERT_FALSE(NotANumber);
  EXPECT_EQ(NotANumber.error(),
            "v.csv:2: metric gpu__time_duration.sum: value \"12 ns\" is not "
            "a number");

  ImportResult BadBlock =
      parseNcuCsv(std::string(Header) + Row("0", "(32; 1; 1)", "1"), "b.csv");
  ASSERT_FALSE(BadBlock);
  EXPECT_EQ(BadBlock.error(),
            "b.csv:2: Block Size \"(32; 1; 1)\" is not \"(x, y, z)\"");

  ImportResult BadId =
      parseNcuCsv(std::string(Header) + Row("x", "(32, 1, 1)", "1"), "i.csv");
  ASSERT_FALSE(BadId);
  EXPECT_EQ(BadId.error(), "i.csv:2: launch ID \"x\" is not an integer");
  // Found by the measured fuzzer: an ID past UINT_MAX was converted to
  // unsigned before its range was checked (undefined behaviour).
  ImportResult HugeId = parseNcuCsv(
      std::string(Header) + Row("1e300", "(32, 1, 1)", "1"), "h.csv");
  ASSERT_FALSE(HugeId);
  EXPECT_EQ(HugeId.error(), "h.csv:2: launch ID \"1e300\" is not an integer");
  ImportResult HalfId =
      parseNcuCsv(std::string(Header) + Row("2.5", "(32, 1, 1)", "1"), "f.csv");
  ASSERT_FALSE(HalfId);
  EXPECT_EQ(HalfId.error(), "f.csv:2: launch ID \"2.5\" is not an integer");

  ImportResult Inconsistent =
      parseNcuCsv(std::string(Header) + Row("0", "(32, 1, 1)", "1") +
                      Row("0", "(64, 1, 1)", "1"),
                  "c.csv");
  ASSERT_FALSE(Inconsistent);
  EXPECT_EQ(Inconsistent.error(),
            "c.csv:3: launch ID 0 has a different kernel or configuration "
            "than on its first row");
}

TEST(NcuCsv, EmptyHeaderlessAndHeaderOnlyFiles) {
  ImportResult Empty = readNcuCsv(importFile("empty.csv"));
  ASSERT_FALSE(Empty);
  EXPECT_EQ(Empty.error(), importFile("empty.csv") + ": empty file");

  ImportResult NoHeader = parseNcuCsv("==PROF== Disconnected\n", "p.csv");
  ASSERT_FALSE(NoHeader);
  EXPECT_EQ(NoHeader.error(),
            "p.csv: no ncu --csv header line (\"ID\",\"Process ID\",...): "
            "not an Nsight Compute CSV export");

  ImportResult Broken =
      parseNcuCsv("==PROF== Connected\n\"ID\",\"Kernel Name\n", "b.csv");
  ASSERT_FALSE(Broken);
  EXPECT_EQ(Broken.error().rfind("b.csv:2: ", 0), 0u) << Broken.error();

  ImportResult HeaderOnly = parseNcuCsv(Header, "h.csv");
  ASSERT_FALSE(HeaderOnly);
  EXPECT_EQ(HeaderOnly.error(),
            "h.csv:1: a header but no metric rows follow (truncated file?)");
}

} // namespace
