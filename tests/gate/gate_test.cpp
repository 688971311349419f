//===- gate_test.cpp - The gate's flags, policies, baseline and exit codes ===//
#include "baseline.h"
#include "checks.h"
#include "compile_db.h"
#include "gate_tool.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <nlohmann/json.hpp>

using namespace gmem::test;
using nlohmann::json;

namespace {

std::string temp(const std::string &Name, const std::string &Text) {
  std::string Path = ::testing::TempDir() + "/" + Name;
  std::ofstream(Path) << Text;
  return Path;
}

/// Records Src's figures in the baseline file Base; the gate's exit code.
int updateBaseline(const std::string &Src, const std::string &Base) {
  return runGate(Src + " --baseline " + Base + " --update-baseline").Exit;
}

json findings(const GateRun &R) { return json::parse(R.Out)["findings"]; }

// A strided copy whose stride comes from the host code: stride 1 reads a
// warp's 128 bytes in 4 sectors, stride 2 spreads them over 256 bytes, 8
// sectors. Extra blank lines and the local's name vary to check that
// baseline keys survive such edits.
/// A copy whose stride is the macro STRIDE (from a compile database),
/// reading from InFloats floats.
std::string stridedByMacro(int InFloats) {
  return "#include <cuda_runtime.h>\n"
         "__global__ void k(const float *in, float *out) {\n"
         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  out[i] = in[i * STRIDE];\n"
         "}\n"
         "int main() {\n"
         "  float *in, *out;\n"
         "  cudaMalloc(&in, " +
         std::to_string(InFloats) +
         " * sizeof(float));\n"
         "  cudaMalloc(&out, 4096 * sizeof(float));\n"
         "  k<<<32, 128>>>(in, out);\n"
         "}\n";
}

std::string stridedCopy(int Stride, const std::string &Local = "i",
                        const std::string &Blank = "") {
  return "#include <cuda_runtime.h>\n" + Blank +
         "__global__ void copy(const float *in, float *out, int s) {\n"
         "  int " +
         Local +
         " = blockIdx.x * blockDim.x + threadIdx.x;\n"
         "  out[" +
         Local + "] = in[" + Local +
         " * s];\n"
         "}\n"
         "int main() {\n"
         "  float *in, *out;\n"
         "  cudaMalloc(&in, 8192 * sizeof(float));\n"
         "  cudaMalloc(&out, 4096 * sizeof(float));\n"
         "  copy<<<32, 128>>>(in, out, " +
         std::to_string(Stride) +
         ");\n"
         "}\n";
}

TEST(Gate, ChecksGlobSelectsRules) {
  GateRun R = runGate("examples/transpose.cu --block 32,16 --format json "
                      "--checks=-*,gmem-bank-conflict");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  json F = findings(R);
  ASSERT_EQ(F.size(), 1u) << R.Out;
  // transposeSmem reads tile[icol][irow] with icol = threadIdx index % 16:
  // lanes 32 words apart, 16 distinct rows in one bank.
  EXPECT_EQ(F[0]["rule"], "gmem-bank-conflict");
  EXPECT_EQ(F[0]["line"], 116);
  EXPECT_EQ(F[0]["figures"]["conflict_ways"], 16);
  // Padding by one leaves icol and icol+1 with irow 1 and 0 in one bank;
  // two is the smallest padding without conflict (33*icol+irow vs
  // 34*icol+irow mod 32), and the tool re-simulated it.
  EXPECT_EQ(F[0]["fix"]["description"],
            "pad the last dimension of 'tile' by 2 elements: tile[16][34]");
  R = runGate("examples/transpose.cu --block 32,16 --checks=gmem-nothing");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find("matches no rule"), std::string::npos) << R.Err;
}

TEST(Gate, NolintSuppressesOneRule) {
  std::string Src =
      readFile(sourcePath("tests/data/rules/uncoalesced_load.cu"));
  size_t At = Src.find("out[i] = in[i * n];");
  ASSERT_NE(At, std::string::npos);
  std::string Line = "out[i] = in[i * n];";
  std::string Other = Src, Own = Src, Next = Src;
  Other.replace(At, Line.size(), Line + " // NOLINT(gmem-bank-conflict)");
  Own.replace(At, Line.size(), Line + " // NOLINT(gmem-uncoalesced-*)");
  Next.replace(At, 0, "// NOLINTNEXTLINE(gmem-uncoalesced-load)\n  ");
  const std::string Json = " --format json --checks=*";
  EXPECT_EQ(findings(runGate(temp("other.cu", Other) + Json)).size(), 1u);
  GateRun R = runGate(temp("own.cu", Own) + Json);
  EXPECT_EQ(findings(R).size(), 0u);
  // Said as clang-tidy says it (before, suppressed findings went unsaid).
  EXPECT_NE(R.Err.find("\nSuppressed 1 warnings (1 NOLINT).\n"),
            std::string::npos)
      << R.Err;
  EXPECT_EQ(findings(runGate(temp("next.cu", Next) + Json)).size(), 0u);
}

