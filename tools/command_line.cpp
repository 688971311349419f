//===- command_line.cpp - gmem-analyze's options through llvm::cl ---------===//
//
// The options are llvm::cl options of this executable only (the libraries
// and tests never see them), built when parsing starts rather than at
// static initialisation (see Flags). Values that need a message of their
// own (a block's shape, a range) are read as strings and checked after
// parsing, so a mistake names the flag, the value and what is expected.
//
//===----------------------------------------------------------------------===//
#include "command_line.h"
#include "arch.h"
#include "simulate.h"
#include "record/runtime/boards.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/StringSaver.h"
#include <algorithm>
#include <cstdlib>

namespace cl = llvm::cl;

namespace gmem {
namespace {

/// "4096 -v 'a b'" -> {"4096", "-v", "a b"}, as a shell splits words.
std::vector<std::string> shellWords(const std::string &S) {
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  llvm::SmallVector<const char *, 8> Words;
  cl::TokenizeGNUCommandLine(S, Saver, Words);
  return {Words.begin(), Words.end()};
}

/// "32", "32,16" or "32,16,1" -> Dim3; nullopt if malformed.
std::optional<Dim3> parseDim3(const std::string &S) {
  uint64_t V[3] = {1, 1, 1};
  size_t Pos = 0;
  for (int I = 0; I < 3; ++I) {
    size_t End = S.find(',', Pos);
    std::string Part =
        S.substr(Pos, End == std::string::npos ? End : End - Pos);
    if (Part.empty() ||
        Part.find_first_not_of("0123456789") != std::string::npos ||
        Part.size() > 12)
      return std::nullopt;
    V[I] = std::stoull(Part);
    if (End == std::string::npos)
      return Dim3{V[0], V[1], V[2]};
    Pos = End + 1;
  }
  return std::nullopt; // More than three numbers.
}

/// A whole number in [Min, Max], or nullopt.
std::optional<uint64_t> wholeNumber(const std::string &S, uint64_t Min,
                                    uint64_t Max) {
  if (S.empty() || S.find_first_not_of("0123456789") != std::string::npos ||
      S.size() > 18)
    return std::nullopt;
  uint64_t V = std::stoull(S);
  if (V < Min || V > Max)
    return std::nullopt;
  return V;
}

/// A non-negative decimal number up to Max, or nullopt.
std::optional<double> decimal(const std::string &S, double Max) {
  char *End = nullptr;
  double V = std::strtod(S.c_str(), &End);
  if (S.empty() || !End || *End || !(V >= 0) || V > Max)
    return std::nullopt;
  return V;
}

/// Reads the whole number of Flag when it was given; an error ("--flag
/// 'value': Wanted") when it is not one in [Min, Max].
template <typename T>
llvm::Error readNumber(const cl::opt<std::string> &Flag, uint64_t Min,
                       uint64_t Max, const char *Wanted, T &Into) {
  if (!Flag.getNumOccurrences())
    return llvm::Error::success();
  std::optional<uint64_t> V = wholeNumber(Flag, Min, Max);
  if (!V)
    return llvm::createStringError(
        "-" + std::string(Flag.ArgStr.size() > 1 ? "-" : "") +
        Flag.ArgStr.str() + " '" + Flag.getValue() + "': " + Wanted);
  Into = T(*V);
  return llvm::Error::success();
}

/// The options, registered when parsing starts: LLVM's own --threads must
/// be unregistered before ours can take the name.
struct Flags {
  cl::OptionCategory AnalysisCat{"Analysis options"};
  cl::OptionCategory GateCat{
      "CI gate options (any of these, several files, or --format "
      "diagnostics|sarif)"};

