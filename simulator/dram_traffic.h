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

/// What every launch reads besides its data once the caches are flushed:
/// its parameters and constant banks, and its code, 16 bytes a SASS
/// instruction (examples/bank_contention.cu's kernels of 35 to 287
/// instructions read 3072 to 7168 bytes on the H200 without loading any
/// data: 16.25 bytes more per instruction). The fixed part: the median of
/// measured minus data and code bytes over the other examples' 182
/// launches; where the SASS was not read, the median of measured minus data
/// bytes.
inline constexpr uint64_t LaunchReadFixed = 2560;
inline constexpr uint64_t LaunchReadOverhead = 2816;
inline constexpr uint64_t SassInstructionBytes = 16;

/// The bytes a launch reads besides its data, from its kernel's SASS.
inline uint64_t launchReadBytes(const SassAccount &Sass) {
  return Sass.Read && Sass.AllInstructions
             ? LaunchReadFixed + SassInstructionBytes * Sass.AllInstructions
             : LaunchReadOverhead;
}

/// Sass: the kernel's as ptxas compiled it (the model's kernel carries it;
/// the executed path's kernel of PTX accesses does not).
DramTraffic predictDram(const LaunchResult &R, const MemorySystem &M,
                        const SassAccount &Sass);

} // namespace gmem

#endif // GMEM_SIMULATOR_DRAM_TRAFFIC_H
