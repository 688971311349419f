//===- request_bounds.h - Best and worst cost of a request ----------------===//
//
// When some lanes' addresses are only known to lie in a range, a request's
// sectors or wavefronts are not a number but an interval. These functions
// give the tightest interval the ranges prove, on the assumption the GPU
// makes anyway: every address is a multiple of the access size (otherwise
// the kernel faults). Lanes with a known address have Lo == Hi.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_REQUEST_BOUNDS_H
#define GMEM_SIMULATOR_REQUEST_BOUNDS_H

#include "arch.h"
#include <cstdint>

namespace gmem {

struct UnitBounds {
  uint64_t Min = 0, Max = 0;
};

/// Global: the fewest and the most distinct UnitBytes-sized segments the
/// active lanes can touch when lane L's address lies in [Lo[L], Hi[L]].
UnitBounds globalBounds(unsigned UnitBytes, const uint64_t *Lo,
                        const uint64_t *Hi, uint32_t Mask, unsigned Size);

/// Shared: the fewest and the most wavefronts, likewise.
UnitBounds sharedBounds(const ArchRules &A, const uint64_t *Lo,
                        const uint64_t *Hi, uint32_t Mask, unsigned Size,
                        bool Load);

} // namespace gmem

#endif // GMEM_SIMULATOR_REQUEST_BOUNDS_H
