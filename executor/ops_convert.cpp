//===- ops_convert.cpp - mov, cvt, cvta, isspacep ----------------------------===//
#include "decode.h"
#include "float_bits.h"
#include "lanes.h"
#include "ranges.h"

#include <cmath>
#include <limits>

namespace gmem::exec {

namespace {

void movH(Ctx &C, const XInstr &I) {
  uint64_t *D = C.lanes(I.D[0]);
  const uint64_t *A = C.lanes(I.S[0]);
  const uint64_t Mask = I.Width >= 8 ? ~uint64_t(0)
                                     : (uint64_t(1) << (8 * I.Width)) - 1;
  if (C.RM) { // A range moves with its value.
    const RangedSources In(C, I);
    forLanes(C.Active, [&](unsigned L) { D[L] = A[L] & Mask; });
    C.setKnown(I.D[0], C.known(I.S[0]));
    forLanes(In.Lanes, [&](unsigned L) {
      setRange(C, slotOf(I.D[0]), L, In.A[L].Lo, In.A[L].N);
    });
    return;
  }
  forLanes(C.Active, [&](unsigned L) { D[L] = A[L] & Mask; });
  C.setKnown(I.D[0], C.known(I.S[0]));
}

void movPredH(Ctx &C, const XInstr &I) {
  if (fileOf(I.S[0]) == FPred) {
    C.setPred(I.D[0], C.pred(I.S[0]), C.predKnown(I.S[0]));
    return;
  }
  // An immediate (or a value): nonzero is true.
  const uint64_t *A = C.lanes(I.S[0]);
  uint32_t R = 0;
  forLanes(C.Active, [&](unsigned L) { R |= uint32_t(A[L] != 0) << L; });
  C.setPred(I.D[0], R, C.known(I.S[0]));
}

/// mov d, {a, b, ...}: the elements (Width bytes each) packed, first lowest.
void packH(Ctx &C, const XInstr &I) {
  uint64_t *D = C.lanes(I.D[0]);
  const unsigned N = I.NS, Bits = 8 * I.Width;
  uint32_t K = ~0u;
  for (unsigned E = 0; E < N; ++E)
    K &= C.known(I.S[E]);
  const uint64_t Mask = Bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << Bits) - 1;
  forLanes(C.Active, [&](unsigned L) {
    uint64_t V = 0;
    for (unsigned E = 0; E < N; ++E)
      V |= (C.lanes(I.S[E])[L] & Mask) << (E * Bits);
    D[L] = V;
  });
  C.setKnown(I.D[0], K);
}

/// mov {a, b, ...}, d: the unpacking.
void unpackH(Ctx &C, const XInstr &I) {
  const uint64_t *A = C.lanes(I.S[0]);
  const unsigned Bits = 8 * I.Width;
  const uint64_t Mask = Bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << Bits) - 1;
  for (unsigned E = 0; E < I.ND; ++E) {
    uint64_t *D = C.lanes(I.D[E]);
    forLanes(C.Active,
             [&](unsigned L) { D[L] = A[L] >> (E * Bits) & Mask; });
    C.setKnown(I.D[E], C.known(I.S[0]));
  }
}

// --- cvt -------------------------------------------------------------------

/// A value read as its type: an integer (as int64 or uint64 bits) or a
/// float (as double).
struct Num {
  bool Float = false;
  double F = 0;
  int64_t I = 0; ///< Signed types; unsigned in the same bits.
  bool Unsigned = false;
};

Num readNum(uint64_t B, Ty T, bool Ftz) {
  Num N;
  switch (T) {
  case Ty::F32: {
    float F = asFloat(B);
    N.Float = true;
    N.F = Ftz ? flush(F) : F;
    return N;
  }
  case Ty::F64:
    N.Float = true;
    N.F = asDouble(B);
    return N;
  case Ty::F16:
    N.Float = true;
    N.F = halfToDouble(uint32_t(B));
    if (Ftz && !(B & 0x7c00))
      N.F = (B & 0x8000) ? -0.0 : 0.0;
    return N;
  case Ty::BF16:
    N.Float = true;
    N.F = bf16ToDouble(uint32_t(B));
    return N;
  case Ty::S8:
    N.I = int8_t(B);
    return N;
  case Ty::S16:
    N.I = int16_t(B);
    return N;
  case Ty::S32:
    N.I = int32_t(B);
    return N;
  case Ty::S64:
    N.I = int64_t(B);
    return N;
  case Ty::U8:
  case Ty::B8:
    N.I = int64_t(uint8_t(B));
    N.Unsigned = true;
    return N;
  case Ty::U16:
  case Ty::B16:
    N.I = int64_t(uint16_t(B));
    N.Unsigned = true;
    return N;
  case Ty::U32:
  case Ty::B32:
    N.I = int64_t(uint32_t(B));
    N.Unsigned = true;
    return N;
  default:
    N.I = int64_t(B);
    N.Unsigned = true;
    return N;
  }
}

