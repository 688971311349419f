//===- measured_json_test.cpp - Reading gmem-verify's measured.json -------===//
#include "importers.h"
#include "test_paths.h"

#include <gtest/gtest.h>

using namespace gmem;
using test::importFile;

namespace {

using D = std::array<uint64_t, 3>;

TEST(MeasuredJson, ReadsEveryField) {
  ImportResult R = readMeasuredJson(importFile("measured_coalescing.json"));
  ASSERT_TRUE(R) << R.error();
  EXPECT_EQ(R->Tool, "gmem-verify");
  EXPECT_EQ(R->Device, "NVIDIA H200");
  EXPECT_EQ(R->ComputeCapability, "9.0");
  EXPECT_EQ(R->DriverVersion, "580");
  EXPECT_EQ(R->CudaVersion, "13.0");
  EXPECT_EQ(R->Date, "");
  EXPECT_EQ(R->Program, std::vector<std::string>{"./coalescing"});
  ASSERT_EQ(R->Launches.size(), 2u);

  const MeasuredLaunch &Offset = R->Launches[0];
  EXPECT_EQ(Offset.Index, 2u);
  EXPECT_EQ(Offset.Kernel, "global_add_offset");
  EXPECT_EQ(Offset.Mangled, "_Z17global_add_offsetPfS_S_");
  EXPECT_EQ(Offset.Grid, (D{128, 1, 1}));
  EXPECT_EQ(Offset.Block, (D{32, 1, 1}));
  EXPECT_EQ(Offset.DynamicSmem, 0u);
  ASSERT_EQ(Offset.Args.size(), 3u);
  EXPECT_EQ(Offset.Args[0].Type, "float*");
  EXPECT_EQ(Offset.Args[0].Size, 8u);
  EXPECT_EQ(Offset.Args[0].AlignOffset, 0u);
  EXPECT_FALSE(Offset.Args[0].Value);
  EXPECT_EQ(Offset.Metrics.size(), 9u);
  EXPECT_EQ(Offset.Metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
            1280.0);
  EXPECT_EQ(
      Offset.Metrics.at(
          "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct"),
      80.0);
  ASSERT_EQ(Offset.Lines.size(), 1u);
  EXPECT_EQ(Offset.Lines[0].File, "coalescing.cu");
  EXPECT_EQ(Offset.Lines[0].Line, 46u);
  EXPECT_EQ(Offset.Lines[0].Sectors, 1920u);
  EXPECT_EQ(Offset.Lines[0].SectorsIdeal, 1536u);
  EXPECT_EQ(Offset.Lines[0].InstExecuted, 0u); // Absent: zero.

  const MeasuredLaunch &T1 = R->Launches[1];
  EXPECT_EQ(T1.Index, 5u);
  EXPECT_EQ(T1.Grid, (D{32, 32, 1})); // Written as [32, 32].
  ASSERT_EQ(T1.Args.size(), 3u);
  EXPECT_EQ(T1.Args[2].Type, "int");
  EXPECT_EQ(T1.Args[2].Value, 1024);
  EXPECT_FALSE(T1.Args[2].AlignOffset);
  EXPECT_TRUE(T1.Lines.empty());
}

TEST(MeasuredJson, RejectsAnotherSchemaVersion) {
  ImportResult R = readMeasuredJson(importFile("measured_schema2.json"));
  ASSERT_FALSE(R);
  EXPECT_EQ(R.error(),
            importFile("measured_schema2.json") +
                ": schema: version 2 is not supported (this gmem reads "
                "version 1)");
}

TEST(MeasuredJson, NamesTheWrongFieldByItsPath) {
  ImportResult R = readMeasuredJson(importFile("measured_bad_block.json"));
  ASSERT_FALSE(R);
  EXPECT_EQ(R.error(), importFile("measured_bad_block.json") +
                           ": launches[1].block[1]: a dimension must "
                           "be positive");
}

TEST(MeasuredJson, TruncatedFileIsNotJson) {
  ImportResult R = readMeasuredJson(importFile("measured_truncated.json"));
  ASSERT_FALSE(R);
  const std::string Prefix =
      importFile("measured_truncated.json") + ": not valid JSON: parse error";
  EXPECT_EQ(R.error().substr(0, Prefix.size()), Prefix) << R.error();
  EXPECT_EQ(R.error().find('\n'), std::string::npos);
}

TEST(MeasuredJson, SchemaErrorsOnInlineDocuments) {
  struct Case {
    const char *Json, *Message;
  } Cases[] = {
      {"[1, 2]", "x.json: expected a JSON object at the top level"},
      {"{\"launches\": []}",
       "x.json: no \"schema\" field: not a gmem-verify measured.json"},
      {"{\"schema\": \"1\", \"launches\": []}",
       "x.json: schema: expected an integer"},
      {"{\"schema\": 1}", "x.json: launches: missing"},
      {"{\"schema\": 1, \"launches\": {}}",
       "x.json: launches: expected an array"},
      {"{\"schema\": 1, \"launches\": [{\"grid\": [1], \"block\": [32], "
       "\"metrics\": {}}]}",
       "x.json: launches[0].kernel: missing"},
      {"{\"schema\": 1, \"launches\": [{\"kernel\": \"k\", \"grid\": [1], "
       "\"block\": [32, 1, 1, 1], \"metrics\": {}}]}",
       "x.json: launches[0].block: expected an array of 1 to 3 positive "
       "integers"},
      {"{\"schema\": 1, \"launches\": [{\"kernel\": \"k\", \"grid\": [1], "
       "\"block\": [32], \"metrics\": {\"a.sum\": \"12\"}}]}",
       "x.json: launches[0].metrics[\"a.sum\"]: expected a number"},
      {"{\"schema\": 1, \"launches\": [{\"kernel\": \"k\", \"grid\": [1], "
       "\"block\": [32]}]}",
       "x.json: launches[0].metrics: missing"},
      {"{\"schema\": 1, \"launches\": [{\"kernel\": \"k\", \"grid\": [-1], "
       "\"block\": [32], \"metrics\": {}}]}",
       "x.json: launches[0].grid[0]: expected a non-negative integer"},
      {"{\"schema\": 1, \"launches\": [{\"kernel\": \"k\", \"grid\": [1], "
       "\"block\": [32], \"metrics\": {}, \"args\": [{\"value\": 1.5}]}]}",
       "x.json: launches[0].args[0].value: expected an integer"},
      {"{\"schema\": 1, \"launches\": [{\"kernel\": \"k\", \"grid\": [1], "
       "\"block\": [32], \"metrics\": {}, \"lines\": [{\"file\": \"a.cu\"}]}]}",
       "x.json: launches[0].lines[0].line: missing"},
      {"   ", "x.json: empty file"},
  };
  for (const Case &C : Cases) {
    ImportResult R = parseMeasuredJson(C.Json, "x.json");
    ASSERT_FALSE(R) << C.Json;
    EXPECT_EQ(R.error(), C.Message) << C.Json;
  }
}

TEST(MeasuredJson, MinimalLaunchTakesDefaults) {
  ImportResult R = parseMeasuredJson(
      "{\"schema\": 1, \"launches\": [{\"kernel\": \"k<32>\", \"grid\": [7], "
      "\"block\": [32, 4], \"metrics\": {\"gpu__time_duration.sum\": 2432}}]}",
      "m.json");
  ASSERT_TRUE(R) << R.error();
  EXPECT_EQ(R->Tool, "gmem-verify");
  ASSERT_EQ(R->Launches.size(), 1u);
  EXPECT_EQ(R->Launches[0].Index, 0u);
  EXPECT_EQ(R->Launches[0].Grid, (D{7, 1, 1}));
  EXPECT_EQ(R->Launches[0].Block, (D{32, 4, 1}));
  EXPECT_EQ(R->Launches[0].Metrics.at("gpu__time_duration.sum"), 2432.0);
}

} // namespace
