//===- simulate.h - Simulate every warp of a launch -----------------------===//
#ifndef GMEM_SIMULATOR_SIMULATE_H
#define GMEM_SIMULATOR_SIMULATE_H

#include "arch.h"
#include "expected.h"
#include "model.h"
#include "progress.h"
#include "result.h"
#include "warp_eval.h"
#include <optional>
#include <string>

namespace gmem {

/// The most warps run one by one for a launch unless --max-warps says
/// otherwise: a few seconds of work on a 2-core machine.
constexpr uint64_t DefaultMaxWarps = uint64_t(1) << 23;

struct SimOptions {
  const ArchRules *Arch = nullptr; ///< Null: sm_90.
  unsigned Threads = 0;            ///< 0: one per core.
  /// Run every warp of every block (the reference) instead of classes of
  /// alike blocks.
  bool Exhaustive = false;
  /// Run every iteration of every loop (the reference) instead of counting
  /// long loops by periods (simulator/loop_skip.h).
  bool EveryIteration = false;
  /// Stop (and report the launch as not simulated) beyond this many warps
  /// evaluated one by one.
  uint64_t MaxWarps = DefaultMaxWarps;
  /// Stop (and report the launch as not simulated) when evaluating warps
  /// one by one has taken this many seconds (0: no limit): a warp's loops
  /// may hold far more work than its count says (a GEMM's K loop).
  double BudgetSeconds = 0;
  /// Reports on a long launch's progress (progress.h); none when empty.
  ProgressFn OnProgress;
};

/// A grid's and a block's own limits on A (no zero dimension, none above
/// the architecture's maximum, threads per block), as validateLaunch words
/// them; either may be null (not given). For --grid and --block before
/// anything is built.
Expected<void> validateDims(const Dim3 *Grid, const Dim3 *Block,
                            const ArchRules &A);

/// Success when the launch can be simulated; otherwise a Failure saying why
/// (bad block or grid, missing argument values) and what to pass instead.
Expected<void> validateLaunch(const Kernel &K, const Launch &L,
                              const ArchRules &A);

/// The address a pointer argument gets: each allocation its own 64 GiB
/// region, plus the argument's offset from a 256-byte boundary.
LaunchEnv makeLaunchEnv(const Kernel &K, const Launch &L);

/// Counts over every warp of every block of L (validateLaunch must have
/// passed): exact, whichever warp source runs.
LaunchResult simulate(const Kernel &K, const Launch &L, const SimOptions &O);

} // namespace gmem

#endif // GMEM_SIMULATOR_SIMULATE_H
