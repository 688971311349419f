//===- request_events.h - The seam between warp sources and listeners ----===//
//
// A warp source (WarpEvaluator: one warp of one block; BoxEvaluator: one
// warp of every block of a box of alike blocks) runs the model and emits
// one event per warp-level request. The pipeline prices each event with the
// architecture's memory units and hands event and cost to its listeners,
// which collect totals, faults and samples (request_listeners.h) once for
// both sources:
//
//   warp source --RequestEvent--> memory units --(event, RequestCost)-->
//   listeners (AccessTotals, FirstFaults, callbacks)
//
// A request whose address cannot be computed is an UnknownEvent: it is not
// priced, only counted with its reason.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_REQUEST_EVENTS_H
#define GMEM_SIMULATOR_REQUEST_EVENTS_H

#include "arch.h"
#include "async_copy_units.h"
#include "memory_units.h"
#include "model.h"
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace gmem {

/// One warp-level request with known addresses.
struct RequestEvent {
  const Access *A = nullptr;
  /// 32 lanes' first bytes (active lanes only are read): the real addresses
  /// of warp Warp of block Block.
  const uint64_t *Addr = nullptr;
  uint32_t Mask = 0; ///< The lanes that issue it.
  unsigned Size = 0; ///< Bytes per lane (the instruction's width).
  /// How many blocks' requests this one stands for: 1 from the every-warp
  /// source; from the box source, the blocks whose addresses differ from
  /// these by a multiple of the architecture's address period (so that they
  /// cost the same), of which Block is the first in launch order.
  uint64_t Weight = 1;
  /// Launch order of (Block, Warp): linear block index x warps per block +
  /// warp. Of equal events, listeners keep the one of smallest order.
  uint64_t Order = 0;
  Dim3 Block;
  unsigned Warp = 0;
  /// The warp's how-many-th request of this access (1 the first), 0 where
  /// not known.
  uint64_t Execution = 0;
  /// Lanes outside their shared array, in every block the event stands for.
  uint32_t Outside = 0;
};

/// A request (or, when !Issued, code that may hold one) whose cost is not
/// known, with why.
struct UnknownEvent {
  int AccessId = 0;
  /// Issued: a request of these lanes was made. Otherwise its lanes
  /// skipped code they might have run: whether it was made is not known.
  bool Issued = true;
  uint32_t Mask = 0;
  const Why *Reason = nullptr;
  uint64_t Weight = 1;
  uint64_t Order = 0;
};

/// A request whose addresses are not all known but whose cost lies between
/// MinUnits and MaxUnits (access_bounds.cpp); its UnknownEvent is separate.
struct BoundedEvent {
  int AccessId = 0;
  uint64_t MinUnits = 0, MaxUnits = 0;
  /// Where the addresses are known and only the rule is not (an async
  /// copy's shared side): the distinct bytes the request moves.
  std::optional<uint64_t> Bytes;
  /// Where only L1's count is bounded (a copy bypassing L1): the sectors
  /// the lanes read, which L2 fetches from DRAM whatever L1 counts.
  std::optional<uint64_t> Traffic;
  /// Where the per-line (SASS) counters count other sectors than L1 (a
  /// copy bypassing L1): their fewest, and how many more they may count.
  std::optional<uint64_t> Sass;
  uint64_t SassSlack = 0;
};

/// Accesses the compiler merged into one wide instruction (AccessId its
/// leader) whose parts were not one aligned run in Weight blocks: each part
/// is issued as a request of its own.
struct UnmergedEvent {
  int AccessId = 0;
  uint64_t Weight = 1;
};

/// A Guarded access (CompiledForm::Guarded) that a warp, Weight times,
/// executed with every lane off: no request, one instruction.
struct PredicatedOffEvent {
  int AccessId = 0;
  uint64_t Weight = 1;
};

/// The bytes [Lo, Hi) of the shared array that A indexes, where the launch
/// gives DynamicSmem bytes of dynamic shared memory; none for other
/// accesses. A source marks a request's lanes outside them.
struct SharedRange {
  uint64_t Lo = 0, Hi = 0;
};
inline std::optional<SharedRange>
sharedArrayRange(const Kernel &K, const Access &A, uint64_t DynamicSmem) {
  if (A.Sp != Space::Shared || A.SharedArray < 0 ||
      A.SharedArray >= int(K.Shared.size()))
    return std::nullopt;
  const SharedArray &Arr = K.Shared[size_t(A.SharedArray)];
  return SharedRange{Arr.Offset,
                     Arr.Offset + (Arr.Dynamic ? DynamicSmem : Arr.Bytes)};
}

class RequestListener {
public:
  virtual ~RequestListener() = default;
  virtual void priced(const RequestEvent &E, const RequestCost &C) = 0;
  virtual void unknown(const UnknownEvent &) {}
  virtual void bounded(const BoundedEvent &) {}
  virtual void unmerged(const UnmergedEvent &) {}
  virtual void predicatedOff(const PredicatedOffEvent &) {}
};

/// Prices events with the architecture's memory units and tells the
/// listeners, in the order they were added.
class RequestPipeline {
public:
  explicit RequestPipeline(const ArchRules &A) : Arch(A) {}
  RequestPipeline(const RequestPipeline &) = delete;
  RequestPipeline &operator=(const RequestPipeline &) = delete;

  /// L must outlive the pipeline.
  void listen(RequestListener &L) { Listeners.push_back(&L); }
  /// Calls F for every priced request (tests, fuzzers).
  void observe(std::function<void(const RequestEvent &)> F);

  void priced(const RequestEvent &E) const {
    const RequestCost C = priceRequest(Arch, *E.A, E.Addr, E.Mask, E.Size);
    for (RequestListener *L : Listeners)
      L->priced(E, C);
  }
  /// An event of a source that sees one side of an async copy at a time
  /// (the kernel model's warps): the global side of a copy that bypasses
  /// L1 has sectors that follow both sides, which it cannot price.
  void pricedOneSide(const RequestEvent &E) const {
    if (E.A->AsyncPartner >= 0 && E.A->Sp == Space::Global &&
        bypassGlobalSideUnknown(E.Size, E.A->Compiled.Instruction)) {
      UnknownEvent U;
      U.AccessId = E.A->Id;
      U.Mask = E.Mask;
      U.Reason = &bypassOneSided();
      U.Weight = E.Weight;
      U.Order = E.Order;
      unknown(U);
      return;
    }
    priced(E);
  }
  /// An event priced by its source (the shared side of an async copy,
  /// which needs the addresses of both sides).
  void priced(const RequestEvent &E, const RequestCost &C) const {
    for (RequestListener *L : Listeners)
      L->priced(E, C);
  }
  void unknown(const UnknownEvent &E) const {
    for (RequestListener *L : Listeners)
      L->unknown(E);
  }
  void bounded(const BoundedEvent &E) const {
    for (RequestListener *L : Listeners)
      L->bounded(E);
  }
  void unmerged(const UnmergedEvent &E) const {
    for (RequestListener *L : Listeners)
      L->unmerged(E);
  }
  void predicatedOff(const PredicatedOffEvent &E) const {
    for (RequestListener *L : Listeners)
      L->predicatedOff(E);
  }

private:
  const ArchRules &Arch;
  std::vector<RequestListener *> Listeners;
  std::vector<std::unique_ptr<RequestListener>> Owned;
};

} // namespace gmem

#endif // GMEM_SIMULATOR_REQUEST_EVENTS_H
