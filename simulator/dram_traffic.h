//===- dram_traffic.h - What a launch moves between L2 and DRAM -----------===//
//
// Nsight Compute flushes the caches before each launch it profiles, so a
// launch reads from DRAM about the bytes it touches first: the 64-byte
// blocks it loads, counted over the whole launch where every block is run
// (l2_traffic.h), else per buffer, the fewer of its load sectors and its
// size. On an H200 (tests/data/traffic)
// that holds for coalesced and strided walks alike, even where the
// footprint is many times the L2: a naive transpose fetches each sector 8
// times into L1 and once from DRAM. Writes stay in L2 until evicted: the
// written part of the footprint beyond what L2 keeps (a fraction of its
// size, measured) is written back during the launch.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_DRAM_TRAFFIC_H
#define GMEM_SIMULATOR_DRAM_TRAFFIC_H

#include "result.h"

#include <cstdint>
#include <optional>
#include <string>

namespace gmem {

/// Of the L2's size, the part that keeps written lines through a launch
/// whose footprint exceeds it: fitted on the H200's launches of
/// tests/data/traffic (written bytes = written footprint x (1 - this x L2 /
/// footprint)).
inline constexpr double L2WriteRetention = 0.55;

/// What every launch reads besides its data once the caches are flushed
/// (its code, parameters and constant banks): the median of measured minus
/// data bytes over the examples' launches on the H200, where it ranges
/// from 2560 to 3840 bytes.
inline constexpr uint64_t LaunchReadOverhead = 2816;

DramTraffic predictDram(const LaunchResult &R, const MemorySystem &M);

} // namespace gmem

#endif // GMEM_SIMULATOR_DRAM_TRAFFIC_H
