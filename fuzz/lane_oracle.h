//===- lane_oracle.h - One lane's values computed the plain C++ way -------===//
//
// The expression fuzzer's reference: each operation is done on the C++ type
// the model names (int32_t, uint64_t, ...), one lane at a time, with C++'s
// rules for what is undefined (division by zero, INT_MIN / -1, shifts by the
// width or more), which the model reports as unknown. Signed overflow of
// + - * and << wraps, as the device computes it.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_FUZZ_LANE_ORACLE_H
#define GMEM_FUZZ_LANE_ORACLE_H

#include "model.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

namespace gmem::fuzz {

/// What one lane sees.
struct LaneEnv {
  int64_t Builtins[13] = {};
  std::vector<int64_t> Params;
  std::vector<std::optional<int64_t>> Slots; ///< nullopt: unknown.
};

/// The model's representation of a value of type T: sign- or zero-extended.
/// (uint64_t keeps its bits.)
template <typename T> int64_t rep(T V) { return static_cast<int64_t>(V); }

using Result = std::optional<int64_t>;

template <typename T> Result arith(Op K, int64_t A64, int64_t B64) {
  using U = std::make_unsigned_t<T>;
  static_assert(sizeof(T) >= 4, "C++ does no arithmetic below int");
  T A = static_cast<T>(A64), B = static_cast<T>(B64);
  switch (K) {
  case Op::Add:
    return rep(T(U(A) + U(B)));
  case Op::Sub:
    return rep(T(U(A) - U(B)));
  case Op::Mul:
    return rep(T(U(A) * U(B)));
  case Op::Div:
  case Op::Rem:
    if (B == 0)
      return std::nullopt;
    if (std::is_signed_v<T> && A == std::numeric_limits<T>::min() && B == T(-1))
      return std::nullopt;
    return rep(T(K == Op::Div ? A / B : A % B));
  case Op::And:
    return rep(T(A & B));
  case Op::Or:
    return rep(T(A | B));
  case Op::Xor:
    return rep(T(A ^ B));
  case Op::Min:
    return rep(std::min(A, B));
  case Op::Max:
    return rep(std::max(A, B));
  case Op::Lt:
    return A < B;
  case Op::Le:
    return A <= B;
  case Op::Gt:
    return A > B;
  case Op::Ge:
    return A >= B;
  case Op::Eq:
    return A == B;
  case Op::Ne:
    return A != B;
  default:
    return std::nullopt;
  }
}

template <typename T>
Result shift(Op K, int64_t A64, int64_t Amount, bool AmountSigned) {
  using U = std::make_unsigned_t<T>;
  if ((AmountSigned && Amount < 0) || uint64_t(Amount) >= sizeof(T) * 8)
    return std::nullopt;
  T A = static_cast<T>(A64);
  if (K == Op::Shl)
    return rep(T(U(A) << Amount));
  return rep(T(A >> Amount));
}

/// Dispatches on the 32- and 64-bit types C++ computes in.
template <typename F> Result inArith(IntType T, F Fn) {
  if (T.Bits == 32)
    return T.Signed ? Fn(int32_t()) : Fn(uint32_t());
  if (T.Bits == 64)
    return T.Signed ? Fn(int64_t()) : Fn(uint64_t());
  return std::nullopt;
}

template <typename To> int64_t convertTo(int64_t V, IntType From) {
  switch (From.Bits) {
  case 1:
    return rep(static_cast<To>(static_cast<bool>(V)));
  case 8:
    return From.Signed ? rep(static_cast<To>(static_cast<int8_t>(V)))
                       : rep(static_cast<To>(static_cast<uint8_t>(V)));
  case 16:
    return From.Signed ? rep(static_cast<To>(static_cast<int16_t>(V)))
                       : rep(static_cast<To>(static_cast<uint16_t>(V)));
  case 32:
    return From.Signed ? rep(static_cast<To>(static_cast<int32_t>(V)))
                       : rep(static_cast<To>(static_cast<uint32_t>(V)));
  default:
    return From.Signed ? rep(static_cast<To>(V))
                       : rep(static_cast<To>(static_cast<uint64_t>(V)));
  }
}

inline int64_t convert(int64_t V, IntType From, IntType To) {
  switch (To.Bits) {
  case 1:
    return convertTo<bool>(V, From);
  case 8:
    return To.Signed ? convertTo<int8_t>(V, From) : convertTo<uint8_t>(V, From);
  case 16:
    return To.Signed ? convertTo<int16_t>(V, From)
                     : convertTo<uint16_t>(V, From);
  case 32:
    return To.Signed ? convertTo<int32_t>(V, From)
                     : convertTo<uint32_t>(V, From);
  default:
    return To.Signed ? convertTo<int64_t>(V, From)
                     : convertTo<uint64_t>(V, From);
  }
}

/// E for one lane; nullopt when the model must call it unknown.
inline Result evalLane(const Expr &E, const LaneEnv &L) {
  switch (E.Kind) {
  case Op::Const:
    return E.Value;
  case Op::Param:
    return L.Params[E.Index];
  case Op::Var:
    return L.Slots[E.Index];
  case Op::Builtin:
    return L.Builtins[E.Index];
  case Op::Unknown:
    return std::nullopt;
  case Op::Cast: {
    Result V = evalLane(*E.Ops[0], L);
    if (!V)
      return V;
    return convert(*V, E.Ops[0]->Type, E.Type);
  }
  case Op::Neg:
  case Op::BitNot: {
    Result V = evalLane(*E.Ops[0], L);
    if (!V)
      return V;
    return inArith(E.Type, [&](auto Zero) -> Result {
      using T = decltype(Zero);
      using U = std::make_unsigned_t<T>;
      T A = static_cast<T>(*V);
      return rep(T(E.Kind == Op::Neg ? U(U(0) - U(A)) : U(~U(A))));
    });
  }
  case Op::LNot: {
    Result V = evalLane(*E.Ops[0], L);
    if (!V)
      return V;
    return *V == 0;
  }
  case Op::LAnd:
  case Op::LOr: {
    Result A = evalLane(*E.Ops[0], L);
    if (!A)
      return A;
    bool Left = *A != 0;
    if (Left == (E.Kind == Op::LOr))
      return Left; // The right side is not evaluated.
    Result B = evalLane(*E.Ops[1], L);
    if (!B)
      return B;
    return *B != 0;
  }
  case Op::Select: {
    Result C = evalLane(*E.Ops[0], L);
    if (!C)
      return C;
    return evalLane(*E.Ops[*C ? 1 : 2], L);
  }
  default:
    break;
  }
  Result A = evalLane(*E.Ops[0], L), B = evalLane(*E.Ops[1], L);
  if (!A || !B)
    return std::nullopt;
  if (E.Kind == Op::Shl || E.Kind == Op::Shr)
    return inArith(E.Type, [&](auto Zero) {
      return shift<decltype(Zero)>(E.Kind, *A, *B, E.Ops[1]->Type.Signed);
    });
  return inArith(E.Ops[0]->Type, [&](auto Zero) {
    return arith<decltype(Zero)>(E.Kind, *A, *B);
  });
}

} // namespace gmem::fuzz

#endif // GMEM_FUZZ_LANE_ORACLE_H
