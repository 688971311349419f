//===- model_file_test.cpp - gmem-analyze --model on good and bad files ---===//
#include "analysis.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace gmem::test;
using nlohmann::json;

namespace {

std::string writeTemp(const std::string &Name, const std::string &Text) {
  std::string Path = ::testing::TempDir() + "/" + Name;
  std::ofstream(Path, std::ios::binary) << Text;
  return Path;
}

/// examples/coalescing.cu's model, as --emit-model prints it.
const std::string &coalescingModel() {
  static std::string Text = [] {
    ToolRun R = runTool("examples/coalescing.cu --emit-model");
    EXPECT_EQ(R.Exit, 0) << R.Err;
    return R.Out;
  }();
  return Text;
}

/// Runs `gmem-analyze --model FILE ARGS` on Text saved as Name.
ToolRun runModel(const std::string &Name, const std::string &Text,
                 const std::string &Args = "") {
  return runTool("--model " + writeTemp(Name, Text) + " " + Args);
}

/// A bad model: exit 2 and exactly one line on stderr.
void expectOneLineError(const ToolRun &R, const std::string &Part) {
  EXPECT_EQ(R.Exit, 2) << R.Err;
  EXPECT_EQ(R.Out, "");
  ASSERT_FALSE(R.Err.empty());
  EXPECT_EQ(R.Err.find('\n'), R.Err.size() - 1) << R.Err;
  EXPECT_EQ(R.Err.rfind("gmem-analyze: error: ", 0), 0u) << R.Err;
  EXPECT_NE(R.Err.find(Part), std::string::npos) << R.Err;
}

TEST(ModelFileCli, RecordedLaunchesGiveWhatTheSourceGives) {
  ToolRun FromSource = runTool("examples/coalescing.cu --format json");
  ASSERT_EQ(FromSource.Exit, 0) << FromSource.Err;
  ToolRun FromModel =
      runModel("coalescing.json", coalescingModel(), "--format json");
  ASSERT_EQ(FromModel.Exit, 0) << FromModel.Err;
  json S = json::parse(FromSource.Out), M = json::parse(FromModel.Out);
  ASSERT_EQ(M["launches"].size(), 8u);
  // A model file carries no buffer sizes: its DRAM figures are bounds,
  // which the recorded run's predictions lie within.
  for (size_t I = 0; I < 8; ++I) {
    json &FromM = M["launches"][I]["dram"], &FromS = S["launches"][I]["dram"];
    EXPECT_FALSE(FromM["known"].get<bool>());
    EXPECT_TRUE(FromS["known"].get<bool>());
    EXPECT_LE(FromS["read_bytes"], FromM["read_bytes_at_most"]);
    // Its durations are ranges (DRAM only bounded); the recorded one is
    // known. (docs/TRAFFIC.md sets durations beside measured ones.)
    json &TimeM = M["launches"][I]["time"], &TimeS = S["launches"][I]["time"];
    EXPECT_TRUE(TimeS["known"].get<bool>()) << TimeS;
    EXPECT_FALSE(TimeM["known"].get<bool>()) << TimeM;
    EXPECT_TRUE(TimeM.contains("seconds_at_least")) << TimeM;
    EXPECT_TRUE(TimeM.contains("seconds_at_most")) << TimeM;
    // The recorded run executed the kernels and counted their
    // instructions; a model file holds no run.
    EXPECT_TRUE(S["launches"][I].contains("sass_warp_instructions"));
    EXPECT_FALSE(M["launches"][I].contains("ptx_issue"));
    for (const char *Key : {"ptx_issue", "sass_warp_instructions"})
      S["launches"][I].erase(Key);
    for (json *L : {&M["launches"][I], &S["launches"][I]}) {
      L->erase("dram");
      L->erase("time");
      // A checked fix gives the duration before and after only where both
      // are known: with the recorded sizes, not from the model file.
      for (json &A : (*L)["accesses"]) {
        std::string Advice = A["advice"];
        const size_t At = Advice.find("; the launch's predicted duration");
        if (At == std::string::npos)
          continue;
        EXPECT_EQ(L, &S["launches"][I]) << Advice;
        A["advice"] =
            Advice.substr(0, At) + Advice.substr(Advice.find(')', At));
      }
    }
  }
  EXPECT_EQ(M["launches"], S["launches"]);
}

TEST(ModelFileCli, LaunchFromTheCommandLine) {
  // Without recorded launches, the flags say how the kernel runs: the
  // offset add of coalescing.cu, 5 sectors per request (elements 1..32 of
  // 4 bytes span bytes 4..131, sectors 0..4), 2 loads x 128 warps.
  json J = json::parse(coalescingModel());
  J["launches"] = json::array();
  ToolRun R = runModel("nolaunch.json", J.dump(),
                       "--kernel global_add_offset --grid 128 --block 32 "
                       "--format json");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  json L = json::parse(R.Out)["launches"][0];
  EXPECT_EQ(L["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"],
            256.0);
  EXPECT_EQ(L["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"],
            1280.0);
  R = runModel("nolaunch.json", J.dump(), "--kernel global_add_offset");
  expectOneLineError(R, "global_add_offset is not launched from main(); "
                        "pass --grid and --block");
}

TEST(ModelFileCli, OverridesApplyToRecordedLaunches) {
  // Blocks of 64 instead of 32 threads: the same 5 sectors per request,
  // twice as many warps per block (128 blocks x 2 warps x 2 loads).
  ToolRun R = runModel("coalescing.json", coalescingModel(),
                       "--kernel global_add_offset --block 64 --format json");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  json L = json::parse(R.Out)["launches"][0];
  EXPECT_EQ(L["block"], json::array({64, 1, 1}));
  EXPECT_EQ(L["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"],
            512.0);
  EXPECT_EQ(L["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"],
            2560.0);
}

TEST(ModelFileCli, TruncatedFile) {
  const std::string &Text = coalescingModel();
  std::string Cut = Text.substr(0, Text.size() / 3);
  size_t Line = std::count(Cut.begin(), Cut.end(), '\n') + 1;
  ToolRun R = runModel("cut.json", Cut);
  expectOneLineError(R, "cut.json:" + std::to_string(Line) + ":");
  EXPECT_NE(R.Err.find("not valid JSON"), std::string::npos);
  EXPECT_NE(R.Err.find("the file looks truncated; regenerate it with "
                       "gmem-analyze FILE.cu --emit-model"),
            std::string::npos);
}

TEST(ModelFileCli, WrongSchemaVersion) {
  json J = json::parse(coalescingModel());
  J["schema"] = 7;
  expectOneLineError(runModel("v7.json", J.dump()),
                     "v7.json: kernel model schema 7 is not supported (this "
                     "gmem reads schema 4); regenerate it");
}

TEST(ModelFileCli, WrongTypes) {
  json J = json::parse(coalescingModel());
  J["kernels"][0]["accesses"][0]["size"] = "four";
  expectOneLineError(runModel("types.json", J.dump()),
                     "types.json: malformed kernel model: "
                     "kernels[0].accesses[0].size: expected an integer, "
                     "found string");
}

TEST(ModelFileCli, DanglingIndices) {
  json J = json::parse(coalescingModel());
  J["kernels"][0]["body"].push_back({{"kind", "access"}, {"access", 99}});
  size_t Last = J["kernels"][0]["body"].size() - 1;
  expectOneLineError(runModel("dangling.json", J.dump()),
                     "dangling.json: invalid kernel model: kernels[0].body[" +
                         std::to_string(Last) +
                         "]: access index 99 is out of range");
  J = json::parse(coalescingModel());
  J["kernels"][0]["accesses"][0]["address"] = {
      {"op", "param"}, {"type", "u64"}, {"index", 3}};
  expectOneLineError(runModel("param.json", J.dump()),
                     "kernels[0].accesses[0].address: parameter index 3 is "
                     "out of range (the kernel has 3 parameters)");
}

TEST(ModelFileCli, EmptyGarbageAndBothInputs) {
  expectOneLineError(runModel("empty.json", ""),
                     "empty.json: empty file, not a kernel model");
  expectOneLineError(runModel("garbage.json", "\x89PNG\r\n\x1a\n"),
                     "garbage.json:1:1: not valid JSON");
  expectOneLineError(runModel("array.json", "[1, 2]"),
                     "array.json: malformed kernel model: top level: expected "
                     "an object, found array");
  expectOneLineError(runTool("examples/coalescing.cu --model x.json"),
                     "both a source file ('examples/coalescing.cu') and "
                     "--model x.json; give one of them");
  expectOneLineError(runTool("--model /nonexistent/m.json"),
                     "/nonexistent/m.json: cannot read the file");
}

TEST(ModelFileCli, BadRecordedLaunchNamesTheModel) {
  json J = json::parse(coalescingModel());
  J["launches"][0]["block"] = json::array({0, 1, 1});
  J["launches"][0]["loc"] = nullptr;
  expectOneLineError(runModel("zero.json", J.dump()),
                     "zero.json: block 0,1,1 has a zero x dimension");
}

} // namespace
