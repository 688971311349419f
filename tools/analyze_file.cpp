//===- analyze_file.cpp - One translation unit, source to results ---------===//
#include "analyze_file.h"

#include "async_copy_units.h"
#include "compiled.h"
#include "dram_traffic.h"
#include "l2_residency.h"
#include "l2_traffic.h"
#include "launch_time.h"
#include "toolkit.h"

#include "record/record_run.h"
#include "record/recorded_launches.h"
#include "record/runtime/boards.h"

#include "build_flags.h"
#include "execute_launch.h"
#include "executed_json.h"
#include "frontend.h"
#include "host_launches.h"
#include "install_paths.h"
#include "launch_columns.h"
#include "launch_plan.h"
#include "metrics.h"
#include "model_json.h"
#include "program.h"
#include "progress_bar.h"
#include "reconcile.h"
#include "sass.h"
#include "simulate.h"
#include "translate.h"

#include "llvm/Support/Path.h"
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <unistd.h>

namespace gmem {

/// The model's accesses whose compiled form the SASS step did not
/// establish: no instruction found and no reason (a reuse, a hoist) proved,
/// counted as issuing nothing; or instructions that do not say which
/// executions they stand for, counted as written.
static size_t unproved(const Kernel &K) {
  return size_t(
      std::count_if(K.Accesses.begin(), K.Accesses.end(), [](const Access &A) {
        return A.Compiled.State == CompiledForm::NoInstruction ||
               A.Compiled.State == CompiledForm::Ambiguous;
      }));
}

static bool hasUnknown(const ExprPtr &E) {
  return E && (E->Kind == Op::Unknown ||
               std::any_of(E->Ops.begin(), E->Ops.end(), hasUnknown));
}

static bool hasUnknown(const std::vector<Stmt> &Body) {
  return std::any_of(Body.begin(), Body.end(), [](const Stmt &S) {
    return hasUnknown(S.Value) || hasUnknown(S.Cond) || hasUnknown(S.Then) ||
           hasUnknown(S.Else) || hasUnknown(S.CondPre) || hasUnknown(S.Body) ||
           hasUnknown(S.Step);
  });
}

/// Whether the model prices K's launches from their configuration alone:
/// no construct it skips, no value it does not know (loaded data above
/// all), every SASS memory instruction accounted for. A functional
/// recording need not run such a kernel unless its results are read.
/// Whether the model follows all of K and stands for every memory
/// instruction of its SASS. A kernel warning says what it could not follow
/// (a call it does not see into, a construct it skipped).
static bool followedWhole(const Kernel &K) {
  return K.Warnings.empty() && K.Sass.Unclaimed.empty() && !unproved(K);
}

/// Whether no address, guard or trip count of K depends on the bytes in
/// memory, as far as the model follows all of it: its launches make the
/// same requests over any bytes.
static bool readsNoData(const Kernel &K) {
  return !K.NoModel && K.Warnings.empty() &&
         std::none_of(K.Accesses.begin(), K.Accesses.end(),
                      [](const Access &A) {
                        return A.UnknownReason || A.DataDependent ||
                               hasUnknown(A.Address);
                      }) &&
         !hasUnknown(K.Body);
}

static bool pricedWithoutData(const Kernel &K) {
  return followedWhole(K) && readsNoData(K);
}

static std::string where(const Launch &L, const std::string &File) {
  if (!L.Loc.Line)
    return File + ": ";
  return L.Loc.File + ":" + std::to_string(L.Loc.Line) + ": ";
}

std::string recordRuntimeDir() {
  if (!*GMEM_RECORD_RUNTIME_DIR)
    return "";
  return installedOr("lib/gmem-record", GMEM_RECORD_RUNTIME_DIR);
}

/// Annotates executed kernels with what ptxas made of their accesses, from
/// the units' SASS (parsed once); Notes gets the lines it could not match.
static std::function<void(ExecutedKernel &)>
annotateFromSass(const std::vector<std::pair<std::string, std::string>> &Sass,
                 std::vector<std::string> *Notes) {
  auto Functions = std::make_shared<std::vector<SassFunction>>();
  for (const auto &[File, Text] : Sass) {
    auto F = parseSass(Text);
    if (!F) {
      llvm::consumeError(F.takeError());
      continue;
    }
    Functions->insert(Functions->end(), F->begin(), F->end());
  }
  return [Functions, Notes](ExecutedKernel &EK) {
    for (const SassFunction &F : *Functions)
      if (F.Name == EK.K.MangledName)
        for (std::string &N : reconcileWithSass(EK, F))
          if (Notes)
            Notes->push_back(std::move(N));
  };
}

/// What recording needs: the toolkit and the runtime of its CUDA major, and
/// a board of --arch. An error says what is missing.
static llvm::Expected<RecordRequest>
recordRequest(const Options &O, const ArchRules &Arch,
              const std::vector<std::string> &Flags) {
  if (!*GMEM_RECORD_RUNTIME_DIR)
    return llvm::createStringError(
        "this gmem was built without a CUDA toolkit, so it has no recording "
        "runtime");
  auto T = findToolkit(O.Nvcc);
  if (!T)
    return llvm::createStringError("recording needs nvcc: " +
                                   llvm::toString(T.takeError()));
  if (llvm::StringRef(T->Version).split('.').first !=
      std::to_string(GMEM_RECORD_CUDA_MAJOR))
    return llvm::createStringError(
        "gmem's recording runtime is for CUDA " +
        std::to_string(GMEM_RECORD_CUDA_MAJOR) + ", but " + T->Nvcc + " is " +
        T->Version + "; pass --nvcc for a CUDA " +
        std::to_string(GMEM_RECORD_CUDA_MAJOR) + " nvcc");
  const rec::Board *B =
      O.Gpu.empty() ? rec::defaultBoard(int(Arch.Sm / 10), int(Arch.Sm % 10))
                    : rec::findBoard(O.Gpu);
  if (!B)
    return llvm::createStringError(
        O.Gpu.empty()
            ? "no board of " + Arch.Name + " is known; name one with --gpu (" +
                  rec::boardNames() + ")"
            : "--gpu '" + O.Gpu + "': not a known board (" + rec::boardNames() +
                  ")");
  RecordRequest R;
  R.Nvcc = T->Nvcc;
  R.Nvdisasm = T->Nvdisasm;
  R.NvccVersion = T->Version;
  // The toolkit's root, two levels above bin/nvcc.
  R.Toolkit =
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(T->Nvcc)).str();
  R.Flags = Flags;
  R.Arch = Arch.Name;
  R.Board = B->Name;
  R.RunArgs = O.Overrides.RunArgs;
  R.TimeLimit = O.TimeLimit;
  // The program may stop once the launches asked for are made: it cannot
  // with --kernel, whose launches the recorder does not tell apart.
  R.LaunchCount =
      O.LaunchCount && O.Kernel.empty() ? O.LaunchSkip + O.LaunchCount : 0;
  R.CacheDir = O.CacheDir.empty() ? defaultCacheDir() : O.CacheDir;
  // A long run says on a terminal that it is alive (after 2 s, on one line
  // the report's first line replaces).
  if (!O.Quiet && isatty(STDERR_FILENO))
    R.Progress = [](uint64_t Launches, unsigned Seconds) {
      if (Seconds < 2)
        return;
      std::fprintf(stderr,
                   "\rgmem: running the program: %llu launches, %u s\033[K",
                   (unsigned long long)Launches, Seconds);
      std::fflush(stderr);
    };
  R.RuntimeDir = recordRuntimeDir();
  return R;
}

