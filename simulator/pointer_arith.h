//===- pointer_arith.h - Pointer arithmetic that leaves the address space -===//
//
// `p + i` computes p + i * sizeof(*p) in 64 bits. With a large enough index
// the exact value leaves the address space and the 64-bit result wraps: an
// index of 2^62 floats lands back on p itself. C++ leaves such arithmetic
// undefined and no allocation can be reached by it, so the evaluators make
// the lane unknown with PointerOverflowReason instead of pricing the
// wrapped address. Values are exact in 128 bits from the operands' 64 bits.
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

} // namespace gmem

#endif // GMEM_SIMULATOR_POINTER_ARITH_H
