//===- pointer_arith.h - Pointer arithmetic that leaves the address space -===//
//
// `p + i` computes p + i * sizeof(*p) in 64 bits. With a large enough index
// the exact value leaves the address space and the 64-bit result wraps: an
// index of 2^62 floats lands back on p itself. C++ leaves such arithmetic
// undefined and no allocation can be reached by it, so the evaluators make
// the lane unknown (UnknownCause::PointerOverflow, PointerOverflowReason)
// instead of pricing the wrapped address. Values are exact in 128 bits from
// the operands' 64 bits.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_POINTER_ARITH_H
#define GMEM_SIMULATOR_POINTER_ARITH_H

#include "model.h"

namespace gmem {

extern const char *const PointerOverflowReason;

/// Whether operand Which of pointer arithmetic E holds a signed value in its
/// 64 bits: a signed index, and an offset that is a constant (folded from a
/// possibly negative index), a scaled index or a signed index. Pointers,
/// element sizes and unsigned indices are unsigned.
bool readsSigned(const Expr &E, unsigned Which);

/// The exact values pointer arithmetic E can have, [Lo, Hi): an address
/// (Add, Sub) lies in [0, 2^64); an offset (Mul) in [-2^63, 2^63), as no
/// allocation spans 2^63 bytes.
struct PointerRange {
  __int128 Lo, Hi;
};
inline PointerRange pointerRange(const Expr &E) {
  if (E.Kind == Op::Mul)
    return {-(__int128(1) << 63), __int128(1) << 63};
  return {0, __int128(1) << 64};
}

/// Exact value of E (Add, Sub or Mul) from its operands' exact values;
/// false when the product does not fit 128 bits.
inline bool pointerExact(const Expr &E, __int128 A, __int128 B, __int128 &Out) {
  switch (E.Kind) {
  case Op::Add:
    Out = A + B;
    return true;
  case Op::Sub:
    Out = A - B;
    return true;
  default:
    return !__builtin_mul_overflow(A, B, &Out);
  }
}

/// Whether pointer arithmetic E on operands with the 64 bits A and B, read
/// signed where SA and SB say, keeps a value it can have. Most operands fit
/// int64 and most results too: those are decided without 128 bits.
inline bool pointerFits(const Expr &E, bool SA, bool SB, int64_t A, int64_t B) {
  if ((SA || A >= 0) && (SB || B >= 0)) {
    int64_t R;
    switch (E.Kind) {
    case Op::Mul:
      return !__builtin_mul_overflow(A, B, &R);
    case Op::Add:
      if (!__builtin_add_overflow(A, B, &R))
        return R >= 0;
      break;
    default:
      if (!__builtin_sub_overflow(A, B, &R))
        return R >= 0;
      break;
    }
  }
  __int128 X;
  const PointerRange Can = pointerRange(E);
  return pointerExact(E, SA ? __int128(A) : __int128(uint64_t(A)),
                      SB ? __int128(B) : __int128(uint64_t(B)), X) &&
         X >= Can.Lo && X < Can.Hi;
}

/// Whether pointerFits holds for all N lanes of A and B, shown in one
/// branch-free pass when every operand lies within 2^62 of 0 (Mul: 2^31);
/// false means: ask lane by lane.
inline bool pointerFitsAll(const Expr &E, bool SA, bool SB, const int64_t *A,
                           const int64_t *B, unsigned N) {
  const bool Mul = E.Kind == Op::Mul;
  const uint64_t Bound = uint64_t(1) << (Mul ? 31 : 62);
  // Signed: [-Bound, Bound); unsigned: [0, Bound).
  const uint64_t OffA = SA ? Bound : 0, LimA = SA ? 2 * Bound : Bound;
  const uint64_t OffB = SB ? Bound : 0, LimB = SB ? 2 * Bound : Bound;
  const bool Sub = E.Kind == Op::Sub;
  bool Bad = false;
  for (unsigned L = 0; L < N; ++L) {
    uint64_t X = uint64_t(A[L]), Y = uint64_t(B[L]);
    // Within the bounds a sum or difference fits int64 (a product of two
    // values below 2^31 too): an address is then negative or fine.
    uint64_t R = Sub ? X - Y : X + Y;
    Bad |= (X + OffA >= LimA) | (Y + OffB >= LimB) | (!Mul & (R >> 63));
  }
  return !Bad;
}

/// Whether E can never leave: an index of at most 32 bits times an element
/// size below 2^31 stays within 2^63.
inline bool pointerCannotLeave(const Expr &E) {
  const Expr &I = *E.Ops[0], &S = *E.Ops[1];
  return E.Kind == Op::Mul && I.Kind == Op::Cast && I.Ops[0]->Type.Bits <= 32 &&
         S.Kind == Op::Const && S.Value >= 0 && S.Value < (int64_t(1) << 31);
}

} // namespace gmem

#endif // GMEM_SIMULATOR_POINTER_ARITH_H
