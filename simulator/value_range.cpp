//===- value_range.cpp - Interval rules for the model's operators ---------===//
#include "value_range.h"

#include <algorithm>

namespace gmem {

using I128 = __int128;

ValueRange fullRange(IntType T) {
  if (T.Bits == 1)
    return {0, 1};
  if (!T.Signed)
    return {0, (I128(1) << T.Bits) - 1};
  return {-(I128(1) << (T.Bits - 1)), (I128(1) << (T.Bits - 1)) - 1};
}

ValueRange pointRange(int64_t V, IntType T) {
  I128 X = (!T.Signed && T.Bits == 64) ? I128(uint64_t(V)) : I128(V);
  return {X, X};
}

namespace {

I128 width(IntType T) { return I128(1) << (T.Bits == 1 ? 1 : T.Bits); }

/// Whether R holds at least W values; a span too wide for I128 does.
bool spansAtLeast(const ValueRange &R, I128 W) {
  I128 Span;
  return __builtin_sub_overflow(R.Hi, R.Lo, &Span) || Span >= W;
}

/// Add, Sub, Mul, Neg, BitNot, Shl and casts commute with wrap-around: their
/// ranges are kept unwrapped (a range wider than the type is all of it), and
/// the values are the range's members reduced to the type.
ValueRange ring(const ValueRange &R, IntType T) {
  if (T.Bits == 1 || spansAtLeast(R, width(T)))
    return fullRange(T);
  return R;
}

/// The same set as values of T: shifted into T's window when it lies in one
/// window, else all of T.
ValueRange canon(const ValueRange &R, IntType T) {
  if (T.Bits == 1)
    return R.Lo >= 0 && R.Hi <= 1 ? R : fullRange(T);
  ValueRange F = fullRange(T);
  if (spansAtLeast(R, width(T)))
    return F;
  I128 W = width(T);
  // Which window the low end is in, counted from F.Lo.
  I128 D = R.Lo - F.Lo;
  I128 K = D >= 0 ? D / W : -((-D + W - 1) / W);
  ValueRange S{R.Lo - K * W, R.Hi - K * W};
  return S.Hi <= F.Hi ? S : F;
}

/// Hull of Fn over the corners; false on overflow.
template <typename F>
bool corners(const ValueRange &A, const ValueRange &B, F Fn, ValueRange &Out) {
  I128 C[4];
  const I128 As[2] = {A.Lo, A.Hi}, Bs[2] = {B.Lo, B.Hi};
  for (int I = 0; I < 4; ++I)
    if (!Fn(As[I / 2], Bs[I % 2], C[I]))
      return false;
  Out = {*std::min_element(C, C + 4), *std::max_element(C, C + 4)};
  return true;
}

bool mulNoOverflow(I128 X, I128 Y, I128 &Z) {
  return !__builtin_mul_overflow(X, Y, &Z);
}

/// Smallest 2^k - 1 at or above V (V >= 0).
I128 allOnesAbove(I128 V) {
  I128 M = 0;
  while (M < V)
    M = M * 2 + 1;
  return M;
}

ValueRange binaryRange(const Expr &E, ValueRange A, ValueRange B) {
  const IntType T = E.Type;
  ValueRange R = fullRange(T);
  switch (E.Kind) {
  case Op::Add:
    return ring({A.Lo + B.Lo, A.Hi + B.Hi}, T);
  case Op::Sub:
    return ring({A.Lo - B.Hi, A.Hi - B.Lo}, T);
  case Op::Mul:
    return corners(A, B, mulNoOverflow, R) ? ring(R, T) : fullRange(T);
  case Op::Shl:
    // x << s == x * 2^s, modulo the width.
    B = canon(B, E.Ops[1]->Type);
    if (B.Lo >= 0 && B.Hi < T.Bits &&
        corners(A, {I128(1) << int(B.Lo), I128(1) << int(B.Hi)}, mulNoOverflow,
                R))
      return ring(R, T);
    return fullRange(T);
  default:
    break;
  }
  // The rest depend on the values themselves, not their residues.
  A = canon(A, E.Ops[0]->Type);
  B = canon(B, E.Ops[1]->Type);
  switch (E.Kind) {
  case Op::Div:
    // Truncating division is monotone in each operand while the divisor
    // keeps its sign: the extremes are at the corners.
    if (B.Lo > 0 || B.Hi < 0) {
      corners(
          A, B,
          [](I128 X, I128 Y, I128 &Z) {
            Z = X / Y;
            return true;
          },
          R);
      return canon(R, T);
    }
    return fullRange(T);
  case Op::Rem: {
    if (!(B.Lo > 0 || B.Hi < 0))
      return fullRange(T);
    // |a % b| < |b|, and a % b is zero or has the sign of a.
    I128 M = std::max(B.Lo < 0 ? -B.Lo : B.Lo, B.Hi < 0 ? -B.Hi : B.Hi) - 1;
    return canon({std::max(std::min<I128>(A.Lo, 0), -M),
                  std::min(std::max<I128>(A.Hi, 0), M)},
                 T);
  }
  case Op::Shr:
    if (B.Lo >= 0 && B.Hi < T.Bits) {
      I128 Lo = A.Lo >= 0 ? A.Lo >> int(B.Hi) : A.Lo >> int(B.Lo);
      I128 Hi = A.Hi >= 0 ? A.Hi >> int(B.Lo) : A.Hi >> int(B.Hi);
      return canon({Lo, Hi}, T);
    }
    return fullRange(T);
  case Op::And:
    // A non-negative operand bounds the result: x & m keeps a subset of
    // m's bits.
    if (A.Lo >= 0 && B.Lo >= 0)
      return {0, std::min(A.Hi, B.Hi)};
    if (A.Lo >= 0)
      return {0, A.Hi};
    if (B.Lo >= 0)
      return {0, B.Hi};
    return fullRange(T);
  case Op::Or:
  case Op::Xor:
    if (A.Lo >= 0 && B.Lo >= 0)
      return canon({E.Kind == Op::Or ? std::max(A.Lo, B.Lo) : I128(0),
                    allOnesAbove(std::max(A.Hi, B.Hi))},
                   T);
    return fullRange(T);
  case Op::Min:
    return {std::min(A.Lo, B.Lo), std::min(A.Hi, B.Hi)};
  case Op::Max:
    return {std::max(A.Lo, B.Lo), std::max(A.Hi, B.Hi)};
  default:
    return fullRange(T); // Comparisons and logical operators: bool.
  }
}

} // namespace

ValueRange valueRange(const ValueRange &R, IntType T) { return canon(R, T); }

ValueRange rangeOf(const Expr &E, const LeafRange &Leaf) {
  const IntType T = E.Type;
  switch (E.Kind) {
  case Op::Const:
    return pointRange(E.Value, T);
  case Op::Param:
  case Op::Var:
  case Op::Builtin:
  case Op::Unknown:
    return Leaf(E);
  case Op::Cast: {
    ValueRange A = rangeOf(*E.Ops[0], Leaf);
    if (T.Bits == 1) { // A test against zero.
      A = canon(A, E.Ops[0]->Type);
      return A.Lo > 0 || A.Hi < 0     ? ValueRange{1, 1}
             : A.Lo == 0 && A.Hi == 0 ? ValueRange{0, 0}
                                      : ValueRange{0, 1};
    }
    // Widening extends the value (by sign or zero), not the residue.
    const IntType From = E.Ops[0]->Type;
    if (T.Bits > From.Bits)
      A = canon(A, From);
    return ring(A, T);
  }
  case Op::Neg: {
    ValueRange A = rangeOf(*E.Ops[0], Leaf);
    return ring({-A.Hi, -A.Lo}, T);
  }
  case Op::BitNot: { // ~x == -x - 1
    ValueRange A = rangeOf(*E.Ops[0], Leaf);
    return ring({-A.Hi - 1, -A.Lo - 1}, T);
  }
  case Op::LNot:
    return {0, 1};
  case Op::Select: {
    ValueRange C = canon(rangeOf(*E.Ops[0], Leaf), E.Ops[0]->Type);
    if (C.Lo > 0 || C.Hi < 0)
      return rangeOf(*E.Ops[1], Leaf);
    if (C.Lo == 0 && C.Hi == 0)
      return rangeOf(*E.Ops[2], Leaf);
    ValueRange A = canon(rangeOf(*E.Ops[1], Leaf), T),
               B = canon(rangeOf(*E.Ops[2], Leaf), T);
    return {std::min(A.Lo, B.Lo), std::max(A.Hi, B.Hi)};
  }
  default:
    break;
  }
  if (E.Ops.size() != 2)
    return fullRange(T);
  ValueRange A = rangeOf(*E.Ops[0], Leaf), B = rangeOf(*E.Ops[1], Leaf);
  return binaryRange(E, A, B);
}

} // namespace gmem
