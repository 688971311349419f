//===- l2_residency.h - What a warm L2 holds from launch to launch --------===//
//
// Without a profiler's flush (or under ncu --cache-control none) a launch
// finds in L2 what the launches before it and the host's copies left
// there, and reads from DRAM only the rest. Kept per allocation, least
// recently used first: the bytes of it L2 holds and how many of those are
// dirty (written, not yet written back). A launch whose footprint fits in
// L2 finds each buffer's resident bytes; one that does not streams
// through it and finds none (least-recently-used replacement evicts each
// line before the walk comes back to it: on an H200, every 4096 x 4096
// transpose after the first read its 67 MB again). What a launch touches
// becomes resident (of a footprint larger than L2, the share L2 holds);
// dirty bytes pushed out are written back during the launch that pushes
// them. The host's copies and sets go through L2; every kernel's code is
// written there when its module loads. Measured against the H200 with
// --cache-control none: docs/TRAFFIC_WARM.md.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_L2_RESIDENCY_H
#define GMEM_SIMULATOR_L2_RESIDENCY_H

#include "result.h"

#include <cstdint>
#include <list>
#include <string>

namespace gmem {

/// Of the L2's size, the part a cudaMemset larger than it leaves dirty:
/// each 64 MiB set of examples/transpose.cu's output left the transpose
/// after it 19.6 to 21.6 MB more to write back than a flushed L2 on the
/// H200 (tests/data/traffic/h200_ncu_warm.csv), 31 to 34 % of its 62.9 MB.
inline constexpr double L2SetRetention = 1.0 / 3;

class L2Residency {
public:
  explicit L2Residency(uint64_t Capacity) : Capacity(Capacity) {}

  /// The host copied (or set: Dirty) Bytes of Name, or a kernel's code was
  /// loaded: resident, most recently used. A copy's lines reach DRAM as
  /// well (a 268 MB cudaMemcpy left the next launch, which streamed
  /// through L2, 4 MB to write back on the H200); a set's stay dirty, up
  /// to L2SetRetention of the L2.
  void hostWrote(const std::string &Name, uint64_t Bytes, bool Dirty);

  /// A launch whose flushed-L2 traffic is Cold, of a kernel whose code is
  /// Code: what it reads from and writes to DRAM with the L2 as it stands
  /// (ReadBytes, WriteBytes), and the L2 as it leaves it.
  DramTraffic launch(const DramTraffic &Cold, const std::string &Code);

private:
  struct Entry {
    std::string Name;
    uint64_t Resident = 0, Dirty = 0;
  };
  std::list<Entry>::iterator find(const std::string &Name);
  /// Makes Name most recently used with these bytes.
  void touch(const std::string &Name, uint64_t Resident, uint64_t Dirty);
  /// Evicts the least recently used bytes beyond the capacity; returns the
  /// dirty ones among them.
  uint64_t evict();

  uint64_t Capacity;
  std::list<Entry> Lru; ///< Least recently used first.
};

} // namespace gmem

#endif // GMEM_SIMULATOR_L2_RESIDENCY_H
