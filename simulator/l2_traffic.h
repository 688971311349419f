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
#include "memory_units.h"
#include "model.h"
#include "request_events.h"
#include "result.h"

#include <algorithm>
#include <array>
#include <utility>
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
/// strips: sorting them all took half of its execution). Sectors are kept
/// as bits of 512-sector pages (16 KiB of memory each) in an open-addressed
/// table: a block that walks a matrix touches few pages, held in a few
/// cache lines, where a table of sectors took a cache miss for each new
/// one. clear() costs the pages held, not the table.
class SectorSet {
public:
  void insert(uint64_t S) {
    uint64_t &W = page(S >> PageShift).Bits[(S >> 6) & (PageWords - 1)];
    const uint64_t Bit = uint64_t(1) << (S & 63);
    Count += !(W & Bit);
    W |= Bit;
  }
  /// Adds the sectors E's active lanes touch (as appendSectors). A lane
  /// that reads, for the same access, the sector it read last (a loop
  /// walking a row) skips the table. Where pricing found the lanes equally
  /// spaced (Cost), their sectors follow from the first lane's address.
  void add(const RequestEvent &E, const RequestCost *Cost = nullptr,
           uint64_t Bytes = 32) {
    Lanes &Of = lanesOf(E.A);
    if (Cost && Cost->Affine && E.Mask == ~0u && Bytes == 32 &&
        addAffine(Of, E.Addr[0], Cost->Stride, E.Size))
      return;
    // Bytes is a power of two: shift, do not divide.
    const unsigned Shift = __builtin_ctzll(Bytes);
    uint64_t Last = Empty;
    for (uint32_t M = E.Mask; M; M &= M - 1) {
      const unsigned L = __builtin_ctz(M);
      const uint64_t A = E.Addr[L];
      const uint64_t First = A >> Shift, End = (A + E.Size - 1) >> Shift;
      if (First == End && (First == Last || First == Of.Sector[L]))
        continue;
      for (uint64_t S = First; S <= End; ++S)
        if (S != Last)
          insert(Last = S);
      Of.Sector[L] = End;
    }
  }
  size_t size() const { return Count; }
  void clear() {
    for (size_t I : Used)
      Table[I].Number = Empty;
    Used.clear();
    Count = 0;
    Cached = nullptr;
    LastOf.clear();
  }

private:
  static constexpr uint64_t Empty = ~uint64_t(0);
  static constexpr unsigned PageShift = 9, PageWords = 8;
  struct Page {
    uint64_t Number = Empty;
    uint64_t Bits[PageWords];
  };
  static size_t hash(uint64_t P) {
    return size_t((P * 0x9E3779B97F4A7C15ull) >> 20);
  }
  /// Page P, made (its bits clear) when new.
  Page &page(uint64_t P) {
    if (Cached && Cached->Number == P)
      return *Cached;
    if (2 * (Used.size() + 1) > Table.size())
      grow();
    const size_t Mask = Table.size() - 1;
    size_t I = hash(P) & Mask;
    while (Table[I].Number != P && Table[I].Number != Empty)
      I = (I + 1) & Mask;
    if (Table[I].Number == Empty) {
      Table[I].Number = P;
      std::fill(std::begin(Table[I].Bits), std::end(Table[I].Bits), 0);
      Used.push_back(I);
    }
    return *(Cached = &Table[I]);
  }
  void grow() {
    std::vector<Page> Old;
    Old.reserve(Used.size());
    for (size_t I : Used)
      Old.push_back(Table[I]);
    Table.assign(std::max<size_t>(64, 2 * Table.size()), Page());
    Used.clear();
    const size_t Mask = Table.size() - 1;
    for (const Page &P : Old) {
      size_t I = hash(P.Number) & Mask;
      while (Table[I].Number != Empty)
        I = (I + 1) & Mask;
      Table[I] = P;
      Used.push_back(I);
    }
    Cached = nullptr;
  }
  std::vector<Page> Table;
  std::vector<size_t> Used; ///< Slots of Table holding a page.
  Page *Cached = nullptr;   ///< The page of the last insert.
  size_t Count = 0;
  /// Per access, what its last requests put in the table since the last
  /// clear(), kept apart as a lane's loads of two arrays alternate: each
  /// lane's last sector, and the last equally spaced request's sectors
  /// (Run, the first, Empty for none; Step apart; Count of them).
  struct Lanes {
    const Access *A = nullptr;
    uint64_t Sector[32];
    uint64_t Run = Empty, Step = 0, Count = 0;
  };
  std::vector<Lanes> LastOf;
  size_t LastHit = 0;
  Lanes &lanesOf(const Access *A) {
    if (LastHit < LastOf.size() && LastOf[LastHit].A == A)
      return LastOf[LastHit];
    for (LastHit = 0; LastHit < LastOf.size(); ++LastHit)
      if (LastOf[LastHit].A == A)
        return LastOf[LastHit];
    LastOf.emplace_back();
    LastOf.back().A = A;
    std::fill(std::begin(LastOf.back().Sector), std::end(LastOf.back().Sector),
              Empty);
    return LastOf.back();
  }
  /// 32 lanes Stride bytes apart from A0, Size bytes each: a run of
  /// sectors equally spaced (each lane within one sector at one offset, or
  /// the lanes' bytes one stretch). False for other spacings.
  bool addAffine(Lanes &Of, uint64_t A0, uint64_t Stride, unsigned Size) {
    uint64_t First = A0 >> 5, Step, N;
    if (Stride % 32 == 0 && (A0 & 31) + Size <= 32 && Stride < (1ull << 40)) {
      Step = Stride >> 5;
      N = Step ? 32 : 1;
    } else if (Stride <= 32) { // Gaps under a sector: every one between.
      Step = 1;
      N = ((A0 + 31 * Stride + Size - 1) >> 5) - First + 1;
    } else {
      return false;
    }
    if (Of.Run == First && Of.Step == Step && Of.Count == N)
      return true; // The sectors the access's last request added.
    for (uint64_t I = 0; I < N; ++I)
      insert(First + I * Step);
    // Each lane's sector, for a later request that is not equally spaced.
    for (unsigned L = 0; L < 32; ++L)
      Of.Sector[L] = Step ? First + (Stride >> 5) * L : First;
    if (Step == 1 && Stride <= 32)
      for (unsigned L = 0; L < 32; ++L)
        Of.Sector[L] = Empty; // A lane's bytes may span two sectors.
    Of.Run = First;
    Of.Step = Step;
    Of.Count = N;
    return true;
  }
};

/// R's L2 sectors (R simulated for K and L on A). SplitL2: the board's L2
/// is split in two halves (Hopper and Ampere's A100).
L2Traffic predictL2(const Kernel &K, const Launch &L, const ArchRules &A,
                    const LaunchResult &R, bool SplitL2);

} // namespace gmem

#endif // GMEM_SIMULATOR_L2_TRAFFIC_H
