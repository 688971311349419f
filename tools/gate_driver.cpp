//===- gate_driver.cpp - gmem-analyze as a CI gate ------------------------===//
#include "gate_driver.h"

#include "analyze_file.h"
#include "baseline.h"
#include "checks.h"
#include "compile_db.h"
#include "diagnostic_views.h"
#include "gate_config.h"
#include "launch_plan.h"
#include "rule.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

namespace gmem {

namespace {

/// What one translation unit gave.
struct FileRun {
  std::string File; ///< As displayed and keyed: relative to the cwd.
  Module M;
  Report Rep;
  std::string Error; ///< Non-empty: the file could not be analysed.
  std::vector<std::string> Notes; ///< E.g. kernels nothing launches.
};

int usage(const std::string &Message) {
  std::cerr << "gmem-analyze: error: " << Message << "\n";
  return 2;
}

/// Writes Path with Print; an error when it cannot.
llvm::Error writeFile(const std::string &Path,
                      const std::function<void(llvm::raw_ostream &)> &Print) {
  std::error_code EC;
  llvm::raw_fd_ostream Out(Path, EC);
  if (EC)
    return llvm::createStringError(Path + ": cannot write: " + EC.message());
  Print(Out);
  return llvm::Error::success();
}

/// Path relative to the current directory when it lies under it.
std::string displayPath(const std::string &File) {
  llvm::SmallString<256> Abs(File), Cwd;
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, true);
  llvm::sys::fs::current_path(Cwd);
  std::string A(Abs), C = std::string(Cwd) + "/";
  return A.rfind(C, 0) == 0 ? A.substr(C.size()) : A;
}

/// The --launches file: {"launches": [{"kernel", "grid", "block", "args",
/// "dynamic_smem", "file"}]}, for kernels no main() launches.
llvm::Expected<nlohmann::json> readLaunchFile(const std::string &Path) {
  std::ifstream In(Path);
  if (!In)
    return llvm::createStringError(
        Path + ": cannot read the launch file; check the path");
  nlohmann::json Out;
  try {
    Out = nlohmann::json::parse(In);
  } catch (const std::exception &E) {
    return llvm::createStringError(Path + ": not JSON (" + E.what() + ")");
  }
  if (!Out.contains("launches") || !Out["launches"].is_array())
    return llvm::createStringError(
        Path + ": expected {\"launches\": [{\"kernel\": ..., \"grid\": "
               "[...], \"block\": [...], \"args\": {...}}]}");
  for (const nlohmann::json &L : Out["launches"])
    if (!L.is_object() || !L.contains("kernel") || !L["kernel"].is_string() ||
        !L.contains("grid") || !L.contains("block"))
      return llvm::createStringError(Path +
                                     ": every launch needs \"kernel\", "
                                     "\"grid\" and \"block\" (entry " +
                                     L.dump() + ")");
  return Out;
}

std::optional<Dim3> dimOf(const nlohmann::json &J) {
  if (J.is_number_unsigned())
    return Dim3{J.get<uint64_t>(), 1, 1};
  if (!J.is_array() || J.empty() || J.size() > 3)
    return std::nullopt;
  uint64_t V[3] = {1, 1, 1};
  for (size_t I = 0; I < J.size(); ++I) {
    if (!J[I].is_number_unsigned())
      return std::nullopt;
    V[I] = J[I].get<uint64_t>();
  }
  return Dim3{V[0], V[1], V[2]};
}

/// The launches of one file: its host code's, plus the launch file's for
/// kernels the host code does not launch.
llvm::Expected<std::vector<Launch>> planFile(FileRun &F, const Options &O,
                                             const nlohmann::json &LaunchFile) {
  std::vector<Launch> Out = F.M.Launches;
  std::set<std::string> Launched;
  for (const Launch &L : Out)
    Launched.insert(L.Kernel);
  if (LaunchFile.contains("launches"))
    for (const nlohmann::json &E : LaunchFile["launches"]) {
      if (E.contains("file") &&
          displayPath(E["file"].get<std::string>()) != F.File)
        continue;
      // An entry naming another file's kernel is that file's.
      auto Named = findKernelByName(F.M, E["kernel"]);
      if (!Named) {
        llvm::consumeError(Named.takeError());
        continue;
      }
      const Kernel *K = *Named;
      if (Launched.count(K->Name))
        continue;
      Options KO = O;
      KO.Kernel = K->Name;
      KO.Overrides.Grid = dimOf(E["grid"]);
      KO.Overrides.Block = dimOf(E["block"]);
      if (!KO.Overrides.Grid || !KO.Overrides.Block)
        return llvm::createStringError(
            "launch file entry for " + K->Name +
            ": grid and block must be [X, Y, Z] with 1 to 3 numbers");
      KO.Overrides.DynamicSmem = E.value("dynamic_smem", uint64_t(0));
      KO.Overrides.Args.clear();
      nlohmann::json Args = E.value("args", nlohmann::json::object());
      for (const auto &[Name, V] : Args.items())
        KO.Overrides.Args[Name] =
            V.is_string() ? V.get<std::string>() : V.dump();
      auto One = planLaunches(F.M, KO);
      if (!One)
        return llvm::createStringError("launch file entry for " + K->Name +
                                       ": " + llvm::toString(One.takeError()));
      Out.insert(Out.end(), One->begin(), One->end());
      Launched.insert(K->Name);
    }
  // --kernel, --launch-skip and --launch-count, as Nsight Compute reads
  // them.
  std::vector<const Kernel *> Selected;
  if (!O.Kernel.empty()) {
    auto S = selectKernels(F.M, O.Kernel);
    if (!S)
      return S.takeError();
    Selected = std::move(*S);
  }
  if (llvm::Error E = chooseLaunches(F.M, O, Selected, Out))
    return std::move(E);
  if (!O.Kernel.empty()) {
    if (Out.empty()) // Not launched: --grid, --block and --arg say how.
      return planLaunches(F.M, O);
    return Out;
  }
  for (const Kernel &K : F.M.Kernels)
    if (!Launched.count(K.Name))
      F.Notes.push_back(F.File + ": " + K.Name +
                        " is not launched by this file's main() nor named in "
                        "--launches; it is not checked");
  return Out;
}

/// The per-file analysis the gate's loop calls for each translation unit;
/// an error when the file cannot be analysed.
llvm::Error analyzeOneFile(FileRun &F, const std::string &Given,
                           const Options &O, const GateOptions &G,
                           const ArchRules &Arch,
                           const nlohmann::json &LaunchFile) {
  Options FO = O;
  FO.File = F.File;
  std::vector<std::string> Db;
  if (!G.BuildPath.empty()) {
    auto Args = argumentsFromDatabase(G.BuildPath, Given);
    if (!Args)
      return Args.takeError();
    Db = std::move(*Args);
  }
  // CommonOptionsParser's order: --extra-arg-before, the database's
  // arguments, --extra-arg, then what follows "--".
  FO.ClangArgs = G.ExtraArgsBefore;
  FO.ClangArgs.insert(FO.ClangArgs.end(), Db.begin(), Db.end());
  FO.ClangArgs.insert(FO.ClangArgs.end(), G.ExtraArgs.begin(),
                      G.ExtraArgs.end());
  FO.ClangArgs.insert(FO.ClangArgs.end(), O.ClangArgs.begin(),
                      O.ClangArgs.end());
  std::vector<std::string> Warnings;
  if (!std::ifstream(F.File))
    return llvm::createStringError(F.File +
                                   ": cannot read the file; check the path");
  if (llvm::Error E = loadModule(FO, F.File, Arch, F.M, Warnings))
    return E;
  if (!F.M.Compiler.HostStopped.empty())
    return llvm::createStringError(F.File + ": " + F.M.Compiler.HostStopped);
  // A recorded run that ended early explains kernels left unlaunched (a
  // program that wants arguments exits at once): said as a note too.
  for (const std::string &W : Warnings)
    if (llvm::StringRef(W).starts_with("the program "))
      F.Notes.push_back(F.File + ": " + W);
  auto Launches = planFile(F, FO, LaunchFile);
  if (!Launches)
    return Launches.takeError();
  F.Rep.File = F.File;
  F.Rep.Warnings = Warnings;
  return simulateLaunches(F.M, *Launches, FO, Arch, F.Rep);
}

std::string diagKey(const Diagnostic &D) {
  return D.Rule + "|" + D.Loc.File + ":" + std::to_string(D.Loc.Line) + ":" +
         std::to_string(D.Loc.Col) + "|" + D.Message;
}

} // namespace