uint64_t truncTo(uint64_t V, Ty T) {
  const unsigned W = bytesOf(T) * 8;
  return W >= 64 ? V : V & ((uint64_t(1) << W) - 1);
}

/// V (an integer value, exact) clamped to T's range, as T's bits.
uint64_t saturate(double V, Ty T) {
  const unsigned W = bytesOf(T) * 8;
  if (isSigned(T)) {
    const int64_t Min = W == 64 ? std::numeric_limits<int64_t>::min()
                                : -(int64_t(1) << (W - 1));
    const int64_t Max = W == 64 ? std::numeric_limits<int64_t>::max()
                                : (int64_t(1) << (W - 1)) - 1;
    if (V <= double(Min))
      return truncTo(uint64_t(Min), T);
    if (V >= double(Max))
      return truncTo(uint64_t(Max), T);
    return truncTo(uint64_t(int64_t(V)), T);
  }
  const uint64_t Max = W == 64 ? ~uint64_t(0) : (uint64_t(1) << W) - 1;
  if (V <= 0)
    return 0;
  if (V >= double(Max))
    return Max;
  return uint64_t(V);
}

double roundToInteger(double V, Round R) {
  switch (R) {
  case Round::Nearest:
    return std::nearbyint(V);
  case Round::Zero:
    return std::trunc(V);
  case Round::Down:
    return std::floor(V);
  case Round::Up:
    return std::ceil(V);
  }
  return V;
}

/// The conversion of A (of type From) to To, as cvt does with Flags.
uint64_t convert(uint64_t A, Ty From, Ty To, uint16_t Flags) {
  const bool Ftz = Flags & FlagFtz, Sat = Flags & FlagSat;
  const Round R = Round((Flags & FlagRoundMask) >> 2);
  const Num N = readNum(A, From, Ftz);
  if (isFloat(To)) {
    if (!N.Float && bytesOf(From) == 8 && To == Ty::F32 &&
        R == Round::Nearest)
      // A 64-bit integer rounded once (through a double it would be twice).
      return bitsOf(N.Unsigned ? float(uint64_t(N.I)) : float(N.I));
    double V = N.Float ? N.F
               : N.Unsigned ? double(uint64_t(N.I))
                            : double(N.I);
    if (N.Float && (Flags & FlagIntRound))
      V = roundToInteger(V, R);
    if (Sat)
      V = std::isnan(V) ? 0 : std::fmin(std::fmax(V, 0.0), 1.0);
    switch (To) {
    case Ty::F64:
      return bitsOf(V);
    case Ty::F32: {
      if (std::isnan(V))
        return 0x7fffffff;
      float F = toFloat(V, R);
      if (Ftz)
        F = flush(F);
      return bitsOf(F);
    }
    case Ty::F16:
      return toNarrow(V, 5, 10, R, Ftz);
    case Ty::BF16:
      return toNarrow(V, 8, 7, R);
    case Ty::TF32:
      // tf32: an f32 with 10 mantissa bits, in f32's layout.
      return uint64_t(toNarrow(V, 8, 10, R)) << 13;
    default:
      return 0;
    }
  }
  // To an integer: a float is rounded and saturated (NaN gives 0).
  if (N.Float)
    return std::isnan(N.F) ? 0 : saturate(roundToInteger(N.F, R), To);
  if (Sat) {
    const double V = N.Unsigned ? double(uint64_t(N.I)) : double(N.I);
    // Exact where it matters: the limits are powers of two apart.
    if (N.Unsigned && bytesOf(To) == 8 && !isSigned(To))
      return uint64_t(N.I);
    return saturate(V, To);
  }
  return truncTo(uint64_t(N.I), To);
}

/// cvt: Flags the modifiers, Sub the source type, Width... the types are
/// in Off: low byte To, next byte From.
void cvtH(Ctx &C, const XInstr &I) {
  const Ty To = Ty(I.Off & 0xff), From = Ty(I.Off >> 8 & 0xff);
  uint64_t *D = C.lanes(I.D[0]);
  const uint64_t *A = C.lanes(I.S[0]);
  const bool Signed = isSigned(To);
  const unsigned W = bytesOf(To);
  forLanes(C.Active, [&](unsigned L) {
    uint64_t V = convert(A[L], From, To, I.Flags);
    // An integer narrower than the register is sign-extended in it.
    if (Signed && W < 8)
      V = uint64_t(int64_t(V << (64 - 8 * W)) >> (64 - 8 * W)) &
          (W < 4 ? 0xffffffffull : ~uint64_t(0));
    D[L] = V;
  });
  C.setKnown(I.D[0], C.known(I.S[0]));
}

