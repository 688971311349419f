//===- lanes.h - Running an operation over a warp's active lanes ------------===//
//
// The handlers' common shape: read each source's 32 lanes, apply the
// operation to the active ones, write the destination, and mark its lanes
// known where every source was. Values are registers' bits (zero-extended);
// Get/Put convert them to and from the C++ type of the PTX type.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_EXECUTOR_LANES_H
#define GMEM_EXECUTOR_LANES_H

#include "machine.h"

#include <type_traits>

namespace gmem::exec {

template <class T> inline T get(uint64_t V) {
  if constexpr (std::is_same_v<T, float>) {
    const uint32_t W = uint32_t(V);
    float F;
    std::memcpy(&F, &W, 4);
    return F;
  } else if constexpr (std::is_same_v<T, double>) {
    double D;
    std::memcpy(&D, &V, 8);
    return D;
  } else {
    return T(V);
  }
}

template <class T> inline uint64_t put(T V) {
  if constexpr (std::is_same_v<T, float>) {
    uint32_t W;
    std::memcpy(&W, &V, 4);
    return W;
  } else if constexpr (std::is_same_v<T, double>) {
    uint64_t W;
    std::memcpy(&W, &V, 8);
    return W;
  } else if constexpr (std::is_same_v<T, bool>) {
    return V ? 1 : 0;
  } else {
    return uint64_t(std::make_unsigned_t<T>(V));
  }
}

/// Calls F(L) for every lane of Mask (all 32 in a loop the compiler can
/// unroll when the warp is converged).
template <class Fn> inline void forLanes(uint32_t Mask, Fn &&F) {
  if (Mask == ~0u) {
    for (unsigned L = 0; L < 32; ++L)
      F(L);
    return;
  }
  for (; Mask; Mask &= Mask - 1)
    F(unsigned(__builtin_ctz(Mask)));
}

/// The known lanes of a predicate and (Comb 1) or or (Comb 2) of A and B
/// (xor otherwise): where both are known, and where one known operand
/// decides the result alone (false for and, true for or), as `valid &&
/// f(x)` does past the end of a partial tile, whatever x is.
inline uint32_t combinedKnown(unsigned Comb, uint32_t A, uint32_t KA,
                              uint32_t B, uint32_t KB) {
  uint32_t K = KA & KB;
  if (Comb == 1)
    K |= (KA & ~A) | (KB & ~B);
  else if (Comb == 2)
    K |= (KA & A) | (KB & B);
  return K;
}

/// The lanes of I's first three sources (the first stands in for those it
/// lacks), and the lanes where all of them are known.
struct Sources {
  const uint64_t *A, *B, *C;
  uint32_t Known;
};
inline Sources sources(Ctx &C, const XInstr &I) {
  Sources S;
  S.A = C.lanes(I.S[0]);
  S.B = I.NS > 1 ? C.lanes(I.S[1]) : S.A;
  S.C = I.NS > 2 ? C.lanes(I.S[2]) : S.A;
  S.Known = C.known(I.S[0]);
  if (I.NS > 1)
    S.Known &= C.known(I.S[1]);
  if (I.NS > 2)
    S.Known &= C.known(I.S[2]);
  return S;
}

/// D = Op(S[0], S[1], S[2]) over the active lanes, sources read as T and
/// the result as R; the destination's lanes are known where all sources'
/// are.
template <class T, class R, class Op>
inline void lanewise(Ctx &C, const XInstr &I, Op &&F) {
  uint64_t *D = C.lanes(I.D[0]);
  const Sources S = sources(C, I);
  forLanes(C.Active, [&](unsigned L) {
    D[L] = put<R>(F(get<T>(S.A[L]), get<T>(S.B[L]), get<T>(S.C[L])));
  });
  C.setKnown(I.D[0], S.Known);
}

} // namespace gmem::exec

#endif // GMEM_EXECUTOR_LANES_H
