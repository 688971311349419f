//===- early_exits.h - Code after an early exit as the if's other side ----===//
//
//   for (int j = 0; j < 4; ++j) {
//     if (x >= n || y >= n) { tile[j] = 0; continue; }
//     tile[j] = in[x * n + y];
//   }
//
// Lanes that take the if leave the rest of the list, so the rest is the
// if's else side. Written so, a warp whose lanes all take the if skips it
// as it skips any branch side: where ptxas predicated that side (every
// SASS instruction of its accesses guarded), the warp still executes them
// with no lane (stmt_walk.h, PredicatedOffSides), as the H200 counts in
// HeCBench's winograd. Nothing else changes: the same lanes run the same
// statements.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_EARLY_EXITS_H
#define GMEM_SIMULATOR_EARLY_EXITS_H

#include "model.h"

#include <optional>
#include <string>
#include <vector>

namespace gmem {

struct LaunchEnv;

/// K with the statements after every `if (c) { ...; continue; }` (or
/// break, or return) with no else moved into its else side, where c is
/// known in every lane (no loaded data, shuffle, parameter the launch lacks,
/// slot read before it is set or operation undefined in some lane, such as
/// `x / y`, in it); nullopt when there is none, so that the caller keeps K
/// itself.
std::optional<Kernel> withEarlyExitsFolded(const Kernel &K,
                                           const LaunchEnv &Env);

} // namespace gmem

#endif // GMEM_SIMULATOR_EARLY_EXITS_H
