//===- baseline.cpp - Baseline entries, keys and the diff -----------------===//
#include "baseline.h"

#include "arch.h"
#include "rule.h"
#include <cctype>
#include <cmath>
#include <map>
#include <set>

namespace gmem {

std::string expressionShape(const std::string &Text, const std::string &Array) {
  static const std::set<std::string> Keep = {"threadIdx", "blockIdx",
                                             "blockDim", "gridDim", "warpSize"};
  std::string Out;
  for (size_t I = 0; I < Text.size();) {
    char C = Text[I];
    if (std::isspace((unsigned char)C)) {
      ++I;
      continue;
    }
    if (std::isalpha((unsigned char)C) || C == '_') {
      size_t J = I;
      while (J < Text.size() &&
             (std::isalnum((unsigned char)Text[J]) || Text[J] == '_'))
        ++J;
      std::string Id = Text.substr(I, J - I);
      bool Member = !Out.empty() && Out.back() == '.';
      Out += (Id == Array || Keep.count(Id) || Member) ? Id : "_";
      I = J;
      continue;
    }
    Out += C;
    ++I;
  }
  return Out;
}

static nlohmann::json locJson(const SourceLoc &L) {
  return {{"file", L.File}, {"line", L.Line}, {"col", L.Col}};
}

/// What a file's counts depend on besides its source: the compiler whose
/// instructions were counted, its release, and the architecture.
static nlohmann::json toolchainOf(const FileResults &F) {
  nlohmann::json T = nlohmann::json::object();
  if (F.Compiler) {
    T["compiler"] = F.Compiler->Used;
    if (F.Compiler->Used == "nvcc")
      T["version"] = F.Compiler->Version;
  }
  if (F.Launches && !F.Launches->empty())
    T["arch"] = F.Launches->front().Arch;
  return T;
}

static std::string toolchainText(const nlohmann::json &T) {
  std::string S = T.value("compiler", "an unrecorded compiler");
  if (T.contains("version"))
    S += " " + T["version"].get<std::string>();
  return S + " for " + T.value("arch", "an unrecorded architecture");
}

nlohmann::json buildBaseline(const std::vector<FileResults> &Files) {
  nlohmann::json Entries = nlohmann::json::object();
  nlohmann::json Toolchains = nlohmann::json::object();
  for (const FileResults &F : Files) {
    Toolchains[F.File] = toolchainOf(F);
    std::map<std::string, unsigned> Ordinal;
    for (const LaunchResult &R : *F.Launches) {
      std::string LKey = F.File + "|" + R.L.Kernel + "#" +
                         std::to_string(Ordinal[R.L.Kernel]++);
      nlohmann::json LF = nlohmann::json::object();
      for (const auto &[Name, M] : R.Metrics)
        if (M.Value && Name.find('.') == std::string::npos) // nvprof names.
          LF[Name] = *M.Value;
      nlohmann::json LE = locJson(R.L.Loc);
      LE["kind"] = "launch";
      LE["label"] = "launch of " + R.L.Kernel;
      LE["figures"] = LF;
      Entries[LKey] = LE;
      if (!R.K)
        continue;
      const ArchRules &Arch = archOrDefault(R.Arch);
      std::map<std::string, unsigned> Occurrence;
      for (const Access &A : R.K->Accesses) {
        const AccessStats &S = R.PerAccess[A.Id];
        std::string Space = A.Sp == Space::Global ? "global" : "shared";
        std::string Base = LKey + "|" + Space + " " + opText(A) + " " +
                           A.Array + "|" + expressionShape(A.Text, A.Array);
        std::string Key = Base + "#" + std::to_string(Occurrence[Base]++);
        nlohmann::json AF = nlohmann::json::object();
        if (S.Requests && !S.UnknownRequests) {
          AF["per_request"] = S.perRequest();
          AF["units"] = S.Units;
          if (A.Sp == Space::Global)
            AF["efficiency_pct"] = S.efficiencyPct(Arch.unitBytes(A));
          else
            AF["conflict_ways"] = S.MaxWays;
        }
        nlohmann::json AE = locJson(A.Loc);
        AE["kind"] = "access";
        AE["label"] =
            Space + " " + opText(A) + " " + A.Text + " in " + R.L.Kernel;
        AE["figures"] = AF;
        Entries[Key] = AE;
      }
    }
  }
  return {
      {"gmem_baseline", 1}, {"toolchains", Toolchains}, {"entries", Entries}};
}

Expected<void> checkBaseline(const nlohmann::json &J) {
  if (!J.is_object() || !J.contains("gmem_baseline") ||
      !J.contains("entries") || !J["entries"].is_object())
    return Failure{"not a gmem baseline (expected {\"gmem_baseline\": 1, "
                   "\"entries\": {...}}); write one with --update-baseline"};
  if (J["gmem_baseline"] != 1)
    return Failure{"baseline version " + J["gmem_baseline"].dump() +
                   " is not 1; rewrite it with --update-baseline"};
  if (J.contains("toolchains")) {
    if (!J["toolchains"].is_object())
      return Failure{"\"toolchains\" is not an object; rewrite it with "
                     "--update-baseline"};
    for (const auto &[File, T] : J["toolchains"].items()) {
      bool Strings = T.is_object();
      if (Strings)
        for (const auto &[Field, V] : T.items())
          Strings = Strings && V.is_string();
      if (!Strings)
        return Failure{"the toolchain of " + nlohmann::json(File).dump() +
                       " is not an object of strings; rewrite it with "
                       "--update-baseline"};
    }
  }
  // What buildBaseline writes, so that a damaged file is named, not
  // half-read: figures are numbers, places and labels of their types.
  const std::string Rewrite = "; rewrite it with --update-baseline";
  for (const auto &[Key, E] : J["entries"].items()) {
    // Quoted with escapes: the message stays one line.
    const std::string Entry = "entry " + nlohmann::json(Key).dump();
    if (!E.is_object() || !E.contains("figures") || !E["figures"].is_object())
      return Failure{Entry + " has no \"figures\" object" + Rewrite};
    for (const auto &[Name, V] : E["figures"].items())
      if (!V.is_number())
        return Failure{Entry + ": figure " + nlohmann::json(Name).dump() +
                       " is " + V.dump() + ", not a number" + Rewrite};
    for (const char *Field : {"file", "kind", "label"})
      if (E.contains(Field) && !E[Field].is_string())
        return Failure{Entry + ": \"" + Field + "\" is not a string" + Rewrite};
    for (const char *Field : {"line", "col"})
      if (E.contains(Field) && !E[Field].is_number_unsigned())
        return Failure{Entry + ": \"" + Field +
                       "\" is not a line or column number" + Rewrite};
  }
  return {};
}

static SourceLoc locOf(const nlohmann::json &E) {
  SourceLoc L;
  L.File = E.value("file", "");
  L.Line = E.value("line", 0u);
  L.Col = E.value("col", 0u);
  return L;
}

static bool higherIsBetter(const std::string &Figure) {
  return Figure.find("efficiency") != std::string::npos;
}

static std::string fileOfKey(const std::string &Key) {
  return Key.substr(0, Key.find('|'));
}

std::vector<Diagnostic> diffBaseline(const nlohmann::json &Old,
                                     const nlohmann::json &Current,
                                     double TolerancePct) {
  std::vector<Diagnostic> Out;
  const nlohmann::json &OE = Old["entries"], &CE = Current["entries"];
  std::set<std::string> CurrentFiles;
  for (const auto &[Key, E] : CE.items())
    CurrentFiles.insert(fileOfKey(Key));
  // Files whose counts are of another toolchain than the baseline's: the
  // change is reported, their figures are not compared. A baseline written
  // before toolchains were recorded is taken as it is.
  std::set<std::string> OtherToolchain;
  const nlohmann::json NoToolchains = nlohmann::json::object();
  const nlohmann::json &Was =
      Old.contains("toolchains") ? Old["toolchains"] : NoToolchains;
  const nlohmann::json &Is =
      Current.contains("toolchains") ? Current["toolchains"] : NoToolchains;
  for (const auto &[File, Now] : Is.items()) {
    if (!Was.contains(File) || Was[File] == Now)
      continue;
    OtherToolchain.insert(File);
    Diagnostic D;
    D.Rule = "gmem-baseline-toolchain";
    D.Level = Severity::Warning;
    D.Loc.File = File;
    D.Message = "the baseline's counts are of " + toolchainText(Was[File]) +
                ", this run's of " + toolchainText(Now) +
                ": figures not compared; record the baseline again with "
                "--update-baseline under the toolchain CI uses";
    D.Figures = {{"baseline", Was[File]}, {"current", Now}};
    Out.push_back(D);
  }
  auto Make = [](const char *Rule, Severity S, const nlohmann::json &E,
                 const std::string &Key) {
    Diagnostic D;
    D.Rule = Rule;
    D.Level = S;
    D.Loc = locOf(E);
    D.Figures = {{"key", Key}};
    return D;
  };
  for (const auto &[Key, E] : CE.items()) {
    if (OtherToolchain.count(fileOfKey(Key)))
      continue;
    std::string Label = E.value("label", Key);
    if (!OE.contains(Key)) {
      Diagnostic D = Make("gmem-baseline-new", Severity::Remark, E, Key);
      D.Message = Label + ": not in the baseline";
      Out.push_back(D);
      continue;
    }
    const nlohmann::json &Before = OE[Key]["figures"];
    std::vector<std::string> Worse, Better;
    nlohmann::json Changes = nlohmann::json::object();
    for (const auto &[Name, V] : E["figures"].items()) {
      if (!Before.contains(Name) || !Before[Name].is_number() || !V.is_number())
        continue;
      double B = Before[Name].get<double>(), A = V.get<double>();
      double Rel =
          B != 0 ? 100.0 * (A - B) / std::fabs(B) : (A == 0 ? 0.0 : 100.0);
      if (std::fabs(A - B) < 1e-9 || std::fabs(Rel) <= TolerancePct)
        continue;
      bool Up = A > B;
      std::string Text = Name + " " + figure(B) + " -> " + figure(A) + " (" +
                         (Rel > 0 ? "+" : "") + figure(Rel) + "%)";
      (Up != higherIsBetter(Name) ? Worse : Better).push_back(Text);
      Changes[Name] = {{"baseline", B}, {"current", A}};
    }
    auto Join = [](const std::vector<std::string> &V) {
      std::string S;
      for (const std::string &X : V)
        S += (S.empty() ? "" : ", ") + X;
      return S;
    };
    if (!Worse.empty()) {
      Diagnostic D = Make("gmem-baseline-regression", Severity::Error, E, Key);
      D.Message = Label + " got worse than the baseline: " + Join(Worse);
      D.Figures["changes"] = Changes;
      SourceLoc Was = locOf(OE[Key]);
      if (Was.Line && (Was.Line != D.Loc.Line || Was.File != D.Loc.File))
        D.Notes.push_back({Was, "the baseline recorded it here"});
      Out.push_back(D);
    } else if (!Better.empty()) {
      Diagnostic D =
          Make("gmem-baseline-improvement", Severity::Remark, E, Key);
      D.Message = Label + " improved on the baseline: " + Join(Better) +
                  "; record it with --update-baseline";
      D.Figures["changes"] = Changes;
      Out.push_back(D);
    }
  }
  for (const auto &[Key, E] : OE.items()) {
    if (CE.contains(Key) || !CurrentFiles.count(fileOfKey(Key)) ||
        OtherToolchain.count(fileOfKey(Key)))
      continue;
    Diagnostic D = Make("gmem-baseline-vanished", Severity::Remark, E, Key);
    D.Message = E.value("label", Key) + ": in the baseline but no longer found";
    Out.push_back(D);
  }
  return Out;
}

} // namespace gmem

