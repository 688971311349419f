//===- async_copy_units.cpp - The shared side of cp.async (LDGSTS) -------===//
//
// The rules, measured on an H200 (tests/data/measured/ldgsts/README.md):
//
// Through L1 (cp.async.ca), lanes are served in the groups of a shared
// store of their width (32, 16 or 8 lanes). A group's lanes are read in
// passes in which no bank (a global word's offset in its 128-byte line)
// serves two lanes, not even the same word; in cycle t pass t is read and
// the lanes read so far are written, oldest pass first and in lane order,
// as long as no shared bank takes a second word. The group costs the
// cycles until every lane is written. Two lines read at the same offsets
// take two passes; lanes two apart on one bank of shared memory, two
// writes; both together, where the second write of the first pass joins
// the first of the second, three.
//
// Bypassing L1 (cp.async.cg, 16 bytes), a quarter warp whose lanes read
// one 128-byte line and write one 128-byte line of shared memory costs
// one wavefront, in any order of its 16-byte chunks. Other layouts cost
// between the most lines on either side and one wavefront per lane
// (measured: 2 to 8), by a rule not found: bounds (which meet where a
// side has a line per lane). Its global side's sectors, as L1 counts them,
// are each quarter warp's distinct sectors where those are as many as the
// 32-byte chunks of shared memory it writes, and otherwise lie between
// the two (13 and 10 of the 23 bypassing launches measured: the larger
// where the reads or writes are misaligned, the chunks where each lane
// reads a sector of its own). The per-line (SASS) counters count the
// distinct sectors of each wavefront, summed: a quarter warp's distinct
// sectors where it costs one wavefront, one set a lane where it costs one
// a lane, and between the two otherwise (all 69 bypassing launches of
// bench/ldgsts_lines.cu, whatever the L2 prefetch hint; through L1 they
// count what L1 counts).
//
//===----------------------------------------------------------------------===//
#include "async_copy_units.h"

#include <algorithm>