TEST(Gate, NolintBeginEndBlocks) {
  // uncoalesced_load.cu's strided load, inside blocks of several kinds.
  std::string Src =
      readFile(sourcePath("tests/data/rules/uncoalesced_load.cu"));
  size_t At = Src.find("  out[i] = in[i * n];");
  ASSERT_NE(At, std::string::npos);
  auto Around = [&](const std::string &Begin, const std::string &End) {
    std::string S = Src;
    size_t LineEnd = S.find('\n', At);
    if (!End.empty())
      S.insert(LineEnd + 1, "  // " + End + "\n");
    S.insert(At, "  // " + Begin + "\n");
    return S;
  };
  const std::string Json = " --format json --checks=*";
  auto Count = [&](const std::string &Name, const std::string &Text) {
    return findings(runGate(temp(Name, Text) + Json)).size();
  };
  EXPECT_EQ(Count("b1.cu", Around("NOLINTBEGIN(gmem-uncoalesced-load)",
                                  "NOLINTEND(gmem-uncoalesced-load)")),
            0u);
  EXPECT_EQ(Count("b2.cu", Around("NOLINTBEGIN", "NOLINTEND")), 0u);
  // A block of another rule, and a block closed before the line.
  EXPECT_EQ(Count("b3.cu", Around("NOLINTBEGIN(gmem-bank-conflict)",
                                  "NOLINTEND(gmem-bank-conflict)")),
            1u);
  std::string Closed = Src;
  Closed.insert(At, "  // NOLINTBEGIN\n  // NOLINTEND\n");
  EXPECT_EQ(Count("b4.cu", Closed), 1u);
  // A BEGIN never closed reaches the end of the file.
  EXPECT_EQ(Count("b5.cu", Around("NOLINTBEGIN(gmem-uncoalesced-*)", "")), 0u);
}

TEST(Gate, ConfigFileFoundUpwardsAsClangTidys) {
  // root/.gmem and root/sub/.gmem around uncoalesced_load.cu, whose strided
  // load is its one finding (a warning).
  std::string Root = ::testing::TempDir();
  Root = Root.substr(0, Root.find_last_not_of('/') + 1) + "/gmemcfg";
  std::system(("rm -rf " + Root + " && mkdir -p " + Root + "/sub").c_str());
  std::string Src = Root + "/sub/load.cu";
  std::ofstream(Src) << readFile(
      sourcePath("tests/data/rules/uncoalesced_load.cu"));
  auto Run = [&](const std::string &Flags) {
    return runGate(Src + " --format json --quiet " + Flags); // The gate.
  };
  ASSERT_EQ(findings(Run("")).size(), 1u);
  // The nearest file above applies...
  std::ofstream(Root + "/.gmem") << "Checks: '-*,gmem-bank-conflict'\n";
  GateRun R = Run("");
  EXPECT_EQ(R.Exit, 0);
  EXPECT_EQ(findings(R).size(), 0u) << R.Out;
  // ... and --checks is appended to its list, as clang-tidy appends it.
  EXPECT_EQ(findings(Run("--checks=gmem-uncoalesced-load")).size(), 1u);
  // A nearer file wins whole: every rule again, this one an error.
  std::ofstream(Root + "/sub/.gmem")
      << "# Errors for strided loads.\n"
         "WarningsAsErrors: 'gmem-uncoalesced-load'\n";
  R = Run("");
  EXPECT_EQ(R.Exit, 1);
  ASSERT_EQ(findings(R).size(), 1u);
  EXPECT_EQ(findings(R)[0]["severity"], "error");
  // Policies are keys too; the command line replaces their values.
  std::ofstream(Root + "/sub/.gmem") << "MinEfficiency: 50\n";
  EXPECT_EQ(Run("").Exit, 1);
  EXPECT_EQ(Run("--min-efficiency 10").Exit, 0);
  // A mistyped key: exit 2 naming the file, line and column, before the
  // program is built and run (before, after its whole build).
  std::ofstream(Root + "/sub/.gmem") << "Chekcs: '*'\n";
  R = Run("");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find(Root + "/sub/.gmem:1:1: unknown key 'Chekcs'"),
            std::string::npos)
      << R.Err;
  // Said first: a file that does not even parse gets the same message.
  std::ofstream(Root + "/sub/broken.cu") << "__global__ void k( {\n";
  R = runGate(Root + "/sub/broken.cu --format json --quiet");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find(Root + "/sub/.gmem:1:1: unknown key 'Chekcs'"),
            std::string::npos)
      << R.Err;
  EXPECT_EQ(R.Err.find("broken.cu:1"), std::string::npos) << R.Err;
}

