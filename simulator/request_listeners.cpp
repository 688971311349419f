//===- request_listeners.cpp - What the simulator collects from requests --===//
#include "request_listeners.h"

#include <algorithm>

namespace gmem {

void AccessStats::add(const AccessStats &O) {
  Requests += O.Requests;
  ActiveLanes += O.ActiveLanes;
  Units += O.Units;
  SassUnits += O.SassUnits;
  SassSlack += O.SassSlack;
  IdealUnits += O.IdealUnits;
  DistinctBytes += O.DistinctBytes;
  MaxUnitsPerRequest = std::max(MaxUnitsPerRequest, O.MaxUnitsPerRequest);
  MaxWays = std::max(MaxWays, O.MaxWays);
  MisalignedLanes += O.MisalignedLanes;
  UnknownRequests += O.UnknownRequests;
  UncountedRequests += O.UncountedRequests;
  BoundedRequests += O.BoundedRequests;
  MinUnits += O.MinUnits;
  MaxUnits += O.MaxUnits;
  OutOfBoundsLanes += O.OutOfBoundsLanes;
  OverflowRequests += O.OverflowRequests;
  UnmergedGroups += O.UnmergedGroups;
  LocalExecutions += O.LocalExecutions;
  PredicatedOff += O.PredicatedOff;
  GenericElsewhere += O.GenericElsewhere;
  GenericLocalBytes += O.GenericLocalBytes;
  GenericGlobalBytes += O.GenericGlobalBytes;
  AsyncRuled += O.AsyncRuled;
  BoundedWithBytes += O.BoundedWithBytes;
  BoundedBytes += O.BoundedBytes;
  BoundedWithTraffic += O.BoundedWithTraffic;
  BoundedTraffic += O.BoundedTraffic;
  BoundedWithSass += O.BoundedWithSass;
  BoundedSass += O.BoundedSass;
  if (!O.UnknownReason.empty() &&
      (UnknownReason.empty() || O.ReasonOrder < ReasonOrder)) {
    UnknownReason = O.UnknownReason;
    ReasonCause = O.ReasonCause;
    ReasonOrder = O.ReasonOrder;
  }
  if (O.HasStride && (!HasStride || O.StrideOrder < StrideOrder)) {
    HasStride = true;
    Stride = O.Stride;
    FirstAddress = O.FirstAddress;
    StrideOrder = O.StrideOrder;
  }
  if (O.Costliest && (!Costliest || Costliest->worseThan(*O.Costliest)))
    Costliest = O.Costliest;
}

namespace {

/// Calls a listener's function, for RequestPipeline::observe.
class RequestCallback : public RequestListener {
public:
  explicit RequestCallback(std::function<void(const RequestEvent &)> F)
      : F(std::move(F)) {}
  void priced(const RequestEvent &E, const RequestCost &) override { F(E); }

private:
  std::function<void(const RequestEvent &)> F;
};

} // namespace

void RequestPipeline::observe(std::function<void(const RequestEvent &)> F) {
  Owned.push_back(std::make_unique<RequestCallback>(std::move(F)));
  listen(*Owned.back());
}

uint32_t misalignedLanes(const RequestEvent &E) {
  uint64_t Low = 0;
  if (E.Mask == ~0u) // A loop the compiler vectorizes: the common case.
    for (unsigned L = 0; L < 32; ++L)
      Low |= E.Addr[L];
  else
    for (uint32_t M = E.Mask; M; M &= M - 1)
      Low |= E.Addr[__builtin_ctz(M)];
  if (!(Low & (E.Size - 1)))
    return 0;
  uint32_t Out = 0;
  for (uint32_t M = E.Mask; M; M &= M - 1)
    if (E.Addr[__builtin_ctz(M)] & (E.Size - 1))
      Out |= M & -M;
  return Out;
}

void AccessTotals::priced(const RequestEvent &E, const RequestCost &C) {
  AccessStats &St = (*Stats)[E.A->Id];
  const uint64_t W = E.Weight;
  St.Requests += W;
  St.ActiveLanes += uint64_t(__builtin_popcount(E.Mask)) * W;
  St.MisalignedLanes += uint64_t(__builtin_popcount(misalignedLanes(E))) * W;
  St.OutOfBoundsLanes += uint64_t(__builtin_popcount(E.Outside)) * W;
  // The stride between the first two lanes of the launch's first request
  // that has both.
  const unsigned L = __builtin_ctz(E.Mask);
  if (L < 31 && (E.Mask >> (L + 1) & 1) &&
      (!St.HasStride || E.Order < St.StrideOrder)) {
    St.HasStride = true;
    St.FirstAddress = E.Addr[L];
    St.Stride = int64_t(E.Addr[L + 1] - E.Addr[L]);
    St.StrideOrder = E.Order;
  }
  St.Units += C.Units * W;
  St.SassUnits += C.SassUnits * W;
  St.SassSlack += C.SassSlack * W;
  St.IdealUnits += C.IdealUnits * W;
  St.DistinctBytes += C.DistinctBytes * W;
  St.MaxUnitsPerRequest = std::max(St.MaxUnitsPerRequest, C.Units);
  St.MaxWays = std::max(St.MaxWays, C.Ways);
  St.AsyncRuled += C.AsyncRule ? W : 0;
  // The sample: the costliest request, the first of equals in launch order.
  if (St.Costliest &&
      (C.Units < St.Costliest->Units ||
       (C.Units == St.Costliest->Units && E.Order >= St.Costliest->Order)))
    return;
  WarpSample &S = St.Costliest.emplace();
  S.Mask = E.Mask;
  for (uint32_t M = E.Mask; M; M &= M - 1)
    S.Addr[__builtin_ctz(M)] = E.Addr[__builtin_ctz(M)];
  S.Size = E.Size;
  S.Units = C.Units;
  S.IdealUnits = C.IdealUnits;
  S.Order = E.Order;
  S.Execution = E.Execution;
}

void AccessTotals::unknown(const UnknownEvent &E) {
  AccessStats &St = (*Stats)[E.AccessId];
  const uint64_t W = E.Weight;
  if (E.Issued) {
    St.Requests += W;
    St.ActiveLanes += uint64_t(__builtin_popcount(E.Mask)) * W;
  } else {
    St.UncountedRequests += W;
  }
  St.UnknownRequests += W;
  if (E.Reason->Cause == UnknownCause::PointerOverflow)
    St.OverflowRequests += W;
  // The first reason seen is kept with where it was.
  if (St.UnknownReason.empty()) {
    St.UnknownReason = E.Reason->Text;
    St.ReasonCause = E.Reason->Cause;
    St.ReasonOrder = E.Order;
  }
}

void AccessTotals::bounded(const BoundedEvent &E) {
  AccessStats &St = (*Stats)[E.AccessId];
  St.BoundedRequests += 1;
  St.MinUnits += E.MinUnits;
  St.MaxUnits += E.MaxUnits;
  if (E.Bytes) {
    St.BoundedWithBytes += 1;
    St.BoundedBytes += *E.Bytes;
  }
  if (E.Traffic) {
    St.BoundedWithTraffic += 1;
    St.BoundedTraffic += *E.Traffic;
  }
  if (E.Sass) {
    St.BoundedWithSass += 1;
    St.BoundedSass += *E.Sass;
  }
  St.SassSlack += E.SassSlack;
}

void AccessTotals::unmerged(const UnmergedEvent &E) {
  (*Stats)[E.AccessId].UnmergedGroups += E.Weight;
}

void AccessTotals::predicatedOff(const PredicatedOffEvent &E) {
  (*Stats)[E.AccessId].PredicatedOff += E.Weight;
}

void FirstFaults::reset(size_t Accesses) {
  OutOfBounds.assign(Accesses, OrderedExample());
  Misaligned = OutOfBounds;
}

void FirstFaults::priced(const RequestEvent &E, const RequestCost &) {
  auto Keep = [&](OrderedExample &X, uint32_t Lanes) {
    if (!Lanes || E.Order >= X.Order)
      return;
    const unsigned L = __builtin_ctz(Lanes);
    X = {E.Order, {E.Block, L, E.Warp, E.Addr[L]}};
  };
  Keep(OutOfBounds[E.A->Id], E.Outside);
  Keep(Misaligned[E.A->Id], misalignedLanes(E));
}

} // namespace gmem
