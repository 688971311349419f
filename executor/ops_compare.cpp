//===- ops_compare.cpp - setp, set, selp, slct, testp
//-----------------------===//
#include "decode.h"
#include "float_bits.h"
#include "lanes.h"
#include "ranges.h"

#include <cmath>

namespace gmem::exec {

namespace {

enum Cmp : uint8_t {
  CEq,
  CNe,
  CLt,
  CLe,
  CGt,
  CGe,
  CEqu,
  CNeu,
  CLtu,
  CLeu,
  CGtu,
  CGeu,
  CNum,
  CNan,
};

/// Compares two values of the instruction's type (a float's unordered
/// forms are true when either is NaN; the ordered ones false).
template <class T> bool compare(uint8_t Op, T A, T B) {
  if constexpr (std::is_floating_point_v<T>) {
    const bool Un = std::isnan(A) || std::isnan(B);
    switch (Op) {
    case CEq:
      return !Un && A == B;
    case CNe:
      return !Un && A != B;
    case CLt:
      return !Un && A < B;
    case CLe:
      return !Un && A <= B;
    case CGt:
      return !Un && A > B;
    case CGe:
      return !Un && A >= B;
    case CEqu:
      return Un || A == B;
    case CNeu:
      return Un || A != B;
    case CLtu:
      return Un || A < B;
    case CLeu:
      return Un || A <= B;
    case CGtu:
      return Un || A > B;
    case CGeu:
      return Un || A >= B;
    case CNum:
      return !Un;
    default:
      return Un;
    }
  } else {
    switch (Op) {
    case CEq:
      return A == B;
    case CNe:
      return A != B;
    case CLt:
      return A < B;
    case CLe:
      return A <= B;
    case CGt:
      return A > B;
    default:
      return A >= B;
    }
  }
}

/// A value of the compared type as C++ computes it.
template <class T> T value(uint64_t B, bool Ftz) {
  T V = get<T>(B);
  if constexpr (std::is_same_v<T, float>)
    if (Ftz)
      V = flush(V);
  return V;
}

/// Half formats are compared as doubles: exact.
struct Half {};
struct BHalf {};
template <class T>
bool cmpLane(uint8_t Op, uint64_t A, uint64_t B, bool Ftz, unsigned Shift) {
  if constexpr (std::is_same_v<T, Half>)
    return compare<double>(Op, halfToDouble(uint32_t(A >> Shift)),
                           halfToDouble(uint32_t(B >> Shift)));
  else if constexpr (std::is_same_v<T, BHalf>)
    return compare<double>(Op, bf16ToDouble(uint32_t(A >> Shift)),
                           bf16ToDouble(uint32_t(B >> Shift)));
  else
    return compare<T>(Op, value<T>(A, Ftz), value<T>(B, Ftz));
}

/// The lanes of an integer setp whose sources are unknown but ranged (or
/// known), where every pair of their values compares alike: R gets that
/// result (ranges.h).
template <class T>
uint32_t decideByRanges(Ctx &C, const XInstr &I, uint32_t Undecided,
                        uint32_t &R) {
  constexpr unsigned MaxPairs = 4096;
  uint32_t Decided = 0;
  forLanes(Undecided & ~C.RegTaint, [&](unsigned L) {
    const Span A = spanOf(C, I.S[0], L), B = spanOf(C, I.S[1], L);
    if (!A.Bounded || !B.Bounded || (A.N + 1) * (B.N + 1) > MaxPairs)
      return;
    const bool First = cmpLane<T>(I.Sub, A.Lo, B.Lo, false, 0);
    for (unsigned J = 0; J <= A.N; ++J)
      for (unsigned K = 0; K <= B.N; ++K)
        if (cmpLane<T>(I.Sub, A.Lo + J, B.Lo + K, false, 0) != First)
          return;
    Decided |= 1u << L;
    R = (R & ~(1u << L)) | (uint32_t(First) << L);
  });
  return Decided;
}

/// setp: Sub the comparison; Flags bit 0 ftz, bits 1-2 the combining
/// operation (0 none, 1 and, 2 or, 3 xor), bit 3 c negated, bit 4 packed
/// (two results: the high halves' in D[0], the low halves' in D[1]).
template <class T> void setpH(Ctx &C, const XInstr &I) {
  const uint64_t *A = C.lanes(I.S[0]), *B = C.lanes(I.S[1]);
  const bool Ftz = I.Flags & 1, Packed = I.Flags & 16;
  const unsigned Comb = I.Flags >> 1 & 3;
  uint32_t R = 0, R2 = 0;
  forLanes(C.Active, [&](unsigned L) {
    if (Packed) {
      R |= uint32_t(cmpLane<T>(I.Sub, A[L], B[L], Ftz, 16)) << L;
      R2 |= uint32_t(cmpLane<T>(I.Sub, A[L], B[L], Ftz, 0)) << L;
    } else {
      R |= uint32_t(cmpLane<T>(I.Sub, A[L], B[L], Ftz, 0)) << L;
    }
  });
  uint32_t KC = C.known(I.S[0]) & C.known(I.S[1]);
  if constexpr (std::is_integral_v<T>)
    if (C.RM && !Packed)
      KC |= decideByRanges<T>(C, I, C.Active & ~KC, R);
  uint32_t Other = 0, KO = ~0u;
  if (Comb) {
    Other = C.pred(I.S[2]);
    if (I.Flags & 8)
      Other = ~Other;
    KO = C.predKnown(I.S[2]);
  }
  // Known where both are, or where a known side decides alone.
  const uint32_t K = combinedKnown(Comb, R, KC, Other, KO),
                 K2 = combinedKnown(Comb, Packed ? R2 : ~R, KC, Other, KO);
  auto Combine = [&](uint32_t V) {
    switch (Comb) {
    case 1:
      return V & Other;
    case 2:
      return V | Other;
    case 3:
      return V ^ Other;
    default:
      return V;
    }
  };
  if (Packed) {
    C.setPred(I.D[0], Combine(R), K);
    if (I.ND > 1)
      C.setPred(I.D[1], Combine(R2), K2);
    return;
  }
  C.setPred(I.D[0], Combine(R), K);
  if (I.ND > 1) // p|q: q is the negated comparison, combined.
    C.setPred(I.D[1], Combine(~R), K2);
}

/// set: the comparison as Off's bits (1.0 of the result's float type, or
/// all ones) or 0; packed halves (Flags bit 4) give one result per half.
template <class T> void setH(Ctx &C, const XInstr &I) {
  const uint64_t *A = C.lanes(I.S[0]), *B = C.lanes(I.S[1]);
  uint64_t *D = C.lanes(I.D[0]);
  const bool Ftz = I.Flags & 1, Packed = I.Flags & 16;
  const uint64_t True = uint64_t(I.Off);
  forLanes(C.Active, [&](unsigned L) {
    if (Packed)
      D[L] = (cmpLane<T>(I.Sub, A[L], B[L], Ftz, 16) ? True << 16 : 0) |
             (cmpLane<T>(I.Sub, A[L], B[L], Ftz, 0) ? True : 0);
    else
      D[L] = cmpLane<T>(I.Sub, A[L], B[L], Ftz, 0) ? True : 0;
  });
  C.setKnown(I.D[0], C.known(I.S[0]) & C.known(I.S[1]));
}

void selpH(Ctx &C, const XInstr &I) {
  const uint64_t *A = C.lanes(I.S[0]), *B = C.lanes(I.S[1]);
  uint64_t *D = C.lanes(I.D[0]);
  const uint32_t P = C.pred(I.S[2]);
  const uint32_t KA = C.known(I.S[0]), KB = C.known(I.S[1]);
  uint32_t K = C.predKnown(I.S[2]) & ((P & KA) | (~P & KB));
  // An unknown choice between two equal known values is known.
  forLanes(C.Active & KA & KB & ~C.predKnown(I.S[2]), [&](unsigned L) {
    if (A[L] == B[L])
      K |= 1u << L;
  });
  forLanes(C.Active, [&](unsigned L) { D[L] = (P >> L & 1) ? A[L] : B[L]; });
  C.setKnown(I.D[0], K);
}

/// slct: c >= 0 ? a : b (Off 1: c is a float).
void slctH(Ctx &C, const XInstr &I) {
  const uint64_t *A = C.lanes(I.S[0]), *B = C.lanes(I.S[1]),
                 *Cv = C.lanes(I.S[2]);
  uint64_t *D = C.lanes(I.D[0]);
  forLanes(C.Active, [&](unsigned L) {
    const bool Pick = I.Off ? asFloat(Cv[L]) >= 0.0f : int32_t(Cv[L]) >= 0;
    D[L] = Pick ? A[L] : B[L];
  });
  C.setKnown(I.D[0], C.known(I.S[0]) & C.known(I.S[1]) & C.known(I.S[2]));
}

/// testp.op: Sub 0 finite, 1 infinite, 2 number, 3 notanumber, 4 normal,
/// 5 subnormal.
template <class T> void testpH(Ctx &C, const XInstr &I) {
  const uint64_t *A = C.lanes(I.S[0]);
  uint32_t R = 0;
  forLanes(C.Active, [&](unsigned L) {
    const T V = get<T>(A[L]);
    bool B = false;
    switch (I.Sub) {
    case 0:
      B = std::isfinite(V);
      break;
    case 1:
      B = std::isinf(V);
      break;
    case 2:
      B = !std::isnan(V);
      break;
    case 3:
      B = std::isnan(V);
      break;
    case 4:
      B = std::fpclassify(V) == FP_NORMAL;
      break;
    default:
      B = std::fpclassify(V) == FP_SUBNORMAL;
      break;
    }
    R |= uint32_t(B) << L;
  });
  C.setPred(I.D[0], R, C.known(I.S[0]));
}

int cmpOf(const ptx::Instr &I) {
  static const std::pair<const char *, Cmp> Names[] = {
      {"eq", CEq},   {"ne", CNe},   {"lt", CLt},   {"le", CLe},   {"gt", CGt},
      {"ge", CGe},   {"lo", CLt},   {"ls", CLe},   {"hi", CGt},   {"hs", CGe},
      {"equ", CEqu}, {"neu", CNeu}, {"ltu", CLtu}, {"leu", CLeu}, {"gtu", CGtu},
      {"geu", CGeu}, {"num", CNum}, {"nan", CNan}};
  for (size_t K = 0; K < I.Mods.size(); ++K)
    for (auto &[N, C] : Names)
      if (I.Mods[K] == N)
        return C;
  return -1;
}

/// H<T>::fn for T's float or integer type.
template <template <class> class H> Handler pick(Ty T) {
  switch (T) {
  case Ty::F32:
    return H<float>::fn;
  case Ty::F64:
    return H<double>::fn;
  case Ty::F16:
  case Ty::F16x2:
    return H<Half>::fn;
  case Ty::BF16:
  case Ty::BF16x2:
    return H<BHalf>::fn;
  default:
    return byType<H>(T);
  }
}
template <class T> struct SetpF {
  static void fn(Ctx &C, const XInstr &I) { setpH<T>(C, I); }
};
template <class T> struct SetF {
  static void fn(Ctx &C, const XInstr &I) { setH<T>(C, I); }
};

} // namespace

bool decodeCompare(Decoder &D, const ptx::Instr &I, XInstr &X) {
  const std::string &Op = I.Op;
  if (Op == "selp") {
    const Ty T = Decoder::lastType(I);
    X.D[0] = D.dst(I.Ops.at(0));
    X.S[0] = D.src(I.Ops.at(1), T);
    X.S[1] = D.src(I.Ops.at(2), T);
    X.S[2] = D.src(I.Ops.at(3), Ty::Pred);
    if (I.Ops[3].Not) {
      std::swap(X.S[0], X.S[1]);
    }
    X.ND = 1;
    X.NS = 3;
    X.Fn = selpH;
    return true;
  }
  if (Op == "slct") {
    const Ty T = Decoder::lastType(I);
    std::vector<Ty> Types;
    for (const std::string &M : I.Mods)
      if (tyOf(M) != Ty::None)
        Types.push_back(tyOf(M));
    X.D[0] = D.dst(I.Ops.at(0));
    X.S[0] = D.src(I.Ops.at(1), Types.empty() ? T : Types[0]);
    X.S[1] = D.src(I.Ops.at(2), Types.empty() ? T : Types[0]);
    X.S[2] = D.src(I.Ops.at(3), T);
    X.Off = T == Ty::F32;
    X.ND = 1;
    X.NS = 3;
    X.Fn = slctH;
    return true;
  }
  if (Op == "testp") {
    static const char *Names[] = {"finite",     "infinite", "number",
                                  "notanumber", "normal",   "subnormal"};
    for (uint8_t K = 0; K < 6; ++K)
      if (I.has(Names[K]))
        X.Sub = K;
    const Ty T = Decoder::lastType(I);
    X.D[0] = D.dst(I.Ops.at(0));
    X.S[0] = D.src(I.Ops.at(1), T);
    X.ND = 1;
    X.NS = 1;
    X.Fn = T == Ty::F64 ? testpH<double> : testpH<float>;
    return true;
  }
  if (Op != "setp" && Op != "set")
    return false;
  // setp.cmp{.bool}{.ftz}.type / set.cmp{.bool}{.ftz}.dtype.stype: the
  // compared type is the last.
  const Ty T = Decoder::lastType(I);
  const int Cmp = cmpOf(I);
  if (Cmp < 0) {
    D.unsupported(X, Op + " with an unknown comparison");
    return true;
  }
  X.Sub = uint8_t(Cmp);
  uint16_t Flags = I.has("ftz") ? 1 : 0;
  unsigned Comb = I.has("and") ? 1 : I.has("or") ? 2 : I.has("xor") ? 3 : 0;
  Flags |= uint16_t(Comb << 1);
  const ptx::Operand &Dst = I.Ops.at(0);
  X.D[0] = D.dst(Dst);
  X.ND = 1;
  if (Dst.Pair >= 0) {
    X.D[1] = D.dst(ptx::Operand{ptx::Operand::Reg, Dst.Pair});
    X.ND = 2;
  }
  X.S[0] = D.src(I.Ops.at(1), T);
  X.S[1] = D.src(I.Ops.at(2), T);
  X.NS = 2;
  if (Comb) {
    X.S[2] = D.src(I.Ops.at(3), Ty::Pred);
    X.NS = 3;
    if (I.Ops[3].Not)
      Flags |= 8;
  }
  if (T == Ty::F16x2 || T == Ty::BF16x2)
    Flags |= 16;
  X.Flags = Flags;
  if (Op == "set") {
    if (Comb) {
      D.unsupported(X, "set with a boolean operation");
      return true;
    }
    // set.cmp.dtype.stype: the first type is the result's; true is 1.0 of
    // a float result (each half's of packed halves), else all ones.
    for (const std::string &M : I.Mods)
      if (const Ty R = tyOf(M); R != Ty::None) {
        X.Off = R == Ty::F32                       ? 0x3f800000
                : R == Ty::F16 || R == Ty::F16x2   ? 0x3c00
                : R == Ty::BF16 || R == Ty::BF16x2 ? 0x3f80
                : (Flags & 16) || R == Ty::U16 || R == Ty::S16 || R == Ty::B16
                    ? 0xffff
                    : 0xffffffff;
        break;
      }
    X.Fn = pick<SetF>(T);
    return true;
  }
  X.Fn = pick<SetpF>(T);
  return true;
}

} // namespace gmem::exec
