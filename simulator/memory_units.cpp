//===- memory_units.cpp - Global sectors and shared wavefronts ------------===//
#include "memory_units.h"

#include <algorithm>

namespace gmem {

namespace {

/// Copies the active lanes' values into Out (at most 32), sorted ascending.
/// Lane order is usually already sorted (coalesced or strided accesses), so
/// insertion sort is linear in the common case.
unsigned gatherSorted(const uint64_t *V, uint32_t Mask, uint64_t *Out) {
  unsigned N = 0;
  while (Mask) {
    unsigned L = __builtin_ctz(Mask);
    Mask &= Mask - 1;
    uint64_t X = V[L];
    unsigned J = N++;
    while (J > 0 && Out[J - 1] > X) {
      Out[J] = Out[J - 1];
      --J;
    }
    Out[J] = X;
  }
  return N;
}

/// Bytes covered by the union of [A[i], A[i] + Size) over sorted A.
uint64_t unionBytes(const uint64_t *A, unsigned N, unsigned Size) {
  uint64_t Bytes = 0, End = 0;
  for (unsigned I = 0; I < N; ++I) {
    uint64_t Lo = A[I], Hi = A[I] + Size;
    if (I > 0 && Lo < End)
      Lo = End;
    if (Hi > Lo)
      Bytes += Hi - Lo;
    if (I == 0 || Hi > End)
      End = Hi;
  }
  return Bytes;
}

} // namespace

/// Full warps whose lanes are equally spaced (the common cases: coalesced,
/// strided, broadcast) have closed forms; returns false for the rest.
static bool affineRequest(unsigned Shift, const uint64_t *Addr, uint32_t Mask,
                          unsigned Size, RequestCost &C) {
  if (Mask != 0xffffffffu)
    return false;
  const uint64_t D = Addr[1] - Addr[0];
  for (unsigned L = 2; L < 32; ++L)
    if (Addr[L] - Addr[L - 1] != D)
      return false;
  C.Affine = true;
  C.Stride = D;
  const uint64_t T = uint64_t(1) << Shift, A0 = Addr[0];
  auto Segments = [&](uint64_t Lo, uint64_t Bytes) {
    return ((Lo + Bytes - 1) >> Shift) - (Lo >> Shift) + 1;
  };
  if (D == 0) { // Broadcast.
    C.Units = Segments(A0, Size);
    C.DistinctBytes = Size;
  } else if (D <= Size) { // Contiguous or overlapping, ascending.
    C.DistinctBytes = 31 * D + Size;
    C.Units = Segments(A0, C.DistinctBytes);
  } else if (D % T == 0) { // Every lane in its own segments, same offset.
    C.Units = 32 * Segments(A0, Size);
    C.DistinctBytes = 32 * uint64_t(Size);
  } else {
    return false;
  }
  C.IdealUnits = (C.DistinctBytes + T - 1) >> Shift;
  return true;
}

RequestCost globalRequest(unsigned UnitBytes, const uint64_t *Addr,
                          uint32_t Mask, unsigned Size) {
  RequestCost C;
  if (!Mask)
    return C;
  if (affineRequest(__builtin_ctz(UnitBytes), Addr, Mask, Size, C))
    return C;
  // A full warp whose addresses already ascend (coalesced, strided,
  // broadcast) needs no gathering.
  uint64_t Buf[32];
  const uint64_t *S = Addr;
  unsigned N = 32;
  bool Ascending = Mask == 0xffffffffu;
  for (unsigned L = 1; Ascending && L < 32; ++L)
    Ascending = Addr[L - 1] <= Addr[L];
  if (!Ascending) {
    N = gatherSorted(Addr, Mask, Buf);
    S = Buf;
  }
  // Transaction and bank sizes are powers of two: shift, do not divide.
  const unsigned Shift = __builtin_ctz(UnitBytes);
  const uint64_t T = UnitBytes;
  // Count distinct segments over the sorted byte ranges.
  uint64_t Last = 0;
  bool Any = false;
  for (unsigned I = 0; I < N; ++I) {
    uint64_t First = S[I] >> Shift, End = (S[I] + Size - 1) >> Shift;
    if (Any && First <= Last)
      First = Last + 1;
    if (End >= First)
      C.Units += End - First + 1;
    if (!Any || End > Last)
      Last = End;
    Any = true;
  }
  C.DistinctBytes = unionBytes(S, N, Size);
  C.IdealUnits = (C.DistinctBytes + T - 1) >> Shift;
  return C;
}

RequestCost atomicRequest(const ArchRules &A, const uint64_t *Addr,
                          uint32_t Mask, unsigned Size) {
  RequestCost C;
  if (!Mask)
    return C;
  uint64_t S[32];
  const unsigned N = gatherSorted(Addr, Mask, S);
  const unsigned Shift = __builtin_ctz(A.TransactionBytes);
  // Equal addresses are adjacent once sorted, and so are a sector's.
  uint64_t Busiest = 0, Run = 0;
  for (unsigned I = 0; I < N; ++I) {
    Run = I > 0 && S[I] == S[I - 1] ? Run + 1 : 1;
    const bool NewSector = I == 0 || (S[I] >> Shift) != (S[I - 1] >> Shift);
    if (NewSector) {
      C.Units += Busiest;
      Busiest = 0;
    }
    Busiest = std::max(Busiest, Run);
  }
  C.Units += Busiest;
  for (unsigned I = 0; I < N; ++I)
    C.SassUnits += I == 0 || (S[I] >> Shift) != (S[I - 1] >> Shift);
  C.DistinctBytes = unionBytes(S, N, Size);
  C.IdealUnits = (C.DistinctBytes + A.TransactionBytes - 1) >> Shift;
  return C;
}

RequestCost sharedAtomicRequest(const ArchRules &A, const uint64_t *Addr,
                                uint32_t Mask, unsigned Size,
                                SharedAtomicForm Form) {
  if (Form == SharedAtomicForm::PerWord)
    return sharedRequest(A, Addr, Mask, Size, false);
  RequestCost C;
  if (!Mask)
    return C;
  uint64_t S[32];
  const unsigned N = gatherSorted(Addr, Mask, S);
  C.DistinctBytes = unionBytes(S, N, Size);
  if (Form == SharedAtomicForm::SpinRound) { // One round's compare-and-swap.
    C.Units = C.IdealUnits = 2;
    C.Ways = 1;
    return C;
  }
  const unsigned Operands = Form == SharedAtomicForm::PerLanePair ? 2 : 1;
  // Every lane counts in each bank its bytes reach, equal words or not.
  const unsigned WordShift = __builtin_ctz(A.BankBytes);
  unsigned PerBank[64] = {0};
  uint64_t Busiest = 0;
  for (unsigned I = 0; I < N; ++I)
    for (uint64_t W = S[I] >> WordShift; W <= (S[I] + Size - 1) >> WordShift;
         ++W)
      Busiest = std::max<uint64_t>(Busiest, ++PerBank[W & (A.Banks - 1)]);
  C.Units = Operands * Busiest;
  C.IdealUnits = Operands;
  C.Ways = Busiest;
  return C;
}

RequestCost priceRequest(const ArchRules &A, const Access &X,
                         const uint64_t *Addr, uint32_t Mask, unsigned Size) {
  if (X.Sp == Space::Shared && X.Kind == AccessKind::Atomic) {
    RequestCost C = sharedAtomicRequest(A, Addr, Mask, Size, X.SharedAtomic);
    C.SassUnits = C.Units;
    return C;
  }
  if (X.Sp == Space::Shared) {
    RequestCost C =
        sharedRequest(A, Addr, Mask, Size, X.Kind == AccessKind::Load);
    C.SassUnits = C.Units;
    return C;
  }
  if (X.Kind == AccessKind::Atomic)
    return atomicRequest(A, Addr, Mask, Size);
  RequestCost C = globalRequest(A.globalBytes(X.Kind), Addr, Mask, Size);
  C.SassUnits = C.Units;
  return C;
}

namespace {

// Whether every active lane reads the address of its active partner lane.
bool pairedLanes(const uint64_t *Addr, uint32_t Mask, unsigned Xor) {
  for (uint32_t M = Mask; M; M &= M - 1) {
    unsigned L = __builtin_ctz(M);
    if ((Mask >> (L ^ Xor) & 1) && Addr[L ^ Xor] != Addr[L])
      return false;
  }
  return true;
}

} // namespace

unsigned sharedGroupLanes(const ArchRules &A, const uint64_t *Addr,
                          uint32_t Mask, unsigned Size, bool Load) {
  unsigned G = A.groupLanes(Size);
  if (Load && A.PackedPairLoads && G < A.WarpSize &&
      (pairedLanes(Addr, Mask, 1) || pairedLanes(Addr, Mask, 2)))
    G *= 2;
  return G;
}

RequestCost sharedRequest(const ArchRules &A, const uint64_t *Addr,
                          uint32_t Mask, unsigned Size, bool Load) {
  const unsigned G = sharedGroupLanes(A, Addr, Mask, Size, Load);
  RequestCost C = sharedRequestInGroups(A, Addr, Mask, Size, G);
  // Packed pairs share a wavefront only where the doubled group has no
  // bank conflict: an LDS.64 whose lanes L and L ^ 2 read one of two
  // words of one bank took 4 wavefronts on an H200, not 2
  // (tests/data/programs/atomics_own/shared_contention.cu, addDouble's
  // final read under pattern 7).
  if (G > A.groupLanes(Size) && C.Ways > 1)
    return sharedRequestInGroups(A, Addr, Mask, Size, A.groupLanes(Size));
  return C;
}

namespace {

/// A row holds one word per bank (all but Kepler): a word's bank and row
/// are the word's number.
bool wordsAreKeys(const ArchRules &A) {
  return A.BankRowBytes == A.Banks * A.BankBytes;
}

/// A full warp served as one group whose lanes read one word each, equally
/// spaced by whole words (rows, columns, padded columns: most shared
/// requests): each bank's count of distinct words, without sorting.
bool equallySpacedWords(const ArchRules &A, const uint64_t *Addr, uint32_t Mask,
                        unsigned Size, unsigned GroupLanes, RequestCost &C) {
  if (Mask != 0xffffffffu || GroupLanes < 32 || !wordsAreKeys(A) ||
      Size > A.BankBytes)
    return false;
  const uint64_t D = Addr[1] - Addr[0];
  if (D % A.BankBytes || Addr[0] % A.BankBytes + Size > A.BankBytes)
    return false;
  for (unsigned L = 2; L < 32; ++L)
    if (Addr[L] - Addr[L - 1] != D)
      return false;
  const unsigned WordShift = __builtin_ctz(A.BankBytes);
  const uint64_t BankMask = A.Banks - 1;
  uint64_t Max = 1;
  if (D) { // 32 distinct words (D is a multiple of the word, not 0).
    unsigned PerBank[64] = {0};
    const uint64_t W0 = Addr[0] >> WordShift, DW = D >> WordShift;
    for (unsigned L = 0; L < 32; ++L)
      Max = std::max<uint64_t>(Max, ++PerBank[(W0 + L * DW) & BankMask]);
  }
  C.Units = Max;
  C.Ways = Max;
  C.IdealUnits = 1;
  C.DistinctBytes = D ? 32 * uint64_t(Size) : Size;
  return true;
}

/// A warp served as one group whose lanes each read within one word, at an
/// address aligned to their width (every 1-, 2- and 4-byte access but a
/// misaligned one): each bank's distinct words counted as the lanes come,
/// a word seen before found in a small hash table, without sorting
/// (data-indexed and wrapped requests); distinct aligned addresses do not
/// overlap, so their bytes are width x count.
bool oneWordPerLane(const ArchRules &A, const uint64_t *Addr, uint32_t Mask,
                    unsigned Size, unsigned GroupLanes, RequestCost &C) {
  if (GroupLanes < 32 || !wordsAreKeys(A) || Size > A.BankBytes ||
      (Size & (Size - 1)))
    return false;
  uint64_t Low = 0;
  for (uint32_t M = Mask; M; M &= M - 1)
    Low |= Addr[__builtin_ctz(M)];
  if (Low & (Size - 1))
    return false;
  const unsigned WordShift = __builtin_ctz(A.BankBytes);
  const uint64_t BankMask = A.Banks - 1;
  constexpr uint64_t Empty = ~uint64_t(0); // No address's word.
  uint64_t Word[64];
  uint8_t Bytes[64]; // The offsets within the word read, as bits.
  std::fill(Word, Word + 64, Empty);
  unsigned PerBank[64] = {0};
  unsigned Max = 0, Distinct = 0;
  for (uint32_t M = Mask; M; M &= M - 1) {
    const uint64_t X = Addr[__builtin_ctz(M)];
    const uint64_t W = X >> WordShift;
    unsigned H = unsigned((W * 0x9E3779B97F4A7C15ull) >> 58);
    while (Word[H] != Empty && Word[H] != W)
      H = (H + 1) & 63;
    if (Word[H] == Empty) {
      Word[H] = W;
      Bytes[H] = 0;
      Max = std::max(Max, ++PerBank[W & BankMask]);
    }
    const uint8_t Bit = uint8_t(1u << (X & (A.BankBytes - 1)));
    Distinct += !(Bytes[H] & Bit);
    Bytes[H] |= Bit;
  }
  C.Units = Max;
  C.Ways = Max;
  C.IdealUnits = 1;
  C.DistinctBytes = uint64_t(Distinct) * Size;
  return true;
}

} // namespace

RequestCost sharedRequestInGroups(const ArchRules &A, const uint64_t *Addr,
                                  uint32_t Mask, unsigned Size,
                                  unsigned GroupLanes) {
  RequestCost C;
  if (!Mask)
    return C;
  const unsigned WordShift = __builtin_ctz(A.BankBytes);
  const unsigned BankShift = __builtin_ctz(A.Banks);
  // Words per row beyond one per bank (Kepler's 64-bit banks): a row's
  // words of one bank are served together, so they count as one.
  const unsigned RowShift = __builtin_ctz(A.BankRowBytes) - WordShift;
  const uint64_t BankMask = A.Banks - 1;
  if (equallySpacedWords(A, Addr, Mask, Size, GroupLanes, C) ||
      oneWordPerLane(A, Addr, Mask, Size, GroupLanes, C))
    return C;
  for (unsigned G = 0; G < A.WarpSize; G += GroupLanes) {
    uint32_t GroupMask =
        GroupLanes >= 32 ? Mask : Mask & (((1u << GroupLanes) - 1) << G);
    if (!GroupMask)
      continue;
    // The distinct (row, bank) pairs this group touches, sorted; a row is
    // one word per bank except on Kepler.
    uint64_t Words[128];
    unsigned N = 0;
    for (uint32_t M = GroupMask; M;) {
      unsigned L = __builtin_ctz(M);
      M &= M - 1;
      for (uint64_t W = Addr[L] >> WordShift;
           W <= (Addr[L] + Size - 1) >> WordShift; ++W) {
        const uint64_t Key = (W >> RowShift << BankShift) | (W & BankMask);
        unsigned J = N++;
        while (J > 0 && Words[J - 1] > Key) {
          Words[J] = Words[J - 1];
          --J;
        }
        Words[J] = Key;
      }
    }
    unsigned PerBank[64] = {0};
    unsigned Max = 0;
    for (unsigned I = 0; I < N; ++I) {
      if (I > 0 && Words[I] == Words[I - 1])
        continue; // The same word is broadcast.
      unsigned &B = PerBank[Words[I] & BankMask];
      if (++B > Max)
        Max = B;
    }
    C.Units += Max;
    C.IdealUnits += 1;
    C.Ways = std::max<uint64_t>(C.Ways, Max);
  }
  uint64_t S[32];
  unsigned N = gatherSorted(Addr, Mask, S);
  C.DistinctBytes = unionBytes(S, N, Size);
  return C;
}

} // namespace gmem
