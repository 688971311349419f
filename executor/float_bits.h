//===- float_bits.h - IEEE bits as the GPU computes them --------------------===//
//
// Narrow formats (binary16, bfloat16) by rounding from double with each of
// PTX's rounding modes, flush-to-zero, and the bit casts the handlers use.
// Values are kept in registers as their bits, zero-extended to 64.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_EXECUTOR_FLOAT_BITS_H
#define GMEM_EXECUTOR_FLOAT_BITS_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace gmem::exec {

/// PTX rounding modes, as XInstr::Flags holds them (>> 2).
enum class Round : uint8_t { Nearest, Zero, Down, Up };

inline float asFloat(uint64_t B) {
  const uint32_t W = uint32_t(B);
  float F;
  std::memcpy(&F, &W, 4);
  return F;
}
inline double asDouble(uint64_t B) {
  double D;
  std::memcpy(&D, &B, 8);
  return D;
}
inline uint64_t bitsOf(float F) {
  uint32_t W;
  std::memcpy(&W, &F, 4);
  return W;
}
inline uint64_t bitsOf(double D) {
  uint64_t W;
  std::memcpy(&W, &D, 8);
  return W;
}

/// A subnormal float becomes a zero of its sign (.ftz).
inline float flush(float F) {
  return std::fpclassify(F) == FP_SUBNORMAL ? std::copysign(0.0f, F) : F;
}

/// Rounds the non-negative Q to an integer in mode R for a value of sign
/// Neg (toward minus infinity rounds a negative magnitude up).
inline double roundMagnitude(double Q, Round R, bool Neg) {
  switch (R) {
  case Round::Nearest: {
    const double F = std::floor(Q), D = Q - F;
    if (D > 0.5 || (D == 0.5 && std::fmod(F, 2.0) != 0))
      return F + 1;
    return F;
  }
  case Round::Zero:
    return std::floor(Q);
  case Round::Down:
    return Neg ? std::ceil(Q) : std::floor(Q);
  case Round::Up:
    return Neg ? std::floor(Q) : std::ceil(Q);
  }
  return Q;
}

/// X in a binary format of ExpBits and ManBits (binary16: 5, 10;
/// bfloat16: 8, 7), rounded in mode R; NaN is the canonical quiet NaN.
inline uint32_t toNarrow(double X, unsigned ExpBits, unsigned ManBits,
                         Round R, bool Ftz = false, bool Sat = false) {
  const uint32_t SignBit = 1u << (ExpBits + ManBits);
  const uint32_t ExpMask = ((1u << ExpBits) - 1) << ManBits;
  if (std::isnan(X))
    return ExpMask | ((1u << ManBits) - 1); // 0x7fff, 0x7fff
  const bool Neg = std::signbit(X);
  const uint32_t Sign = Neg ? SignBit : 0;
  double A = std::fabs(X);
  if (Sat)
    A = std::fmin(A, 1.0), A = Neg ? 0.0 : A;
  const int Bias = (1 << (ExpBits - 1)) - 1;
  const uint32_t MaxFinite = ExpMask - (1u << ManBits) + ((1u << ManBits) - 1);
  auto Overflow = [&]() -> uint32_t {
    const bool ToInf = R == Round::Nearest || (R == Round::Up && !Neg) ||
                       (R == Round::Down && Neg);
    return Sign | (ToInf ? ExpMask : MaxFinite);
  };
  if (std::isinf(A))
    return Sign | ExpMask;
  if (A == 0)
    return Sign;
  int E;
  std::frexp(A, &E);
  --E; // A = 1.m x 2^E
  if (E > Bias)
    return Overflow();
  const int MinNormal = 1 - Bias;
  if (E >= MinNormal) {
    const double Q = roundMagnitude(std::ldexp(A, int(ManBits) - E), R, Neg);
    uint64_t M = uint64_t(Q);
    int Ex = E;
    if (M == (uint64_t(2) << ManBits)) {
      M >>= 1;
      ++Ex;
      if (Ex > Bias)
        return Overflow();
    }
    return Sign | (uint32_t(Ex + Bias) << ManBits) |
           uint32_t(M - (uint64_t(1) << ManBits));
  }
  if (Ftz)
    return Sign;
  // Subnormal: units of 2^(MinNormal - ManBits).
  const double Q =
      roundMagnitude(std::ldexp(A, int(ManBits) - MinNormal), R, Neg);
  return Sign | uint32_t(Q); // 2^ManBits units is the least normal.
}

inline double fromNarrow(uint32_t B, unsigned ExpBits, unsigned ManBits) {
  const bool Neg = B >> (ExpBits + ManBits) & 1;
  const int Exp = int(B >> ManBits & ((1u << ExpBits) - 1));
  const uint32_t Man = B & ((1u << ManBits) - 1);
  const int Bias = (1 << (ExpBits - 1)) - 1;
  double V;
  if (Exp == (1 << ExpBits) - 1)
    V = Man ? NAN : INFINITY;
  else if (Exp == 0)
    V = std::ldexp(double(Man), 1 - Bias - int(ManBits));
  else
    V = std::ldexp(double(Man | (1u << ManBits)), Exp - Bias - int(ManBits));
  return Neg ? -V : V;
}

inline double halfToDouble(uint32_t B) { return fromNarrow(B & 0xffff, 5, 10); }
inline double bf16ToDouble(uint32_t B) { return fromNarrow(B & 0xffff, 8, 7); }
inline uint32_t doubleToHalf(double X, Round R = Round::Nearest) {
  return toNarrow(X, 5, 10, R);
}
inline uint32_t doubleToBf16(double X, Round R = Round::Nearest) {
  return toNarrow(X, 8, 7, R);
}

/// X rounded to binary32 in mode R (for a double, or to round a wider
/// result).
inline float toFloat(double X, Round R) {
  if (R == Round::Nearest || std::isnan(X) || std::isinf(X))
    return float(X);
  const uint32_t B = toNarrow(X, 8, 23, R);
  return asFloat(B);
}

} // namespace gmem::exec

#endif // GMEM_EXECUTOR_FLOAT_BITS_H
