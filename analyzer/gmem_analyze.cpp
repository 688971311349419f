//===- gmem_analyze.cpp - The gmem-analyze command ------------------------===//
//
// source -> (Clang) kernel model + host launches -> simulator -> a view.
// User mistakes get one line on stderr and exit code 2.
//
//===----------------------------------------------------------------------===//
#include "arch.h"
#include "compare.h"
#include "frontend.h"
#include "host_launches.h"
#include "launch_plan.h"
#include "model_json.h"
#include "options.h"
#include "simulate.h"
#include "translate.h"
#include "views/views.h"

#include <fstream>
#include <iostream>
#include <map>
#include <set>

using namespace gmem;

namespace {

int fail(const std::string &Message) {
  std::cerr << "gmem-analyze: error: " << Message << "\n";
  return 2;
}

std::string where(const Launch &L, const std::string &File) {
  if (File.empty())
    return "";
  if (!L.Loc.Line)
    return File + ": ";
  return L.Loc.File + ":" + std::to_string(L.Loc.Line) + ": ";
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
    return fail("unknown --format '" + O.Format + "'; use text or json");
  Module M;
  HostLaunches Host;
  if (!O.Model.empty()) {
    // A model written by --emit-model: no Clang, launches as recorded.
    std::string Error;
    if (!readModelFile(O.Model, M, Error))
      return fail(Error);
    if (M.File.empty())
      M.File = O.Model;
    applyOverrides(M, O.Overrides);
  } else {
    if (!std::ifstream(O.File))
      return fail(O.File + ": cannot read the file; check the path");
    FrontendOptions FO;
    FO.CudaPath = O.CudaPath;
    FO.Arch = Arch->Name;
    FO.ExtraArgs = O.ClangArgs;
    auto AST = parseCudaFile(O.File, FO);
    if (!AST)
      return fail(llvm::toString(AST.takeError()));

    clang::ASTContext &Ctx = (*AST)->getASTContext();
    M.File = O.File;
    M.Kernels = translateKernels(Ctx);
    Host = findHostLaunches(Ctx, M.Kernels, O.Overrides);
    M.Launches = std::move(Host.Launches);
  }
  if (O.EmitModel) {
    std::cout << toJson(M).dump(2) << "\n";
    return 0;
  }

  if (!O.Compare.empty()) {
    // The measured launches decide what is simulated (gpu/compare).
    ComparisonOptions CO;
    CO.Arch = O.Arch;
    CO.Threads = O.Threads;
    CO.Strict = O.Strict;
    CO.Format = O.Format;
    return runComparison(M, O.Compare, CO, std::cout, std::cerr);
  }

  std::vector<Launch> Launches;
  std::string Error;
  if (!planLaunches(M, O, Launches, Error))
    return fail(Error);

  Report Rep;
  Rep.File = M.File;
  Rep.Warnings = Host.Warnings;
  std::set<std::string> Warned;
  SimOptions SO;
  SO.Arch = Arch;
  SO.Threads = O.Threads;
  for (const Launch &L : Launches) {
    const Kernel *K = M.findKernel(L.Kernel);
    if (!K)
      return fail(where(L, O.Model.empty() ? O.File : O.Model) + "launch of '" +
                  L.Kernel + "', a kernel the analyzer could not read");
    if (auto Why = validateLaunch(*K, L, *Arch))
      return fail(where(L, O.Model.empty() ? O.File : O.Model) + *Why);
    if (Warned.insert(K->Name).second)
      for (const std::string &W : K->Warnings)
        Rep.Warnings.push_back(W);
  }
  // A launch repeated with the same configuration and arguments (a timing
  // loop, say) has the same result: simulate it once.
  std::map<std::string, size_t> Done;
  for (const Launch &L : Launches) {
    nlohmann::json Key = toJson(L);
    Key.erase("loc");
    auto [It, New] = Done.emplace(Key.dump(), Rep.Launches.size());
    if (New) {
      Rep.Launches.push_back(simulate(*M.findKernel(L.Kernel), L, SO));
    } else {
      LaunchResult Copy = Rep.Launches[It->second];
      Copy.L = L;
      Rep.Launches.push_back(std::move(Copy));
    }
  }

  View(Rep, std::cout);
  for (const LaunchResult &R : Rep.Launches)
    if (!R.Diagnostics.empty())
      return 1;
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  std::vector<std::string> Args(Argv + 1, Argv + Argc);
  std::string Error;
  auto O = parseOptions(Args, Error);
  if (!O)
    return fail(Error);
  if (O->Help) {
    std::cout << UsageText;
    return 0;
  }
  try {
    return run(*O);
  } catch (const std::exception &E) {
    // Never crash on bad input; internal errors still exit with a message.
    std::cerr << "gmem-analyze: internal error: " << E.what() << "\n";
    return 3;
  }
}