  // Inputs and launches.
  cl::list<std::string> Inputs{cl::Positional, cl::desc("<file.cu>..."),
                               cl::cat(AnalysisCat)};
  cl::opt<std::string> Block{"block", cl::value_desc("X[,Y[,Z]]"),
                             cl::desc("block of every launch (host code "
                                      "re-derives grids)"),
                             cl::cat(AnalysisCat)};
  cl::opt<std::string> Grid{"grid", cl::value_desc("X[,Y[,Z]]"),
                            cl::desc("grid of every launch"),
                            cl::cat(AnalysisCat)};
  cl::opt<std::string> Kernel{
      "kernel", cl::value_desc("NAME"),
      cl::desc("only this kernel ('name<32>' for a template instance;\n"
               "'regex:PATTERN' for every kernel whose name matches, "
               "as\nNsight Compute's --kernel-name)"),
      cl::cat(AnalysisCat)};
  cl::list<std::string> KernelArgs{"arg", cl::value_desc("NAME=VALUE"),
                                   cl::desc("value of a kernel parameter "
                                            "(repeatable)"),
                                   cl::cat(AnalysisCat)};
  cl::opt<std::string> DynamicSmem{"dynamic-smem", cl::value_desc("BYTES"),
                                   cl::desc("dynamic shared memory of every "
                                            "launch"),
                                   cl::cat(AnalysisCat)};
  cl::opt<std::string> RunArgs{"run-args", cl::value_desc("ARGS"),
                               cl::desc("run main() as if given these "
                                        "arguments (default: none)"),
                               cl::cat(AnalysisCat)};
  cl::opt<std::string> SmCount{
      "sm-count", cl::value_desc("N"),
      cl::desc("the number of SMs the host code reads from\n"
               "cudaGetDeviceProperties (default: unknown)"),
      cl::cat(AnalysisCat)};
  cl::opt<std::string> LaunchSkip{"launch-skip", cl::value_desc("N"),
                                  cl::desc("leave out the first N launches (of "
                                           "--kernel's kernels when\ngiven), "
                                           "as Nsight Compute does"),
                                  cl::cat(AnalysisCat)};
  cl::opt<std::string> LaunchCount{
      "launch-count", cl::value_desc("N"),
      cl::desc("analyse N launches after those (of --kernel's kernels);\n"
               "without --kernel, recording stops the program there"),
      cl::cat(AnalysisCat)};
  // Nsight Compute's short spellings.
  cl::alias KernelShort{"k", cl::aliasopt(Kernel),
                        cl::desc("the same as --kernel (ncu's -k)"),
                        cl::cat(AnalysisCat)};
  cl::alias LaunchSkipShort{"s", cl::aliasopt(LaunchSkip),
                            cl::desc("the same as --launch-skip (ncu's -s)"),
                            cl::cat(AnalysisCat)};
  cl::alias LaunchCountShort{"c", cl::aliasopt(LaunchCount),
                             cl::desc("the same as --launch-count (ncu's -c)"),
                             cl::cat(AnalysisCat)};