/// Runs the built program against the recorder, its launches into M.
/// Stopped gets how the program stopped early ("" when it ended well).
static llvm::Error recordLaunches(const Options &O, RecordRequest &R,
                                  const BuiltProgram &Built, Module &M,
                                  std::vector<std::string> &Warnings,
                                  std::string &Stopped) {
  R.Kernels = &M.Kernels;
  auto Run = runRecorded(R, Built);
  if (R.Progress) // The progress line goes.
    std::fprintf(stderr, "\r\033[K");
  if (!Run)
    return Run.takeError();
  RecordedLaunches L = launchesFromRecording(*Run, M.Kernels);
  for (Kernel &K : M.Kernels)
    if (auto It = L.Renamed.find(K.MangledName); It != L.Renamed.end())
      K.MangledName = It->second;
  M.Launches = std::move(L.Launches);
  for (Kernel &K : L.Library)
    M.Kernels.push_back(std::move(K));
  M.Compiler.Launches = "recorded";
  M.Compiler.HostStopped = L.Stopped;
  M.Compiler.ProgramExit = Run->ExitCode;
  M.Compiler.ProgramOutput = Run->OutputTail;
  M.Compiler.LibraryCalls = std::move(L.LibraryCalls);
  M.Compiler.RefusedLaunches = L.Refused;
  for (const std::string &Lib : Built.AddedLibraries) {
    M.Compiler.BuildNotes.push_back("the program calls lib" + Lib +
                                    ": linked with gmem's stand-in, which "
                                    "runs nothing (no -l" +
                                    Lib + " given)");
    if (!O.Quiet)
      std::cerr << "gmem-analyze: note: build: " << M.Compiler.BuildNotes.back()
                << "\n";
  }
  Stopped = Run->Stopped.empty() ? "" : "the program " + Run->Stopped;
  // --block, --grid, --dynamic-smem and --arg replace recorded values (the
  // program is not run again, so nothing is re-derived from them).
  applyOverrides(M, O.Overrides);
  const rec::Board *B = rec::findBoard(R.Board);
  if (!O.Quiet)
    std::cerr << "gmem-analyze: note: launches recorded from a run of the "
                 "program (nvcc build" +
                     std::string(Built.FromCache ? " from the cache" : "") +
                     ", " + (B ? B->Product : R.Board) +
                     " described, no GPU used): " +
                     std::to_string(Run->Launches.size()) + " launches" +
                     (Run->AtLaunchCount ? ", then stopped (--launch-count)"
                                         : "") +
                     "\n";
  Warnings.insert(Warnings.end(), L.Warnings.begin(), L.Warnings.end());
  return llvm::Error::success();
}

/// After a recorded run that stopped early: the launches that reading the
/// host code finds beyond the recorded ones, added to M marked
/// "interpreted". Beside recorded launches, those whose values the reading
/// cannot compute (their configuration, an argument the kernel reads) are
/// left out with a warning; with none recorded (a missing argument stopped
/// the program) all are taken, so that the error names the value to give.
static void appendInterpretedTail(Program &Prog,
                                  const std::vector<std::string> &Files,
                                  const FrontendOptions &FO, const Options &O,
                                  const ArchRules &Arch,
                                  const std::string &Stopped, Module &M,
                                  std::vector<std::string> &Warnings) {
  const size_t Recorded = M.Launches.size();
  Prog.M.Kernels = M.Kernels;
  Prog.Warnings.clear();
  interpretLaunches(Prog, Files, FO, O.Overrides);
  std::vector<Launch> &Read = Prog.M.Launches;
  const std::string Head = "the recorded run stopped after " +
                           std::to_string(Recorded) + " launches (" + Stopped +
                           ")";
  if (Read.size() <= Recorded) {
    Warnings.push_back(Head + "; reading the host code found no launch after "
                              "them");
    return;
  }
  size_t Added = 0, Unresolved = 0;
  for (size_t I = Recorded; I < Read.size(); ++I) {
    const Kernel *K = M.findKernel(Read[I].Kernel);
    if (Recorded && (!K || !Read[I].Unresolved.empty() ||
                     !validateLaunch(*K, Read[I], Arch))) {
      ++Unresolved;
      continue;
    }
    Read[I].Origin = "interpreted";
    M.Launches.push_back(std::move(Read[I]));
    ++Added;
  }
  const std::string LeftOut =
      Unresolved ? " (" + std::to_string(Unresolved) +
                       " left out: their configuration or arguments depend "
                       "on values the reading cannot compute)"
                 : std::string();
  Warnings.push_back(
      Head + "; reading the host code found " + std::to_string(Read.size()) +
      (Added ? ": the " + std::to_string(Added) +
                   " after them are reported as read" +
                   (Recorded ? ", each marked so" : "") + LeftOut
             : ", none after them with values it can compute" + LeftOut));
  if (Added) {
    Warnings.insert(Warnings.end(), Prog.Warnings.begin(), Prog.Warnings.end());
    if (!Recorded) {
      // Nothing was recorded (a missing argument stopped the program): the
      // launches are all read, and how the run stopped is this warning.
      M.Compiler.Launches = "interpreted";
      M.Compiler.HostStopped.clear();
      for (Launch &L : M.Launches)
        L.Origin.clear();
    }
  }
}