/// cvt.rn{.relu}.f16x2.f32 d, a, b (and bf16x2): a in the upper half.
void cvtPackH(Ctx &C, const XInstr &I) {
  const Ty To = Ty(I.Off & 0xff);
  uint64_t *D = C.lanes(I.D[0]);
  const uint64_t *A = C.lanes(I.S[0]), *B = C.lanes(I.S[1]);
  forLanes(C.Active, [&](unsigned L) {
    double Hi = asFloat(A[L]), Lo = asFloat(B[L]);
    if (I.Flags & FlagRelu)
      Hi = Hi < 0 ? 0 : Hi, Lo = Lo < 0 ? 0 : Lo;
    const uint64_t H = convert(bitsOf(Hi), Ty::F64, To, I.Flags);
    const uint64_t Lw = convert(bitsOf(Lo), Ty::F64, To, I.Flags);
    D[L] = (H & 0xffff) << 16 | (Lw & 0xffff);
  });
  C.setKnown(I.D[0], C.known(I.S[0]) & C.known(I.S[1]));
}

/// cvta: Off is added (to generic) or subtracted (from generic).
void cvtaH(Ctx &C, const XInstr &I) {
  uint64_t *D = C.lanes(I.D[0]);
  const uint64_t *A = C.lanes(I.S[0]);
  const uint64_t Add = uint64_t(I.Off);
  const bool Narrow = I.Width == 4;
  forLanes(C.Active, [&](unsigned L) {
    const uint64_t V = A[L] + Add;
    D[L] = Narrow ? uint32_t(V) : V;
  });
  C.setKnown(I.D[0], C.known(I.S[0]));
}

/// isspacep: whether the generic address lies in the window of Sub
/// (0 global, 1 shared, 2 local, 3 param, 4 const).
void isspacepH(Ctx &C, const XInstr &I) {
  const uint64_t *A = C.lanes(I.S[0]);
  uint32_t R = 0;
  forLanes(C.Active, [&](unsigned L) {
    const uint64_t V = A[L];
    const bool Shared = V - SharedWindow < WindowSize,
               Local = V - LocalWindow < WindowSize,
               Param = V - ParamWindow < WindowSize;
    bool In;
    switch (I.Sub) {
    case 1:
      In = Shared;
      break;
    case 2:
      In = Local;
      break;
    case 3:
      In = Param;
      break;
    default:
      In = !Shared && !Local && !Param;
      break;
    }
    R |= uint32_t(In) << L;
  });
  C.setPred(I.D[0], R, C.known(I.S[0]));
}

/// %clock, %clock64, %globaltimer: time, which a GPU's run decides. The
/// executor's clock advances one tick (a cycle, a nanosecond) per
/// instruction the warp has run, so that timed waits and backoffs end and
/// a run is repeatable; the values are known (a timing a kernel reports
/// is the executor's, not a GPU's). Sub: 0 all 64 bits, 1 the low 32, 2
/// the high 32.
void clockH(Ctx &C, const XInstr &I) {
  const uint64_t T = C.W->Executed;
  const uint64_t V = I.Sub == 1 ? uint32_t(T) : I.Sub == 2 ? T >> 32 : T;
  uint64_t *Dst = C.lanes(I.D[0]);
  forLanes(C.Active, [&](unsigned L) { Dst[L] = V; });
  C.setKnown(I.D[0], ~0u);
}

} // namespace

