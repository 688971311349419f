//===- read_measurement_test.cpp - Choosing the importer by content -------===//
#include "importers.h"
#include "test_paths.h"

#include <gtest/gtest.h>

using namespace gmem;
using test::groundTruthCsv;
using test::importFile;

namespace {

TEST(ReadMeasurement, RecognisesEachFormatByContent) {
  ImportResult Json = readMeasurement(importFile("measured_coalescing.json"));
  ASSERT_TRUE(Json) << Json.error();
  EXPECT_EQ(Json->Tool, "gmem-verify");
  EXPECT_EQ(Json->Launches.size(), 2u);

  ImportResult Ncu = readMeasurement(groundTruthCsv());
  ASSERT_TRUE(Ncu) << Ncu.error();
  EXPECT_EQ(Ncu->Tool, "ncu-csv");
  EXPECT_EQ(Ncu->Launches.size(), 31u);

  ImportResult Nvprof = readMeasurement(importFile("nvprof_seed001.csv"));
  ASSERT_TRUE(Nvprof) << Nvprof.error();
  EXPECT_EQ(Nvprof->Tool, "nvprof-csv");
  EXPECT_EQ(Nvprof->Launches.size(), 5u);

  ImportResult Text = readMeasurement(importFile("nvprof_p2000_transpose.txt"));
  ASSERT_TRUE(Text) << Text.error();
  EXPECT_EQ(Text->Tool, "nvprof-text");
  EXPECT_EQ(Text->Launches.size(), 3u);
}

TEST(ReadMeasurement, PassesOnTheImportersErrors) {
  ImportResult R = readMeasurement(importFile("ncu_truncated.csv"));
  ASSERT_FALSE(R);
  EXPECT_EQ(R.error(),
            importFile("ncu_truncated.csv") +
                ":40: a quoted field is not closed (truncated line?)");
  ImportResult J = readMeasurement(importFile("measured_schema2.json"));
  ASSERT_FALSE(J);
  EXPECT_NE(J.error().find("version 2 is not supported"), std::string::npos);
}

TEST(ReadMeasurement, FilesThatAreNoMeasurement) {
  std::string Missing = importFile("no_such_file.csv");
  ImportResult R = readMeasurement(Missing);
  ASSERT_FALSE(R);
  EXPECT_EQ(R.error(), Missing + ": cannot open the file");

  ImportResult Dir = readMeasurement(GMEM_IMPORTS_DIR);
  ASSERT_FALSE(Dir);
  EXPECT_EQ(Dir.error(), std::string(GMEM_IMPORTS_DIR) +
                             ": is a directory, not a measurement file");

  ImportResult Empty = readMeasurement(importFile("empty.csv"));
  ASSERT_FALSE(Empty);
  EXPECT_EQ(Empty.error(), importFile("empty.csv") + ": empty file");

  ImportResult Text = readMeasurement(importFile("README.md"));
  ASSERT_FALSE(Text);
  EXPECT_EQ(Text.error(),
            importFile("README.md") +
                ": not a measurement: expected gmem-verify's measured.json, "
                "an ncu --csv export or an nvprof --metrics log (CSV or its "
                "printed tables)");
}

} // namespace

namespace {

// measured_coalescing.json was written from seeds_gt.cu's H200 measurement;
// ncu_coalescing_h200.csv measures examples/coalescing.cu itself. The counts
// are exact on the hardware, so both must agree launch by launch (times
// differ from run to run and are left out).
TEST(ReadMeasurement, JsonAndNcuExportOfTheSameProgramAgree) {
  ImportResult Json = readMeasurement(importFile("measured_coalescing.json"));
  ImportResult Ncu = readMeasurement(importFile("ncu_coalescing_h200.csv"));
  ASSERT_TRUE(Json) << Json.error();
  ASSERT_TRUE(Ncu) << Ncu.error();
  ASSERT_EQ(Ncu->Launches.size(), 8u);
  for (const MeasuredLaunch &J : Json->Launches) {
    ASSERT_LT(J.Index, Ncu->Launches.size());
    const MeasuredLaunch &N = Ncu->Launches[J.Index];
    EXPECT_EQ(N.Kernel, J.Kernel);
    EXPECT_EQ(N.Grid, J.Grid);
    EXPECT_EQ(N.Block, J.Block);
    for (const auto &[Name, Value] : J.Metrics) {
      if (Name == "gpu__time_duration.sum")
        continue;
      ASSERT_EQ(N.Metrics.count(Name), 1u) << Name;
      EXPECT_EQ(N.Metrics.at(Name), Value) << J.Kernel << " " << Name;
    }
  }
}

} // namespace