  // What to predict with, and how.
  cl::opt<std::string> Arch{"arch", cl::value_desc("sm_XX"), cl::init("sm_90"),
                            cl::desc("hardware rules (default sm_90; sm_35:8 "
                                     "for Kepler's 8-byte banks)"),
                            cl::cat(AnalysisCat)};
  cl::opt<std::string> Format{
      "format", cl::value_desc("FORMAT"),
      cl::desc("text, json, html (a report with pictures) or svg (one\n"
               "access's picture, with --access); the gate's diagnostics\n"
               "(its default) or sarif"),
      cl::cat(AnalysisCat)};
  cl::opt<std::string> AccessLine{
      "access", cl::value_desc("LINE"),
      cl::desc("--format svg: draw the access on this source line"),
      cl::cat(AnalysisCat)};
  cl::opt<bool> EmitModel{"emit-model",
                          cl::desc("print the kernel model as JSON and stop"),
                          cl::cat(AnalysisCat)};
  cl::opt<std::string> Model{
      "model", cl::value_desc("FILE"),
      cl::desc("read a kernel model written by --emit-model instead of a "
               ".cu file\n(its recorded launches, or --kernel, --grid, "
               "--block and --arg)"),
      cl::cat(AnalysisCat)};
  cl::opt<std::string> Compare{
      "compare", cl::value_desc("FILE"),
      cl::desc("compare with measurements (gmem-verify JSON, ncu CSV, "
               "nvprof CSV\nor nvprof's printed tables); exit 1 on an "
               "unexplained difference"),
      cl::cat(AnalysisCat)};
  cl::opt<bool> Strict{"strict",
                       cl::desc("with --compare: exit 1 on any difference"),
                       cl::cat(AnalysisCat)};
  cl::opt<std::string> Threads{"threads", cl::value_desc("N"),
                               cl::desc("simulation threads (default: one per "
                                        "core)"),
                               cl::cat(AnalysisCat)};
  cl::opt<bool> Exhaustive{
      "exhaustive",
      cl::desc("run every warp of every block (the reference) instead of\n"
               "classes of alike blocks; same counts, slower"),
      cl::cat(AnalysisCat)};
  cl::opt<bool> EveryIteration{
      "every-iteration",
      cl::desc("run every iteration of every loop (the reference) instead "
               "of\ncounting long loops by their periods; same counts, slower"),
      cl::cat(AnalysisCat)};
  cl::opt<std::string> Path{
      "path", cl::value_desc("model|executed|auto"),
      cl::desc("what produces the figures: the kernel model (simulated),\n"
               "the PTX nvcc emitted (run warp by warp), or auto: the model\n"
               "where it is complete, the PTX where it is not"),
      cl::cat(AnalysisCat)};
  cl::opt<bool> NoTrafficModel{
      "no-traffic-model",
      cl::desc("leave out the DRAM traffic and duration model (for\n"
               "scripts/bench_traffic.py, which times what it adds)"),
      cl::Hidden, cl::cat(AnalysisCat)};
  cl::opt<std::string> L2State{
      "l2", cl::value_desc("flushed|warm"),
      cl::desc("the L2 each launch starts with: flushed (the default, as\n"
               "Nsight Compute profiles) or warm: what the launches before\n"
               "it and the host's copies left there, as a program runs\n"
               "unprofiled (needs recorded launches)"),
      cl::cat(AnalysisCat)};
  cl::opt<std::string> ExecBudget{
      "exec-budget", cl::value_desc("SECONDS"),
      cl::desc("when recording: run the kernels on their PTX for at most\n"
               "this long in all (default 60), so that device memory holds\n"
               "what a GPU computes; 0 records without running them"),
      cl::cat(AnalysisCat)};
  cl::opt<std::string> SimBudget{
      "sim-budget", cl::value_desc("SECONDS"),
      cl::desc("evaluate one launch's warps one by one for at most this\n"
               "long (default 300; 0: no limit); a launch that needs more\n"
               "is reported as not simulated"),
      cl::cat(AnalysisCat)};
  cl::opt<std::string> MaxWarps{
      "max-warps", cl::value_desc("N"),
      cl::desc("evaluate at most N warps one by one per launch "
               "(default 8388608);\na launch that needs more is "
               "reported as not simulated"),
      cl::cat(AnalysisCat)};
  cl::opt<std::string> CudaPath{"cuda-path", cl::value_desc("DIR|none"),
                                cl::desc("CUDA installation to parse with "
                                         "(default: detect)"),
                                cl::cat(AnalysisCat)};
  cl::opt<std::string> Compiler{
      "compiler", cl::value_desc("source|nvcc"),
      cl::desc("count the instructions nvcc emits (default when a toolkit "
               "is\nfound) or the source's accesses"),
      cl::cat(AnalysisCat)};
  cl::opt<std::string> Nvcc{"nvcc", cl::value_desc("PATH"),
                            cl::desc("the nvcc to compile with (default: PATH, "
                                     "CUDA_PATH, /usr/local/cuda)"),
                            cl::cat(AnalysisCat)};
  cl::opt<std::string> CacheDir{"cache-dir", cl::value_desc("DIR"),
                                cl::desc("where compiled SASS is kept (default "
                                         "~/.cache/gmem)"),
                                cl::cat(AnalysisCat)};
  cl::opt<std::string> Host{
      "host", cl::value_desc("auto|record|interpret"), cl::init("auto"),
      cl::desc("where launches come from: nvcc builds the program and it "
               "runs\nwith --run-args against gmem's recording CUDA runtime, "
               "on no GPU\n(record); or gmem reads the host code (interpret). "
               "auto, the\ndefault: record when nvcc builds the program, else "
               "interpret"),
      cl::cat(AnalysisCat)};
  cl::opt<std::string> Gpu{"gpu", cl::value_desc("NAME"),
                           cl::desc("when recording: the board the runtime "
                                    "describes (default: one\nof --arch; "
                                    "h100-sxm for sm_90)"),
                           cl::cat(AnalysisCat)};
  cl::opt<std::string> TimeLimit{"time-limit", cl::value_desc("SECONDS"),
                                 cl::desc("when recording: stop the program "
                                          "after this long (default 120,\nor "
                                          "60 more than --exec-budget if "
                                          "that is more)"),
                                 cl::cat(AnalysisCat)};
  cl::opt<std::string> NvccFlags{
      "nvcc-flags", cl::value_desc("FLAGS"),
      cl::desc("when recording: more flags for "
               "nvcc's build (libraries,\n-Xcompiler "
               "-fopenmp)"),
      cl::cat(AnalysisCat)};

