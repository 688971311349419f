//===- request_stats.h - What a priced request adds to its access ---------===//
//
// Both warp sources (every warp, and boxes of alike blocks) price a request
// and add it here, N times for N alike blocks: the totals, the worst
// request, and the sample that pictures draw. One place, so that the two
// cannot count differently.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_REQUEST_STATS_H
#define GMEM_SIMULATOR_REQUEST_STATS_H

#include "memory_units.h"
#include "result.h"
#include <algorithm>

namespace gmem {

inline void addPricedRequest(AccessStats &St, const RequestCost &C, uint64_t N,
                             const uint64_t *Addr, uint32_t Mask, unsigned Size,
                             uint64_t Order) {
  St.Units += C.Units * N;
  St.SassUnits += C.SassUnits * N;
  St.IdealUnits += C.IdealUnits * N;
  St.DistinctBytes += C.DistinctBytes * N;
  St.MaxUnitsPerRequest = std::max(St.MaxUnitsPerRequest, C.Units);
  St.MaxWays = std::max(St.MaxWays, C.Ways);
  if (St.Costliest &&
      (C.Units < St.Costliest->Units ||
       (C.Units == St.Costliest->Units && Order >= St.Costliest->Order)))
    return;
  WarpSample &S = St.Costliest.emplace();
  S.Mask = Mask;
  for (uint32_t M = Mask; M; M &= M - 1)
    S.Addr[__builtin_ctz(M)] = Addr[__builtin_ctz(M)];
  S.Size = Size;
  S.Units = C.Units;
  S.IdealUnits = C.IdealUnits;
  S.Order = Order;
}

} // namespace gmem

#endif // GMEM_SIMULATOR_REQUEST_STATS_H
