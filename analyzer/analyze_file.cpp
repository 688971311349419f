//===- analyze_file.cpp - One translation unit, source to results ---------===//
#include "analyze_file.h"

#include "compiled.h"
#include "toolkit.h"

#include "host/record_run.h"
#include "host/recorded_launches.h"
#include "host/runtime/boards.h"

#include "frontend.h"
#include "host_launches.h"
#include "launch_plan.h"
#include "model_json.h"
#include "program.h"
#include "simulate.h"
#include "translate.h"

#include <iostream>
#include <map>
#include <set>

namespace gmem {

static std::string where(const Launch &L, const std::string &File) {
  if (!L.Loc.Line)
    return File + ": ";
  return L.Loc.File + ":" + std::to_string(L.Loc.Line) + ": ";
}

/// --host record: build and run the program, its launches into M.
static bool recordLaunches(const Options &O,
                           const std::vector<std::string> &Files,
                           const std::vector<std::string> &KeyInputs,
                           const ArchRules &Arch, Module &M,
                           std::vector<std::string> &Warnings,
                           std::string &Error) {
  if (!*GMEM_RECORD_RUNTIME_DIR) {
    Error = "--host record: this gmem was built without a CUDA toolkit, so "
            "it has no recording runtime; use --host interpret";
    return false;
  }
  auto T = findToolkit(O.Nvcc);
  if (!T) {
    Error = "--host record needs nvcc: " + llvm::toString(T.takeError());
    return false;
  }
  if (llvm::StringRef(T->Version).split('.').first !=
      std::to_string(GMEM_RECORD_CUDA_MAJOR)) {
    Error = "--host record: gmem's recording runtime is for CUDA " +
            std::to_string(GMEM_RECORD_CUDA_MAJOR) + ", but " + T->Nvcc +
            " is " + T->Version + "; pass --nvcc for a CUDA " +
            std::to_string(GMEM_RECORD_CUDA_MAJOR) + " nvcc";
    return false;
  }
  RecordRequest R;
  R.Nvcc = T->Nvcc;
  R.NvccVersion = T->Version;
  R.Files = Files;
  R.Flags = nvccFlagsFromClangArgs(O.ClangArgs);
  R.Flags.insert(R.Flags.end(), O.NvccFlags.begin(), O.NvccFlags.end());
  R.KeyInputs = KeyInputs;
  R.Arch = Arch.Name;
  const rec::Board *B =
      O.Gpu.empty() ? rec::defaultBoard(int(Arch.Sm / 10), int(Arch.Sm % 10))
                    : rec::findBoard(O.Gpu);
  if (!B) {
    Error = O.Gpu.empty() ? "--host record: no board of " + Arch.Name +
                                " is known; name one with --gpu (" +
                                rec::boardNames() + ")"
                          : "--gpu '" + O.Gpu + "': not a known board (" +
                                rec::boardNames() + ")";
    return false;
  }
  R.Board = B->Name;
  R.RunArgs = O.Overrides.RunArgs;
  R.TimeLimit = O.TimeLimit;
  R.LaunchCount = O.LaunchCount;
  R.CacheDir = O.CacheDir.empty() ? defaultCacheDir() : O.CacheDir;
  R.RuntimeDir = GMEM_RECORD_RUNTIME_DIR;
  R.Kernels = &M.Kernels;
  auto Run = recordProgram(R);
  if (!Run) {
    Error = llvm::toString(Run.takeError());
    return false;
  }
  RecordedLaunches L = launchesFromRecording(*Run, M.Kernels);
  M.Launches = std::move(L.Launches);
  M.Compiler.Launches = "recorded";
  // --block, --grid, --dynamic-smem and --arg replace recorded values (the
  // program is not run again, so nothing is re-derived from them).
  applyOverrides(M, O.Overrides);
  std::cerr << "gmem-analyze: note: launches recorded from a run of the "
               "program (nvcc build" +
                   std::string(Run->FromCache ? " from the cache" : "") + ", " +
                   B->Product + " described, no GPU used): " +
                   std::to_string(Run->Launches.size()) + " launches" +
                   (Run->AtLaunchCount ? ", then stopped (--launch-count)"
                                       : "") +
                   "\n";
  Warnings.insert(Warnings.end(), L.Warnings.begin(), L.Warnings.end());
  return true;
}

bool loadModule(const Options &O, const std::string &File,
                const ArchRules &Arch, Module &M,
                std::vector<std::string> &Warnings, std::string &Error) {
  return loadModule(O, std::vector<std::string>{File}, Arch, M, Warnings,
                    Error);
}

bool loadModule(const Options &O, const std::vector<std::string> &Files,
                const ArchRules &Arch, Module &M,
                std::vector<std::string> &Warnings, std::string &Error) {
  FrontendOptions FO;
  FO.CudaPath = O.CudaPath;
  FO.Arch = Arch.Name;
  FO.ExtraArgs = O.ClangArgs;
  const bool Record = O.Host == "record";
  auto Prog = analyzeProgram(Files, FO, O.Overrides, !Record);
  if (!Prog) {
    Error = llvm::toString(Prog.takeError());
    return false;
  }
  M = std::move(Prog->M);
  Warnings = std::move(Prog->Warnings);

  // Count the instructions nvcc emits: compile each file's device code (or
  // take it from the cache) and match its SASS to that file's kernels.
  CompiledOptions CompO;
  CompO.Compiler = O.Compiler;
  CompO.Nvcc = O.Nvcc;
  CompO.CacheDir = O.CacheDir.empty() ? defaultCacheDir() : O.CacheDir;
  CompO.Arch = Arch.Name;
  CompO.ClangArgs = O.ClangArgs;
  std::vector<CompiledUnit> Units;
  for (size_t U = 0; U < Prog->Units.size(); ++U) {
    CompiledUnit CU;
    CU.File = Files[U];
    CU.Kernels = Prog->UnitKernels[U];
    const clang::SourceManager &SM = Prog->Units[U]->getSourceManager();
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
      CU.KeyInputs.push_back(It->first.getName().str());
    Units.push_back(std::move(CU));
  }
  auto CompiledNotes = applyCompiled(M, CompO, Units);
  if (!CompiledNotes) {
    Error = llvm::toString(CompiledNotes.takeError());
    return false;
  }
  if (Record) {
    std::vector<std::string> KeyInputs;
    for (const CompiledUnit &U : Units)
      KeyInputs.insert(KeyInputs.end(), U.KeyInputs.begin(), U.KeyInputs.end());
    if (!recordLaunches(O, Files, KeyInputs, Arch, M, Warnings, Error))
      return false;
  }
  // Template instances of one source line give the same note: once each.
  std::set<std::string> Noted;
  for (const std::string &N : *CompiledNotes)
    if (Noted.insert(N).second)
      std::cerr << "gmem-analyze: note: " << N << "\n";
  return true;
}

bool simulateLaunches(const Module &M, const std::vector<Launch> &Launches,
                      const Options &O, const ArchRules &Arch, Report &Rep,
                      std::string &Error) {
  std::set<std::string> Warned;
  for (const Launch &L : Launches) {
    const Kernel *K = M.findKernel(L.Kernel);
    if (!K) {
      Error = where(L, M.File) + "launch of '" + L.Kernel +
              "', a kernel the analyzer could not read";
      return false;
    }
    if (auto Why = validateLaunch(*K, L, Arch)) {
      Error = where(L, M.File) + *Why;
      return false;
    }
    if (Warned.insert(K->Name).second)
      for (const std::string &W : K->Warnings)
        Rep.Warnings.push_back(L.Memory.empty() ? W : recordedWarning(*K, W));
  }
  Rep.Compiler = M.Compiler;
  SimOptions SO;
  SO.Arch = &Arch;
  SO.Threads = O.Threads;
  SO.Exhaustive = O.Exhaustive;
  SO.MaxWarps = O.MaxWarps;
  SO.Progress = true;
  // A launch repeated with the same configuration and arguments has the
  // same result: simulate it once. Repeated at the same place (a timing
  // loop), it is reported once with its count.
  std::map<std::string, size_t> Done, Here;
  for (const Launch &L : Launches) {
    nlohmann::json Key = toJson(L);
    // Recorded launches: the same arguments over other bytes differ.
    for (const ArgValue &A : L.Args) {
      auto I = L.Memory.find(A.Allocation);
      if (A.Kind == ArgValue::Pointer && I != L.Memory.end())
        Key["memory"][A.Allocation] = uintptr_t(I->second.Data.get());
    }
    auto [At, NewHere] = Here.emplace(Key.dump(), Rep.Launches.size());
    if (!NewHere) {
      ++Rep.Launches[At->second].Count;
      continue;
    }
    Key.erase("loc");
    auto [It, New] = Done.emplace(Key.dump(), Rep.Launches.size());
    if (New) {
      Rep.Launches.push_back(simulate(*M.findKernel(L.Kernel), L, SO));
      if (!Rep.Launches.back().Incomplete.empty())
        std::cerr << "gmem-analyze: warning: " << where(L, M.File)
                  << Rep.Launches.back().Incomplete << "\n";
    } else {
      LaunchResult Copy = Rep.Launches[It->second];
      Copy.L = L;
      Copy.Count = 1;
      Rep.Launches.push_back(std::move(Copy));
    }
  }
  return true;
}

} // namespace gmem