bool isGateRun(const Options &O, const GateOptions &G) {
  // Several files with no gate flag are the files of one program
  // (program.h); with one, each is checked on its own.
  return G.Any || O.Format == "diagnostics" || O.Format == "sarif";
}

int listChecks(const GateOptions &G, std::ostream &OS) {
  // The rules enabled here, as clang-tidy's --list-checks: the .gmem file of
  // the current folder or above, then --checks.
  GateConfigs Configs(G);
  auto C = Configs.forFile("-");
  if (!C)
    return usage(llvm::toString(C.takeError()));
  GlobList Enabled(C->Checks);
  for (const auto *List : {&allRules(), &baselineRules()})
    for (const RuleInfo *R : *List)
      if (Enabled.contains(R->Id))
        OS << R->Id << " (" << severityName(R->Default) << ")\n  " << R->Short
           << "\n  " << R->Full << "\n  Fires: " << R->Threshold << "\n";
  return 0;
}

int dumpConfig(const Options &O, const GateOptions &G, std::ostream &OS) {
  GateConfigs Configs(G);
  // As clang-tidy: the file's folder, or the current one without a file.
  auto Cfg = Configs.forFile(O.Files.empty() ? "./-" : O.Files.front());
  if (!Cfg)
    return usage(llvm::toString(Cfg.takeError()));
  OS << dumpGateConfig(*Cfg);
  return 0;
}

