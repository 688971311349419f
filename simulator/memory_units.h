//===- memory_units.h - 32 lane addresses to requests, sectors, wavefronts
//-===//
//
// The hardware rules of DESIGN.md for one warp-level request. Addresses are
// byte addresses of the lanes; Mask says which lanes are active (bit i =
// lane i); every active lane touches Size bytes from its address.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_MEMORY_UNITS_H
#define GMEM_SIMULATOR_MEMORY_UNITS_H

#include "arch.h"
#include "model.h"
#include <cstdint>

namespace gmem {

struct RequestCost {
  uint64_t Units = 0; ///< Sectors (global) or wavefronts (shared).
  /// The distinct sectors touched, as the SASS per-instruction counters
  /// see a request: Units, except for atomics (whose L1 count repeats a
  /// sector for each lane on its busiest address).
  uint64_t SassUnits = 0;
  /// How many more than SassUnits the SASS counters may count: a copy
  /// bypassing L1 whose shared wavefronts are bounded (async_copy_units.h).
  uint64_t SassSlack = 0;
  uint64_t IdealUnits = 0; ///< The fewest the same distinct bytes need.
  uint64_t DistinctBytes = 0;
  /// Shared: the most distinct words one bank serves within one group of
  /// lanes: the bank-conflict degree (1 = conflict-free).
  uint64_t Ways = 0;
  /// The shared side of an async copy priced by its rule
  /// (async_copy_units.h), from both sides' addresses.
  bool AsyncRule = false;
  /// A full warp whose lanes' addresses are equally spaced, Stride bytes
  /// apart (0: a broadcast), as pricing found them.
  bool Affine = false;
  uint64_t Stride = 0;
};

/// Global: the distinct UnitBytes-sized segments the active lanes' bytes
/// touch (ArchRules::globalBytes); a broadcast counts its bytes once.
RequestCost globalRequest(unsigned UnitBytes, const uint64_t *Addr,
                          uint32_t Mask, unsigned Size);

/// Global atomics and reductions: lanes on one address are served one
/// after another, so each sector a request touches counts once per lane on
/// its busiest address (31 lanes on one word: 31 sectors). Measured on an
/// H100 for ATOMG and REDG, examples/atomics.cu; on an H200 exact for 187
/// of 193 layouts and a lower bound for all 475: some random lane orders
/// over many lines cost 1 to 3 more (tests/data/measured/atomic_mixtures).
RequestCost atomicRequest(const ArchRules &A, const uint64_t *Addr,
                          uint32_t Mask, unsigned Size);

/// Shared-memory atomics, as Form says (SharedAtomicForm): Units are
/// wavefronts, Ways the busiest bank's lanes.
RequestCost sharedAtomicRequest(const ArchRules &A, const uint64_t *Addr,
                                uint32_t Mask, unsigned Size,
                                SharedAtomicForm Form);

/// The cost of one request of access X (whose space and kind pick the rule
/// above or below).
RequestCost priceRequest(const ArchRules &A, const Access &X,
                         const uint64_t *Addr, uint32_t Mask, unsigned Size);

/// The lanes that issue a request of X: one for an atomic nvcc aggregated
/// across the warp (CompiledForm::OneLane; FLO elects the highest lane).
inline uint32_t issuingLanes(const Access &X, uint32_t Mask) {
  return X.Compiled.OneLane && Mask ? 1u << (31 - __builtin_clz(Mask)) : Mask;
}

/// Shared: lanes are served in groups (whole warp; half warps for 8-byte
/// and quarter warps for 16-byte accesses; twice as many lanes for a load
/// whose lanes come in equal pairs, see ArchRules::PackedPairLoads); a
/// group's wavefronts are the most distinct bank-words any one bank must
/// deliver (the same word is broadcast).
RequestCost sharedRequest(const ArchRules &A, const uint64_t *Addr,
                          uint32_t Mask, unsigned Size, bool Load);

/// The same with the lanes served GroupLanes at a time.
RequestCost sharedRequestInGroups(const ArchRules &A, const uint64_t *Addr,
                                  uint32_t Mask, unsigned Size,
                                  unsigned GroupLanes);

/// The lanes one shared group serves for this request.
unsigned sharedGroupLanes(const ArchRules &A, const uint64_t *Addr,
                          uint32_t Mask, unsigned Size, bool Load);

} // namespace gmem

#endif // GMEM_SIMULATOR_MEMORY_UNITS_H
