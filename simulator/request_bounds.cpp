//===- request_bounds.cpp - Best and worst cost of a request --------------===//
#include "request_bounds.h"
#include "memory_units.h"

#include <algorithm>
#include <vector>

namespace gmem {

namespace {

struct Span {
  uint64_t First, Last; ///< Inclusive, in units (segments or bank words).
};

/// The aligned addresses in [Lo, Hi] as units of 2^Shift bytes: the first
/// and last unit an aligned access of Size bytes can start in. Empty
/// (First > Last) when no aligned address lies in the range.
Span alignedSpan(uint64_t Lo, uint64_t Hi, unsigned Size, unsigned Shift) {
  uint64_t Mask = Size - 1;
  uint64_t First = (Lo + Mask) & ~Mask;
  if (First < Lo) // Wrapped past the top of the address space.
    return {1, 0};
  uint64_t Last = Hi & ~Mask;
  if (First > Last)
    return {1, 0};
  return {First >> Shift, Last >> Shift};
}

/// The fewest points that stab every span (greedy by right end: optimal).
uint64_t minStabbing(std::vector<Span> S) {
  std::sort(S.begin(), S.end(),
            [](const Span &A, const Span &B) { return A.Last < B.Last; });
  uint64_t N = 0;
  bool Any = false;
  uint64_t Point = 0;
  for (const Span &X : S) {
    if (Any && X.First <= Point && Point <= X.Last)
      continue;
    Point = X.Last;
    Any = true;
    ++N;
  }
  return N;
}

/// The most distinct points the spans can pick, one each (greedy matching
/// by right end: optimal for intervals).
uint64_t maxDistinct(std::vector<Span> S) {
  std::sort(S.begin(), S.end(),
            [](const Span &A, const Span &B) { return A.Last < B.Last; });
  std::vector<uint64_t> Used;
  for (const Span &X : S) {
    uint64_t P = X.First;
    // At most 32 points are taken, so this finds a free one quickly.
    while (std::find(Used.begin(), Used.end(), P) != Used.end() && P < X.Last)
      ++P;
    if (std::find(Used.begin(), Used.end(), P) == Used.end())
      Used.push_back(P);
  }
  return Used.size();
}

/// Lane L's possible units: one point when its address is known, else
/// every unit an aligned address in its range can start in (all units when
/// none can).
Span laneSpan(uint64_t Lo, uint64_t Hi, unsigned Size, unsigned Shift) {
  if (Lo == Hi)
    return {Lo >> Shift, Lo >> Shift};
  Span S = alignedSpan(Lo, Hi, Size, Shift);
  return S.First > S.Last ? Span{0, ~uint64_t(0)} : S;
}

} // namespace

UnitBounds globalBounds(unsigned UnitBytes, const uint64_t *Lo,
                        const uint64_t *Hi, uint32_t Mask, unsigned Size) {
  // Accesses are at most 16 bytes and units at least 32: an aligned access
  // lies in exactly one unit (a known misaligned one in up to two).
  const unsigned Shift = __builtin_ctz(UnitBytes);
  std::vector<Span> Spans;
  for (uint32_t M = Mask; M; M &= M - 1) {
    unsigned L = __builtin_ctz(M);
    Spans.push_back(laneSpan(Lo[L], Hi[L], Size, Shift));
    if (Lo[L] == Hi[L] && ((Lo[L] + Size - 1) >> Shift) != Spans.back().First)
      Spans.push_back({Spans.back().First + 1, Spans.back().First + 1});
  }
  return {minStabbing(Spans), maxDistinct(Spans)};
}

namespace {

UnitBounds sharedBoundsInGroups(const ArchRules &A, const uint64_t *Lo,
                                const uint64_t *Hi, uint32_t Mask,
                                unsigned Size, unsigned GroupLanes) {
  UnitBounds B;
  const unsigned WordShift = __builtin_ctz(A.BankBytes);
  const uint64_t Banks = A.Banks, Top = ~uint64_t(0);
  const uint64_t Extra = (Size - 1) >> WordShift; // Words after the first.
  for (unsigned G = 0; G < A.WarpSize; G += GroupLanes) {
    uint32_t Group =
        GroupLanes >= 32 ? Mask : Mask & (((1u << GroupLanes) - 1) << G);
    if (!Group)
      continue;
    uint32_t Known = 0;
    std::vector<Span> Unknown; // The bank words each lane's access can cover.
    for (uint32_t M = Group; M; M &= M - 1) {
      unsigned L = __builtin_ctz(M);
      if (Lo[L] == Hi[L]) {
        Known |= 1u << L;
        continue;
      }
      Span S = laneSpan(Lo[L], Hi[L], Size, WordShift);
      S.Last = S.Last > Top - Extra ? Top : S.Last + Extra;
      Unknown.push_back(S);
    }
    // The known lanes alone give a floor: more lanes never take fewer.
    uint64_t KnownWays =
        Known ? sharedRequestInGroups(A, Lo, Known, Size, GroupLanes).Units : 0;
    if (Unknown.empty()) {
      B.Min += KnownWays;
      B.Max += KnownWays;
      continue;
    }
    B.Min += std::max<uint64_t>(KnownWays, 1);
    // An unknown lane adds at most one word to any bank, and a bank gets no
    // more distinct words than the lanes' ranges hold in it.
    std::sort(Unknown.begin(), Unknown.end(),
              [](const Span &X, const Span &Y) { return X.First < Y.First; });
    std::vector<Span> Merged;
    for (const Span &S : Unknown) {
      if (!Merged.empty() && S.First <= Merged.back().Last)
        Merged.back().Last = std::max(Merged.back().Last, S.Last);
      else
        Merged.push_back(S);
    }
    std::vector<uint64_t> PerBank(Banks, 0);
    for (const Span &S : Merged) {
      uint64_t N = S.Last - S.First; // Words - 1: no overflow.
      for (uint64_t K = 0; K < Banks; ++K) {
        if (N >= Banks * 32) {
          PerBank[K] += 32;
          continue;
        }
        uint64_t Offset = (K + Banks - S.First % Banks) % Banks;
        PerBank[K] += (N + 1) / Banks + (Offset < (N + 1) % Banks);
      }
    }
    uint64_t MostInOneBank = *std::max_element(PerBank.begin(), PerBank.end());
    uint64_t Added = std::min<uint64_t>(Unknown.size(), MostInOneBank);
    B.Max += std::min<uint64_t>(__builtin_popcount(Group), KnownWays + Added);
  }
  return B;
}

} // namespace

UnitBounds sharedBounds(const ArchRules &A, const uint64_t *Lo,
                        const uint64_t *Hi, uint32_t Mask, unsigned Size,
                        bool Load) {
  const unsigned G = A.groupLanes(Size);
  UnitBounds B = sharedBoundsInGroups(A, Lo, Hi, Mask, Size, G);
  // Whether a load's lanes come in equal pairs may depend on the unknown
  // addresses: either grouping is possible.
  if (Load && A.PackedPairLoads && G < A.WarpSize) {
    UnitBounds P = sharedBoundsInGroups(A, Lo, Hi, Mask, Size, 2 * G);
    B.Min = std::min(B.Min, P.Min);
    B.Max = std::max(B.Max, P.Max);
  }
  return B;
}

} // namespace gmem