/// nvcc's pre-include of the runtime calls CUDA 13 removed, for every nvcc
/// step (the recorded build and the SASS compile), as the parse has it.
static std::vector<std::string> removedApisFlags() {
  return {"-include", cudaStubDir() + "/compat/gmem_removed_apis.h"};
}

/// nvcc's flags for the recorded build: the build's own (as the user gave
/// them), then what gmem adds so that nvcc builds what it built before
/// CUDA 13 (the removed runtime calls) and what the host code needs
/// (OpenMP). Notes says each addition and each flag Clang did not get.
static std::vector<std::string>
buildAdditions(const Program &P, const Options &O, const BuildFlags &BF,
               std::vector<std::string> &Notes) {
  std::vector<std::string> Flags = nvccFlagsFromClangArgs(BF.Clang);
  Flags.insert(Flags.end(), BF.NvccOnly.begin(), BF.NvccOnly.end());
  Flags.insert(Flags.end(), O.NvccFlags.begin(), O.NvccFlags.end());
  Notes = BF.Notes;
  const std::vector<std::string> Compat = removedApisFlags();
  Flags.insert(Flags.end(), Compat.begin(), Compat.end());
  for (const std::string &Api : P.RemovedApis)
    Notes.push_back(Api + " (removed in CUDA 13) is called: gmem's "
                          "compatibility header maps it onto its "
                          "replacement");
  auto Has = [&](llvm::StringRef S) {
    return std::any_of(Flags.begin(), Flags.end(), [&](const std::string &F) {
      return llvm::StringRef(F).contains(S);
    });
  };
  if (P.UsesOpenMp || Has("fopenmp")) {
    // nvcc links with the host compiler but without -fopenmp.
    std::string Added;
    if (!Has("fopenmp")) {
      Flags.insert(Flags.end(), {"-Xcompiler", "-fopenmp"});
      Added = "-Xcompiler -fopenmp";
    }
    if (!Has("-lgomp")) {
      Flags.push_back("-lgomp");
      Added += (Added.empty() ? "" : " ") + std::string("-lgomp");
    }
    if (!Added.empty())
      Notes.push_back("the host code uses OpenMP: built with the host "
                      "compiler's (" +
                      Added + ")");
  }
  return Flags;
}

llvm::Error loadModule(const Options &O, const std::string &File,
                       const ArchRules &Arch, Module &M,
                       std::vector<std::string> &Warnings) {
  return loadModule(O, std::vector<std::string>{File}, Arch, M, Warnings);
}

