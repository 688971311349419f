//===- simulate.h - Simulate every warp of a launch -----------------------===//
#ifndef GMEM_SIMULATOR_SIMULATE_H
#define GMEM_SIMULATOR_SIMULATE_H

#include "arch.h"
#include "model.h"
#include "result.h"
#include "warp_eval.h"
#include <optional>
#include <string>

namespace gmem {

struct SimOptions {
  const ArchRules *Arch = nullptr; ///< Null: sm_90.
  unsigned Threads = 0;            ///< 0: one per core.
  /// Non-zero: only the first MaxBlocks blocks (in blockIdx order), for
  /// quick what-if checks; the totals are then of those blocks only.
  uint64_t MaxBlocks = 0;
};

/// Why the launch cannot be simulated (bad block or grid, missing argument
/// values), or nullopt when it can. Messages say what to pass instead.
std::optional<std::string> validateLaunch(const Kernel &K, const Launch &L,
                                          const ArchRules &A);

/// The address a pointer argument gets: each allocation its own 64 GiB
/// region, plus the argument's offset from a 256-byte boundary.
LaunchEnv makeLaunchEnv(const Kernel &K, const Launch &L);

/// Runs every warp of every block of L (validateLaunch must have passed).
LaunchResult simulate(const Kernel &K, const Launch &L, const SimOptions &O);

} // namespace gmem

#endif // GMEM_SIMULATOR_SIMULATE_H
