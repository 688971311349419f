//===- nvprof_text_test.cpp - Importing nvprof's printed metric tables ----===//
//
// The recorded tables are the seeds' (tests/data/imports/README.md says
// which lines, and what was put back for seed 002's wrapped copy).
//
//===----------------------------------------------------------------------===//
#include "importers.h"
#include "test_paths.h"

#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <random>

using namespace gmem;
using test::importFile;

namespace {

using D = std::array<uint64_t, 3>;

const char *const LdRatio =
    "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio";
const char *const StRatio =
    "l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio";
const char *const LdPct =
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct";
const char *const StPct =
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct";
const char *const SharedPct =
    "smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct";

/// nvprof's header, as seed 000 prints it.
const char *const Header =
    "Invocations                               Metric Name                   "
    "     Metric Description         Min         Max         Avg\n";

std::vector<std::string> kernels(const Measurement &M) {
  std::vector<std::string> Names;
  for (const MeasuredLaunch &L : M.Launches)
    Names.push_back(L.Kernel);
  return Names;
}

/// The error parseNvprofText gives for Text, or "parsed".
std::string errorOf(const std::string &Text) {
  ImportResult R = parseNvprofText(Text, "t.txt");
  return R ? "parsed" : R.error();
}

TEST(NvprofText, SeedP2000TransposeTable) {
  ImportResult R = readNvprofText(importFile("nvprof_p2000_transpose.txt"));
  ASSERT_TRUE(R) << R.error();
  EXPECT_EQ(R->Tool, "nvprof-text");
  EXPECT_EQ(R->Device, "Quadro P2000");
  // nvprof logs no capability; the product's, from NVIDIA's list of GPUs.
  EXPECT_EQ(R->ComputeCapability, "6.1");
  EXPECT_EQ(kernels(*R), (std::vector<std::string>{"copyGmem", "naiveGmem",
                                                   "transposeSmem"}));
  // Per kernel: gld and gst transactions per request, gld and gst
  // efficiency, as the table prints them.
  const double Expected[3][4] = {{16.000004, 4, 100, 100},
                                 {16.000004, 32, 100, 12.5},
                                 {16.000004, 4, 100, 100}};
  for (size_t I = 0; I < 3; ++I) {
    const MeasuredLaunch &L = R->Launches[I];
    EXPECT_EQ(L.Index, I);
    EXPECT_EQ(L.Demangled, L.Kernel + "(float*, float*, int, int)");
    EXPECT_TRUE(L.Mangled.empty());
    // nvprof logs no configuration.
    EXPECT_EQ(L.Grid, (D{0, 0, 0}));
    EXPECT_EQ(L.Block, (D{0, 0, 0}));
    EXPECT_EQ(L.Metrics.at("gld_transactions_per_request"), Expected[I][0]);
    EXPECT_EQ(L.Metrics.at("gst_transactions_per_request"), Expected[I][1]);
    EXPECT_EQ(L.Metrics.at("gld_efficiency"), Expected[I][2]);
    EXPECT_EQ(L.Metrics.at("gst_efficiency"), Expected[I][3]);
    // The same values under Nsight Compute's names.
    EXPECT_EQ(L.Metrics.at(LdRatio), Expected[I][0]);
    EXPECT_EQ(L.Metrics.at(StRatio), Expected[I][1]);
    EXPECT_EQ(L.Metrics.at(LdPct), Expected[I][2]);
    EXPECT_EQ(L.Metrics.at(StPct), Expected[I][3]);
    EXPECT_EQ(L.Metrics.size(), 8u);
  }
}

TEST(NvprofText, AgreesWithTheCsvLogOfTheSameTable) {
  // nvprof_seed000.csv holds seed 000's first run of the same program.
  ImportResult Text = readNvprofText(importFile("nvprof_p2000_transpose.txt"));
  ImportResult Csv = readNvprofCsv(importFile("nvprof_seed000.csv"));
  ASSERT_TRUE(Text) << Text.error();
  ASSERT_TRUE(Csv) << Csv.error();
  EXPECT_EQ(Text->Device, Csv->Device);
  ASSERT_EQ(Csv->Launches.size(), 2u);
  for (size_t I = 0; I < Csv->Launches.size(); ++I) {
    EXPECT_EQ(Text->Launches[I].Kernel, Csv->Launches[I].Kernel);
    EXPECT_EQ(Text->Launches[I].Demangled, Csv->Launches[I].Demangled);
    EXPECT_EQ(Text->Launches[I].Metrics, Csv->Launches[I].Metrics);
  }
}

TEST(NvprofText, SeedGtx560TiSharedEfficiency) {
  ImportResult R = readNvprofText(importFile("nvprof_gtx560ti_lecture4.txt"));
  ASSERT_TRUE(R) << R.error();
  EXPECT_EQ(R->Device, "GeForce GTX 560 Ti");
  EXPECT_EQ(R->ComputeCapability, "2.1");
  // nvprof's order, not the launch order (gTranspose0, 1, 2).
  EXPECT_EQ(kernels(*R), (std::vector<std::string>{"gTranspose2", "gTranspose0",
                                                   "gTranspose1"}));
  const double Expected[] = {100, 0, 6.06};
  for (size_t I = 0; I < 3; ++I) {
    const MeasuredLaunch &L = R->Launches[I];
    EXPECT_EQ(L.Demangled, L.Kernel + "(float*, float*, int)");
    EXPECT_EQ(L.Metrics.at("shared_efficiency"), Expected[I]);
    EXPECT_EQ(L.Metrics.at(SharedPct), Expected[I]);
    EXPECT_EQ(L.Metrics.size(), 2u);
  }
  // The program's output before the table (lines of numbers) is no row.
  ImportResult Csv = readNvprofCsv(importFile("nvprof_seed002.csv"));
  ASSERT_TRUE(Csv) << Csv.error();
  for (size_t I = 0; I < 3; ++I)
    EXPECT_EQ(R->Launches[I].Metrics, Csv->Launches[I].Metrics);
}

TEST(NvprofText, WrappedCopyOfTheTableReadsAsTheRestoredOne) {
  // Seed 002 as the notes show it: every column on a line of its own, the
  // metric's underscores lost, one invocation count moved after its row
  // and the others dropped. It reads as the table put back by hand.
  ImportResult R = readMeasurement(importFile("nvprof_gtx560ti_wrapped.txt"));
  ASSERT_TRUE(R) << R.error();
  ImportResult Restored =
      readNvprofText(importFile("nvprof_gtx560ti_lecture4.txt"));
  ASSERT_TRUE(Restored) << Restored.error();
  EXPECT_EQ(R->Tool, "nvprof-text");
  EXPECT_EQ(R->Device, "GeForce GTX 560 Ti");
  EXPECT_EQ(R->ComputeCapability, "2.1");
  EXPECT_EQ(kernels(*R), kernels(*Restored));
  for (size_t I = 0; I < 3; ++I)
    EXPECT_EQ(R->Launches[I].Metrics, Restored->Launches[I].Metrics);
  // Where each row starts (its name's line), for messages.
  EXPECT_EQ(R->Launches[1].MetricLines.at("shared_efficiency"), 56u);
  EXPECT_EQ(R->Notes, (std::vector<std::string>{
                          "metric 'shared efficiency' read as "
                          "shared_efficiency (nvprof's name without its "
                          "underscores)"}));
}

TEST(NvprofText, WrappedRowsMissingAColumnAreRefusedWithTheirLine) {
  const std::string Table = "Invocations\n"
                            "          Metric Name\n"
                            "                   Metric Description\n"
                            "                                Min\n"
                            "                                      Max\n"
                            "                                            Avg\n"
                            "Device \"Quadro P2000 (0)\"\n"
                            "    Kernel: k(float*)\n"
                            "          gld_efficiency\n"
                            "                   Global Memory Load "
                            "Efficiency\n";
  EXPECT_EQ(errorOf(Table + "                                100.00%\n"
                            "                                      "
                            "100.00%\n"),
            "t.txt:9: a wrapped row of 4 lines; expected the metric's name, "
            "description, Min, Max and Avg, a line each");
  EXPECT_EQ(errorOf(Table + "                                100.00%\n"
                            "                                      high\n"
                            "                                            "
                            "100.00%\n"),
            "t.txt:12: metric gld_efficiency: Max \"high\" is not a number");
  EXPECT_EQ(errorOf("Invocations\n   Metric Name\n      Min\n"),
            "t.txt:3: a wrapped table header without its \"Metric "
            "Description\" line (expected Invocations, Metric Name, Metric "
            "Description, Min, Max and Avg, a line each)");
}

TEST(NvprofText, ReadsLevelsThroughputsAndDescriptionsWithParentheses) {
  ImportResult R = parseNvprofText(
      std::string(Header) +
          "Device \"Tesla P100-PCIE-16GB (0)\"\n"
          "    Kernel: void benchmark_func<int2>(int2*)\n"
          "          2                      tex_cache_throughput              "
          "     Unified Cache Throughput  157.162440GB/s  157.162440GB/s  "
          "157.162440GB/s\n"
          "          2                            l2_utilization              "
          "        L2 Cache Utilization     Low (1)     Mid (4)     Low (2)\n"
          "          2                     sysmem_utilization                 "
          "System Memory Utilization     Idle (0)     Max (10)     Max (10)\n"
          "          2                        l2_read_throughput              "
          "       L2 Throughput (Reads)  1.5MB/s  1.5MB/s  1.5MB/s\n"
          "\t2\tgld_transactions\tGlobal Load Transactions\t1024\t1,024\t"
          "1,024\r\n",
      "t.txt");
  ASSERT_TRUE(R) << R.error();
  ASSERT_EQ(R->Launches.size(), 1u);
  const MeasuredLaunch &L = R->Launches[0];
  EXPECT_EQ(L.Kernel, "benchmark_func<int2>");
  EXPECT_DOUBLE_EQ(L.Metrics.at("tex_cache_throughput"), 157.16244e9);
  EXPECT_EQ(L.Metrics.at("l2_utilization"), 2.0);
  EXPECT_EQ(L.Metrics.at("sysmem_utilization"), 10.0);
  EXPECT_DOUBLE_EQ(L.Metrics.at("l2_read_throughput"), 1.5e6);
  EXPECT_EQ(L.Metrics.at("gld_transactions"), 1024.0);
  EXPECT_EQ(L.Metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
            1024.0);
}

TEST(NvprofText, MangledNamesAndKernelsSeenTwice) {
  // A kernel nvprof names again (a second table) stays one launch.
  std::string Table = std::string(Header) +
                      "Device \"GPU (0)\"\n"
                      "    Kernel: _Z4copyPfS_i\n"
                      "          1  gld_efficiency  Global Memory Load "
                      "Efficiency  50.00%  50.00%  50.00%\n"
                      "    Kernel: scale(float*)\n"
                      "          1  gld_efficiency  Global Memory Load "
                      "Efficiency  25.00%  25.00%  25.00%\n";
  ImportResult R = parseNvprofText(
      Table + "==1== Metric result:\n" + Header +
          "Device \"GPU (0)\"\n"
          "    Kernel: _Z4copyPfS_i\n"
          "          1  gst_efficiency  Global Memory Store Efficiency  "
          "12.50%  12.50%  12.50%\n",
      "t.txt");
  ASSERT_TRUE(R) << R.error();
  EXPECT_EQ(kernels(*R), (std::vector<std::string>{"copy", "scale"}));
  EXPECT_EQ(R->Launches[0].Mangled, "_Z4copyPfS_i");
  EXPECT_EQ(R->Launches[0].Metrics.at("gld_efficiency"), 50.0);
  EXPECT_EQ(R->Launches[0].Metrics.at("gst_efficiency"), 12.5);
  EXPECT_EQ(R->Launches[1].Metrics.at("gld_efficiency"), 25.0);
}

TEST(NvprofText, OutputAroundTheTablesIsSkipped) {
  // Event tables are skipped; a shell prompt or a ==PID== line ends a
  // table; numbers printed after it are no rows.
  ImportResult R = parseNvprofText(
      "==7== Event result:\n"
      "Invocations                                Event Name         Min      "
      "   Max         Avg       Total\n"
      "Device \"GPU (0)\"\n"
      "    Kernel: copy(float*)\n"
      "          1                   shared_ld_bank_conflict           0      "
      "     0           0           0\n"
      "\n"
      "==7== Metric result:\n" +
          std::string(Header) +
          "Device \"GPU (0)\"\n"
          "    Kernel: copy(float*)\n"
          "          1  gld_efficiency  Global Memory Load Efficiency  "
          "100.00%  100.00%  100.00%\n"
          "user@host:~/src$ ./copy 2048\n"
          "          1  gld_efficiency  Global Memory Load Efficiency  "
          "5  5  5\n"
          "==8== Warning: something\n"
          "12 34 56\n",
      "t.txt");
  ASSERT_TRUE(R) << R.error();
  ASSERT_EQ(R->Launches.size(), 1u);
  EXPECT_EQ(R->Device, "GPU");
  EXPECT_EQ(R->Launches[0].Metrics.at("gld_efficiency"), 100.0);
  EXPECT_EQ(R->Launches[0].Metrics.count("shared_ld_bank_conflict"), 0u);
}

TEST(NvprofText, MalformedTablesNameTheirLine) {
  const std::string Start = std::string(Header) +
                            "Device \"Quadro P2000 (0)\"\n"
                            "    Kernel: copyGmem(float*, float*, int, int)\n";
  // A row cut off after two of its three values.
  EXPECT_EQ(errorOf(Start + "          1                            "
                            "gld_efficiency             Global Memory Load "
                            "Efficiency     100.00%     100.00%"),
            "t.txt:4: metric gld_efficiency: Min \"Efficiency\" is not a "
            "number (a row ends in Min, Max and Avg; truncated row?)");
  // Cut off after the name, and after the count.
  EXPECT_EQ(errorOf(Start + "          1        gld_efficiency   100.00%  "
                            "100.00%\n"),
            "t.txt:4: metric gld_efficiency: the row ends before its Min, "
            "Max and Avg (truncated row?)");
  EXPECT_EQ(errorOf(Start + "          1\n"),
            "t.txt:4: a row with an invocation count and nothing else "
            "(truncated row?); expected Invocations, Metric Name, Metric "
            "Description, Min, Max and Avg");
  // A value nvprof could not print.
  EXPECT_EQ(errorOf(Start + "          1  gld_efficiency  Global Memory Load "
                            "Efficiency  100.00%  100.00%  <OVERFLOW>\n"),
            "t.txt:4: metric gld_efficiency: Avg \"<OVERFLOW>\" is not a "
            "number");
  EXPECT_EQ(errorOf(Start + "          1  gld_efficiency  Global Memory Load "
                            "Efficiency  100.00%  100.00%  Low (x)\n"),
            "t.txt:4: metric gld_efficiency: Avg \"(x)\" is not a number");
  // A header and nothing under it; a kernel with no rows.
  EXPECT_EQ(errorOf(std::string("==1== Metric result:\n") + Header),
            "t.txt:2: a header but no metric rows follow (truncated file?)");
  EXPECT_EQ(errorOf(std::string(Header) + "Device \"GPU (0)\"\n"),
            "t.txt:1: a header but no metric rows follow (truncated file?)");
  EXPECT_EQ(errorOf(Start),
            "t.txt:3: kernel copyGmem(float*, float*, int, int) has no "
            "metric rows (truncated file?)");
  EXPECT_EQ(errorOf(Start + "    Kernel: naiveGmem(float*)\n"
                            "          1  gld_efficiency  Global Memory Load "
                            "Efficiency  1  1  1\n"),
            "t.txt:3: kernel copyGmem(float*, float*, int, int) has no "
            "metric rows (truncated file?)");
  // Rows need their kernel; Device and Kernel lines their text.
  EXPECT_EQ(errorOf(std::string(Header) +
                    "Device \"GPU (0)\"\n"
                    "          1  gld_efficiency  Global Memory Load "
                    "Efficiency  1  1  1\n"),
            "t.txt:3: a metric row before any \"Kernel:\" line");
  EXPECT_EQ(errorOf(std::string(Header) + "    Kernel:   \n"),
            "t.txt:2: a \"Kernel:\" line without a kernel name");
  EXPECT_EQ(errorOf(std::string(Header) + "Device \"GPU (0)\n"),
            "t.txt:2: a Device line without its closing quote");
}

TEST(NvprofText, FilesWithoutAMetricTable) {
  EXPECT_EQ(errorOf(""), "t.txt: empty file");
  EXPECT_EQ(errorOf(" \n\t\r\n"), "t.txt: empty file");
  EXPECT_EQ(errorOf("==1== Profiling result:\n"
                    "            Type  Time(%)      Time     Calls       Avg  "
                    "     Min       Max  Name\n"),
            "t.txt: no nvprof metric table header (\"Invocations   Metric "
            "Name   Metric Description   Min   Max   Avg\"): not an nvprof "
            "--metrics log");
  EXPECT_EQ(errorOf("Invocations   Event Name   Min   Max   Avg   Total\n"
                    "Device \"GPU (0)\"\n"
                    "    Kernel: k(int*)\n"
                    "          1   shared_ld_bank_conflict   0   0   0   0\n"),
            "t.txt:1: an nvprof event table (\"Event Name\") and no metric "
            "table: gmem compares metrics; profile with nvprof --metrics");
  // "Invocations" must be a word of its own, followed by the column name.
  EXPECT_NE(errorOf("InvocationsMetric Name\n").find("no nvprof metric"),
            std::string::npos);
  EXPECT_NE(errorOf("Invocations  Kernel Name\n").find("no nvprof metric"),
            std::string::npos);
}

TEST(NvprofText, ParseMeasurementPicksTheTextFormat) {
  ImportResult File = readMeasurement(importFile("nvprof_p2000_transpose.txt"));
  ASSERT_TRUE(File) << File.error();
  EXPECT_EQ(File->Tool, "nvprof-text");
  EXPECT_EQ(File->Launches.size(), 3u);

  ImportResult Text =
      parseMeasurement(std::string("program output\n") + Header +
                           "Device \"GPU (0)\"\n  Kernel: k(int*)\n"
                           "   1  gld_efficiency  Global Memory Load "
                           "Efficiency  50.00%  50.00%  50.00%\n",
                       "m.log");
  ASSERT_TRUE(Text) << Text.error();
  EXPECT_EQ(Text->Tool, "nvprof-text");
  EXPECT_EQ(Text->Launches.at(0).Metrics.at("gld_efficiency"), 50.0);

  // Its errors come through, with their line.
  ImportResult Bad = parseMeasurement(
      std::string(Header) + "  Kernel: k(int*)\n   1  x\n", "m.log");
  ASSERT_FALSE(Bad);
  EXPECT_EQ(Bad.error(), "m.log:3: metric x: the row ends before its "
                         "Min, Max and Avg (truncated row?)");
  // An event table alone is sent to the text importer, which says why.
  ImportResult Events = parseMeasurement(
      "Invocations   Event Name   Min   Max   Avg   Total\n", "e.log");
  ASSERT_FALSE(Events);
  EXPECT_NE(Events.error().find("e.log:1: an nvprof event table"),
            std::string::npos);
}

/// Every prefix of a recorded table, and the table with bytes changed at
/// random, either parses or fails with one line naming the file.
TEST(NvprofText, CutsAndMutationsNeverCrash) {
  std::string Path = importFile("nvprof_p2000_transpose.txt");
  ImportResult Whole = readNvprofText(Path);
  ASSERT_TRUE(Whole);
  std::string Text;
  {
    std::ifstream In(Path, std::ios::binary);
    Text.assign(std::istreambuf_iterator<char>(In),
                std::istreambuf_iterator<char>());
  }
  ASSERT_FALSE(Text.empty());
  auto Check = [](const std::string &Input) {
    ImportResult R = parseNvprofText(Input, "f.txt");
    if (R) {
      for (const MeasuredLaunch &L : R->Launches)
        EXPECT_FALSE(L.Metrics.empty());
      return;
    }
    const std::string &E = R.error();
    EXPECT_EQ(E.rfind("f.txt", 0), 0u) << E;
    EXPECT_EQ(E.find('\n'), std::string::npos) << E;
  };
  for (size_t N = 0; N <= Text.size(); ++N)
    Check(Text.substr(0, N));
  std::mt19937 Rng(18);
  const char Alphabet[] = " \t\n\r\"()%:=01Invocatis MetrcNamKel,x\xff";
  for (unsigned Round = 0; Round < 5000; ++Round) {
    std::string M = Text;
    unsigned Changes = 1 + Rng() % 8;
    for (unsigned C = 0; C < Changes; ++C) {
      size_t At = Rng() % M.size();
      switch (Rng() % 3) {
      case 0:
        M[At] = Alphabet[Rng() % (sizeof Alphabet - 1)];
        break;
      case 1:
        M.erase(At, 1 + Rng() % 16);
        break;
      default:
        M.insert(At, 1, Alphabet[Rng() % (sizeof Alphabet - 1)]);
        break;
      }
      if (M.empty())
        M = " ";
    }
    Check(M);
    // Through the format detection too.
    ImportResult Any = parseMeasurement(M, "f.txt");
    if (!Any) {
      EXPECT_EQ(Any.error().rfind("f.txt", 0), 0u);
    }
  }
}

} // namespace
