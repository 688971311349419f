//===- options.h - What gmem-analyze was asked to do ----------------------===//
//
// Filled from the command line by command_line.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_TOOLS_OPTIONS_H
#define GMEM_TOOLS_OPTIONS_H

#include "translate.h"
#include <optional>
#include <string>
#include <vector>

namespace gmem {

struct Options {
  std::string File;
  /// Every input file, File first; several are the files of one program.
  std::vector<std::string> Files;
  LaunchOverrides Overrides;
  std::string Kernel; ///< --kernel: only this kernel ("name" or "name<32>").
  std::string Arch = "sm_90";
  std::string Format = "text";
  unsigned AccessLine = 0; ///< --access: the line --format svg draws.
  bool EmitModel = false;
  std::string Model;   ///< --model FILE: a kernel model instead of a .cu file.
  std::string Compare; ///< --compare FILE
  bool Strict = false;
  unsigned Threads = 0;
  bool Exhaustive = false;        ///< --exhaustive
  bool EveryIteration = false;    ///< --every-iteration
  bool TrafficModel = true;       ///< Not --no-traffic-model
  /// --l2 warm: each launch finds in L2 what the launches before it and the
  /// host's copies left there (simulator/l2_residency.h), not a flushed L2.
  bool WarmL2 = false;
  /// --path model|executed|auto: the kernel model, the PTX run, or the
  /// model where it is complete and the PTX where it is not.
  std::string Path = "auto";
  /// --exec-budget: seconds a recorded run may spend running its kernels
  /// on their PTX (0: record without running them).
  double ExecSeconds = 60;
  uint64_t MaxWarps = 1ull << 23; ///< --max-warps (DefaultMaxWarps)
  double SimSeconds = 300;        ///< --sim-budget, per launch (0: none).
  std::string CudaPath;
  std::string Compiler; ///< --compiler source|nvcc; empty: nvcc when found.
  std::string Nvcc;     ///< --nvcc PATH.
  std::string CacheDir; ///< --cache-dir; empty: ~/.cache/gmem.
  std::string Host = "auto"; ///< --host auto|record|interpret.
  std::string Gpu;           ///< --gpu: the board recording answers for.
  unsigned TimeLimit = 120;  ///< --time-limit: seconds a recorded run.
  uint64_t LaunchCount = 0;  ///< --launch-count: N launches (0: all).
  uint64_t LaunchSkip = 0;   ///< --launch-skip: leave out the first N.
  std::vector<std::string> NvccFlags; ///< --nvcc-flags: for the build.
  std::vector<std::string> ClangArgs; ///< After "--".
  bool Quiet = false; ///< The gate's --quiet: no notes on stderr.
};

} // namespace gmem

#endif // GMEM_TOOLS_OPTIONS_H
