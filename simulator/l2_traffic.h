//===- l2_traffic.h - The sectors a launch's L1s ask of the L2 ------------===//
//
// Global loads are cached in L1, one per SM, so a sector that a block's
// warps read again is a hit: L2 sees the sectors each block reads for the
// first time. gmem runs a sample of the launch's blocks in full (every warp
// and every loop iteration; every block of a small launch, which also
// counts the 64-byte blocks the whole launch loads, for dram_traffic.h),
// counts the distinct sectors each one loads, and scales their mean to
// the grid; stores go through to L2 sector by
// sector, and atomics are served there. What this leaves out: reuse
// between blocks that share an SM (neighbours' halos, a vector every block
// reads), and a block whose data outgrows L1, which misses more.
//
// Nsight Compute's lts__t_sectors_op_{read,write} count more than
// L1's requests on boards whose L2 is split in two halves: on the H200
// (tests/data/traffic/h200_ncu.csv) a streaming kernel's 65536 load
// sectors read 98304 + about 1000 L2 sectors, half its sectors being
// counted again by the far half, and its stores alike; the 1000 are what
// every launch reads (code, parameters, constants).
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_L2_TRAFFIC_H
#define GMEM_SIMULATOR_L2_TRAFFIC_H

#include "arch.h"
#include "model.h"
#include "request_events.h"
#include "result.h"

#include <algorithm>
#include <vector>

namespace gmem {

/// Of the L2's sectors, the share counted again by the far half of a split
/// L2 (Hopper), and the read sectors every launch adds: measured on the
/// H200's launches of tests/data/traffic.
inline constexpr double SplitL2Recount = 0.5;
inline constexpr uint64_t LaunchL2ReadSectors = 980;

/// Blocks run in full for the L1 misses: spread over the grid, first and
/// last among them.
inline constexpr unsigned L2SampleBlocks = 16;

/// Appends the 32-byte sectors E's active lanes touch to Sectors (skipping
/// a repeat of the last one); distinctSectors sorts them and counts each
/// once. Inline: the recording runtime's executor uses them without the
/// simulator's library.
/// Bytes: the unit, 32 for sectors (64 for the 64-byte blocks DRAM serves).
inline void appendSectors(const RequestEvent &E, std::vector<uint64_t> &Sectors,
                          uint64_t Bytes = 32) {
  for (unsigned Lane = 0; Lane < 32; ++Lane)
    if (E.Mask >> Lane & 1)
      for (uint64_t S = E.Addr[Lane] / Bytes,
                    Last = (E.Addr[Lane] + E.Size - 1) / Bytes;
           S <= Last; ++S)
        if (Sectors.empty() || Sectors.back() != S)
          Sectors.push_back(S);
}
inline uint64_t distinctSectors(std::vector<uint64_t> &Sectors) {
  std::sort(Sectors.begin(), Sectors.end());
  return uint64_t(std::unique(Sectors.begin(), Sectors.end()) -
                  Sectors.begin());
}

/// A set of sector numbers that counts each once as they arrive, for a
/// block that loads far more sectors than it has distinct ones (sgemm's
/// strips: sorting them all took half of its execution). Open addressing;
/// clear() costs the entries held, not the table.
class SectorSet {
public:
  void insert(uint64_t S) {
    if (2 * (Keys.size() + 1) > Table.size())
      grow();
    const size_t Mask = Table.size() - 1;
    for (size_t I = hash(S) & Mask;; I = (I + 1) & Mask) {
      if (Table[I] == S)
        return;
      if (Table[I] == Empty) {
        Table[I] = S;
        Keys.push_back(S);
        return;
      }
    }
  }
  /// Adds the sectors E's active lanes touch (as appendSectors). A lane
  /// that reads the sector it read last (a loop walking a row) skips the
  /// table.
  void add(const RequestEvent &E, uint64_t Bytes = 32) {
    uint64_t Last = Empty;
    for (uint32_t M = E.Mask; M; M &= M - 1) {
      const unsigned L = __builtin_ctz(M);
      const uint64_t A = E.Addr[L];
      const uint64_t First = A / Bytes, End = (A + E.Size - 1) / Bytes;
      if (First == End && (First == Last || First == OfLane[L]))
        continue;
      for (uint64_t S = First; S <= End; ++S)
        if (S != Last)
          insert(Last = S);
      OfLane[L] = End;
    }
  }
  size_t size() const { return Keys.size(); }
  void clear() {
    const size_t Mask = Table.size() - 1;
    for (uint64_t K : Keys)
      for (size_t I = hash(K) & Mask;; I = (I + 1) & Mask)
        if (Table[I] == K) {
          Table[I] = Empty;
          break;
        }
    Keys.clear();
    std::fill(std::begin(OfLane), std::end(OfLane), Empty);
  }

private:
  static constexpr uint64_t Empty = ~uint64_t(0);
  static size_t hash(uint64_t S) {
    return size_t((S * 0x9E3779B97F4A7C15ull) >> 20);
  }
  void grow() {
    Table.assign(std::max<size_t>(1024, 2 * Table.size()), Empty);
    const size_t Mask = Table.size() - 1;
    for (uint64_t K : Keys)
      for (size_t I = hash(K) & Mask;; I = (I + 1) & Mask)
        if (Table[I] == Empty) {
          Table[I] = K;
          break;
        }
  }
  std::vector<uint64_t> Table;
  std::vector<uint64_t> Keys;
  /// Each lane's last sector, in the table since the last clear().
  uint64_t OfLane[32] = {Empty, Empty, Empty, Empty, Empty, Empty, Empty,
                         Empty, Empty, Empty, Empty, Empty, Empty, Empty,
                         Empty, Empty, Empty, Empty, Empty, Empty, Empty,
                         Empty, Empty, Empty, Empty, Empty, Empty, Empty,
                         Empty, Empty, Empty, Empty};
};

/// R's L2 sectors (R simulated for K and L on A). SplitL2: the board's L2
/// is split in two halves (Hopper and Ampere's A100).
L2Traffic predictL2(const Kernel &K, const Launch &L, const ArchRules &A,
                    const LaunchResult &R, bool SplitL2);

} // namespace gmem

#endif // GMEM_SIMULATOR_L2_TRAFFIC_H
