//===- launch_plan.cpp - Which launches to simulate -----------------------===//
#include "launch_plan.h"
#include "host_launches.h"

#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

#include <algorithm>

namespace gmem {

static std::string baseName(const std::string &N) {
  return N.substr(0, N.find('<'));
}

static std::string kernelList(const Module &M) {
  std::string L;
  for (const Kernel &K : M.Kernels)
    L += (L.empty() ? "" : ", ") + K.Name;
  return L.empty() ? "none" : L;
}

llvm::Expected<const Kernel *> findKernelByName(const Module &M,
                                                const std::string &Name) {
  if (const Kernel *K = M.findKernel(Name))
    return K;
  const Kernel *Found = nullptr;
  unsigned Count = 0;
  for (const Kernel &K : M.Kernels)
    if (baseName(K.Name) == Name) {
      Found = &K;
      ++Count;
    }
  if (Count == 1)
    return Found;
  if (Count > 1)
    return llvm::createStringError(
        "'" + Name +
        "' names several template instances; pick one of: " + kernelList(M));
  return llvm::createStringError("no kernel named '" + Name + "' in " + M.File +
                                 "; kernels: " + kernelList(M));
}

static Launch launchFromFlags(const Kernel &K, const Options &O) {
  Launch L;
  L.Kernel = K.Name;
  for (const Param &P : K.Params) {
    ArgValue A;
    if (P.Kind == ParamKind::Pointer) {
      A.Kind = ArgValue::Pointer;
      A.Allocation = P.Name;
    } else {
      A.Reason = "the host code does not launch " + K.Name;
    }
    L.Args.push_back(A);
  }
  // --grid and --block (both given, planLaunches checked), --dynamic-smem
  // and --arg, read as for every other launch.
  applyOverrides(L, K.Params, O.Overrides);
  return L;
}

void applyOverrides(Module &M, const LaunchOverrides &O) {
  for (Launch &L : M.Launches) {
    const Kernel *K = M.findKernel(L.Kernel);
    applyOverrides(L, K ? K->Params : std::vector<Param>(), O);
  }
}

llvm::Expected<std::vector<const Kernel *>>
selectKernels(const Module &M, const std::string &Spec) {
  if (Spec.rfind("regex:", 0) != 0) {
    llvm::Expected<const Kernel *> K = findKernelByName(M, Spec);
    if (!K)
      return K.takeError();
    return std::vector<const Kernel *>{*K};
  }
  llvm::Regex R(Spec.substr(6));
  std::string Why;
  if (!R.isValid(Why))
    return llvm::createStringError("--kernel '" + Spec +
                                   "': not a regular expression (" + Why + ")");
  std::vector<const Kernel *> Selected;
  for (const Kernel &K : M.Kernels)
    if (R.match(K.Name) || R.match(baseName(K.Name)))
      Selected.push_back(&K);
  if (Selected.empty())
    return llvm::createStringError("--kernel '" + Spec +
                                   "' matches no kernel of " + M.File +
                                   "; kernels: " + kernelList(M));
  return Selected;
}

llvm::Error chooseLaunches(const Module &M, const Options &O,
                           const std::vector<const Kernel *> &Selected,
                           std::vector<Launch> &Ls) {
  std::vector<Launch> Kept;
  for (Launch &L : Ls) {
    const Kernel *K = M.findKernel(L.Kernel);
    if (Selected.empty() ||
        std::find(Selected.begin(), Selected.end(), K) != Selected.end())
      Kept.push_back(std::move(L));
  }
  Ls = std::move(Kept);
  if (Ls.empty())
    return llvm::Error::success();
  const size_t Had = Ls.size();
  Ls.erase(Ls.begin(), Ls.begin() + std::min<size_t>(O.LaunchSkip, Had));
  if (O.LaunchCount && Ls.size() > O.LaunchCount)
    Ls.resize(O.LaunchCount);
  if (Ls.empty())
    return llvm::createStringError(
        "--launch-skip " + std::to_string(O.LaunchSkip) +
        " leaves none of the " + std::to_string(Had) + " launches");
  return llvm::Error::success();
}

bool ranWithoutLaunches(const Module &M) {
  return M.Compiler.Launches == "recorded" && M.Compiler.HostStopped.empty() &&
         M.Launches.empty() && !M.Compiler.RefusedLaunches;
}

bool definesKernel(const Module &M, const std::vector<std::string> &Files) {
  for (const Kernel &K : M.Kernels)
    for (const std::string &F : Files)
      if (llvm::sys::path::filename(K.Loc.File) == llvm::sys::path::filename(F))
        return true;
  return false;
}

llvm::Expected<std::vector<Launch>> planLaunches(const Module &M,
                                                 const Options &O) {
  std::vector<const Kernel *> Selected;
  if (!O.Kernel.empty()) {
    auto S = selectKernels(M, O.Kernel);
    if (!S)
      return S.takeError();
    Selected = std::move(*S);
  }
  auto Chosen = [&](const Kernel &K) {
    return Selected.empty() ||
           std::find(Selected.begin(), Selected.end(), &K) != Selected.end();
  };
  const Kernel *Only = Selected.size() == 1 ? Selected.front() : nullptr;
  for (const auto &[Name, Value] : O.Overrides.Args) {
    bool Known = false;
    for (const Kernel &K : M.Kernels)
      Known |= Chosen(K) && K.paramIndex(Name) >= 0;
    if (!Known)
      return llvm::createStringError(
          "--arg " + Name + ": no " + (Only ? Only->Name + " " : "") +
          "kernel has a parameter named '" + Name + "'");
  }
  std::vector<Launch> Out = M.Launches;
  if (llvm::Error E = chooseLaunches(M, O, Selected, Out))
    return std::move(E);
  if (!Out.empty())
    return Out;
  if (Selected.size() > 1)
    return llvm::createStringError("--kernel '" + O.Kernel +
                                   "': no launch of its kernels");
  if (M.Compiler.RefusedLaunches && (!O.Overrides.Grid || !O.Overrides.Block))
    return llvm::createStringError(
        "the CUDA runtime refused every launch the program made (" +
        std::to_string(M.Compiler.RefusedLaunches) +
        ", each named in a note): a GPU runs none of them either; pass --grid "
        "and --block (and --kernel NAME where there are several) to analyze "
        "a configuration that runs");

  // A program that ran to its end under recording and launched no kernel,
  // where every kernel is a library's (Thrust's vectors instantiate CUB's
  // EmptyKernel and never launch it): nothing to analyze, and no error.
  if (!Only && !O.Overrides.Grid && !O.Overrides.Block &&
      ranWithoutLaunches(M) && !definesKernel(M, O.Files))
    return Out;

  if (!Only) {
    if (M.Kernels.empty())
      return llvm::createStringError("no __global__ kernel in " + M.File);
    if (M.Kernels.size() > 1)
      return llvm::createStringError(
          M.File + " launches no kernel from main()" +
          (O.Overrides.RunArgs.empty()
               ? " when run with no arguments; pass --run-args \"ARGS\" "
                 "to run it with some, or"
               : ";") +
          " pass --kernel NAME with --grid and --block (kernels: " +
          kernelList(M) + ")");
    Only = &M.Kernels.front();
  }
  if (!O.Overrides.Grid || !O.Overrides.Block)
    return llvm::createStringError(Only->Name +
                                   " is not launched from main(); pass --grid "
                                   "and --block to say how it is launched");
  Out.push_back(launchFromFlags(*Only, O));
  return Out;
}

std::vector<std::string> unusedArgWarnings(const Module &M,
                                           const std::vector<Launch> &Launches,
                                           const LaunchOverrides &O) {
  std::vector<std::string> Names;
  for (const Launch &L : Launches)
    if (std::find(Names.begin(), Names.end(), L.Kernel) == Names.end())
      Names.push_back(L.Kernel);
  std::vector<std::string> W;
  for (const auto &[Name, Value] : O.Args) {
    bool Used = false;
    for (const std::string &N : Names)
      if (const Kernel *K = M.findKernel(N))
        Used |= K->paramIndex(Name) >= 0;
    std::string List;
    for (const std::string &N : Names)
      List += (List.empty() ? "" : "; ") + N;
    if (!Used)
      W.push_back("--arg " + Name + "=" + Value + ": no launched kernel (" +
                  List + ") has a parameter " + Name + "; it changes nothing");
  }
  return W;
}

} // namespace gmem
