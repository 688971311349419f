//===- gate_options.cpp - The CI gate's command-line flags ----------------===//
#include "gate_options.h"

#include <cstdlib>

namespace gmem {

const char *GateUsageText = R"(
The CI gate (any of these flags, several files, or --format diagnostics|sarif):
  --format diagnostics  clang-style findings (the gate's default), with
                        carets; json; sarif (SARIF 2.1.0)
  --checks=GLOBS        which rules run, clang-tidy globs (default '*'):
                        --checks=-*,gmem-bank-conflict
  --list-checks         every rule, its meaning and default threshold
  --fail-on=GLOBS       findings of these rules are errors (exit 1); also
                        spelled --warnings-as-errors=GLOBS
  --min-efficiency PCT  a global access below PCT% efficiency is an error
  --max-conflict-ways N a bank conflict of more than N ways is an error
  --baseline FILE       compare with a recorded baseline: exit 1 when a
                        figure got worse beyond --tolerance
  --update-baseline     write the current figures to the --baseline FILE
  --tolerance PCT       relative change that counts (default 0)
  --launches FILE       JSON naming kernels, grids, blocks and argument
                        values for kernels no main() launches
  -p BUILD_DIR          read compile_commands.json there (nvcc flags are
                        translated or dropped); with no file named, analyse
                        every .cu file it compiles
  --extra-arg=ARG       append ARG to each file's compiler arguments
  --extra-arg-before=ARG  prepend ARG to them
  -j N                  files analysed in parallel (default: one per core)
  --sarif FILE          also write SARIF to FILE
  --export-fixes FILE   write the findings and their checked fixes as
                        clang-tidy does (YAML for clang-apply-replacements)
  -fno-color-diagnostics, -fcolor-diagnostics
  --quiet               no summary line and no notes on stderr
A .gmem file (YAML: Checks, WarningsAsErrors, MinEfficiency,
MaxConflictWays) in a file's folder or above sets its defaults, as
.clang-tidy does; --checks and --fail-on are appended to its lists.
A '// NOLINT(gmem-rule)' comment on a finding's line suppresses it
('// NOLINTNEXTLINE(...)' on the line before, '// NOLINTBEGIN(...)' and
'// NOLINTEND(...)' around lines). Gate exit codes: 0 clean,
1 an error-level finding or a regression, 2 bad usage, input or I/O.
)";

static bool number(const std::string &S, double &V) {
  char *End = nullptr;
  V = std::strtod(S.c_str(), &End);
  return !S.empty() && End && *End == 0 && V >= 0;
}

bool extractGateOptions(std::vector<std::string> &Args, GateOptions &G,
                        std::string &Error) {
  std::vector<std::string> Rest;
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &A = Args[I];
    if (A == "--") { // Clang's arguments: not ours.
      Rest.insert(Rest.end(), Args.begin() + I, Args.end());
      break;
    }
    // "--flag=value" or "--flag value" for the flags in Valued.
    std::string Name = A, Value;
    bool HasValue = false;
    if (size_t Eq = A.find('=');
        A.rfind("--", 0) == 0 && Eq != std::string::npos) {
      Name = A.substr(0, Eq);
      Value = A.substr(Eq + 1);
      HasValue = true;
    }
    static const char *Valued[] = {"--checks",
                                   "--fail-on",
                                   "--warnings-as-errors",
                                   "--min-efficiency",
                                   "--max-conflict-ways",
                                   "--baseline",
                                   "--tolerance",
                                   "-p",
                                   "-j",
                                   "--extra-arg",
                                   "--extra-arg-before",
                                   "--sarif",
                                   "--export-fixes",
                                   "--launches"};
    bool Takes = false;
    for (const char *V : Valued)
      Takes |= Name == V;
    if (!Takes && (A.rfind("-p", 0) == 0 || A.rfind("-j", 0) == 0) &&
        A.size() > 2 && A[1] != '-') {
      Name = A.substr(0, 2); // -pBUILD, -j4
      Value = A.substr(2);
      HasValue = Takes = true;
    }
    if (Takes && !HasValue) {
      if (I + 1 >= Args.size()) {
        Error = Name + " needs a value";
        return false;
      }
      Value = Args[++I];
    }
    if (!Takes) {
      if (A == "--update-baseline")
        G.UpdateBaseline = true;
      else if (A == "--list-checks")
        G.ListChecks = true;
      else if (A == "-fno-color-diagnostics")
        G.Color = false;
      else if (A == "-fcolor-diagnostics")
        G.Color = true;
      else if (A == "--quiet")
        G.Quiet = true;
      else {
        Rest.push_back(A);
        continue;
      }
      G.Any = true;
      continue;
    }
    G.Any = true;
    double D = 0;
    if (Name == "--checks") {
      G.Checks = Value;
    } else if (Name == "--fail-on" || Name == "--warnings-as-errors") {
      G.FailOn += (G.FailOn.empty() ? "" : ",") + Value;
    } else if (Name == "--min-efficiency") {
      if (!number(Value, D) || D > 100) {
        Error = "--min-efficiency '" + Value + "': expected a percentage";
        return false;
      }
      G.MinEfficiencyPct = D;
    } else if (Name == "--max-conflict-ways") {
      if (!number(Value, D) || D < 1 || D != uint64_t(D)) {
        Error = "--max-conflict-ways '" + Value +
                "': expected a whole "
                "number of ways, 1 or more";
        return false;
      }
      G.MaxConflictWays = uint64_t(D);
    } else if (Name == "--tolerance") {
      if (!number(Value, D)) {
        Error = "--tolerance '" + Value + "': expected a percentage";
        return false;
      }
      G.TolerancePct = D;
    } else if (Name == "-j") {
      if (!number(Value, D) || D < 1 || D > 256 || D != unsigned(D)) {
        Error = "-j '" + Value + "': expected a number from 1 to 256";
        return false;
      }
      G.Jobs = unsigned(D);
    } else if (Name == "--baseline") {
      G.Baseline = Value;
    } else if (Name == "-p") {
      G.BuildPath = Value;
    } else if (Name == "--extra-arg") {
      G.ExtraArgs.push_back(Value);
    } else if (Name == "--extra-arg-before") {
      G.ExtraArgsBefore.push_back(Value);
    } else if (Name == "--export-fixes") {
      G.ExportFixes = Value;
    } else if (Name == "--sarif") {
      G.SarifFile = Value;
    } else if (Name == "--launches") {
      G.LaunchFile = Value;
    }
  }
  if (G.UpdateBaseline && G.Baseline.empty()) {
    Error = "--update-baseline needs --baseline FILE to write";
    return false;
  }
  Args = std::move(Rest);
  return true;
}

} // namespace gmem
