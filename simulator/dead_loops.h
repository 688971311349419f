//===- dead_loops.h - Loops that change no figure -------------------------===//
//
// The model holds integers that make addresses and decide control flow,
// not the data kernels compute: a register tile's multiply-accumulate
//
//   for (uint m = 0; m < TM; ++m)
//     for (uint n = 0; n < TN; ++n)
//       acc[m * TN + n] += a[m] * b[n];
//
// is two empty counting loops in it. In a tiled GEMM they are most of what
// the evaluators run (an 8 x 8 tile: 72 iterations of nothing for every 16
// shared loads), so simulate() drops them. A loop is dropped when it
// makes no access, calls and leaves nothing (no break, continue or
// return), assigns only slots that nothing outside it reads, and visibly
// ends: it counts a slot, set to a constant just before it, by a constant
// step toward a small constant bound. Whatever it does then changes no
// lane's state that any later statement reads.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_DEAD_LOOPS_H
#define GMEM_SIMULATOR_DEAD_LOOPS_H

#include "model.h"

#include <optional>

namespace gmem {

/// K without its dead loops (above); nullopt when it has none, so that the
/// caller keeps K itself.
std::optional<Kernel> withoutDeadLoops(const Kernel &K);

} // namespace gmem

#endif // GMEM_SIMULATOR_DEAD_LOOPS_H
