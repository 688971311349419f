//===- request_listeners.h - What the simulator collects from requests ----===//
//
// The listeners every launch runs (request_events.h): totals per access
// (the counts, the worst request and the sample that pictures draw,
// misaligned and out-of-bounds lanes, the first stride), and the first
// faulting lane per access. Both warp sources feed them the same events,
// so the two cannot count differently.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_REQUEST_LISTENERS_H
#define GMEM_SIMULATOR_REQUEST_LISTENERS_H

#include "request_events.h"
#include "result.h"
#include <vector>

namespace gmem {

/// Adds every event to its access's AccessStats.
class AccessTotals : public RequestListener {
public:
  explicit AccessTotals(std::vector<AccessStats> *Stats = nullptr)
      : Stats(Stats) {}
  /// Where the next events go (one entry per access).
  void collectInto(std::vector<AccessStats> &S) { Stats = &S; }
  void priced(const RequestEvent &E, const RequestCost &C) override;
  void unknown(const UnknownEvent &E) override;
  void bounded(const BoundedEvent &E) override;
  void unmerged(const UnmergedEvent &E) override;
  void predicatedOff(const PredicatedOffEvent &E) override;

private:
  std::vector<AccessStats> *Stats;
};

/// A lane of a request where a fault was seen.
struct FaultLane {
  Dim3 BlockIdx;
  unsigned Lane = 0, Warp = 0;
  uint64_t Address = 0;
};

/// A faulting lane with the launch order of its (block, warp); none while
/// Order is ~0.
struct OrderedExample {
  uint64_t Order = ~uint64_t(0);
  FaultLane Where;
};

/// Per access, the first lane (in launch order) outside its shared array,
/// and the first whose address is not a multiple of its size.
class FirstFaults : public RequestListener {
public:
  std::vector<OrderedExample> OutOfBounds, Misaligned;
  /// Forgets what was seen; Accesses entries each.
  void reset(size_t Accesses);
  void priced(const RequestEvent &E, const RequestCost &C) override;
};

/// The lanes of E whose address is not a multiple of its size (the GPU
/// faults on them).
uint32_t misalignedLanes(const RequestEvent &E);

} // namespace gmem

#endif // GMEM_SIMULATOR_REQUEST_LISTENERS_H