namespace gmem {

namespace {

/// The banks (bit b = bank b) the Size bytes at Addr cover.
uint64_t banksOf(const ArchRules &A, uint64_t Addr, unsigned Size) {
  const unsigned Shift = __builtin_ctz(A.BankBytes);
  uint64_t Banks = 0;
  for (uint64_t W = Addr >> Shift; W <= (Addr + Size - 1) >> Shift; ++W)
    Banks |= uint64_t(1) << (W & (A.Banks - 1));
  return Banks;
}

/// The distinct Unit-byte blocks that the Size bytes of Group's lanes at
/// Addr touch (at most two a lane: Size <= 16 <= Unit).
uint64_t distinctBlocks(const uint64_t *Addr, uint32_t Group, unsigned Size,
                        uint64_t Unit) {
  uint64_t Seen[64];
  unsigned N = 0;
  for (uint32_t M = Group; M; M &= M - 1) {
    const unsigned L = __builtin_ctz(M);
    for (uint64_t X = Addr[L] / Unit;
         X <= (Addr[L] + Size - 1) / Unit && N < 64; ++X)
      if (std::find(Seen, Seen + N, X) == Seen + N)
        Seen[N++] = X;
  }
  return N;
}

/// Cycles of one group through L1 (the rule above).
uint64_t cachedGroup(const ArchRules &A, const uint64_t *Global,
                     const uint64_t *Shared, uint32_t Group, unsigned Size) {
  // The read passes, in order.
  uint32_t Passes[32];
  unsigned N = 0;
  for (uint32_t Left = Group; Left;) {
    uint64_t Taken = 0;
    uint32_t Pass = 0;
    for (uint32_t M = Left; M; M &= M - 1) {
      const unsigned L = __builtin_ctz(M);
      const uint64_t B = banksOf(A, Global[L], Size);
      if (!(Taken & B)) {
        Taken |= B;
        Pass |= 1u << L;
      }
    }
    Passes[N++] = Pass;
    Left &= ~Pass;
  }
  // Cycles: read the next pass, write what the banks let through.
  uint32_t Pending[32];
  unsigned Oldest = 0, Read = 0;
  uint64_t Cycles = 0;
  while (Oldest < N) {
    if (Read < N) {
      Pending[Read] = Passes[Read];
      ++Read;
    }
    ++Cycles;
    uint64_t Taken = 0;
    for (unsigned P = Oldest; P < Read; ++P)
      for (uint32_t M = Pending[P]; M; M &= M - 1) {
        const unsigned L = __builtin_ctz(M);
        const uint64_t B = banksOf(A, Shared[L], Size);
        if (!(Taken & B)) {
          Taken |= B;
          Pending[P] &= ~(1u << L);
        }
      }
    while (Oldest < Read && !Pending[Oldest])
      ++Oldest;
  }
  return Cycles;
}

} // namespace

const Why &bypassOneSided() {
  static const Why W{UnknownCause::Unmodelled,
                     "an async copy that bypasses L1 (cp.async.cg): L1 counts "
                     "its global sectors by where each lane writes as well "
                     "as where it reads, which the model's warps do not "
                     "pair (the executed PTX does)"};
  return W;
}

AsyncCopyCost asyncCopyRequest(const ArchRules &A, const uint64_t *Global,
                               const uint64_t *Shared, uint32_t Mask,
                               unsigned Size, bool Bypass) {
  AsyncCopyCost R;
  if (!Size) // Nothing moves (the executor decodes 4, 8 and 16 only).
    return R;
  // The bytes and the fewest wavefronts are a shared store's.
  R.Cost = sharedRequest(A, Shared, Mask, Size, false);
  R.Cost.Units = 0;
  const unsigned G = A.groupLanes(Size);
  const uint64_t Line = A.Banks * A.BankBytes;
  uint64_t UnknownMin = 0, UnknownMax = 0;
  for (unsigned First = 0; First < A.WarpSize; First += G) {
    const uint32_t Group = G >= 32 ? Mask : Mask & (((1u << G) - 1) << First);
    if (!Group)
      continue;
    if (!Bypass) {
      R.Cost.Units += cachedGroup(A, Global, Shared, Group, Size);
      continue;
    }
    // The global side: distinct sectors beside the shared chunks written.
    const uint64_t Sectors = distinctBlocks(Global, Group, Size, 32);
    const uint64_t Chunks = distinctBlocks(Shared, Group, Size, 32);
    R.GlobalKnown = R.GlobalKnown && Sectors == Chunks;
    R.GlobalSectors += Sectors;
    R.GlobalMin += std::min(Sectors, Chunks);
    R.GlobalMax += std::max(Sectors, Chunks);
    // One line read and one written, each lane its own chunk: one
    // wavefront (two lanes on one chunk were not measured: bounds).
    const uint64_t GLines = distinctBlocks(Global, Group, Size, Line);
    const uint64_t SLines = distinctBlocks(Shared, Group, Size, Line);
    const uint64_t Lanes = uint64_t(__builtin_popcount(Group));
    if (GLines == 1 && SLines == 1 &&
        distinctBlocks(Global, Group, Size, Size) == Lanes &&
        distinctBlocks(Shared, Group, Size, Size) == Lanes) {
      R.Cost.Units += 1;
      R.LineSectors += Sectors;
      continue;
    }
    // Otherwise between the most lines either side touches and one a lane.
    const uint64_t Fewest = std::max(GLines, SLines);
    uint64_t OneALane = 0;
    for (uint32_t M = Group; M; M &= M - 1)
      OneALane += distinctBlocks(Global, M & -M, Size, 32);
    R.LineSectors += Fewest >= Lanes ? OneALane : Sectors;
    R.LineSlack += Fewest >= Lanes ? 0 : OneALane - Sectors;
    R.Known = false;
    UnknownMin += Fewest;
    UnknownMax += std::max(Lanes, Fewest);
  }
  // Bounds that meet (a line per lane on one side) are the count.
  if (!R.Known && UnknownMin == UnknownMax) {
    R.Known = true;
    R.Cost.Units += UnknownMin;
    UnknownMin = UnknownMax = 0;
  }
  R.Min = R.Cost.Units + UnknownMin;
  R.Max = R.Cost.Units + UnknownMax;
  R.Cost.SassUnits = R.Cost.Units;
  return R;
}

} // namespace gmem