TEST(Gate, ExportedFixRemovesTheConflict) {
  // transposeSmem's 16-way conflict on tile[BDIMY][BDIMX]; the checked fix
  // pads by 2, exported as clang-tidy exports fixes. Applied to a copy of
  // the file, the gate finds no conflict left.
  std::string Yaml = ::testing::TempDir() + "/fixes.yaml";
  GateRun R = runGate("examples/transpose.cu --block 32,16 --quiet "
                      "--checks=-*,gmem-bank-conflict --export-fixes " +
                      Yaml);
  ASSERT_EQ(R.Exit, 0) << R.Err;
  std::string Y = readFile(Yaml);
  EXPECT_NE(Y.find("DiagnosticName:  gmem-bank-conflict"), std::string::npos)
      << Y;
  EXPECT_NE(Y.find("FilePath:        'examples/transpose.cu'"),
            std::string::npos)
      << Y;
  auto Field = [&](const std::string &Key) {
    size_t At = Y.find(Key + ":");
    EXPECT_NE(At, std::string::npos) << Key << " in " << Y;
    size_t Start = Y.find_first_not_of(' ', At + Key.size() + 1);
    return Y.substr(Start, Y.find('\n', Start) - Start);
  };
  ASSERT_EQ(Field("ReplacementText"), "' + 2'");
  EXPECT_EQ(Field("Length"), "0");
  size_t Offset = std::stoul(Field(" Offset")); // Not FileOffset.
  std::string Src = readFile(sourcePath("examples/transpose.cu"));
  ASSERT_LT(Offset, Src.size());
  // Before the closing bracket of the last dimension.
  EXPECT_EQ(Src.substr(Offset - 23, 24), "float tile[BDIMY][BDIMX]") << Offset;
  Src.insert(Offset, " + 2");
  std::string Fixed = temp("transpose_fixed.cu", Src);
  R = runGate(Fixed + " --block 32,16 --format json "
                      "--checks=-*,gmem-bank-conflict");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_EQ(findings(R).size(), 0u) << R.Out;
}

TEST(Gate, ARunThatEndsAtOnceSaysWhy) {
  // A program that wants an argument exits before its launch: the gate
  // said only that its kernel "is not launched by this file's main()".
  std::string Src = temp("wants_args.cu", R"(#include <cstdio>
__global__ void k(float *a) { a[threadIdx.x * 32] = 1.0f; }
int main(int argc, char **argv) {
  if (argc < 2) { printf("usage: %s N\n", argv[0]); return 1; }
  float *a;
  cudaMalloc(&a, 4096 * 32);
  k<<<1, 32>>>(a);
}
)");
  GateRun R = runGate(Src + " --format diagnostics -fno-color-diagnostics");
  if (R.Err.find("launches recorded") == std::string::npos)
    GTEST_SKIP() << "no toolkit to record with: " << R.Err;
  EXPECT_NE(R.Err.find("wants_args.cu: the program exited with 1 after 0 "
                       "launches"),
            std::string::npos)
      << R.Err;
  EXPECT_NE(R.Err.find("pass --run-args"), std::string::npos) << R.Err;
}

TEST(Gate, FixAppliesTheCheckedFixInPlace) {
  // clang-tidy's --fix: transposeSmem's tile padded by 2 in a copy of the
  // file, after which the gate finds no conflict there.
  std::string Copy = temp("transpose_fix.cu",
                          readFile(sourcePath("examples/transpose.cu")));
  GateRun R = runGate(Copy + " --block 32,16 --quiet "
                             "--checks=-*,gmem-bank-conflict --fix");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_NE(R.Err.find("gmem-analyze: applied 1 of 1 checked fix(es)"),
            std::string::npos)
      << R.Err;
  EXPECT_NE(readFile(Copy).find("float tile[BDIMY][BDIMX + 2]"),
            std::string::npos);
  R = runGate(Copy + " --block 32,16 --format json "
                     "--checks=-*,gmem-bank-conflict");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_EQ(findings(R).size(), 0u) << R.Out;
}