namespace gmem {

extern const RuleInfo BaselineRegressionRule = {
    "gmem-baseline-regression",
    Severity::Error,
    "A figure got worse than the committed baseline",
    "Sectors or wavefronts per request, total sectors or wavefronts, "
    "efficiency or conflict ways of an access or a launch moved the wrong "
    "way compared with the baseline file given to --baseline.",
    "any change beyond --tolerance PCT percent (default 0)",
    nullptr};
extern const RuleInfo BaselineToolchainRule = {
    "gmem-baseline-toolchain",
    Severity::Warning,
    "The baseline was recorded under another toolchain",
    "Counts are of the instructions a compiler emitted for one "
    "architecture: a baseline recorded with another nvcc release, another "
    "--arch, or without the compiler step (no toolkit found) cannot be "
    "compared figure by figure. The file's figures are not compared; "
    "record the baseline again under the toolchain CI uses.",
    "the compiler, its release or the architecture differs",
    nullptr};
extern const RuleInfo BaselineImprovementRule = {
    "gmem-baseline-improvement",
    Severity::Remark,
    "A figure got better than the committed baseline",
    "Reported so that the baseline can be updated with --update-baseline; "
    "never fails the gate.",
    "any change beyond --tolerance",
    nullptr};
extern const RuleInfo BaselineNewRule = {
    "gmem-baseline-new",
    Severity::Remark,
    "A launch or access the baseline does not have",
    "New code, or an edit that changed an access's expression shape or "
    "array; never fails the gate.",
    "always",
    nullptr};
extern const RuleInfo BaselineVanishedRule = {
    "gmem-baseline-vanished",
    Severity::Remark,
    "A baseline entry no longer found",
    "Removed code, or an edit that changed an access's expression shape or "
    "array; never fails the gate.",
    "always",
    nullptr};

} // namespace gmem