  // The CI gate.
  cl::opt<std::string> Checks{"checks", cl::value_desc("GLOBS"),
                              cl::desc("which rules run, clang-tidy globs "
                                       "(default '*'):\n"
                                       "--checks=-*,gmem-bank-conflict"),
                              cl::cat(GateCat)};
  cl::opt<bool> ListChecks{"list-checks",
                           cl::desc("every rule, its meaning and default "
                                    "threshold"),
                           cl::cat(GateCat)};
  cl::list<std::string> FailOn{
      "fail-on", cl::value_desc("GLOBS"),
      cl::desc("findings of these rules are errors (exit 1); also "
               "spelled --warnings-as-errors"),
      cl::cat(GateCat)};
  cl::alias WarningsAsErrors{"warnings-as-errors", cl::aliasopt(FailOn),
                             cl::desc("the same as --fail-on"),
                             cl::cat(GateCat)};
  cl::opt<std::string> MinEfficiency{"min-efficiency", cl::value_desc("PCT"),
                                     cl::desc("a global access below PCT% "
                                              "efficiency is an error"),
                                     cl::cat(GateCat)};
  cl::opt<std::string> MaxConflictWays{"max-conflict-ways", cl::value_desc("N"),
                                       cl::desc("a bank conflict of more than "
                                                "N ways is an error"),
                                       cl::cat(GateCat)};
  cl::opt<std::string> Baseline{"baseline", cl::value_desc("FILE"),
                                cl::desc("compare with a recorded baseline: "
                                         "exit 1 when a figure got\nworse "
                                         "beyond --tolerance"),
                                cl::cat(GateCat)};
  cl::opt<bool> UpdateBaseline{"update-baseline",
                               cl::desc("write the current figures to the "
                                        "--baseline FILE"),
                               cl::cat(GateCat)};
  cl::opt<std::string> Tolerance{"tolerance", cl::value_desc("PCT"),
                                 cl::desc("relative change that counts "
                                          "(default 0)"),
                                 cl::cat(GateCat)};
  cl::opt<std::string> LaunchFile{"launches", cl::value_desc("FILE"),
                                  cl::desc("JSON naming kernels, grids, blocks "
                                           "and argument values for\nkernels "
                                           "no main() launches"),
                                  cl::cat(GateCat)};
  cl::opt<std::string> BuildPath{
      "p", cl::Prefix, cl::value_desc("BUILD_DIR"),
      cl::desc("read compile_commands.json there (nvcc flags are translated "
               "or\ndropped); with no file named, analyse every .cu file it "
               "compiles"),
      cl::cat(GateCat)};
  cl::list<std::string> ExtraArgs{"extra-arg", cl::value_desc("ARG"),
                                  cl::desc("append ARG to each file's compiler "
                                           "arguments"),
                                  cl::cat(GateCat)};
  cl::list<std::string> ExtraArgsBefore{
      "extra-arg-before", cl::value_desc("ARG"),
      cl::desc("prepend ARG to them"), cl::cat(GateCat)};
  cl::opt<std::string> Jobs{"j", cl::Prefix, cl::value_desc("N"),
                            cl::desc("files analysed in parallel (default: "
                                     "one per core)"),
                            cl::cat(GateCat)};
  cl::opt<std::string> SarifFile{"sarif", cl::value_desc("FILE"),
                                 cl::desc("also write SARIF to FILE"),
                                 cl::cat(GateCat)};
  cl::opt<std::string> ExportFixes{
      "export-fixes", cl::value_desc("FILE"),
      cl::desc("write the findings and their checked fixes as "
               "clang-tidy does\n(YAML for "
               "clang-apply-replacements)"),
      cl::cat(GateCat)};
  cl::opt<bool> Color{"fcolor-diagnostics", cl::desc("colour the findings"),
                      cl::cat(GateCat)};
  cl::opt<bool> NoColor{"fno-color-diagnostics",
                        cl::desc("do not colour them (default: colour on a "
                                 "terminal)"),
                        cl::cat(GateCat)};
  cl::opt<bool> Fix{"fix",
                    cl::desc("apply the checked fixes' edits to the source "
                             "files,\nas clang-tidy --fix does"),
                    cl::cat(GateCat)};
  cl::opt<bool> DumpConfig{
      "dump-config",
      cl::desc("print the configuration that applies to the file (the\n"
               "nearest .gmem with the command line's flags) and exit"),
      cl::cat(GateCat)};
  cl::opt<std::string> ConfigFile{
      "config-file", cl::value_desc("PATH"),
      cl::desc("read the configuration from PATH instead of the nearest\n"
               ".gmem"),
      cl::cat(GateCat)};
  cl::opt<bool> Quiet{"quiet",
                      cl::desc("findings without their notes; no summary "
                               "line\nand no notes on stderr"),
                      cl::cat(GateCat)};