TEST(Gate, DumpConfigAndConfigFile) {
  // clang-tidy's --dump-config and --config-file, for .gmem files.
  std::string Root = ::testing::TempDir();
  Root = Root.substr(0, Root.find_last_not_of('/') + 1) + "/gmemdump";
  std::system(("rm -rf " + Root + " && mkdir -p " + Root).c_str());
  std::ofstream(Root + "/.gmem") << "Checks: '-*,gmem-bank-conflict'\n"
                                    "MaxConflictWays: 4\n";
  std::ofstream(Root + "/other.yaml") << "Checks: 'gmem-uncoalesced-*'\n";
  std::ofstream(Root + "/k.cu") << "__global__ void k() {}\n";
  GateRun R = runGate(Root + "/k.cu --dump-config --fail-on=gmem-bank-*");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_EQ(R.Out, "---\n# " + Root +
                       "/.gmem with the command line's flags\n"
                       "Checks: '-*,gmem-bank-conflict'\n"
                       "WarningsAsErrors: 'gmem-bank-*'\n"
                       "MaxConflictWays: 4\n...\n");
  R = runGate(Root + "/k.cu --dump-config --config-file " + Root +
              "/other.yaml");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_NE(R.Out.find("Checks: 'gmem-uncoalesced-*'\n"), std::string::npos)
      << R.Out;
  R = runGate(Root + "/k.cu --config-file " + Root + "/missing.yaml");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find(Root + "/missing.yaml: cannot read"),
            std::string::npos)
      << R.Err;
}

TEST(Gate, QuietLeavesOutTheSummary) {
  std::string F = "tests/data/rules/uncoalesced_load.cu --format diagnostics "
                  "-fno-color-diagnostics";
  GateRun Loud = runGate(F);
  EXPECT_NE(Loud.Err.find("gmem-analyze: 1 file(s), 0 error(s), 1 "
                          "warning(s)"),
            std::string::npos)
      << Loud.Err;
  GateRun Quiet = runGate(F + " --quiet");
  EXPECT_EQ(Quiet.Exit, 0);
  EXPECT_EQ(Quiet.Err.find("file(s)"), std::string::npos) << Quiet.Err;
  EXPECT_EQ(Quiet.Err.find("note:"), std::string::npos) << Quiet.Err;
  // The findings themselves are still printed, without their notes.
  EXPECT_NE(Loud.Out.find(": note: "), std::string::npos) << Loud.Out;
  EXPECT_EQ(Quiet.Out, Loud.Out.substr(0, Loud.Out.find("tests/data/rules/"
                                                        "uncoalesced_load.cu:"
                                                        "8:12: note: ")));
}

TEST(Gate, PoliciesDecideTheExitCode) {
  std::string F = "tests/data/rules/uncoalesced_load.cu";
  EXPECT_EQ(runGate(F).Exit, 0); // A warning alone passes.
  GateRun R = runGate(F + " --warnings-as-errors=gmem-uncoalesced-*");
  EXPECT_EQ(R.Exit, 1);
  EXPECT_NE(R.Out.find("error: uncoalesced global load"), std::string::npos)
      << R.Out;
  EXPECT_EQ(runGate(F + " --fail-on=gmem-bank-conflict").Exit, 0);
  // columnRead's load is 12.5% efficient, rowRead's and both stores 100%.
  R = runGate(F + " --min-efficiency 50 --format json");
  EXPECT_EQ(R.Exit, 1);
  ASSERT_EQ(findings(R).size(), 1u);
  EXPECT_EQ(findings(R)[0]["severity"], "error");
  EXPECT_EQ(runGate(F + " --min-efficiency 12").Exit, 0);
  // columnTile's read is 32-way.
  std::string B = "tests/data/rules/bank_conflict.cu";
  EXPECT_EQ(runGate(B + " --max-conflict-ways 32").Exit, 0);
  EXPECT_EQ(runGate(B + " --max-conflict-ways 31").Exit, 1);
  EXPECT_EQ(runGate(B + " --max-conflict-ways x").Exit, 2);
}

TEST(Gate, BadInputIsExitTwo) {
  EXPECT_EQ(runGate("no/such.cu --checks=*").Exit, 2);
  std::string Bad = temp("bad_baseline.json", "{\"x\": 1}");
  GateRun R = runGate("tests/data/rules/partial_warp.cu --baseline " + Bad);
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find("not a gmem baseline"), std::string::npos) << R.Err;
  EXPECT_EQ(runGate("tests/data/rules/partial_warp.cu --update-baseline").Exit,
            2);
}