llvm::Error loadModule(const Options &O, const std::vector<std::string> &Given,
                       const ArchRules &Arch, Module &M,
                       std::vector<std::string> &Warnings) {
  // The build's flags: nvcc gets them as given, Clang what it understands,
  // and the sources among them join the files.
  const BuildFlags BF = splitBuildFlags(O.ClangArgs);
  std::vector<std::string> Files = Given;
  for (const std::string &S : BF.Sources)
    if (std::find(Files.begin(), Files.end(), S) == Files.end())
      Files.push_back(S);
  FrontendOptions FO;
  FO.CudaPath = O.CudaPath;
  FO.Arch = Arch.Name;
  FO.ExtraArgs = BF.Clang;
  // --host auto records a program that has a main() when nvcc is to be
  // used; it falls back to interpreting, saying why, when recording cannot
  // be set up or nvcc does not build the program.
  const bool Auto = O.Host == "auto";
  bool Record = O.Host == "record" || (Auto && O.Compiler != "source");
  auto Prog = analyzeProgram(Files, FO, O.Overrides, /*FindLaunches=*/false);
  if (!Prog)
    return Prog.takeError();
  // A file Clang rejects is an error unless nvcc builds the program: then
  // only its kernels are missing from the report.
  auto ParseError = [&] {
    return llvm::createStringError(Prog->Unparsed.front().second);
  };
  if (!Prog->Unparsed.empty() && !Record)
    return ParseError();
  // Device code Clang rejects fails the same way unless nvcc builds it.
  auto DeviceError = [&] {
    const Program::DeviceCodeErrors &E = Prog->DeviceErrors.front();
    llvm::errs() << E.Printed;
    return llvm::createStringError(
        std::make_error_code(std::errc::invalid_argument), E.Failure);
  };
  // Every file each translation unit read keys the caches.
  std::vector<std::vector<std::string>> UnitInputs;
  for (const auto &U : Prog->Units) {
    const clang::SourceManager &SM = U->getSourceManager();
    UnitInputs.emplace_back();
    for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
      UnitInputs.back().push_back(It->first.getName().str());
  }
  std::string WhyInterpreted;
  const LaunchOverrides &Ov = O.Overrides;
  if (Auto && Record && !Prog->HasMain && Prog->Unparsed.empty()) {
    Record = false; // Nothing to run: --kernel names the launch.
    WhyInterpreted = "no file defines main()";
  } else if (Auto && Record &&
             (Ov.Block || Ov.Grid || Ov.DynamicSmem || !Ov.Args.empty() ||
              Ov.SmCount)) {
    // A launch the program does not make: the host code is interpreted
    // with the value given, so what it derives from it (a grid from a
    // block) follows.
    Record = false;
    WhyInterpreted = "--block, --grid, --dynamic-smem, --arg and --sm-count "
                     "change the host code's values, which only gmem's "
                     "reading of the host code can follow (--host record "
                     "puts them into the recorded launches instead)";
  }
  if (!Prog->DeviceErrors.empty() && !Record)
    return DeviceError();
  std::optional<RecordRequest> Request;
  std::optional<BuiltProgram> Built;
  std::vector<std::string> BuildNotes; // For M.Compiler, once it is set.
  if (Record) {
    auto R = recordRequest(O, Arch, buildAdditions(*Prog, O, BF, BuildNotes));
    if (R) {
      R->Arch = buildArch(R->Arch, BF);
      R->RelocatableDeviceCode = relocatableDeviceCode(R->Flags);
      Request = std::move(*R);
      for (const std::vector<std::string> &In : UnitInputs)
        Request->KeyInputs.insert(Request->KeyInputs.end(), In.begin(),
                                  In.end());
      Request->Files = Files;
      Request->Files.insert(Request->Files.end(), BF.LinkInputs.begin(),
                            BF.LinkInputs.end());
      auto B = buildProgram(*Request);
      if (B)
        Built = std::move(*B);
      else
        WhyInterpreted = llvm::toString(B.takeError());
    } else {
      WhyInterpreted = llvm::toString(R.takeError());
    }
    if (!Built && !Prog->Unparsed.empty())
      return ParseError();
    if (!Built && !Prog->DeviceErrors.empty())
      return DeviceError();
    if (!Built) {
      if (!Auto)
        return llvm::createStringError("--host record: " + WhyInterpreted);
      Record = false;
      // nvcc's words are long; the first line says what failed.
      llvm::StringRef First = llvm::StringRef(WhyInterpreted).split('\n').first;
      Warnings.push_back("the program was not recorded (" +
                         First.take_front(400).str() +
                         "): its launches come from gmem reading the host "
                         "code (--host interpret)");
    }
  }
  for (const auto &[File, Error] : Prog->Unparsed)
    Warnings.push_back(File +
                       ": Clang could not parse it, nvcc built it: "
                       "its kernels have no model (" +
                       llvm::StringRef(Error).split('\n').first.str() +
                       "); a recording prices the launches it ran by their "
                       "executed PTX");
  for (const Program::DeviceCodeErrors &E : Prog->DeviceErrors) {
    std::string Names;
    for (size_t I = 0; I < E.Kernels.size() && I < 8; ++I)
      Names += (I ? ", " : "") + E.Kernels[I];
    if (E.Kernels.size() > 8)
      Names += " and " + std::to_string(E.Kernels.size() - 8) + " more";
    Warnings.push_back(
        E.Errors.front() +
        (E.Errors.size() > 1
             ? " (and " + std::to_string(E.Errors.size() - 1) + " more errors)"
             : "") +
        ": device code Clang rejects and nvcc built" +
        (E.Kernels.empty() ? std::string(" (no kernel reaches it)")
                           : "; no model for " + Names +
                                 ": a recording prices the launches it ran "
                                 "by their executed PTX"));
  }
  if (!Record)
    interpretLaunches(*Prog, Files, FO, O.Overrides);
  M = std::move(Prog->M);
  if (!O.Quiet)
    for (const std::string &N : BuildNotes)
      std::cerr << "gmem-analyze: note: build: " << N << "\n";
  Warnings.insert(Warnings.end(), Prog->Warnings.begin(), Prog->Warnings.end());

  // Count the instructions nvcc emits: each file's device code from the
  // program's own build when it was recorded, else compiled apart (or taken
  // from the cache), matched to that file's kernels.
  CompiledOptions CompO;
  CompO.Compiler = O.Compiler;
  CompO.Nvcc = O.Nvcc;
  CompO.CacheDir = O.CacheDir.empty() ? defaultCacheDir() : O.CacheDir;
  CompO.Arch = buildArch(Arch.Name.substr(0, Arch.Name.find(':')),
                         BF); // nvcc: no mode
  CompO.ClangArgs = BF.Clang;
  CompO.NvccFlags = BF.NvccOnly;
  const std::vector<std::string> Compat = removedApisFlags();
  CompO.NvccFlags.insert(CompO.NvccFlags.end(), Compat.begin(), Compat.end());
  CompO.NvccFlags.insert(CompO.NvccFlags.end(), O.NvccFlags.begin(),
                         O.NvccFlags.end());
  std::vector<CompiledUnit> Units;
  for (size_t U = 0; U < Prog->Units.size(); ++U) {
    CompiledUnit CU;
    CU.File = Prog->UnitFiles[U];
    CU.Kernels = Prog->UnitKernels[U];
    CU.KeyInputs = UnitInputs[U];
    if (Built)
      if (auto S = Built->Sass.find(CU.File); S != Built->Sass.end()) {
        CU.Sass = SassText{S->second, Built->FromCache, ""};
        if (auto P = Built->Ptx.find(CU.File); P != Built->Ptx.end())
          CU.Sass->Ptx = P->second;
      }
    Units.push_back(std::move(CU));
  }
  auto CompiledNotes = applyCompiled(M, CompO, Units);
  if (!CompiledNotes)
    return CompiledNotes.takeError();
  M.Compiler.BuildNotes = std::move(BuildNotes);
  std::vector<std::string> Nvcc = BF.NvccOnly;
  Nvcc.insert(Nvcc.end(), O.NvccFlags.begin(), O.NvccFlags.end());
  M.RelocatableDeviceCode = relocatableDeviceCode(Nvcc);
  // The program's own build has every unit's PTX, those without kernels
  // too (their functions are called across units with -rdc=true).
  if (Built && !Built->Ptx.empty()) {
    M.DevicePtx.assign(Built->Ptx.begin(), Built->Ptx.end());
    M.DeviceSass.assign(Built->Sass.begin(), Built->Sass.end());
  }
  std::string Stopped;
  if (Record && O.ExecSeconds > 0 && !Built->Ptx.empty()) {
    // Functional recording: the kernels run on the build's PTX, priced as
    // ptxas compiled them.
    std::vector<std::pair<std::string, std::string>> Units(Built->Ptx.begin(),
                                                           Built->Ptx.end());
    auto P = ExecutedProgram::create(Units);
    if (P) {
      std::vector<std::pair<std::string, std::string>> Sass(Built->Sass.begin(),
                                                            Built->Sass.end());
      ExecOptions EO;
      EO.Annotate = annotateFromSass(Sass, nullptr);
      Request->CompiledLines = (*P)->compiledLines(EO);
      Request->ExecSeconds = O.ExecSeconds;
      if (O.Path != "executed")
        for (const Kernel &K : M.Kernels)
          if (!K.MangledName.empty() && pricedWithoutData(K))
            Request->Deferrable.push_back(K.MangledName);
    } else {
      Warnings.push_back("the kernels were not run while recording: their "
                         "PTX could not be read (" +
                         P.error() + ")");
    }
  }
  if (Record)
    if (llvm::Error E =
            recordLaunches(O, *Request, *Built, M, Warnings, Stopped))
      return E;
  if (Record && Auto && !Stopped.empty()) {
    // The run stopped early (a check of results no kernel computed, a call
    // gmem does not answer, a crash, the time limit): its launches stay,
    // in order. Reading the host code may find launches after them; those
    // are added, marked, and its failures are notes.
    placeLaunchColumns(M, Prog->Units);
    appendInterpretedTail(*Prog, Files, FO, O, Arch, Stopped, M, Warnings);
    Record = M.Compiler.Launches == "recorded";
    if (!Record)
      WhyInterpreted =
          "the recorded run stopped before its first launch (" + Stopped + ")";
  } else if (Record) {
    placeLaunchColumns(M, Prog->Units);
  }
  if (!Record && !WhyInterpreted.empty())
    M.Compiler.LaunchesWhy = WhyInterpreted;
  // Template instances of one source line give the same note: once each.
  // Where the host code's launches are known and no --kernel asks for
  // another, notes on kernels none of them reaches are counted, not shown.
  std::set<std::string> Noted, Launched, Unreached;
  for (const Launch &L : M.Launches)
    Launched.insert(L.Kernel);
  size_t Left = 0;
  for (const CompiledNote &N : *CompiledNotes) {
    if (!N.Kernel.empty() && !Launched.empty() && O.Kernel.empty() &&
        !Launched.count(N.Kernel)) {
      Left += Noted.insert(N.Text).second;
      Unreached.insert(N.Kernel);
      continue;
    }
    if (!Noted.insert(N.Text).second)
      continue;
    // With the PTX at hand, a note on a kernel's model waits until a
    // launch takes the model's figures (Predictor::predict).
    if (!N.Kernel.empty() && O.Path != "model" && !M.DevicePtx.empty())
      M.ModelNotes.push_back({N.Kernel, N.Text});
    else if (!O.Quiet)
      std::cerr << "gmem-analyze: note: " << N.Text << "\n";
  }
  if (Left && !O.Quiet)
    std::cerr << "gmem-analyze: note: " << Left << " note"
              << (Left == 1 ? "" : "s") << " on the compiled code of "
              << Unreached.size() << " kernel"
              << (Unreached.size() == 1 ? "" : "s")
              << " that no launch reaches left out (--kernel NAME shows "
                 "them)\n";
  return llvm::Error::success();
}

