//===- static_vs_executed_test.cpp - The model against the executed PTX ---===//
//
// Every example is analysed twice, as a user would run it: priced by the
// kernel model (--path model) and run on the PTX nvcc emitted in the same
// build (--path executed). Where the model knows a figure, the executor
// must give the same value, launch by launch, for every metric (requests,
// sectors, wavefronts, instructions, efficiencies): they share no code
// between the source and the request events (Clang's AST against nvcc's
// PTX), so agreement checks both. The executor must know
// every figure, except for the instructions it does not implement
// (texture and surface), which it names.
//
//===----------------------------------------------------------------------===//
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <gtest/gtest.h>
#include <memory>
#include <string>

namespace {

using nlohmann::json;

/// gmem-analyze's JSON report of Example (run from examples/).
json analyzeAs(const std::string &Example, const std::string &Path) {
  const std::string Cmd = std::string("cd ") + GMEM_SOURCE_DIR +
                          "/examples && " + GMEM_ANALYZE_EXE + " " + Example +
                          " --path " + Path +
                          // Time enough on a loaded machine.
                          " --exec-budget 900 --time-limit 900"
                          " --format json 2>/dev/null";
  std::unique_ptr<FILE, int (*)(FILE *)> P(popen(Cmd.c_str(), "r"), pclose);
  std::string Out;
  std::array<char, 65536> Buf;
  for (size_t N; P && (N = fread(Buf.data(), 1, Buf.size(), P.get()));)
    Out.append(Buf.data(), N);
  return json::parse(Out, nullptr, /*allow_exceptions=*/false);
}

bool same(const json &A, const json &B) {
  if (A.is_number() && B.is_number())
    return std::abs(A.get<double>() - B.get<double>()) <=
           1e-9 * std::max(1.0, std::abs(A.get<double>()));
  return A == B;
}

class StaticVsExecuted : public ::testing::TestWithParam<std::string> {};

TEST_P(StaticVsExecuted, SameFigures) {
  const json Model = analyzeAs(GetParam(), "model");
  const json Run = analyzeAs(GetParam(), "executed");
  ASSERT_TRUE(Model.is_object() && Run.is_object()) << GetParam();
  if (Run["compiler"].value("launches", "") != "recorded")
    GTEST_SKIP() << "no toolkit to build and record with: "
                 << Run["compiler"].dump();
  const json &ML = Model["launches"], &EL = Run["launches"];
  ASSERT_EQ(ML.size(), EL.size()) << Run["warnings"];
  ASSERT_FALSE(ML.empty());
  for (size_t I = 0; I < ML.size(); ++I) {
    const json &M = ML[I], &E = EL[I];
    SCOPED_TRACE(M["kernel"].get<std::string>() + " (launch " +
                 std::to_string(I + 1) + ")");
    ASSERT_EQ(M["kernel"], E["kernel"]);
    ASSERT_EQ(E["path"], "executed");
    if (E.contains("incomplete")) {
      // Only an instruction the executor does not implement may stop it.
      const std::string Why = E["incomplete"];
      EXPECT_NE(Why.find("does not implement"), std::string::npos) << Why;
      continue;
    }
    for (const auto &[Name, V] : M["metrics"].items()) {
      const json &W = E["metrics"][Name];
      // Unknown only where the model's is too (async copies' shared
      // efficiency: the GPU counts it by how the data arrives).
      if (V.is_null() || W.is_null())
        EXPECT_EQ(V.is_null(), W.is_null())
            << Name << ": model " << V << ", executed " << W;
      else
        EXPECT_TRUE(same(V, W))
            << Name << ": model " << V << ", executed " << W;
    }
  }
}

std::vector<std::string> examples() {
  std::vector<std::string> Names;
  for (const auto &E : std::filesystem::directory_iterator(
           std::string(GMEM_SOURCE_DIR) + "/examples"))
    // The printed seed reads out of its shared tile: it is there to be
    // flagged, not run.
    if (E.path().extension() == ".cu" &&
        E.path().filename() != "transpose_seed_printed.cu")
      Names.push_back(E.path().filename().string());
  std::sort(Names.begin(), Names.end());
  return Names;
}

INSTANTIATE_TEST_SUITE_P(Examples, StaticVsExecuted,
                         ::testing::ValuesIn(examples()), [](const auto &Info) {
                           std::string N = Info.param;
                           N = N.substr(0, N.size() - 3);
                           for (char &C : N)
                             if (!std::isalnum(static_cast<unsigned char>(C)))
                               C = '_';
                           return N;
                         });

} // namespace