  cl::extrahelp MoreHelp{R"(
Several files are one program: main() in one, kernels and launch wrappers in
the others. Launches come from the host code unless --grid and --block give
them. Words after "--" are passed to Clang (-DNAME=VALUE, -I DIR).

A .gmem file (YAML: Checks, WarningsAsErrors, MinEfficiency,
MaxConflictWays) in a file's folder or above sets its defaults, as
.clang-tidy does; --checks and --fail-on are appended to its lists.
A '// NOLINT(gmem-rule)' comment on a finding's line suppresses it
('// NOLINTNEXTLINE(...)' on the line before, '// NOLINTBEGIN(...)' and
'// NOLINTEND(...)' around lines).

Exit codes: 0 done, 1 findings (an out-of-bounds access, a failed
comparison, an error-level gate finding or a regression), 2 bad usage,
input or I/O.
)"};

  llvm::Error fillOptions(Options &O) {
    for (const std::string &F : Inputs) {
      if (O.File.empty())
        O.File = F;
      O.Files.push_back(F);
    }
    for (auto *Flag : {&Block, &Grid}) {
      if (!Flag->getNumOccurrences())
        continue;
      std::optional<Dim3> D = parseDim3(*Flag);
      if (!D)
        return llvm::createStringError(
            "--" + Flag->ArgStr.str() + " '" + Flag->getValue() +
            "': expected X[,Y[,Z]] with whole numbers");
      (Flag == &Block ? O.Overrides.Block : O.Overrides.Grid) = *D;
    }
    for (const std::string &A : KernelArgs) {
      size_t Eq = A.find('=');
      if (Eq == 0 || Eq == std::string::npos || Eq + 1 == A.size())
        return llvm::createStringError("--arg '" + A +
                                       "': expected NAME=VALUE");
      O.Overrides.Args[A.substr(0, Eq)] = A.substr(Eq + 1);
    }
    uint64_t Bytes = 0;
    if (llvm::Error E = readNumber(DynamicSmem, 0, UINT64_MAX,
                                   "expected a number of bytes", Bytes))
      return E;
    if (DynamicSmem.getNumOccurrences())
      O.Overrides.DynamicSmem = Bytes;
    unsigned Sms = 0;
    if (llvm::Error E = readNumber(SmCount, 1, 4096,
                                   "expected the GPU's number of SMs (e.g. "
                                   "132 for an H100 SXM)",
                                   Sms))
      return E;
    if (SmCount.getNumOccurrences())
      O.Overrides.SmCount = Sms;
    if (RunArgs.getNumOccurrences())
      O.Overrides.RunArgs = shellWords(RunArgs);
    if (NvccFlags.getNumOccurrences())
      O.NvccFlags = shellWords(NvccFlags);
    if (llvm::Error E = readNumber(
            Threads, 1, 1024, "expected a number from 1 to 1024", O.Threads))
      return E;
    if (llvm::Error E = readNumber(MaxWarps, 1, UINT64_MAX,
                                   "expected a positive number", O.MaxWarps))
      return E;
    if (llvm::Error E = readNumber(
            TimeLimit, 1, 86400, "give whole seconds, 1 to 86400", O.TimeLimit))
      return E;
    if (llvm::Error E =
            readNumber(LaunchSkip, 0, UINT64_MAX,
                       "give a whole number of launches", O.LaunchSkip))
      return E;
    if (llvm::Error E = readNumber(LaunchCount, 1, UINT64_MAX,
                                   "give a whole number of launches, at "
                                   "least 1",
                                   O.LaunchCount))
      return E;
    if (Compiler.getNumOccurrences() && Compiler != "source" &&
        Compiler != "nvcc")
      return llvm::createStringError("--compiler '" + Compiler +
                                     "': use source or nvcc");
    if (Host != "auto" && Host != "interpret" && Host != "record")
      return llvm::createStringError("--host '" + Host +
                                     "': use auto, record or interpret");
    O.Kernel = Kernel;
    if (llvm::StringRef(O.Kernel).starts_with("regex:")) {
      std::string Why;
      if (!llvm::Regex(O.Kernel.substr(6)).isValid(Why))
        return llvm::createStringError("--kernel '" + O.Kernel +
                                       "': not a regular expression (" + Why +
                                       ")");
    }
    O.Arch = Arch;
    // A board is of one architecture: --gpu alone sets it; with --arch,
    // both must name the same.
    if (Gpu.getNumOccurrences()) {
      const rec::Board *B = rec::findBoard(Gpu);
      if (!B)
        return llvm::createStringError("--gpu '" + Gpu +
                                       "': not a known board; one of " +
                                       rec::boardNames());
      const std::string BoardArch =
          "sm_" + std::to_string(B->Major) + std::to_string(B->Minor);
      if (Arch.getNumOccurrences() &&
          llvm::StringRef(O.Arch).split(':').first != BoardArch)
        return llvm::createStringError(
            "--gpu " + Gpu + " is a " + BoardArch + " board (" + B->Product +
            ") but --arch is " + O.Arch + "; give one of them");
      if (!Arch.getNumOccurrences())
        O.Arch = BoardArch;
    }
    // The architecture's limits on --grid and --block, before anything is
    // built (an unknown --arch is reported by the caller).
    if (const ArchRules *A = findArch(O.Arch))
      if (Expected<void> Dims =
              validateDims(O.Overrides.Grid ? &*O.Overrides.Grid : nullptr,
                           O.Overrides.Block ? &*O.Overrides.Block : nullptr,
                           *A);
          !Dims)
        return llvm::createStringError(Dims.error());
    if (Format.getNumOccurrences())
      O.Format = Format;
    if (llvm::Error E = readNumber(AccessLine, 1, UINT32_MAX,
                                   "expected a line number", O.AccessLine))
      return E;
    if ((O.Format == "svg") != (O.AccessLine != 0))
      return llvm::createStringError(llvm::Twine(
          O.AccessLine ? "--access draws a picture: give --format svg"
                       : "--format svg draws one access: give --access LINE "
                         "(and --kernel NAME where several kernels have an "
                         "access there)"));
    O.EmitModel = EmitModel;
    O.Model = Model;
    O.Compare = Compare;
    O.Strict = Strict;
    O.Exhaustive = Exhaustive;
    O.EveryIteration = EveryIteration;
    O.TrafficModel = !NoTrafficModel;
    if (L2State.getNumOccurrences()) {
      if (L2State != "flushed" && L2State != "warm")
        return llvm::createStringError("--l2 '" + L2State +
                                       "': expected flushed or warm");
      O.WarmL2 = L2State == "warm";
    }
    if (Path.getNumOccurrences()) {
      if (Path != "model" && Path != "executed" && Path != "auto")
        return llvm::createStringError(
            "--path '" + Path + "': expected model, executed or auto");
      O.Path = Path;
    }
    // Budgets in seconds, 0 or more.
    auto Seconds = [](const cl::opt<std::string> &Opt, const char *Flag,
                      double &Out) -> llvm::Error {
      if (!Opt.getNumOccurrences())
        return llvm::Error::success();
      char *End = nullptr;
      const double V = std::strtod(Opt.c_str(), &End);
      if (Opt.empty() || *End || V < 0)
        return llvm::createStringError(std::string("--") + Flag + " '" + Opt +
                                       "': expected seconds (0 or more)");
      Out = V;
      return llvm::Error::success();
    };
    if (llvm::Error E = Seconds(ExecBudget, "exec-budget", O.ExecSeconds))
      return E;
    if (llvm::Error E = Seconds(SimBudget, "sim-budget", O.SimSeconds))
      return E;
    // The recorded run's limit counts its kernels' execution: a larger
    // budget must not be cut short by the default limit (HSOpticalFlow
    // with --exec-budget 1200 was, at 120 s, after its last launch).
    if (!TimeLimit.getNumOccurrences())
      O.TimeLimit = unsigned(
          std::min(86400.0, std::max(double(O.TimeLimit), O.ExecSeconds + 60)));
    O.CudaPath = CudaPath;
    O.Compiler = Compiler;
    O.Nvcc = Nvcc;
    O.CacheDir = CacheDir;
    O.Host = Host;
    O.Gpu = Gpu;
    return llvm::Error::success();
  }

