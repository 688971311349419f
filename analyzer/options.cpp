//===- options.cpp - gmem-analyze's command line --------------------------===//
#include "options.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/StringSaver.h"
#include <cerrno>
#include <cstdlib>

namespace gmem {

const char *UsageText =
    R"(usage: gmem-analyze FILE.cu [FILE...] [options] [-- clang args]
       gmem-analyze --model MODEL.json [options]

Predicts, without a GPU, the global sectors per request, load/store efficiency
and shared-memory wavefronts of every memory access of every kernel launch.
Launches come from the host code (main and what it calls) unless given here.
Several files are one program: main() in one, kernels and launch wrappers in
the others.

  --block X[,Y[,Z]]     block of every launch (host code re-derives grids)
  --grid X[,Y[,Z]]      grid of every launch
  --kernel NAME         only this kernel ('name<32>' for a template instance;
                        'regex:PATTERN' for every kernel whose name matches,
                        as Nsight Compute's --kernel-name)
  --arg NAME=VALUE      value of a kernel parameter (repeatable)
  --dynamic-smem BYTES  dynamic shared memory of every launch
  --run-args "ARGS"     run main() as if given these arguments (default: none)
  --sm-count N          the number of SMs the host code reads from
                        cudaGetDeviceProperties (default: unknown)
  --arch sm_XX          hardware rules (default sm_90)
  --format text|json    output form (default text)
  --emit-model          print the kernel model as JSON and stop
  --model FILE          read a kernel model written by --emit-model instead
                        of a .cu file (its recorded launches, or --kernel,
                        --grid, --block and --arg)
  --compare FILE        compare with measurements (gmem-verify JSON, ncu
                        CSV, nvprof CSV or nvprof's printed tables); exit 1
                        on an unexplained difference
  --strict              with --compare: exit 1 on any difference
  --threads N           simulation threads (default: one per core)
  --exhaustive          run every warp of every block (the reference) instead
                        of classes of alike blocks; same counts, slower
  --every-iteration     run every iteration of every loop (the reference)
                        instead of counting long loops by their periods;
                        same counts, slower
  --max-warps N         evaluate at most N warps one by one per launch
                        (default 8388608); a launch that needs more is
                        reported as not simulated
  --cuda-path DIR|none  CUDA installation to parse with (default: detect)
  --compiler source|nvcc
                        count the instructions nvcc emits (default when a
                        toolkit is found) or the source's accesses
  --nvcc PATH           the nvcc to compile with (default: PATH, CUDA_PATH,
                        /usr/local/cuda)
  --cache-dir DIR       where compiled SASS is kept (default ~/.cache/gmem)
  --host auto|record|interpret
                        where launches come from: nvcc builds the program
                        and it runs with --run-args against gmem's recording
                        CUDA runtime, on no GPU (record); or gmem reads the
                        host code (interpret). auto, the default: record
                        when nvcc builds the program, else interpret (the
                        report says which, and why)
  --gpu NAME            when recording: the board the runtime describes
                        (default: one of --arch; h100-sxm for sm_90)
  --time-limit SECONDS  when recording: stop the program after this long
                        (default 120)
  --launch-skip N       leave out the first N launches (of --kernel's
                        kernels when given), as Nsight Compute does
  --launch-count N      analyse N launches after those (of --kernel's
                        kernels); without --kernel, recording stops the
                        program there
  --nvcc-flags "FLAGS"  when recording: more flags for nvcc's build
                        (libraries, -Xcompiler -fopenmp)
  --help                this text
  --version             gmem's release, its Clang and CUDA major, and the
                        folders of its own files it reads

Exit codes: 0 done, 1 findings (out-of-bounds access, comparison failed),
2 bad input.
)";

/// "4096 -v 'a b'" -> {"4096", "-v", "a b"}, as a shell splits words.
static std::vector<std::string> shellWords(const std::string &S) {
  llvm::BumpPtrAllocator Alloc;
  llvm::StringSaver Saver(Alloc);
  llvm::SmallVector<const char *, 8> Words;
  llvm::cl::TokenizeGNUCommandLine(S, Saver, Words);
  return {Words.begin(), Words.end()};
}

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

static bool parseUnsigned(const std::string &S, uint64_t &V) {
  if (S.empty() || S.find_first_not_of("0123456789") != std::string::npos ||
      S.size() > 18)
    return false;
  V = std::stoull(S);
  return true;
}

std::optional<Options> parseOptions(const std::vector<std::string> &Args,
                                    std::string &Error, bool FilesOptional) {
  Options O;
  for (size_t I = 0; I < Args.size(); ++I) {
    const std::string &A = Args[I];
    auto Value = [&](const char *Flag) -> const std::string * {
      if (I + 1 >= Args.size()) {
        Error = std::string(Flag) + " needs a value";
        return nullptr;
      }
      return &Args[++I];
    };
    if (A == "--") {
      O.ClangArgs.assign(Args.begin() + I + 1, Args.end());
      break;
    }
    if (A == "--help" || A == "-h") {
      O.Help = true;
    } else if (A == "--version") {
      O.Version = true;
    } else if (A == "--block" || A == "--grid") {
      const std::string *V = Value(A.c_str());
      if (!V)
        return std::nullopt;
      auto D = parseDim3(*V);
      if (!D) {
        Error = A + " '" + *V + "': expected X[,Y[,Z]] with whole numbers";
        return std::nullopt;
      }
      (A == "--block" ? O.Overrides.Block : O.Overrides.Grid) = *D;
    } else if (A == "--kernel") {
      const std::string *V = Value("--kernel");
      if (!V)
        return std::nullopt;
      O.Kernel = *V;
    } else if (A == "--arg") {
      const std::string *V = Value("--arg");
      if (!V)
        return std::nullopt;
      size_t Eq = V->find('=');
      if (Eq == 0 || Eq == std::string::npos || Eq + 1 == V->size()) {
        Error = "--arg '" + *V + "': expected NAME=VALUE";
        return std::nullopt;
      }
      O.Overrides.Args[V->substr(0, Eq)] = V->substr(Eq + 1);
    } else if (A == "--dynamic-smem") {
      const std::string *V = Value("--dynamic-smem");
      uint64_t N;
      if (!V)
        return std::nullopt;
      if (!parseUnsigned(*V, N)) {
        Error = "--dynamic-smem '" + *V + "': expected a number of bytes";
        return std::nullopt;
      }
      O.Overrides.DynamicSmem = N;
    } else if (A == "--run-args") {
      const std::string *V = Value("--run-args");
      if (!V)
        return std::nullopt;
      O.Overrides.RunArgs = shellWords(*V);
    } else if (A == "--sm-count") {
      const std::string *V = Value("--sm-count");
      uint64_t N;
      if (!V)
        return std::nullopt;
      if (!parseUnsigned(*V, N) || N == 0 || N > 4096) {
        Error = "--sm-count '" + *V +
                "': expected the GPU's number of SMs "
                "(e.g. 132 for an H100 SXM)";
        return std::nullopt;
      }
      O.Overrides.SmCount = unsigned(N);
    } else if (A == "--arch") {
      const std::string *V = Value("--arch");
      if (!V)
        return std::nullopt;
      O.Arch = *V;
    } else if (A == "--format") {
      const std::string *V = Value("--format");
      if (!V)
        return std::nullopt;
      O.Format = *V;
    } else if (A == "--emit-model") {
      O.EmitModel = true;
    } else if (A == "--model") {
      const std::string *V = Value("--model");
      if (!V)
        return std::nullopt;
      O.Model = *V;
    } else if (A == "--compare") {
      const std::string *V = Value("--compare");
      if (!V)
        return std::nullopt;
      O.Compare = *V;
    } else if (A == "--strict") {
      O.Strict = true;
    } else if (A == "--threads") {
      const std::string *V = Value("--threads");
      uint64_t N;
      if (!V)
        return std::nullopt;
      if (!parseUnsigned(*V, N) || N == 0 || N > 1024) {
        Error = "--threads '" + *V + "': expected a number from 1 to 1024";
        return std::nullopt;
      }
      O.Threads = unsigned(N);
    } else if (A == "--exhaustive") {
      O.Exhaustive = true;
    } else if (A == "--every-iteration") {
      O.EveryIteration = true;
    } else if (A == "--max-warps") {
      const std::string *V = Value("--max-warps");
      uint64_t N;
      if (!V)
        return std::nullopt;
      if (!parseUnsigned(*V, N) || N == 0) {
        Error = "--max-warps '" + *V + "': expected a positive number";
        return std::nullopt;
      }
      O.MaxWarps = N;
    } else if (A == "--cuda-path") {
      const std::string *V = Value("--cuda-path");
      if (!V)
        return std::nullopt;
      O.CudaPath = *V;
    } else if (A == "--compiler") {
      const std::string *V = Value("--compiler");
      if (!V)
        return std::nullopt;
      if (*V != "source" && *V != "nvcc") {
        Error = "--compiler '" + *V + "': use source or nvcc";
        return std::nullopt;
      }
      O.Compiler = *V;
    } else if (A == "--host") {
      const std::string *V = Value("--host");
      if (!V)
        return std::nullopt;
      if (*V != "auto" && *V != "interpret" && *V != "record") {
        Error = "--host '" + *V + "': use auto, record or interpret";
        return std::nullopt;
      }
      O.Host = *V;
    } else if (A == "--gpu") {
      const std::string *V = Value("--gpu");
      if (!V)
        return std::nullopt;
      O.Gpu = *V;
    } else if (A == "--time-limit") {
      const std::string *V = Value("--time-limit");
      if (!V)
        return std::nullopt;
      char *End = nullptr;
      unsigned long S = std::strtoul(V->c_str(), &End, 10);
      if (V->empty() || *End || S == 0 || S > 86400) {
        Error = "--time-limit '" + *V + "': give whole seconds, 1 to 86400";
        return std::nullopt;
      }
      O.TimeLimit = unsigned(S);
    } else if (A == "--launch-skip") {
      const std::string *V = Value("--launch-skip");
      if (!V)
        return std::nullopt;
      uint64_t N = 0;
      if (!parseUnsigned(*V, N)) {
        Error = "--launch-skip '" + *V + "': give a whole number of launches";
        return std::nullopt;
      }
      O.LaunchSkip = N;
    } else if (A == "--launch-count") {
      const std::string *V = Value("--launch-count");
      if (!V)
        return std::nullopt;
      char *End = nullptr;
      unsigned long long N = std::strtoull(V->c_str(), &End, 10);
      if (V->empty() || *End || N == 0 || (*V)[0] == '-') {
        Error = "--launch-count '" + *V +
                "': give a whole number of launches, "
                "at least 1";
        return std::nullopt;
      }
      O.LaunchCount = N;
    } else if (A == "--nvcc-flags") {
      const std::string *V = Value("--nvcc-flags");
      if (!V)
        return std::nullopt;
      O.NvccFlags = shellWords(*V);
    } else if (A == "--nvcc") {
      const std::string *V = Value("--nvcc");
      if (!V)
        return std::nullopt;
      O.Nvcc = *V;
    } else if (A == "--cache-dir") {
      const std::string *V = Value("--cache-dir");
      if (!V)
        return std::nullopt;
      O.CacheDir = *V;
    } else if (!A.empty() && A[0] == '-') {
      Error = "unknown option '" + A + "' (see --help)";
      return std::nullopt;
    } else {
      if (O.File.empty())
        O.File = A;
      O.Files.push_back(A);
    }
  }
  if (!O.Model.empty() && !O.File.empty()) {
    Error = "both a source file ('" + O.File + "') and --model " + O.Model +
            "; give one of them";
    return std::nullopt;
  }
  if (O.File.empty() && O.Model.empty() && !O.Help && !O.Version &&
      !FilesOptional) {
    Error = "no input file; usage: gmem-analyze FILE.cu [options]";
    return std::nullopt;
  }
  return O;
}

} // namespace gmem