/// Whether every figure of R is known and every memory instruction of its
/// kernel's SASS is accounted for.
static bool complete(const LaunchResult &R) {
  if (!R.Incomplete.empty() || !R.K || !followedWhole(*R.K))
    return false;
  for (const auto &[Name, M] : R.Metrics)
    if (!M.Value)
      return false;
  return true;
}

/// The first metric whose value differs between A and B, as text; empty
/// when every metric both know agrees.
static std::string firstDifference(const LaunchResult &A,
                                   const LaunchResult &B) {
  for (const auto &[Name, M] : A.Metrics) {
    auto It = B.Metrics.find(Name);
    if (It == B.Metrics.end() || !M.Value || !It->second.Value)
      continue;
    const double X = *M.Value, Y = *It->second.Value;
    if (std::fabs(X - Y) > 1e-9 * std::max(std::fabs(X), std::fabs(Y))) {
      std::ostringstream OS;
      OS << Name << ": " << X << " by the model, " << Y << " executed";
      return OS.str();
    }
  }
  return "";
}

/// Whether the model's figure for A, an async copy's side, is one-sided:
/// its shared side, or the global side of one that bypasses L1.
static bool oneSided(const Access &A) {
  return A.AsyncPartner >= 0 &&
         (A.Sp == Space::Shared ||
          bypassGlobalSideUnknown(A.Size, A.Compiled.Instruction));
}

/// Where the model is complete but for async copies' shared sides, whose
/// wavefronts need both sides' addresses (and the global sides of those
/// that bypass L1, whose sectors do), takes those from the run Run
/// into Model (whose lines follow the binary's line table), priced or
/// bounded, and says whether Model is now complete.
static bool pairAsyncSides(LaunchResult &Model, const LaunchResult &Run) {
  if (!Model.K)
    return false;
  std::map<int, AccessStats> Side;
  for (size_t I = 0; I < Run.PerAccess.size(); ++I) {
    const int M = I < Run.ModelAccess.size() ? Run.ModelAccess[I] : -1;
    if (M < 0 || size_t(M) >= Model.PerAccess.size())
      continue;
    if (oneSided(Model.K->Accesses[size_t(M)]))
      Side[M].add(Run.PerAccess[I]);
  }
  if (Side.empty())
    return false;
  LaunchResult Try = Model;
  for (const auto &[M, S] : Side) {
    const AccessStats &Was = Model.PerAccess[size_t(M)];
    if (S.Requests != Was.Requests)
      return false;
    Try.PerAccess[size_t(M)] = S;
  }
  // Bounded where the run could only bound them: still more than one side.
  computeMetrics(Try);
  Model = std::move(Try);
  if (!complete(Model))
    return false;
  Model.PathWhy = "the model's figures, but for its async copies' sides "
                  "that need where each lane reads as well as where it "
                  "writes, priced on the executed PTX";
  return true;
}