  llvm::Error fillGateOptions(GateOptions &G) {
    G.Checks = Checks;
    for (const std::string &F : FailOn)
      G.FailOn += (G.FailOn.empty() ? "" : ",") + F;
    if (MinEfficiency.getNumOccurrences()) {
      G.MinEfficiencyPct = decimal(MinEfficiency, 100);
      if (!G.MinEfficiencyPct)
        return llvm::createStringError("--min-efficiency '" + MinEfficiency +
                                       "': expected a percentage");
    }
    uint64_t Ways = 0;
    if (llvm::Error E = readNumber(MaxConflictWays, 1, 1024,
                                   "expected a whole number of ways, 1 or "
                                   "more",
                                   Ways))
      return E;
    if (MaxConflictWays.getNumOccurrences())
      G.MaxConflictWays = Ways;
    if (Tolerance.getNumOccurrences()) {
      std::optional<double> T = decimal(Tolerance, 1e9);
      if (!T)
        return llvm::createStringError("--tolerance '" + Tolerance +
                                       "': expected a percentage");
      G.TolerancePct = *T;
    }
    if (llvm::Error E =
            readNumber(Jobs, 1, 256, "expected a number from 1 to 256", G.Jobs))
      return E;
    G.Baseline = Baseline;
    G.UpdateBaseline = UpdateBaseline;
    if (G.UpdateBaseline && G.Baseline.empty())
      return llvm::createStringError(
          "--update-baseline needs --baseline FILE to write");
    G.BuildPath = BuildPath;
    G.ExtraArgs.assign(ExtraArgs.begin(), ExtraArgs.end());
    G.ExtraArgsBefore.assign(ExtraArgsBefore.begin(), ExtraArgsBefore.end());
    G.SarifFile = SarifFile;
    G.ExportFixes = ExportFixes;
    G.LaunchFile = LaunchFile;
    if (Color.getNumOccurrences() || NoColor.getNumOccurrences())
      G.Color = Color.getPosition() > NoColor.getPosition();
    G.ListChecks = ListChecks;
    G.Quiet = Quiet;
    G.Fix = Fix;
    G.DumpConfig = DumpConfig;
    G.ConfigFile = ConfigFile;
    // Some gate flag was given: the run is the gate's.
    for (const auto &Entry : cl::getRegisteredOptions())
      if (llvm::is_contained(Entry.second->Categories, &GateCat) &&
          Entry.second->getNumOccurrences())
        G.Any = true;
    return llvm::Error::success();
  }
};

} // namespace

llvm::Error
parseCommandLine(int Argc, const char *const *Argv, Options &O, GateOptions &G,
                 std::function<void(llvm::raw_ostream &)> PrintVersion) {
  // Words after "--" are Clang's, not positional inputs.
  std::vector<const char *> Ours;
  int I = 0;
  for (; I < Argc && llvm::StringRef(Argv[I]) != "--"; ++I)
    Ours.push_back(Argv[I]);
  if (I < Argc)
    O.ClangArgs.assign(Argv + I + 1, Argv + Argc);

  // LLVM's --threads (for its own passes) would clash with ours.
  if (cl::Option *Theirs = cl::getRegisteredOptions().lookup("threads"))
    Theirs->removeArgument();
  static Flags F;
  cl::HideUnrelatedOptions({&F.AnalysisCat, &F.GateCat});
  cl::SetVersionPrinter(std::move(PrintVersion));
  std::string Messages;
  llvm::raw_string_ostream Errs(Messages);
  if (!cl::ParseCommandLineOptions(
          int(Ours.size()), Ours.data(),
          "Predicts, without a GPU, the global sectors per request, "
          "load/store\nefficiency and shared-memory wavefronts of every "
          "memory access of every\nkernel launch, and gates CI on them.\n\n"
          "  gmem-analyze FILE.cu [FILE...] [options] [-- clang args]\n"
          "  gmem-analyze --model MODEL.json [options]\n",
          &Errs)) {
    // LLVM's lines each start with the program's name; the caller adds it.
    llvm::StringRef M = llvm::StringRef(Messages).trim();
    M.consume_front(llvm::sys::path::filename(Argv[0]));
    M.consume_front(": ");
    // Some of LLVM's messages (a missing value) go to stderr directly.
    return llvm::createStringError(M.empty() ? "bad command line; see --help"
                                             : M.str());
  }
  if (llvm::Error E = F.fillGateOptions(G))
    return E;
  if (llvm::Error E = F.fillOptions(O))
    return E;
  if (!O.Model.empty() && !O.File.empty())
    return llvm::createStringError("both a source file ('" + O.File +
                                   "') and --model " + O.Model +
                                   "; give one of them");
  if (O.File.empty() && O.Model.empty() && G.BuildPath.empty() &&
      !G.ListChecks && !G.DumpConfig)
    return llvm::createStringError(
        "no input file; usage: gmem-analyze FILE.cu [options] (see --help)");
  return llvm::Error::success();
}

} // namespace gmem