// A baseline damaged by hand or by a merge: one line naming the entry and
// the field, exit 2; never half-read.
TEST(Gate, DamagedBaselinesAreNamed) {
  std::string Good = ::testing::TempDir() + "/good_baseline.json";
  std::string Src = "tests/data/rules/partial_warp.cu";
  ASSERT_EQ(updateBaseline(Src, Good), 0);
  std::ifstream In(Good);
  json B = json::parse(In);
  ASSERT_TRUE(
      B["entries"].contains("tests/data/rules/partial_warp.cu|scale#0"));
  const std::string Key = "tests/data/rules/partial_warp.cu|scale#0";
  const std::string Entry = "entry \"" + Key + "\"";
  struct Case {
    const char *Pointer;
    json Value;
    std::string Message;
  } Cases[] = {
      {"/gmem_baseline", 2, "baseline version 2 is not 1"},
      {"/entries/x", json::array(), "entry \"x\" has no \"figures\" object"},
      {"/entries/tests~1data~1rules~1partial_warp.cu|scale#0/figures/"
       "gld_efficiency",
       "high", Entry + ": figure \"gld_efficiency\" is \"high\", not a number"},
      {"/entries/tests~1data~1rules~1partial_warp.cu|scale#0/line", -3,
       Entry + ": \"line\" is not a line or column number"},
      {"/entries/tests~1data~1rules~1partial_warp.cu|scale#0/label", 5,
       Entry + ": \"label\" is not a string"},
  };
  for (const Case &C : Cases) {
    SCOPED_TRACE(C.Pointer);
    json D = B;
    D[json::json_pointer(C.Pointer)] = C.Value;
    GateRun R = runGate(Src + " --baseline " + temp("damaged.json", D.dump(1)));
    EXPECT_EQ(R.Exit, 2);
    EXPECT_NE(R.Err.find(C.Message + "; rewrite it with --update-baseline"),
              std::string::npos)
        << R.Err;
  }
  // Cut short: the parser's place, and no figures from it.
  std::string Text = B.dump(1);
  GateRun R = runGate(Src + " --baseline " +
                      temp("cut.json", Text.substr(0, Text.size() / 2)));
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find("cut.json: not JSON"), std::string::npos) << R.Err;
}