/// The executed path for launch L of K (--path executed, or auto when the
/// model's result Model is not complete): the launch run on the PTX of the
/// program's build. None when the model's result stays (with why in
/// Model.PathWhy).
static std::optional<LaunchResult>
executedPath(const Module &M, const Kernel &K, const Launch &L,
             const Options &O, const ArchRules &Arch,
             std::unique_ptr<ExecutedProgram> &Exec, LaunchResult &Model) {
  // A functional recording ran it already; otherwise it runs here, on the
  // memory the launch knows. Where the model is complete it stands, unless
  // the recording ran and priced the launch: that run is the reference,
  // and where their figures differ, the executed ones are kept.
  const bool Check = O.Path == "auto" && complete(Model);
  if (Check && !(L.Executed && L.Executed->Priced))
    return std::nullopt;
  // Pointer arithmetic that leaves the address space is undefined in C++:
  // the model's finding stands, whatever addresses a run would wrap to.
  if (O.Path == "auto" && Model.K &&
      std::any_of(Model.PerAccess.begin(), Model.PerAccess.end(),
                  [](const AccessStats &S) { return S.OverflowRequests; }))
    return std::nullopt;
  auto Keep = [&](const std::string &Why) -> std::optional<LaunchResult> {
    if (O.Path == "executed" && !Model.K) {
      // The model was not simulated: it must be now.
      SimOptions SO;
      SO.Arch = &Arch;
      SO.Threads = O.Threads;
      SO.MaxWarps = O.MaxWarps;
      SO.BudgetSeconds = O.SimSeconds;
      Model = simulate(K, L, SO);
    }
    Model.PathWhy = Why;
    return std::nullopt;
  };
  if (M.DevicePtx.empty())
    return Keep("no PTX was kept for this program (no toolkit, or the "
                "program was not compiled)");
  if (!Exec) {
    auto P = ExecutedProgram::create(M.DevicePtx);
    if (!P)
      return Keep("its PTX could not be read: " + P.error());
    Exec = std::move(*P);
  }
  // Running it here is bounded as the model's warp-by-warp runs are.
  if (!L.Executed &&
      L.Grid.count() * ((L.Block.count() + 31) / 32) > O.MaxWarps)
    return Keep("its " +
                std::to_string(L.Grid.count() * ((L.Block.count() + 31) / 32)) +
                " warps are more than --max-warps " +
                std::to_string(O.MaxWarps) + " to run one by one");
  ExecOptions EO;
  EO.MaxWarpInstructions = uint64_t(4) << 30;
  EO.LinkerPlacesShared = M.RelocatableDeviceCode;
  std::vector<std::string> Notes;
  EO.Annotate = annotateFromSass(M.DeviceSass, &Notes);
  auto R = L.Executed ? Exec->fromRecording(K, L, Arch, EO)
                      : Exec->execute(K, L, Arch, EO);
  if (!R)
    return Keep(R.error());
  // Timing decides how often some access ran (a retry loop's atomics).
  const bool Retries =
      std::any_of(R->PerAccess.begin(), R->PerAccess.end(),
                  [](const AccessStats &S) { return S.atLeast(); });
  if (Check) {
    const std::string Differs =
        Retries ? "it repeats a loop until an atomic's result says so, "
                  "which the model counts once"
        : R->Incomplete.empty() && complete(*R) ? firstDifference(Model, *R)
                                                : std::string();
    if (Differs.empty()) {
      // What the run found that the model's figures do not say.
      Model.Diagnostics.insert(Model.Diagnostics.end(), R->Diagnostics.begin(),
                               R->Diagnostics.end());
      if (L.Executed && L.Executed->Out.Fault != exec::DeviceFault::None)
        Model.Diagnostics.push_back(
            "the recording's run of it faulted (" +
            std::string(exec::faultName(L.Executed->Out.Fault)) +
            "): a GPU ends the launch there, so its counters cover only "
            "what ran before; these figures are of the whole launch");
      return std::nullopt;
    }
    R->PathWhy = "the kernel model's figures differ from those of the "
                 "launch the recording ran on its PTX (" +
                 Differs + "): the executed ones are kept";
    return std::move(*R);
  }
  if (O.Path == "auto" && R->Incomplete.empty() && pairAsyncSides(Model, *R))
    return std::nullopt;
  if (O.Path == "auto" && Model.K && R->Incomplete.empty()) {
    // Where the run left an access unknown (its address depends on bytes
    // nobody wrote), the model's figure or bounds for it stand.
    bool Replaced = false;
    for (size_t I = 0; I < R->PerAccess.size(); ++I) {
      const int M = I < R->ModelAccess.size() ? R->ModelAccess[I] : -1;
      if (M < 0 || size_t(M) >= Model.PerAccess.size() ||
          !R->PerAccess[I].UnknownRequests)
        continue;
      const AccessStats &S = Model.PerAccess[size_t(M)];
      // An async copy's sides that need both addresses: the model saw one.
      if (oneSided(Model.K->Accesses[size_t(M)]))
        continue;
      // A retry loop's count is timing's: the model's figure assumes none.
      if (R->PerAccess[I].atLeast())
        continue;
      if (!S.UnknownRequests || S.bounded()) {
        // The model's bounds, but the run's reason where the run found
        // what decides the addresses (racing atomics: timing) and the
        // model only that it could not follow them.
        const AccessStats Ran = R->PerAccess[I];
        R->PerAccess[I] = S;
        if (S.UnknownRequests && Ran.ReasonCause == UnknownCause::Timing) {
          R->PerAccess[I].UnknownReason = Ran.UnknownReason;
          R->PerAccess[I].ReasonCause = Ran.ReasonCause;
        }
        Replaced = true;
      }
    }
    if (Replaced)
      computeMetrics(*R);
  }
  // What each leaves unaccounted: unknown accesses (not those timing
  // decides, a retry loop's fewest requests or racing atomics' addresses,
  // nor those with proven bounds: no one could say more of them), and for
  // the model the SASS instructions no access stands for and the
  // constructs it skipped.
  auto Gaps = [](const LaunchResult &X) {
    size_t N = size_t(std::count_if(
        X.PerAccess.begin(), X.PerAccess.end(), [](const AccessStats &S) {
          return S.UnknownRequests != 0 &&
                 S.ReasonCause != UnknownCause::Timing && !S.bounded();
        }));
    if (X.K && X.Path == "model")
      N += X.K->Sass.Unclaimed.size() + X.K->Warnings.size() + unproved(*X.K);
    return N;
  };
  if (O.Path == "auto" && !complete(*R) &&
      (!R->Incomplete.empty() || Gaps(*R) >= Gaps(Model))) {
    Model.PathWhy = "the model is not complete, and the executed PTX is no "
                    "more so" +
                    (R->Incomplete.empty() ? "" : " (" + R->Incomplete + ")");
    return std::nullopt;
  }
  R->PathWhy = O.Path == "executed"
                   ? "--path executed"
                   : "the model does not account for every access; the "
                     "launch was run on its PTX";
  for (const std::string &N : Notes)
    R->PathWhy += "; " + N;
  return std::move(*R);
}