bool decodeConvert(Decoder &D, const ptx::Instr &I, XInstr &X) {
  const std::string &Op = I.Op;
  if (Op == "mov") {
    const Ty T = Decoder::lastType(I);
    const ptx::Operand &Dst = I.Ops.at(0), &Src = I.Ops.at(1);
    if (T == Ty::Pred) {
      X.D[0] = D.dst(Dst);
      X.S[0] = D.src(Src, Ty::Pred);
      X.ND = X.NS = 1;
      X.Fn = movPredH;
      return true;
    }
    if (T == Ty::B128) {
      D.unsupported(X, "mov.b128");
      return true;
    }
    if (Src.Kind == ptx::Operand::Special &&
        (Src.Name == "%clock" || Src.Name == "%clock64" ||
         Src.Name == "%globaltimer" || Src.Name == "%globaltimer_lo" ||
         Src.Name == "%globaltimer_hi")) {
      X.D[0] = D.dst(Dst);
      X.ND = 1;
      X.Sub = Src.Name == "%globaltimer_hi"                           ? 2
              : Src.Name == "%clock" || Src.Name == "%globaltimer_lo" ? 1
                                                                      : 0;
      X.Fn = clockH;
      return true;
    }
    if (Src.Kind == ptx::Operand::Vector) {
      if (Src.Elems.size() > 4)
        return D.unsupported(X, "a pack of more than 4 elements"), true;
      X.D[0] = D.dst(Dst);
      X.ND = 1;
      for (const ptx::Operand &E : Src.Elems)
        X.S[X.NS++] = D.src(E, Ty::None);
      X.Width = uint8_t(bytesOf(T) / Src.Elems.size());
      X.Fn = packH;
      return true;
    }
    if (Dst.Kind == ptx::Operand::Vector) {
      if (Dst.Elems.size() > 4)
        return D.unsupported(X, "an unpack into more than 4 elements"), true;
      for (const ptx::Operand &E : Dst.Elems)
        X.D[X.ND++] = D.dst(E);
      X.S[0] = D.src(Src, Ty::None);
      X.NS = 1;
      X.Width = uint8_t(bytesOf(T) / Dst.Elems.size());
      X.Fn = unpackH;
      return true;
    }
    X.D[0] = D.dst(Dst);
    X.S[0] = D.src(Src, T);
    X.ND = X.NS = 1;
    X.Width = uint8_t(bytesOf(T));
    X.Fn = movH;
    return true;
  }
  if (Op == "cvt") {
    std::vector<Ty> Types;
    for (const std::string &M : I.Mods)
      if (tyOf(M) != Ty::None)
        Types.push_back(tyOf(M));
    if (I.has("pack") || Types.size() != 2 || Types[0] == Ty::F16x2 ||
        Types[0] == Ty::BF16x2) {
      if ((I.has("f16x2") || I.has("bf16x2")) && Types.size() == 2 &&
          Types[1] == Ty::F32 && I.Ops.size() == 3) {
        X.Flags = Decoder::flags(I);
        X.Off = int64_t(Types[0] == Ty::F16x2 ? Ty::F16 : Ty::BF16);
        X.D[0] = D.dst(I.Ops[0]);
        X.S[0] = D.src(I.Ops[1], Ty::F32);
        X.S[1] = D.src(I.Ops[2], Ty::F32);
        X.ND = 1;
        X.NS = 2;
        X.Fn = cvtPackH;
        return true;
      }
      D.unsupported(X, "this form of cvt");
      return true;
    }
    if (Types[0] == Ty::B128 || Types[1] == Ty::B128) {
      D.unsupported(X, "cvt of 128 bits");
      return true;
    }
    X.Flags = Decoder::flags(I);
    X.Off = int64_t(Types[0]) | int64_t(Types[1]) << 8;
    X.D[0] = D.dst(I.Ops.at(0));
    X.S[0] = D.src(I.Ops.at(1), Types[1]);
    X.ND = X.NS = 1;
    X.Fn = cvtH;
    return true;
  }
  if (Op == "cvta") {
    const bool To = I.has("to");
    const MemSpace S = Decoder::space(I);
    uint64_t Window = 0;
    if (S == MemSpace::Shared)
      Window = SharedWindow;
    else if (S == MemSpace::Local)
      Window = LocalWindow;
    else if (S == MemSpace::Param)
      Window = ParamWindow;
    X.Off = int64_t(To ? uint64_t(0) - Window : Window);
    X.Width = uint8_t(bytesOf(Decoder::lastType(I)));
    X.D[0] = D.dst(I.Ops.at(0));
    X.S[0] = D.src(I.Ops.at(1), Ty::U64);
    X.ND = X.NS = 1;
    X.Fn = cvtaH;
    return true;
  }
  if (Op == "isspacep") {
    const MemSpace S = Decoder::space(I);
    X.Sub = S == MemSpace::Shared  ? 1
            : S == MemSpace::Local ? 2
            : S == MemSpace::Param ? 3
                                   : 0;
    X.D[0] = D.dst(I.Ops.at(0));
    X.S[0] = D.src(I.Ops.at(1), Ty::U64);
    X.ND = X.NS = 1;
    X.Fn = isspacepH;
    return true;
  }
  return false;
}

} // namespace gmem::exec
