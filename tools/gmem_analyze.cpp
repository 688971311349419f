//===- gmem_analyze.cpp - The gmem-analyze command ------------------------===//
//
// source -> (Clang) kernel model + host launches -> simulator -> a view.
// User mistakes get one line on stderr and exit code 2.
//
//===----------------------------------------------------------------------===//
#include "analyze_file.h"
#include "arch.h"
#include "command_line.h"
#include "compile_db.h"
#include "gate_driver.h"
#include "install_paths.h"
#include "launch_plan.h"
#include "model_json.h"
#include "record/runtime/boards.h"
#include "rule.h"
#include "run_comparison.h"
#include "views.h"

#include "llvm/Support/Path.h"
#include <fstream>
#include <iostream>
#include <set>

using namespace gmem;

namespace {

int fail(const std::string &Message) {
  std::cerr << "gmem-analyze: error: " << Message << "\n";
  return 2;
}

/// Every rule's findings for each launch, as the gate's default ('*')
/// finds them: every view offers the fixes they checked.
std::vector<std::vector<Diagnostic>>
findingsOf(const Report &Rep, const ArchRules &Arch, unsigned Threads) {
  std::vector<std::vector<Diagnostic>> All;
  const RulePolicy Policy;
  for (const LaunchResult &L : Rep.Launches) {
    RuleContext C{*L.K, L, Arch, Policy, Threads};
    All.push_back(L.Incomplete.empty() ? runRules(C, allRules())
                                       : std::vector<Diagnostic>{});
  }
  return All;
}

/// The kernels of the files given that the program never launches, when
/// all of its launches were asked for (no --kernel, no --launch-count).
std::vector<std::pair<std::string, SourceLoc>>
kernelsNotLaunched(const Module &M, const Options &O) {
  std::vector<std::pair<std::string, SourceLoc>> Out;
  if (!O.Kernel.empty() || O.LaunchCount || !O.Model.empty())
    return Out;
  std::set<std::string> Launched, Files;
  for (const Launch &L : M.Launches)
    Launched.insert(L.Kernel);
  for (const std::string &F : O.Files)
    Files.insert(llvm::sys::path::filename(F).str());
  for (const Kernel &K : M.Kernels)
    if (!Launched.count(K.Name) &&
        Files.count(llvm::sys::path::filename(K.Loc.File).str()))
      Out.push_back({K.Name, K.Loc});
  return Out;
}

int run(const Options &O) {
  const ArchRules *Arch = findArch(O.Arch);
  if (!Arch) {
    std::string Names;
    for (const std::string &N : archNames())
      Names += " " + N;
    return fail("unknown --arch '" + O.Arch + "'; one of:" + Names);
  }
  ViewFn View = findView(O.Format);
  if (!View)
    return fail("unknown --format '" + O.Format +
                "'; use text, json, html or svg");
  // A measurement that cannot be compared is said before the build.
  if (!O.Compare.empty()) {
    if (O.Format != "text" && O.Format != "json")
      return fail("unknown --format '" + O.Format +
                  "' for --compare; use text or json");
    if (ImportResult Read = readComparedMeasurement(O.Compare); !Read)
      return fail(Read.error());
  }
  Module M;
  std::vector<std::string> HostWarnings;
  if (!O.Model.empty()) {
    // A model written by --emit-model: no Clang, launches as recorded.
    Expected<Module> Read = readModelFile(O.Model);
    if (!Read)
      return fail(Read.error());
    M = std::move(*Read);
    // Messages name the model the launches were read from.
    M.File = O.Model;
    applyOverrides(M, O.Overrides);
  } else {
    for (const std::string &F : O.Files)
      if (!std::ifstream(F))
        return fail(F + ": cannot read the file; check the path");
    if (llvm::Error E = loadModule(O, O.Files, *Arch, M, HostWarnings))
      return fail(llvm::toString(std::move(E)));
  }
  // A recorded program that crashed or hung: with no launch, that is all
  // there is to say; otherwise its launches are reported, then the error.
  const std::string &Stopped = M.Compiler.HostStopped;
  if (!Stopped.empty() && M.Launches.empty())
    return fail(Stopped);
  if (O.EmitModel) {
    std::cout << toJson(M).dump(2) << "\n";
    return 0;
  }

  if (!O.Compare.empty()) {
    // The measured launches decide what is simulated (run_comparison.cpp).
    ComparisonOptions CO;
    CO.Arch = O.Arch;
    CO.Threads = O.Threads;
    CO.Strict = O.Strict;
    CO.Format = O.Format;
    // DRAM bytes and duration are predicted for the board measured, where
    // gmem knows it and --gpu does not name one.
    Options PO = O;
    if (PO.Gpu.empty())
      if (ImportResult Ms = readComparedMeasurement(O.Compare))
        if (const rec::Board *B = rec::findBoardByProduct(Ms->Device))
          PO.Gpu = B->Name;
    Predictor P(M, PO);
    CO.Predict = [&P](const Kernel &K, const Launch &L, const ArchRules &A) {
      return P.predict(K, L, A);
    };
    int Code = runComparison(M, O.Compare, CO, std::cout, std::cerr);
    return Stopped.empty() ? Code : fail(Stopped);
  }

  // What the host code did not follow may be why no launch was found.
  auto FailWithNotes = [&](llvm::Error E) {
    int Code = fail(llvm::toString(std::move(E)));
    for (const std::string &W : HostWarnings)
      std::cerr << "gmem-analyze: note: " << W << "\n";
    return Code;
  };
  auto Launches = planLaunches(M, O);
  if (!Launches)
    return FailWithNotes(Launches.takeError());
  Report Rep;
  Rep.File = M.File;
  Rep.Warnings = HostWarnings;
  for (const std::string &W : unusedArgWarnings(M, *Launches, O.Overrides))
    Rep.Warnings.push_back(W);
  if (Launches->empty())
    Rep.Warnings.push_back(
        "the program ran to its end (exit status " +
        std::to_string(M.Compiler.ProgramExit) +
        ") and launched no kernel; its kernels are a library's (" +
        std::to_string(M.Kernels.size()) +
        "): nothing to analyze. Pass --kernel NAME --grid X --block X to "
        "analyze one as if launched");
  if (llvm::Error E = simulateLaunches(M, *Launches, O, *Arch, Rep))
    return FailWithNotes(std::move(E));
  Rep.NotLaunched = kernelsNotLaunched(M, O);

  // Every view offers the remedies the rules checked (views.h: adviceFor).
  Rep.Findings = findingsOf(Rep, *Arch, O.Threads);
  Rep.AccessLine = O.AccessLine;
  const LaunchResult *In = nullptr;
  if (O.AccessLine && !pictureAccess(Rep, In))
    return fail("no access on line " + std::to_string(O.AccessLine) +
                " of the analysed launches has a known cost to draw; the "
                "text view lists each access's line");
  View(Rep, std::cout);
  if (!Stopped.empty())
    return fail(Stopped);
  // Asked to run the PTX, a launch it could not run is an error (its
  // warning names the instruction), after the rest of the report.
  for (const LaunchResult &R : Rep.Launches)
    if (O.Path == "executed" && R.Path == "executed" && !R.Incomplete.empty())
      return fail(R.K ? R.K->Name + ": " + R.Incomplete : R.Incomplete);
  for (const LaunchResult &R : Rep.Launches)
    if (!R.Diagnostics.empty())
      return 1;
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  Options O;
  GateOptions G;
  // What the counts depend on besides the input: this release, the Clang
  // that parses, and the CUDA major the recording runtime was built for.
  auto PrintVersion = [](llvm::raw_ostream &OS) {
    OS << "gmem-analyze " GMEM_VERSION " (Clang " GMEM_LLVM_VERSION
          ", recording runtime for CUDA "
       << GMEM_RECORD_CUDA_MAJOR << ")\n"
       << "  headers: " << cudaStubDir() << "\n"
       << "  recording runtime: "
       << (recordRuntimeDir().empty() ? "none" : recordRuntimeDir()) << "\n";
  };
  if (llvm::Error E = parseCommandLine(Argc, Argv, O, G, PrintVersion))
    return fail(llvm::toString(std::move(E)));
  if (G.ListChecks)
    return listChecks(G, std::cout);
  if (G.DumpConfig)
    return dumpConfig(O, G, std::cout);
  // -p alone: every CUDA file the database compiles, as clang-tidy does.
  if (!G.BuildPath.empty() && O.Files.empty() && O.Model.empty()) {
    auto Files = cudaFilesOfDatabase(G.BuildPath);
    if (!Files)
      return fail(llvm::toString(Files.takeError()));
    O.Files = std::move(*Files);
    O.File = O.Files.front();
  }
  try {
    if (isGateRun(O, G))
      return runGate(O, G);
    return run(O);
  } catch (const std::exception &E) {
    // Never crash on bad input; internal errors still exit with a message.
    std::cerr << "gmem-analyze: internal error: " << E.what() << "\n";
    return 3;
  }
}