TEST(Gate, BaselineRegressionImprovementAndStableKeys) {
  std::string Base = ::testing::TempDir() + "/copy_baseline.json";
  std::string Src = ::testing::TempDir() + "/copy.cu";
  std::ofstream(Src) << stridedCopy(1);
  ASSERT_EQ(updateBaseline(Src, Base), 0);
  json B = json::parse(readFile(Base));
  EXPECT_EQ(B["gmem_baseline"], 1);

  // Moved two lines down and the local renamed: the same entries.
  std::ofstream(Src) << stridedCopy(1, "idx", "\n\n");
  GateRun R = runGate(Src + " --baseline " + Base + " --format json");
  EXPECT_EQ(R.Exit, 0) << R.Out;
  EXPECT_EQ(findings(R).size(), 0u) << R.Out;

  // Stride 2: the load goes from 4 to 8 sectors per request, line 6.
  std::ofstream(Src) << stridedCopy(2, "idx", "\n\n");
  R = runGate(Src + " --baseline " + Base + " -fno-color-diagnostics");
  EXPECT_EQ(R.Exit, 1) << R.Out;
  EXPECT_NE(R.Out.find("copy.cu:6:14: error: global load in[idx * s] in copy "
                       "got worse than the baseline: efficiency_pct 100 -> 50 "
                       "(-50%), per_request 4 -> 8 (+100%)"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("[gmem-baseline-regression]"), std::string::npos);
  // Within a 150% tolerance the same change passes.
  EXPECT_EQ(runGate(Src + " --baseline " + Base + " --tolerance 150").Exit, 0);

  // Recorded at stride 2, back to 1: reported, not failed.
  ASSERT_EQ(updateBaseline(Src, Base), 0);
  std::ofstream(Src) << stridedCopy(1);
  R = runGate(Src + " --baseline " + Base + " --format json");
  EXPECT_EQ(R.Exit, 0) << R.Out;
  bool Improved = false;
  for (const json &F : findings(R))
    Improved |= F["rule"] == "gmem-baseline-improvement" && F["line"] == 4 &&
                F["figures"]["changes"]["per_request"]["current"] == 4.0;
  EXPECT_TRUE(Improved) << R.Out;
}

TEST(Gate, BaselineOfAnotherToolchainIsReportedNotCompared) {
  std::string Base = ::testing::TempDir() + "/tc_baseline.json";
  std::string Src = ::testing::TempDir() + "/tc.cu";
  std::ofstream(Src) << stridedCopy(1);
  ASSERT_EQ(updateBaseline(Src, Base), 0);
  json B = json::parse(readFile(Base));
  // What the counts are of: the compiler used (nvcc where a toolkit is
  // found, the source otherwise) and the architecture.
  ASSERT_EQ(B["toolchains"].size(), 1u) << B;
  const std::string Key = B["toolchains"].begin().key();
  const json &T = B["toolchains"][Key];
  EXPECT_EQ(T["arch"], "sm_90");
  EXPECT_TRUE(T["compiler"] == "nvcc" || T["compiler"] == "source") << T;

  // The same baseline as nvcc 12 would have written it, and a change that
  // is a regression under one toolchain: the toolchain is reported, the
  // figures are not compared, nothing fails.
  B["toolchains"][Key] = {
      {"compiler", "nvcc"}, {"version", "12.4.131"}, {"arch", "sm_90"}};
  std::ofstream(Base) << B.dump(2);
  std::ofstream(Src) << stridedCopy(2);
  GateRun R = runGate(Src + " --baseline " + Base + " --format json");
  EXPECT_EQ(R.Exit, 0) << R.Out;
  // The stride-2 load's own finding stays; of the baseline, only this.
  json F = json::array();
  for (const json &X : findings(R))
    if (X["rule"].get<std::string>().rfind("gmem-baseline-", 0) == 0)
      F.push_back(X);
  ASSERT_EQ(F.size(), 1u) << R.Out;
  EXPECT_EQ(F[0]["rule"], "gmem-baseline-toolchain");
  EXPECT_EQ(F[0]["severity"], "warning");
  EXPECT_NE(F[0]["message"].get<std::string>().find(
                "the baseline's counts are of nvcc 12.4.131 for sm_90, this "
                "run's of "),
            std::string::npos)
      << F[0];
  // Under --fail-on it fails the gate, as any warning does.
  EXPECT_EQ(runGate(Src + " --baseline " + Base +
                    " --fail-on=gmem-baseline-toolchain")
                .Exit,
            1);
  // In SARIF the finding names the file only: a result with no location.
  GateRun S = runGate(Src + " --baseline " + Base + " --format sarif");
  ASSERT_EQ(S.Exit, 0) << S.Err;
  bool Found = false;
  const json Log = json::parse(S.Out);
  for (const json &X : Log["runs"][0]["results"])
    if (X["ruleId"] == "gmem-baseline-toolchain") {
      Found = true;
      EXPECT_FALSE(X.contains("locations")) << X;
    }
  EXPECT_TRUE(Found) << S.Out;
}

TEST(Gate, BaselineUpdateOfOneFileKeepsTheOthersToolchains) {
  std::string Base = ::testing::TempDir() + "/two_baseline.json";
  std::remove(Base.c_str());
  std::string A = temp("tc_a.cu", stridedCopy(1)),
              B = temp("tc_b.cu", stridedCopy(2));
  ASSERT_EQ(updateBaseline(A, Base), 0);
  ASSERT_EQ(updateBaseline(B, Base), 0);
  json J = json::parse(readFile(Base));
  EXPECT_EQ(J["toolchains"].size(), 2u) << J["toolchains"];
}

TEST(Gate, NewAndVanishedAccessesAreReported) {
  std::string Base = ::testing::TempDir() + "/nv_baseline.json";
  std::string Src = ::testing::TempDir() + "/nv.cu";
  std::ofstream(Src) << stridedCopy(1);
  ASSERT_EQ(updateBaseline(Src, Base), 0);
  std::string Changed = stridedCopy(1);
  // The same cost, another expression shape.
  Changed.replace(Changed.find("in[i * s]"), 9, "in[i * s + 0]");
  std::ofstream(Src) << Changed;
  GateRun R = runGate(Src + " --baseline " + Base + " --format json");
  EXPECT_EQ(R.Exit, 0) << R.Out;
  std::set<std::string> Rules;
  for (const json &F : findings(R))
    Rules.insert(F["rule"]);
  EXPECT_TRUE(Rules.count("gmem-baseline-new")) << R.Out;
  EXPECT_TRUE(Rules.count("gmem-baseline-vanished")) << R.Out;
}

TEST(Gate, ClangStyleTextWithCaretsAndColours) {
  std::string F = "tests/data/rules/uncoalesced_load.cu";
  GateRun R = runGate(F + " -fno-color-diagnostics");
  EXPECT_NE(R.Out.find(F + ":8:12: warning: uncoalesced global load from "
                           "'in'"),
            std::string::npos)
      << R.Out;
  EXPECT_NE(R.Out.find("    8 |   out[i] = in[i * n];"), std::string::npos);
  EXPECT_NE(R.Out.find("      |            ^"), std::string::npos) << R.Out;
  EXPECT_EQ(R.Out.find("\x1b["), std::string::npos);
  EXPECT_NE(runGate(F + " -fcolor-diagnostics").Out.find("\x1b["),
            std::string::npos);
}

TEST(Gate, PrintedUnrollPadIsOutOfBoundsWithBlock32x16) {
  // tile is [16][66]; with block 32x16 irow = index / 16 reaches 31, so
  // the 256 threads with irow >= 16 of each of the 64 x 256 blocks read
  // past it: 4194304 lanes per load.
  GateRun R = runGate("examples/transpose_seed_printed.cu --block 32,16 "
                      "--format json --checks=-*,gmem-shared-out-of-bounds");
  EXPECT_EQ(R.Exit, 1);
  json F = findings(R);
  ASSERT_EQ(F.size(), 2u) << R.Out;
  EXPECT_EQ(F[0]["line"], 73);
  EXPECT_EQ(F[0]["col"], 34);
  EXPECT_EQ(F[1]["line"], 78);
  for (const json &X : F)
    EXPECT_EQ(X["figures"]["out_of_bounds_lanes"], 4194304);
}

TEST(Gate, SeveralFilesInParallel) {
  GateRun R = runGate("tests/data/rules/uncoalesced_load.cu "
                      "tests/data/rules/partial_warp.cu -j 2 --format json");
  EXPECT_EQ(R.Exit, 0) << R.Err;
  std::set<std::string> Rules;
  for (const json &F : findings(R))
    Rules.insert(F["rule"]);
  EXPECT_EQ(Rules, (std::set<std::string>{"gmem-uncoalesced-load",
                                          "gmem-partial-warp"}));
  EXPECT_EQ(json::parse(R.Out)["files"].size(), 2u);
}

TEST(CompileDb, NvccFlagsTranslatedOrDropped) {
  // A command line as CMake writes it for nvcc.
  std::vector<std::string> Cmd = {
      "/usr/local/cuda/bin/nvcc",
      "-forward-unknown-to-host-compiler",
      "-DSTRIDE=2",
      "-I../include",
      "-isystem",
      "/opt/x/include",
      "--generate-code=arch=compute_75,code=[compute_75,sm_75]",
      "-gencode",
      "arch=compute_90,code=sm_90",
      "-arch=sm_90",
      "--expt-relaxed-constexpr",
      "-Xcompiler",
      "-fPIC",
      "-Xcompiler=-Wall",
      "-rdc=true",
      "-x",
      "cu",
      "--use_fast_math",
      "-std=c++17",
      "-O3",
      "-c",
      "/src/k.cu",
      "-o",
      "k.o"};
  std::vector<std::string> Want = {"-DSTRIDE=2", "-I/b/../include", "-isystem",
                                   "/opt/x/include", "-std=c++17"};
  EXPECT_EQ(gmem::translateNvccCommand(Cmd, "/b"), Want);
}

TEST(CompileDb, DashPReadsTheDatabase) {
  // STRIDE comes only from the database: 2 floats apart is 8 sectors.
  std::string Dir = ::testing::TempDir() + "/db";
  std::system(("mkdir -p " + Dir).c_str());
  std::string Src = Dir + "/k.cu";
  std::ofstream(Src) << stridedByMacro(8192);
  json Db = json::array({{{"directory", Dir},
                          {"command", "/usr/local/cuda/bin/nvcc -DSTRIDE=2 "
                                      "-gencode arch=compute_90,code=sm_90 "
                                      "-x cu -c " +
                                          Src + " -o k.o"},
                          {"file", Src}}});
  std::ofstream(Dir + "/compile_commands.json") << Db.dump();
  GateRun R = runGate("-p " + Dir + " " + Src + " --format json");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  json F = findings(R);
  ASSERT_EQ(F.size(), 1u) << R.Out;
  EXPECT_EQ(F[0]["figures"]["per_request"], 8.0);
  // Without the database STRIDE is undefined: exit 2 naming the file.
  EXPECT_EQ(runGate(Src + " --checks=*").Exit, 2);
  R = runGate("-p " + Dir + " examples/transpose.cu");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find("no entry in"), std::string::npos) << R.Err;
}

