//===- verify_test.cpp - Each rule against the diagnostics its file expects ==//
//
// As clang's -verify: every line of tests/data/rules/<rule>.cu that should
// cause a finding says so in a comment, `// expected-warning{{text}}` (or
// -error, -remark, -note); the test runs the gate with only that rule and
// requires every error, warning and remark to be expected on its line with
// its text, and every expected one to appear. Each file holds a kernel that
// fires and its fixed twin, which must stay silent. Notes are checked only
// where expected. The figures in the comments come from the hardware rules
// (each file's header says how).
//
//===----------------------------------------------------------------------===//
#include "gate_tool.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

using namespace gmem::test;

namespace {

struct Expected {
  unsigned Line;
  std::string Level, Text;
};

std::vector<Expected> expectations(const std::string &Source) {
  std::vector<Expected> Out;
  std::regex Re(R"(expected-(error|warning|remark|note)\{\{(.*?)\}\})");
  std::istringstream In(Source);
  std::string L;
  for (unsigned N = 1; std::getline(In, L); ++N)
    for (std::sregex_iterator I(L.begin(), L.end(), Re), E; I != E; ++I)
      Out.push_back({N, (*I)[1], (*I)[2]});
  return Out;
}

void verify(const std::string &Rule, const std::string &Extra = "",
            std::string File = "") {
  if (File.empty()) {
    File = "tests/data/rules/" + Rule.substr(5) + ".cu";
    for (char &C : File)
      if (C == '-')
        C = '_';
  }
  std::vector<Expected> Want = expectations(readFile(sourcePath(File)));
  ASSERT_FALSE(Want.empty()) << File << " expects nothing";
  GateRun R = runGate(File + " --format json --checks=-*," + Rule + Extra);
  ASSERT_NE(R.Exit, 2) << R.Err;
  nlohmann::json J = nlohmann::json::parse(R.Out);
  std::vector<bool> Seen(Want.size());
  bool AnyError = false;
  for (const nlohmann::json &F : J["findings"]) {
    EXPECT_EQ(F["rule"], Rule);
    EXPECT_EQ(F["file"], File);
    AnyError |= F["severity"] == "error";
    bool Matched = false;
    for (size_t I = 0; I < Want.size(); ++I)
      if (!Seen[I] && Want[I].Level == F["severity"] &&
          Want[I].Line == F["line"] && Want[I].Text == F["message"]) {
        Seen[I] = Matched = true;
        break; // Two equal findings on a line need two expectations.
      }
    EXPECT_TRUE(Matched) << "unexpected " << F["severity"] << " at line "
                         << F["line"] << ": " << F["message"];
    for (const nlohmann::json &N : F["notes"])
      for (size_t I = 0; I < Want.size(); ++I)
        if (Want[I].Level == "note" && Want[I].Line == N["line"] &&
            std::string(N["message"]).find(Want[I].Text) != std::string::npos)
          Seen[I] = true;
    if (F.contains("fix"))
      for (size_t I = 0; I < Want.size(); ++I)
        if (Want[I].Level == "note" && Want[I].Line == F["line"] &&
            (std::string(F["fix"]["description"]) + " (" +
             std::string(F["fix"]["checked"]) + ")")
                    .find(Want[I].Text) != std::string::npos)
          Seen[I] = true;
  }
  for (size_t I = 0; I < Want.size(); ++I)
    EXPECT_TRUE(Seen[I]) << File << ":" << Want[I].Line << ": expected "
                         << Want[I].Level << " '" << Want[I].Text
                         << "' not reported";
  // Errors fail the gate (exit 1); warnings alone do not.
  EXPECT_EQ(R.Exit, AnyError ? 1 : 0) << R.Err;
}

TEST(Rules, UncoalescedLoad) { verify("gmem-uncoalesced-load"); }
TEST(Rules, UncoalescedStore) { verify("gmem-uncoalesced-store"); }
TEST(Rules, MisalignedAccess) { verify("gmem-misaligned-access"); }
TEST(Rules, BankConflict) { verify("gmem-bank-conflict"); }
TEST(Rules, SharedOutOfBounds) { verify("gmem-shared-out-of-bounds"); }
TEST(Rules, DataDependentAccess) { verify("gmem-data-dependent-access"); }
TEST(Rules, PartialWarp) { verify("gmem-partial-warp"); }
TEST(Rules, CheckedRemedies) {
  verify("gmem-uncoalesced-load", "", "tests/data/rules/remedies.cu");
  verify("gmem-bank-conflict", "", "tests/data/rules/reduction_remedy.cu");
}

TEST(Rules, EveryRuleHasAVerifyFile) {
  GateRun R = runGate("--list-checks");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  std::istringstream In(R.Out);
  std::string Line;
  unsigned N = 0;
  while (std::getline(In, Line)) {
    if (Line.rfind("gmem-", 0) != 0 || Line.rfind("gmem-baseline", 0) == 0)
      continue;
    std::string Id = Line.substr(0, Line.find(' '));
    std::string File = "tests/data/rules/" + Id.substr(5) + ".cu";
    for (char &C : File)
      if (C == '-')
        C = '_';
    EXPECT_FALSE(readFile(sourcePath(File)).empty()) << Id << ": no " << File;
    ++N;
  }
  EXPECT_GE(N, 7u);
}

} // namespace