int runGate(const Options &O, const GateOptions &G) {
  // Bad input exits 2, and still writes the SARIF asked for, the errors as
  // the invocation's notifications: a CI upload step finds its file.
  auto Usage = [&](const std::vector<std::string> &Errors) {
    for (const std::string &E : Errors)
      usage(E);
    if (!G.SarifFile.empty())
      if (llvm::Error E = writeFile(G.SarifFile, [&](llvm::raw_ostream &OS) {
            printSarif({}, OS, Errors);
          }))
        usage(llvm::toString(std::move(E)));
    if (O.Format == "sarif")
      printSarif({}, llvm::outs(), Errors);
    return 2;
  };
  const ArchRules *Arch = findArch(O.Arch);
  if (!Arch)
    return Usage({"unknown --arch '" + O.Arch + "'"});
  std::string Format = O.Format == "text" ? "diagnostics" : O.Format;
  if (Format != "diagnostics" && Format != "json" && Format != "sarif")
    return Usage({"unknown --format '" + O.Format +
                  "' for the gate; use diagnostics, json or sarif"});
  if (O.EmitModel || !O.Compare.empty())
    return Usage(
        {"--emit-model and --compare take one file and no gate flags"});
  if (!O.Kernel.empty() && O.Files.size() > 1)
    return Usage({"--kernel names a kernel of one file; give one file"});
  for (const std::string &C : {G.Checks, G.FailOn})
    for (size_t P = 0; P < C.size();) {
      size_t E = std::min(C.find(',', P), C.size());
      std::string Glob = C.substr(P, E - P);
      P = E + 1;
      while (!Glob.empty() && (Glob[0] == '-' || Glob[0] == ' '))
        Glob.erase(0, 1);
      bool Any = Glob.empty();
      for (const auto *List : {&allRules(), &baselineRules()})
        for (const RuleInfo *R : *List)
          Any |= globMatch(Glob, R->Id);
      if (!Any)
        return Usage({"'" + Glob +
                      "' in --checks/--fail-on matches no rule; "
                      "see --list-checks"});
    }
  // A mistake in a .gmem file is reported before anything is built.
  {
    GateConfigs Early(G);
    std::vector<std::string> Bad;
    for (const std::string &F : O.Files)
      if (auto Cfg = Early.forFile(displayPath(F)); !Cfg)
        Bad.push_back(llvm::toString(Cfg.takeError()));
    if (!Bad.empty())
      return Usage(Bad);
  }
  nlohmann::json LaunchFile = nlohmann::json::object();
  if (!G.LaunchFile.empty()) {
    auto Read = readLaunchFile(G.LaunchFile);
    if (!Read)
      return Usage({llvm::toString(Read.takeError())});
    LaunchFile = std::move(*Read);
  }
  nlohmann::json Old;
  if (!G.Baseline.empty() && !G.UpdateBaseline) {
    std::ifstream In(G.Baseline);
    if (!In)
      return Usage({G.Baseline + ": cannot read the baseline; write one with "
                                 "--update-baseline"});
    try {
      Old = nlohmann::json::parse(In);
    } catch (const std::exception &E) {
      return Usage({G.Baseline + ": not JSON (" + E.what() + ")"});
    }
    if (Expected<void> Valid = checkBaseline(Old); !Valid)
      return Usage({G.Baseline + ": " + Valid.error()});
  }

  // The loop over translation units, -j at a time.
  std::vector<std::unique_ptr<FileRun>> Runs;
  for (const std::string &F : O.Files) {
    Runs.push_back(std::make_unique<FileRun>());
    Runs.back()->File = displayPath(F);
  }
  unsigned Jobs =
      G.Jobs ? G.Jobs : std::max(1u, std::thread::hardware_concurrency());
  Jobs = std::min<unsigned>(Jobs, Runs.size());
  Options SimO = O;
  SimO.Quiet = G.Quiet;
  if (!SimO.Threads) // Share the cores between the files in flight.
    SimO.Threads = std::max(1u, std::thread::hardware_concurrency() / Jobs);
  {
    // -j files at a time; each simulation shares the cores left.
    llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Jobs));
    for (size_t I = 0; I < Runs.size(); ++I)
      Pool.async([&, I] {
        if (llvm::Error E = analyzeOneFile(*Runs[I], O.Files[I], SimO, G, *Arch,
                                           LaunchFile))
          Runs[I]->Error = llvm::toString(std::move(E));
      });
    Pool.wait();
  }

  std::vector<std::string> InputErrors;
  for (const auto &R : Runs) {
    if (!R->Error.empty())
      InputErrors.push_back(R->Error);
    for (const std::string &N : R->Notes)
      if (!G.Quiet)
        std::cerr << "gmem-analyze: warning: " << N << "\n";
  }
  if (!InputErrors.empty())
    return Usage(InputErrors);

  // Rules over every launch, then each file's checks (its .gmem file and
  // the command line), NOLINT and --fail-on.
  std::vector<Diagnostic> All;
  std::set<std::string> Seen;
  NolintFilter Nolint;
  GateConfigs Configs(G);
  GlobList FailOn(G.FailOn); // Baseline findings follow the command line.
  std::set<std::string> Suppressed; // By NOLINT, each finding once.
  auto Add = [&](Diagnostic D, const GlobList &Fail) {
    if (Nolint.suppressed(D)) {
      Suppressed.insert(diagKey(D));
      return;
    }
    if (!Seen.insert(diagKey(D)).second)
      return;
    if (D.Level == Severity::Warning && Fail.contains(D.Rule))
      D.Level = Severity::Error;
    All.push_back(std::move(D));
  };
  std::vector<FileResults> ForBaseline;
  std::vector<std::string> ConfigErrors;
  for (const auto &R : Runs) {
    ForBaseline.push_back({R->File, &R->Rep.Launches, &R->Rep.Compiler});
    auto Cfg = Configs.forFile(R->File);
    if (!Cfg) {
      ConfigErrors.push_back(llvm::toString(Cfg.takeError()));
      continue;
    }
    GlobList Enabled(Cfg->Checks), Fail(Cfg->FailOn);
    std::vector<const RuleInfo *> Active;
    for (const RuleInfo *Rule : allRules())
      if (Enabled.contains(Rule->Id))
        Active.push_back(Rule);
    RulePolicy Policy;
    Policy.MinEfficiencyPct = Cfg->MinEfficiencyPct;
    Policy.MaxConflictWays = Cfg->MaxConflictWays;
    for (const LaunchResult &L : R->Rep.Launches) {
      RuleContext C{*L.K, L, *Arch, Policy, SimO.Threads};
      for (Diagnostic &D : runRules(C, Active))
        Add(std::move(D), Fail);
    }
  }
  if (!ConfigErrors.empty())
    return Usage(ConfigErrors);
  nlohmann::json Current = buildBaseline(ForBaseline);
  if (G.UpdateBaseline) {
    // Entries and toolchains of files not analysed this time are kept.
    std::ifstream Prev(G.Baseline);
    nlohmann::json Old = nlohmann::json::parse(Prev, nullptr, false);
    if (Prev && checkBaseline(Old)) {
      std::set<std::string> Now;
      for (const auto &R : Runs)
        Now.insert(R->File);
      for (const auto &[Key, E] : Old["entries"].items())
        if (!Now.count(Key.substr(0, Key.find('|'))))
          Current["entries"][Key] = E;
      if (Old.contains("toolchains"))
        for (const auto &[File, T] : Old["toolchains"].items())
          if (!Now.count(File))
            Current["toolchains"][File] = T;
    }
    Prev.close();
    std::ofstream Out(G.Baseline);
    Out << Current.dump(2) << "\n";
    if (!Out)
      return Usage({G.Baseline + ": cannot write the baseline"});
    std::cerr << "gmem-analyze: wrote " << Current["entries"].size()
              << " entries to " << G.Baseline << "\n";
  } else if (!G.Baseline.empty()) {
    for (Diagnostic &D : diffBaseline(Old, Current, G.TolerancePct))
      Add(std::move(D), FailOn);
  }

  // In source order, as a compiler prints them.
  std::stable_sort(All.begin(), All.end(),
                   [](const Diagnostic &A, const Diagnostic &B) {
                     return std::tie(A.Loc.File, A.Loc.Line, A.Loc.Col) <
                            std::tie(B.Loc.File, B.Loc.Line, B.Loc.Col);
                   });
  if (Format == "diagnostics") {
    bool Color = G.Color.value_or(llvm::outs().has_colors());
    printClangDiagnostics(All, llvm::outs(), Color, !G.Quiet);
  } else if (Format == "sarif") {
    printSarif(All, llvm::outs());
  } else {
    nlohmann::json J = {{"files", nlohmann::json::array()},
                        {"findings", diagnosticsJson(All)}};
    for (const auto &R : Runs) {
      std::ostringstream S;
      printJsonView(R->Rep, S);
      J["files"].push_back(nlohmann::json::parse(S.str()));
    }
    std::cout << J.dump(2) << "\n";
  }
  if (!G.ExportFixes.empty())
    if (llvm::Error E = writeFile(G.ExportFixes, [&](llvm::raw_ostream &OS) {
          printExportFixes(All, OS);
        }))
      return usage(llvm::toString(std::move(E)));
  if (!G.SarifFile.empty())
    if (llvm::Error E = writeFile(
            G.SarifFile, [&](llvm::raw_ostream &OS) { printSarif(All, OS); }))
      return usage(llvm::toString(std::move(E)));
  if (G.Fix) {
    unsigned Applied = 0, Offered = 0;
    if (llvm::Error E = applyFixes(All, Applied, Offered))
      return usage(llvm::toString(std::move(E)));
    std::cerr << "gmem-analyze: applied " << Applied << " of " << Offered
              << " checked fix(es)\n";
  }
  unsigned Errors = 0, Warnings = 0;
  for (const Diagnostic &D : All)
    (D.Level == Severity::Error ? Errors : Warnings) +=
        D.Level != Severity::Remark;
  if (!G.Quiet) {
    std::cerr << "gmem-analyze: " << Runs.size() << " file(s), " << Errors
              << " error(s), " << Warnings << " warning(s)\n";
    if (!Suppressed.empty()) // clang-tidy's words.
      std::cerr << "Suppressed " << Suppressed.size() << " warnings ("
                << Suppressed.size() << " NOLINT).\n";
  }
  return Errors ? 1 : 0;
}

} // namespace gmem