TEST(CompileDb, DashPAloneAnalysesEveryCudaFile) {
  // Two CUDA files of one database, strides 2 and 4 (8 and 16 sectors per
  // request), and a C++ file, which is not analysed: as clang-tidy -p runs
  // every file of the database.
  std::string Dir = ::testing::TempDir() + "/dball";
  std::system(("mkdir -p " + Dir).c_str());
  json Db = json::array();
  for (int Stride : {2, 4}) {
    std::string Src = Dir + "/k" + std::to_string(Stride) + ".cu";
    std::ofstream(Src) << stridedByMacro(16384);
    Db.push_back({{"directory", Dir},
                  {"command", "/usr/local/cuda/bin/nvcc -DSTRIDE=" +
                                  std::to_string(Stride) + " -x cu -c " + Src +
                                  " -o k.o"},
                  {"file", Src}});
  }
  std::ofstream(Dir + "/host.cpp") << "int main() { return 0; }\n";
  Db.push_back({{"directory", Dir},
                {"command", "c++ -c " + Dir + "/host.cpp -o host.o"},
                {"file", Dir + "/host.cpp"}});
  std::ofstream(Dir + "/compile_commands.json") << Db.dump();
  GateRun R = runGate("-p " + Dir + " --format json");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  std::map<std::string, double> PerRequest;
  for (const json &F : findings(R))
    PerRequest[F["file"].get<std::string>()] = F["figures"]["per_request"];
  ASSERT_EQ(PerRequest.size(), 2u) << R.Out;
  for (const auto &[File, V] : PerRequest)
    EXPECT_EQ(V, File.find("k2.cu") != std::string::npos ? 8.0 : 16.0) << File;

  // A database without a CUDA file: exit 2, saying so.
  std::ofstream(Dir + "/compile_commands.json") << json::array({Db[2]}).dump();
  R = runGate("-p " + Dir);
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find("compiles no .cu file"), std::string::npos) << R.Err;
}

