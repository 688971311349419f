//===- int_semantics.h - C++ integer operators, written once --------------===//
//
// The device's and the host's integer arithmetic as C++ defines it, for
// every evaluator of integer expressions: the warp and box evaluators, the
// host interpreter and the SASS matcher. Values are normalised to their type
// (normalize, model.h): truncated to Bits, then sign- or zero-extended into
// an int64_t. Unsigned arithmetic wraps; division truncates toward zero;
// division by zero, the type's minimum divided by -1, and a shift by a
// negative amount or by the type's width or more are undefined, and say so
// instead of giving a value.
//
// The fuzzers' lane oracle (fuzz/lane_oracle.h) is a second writing kept
// apart on purpose: it checks this one.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_MODEL_INT_SEMANTICS_H
#define GMEM_MODEL_INT_SEMANTICS_H

#include "model.h"

namespace gmem {

/// Why an operator has no value in C++.
enum class IntFault : uint8_t {
  None,
  DivisionByZero,
  DivisionOverflow, ///< The type's minimum divided by -1.
  ShiftOutOfRange,  ///< A negative amount, or the width or more.
};

inline const char *intFaultText(IntFault F) {
  switch (F) {
  case IntFault::DivisionByZero:
    return "division by zero";
  case IntFault::DivisionOverflow:
    return "division overflows (the type's minimum divided by -1)";
  case IntFault::ShiftOutOfRange:
    return "shift by an amount out of range";
  default:
    return "";
  }
}

/// Whether K compares (its result is 0 or 1 whatever its operands' type).
inline bool isComparison(Op K) {
  return K == Op::Lt || K == Op::Le || K == Op::Gt || K == Op::Ge ||
         K == Op::Eq || K == Op::Ne;
}

/// Whether K is an operator intBinary computes.
inline bool isIntBinary(Op K) {
  switch (K) {
  case Op::Add:
  case Op::Sub:
  case Op::Mul:
  case Op::Div:
  case Op::Rem:
  case Op::Shl:
  case Op::Shr:
  case Op::And:
  case Op::Or:
  case Op::Xor:
  case Op::Lt:
  case Op::Le:
  case Op::Gt:
  case Op::Ge:
  case Op::Eq:
  case Op::Ne:
  case Op::Min:
  case Op::Max:
    return true;
  default:
    return false;
  }
}

/// A / B (Div) or A % B in T: C++'s truncating division.
inline IntFault intDivide(bool Div, IntType T, int64_t A, int64_t B,
                          int64_t &Out) {
  Out = 0;
  if (B == 0)
    return IntFault::DivisionByZero;
  const int64_t Min = T.Bits >= 64 ? INT64_MIN : -(int64_t(1) << (T.Bits - 1));
  if (T.Signed && B == -1 && A == Min)
    return IntFault::DivisionOverflow;
  Out = T.Signed ? normalize(uint64_t(Div ? A / B : A % B), T)
                 : normalize(Div ? uint64_t(A) / uint64_t(B)
                                 : uint64_t(A) % uint64_t(B),
                             T);
  return IntFault::None;
}

/// A << B (Left) or A >> B in T; the amount B is read signed where its own
/// type is (AmountSigned).
inline IntFault intShift(bool Left, IntType T, int64_t A, int64_t B,
                         bool AmountSigned, int64_t &Out) {
  Out = 0;
  const uint64_t UB = uint64_t(B);
  if (UB >= T.Bits || (AmountSigned && B < 0))
    return IntFault::ShiftOutOfRange;
  Out = Left       ? normalize(uint64_t(A) << UB, T)
        : T.Signed ? normalize(uint64_t(A >> UB), T)
                   : normalize(uint64_t(A) >> UB, T);
  return IntFault::None;
}

/// A K B, both normalised to T (the type the usual arithmetic conversions
/// give both operands; a shift's T is its promoted left operand, and
/// AmountSigned says whether its right operand's type is signed). The
/// result is normalised to T; a comparison's is 0 or 1. Out is 0 where the
/// operator is undefined.
inline IntFault intBinary(Op K, IntType T, int64_t A, int64_t B, int64_t &Out,
                          bool AmountSigned = false) {
  const uint64_t UA = uint64_t(A), UB = uint64_t(B);
  const bool S = T.Signed;
  Out = 0;
  switch (K) {
  case Op::Add:
    Out = normalize(UA + UB, T);
    break;
  case Op::Sub:
    Out = normalize(UA - UB, T);
    break;
  case Op::Mul:
    Out = normalize(UA * UB, T);
    break;
  case Op::Div:
  case Op::Rem:
    return intDivide(K == Op::Div, T, A, B, Out);
  case Op::Shl:
  case Op::Shr:
    return intShift(K == Op::Shl, T, A, B, AmountSigned, Out);
  case Op::And:
    Out = normalize(UA & UB, T);
    break;
  case Op::Or:
    Out = normalize(UA | UB, T);
    break;
  case Op::Xor:
    Out = normalize(UA ^ UB, T);
    break;
  case Op::Lt:
    Out = S ? A < B : UA < UB;
    break;
  case Op::Le:
    Out = S ? A <= B : UA <= UB;
    break;
  case Op::Gt:
    Out = S ? A > B : UA > UB;
    break;
  case Op::Ge:
    Out = S ? A >= B : UA >= UB;
    break;
  case Op::Eq:
    Out = A == B;
    break;
  case Op::Ne:
    Out = A != B;
    break;
  case Op::Min:
  case Op::Max:
    Out = ((S ? A < B : UA < UB) == (K == Op::Min)) ? A : B;
    break;
  default:
    break;
  }
  return IntFault::None;
}

} // namespace gmem

#endif // GMEM_MODEL_INT_SEMANTICS_H