Predictor::Predictor(const Module &M, const Options &O) : M(M), O(O) {}
Predictor::~Predictor() = default;

LaunchResult Predictor::predict(const Kernel &K, const Launch &L,
                                const ArchRules &A) {
  SimOptions SO;
  SO.Arch = &A;
  SO.Threads = O.Threads;
  SO.Exhaustive = O.Exhaustive;
  SO.EveryIteration = O.EveryIteration;
  SO.MaxWarps = O.MaxWarps;
  SO.BudgetSeconds = O.SimSeconds;
  SO.OnProgress = terminalProgressBar();
  // Lanes that ran away until an address far from every allocation faulted
  // (a loop bound that wrapped): the launch has no end but the fault, and
  // the model's whole launch none at all. What ran before the fault is
  // reported, as incomplete.
  const bool Runaway = L.Executed && L.Executed->Out.Runaway;
  LaunchResult R =
      O.Path == "executed" || Runaway ? LaunchResult() : simulate(K, L, SO);
  // A kernel with no model has only its execution to price it, whatever
  // --path says.
  const bool NoModel = K.NoModel || Runaway;
  Options Executed = O;
  if (NoModel)
    Executed.Path = "executed";
  if (O.Path != "model" || NoModel) {
    if (std::optional<LaunchResult> E =
            executedPath(M, K, L, Executed, A, Exec, R))
      R = std::move(*E);
    else if (NoModel)
      R.Incomplete = "it has no model, and its execution gave no figures (" +
                     R.PathWhy + ")";
    if (Runaway)
      R.PathWhy = "its recorded run faulted where lanes had run far from "
                  "every allocation: the model, which follows a launch to "
                  "its end, is not evaluated";
  }
  if (R.Path == "model" && Noted.insert(K.Name).second && !O.Quiet)
    for (const auto &[Kernel, Text] : M.ModelNotes)
      if (Kernel == K.Name)
        std::cerr << "gmem-analyze: note: " << Text << "\n";
  // DRAM traffic on the board the launch is described on (--gpu, or the
  // architecture's first).
  const rec::Board *B =
      O.Gpu.empty() ? rec::defaultBoard(int(A.Sm / 10), int(A.Sm % 10))
                    : rec::findBoard(O.Gpu);
  // The instructions issued: what the recording ran (on either path),
  // weighed by what ptxas made of each PTX instruction, on average.
  if (!R.Issue)
    R.Issue = L.Ran;
  if (R.Issue && K.Sass.Read)
    R.SassWarpInstructions = sassWarpInstructions(*R.Issue, K.Sass);
  if (B && R.K && O.TrafficModel) {
    MemorySystem Mem;
    Mem.Product = B->Product;
    Mem.L2Bytes = uint64_t(B->L2Bytes);
    Mem.DramBytesPerSecond =
        double(B->BusWidth) / 8 * double(B->MemClockKHz) * 1e3 * 2;
    Mem.SMs = unsigned(B->SMs);
    Mem.ThreadsPerSM = unsigned(B->ThreadsPerSM);
    Mem.BlocksPerSM = unsigned(B->BlocksPerSM);
    // Nsight Compute locks the SM clock to base; nvprof (before Volta) ran
    // at whatever clock the board boosted to.
    const bool Ncu = B->Major >= 7;
    Mem.ClockHz = double(Ncu ? B->BaseClockKHz : B->ClockKHz) * 1e3;
    Mem.ClockWhy = Ncu ? "its base clock, as Nsight Compute locks it"
                       : "its boost clock, as nvprof ran it";
    // Split in two halves on the A100 and Hopper (measured on the H200).
    R.L2 = predictL2(K, L, A, R, B->Major == 9 || (B->Major == 8 && !B->Minor));
    R.Dram = predictDram(R, Mem, K.Sass);
    R.Time = predictTime(R, Mem);
    R.Board = Mem;
  }
  return R;
}

