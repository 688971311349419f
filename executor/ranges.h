//===- ranges.h - Unknown values that lie in a short range ----------------===//
//
// Where both sides of a branch on an unknown value have run (fork_join.cpp),
// a register the sides leave different is unknown, but often one of a few
// values: a cursor advanced or not (`if (a < b) ++i`). A range keeps them:
// the lane's value is Lo + k for some 0 <= k <= N, read at the register's
// width (the bits above it ignored). add, sub and mov carry ranges, and
// setp decides a comparison that every value of the range decides alike:
// a cursor known to be past its end stays past it.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_EXECUTOR_RANGES_H
#define GMEM_EXECUTOR_RANGES_H

#include "lanes.h"

namespace gmem::exec {

/// The widest range kept (values above Lo).
constexpr unsigned MaxRangeWidth = 63;

/// The values a source lane may have: one known value, a range, or any.
struct Span {
  uint64_t Lo = 0;
  unsigned N = 0;
  bool Bounded = false;
};

inline Span spanOf(const Ctx &C, Opnd O, unsigned L) {
  if (C.known(O) >> L & 1)
    return {C.lanes(O)[L], 0, true};
  if (C.RM && fileOf(O) == FReg && (C.RM[slotOf(O)] >> L & 1)) {
    const size_t At = size_t(slotOf(O)) * 32 + L;
    return {C.Fr->RLo[At], C.Fr->RN[At], true};
  }
  return {};
}

/// Gives lane L of register slot S the range Lo..Lo+N (its value unknown).
inline void setRange(Frame &Fr, uint32_t S, unsigned L, uint64_t Lo,
                     unsigned N) {
  if (Fr.RLo.empty()) {
    Fr.RLo.resize(Fr.RM.size() * 32);
    Fr.RN.resize(Fr.RM.size() * 32);
  }
  Fr.Ranged = true;
  Fr.RM[S] |= 1u << L;
  Fr.RLo[size_t(S) * 32 + L] = Lo;
  Fr.RN[size_t(S) * 32 + L] = uint8_t(N);
}

/// The same, from a handler: the context sees the frame's ranges from now.
inline void setRange(Ctx &C, uint32_t S, unsigned L, uint64_t Lo, unsigned N) {
  setRange(*C.Fr, S, L, Lo, N);
  C.RM = C.Fr->RM.data();
}

/// The smallest range holding both spans; unbounded when wider than
/// MaxRangeWidth.
inline Span hull(const Span &A, const Span &B) {
  if (!A.Bounded || !B.Bounded)
    return {};
  const uint64_t Lo = std::min(A.Lo, B.Lo);
  const uint64_t Hi = std::max(A.Lo + A.N, B.Lo + B.N);
  if (Hi - Lo > MaxRangeWidth || Hi < Lo)
    return {};
  return {Lo, unsigned(Hi - Lo), true};
}

/// A lane's value where two paths meet, one that left V1 (known: K1; its
/// values S1) and one that left V2 (K2, S2): Same where both left the same
/// known value; else the hull of both (unbounded when either is).
inline Span meet(uint64_t V1, bool K1, const Span &S1, uint64_t V2, bool K2,
                 const Span &S2, bool &Same) {
  Same = K1 && K2 && V1 == V2;
  return Same ? S1 : hull(S1, S2);
}

/// The lanes of a predicate known after both of two paths, and alike.
inline uint32_t alike(uint32_t P1, uint32_t K1, uint32_t P2, uint32_t K2) {
  return K1 & K2 & ~(P1 ^ P2);
}

/// Sources of an add, sub or mov, taken before the handler writes the
/// destination (which may be a source): the lanes with a range among them.
struct RangedSources {
  uint32_t Lanes = 0;
  Span A[32], B[32];
  RangedSources(const Ctx &C, const XInstr &I) {
    // Lanes whose guard is unknown may keep the old value: no range.
    const uint32_t Unknown =
        C.Active & ~C.RegTaint &
        ~(C.known(I.S[0]) & (I.NS > 1 ? C.known(I.S[1]) : ~0u));
    if (fileOf(I.D[0]) != FReg)
      return;
    forLanes(Unknown, [&](unsigned L) {
      A[L] = spanOf(C, I.S[0], L);
      if (I.NS > 1)
        B[L] = spanOf(C, I.S[1], L);
      if (A[L].Bounded && (I.NS < 2 || B[L].Bounded))
        Lanes |= 1u << L;
    });
  }
};

/// After D = A + B (Sub: A - B) of type T over ranges or known values:
/// D's lanes with ranges.
template <class T>
void rangeSum(Ctx &C, const XInstr &I, const RangedSources &In, bool Sub) {
  using UT = std::make_unsigned_t<T>;
  forLanes(In.Lanes, [&](unsigned L) {
    const Span &A = In.A[L], &B = In.B[L];
    const unsigned N = A.N + B.N;
    if (N > MaxRangeWidth)
      return;
    // A - B ranges over A.Lo - (B.Lo + B.N) and N values above.
    const UT Lo = Sub ? UT(UT(A.Lo) - UT(B.Lo + B.N)) : UT(UT(A.Lo) + UT(B.Lo));
    setRange(C, slotOf(I.D[0]), L, uint64_t(Lo), N);
  });
}

} // namespace gmem::exec

#endif // GMEM_EXECUTOR_RANGES_H