TEST(LaunchFile, NamesKernelsNoMainLaunches) {
  std::string Src =
      temp("nomain.cu", "#include <cuda_runtime.h>\n"
                        "__global__ void col(const float *in, float *out, "
                        "int n) {\n"
                        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                        "  out[i] = in[i * n];\n"
                        "}\n");
  std::string L = temp("launches.json",
                       R"({"launches": [{"kernel": "col", "grid": [4],
                           "block": [128], "args": {"n": 1024}}]})");
  GateRun R = runGate(Src + " --launches " + L + " --format json");
  // Lanes 1024 floats apart: one sector each.
  ASSERT_EQ(R.Exit, 0) << R.Err;
  json F = findings(R);
  ASSERT_EQ(F.size(), 1u) << R.Out;
  EXPECT_EQ(F[0]["figures"]["per_request"], 32.0);
  // Without it the kernel is named as unchecked.
  R = runGate(Src + " --checks=*");
  EXPECT_NE(R.Err.find("col is not launched"), std::string::npos) << R.Err;
}

} // namespace

namespace {

TEST(RulesLibrary, GlobListLastMatchWins) {
  gmem::GlobList L("-*,gmem-uncoalesced-*,-gmem-uncoalesced-store");
  EXPECT_TRUE(L.contains("gmem-uncoalesced-load"));
  EXPECT_FALSE(L.contains("gmem-uncoalesced-store"));
  EXPECT_FALSE(L.contains("gmem-bank-conflict"));
  EXPECT_TRUE(gmem::GlobList("*").contains("gmem-partial-warp"));
  EXPECT_FALSE(gmem::GlobList("").contains("gmem-partial-warp"));
}

TEST(RulesLibrary, NolintComments) {
  using gmem::nolintSuppresses;
  EXPECT_TRUE(nolintSuppresses("x = 1; // NOLINT", "NOLINT", "gmem-a"));
  EXPECT_TRUE(
      nolintSuppresses("// NOLINT(gmem-a, gmem-b)", "NOLINT", "gmem-b"));
  EXPECT_FALSE(nolintSuppresses("// NOLINT(gmem-a)", "NOLINT", "gmem-b"));
  // NOLINTNEXTLINE is not a NOLINT for its own line.
  EXPECT_FALSE(nolintSuppresses("// NOLINTNEXTLINE", "NOLINT", "gmem-a"));
  EXPECT_TRUE(
      nolintSuppresses("// NOLINTNEXTLINE", "NOLINTNEXTLINE", "gmem-a"));
  // Neither is NOLINTBEGIN; its lists are read as NOLINT's are.
  EXPECT_FALSE(nolintSuppresses("// NOLINTBEGIN", "NOLINT", "gmem-a"));
  EXPECT_EQ(
      gmem::nolintLists("// NOLINTBEGIN(gmem-a) NOLINTBEGIN", "NOLINTBEGIN"),
      (std::vector<std::string>{"gmem-a", ""}));
  EXPECT_EQ(gmem::nolintLists("// NOLINTEND(gmem-a", "NOLINTEND"),
            (std::vector<std::string>{""})); // Unclosed: every rule.
}

TEST(RulesLibrary, ExpressionShapeIgnoresLocalNames) {
  EXPECT_EQ(gmem::expressionShape("in[iy * nx + ix]", "in"), "in[_*_+_]");
  EXPECT_EQ(gmem::expressionShape("in[row*width + col]", "in"), "in[_*_+_]");
  EXPECT_EQ(gmem::expressionShape("tile[threadIdx.y][threadIdx.x + 1]", "tile"),
            "tile[threadIdx.y][threadIdx.x+1]");
}

} // namespace

namespace {

// A shared load whose address the PTX selects between two arrays names
// neither, and the launch is priced by its executed PTX. Each conflict is
// reported; no padding is offered as checked, since re-simulating the
// model does not reproduce the figures reported (it offered "0 wavefronts
// per request (from 0)" for the stores, and re-simulating a padding of
// the load's array index of -1 was an internal error).
TEST(Gate, AnAccessOfEitherOfTwoArraysGetsNoPaddingFix) {
  GateRun R = runGate(sourcePath("tests/data/rules/merged_arrays.cu") +
                      " --format json --checks=-*,gmem-bank-conflict");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  json F = findings(R);
  ASSERT_EQ(F.size(), 3u) << R.Out;
  for (const json &D : F) {
    const std::string M = D["message"];
    EXPECT_EQ(M.find("of ''"), std::string::npos) << M;
    EXPECT_NE(M.find("32-way bank conflict"), std::string::npos) << M;
    EXPECT_FALSE(D.contains("fix")) << D.dump();
  }
}

} // namespace