/// --l2 warm: the launches in the order the program made them, each with
/// what the ones before it and the host's copies left in L2. A result
/// standing for repeats of a launch (a timing loop) keeps its first's
/// figures, and says what each repeat after it moves. A launch whose
/// traffic is not known leaves the L2 as it found it.
static void warmL2(const std::vector<Launch> &Launches,
                   const std::vector<size_t> &Order, Report &Rep) {
  std::vector<std::optional<DramTraffic>> Cold;
  for (const LaunchResult &R : Rep.Launches)
    Cold.push_back(R.Dram);
  std::optional<L2Residency> L2;
  std::vector<bool> Seen(Rep.Launches.size());
  auto Code = [](const LaunchResult &R) { return "code of " + R.K->Name; };
  for (size_t I = 0; I < Order.size(); ++I) {
    LaunchResult &R = Rep.Launches[Order[I]];
    const std::optional<DramTraffic> &C = Cold[Order[I]];
    if (!R.K || !R.Board || !C)
      continue;
    if (!L2) {
      // Every kernel's code went through L2 when its module loaded.
      L2.emplace(R.Board->L2Bytes);
      for (size_t J = 0; J < Rep.Launches.size(); ++J)
        if (Rep.Launches[J].K && Cold[J])
          L2->hostWrote(Code(Rep.Launches[J]), Cold[J]->LaunchBytes, false);
    }
    for (const Launch::HostWrite &W : Launches[I].HostWrites)
      L2->hostWrote(W.Allocation, W.Bytes, W.Set);
    if (!C->Known) {
      if (!Seen[Order[I]])
        R.Dram->Why += "; with a warm L2, what it finds there is not known "
                       "either";
      Seen[Order[I]] = true;
      continue;
    }
    const DramTraffic W = L2->launch(*C, Code(R));
    if (!Seen[Order[I]]) {
      Seen[Order[I]] = true;
      R.Dram = W;
      R.Time = predictTime(R, *R.Board);
    } else {
      R.Dram->RepeatReadBytes = W.ReadBytes;
      R.Dram->RepeatWriteBytes = W.WriteBytes;
    }
  }
}

llvm::Error simulateLaunches(const Module &M,
                             const std::vector<Launch> &Launches,
                             const Options &O, const ArchRules &Arch,
                             Report &Rep) {
  std::set<std::string> Warned;
  for (const Launch &L : Launches) {
    const Kernel *K = M.findKernel(L.Kernel);
    if (!K)
      return llvm::createStringError(where(L, M.File) + "launch of '" +
                                     L.Kernel +
                                     "', a kernel the analyzer could not read");
    if (Expected<void> Valid = validateLaunch(*K, L, Arch); !Valid)
      return llvm::createStringError(where(L, M.File) + Valid.error());
  }
  Rep.Compiler = M.Compiler;
  Predictor P(M, O);
  // A launch repeated with the same configuration and arguments has the
  // same result: simulate it once. Repeated at the same place (a timing
  // loop), it is reported once with its count.
  std::map<std::string, size_t> Done, Here;
  // Per kind of launch (its key but where it was made), the counts of the
  // recording's runs seen.
  std::map<std::string, std::vector<std::string>> Counted;
  // Each launch's result, in the program's order (for a warm L2).
  std::vector<size_t> Order;
  for (const Launch &L : Launches) {
    nlohmann::json Key = toJson(L);
    // Recorded launches: the same arguments over other bytes differ, but
    // where no byte decides a request (a launch the recording had no
    // budget left to run then takes the figures of one it ran: an n-body
    // step's 100 launches over the positions the host moves).
    for (const std::vector<uint8_t> &B : L.ArgBytes)
      Key["bytes"].push_back(B);
    const Kernel *LK = M.findKernel(L.Kernel);
    const bool AnyBytes = LK && readsNoData(*LK);
    for (const ArgValue &A : L.Args) {
      auto I = L.Memory.find(A.Allocation);
      if (A.Kind == ArgValue::Pointer && I != L.Memory.end() && !AnyBytes)
        Key["memory"][A.Allocation] = uintptr_t(I->second.Data.get());
    }
    // A functional recording ran each launch on the memory it had, tables
    // the host rewrote between launches included (__constant__ offsets of
    // bench/ldgsts_lines.cu): launches whose runs counted other requests
    // differ. One it did not run to its end goes with the first of its
    // kind.
    const ExecutedCounts *Ran = L.Executed.get();
    if (Ran && Ran->Priced &&
        (Ran->Out.Finished || Ran->Out.Fault != exec::DeviceFault::None)) {
      ExecutedCounts Requests; // What the figures come from, alone.
      Requests.Stats = Ran->Stats;
      Requests.Misaligned = Ran->Misaligned;
      Requests.L1MissSectors = Ran->L1MissSectors;
      Requests.LineOnly = Ran->LineOnly;
      nlohmann::json Kind = Key;
      Kind.erase("loc");
      std::vector<std::string> &Seen = Counted[Kind.dump()];
      const std::string Counts = countsJson(Requests, 0);
      const size_t Variant =
          size_t(std::find(Seen.begin(), Seen.end(), Counts) - Seen.begin());
      if (Variant == Seen.size())
        Seen.push_back(Counts);
      if (Variant)
        Key["counted"] = Variant;
    }
    auto [At, NewHere] = Here.emplace(Key.dump(), Rep.Launches.size());
    if (!NewHere) {
      ++Rep.Launches[At->second].Count;
      Order.push_back(At->second);
      continue;
    }
    Order.push_back(Rep.Launches.size());
    Key.erase("loc");
    auto [It, New] = Done.emplace(Key.dump(), Rep.Launches.size());
    if (New) {
      const Kernel &K = *M.findKernel(L.Kernel);
      Rep.Launches.push_back(P.predict(K, L, Arch));
      // What the model could not follow matters where its figures are
      // reported; what no path counts, wherever.
      const bool Model = Rep.Launches.back().Path == "model";
      for (const std::string &W : Model ? K.Warnings : K.Uncounted)
        if (Warned.insert(K.Name + "\n" + W).second)
          Rep.Warnings.push_back(L.Memory.empty() ? W : recordedWarning(K, W));
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
  if (O.WarmL2)
    warmL2(Launches, Order, Rep);
  return llvm::Error::success();
}

} // namespace gmem
