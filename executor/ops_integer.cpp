//===- ops_integer.cpp - Integer, bit and predicate arithmetic
//--------------===//
//
// PTX's integer instructions at each width, wrapping as the hardware does
// (computed on unsigned types, so that C++'s signed overflow never occurs),
// with the ISA's answers where C++ has none: shifts past the width, a
// division by zero, bfe/bfi/prmt/lop3/shf as the ISA defines them.
//
//===----------------------------------------------------------------------===//
#include "decode.h"
#include "lanes.h"
#include "launch.h"
#include "ranges.h"

#include <algorithm>
#include <climits>
#include <limits>

namespace gmem::exec {

namespace {

template <class T> using U = std::make_unsigned_t<T>;
template <class T> constexpr unsigned Bits = sizeof(T) * 8;

template <class T> T wrapAdd(T A, T B) { return T(U<T>(A) + U<T>(B)); }
template <class T> T wrapSub(T A, T B) { return T(U<T>(A) - U<T>(B)); }
template <class T> T wrapMul(T A, T B) { return T(U<T>(A) * U<T>(B)); }

template <class T> T satAdd(T A, T B) {
  if constexpr (std::is_signed_v<T>) {
    const int64_t S = int64_t(A) + int64_t(B);
    return T(std::clamp<int64_t>(S, std::numeric_limits<T>::min(),
                                 std::numeric_limits<T>::max()));
  } else {
    return wrapAdd(A, B);
  }
}
template <class T> T satSub(T A, T B) {
  if constexpr (std::is_signed_v<T>) {
    const int64_t S = int64_t(A) - int64_t(B);
    return T(std::clamp<int64_t>(S, std::numeric_limits<T>::min(),
                                 std::numeric_limits<T>::max()));
  } else {
    return wrapSub(A, B);
  }
}

/// The high half of A x B.
template <class T> T mulHi(T A, T B) {
  if constexpr (sizeof(T) == 8) {
    using W =
        std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
    return T(W(A) * W(B) >> 64);
  } else {
    using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    return T(W(A) * W(B) >> Bits<T>);
  }
}

template <class T> T intDiv(T A, T B) {
  if (B == 0)
    return std::is_signed_v<T> ? T(-1) : T(~U<T>(0));
  if constexpr (std::is_signed_v<T>)
    if (A == std::numeric_limits<T>::min() && B == T(-1))
      return A;
  return A / B;
}
template <class T> T intRem(T A, T B) {
  if (B == 0)
    return A;
  if constexpr (std::is_signed_v<T>)
    if (A == std::numeric_limits<T>::min() && B == T(-1))
      return 0;
  return A % B;
}

// --- Handlers -------------------------------------------------------------

template <class T> void addH(Ctx &C, const XInstr &I) {
  if (I.Flags & FlagSat)
    return lanewise<T, T>(C, I, [](T A, T B, T) { return satAdd(A, B); });
  if constexpr (std::is_integral_v<T>)
    if (C.RM) { // A cursor advanced on one side of a fork.
      const RangedSources In(C, I);
      lanewise<T, T>(C, I, [](T A, T B, T) { return wrapAdd(A, B); });
      return rangeSum<T>(C, I, In, false);
    }
  lanewise<T, T>(C, I, [](T A, T B, T) { return wrapAdd(A, B); });
}
template <class T> void subH(Ctx &C, const XInstr &I) {
  if (I.Flags & FlagSat)
    return lanewise<T, T>(C, I, [](T A, T B, T) { return satSub(A, B); });
  if constexpr (std::is_integral_v<T>)
    if (C.RM) {
      const RangedSources In(C, I);
      lanewise<T, T>(C, I, [](T A, T B, T) { return wrapSub(A, B); });
      return rangeSum<T>(C, I, In, true);
    }
  lanewise<T, T>(C, I, [](T A, T B, T) { return wrapSub(A, B); });
}

/// add.cc, addc{.cc}, sub.cc, subc{.cc}: with the frame's carry flag.
template <class T, bool Sub> void carryH(Ctx &C, const XInstr &I) {
  uint64_t *D = C.lanes(I.D[0]);
  const uint64_t *A = C.lanes(I.S[0]), *B = C.lanes(I.S[1]);
  uint32_t &Carry = C.Fr->Carry;
  const bool In = I.Flags & FlagCarryIn, Out = I.Flags & FlagCarryOut;
  uint32_t NewCarry = Carry;
  forLanes(C.Active, [&](unsigned L) {
    using W = unsigned __int128;
    const W a = W(U<T>(A[L])), b = W(U<T>(B[L]));
    const W c = In ? W(Carry >> L & 1) : 0;
    const W Mask = (W(1) << Bits<T>)-1;
    W R;
    bool CarryOut;
    if (!Sub) {
      R = a + b + c;
      CarryOut = R >> Bits<T> & 1;
    } else {
      // a - b - borrow, with the carry flag meaning "no borrow" inverted as
      // PTX's sub.cc sets CC.CF to the borrow.
      R = (a - b - c) & ((W(1) << (Bits<T> + 1)) - 1);
      CarryOut = a < b + c;
    }
    D[L] = uint64_t(R & Mask);
    if (Out)
      NewCarry = (NewCarry & ~(1u << L)) | (uint32_t(CarryOut) << L);
  });
  Carry = NewCarry;
  C.setKnown(I.D[0], C.known(I.S[0]) & C.known(I.S[1]));
}

template <class T> void mulH(Ctx &C, const XInstr &I) {
  if (I.Flags & FlagHi)
    return lanewise<T, T>(C, I, [](T A, T B, T) { return mulHi(A, B); });
  lanewise<T, T>(C, I, [](T A, T B, T) { return wrapMul(A, B); });
}
/// mul.wide: the full product, twice the width.
template <class T, class W> void mulWideH(Ctx &C, const XInstr &I) {
  lanewise<T, W>(C, I, [](T A, T B, T) { return W(W(A) * W(B)); });
}
template <class T> void madH(Ctx &C, const XInstr &I) {
  if (I.Flags & FlagHi)
    return lanewise<T, T>(
        C, I, [](T A, T B, T Cc) { return wrapAdd(mulHi(A, B), Cc); });
  if (I.Flags & FlagSat) // mad.hi.sat.s32 only in the ISA; treat lo alike.
    return lanewise<T, T>(
        C, I, [](T A, T B, T Cc) { return satAdd(wrapMul(A, B), Cc); });
  lanewise<T, T>(C, I,
                 [](T A, T B, T Cc) { return wrapAdd(wrapMul(A, B), Cc); });
}
/// mad.wide: A and B of T, C and the result twice the width.
template <class T, class W> void madWideH(Ctx &C, const XInstr &I) {
  uint64_t *D = C.lanes(I.D[0]);
  const uint64_t *A = C.lanes(I.S[0]), *B = C.lanes(I.S[1]),
                 *Cc = C.lanes(I.S[2]);
  forLanes(C.Active, [&](unsigned L) {
    D[L] = put<W>(
        W(U<W>(W(get<T>(A[L])) * W(get<T>(B[L]))) + U<W>(get<W>(Cc[L]))));
  });
  C.setKnown(I.D[0], C.known(I.S[0]) & C.known(I.S[1]) & C.known(I.S[2]));
}
template <class T> void mul24H(Ctx &C, const XInstr &I) {
  const bool Hi = I.Flags & FlagHi, Mad = I.NS == 3;
  lanewise<T, T>(C, I, [Hi, Mad](T A, T B, T Cc) {
    auto Ext = [](T V) -> int64_t {
      return std::is_signed_v<T> ? int64_t(int32_t(uint32_t(V) << 8) >> 8)
                                 : int64_t(uint32_t(V) & 0xffffff);
    };
    const int64_t P = Ext(A) * Ext(B);
    const T R = Hi ? T(uint64_t(P) >> 16) : T(uint64_t(P));
    return Mad ? wrapAdd(R, Cc) : R;
  });
}
template <class T> void sadH(Ctx &C, const XInstr &I) {
  lanewise<T, T>(C, I, [](T A, T B, T Cc) {
    const U<T> D = A < B ? U<T>(U<T>(B) - U<T>(A)) : U<T>(U<T>(A) - U<T>(B));
    return T(U<T>(Cc) + D);
  });
}
template <class T> void divH(Ctx &C, const XInstr &I) {
  lanewise<T, T>(C, I, [](T A, T B, T) { return intDiv(A, B); });
}
template <class T> void remH(Ctx &C, const XInstr &I) {
  lanewise<T, T>(C, I, [](T A, T B, T) { return intRem(A, B); });
}
template <class T> void absH(Ctx &C, const XInstr &I) {
  lanewise<T, T>(C, I,
                 [](T A, T, T) { return A < 0 ? T(U<T>(0) - U<T>(A)) : A; });
}
template <class T> void negH(Ctx &C, const XInstr &I) {
  lanewise<T, T>(C, I, [](T A, T, T) { return T(U<T>(0) - U<T>(A)); });
}
template <class T> void minH(Ctx &C, const XInstr &I) {
  lanewise<T, T>(C, I, [](T A, T B, T) { return A < B ? A : B; });
}
template <class T> void maxH(Ctx &C, const XInstr &I) {
  lanewise<T, T>(C, I, [](T A, T B, T) { return A > B ? A : B; });
}
/// and, or: a lane is also known where one known operand decides the
/// result alone (0 for and, all ones for or), as with predicates.
template <class T, bool Or> void andOr(Ctx &C, const XInstr &I) {
  const uint64_t *A = C.lanes(I.S[0]), *B = C.lanes(I.S[1]);
  uint64_t *D = C.lanes(I.D[0]);
  const uint32_t KA = C.known(I.S[0]), KB = C.known(I.S[1]);
  const T Decides = Or ? T(~T(0)) : T(0);
  uint32_t K = KA & KB;
  forLanes(C.Active, [&](unsigned L) {
    const T X = get<T>(A[L]), Y = get<T>(B[L]);
    if (((KA >> L & 1) && X == Decides) || ((KB >> L & 1) && Y == Decides))
      K |= 1u << L;
    D[L] = put<T>(Or ? T(X | Y) : T(X & Y));
  });
  C.setKnown(I.D[0], K);
}
template <class T> void andH(Ctx &C, const XInstr &I) { andOr<T, false>(C, I); }
template <class T> void orH(Ctx &C, const XInstr &I) { andOr<T, true>(C, I); }
template <class T> void xorH(Ctx &C, const XInstr &I) {
  lanewise<T, T>(C, I, [](T A, T B, T) { return T(A ^ B); });
}
template <class T> void notH(Ctx &C, const XInstr &I) {
  lanewise<T, T>(C, I, [](T A, T, T) { return T(~A); });
}
template <class T> void cnotH(Ctx &C, const XInstr &I) {
  lanewise<T, T>(C, I, [](T A, T, T) { return T(A == 0); });
}
template <class T> void popcH(Ctx &C, const XInstr &I) {
  lanewise<T, uint32_t>(C, I,
                        [](T A, T, T) { return uint32_t(popc(U<T>(A))); });
}
template <class T> void clzH(Ctx &C, const XInstr &I) {
  lanewise<T, uint32_t>(C, I, [](T A, T, T) { return uint32_t(clz(U<T>(A))); });
}
template <class T> void brevH(Ctx &C, const XInstr &I) {
  lanewise<T, T>(C, I, [](T A, T, T) {
    U<T> V = U<T>(A), R = 0;
    for (unsigned B = 0; B < Bits<T>; ++B)
      R |= U<T>((V >> B) & 1) << (Bits<T> - 1 - B);
    return T(R);
  });
}
/// bfind: the position of the most significant bit (of a signed value:
/// the most significant bit unlike the sign); ~0 when there is none.
template <class T> void bfindH(Ctx &C, const XInstr &I) {
  const bool ShiftAmt = I.Sub;
  lanewise<T, uint32_t>(C, I, [ShiftAmt](T A, T, T) {
    U<T> V = U<T>(A);
    if (std::is_signed_v<T> && A < 0)
      V = U<T>(~V);
    if (!V)
      return ~0u;
    const uint32_t P = Bits<T> - 1 - uint32_t(clz(V));
    return ShiftAmt ? Bits<T> - 1 - P : P;
  });
}
template <class T> void bfeH(Ctx &C, const XInstr &I) {
  uint64_t *D = C.lanes(I.D[0]);
  const uint64_t *A = C.lanes(I.S[0]), *B = C.lanes(I.S[1]),
                 *Cc = C.lanes(I.S[2]);
  forLanes(C.Active, [&](unsigned L) {
    const U<T> V = U<T>(A[L]);
    const unsigned Pos = unsigned(B[L] & 0xff), Len = unsigned(Cc[L] & 0xff);
    // The ISA: bit i of d is a[pos + i] for i < len and pos + i <= msb,
    // else the sign bit a[min(pos + len - 1, msb)] (0 when unsigned).
    U<T> R = 0;
    if (Len) {
      const bool Sign = std::is_signed_v<T> &&
                        (V >> std::min(Pos + Len - 1, Bits<T> - 1) & 1);
      U<T> Field;
      if (Pos >= Bits<T>)
        Field = Sign ? U<T>(~U<T>(0)) : 0;
      else if (std::is_signed_v<T>)
        Field = U<T>(T(V) >> Pos); // Beyond msb: the sign, as shifted in.
      else
        Field = U<T>(V >> Pos);
      const U<T> Mask =
          Len >= Bits<T> ? U<T>(~U<T>(0)) : U<T>((U<T>(1) << Len) - 1);
      R = U<T>((Field & Mask) | (Sign ? U<T>(~Mask) : 0));
    }
    D[L] = put<T>(T(R));
  });
  C.setKnown(I.D[0], C.known(I.S[0]) & C.known(I.S[1]) & C.known(I.S[2]));
}
template <class T> void bfiH(Ctx &C, const XInstr &I) {
  uint64_t *D = C.lanes(I.D[0]);
  const uint64_t *A = C.lanes(I.S[0]), *B = C.lanes(I.S[1]),
                 *Cc = C.lanes(I.S[2]), *Dd = C.lanes(I.S[3]);
  forLanes(C.Active, [&](unsigned L) {
    const unsigned Pos = unsigned(Cc[L] & 0xff), Len = unsigned(Dd[L] & 0xff);
    U<T> R = U<T>(B[L]);
    if (Len && Pos < Bits<T>) {
      const unsigned N = std::min(Len, Bits<T> - Pos);
      const U<T> Mask =
          N >= Bits<T> ? U<T>(~U<T>(0)) : U<T>((U<T>(1) << N) - 1);
      R = U<T>((R & ~U<T>(Mask << Pos)) | U<T>((U<T>(A[L]) & Mask) << Pos));
    }
    D[L] = put<T>(T(R));
  });
  C.setKnown(I.D[0], C.known(I.S[0]) & C.known(I.S[1]) & C.known(I.S[2]) &
                         C.known(I.S[3]));
}
template <class T> void shlH(Ctx &C, const XInstr &I) {
  lanewise<T, T>(C, I, [](T A, T B, T) {
    const uint32_t N = uint32_t(U<T>(B));
    return N >= Bits<T> ? T(0) : T(U<T>(A) << N);
  });
}
template <class T> void shrH(Ctx &C, const XInstr &I) {
  uint64_t *D = C.lanes(I.D[0]);
  const uint64_t *A = C.lanes(I.S[0]), *B = C.lanes(I.S[1]);
  forLanes(C.Active, [&](unsigned L) {
    const uint32_t N = uint32_t(B[L]);
    const T V = get<T>(A[L]);
    T R;
    if constexpr (std::is_signed_v<T>)
      R = N >= Bits<T> ? T(V < 0 ? -1 : 0) : T(V >> N);
    else
      R = N >= Bits<T> ? T(0) : T(V >> N);
    D[L] = put<T>(R);
  });
  C.setKnown(I.D[0], C.known(I.S[0]) & C.known(I.S[1]));
}
/// shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: the funnel {b:a} shifted by c.
void shfH(Ctx &C, const XInstr &I) {
  const bool Left = I.Sub & 1, Clamp = I.Sub & 2;
  uint64_t *D = C.lanes(I.D[0]);
  const uint64_t *A = C.lanes(I.S[0]), *B = C.lanes(I.S[1]),
                 *Cc = C.lanes(I.S[2]);
  forLanes(C.Active, [&](unsigned L) {
    uint32_t N = uint32_t(Cc[L]);
    N = Clamp ? std::min(N, 32u) : N & 31;
    const uint64_t Funnel = uint64_t(uint32_t(B[L])) << 32 | uint32_t(A[L]);
    D[L] = Left ? uint32_t((Funnel << N) >> 32) : uint32_t(Funnel >> N);
  });
  C.setKnown(I.D[0], C.known(I.S[0]) & C.known(I.S[1]) & C.known(I.S[2]));
}
void lop3H(Ctx &C, const XInstr &I) {
  const uint8_t Lut = uint8_t(I.Off);
  lanewise<uint32_t, uint32_t>(
      C, I, [Lut](uint32_t A, uint32_t B, uint32_t Cc) {
        uint32_t R = 0;
        for (unsigned K = 0; K < 8; ++K)
          if (Lut >> K & 1)
            R |= (K & 4 ? A : ~A) & (K & 2 ? B : ~B) & (K & 1 ? Cc : ~Cc);
        return R;
      });
}
/// prmt.b32 d, a, b, c{.mode}: bytes of {b, a} chosen by c.
void prmtH(Ctx &C, const XInstr &I) {
  const uint8_t Mode = I.Sub;
  lanewise<uint32_t, uint32_t>(C, I,
                               [Mode](uint32_t A, uint32_t B, uint32_t Sel) {
                                 const uint64_t Src = uint64_t(B) << 32 | A;
                                 auto Byte = [&](unsigned K) {
                                   return uint32_t(Src >> (8 * (K & 7)) & 0xff);
                                 };
                                 unsigned S[4];
                                 switch (Mode) {
                                 case 1: // f4e: forward 4 extract
                                   for (unsigned K = 0; K < 4; ++K)
                                     S[K] = (Sel + K) & 7;
                                   break;
                                 case 2: // b4e: backward 4 extract
                                   for (unsigned K = 0; K < 4; ++K)
                                     S[K] = (Sel - K) & 7;
                                   break;
                                 case 3: // rc8: replicate byte
                                   for (unsigned K = 0; K < 4; ++K)
                                     S[K] = Sel & 3;
                                   break;
                                 case 4: // ecl: edge clamp left
                                   for (unsigned K = 0; K < 4; ++K)
                                     S[K] = std::max(K, Sel & 3);
                                   break;
                                 case 5: // ecr: edge clamp right
                                   for (unsigned K = 0; K < 4; ++K)
                                     S[K] = std::min(K, Sel & 3);
                                   break;
                                 case 6: // rc16: replicate half
                                   for (unsigned K = 0; K < 4; ++K)
                                     S[K] = ((Sel & 1) << 1) | (K & 1);
                                   break;
                                 default: {
                                   uint32_t R = 0;
                                   for (unsigned K = 0; K < 4; ++K) {
                                     const unsigned N = Sel >> (4 * K) & 15;
                                     uint32_t V = Byte(N & 7);
                                     if (N & 8)
                                       V = (V & 0x80) ? 0xff : 0;
                                     R |= V << (8 * K);
                                   }
                                   return R;
                                 }
                                 }
                                 uint32_t R = 0;
                                 for (unsigned K = 0; K < 4; ++K)
                                   R |= Byte(S[K]) << (8 * K);
                                 return R;
                               });
}
/// dp4a / dp2a: byte or half-word dot products plus c (Sub: bit 0 a
/// signed, bit 1 b signed; Off: dp2a's .lo (0) or .hi (1)).
void dpH(Ctx &C, const XInstr &I) {
  const bool SA = I.Sub & 1, SB = I.Sub & 2, Four = I.Sub & 4;
  const unsigned Hi = unsigned(I.Off);
  lanewise<uint32_t, uint32_t>(
      C, I, [SA, SB, Four, Hi](uint32_t A, uint32_t B, uint32_t Cc) {
        int64_t Sum = int32_t(Cc);
        if (!SA && !SB)
          Sum = int64_t(uint64_t(Cc));
        if (Four) {
          for (unsigned K = 0; K < 4; ++K) {
            const int64_t X = SA ? int8_t(A >> (8 * K)) : uint8_t(A >> (8 * K));
            const int64_t Y = SB ? int8_t(B >> (8 * K)) : uint8_t(B >> (8 * K));
            Sum += X * Y;
          }
        } else {
          for (unsigned K = 0; K < 2; ++K) {
            const int64_t X =
                SA ? int16_t(A >> (16 * K)) : uint16_t(A >> (16 * K));
            const unsigned BK = 2 * Hi + K;
            const int64_t Y =
                SB ? int8_t(B >> (8 * BK)) : uint8_t(B >> (8 * BK));
            Sum += X * Y;
          }
        }
        return uint32_t(Sum);
      });
}
/// bmsk.{clamp,wrap}.b32 d, a, b: b bits set from position a.
void bmskH(Ctx &C, const XInstr &I) {
  const bool Clamp = I.Sub;
  lanewise<uint32_t, uint32_t>(C, I, [Clamp](uint32_t A, uint32_t B, uint32_t) {
    uint32_t Pos = Clamp ? std::min(A, 32u) : A & 31;
    uint32_t Len = Clamp ? std::min(B, 32u) : B & 31;
    if (Pos >= 32)
      return 0u;
    const uint64_t M = ((uint64_t(1) << Len) - 1) << Pos;
    return uint32_t(M);
  });
}
/// szext.{clamp,wrap}.{s32,u32} d, a, b: a sign- or zero-extended from
/// its low b bits.
template <class T> void szextH(Ctx &C, const XInstr &I) {
  const bool Clamp = I.Sub;
  lanewise<uint32_t, uint32_t>(C, I, [Clamp](uint32_t A, uint32_t B, uint32_t) {
    const uint32_t N = Clamp ? std::min(B, 32u) : B & 31;
    if (N == 0)
      return 0u;
    if (N >= 32)
      return A;
    const uint32_t M = (1u << N) - 1;
    if (std::is_signed_v<T> && (A >> (N - 1) & 1))
      return (A & M) | ~M;
    return A & M;
  });
}
/// fns.b32 d, mask, base, offset: the offset-th set bit of mask from base.
void fnsH(Ctx &C, const XInstr &I) {
  lanewise<uint32_t, uint32_t>(C, I,
                               [](uint32_t Mask, uint32_t Base, uint32_t Off) {
                                 int32_t N = int32_t(Off);
                                 if (N == 0)
                                   return ~0u;
                                 if (N > 0) {
                                   for (uint32_t P = Base; P < 32; ++P)
                                     if ((Mask >> P & 1) && --N == 0)
                                       return P;
                                 } else {
                                   for (int32_t P = int32_t(Base); P >= 0; --P)
                                     if ((Mask >> P & 1) && ++N == 0)
                                       return uint32_t(P);
                                 }
                                 return ~0u;
                               });
}

/// Predicate logic: and/or/xor/not.pred (Sub: 0 and, 1 or, 2 xor, 3 not).
void predLogicH(Ctx &C, const XInstr &I) {
  auto Read = [&](unsigned K) {
    const uint32_t V = C.pred(I.S[K]);
    return (I.Flags >> K & 1) ? ~V : V;
  };
  const uint32_t A = Read(0);
  const uint32_t B = I.NS > 1 ? Read(1) : 0;
  uint32_t R = 0;
  switch (I.Sub) {
  case 0:
    R = A & B;
    break;
  case 1:
    R = A | B;
    break;
  case 2:
    R = A ^ B;
    break;
  default:
    R = ~A;
    break;
  }
  uint32_t K = C.predKnown(I.S[0]);
  if (I.NS > 1)
    K = combinedKnown(I.Sub + 1u, A, K, B, C.predKnown(I.S[1]));
  C.setPred(I.D[0], R, K);
}

// --- Type dispatch (byType, decode.h) ------------------------------------

#define GMEM_HANDLER(Name)                                                     \
  template <class T> struct Name##F {                                          \
    static void fn(Ctx &C, const XInstr &I) { Name##H<T>(C, I); }              \
  };
GMEM_HANDLER(add)
GMEM_HANDLER(sub)
GMEM_HANDLER(mul)
GMEM_HANDLER(mad)
GMEM_HANDLER(mul24)
GMEM_HANDLER(sad)
GMEM_HANDLER(div)
GMEM_HANDLER(rem)
GMEM_HANDLER(abs)
GMEM_HANDLER(neg)
GMEM_HANDLER(min)
GMEM_HANDLER(max)
GMEM_HANDLER(and)
GMEM_HANDLER(or)
GMEM_HANDLER(xor)
GMEM_HANDLER(not )
GMEM_HANDLER(cnot)
GMEM_HANDLER(popc)
GMEM_HANDLER(clz)
GMEM_HANDLER(brev)
GMEM_HANDLER(bfind)
GMEM_HANDLER(bfe)
GMEM_HANDLER(bfi)
GMEM_HANDLER(shl)
GMEM_HANDLER(shr)
#undef GMEM_HANDLER

Handler wideMul(Ty T, bool Mad) {
  switch (T) {
  case Ty::S16:
    return Mad ? madWideH<int16_t, int32_t> : mulWideH<int16_t, int32_t>;
  case Ty::U16:
    return Mad ? madWideH<uint16_t, uint32_t> : mulWideH<uint16_t, uint32_t>;
  case Ty::S32:
    return Mad ? madWideH<int32_t, int64_t> : mulWideH<int32_t, int64_t>;
  default:
    return Mad ? madWideH<uint32_t, uint64_t> : mulWideH<uint32_t, uint64_t>;
  }
}

Handler carry(Ty T, bool Sub) {
  if (bytesOf(T) == 8)
    return Sub ? carryH<uint64_t, true> : carryH<uint64_t, false>;
  return Sub ? carryH<uint32_t, true> : carryH<uint32_t, false>;
}

enum PackedOp : uint8_t { PAdd, PSub, PMin, PMax };

/// add, sub, min and max on two 16-bit halves (.s16x2, .u16x2: the SIMD
/// intrinsics of sm_90, __vadd2 and kin), each half on its own; .relu
/// (signed min and max) makes a negative half 0.
template <uint8_t Op, bool Signed, bool Relu>
void packed16H(Ctx &C, const XInstr &I) {
  lanewise<uint32_t, uint32_t>(C, I, [](uint32_t A, uint32_t B, uint32_t) {
    uint32_t R = 0;
    for (unsigned Shift : {0u, 16u}) {
      const int32_t X =
          Signed ? int16_t(A >> Shift) : int32_t(A >> Shift & 0xffff);
      const int32_t Y =
          Signed ? int16_t(B >> Shift) : int32_t(B >> Shift & 0xffff);
      int32_t V = Op == PAdd   ? X + Y
                  : Op == PSub ? X - Y
                  : Op == PMin ? std::min(X, Y)
                               : std::max(X, Y);
      if (Relu && V < 0)
        V = 0;
      R |= (uint32_t(V) & 0xffff) << Shift;
    }
    return R;
  });
}

/// min.relu and max.relu of signed 32-bit values: a negative result is 0.
template <bool Max> void relu32H(Ctx &C, const XInstr &I) {
  lanewise<int32_t, int32_t>(C, I, [](int32_t A, int32_t B, int32_t) {
    const int32_t V = Max ? std::max(A, B) : std::min(A, B);
    return V < 0 ? 0 : V;
  });
}

template <uint8_t Op> Handler packed16(bool Signed, bool Relu) {
  if (!Signed)
    return packed16H<Op, false, false>;
  return Relu ? packed16H<Op, true, true> : packed16H<Op, true, false>;
}

} // namespace

bool decodeInteger(Decoder &D, const ptx::Instr &I, XInstr &X) {
  const std::string &Op = I.Op;
  const bool Relu = I.has("relu");
  if (I.has("s16x2") || I.has("u16x2")) {
    // Packed halves: the registers are 32 bits.
    const bool Signed = I.has("s16x2");
    X.D[0] = D.dst(I.Ops.at(0));
    X.S[0] = D.src(I.Ops.at(1), Ty::B32);
    X.S[1] = D.src(I.Ops.at(2), Ty::B32);
    X.ND = 1;
    X.NS = 2;
    X.Fn = Op == "add"   ? packed16<PAdd>(Signed, Relu)
           : Op == "sub" ? packed16<PSub>(Signed, Relu)
           : Op == "min" ? packed16<PMin>(Signed, Relu)
           : Op == "max" ? packed16<PMax>(Signed, Relu)
                         : nullptr;
    if (!X.Fn)
      D.unsupported(X, Op + " on packed 16-bit halves");
    return true;
  }
  if (Relu && (Op == "min" || Op == "max")) {
    X.D[0] = D.dst(I.Ops.at(0));
    X.S[0] = D.src(I.Ops.at(1), Ty::S32);
    X.S[1] = D.src(I.Ops.at(2), Ty::S32);
    X.ND = 1;
    X.NS = 2;
    X.Fn = Op == "max" ? relu32H<true> : relu32H<false>;
    return true;
  }
  const Ty T = Decoder::lastType(I);
  if (isFloat(T))
    return false;
  X.Flags = Decoder::flags(I);
  auto Operands = [&](size_t NS, Ty ST = Ty::None) {
    X.D[0] = D.dst(I.Ops.at(0));
    X.ND = 1;
    for (size_t K = 0; K < NS; ++K)
      X.S[K] = D.src(I.Ops.at(K + 1), ST == Ty::None ? T : ST);
    X.NS = uint8_t(NS);
  };
  if (T == Ty::Pred) {
    static const char *Names[] = {"and", "or", "xor", "not"};
    for (uint8_t K = 0; K < 4; ++K)
      if (Op == Names[K]) {
        X.Sub = K;
        Operands(K == 3 ? 1 : 2, Ty::Pred);
        X.Flags = uint16_t((I.Ops.at(1).Not ? 1 : 0) |
                           (K < 3 && I.Ops.at(2).Not ? 2 : 0));
        X.Fn = predLogicH;
        return true;
      }
    return false;
  }
  if (Op == "add" || Op == "sub" || Op == "addc" || Op == "subc") {
    const bool Sub = Op[0] == 's';
    if (Op.size() == 4)
      X.Flags |= FlagCarryIn;
    Operands(2);
    if (X.Flags & (FlagCarryIn | FlagCarryOut))
      X.Fn = carry(T, Sub);
    else
      X.Fn = Sub ? byType<subF>(T) : byType<addF>(T);
    return true;
  }
  if (Op == "mul" || Op == "mad" || Op == "madc") {
    const bool Mad = Op != "mul";
    Operands(Mad ? 3 : 2);
    if (X.Flags & FlagWide) {
      // The sources are T, the result (and mad's addend) twice as wide.
      if (Mad) {
        const Ty W = bytesOf(T) == 2 ? (isSigned(T) ? Ty::S32 : Ty::U32)
                                     : (isSigned(T) ? Ty::S64 : Ty::U64);
        X.S[2] = D.src(I.Ops.at(3), W);
      }
      X.Fn = wideMul(T, Mad);
      return true;
    }
    if (Op == "madc" || (Mad && (X.Flags & FlagCarryOut))) {
      D.unsupported(X, "mad with a carry (madc, mad.cc)");
      return true;
    }
    X.Fn = Mad ? byType<madF>(T) : byType<mulF>(T);
    return true;
  }
  if (Op == "mul24" || Op == "mad24") {
    Operands(Op == "mad24" ? 3 : 2);
    X.Fn = byType<mul24F>(T);
    return true;
  }
  struct Simple {
    const char *Name;
    Handler (*Pick)(Ty);
    size_t NS;
  };
  static const Simple Table[] = {
      {"sad", byType<sadF>, 3},   {"div", byType<divF>, 2},
      {"rem", byType<remF>, 2},   {"abs", byType<absF>, 1},
      {"neg", byType<negF>, 1},   {"min", byType<minF>, 2},
      {"max", byType<maxF>, 2},   {"and", byType<andF>, 2},
      {"or", byType<orF>, 2},     {"xor", byType<xorF>, 2},
      {"not", byType<notF>, 1},   {"cnot", byType<cnotF>, 1},
      {"popc", byType<popcF>, 1}, {"clz", byType<clzF>, 1},
      {"brev", byType<brevF>, 1}, {"bfind", byType<bfindF>, 1},
      {"bfe", byType<bfeF>, 3},   {"bfi", byType<bfiF>, 4},
      {"shl", byType<shlF>, 2},   {"shr", byType<shrF>, 2}};
  for (const Simple &S : Table)
    if (Op == S.Name) {
      // Shift amounts and bit positions are u32 whatever the type.
      Operands(S.NS);
      if (Op == "shl" || Op == "shr")
        X.S[1] = D.src(I.Ops.at(2), Ty::U32);
      if (Op == "bfe")
        X.S[1] = D.src(I.Ops.at(2), Ty::U32),
        X.S[2] = D.src(I.Ops.at(3), Ty::U32);
      X.Sub = Op == "bfind" && I.has("shiftamt");
      X.Fn = S.Pick(T);
      return true;
    }
  if (Op == "shf") {
    Operands(3, Ty::B32);
    X.Sub = uint8_t((I.has("l") ? 1 : 0) | (I.has("clamp") ? 2 : 0));
    X.Fn = shfH;
    return true;
  }
  if (Op == "lop3") {
    if (I.Ops.size() != 5 || I.Ops[0].Pair >= 0) {
      D.unsupported(X, "lop3 with a predicate result");
      return true;
    }
    Operands(3, Ty::B32);
    X.Off = I.Ops[4].Value;
    X.Fn = lop3H;
    return true;
  }
  if (Op == "prmt") {
    Operands(3, Ty::B32);
    static const char *Modes[] = {"",    "f4e", "b4e", "rc8",
                                  "ecl", "ecr", "rc16"};
    for (uint8_t K = 1; K < 7; ++K)
      if (I.has(Modes[K]))
        X.Sub = K;
    X.Fn = prmtH;
    return true;
  }
  if (Op == "dp4a" || Op == "dp2a") {
    Operands(3, Ty::B32);
    // dp4a.atype.btype: the two types among the modifiers, in order.
    std::vector<Ty> Types;
    for (const std::string &M : I.Mods)
      if (tyOf(M) != Ty::None)
        Types.push_back(tyOf(M));
    X.Sub = uint8_t((Types.size() > 0 && isSigned(Types[0]) ? 1 : 0) |
                    (Types.size() > 1 && isSigned(Types[1]) ? 2 : 0) |
                    (Op == "dp4a" ? 4 : 0));
    X.Off = I.has("hi") ? 1 : 0;
    X.Fn = dpH;
    return true;
  }
  if (Op == "bmsk") {
    Operands(2, Ty::B32);
    X.Sub = I.has("clamp");
    X.Fn = bmskH;
    return true;
  }
  if (Op == "szext") {
    Operands(2, Ty::B32);
    X.Sub = I.has("clamp");
    X.Fn = isSigned(T) ? szextH<int32_t> : szextH<uint32_t>;
    return true;
  }
  if (Op == "fns") {
    Operands(3, Ty::B32);
    X.Fn = fnsH;
    return true;
  }
  return false;
}

} // namespace gmem::exec
