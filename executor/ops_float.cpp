//===- ops_float.cpp - Floating-point arithmetic at every width -------------===//
//
// f32 and f64 with the host's IEEE arithmetic (the GPU's .rn results bit for
// bit); the other rounding modes, .ftz and .sat as the ISA defines them; f16
// and bf16 (scalar and x2) computed in double and rounded to the format. The
// .approx functions (sin, cos, lg2, ex2, rsqrt, tanh, rcp, div) are computed
// exactly and rounded: within the few ulps the ISA allows the GPU.
//
//===----------------------------------------------------------------------===//
#include "decode.h"
#include "float_bits.h"
#include "lanes.h"

#include <cfenv>
#include <cmath>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace gmem::exec {

namespace {

enum FOp : uint8_t {
  FAdd,
  FSub,
  FMul,
  FFma,
  FDiv,
  FRcp,
  FSqrt,
  FRsqrt,
  FSin,
  FCos,
  FLg2,
  FEx2,
  FTanh,
  FMin,
  FMax,
  FAbs,
  FNeg,
  FCopysign,
};

Round roundOf(uint16_t Flags) { return Round((Flags & FlagRoundMask) >> 2); }

/// A format: how a value's bits (at Shift within the register) read as a
/// double and how a double is rounded back.
struct F32Fmt {
  static constexpr unsigned Width = 32;
  static double load(uint64_t B, bool Ftz) {
    float F = asFloat(B);
    return Ftz ? flush(F) : F;
  }
  static uint64_t store(double V, uint16_t Flags) {
    float F = toFloat(V, roundOf(Flags));
    if (Flags & FlagFtz)
      F = flush(F);
    return bitsOf(F);
  }
  static uint64_t nan() { return 0x7fffffff; }
};
struct F64Fmt {
  static constexpr unsigned Width = 64;
  static double load(uint64_t B, bool) { return asDouble(B); }
  static uint64_t store(double V, uint16_t) { return bitsOf(V); }
  static uint64_t nan() { return 0x7fffffffffffffffull; }
};
struct F16Fmt {
  static constexpr unsigned Width = 16;
  static double load(uint64_t B, bool Ftz) {
    const uint32_t H = uint32_t(B) & 0xffff;
    if (Ftz && !(H & 0x7c00))
      return (H & 0x8000) ? -0.0 : 0.0;
    return halfToDouble(H);
  }
  static uint64_t store(double V, uint16_t Flags) {
    return toNarrow(V, 5, 10, roundOf(Flags), Flags & FlagFtz);
  }
  static uint64_t nan() { return 0x7fff; }
};
struct BF16Fmt {
  static constexpr unsigned Width = 16;
  static double load(uint64_t B, bool) {
    return bf16ToDouble(uint32_t(B) & 0xffff);
  }
  static uint64_t store(double V, uint16_t Flags) {
    return toNarrow(V, 8, 7, roundOf(Flags));
  }
  static uint64_t nan() { return 0x7fff; }
};

double applyOp(uint8_t Op, double A, double B, double C, uint16_t Flags) {
  switch (Op) {
  case FAdd:
    return A + B;
  case FSub:
    return A - B;
  case FMul:
    return A * B;
  case FFma:
    return std::fma(A, B, C);
  case FDiv:
    return A / B;
  case FRcp:
    return 1.0 / A;
  case FSqrt:
    return std::sqrt(A);
  case FRsqrt:
    return 1.0 / std::sqrt(A);
  case FSin:
    return std::sin(A);
  case FCos:
    return std::cos(A);
  case FLg2:
    return std::log2(A);
  case FEx2:
    return std::exp2(A);
  case FTanh:
    return std::tanh(A);
  case FAbs:
    return std::fabs(A);
  case FNeg:
    return -A;
  case FCopysign:
    return std::copysign(B, A);
  case FMin:
  case FMax: {
    const bool NA = std::isnan(A), NB = std::isnan(B);
    if (NA || NB) {
      if ((Flags & FlagNaN) || (NA && NB))
        return NAN;
      return NA ? B : A;
    }
    if (A == B) // -0 below +0
      return (Op == FMin) == bool(std::signbit(A)) ? A : B;
    return (Op == FMin) == (A < B) ? A : B;
  }
  }
  return A;
}

/// One value of a format: the operation's result, with .sat and .relu,
/// and the canonical NaN for a NaN result (the GPU's).
template <class Fmt>
uint64_t compute(uint8_t Op, uint64_t A, uint64_t B, uint64_t C,
                 uint16_t Flags) {
  // The special-function unit flushes subnormal inputs of its
  // approximations whatever the modifiers say (an H100 gives sin(1e-39)
  // = 0 for sin.approx.f32), but for tanh's (tanh(3e-39) = 3e-39 there).
  const bool Sfu = Op == FSin || Op == FCos || Op == FEx2 || Op == FLg2 ||
                   Op == FRsqrt ||
                   ((Flags & FlagApprox) && Op == FRcp);
  const bool Ftz = (Flags & FlagFtz) || (Fmt::Width == 32 && Sfu);
  double R;
  if constexpr (Fmt::Width == 32) {
    // The exact IEEE binary32 operation where the host has one.
    const float Fa = float(Fmt::load(A, Ftz)), Fb = float(Fmt::load(B, Ftz)),
                Fc = float(Fmt::load(C, Ftz));
    if (Op == FSin || Op == FCos) {
      // The GPU reduces the argument to turns first, with one f32 multiply
      // rounded toward zero (FMUL.RZ by 1/2pi before MUFU.SIN): outside
      // -pi..pi that rounding is most of the error, so it is made here too.
      const double Exact = double(Fa) * double(0.15915494f);
      float Turns = float(Exact);
      if (std::fabs(double(Turns)) > std::fabs(Exact))
        Turns = std::nextafterf(Turns, 0.0f);
      // Whole turns leave exactly (a float is exact in double).
      const double X = 2 * M_PI * (double(Turns) - std::nearbyint(Turns));
      R = Op == FSin ? std::sin(X) : std::cos(X);
    } else if (roundOf(Flags) == Round::Nearest && Op == FFma)
      R = double(std::fmaf(Fa, Fb, Fc));
    else if (roundOf(Flags) == Round::Nearest && Op == FSqrt &&
             !(Flags & FlagApprox))
      R = double(std::sqrt(Fa));
    else
      R = applyOp(Op, Fa, Fb, Fc, Flags);
  } else {
    R = applyOp(Op, Fmt::load(A, Ftz), Fmt::load(B, Ftz), Fmt::load(C, Ftz),
                Flags);
  }
  if (Op == FAbs || Op == FNeg) {
    // Sign operations on the bits (a NaN keeps its payload).
    const uint64_t Sign = uint64_t(1) << (Fmt::Width - 1);
    uint64_t V = A & (Fmt::Width == 64 ? ~uint64_t(0)
                                       : (uint64_t(1) << Fmt::Width) - 1);
    if (Ftz && std::fpclassify(Fmt::load(A, false)) == FP_SUBNORMAL)
      V &= Sign;
    return Op == FAbs ? V & ~Sign : V ^ Sign;
  }
  if (std::isnan(R))
    return (Flags & FlagSat) ? 0 : Fmt::nan();
  if (Flags & FlagSat)
    R = std::fmin(std::fmax(R, 0.0), 1.0);
  if ((Flags & FlagRelu) && R < 0)
    R = 0;
  return Fmt::store(R, Flags);
}

template <class Fmt, bool Packed> void floatH(Ctx &C, const XInstr &I) {
  uint64_t *D = C.lanes(I.D[0]);
  const Sources S = sources(C, I);
  const uint64_t *A = S.A, *B = S.B, *Cc = S.C;
  const uint32_t K = S.Known;
  const uint8_t Op = I.Sub;
  const uint16_t Flags = I.Flags;
  forLanes(C.Active, [&](unsigned L) {
    if constexpr (Packed) {
      const uint64_t Lo = compute<Fmt>(Op, A[L] & 0xffff, B[L] & 0xffff,
                                       Cc[L] & 0xffff, Flags);
      const uint64_t Hi = compute<Fmt>(Op, A[L] >> 16 & 0xffff,
                                       B[L] >> 16 & 0xffff,
                                       Cc[L] >> 16 & 0xffff, Flags);
      D[L] = Lo | Hi << 16;
    } else {
      D[L] = compute<Fmt>(Op, A[L], B[L], Cc[L], Flags);
    }
  });
  C.setKnown(I.D[0], K);
}

/// The lanes of a two- or three-operand instruction (fma's third operand,
/// else A again) and which of its result lanes are known.
struct Operands {
  uint64_t *D;
  const uint64_t *A, *B, *Cc;
  uint32_t K;
};
template <uint8_t Op> Operands operandsOf(Ctx &C, const XInstr &I) {
  Operands O{C.lanes(I.D[0]), C.lanes(I.S[0]), C.lanes(I.S[1]), nullptr,
             C.known(I.S[0]) & C.known(I.S[1])};
  O.Cc = Op == FFma ? C.lanes(I.S[2]) : O.A;
  if (Op == FFma)
    O.K &= C.known(I.S[2]);
  return O;
}

/// f32 and f64 add, sub, mul and fma rounded to nearest with no modifier:
/// the host's own instructions, lane by lane (the common case).
template <class T, uint8_t Op> void plainH(Ctx &C, const XInstr &I) {
  // Plain pointers, not structured bindings: lambdas capture them (C++17).
  const Operands O = operandsOf<Op>(C, I);
  uint64_t *const D = O.D;
  const uint64_t *const A = O.A, *const B = O.B, *const Cc = O.Cc;
  const uint32_t K = O.K;
  forLanes(C.Active, [&](unsigned L) {
    const T X = get<T>(A[L]), Y = get<T>(B[L]);
    T R;
    if (Op == FAdd)
      R = X + Y;
    else if (Op == FSub)
      R = X - Y;
    else if (Op == FMul)
      R = X * Y;
    else
      R = std::fma(X, Y, get<T>(Cc[L]));
    // The GPU's NaN is the canonical one.
    D[L] = R != R ? (sizeof(T) == 4 ? 0x7fffffffull : 0x7fffffffffffffffull)
                  : put<T>(R);
  });
  C.setKnown(I.D[0], K);
}

#if defined(__x86_64__)
/// fma.rn on a host with FMA instructions: std::fma is a call into libm
/// per lane (its own check of the host included); compiled for the
/// instruction, the loop fuses inline. Both round once: the same bits.
template <class T>
__attribute__((target("fma"))) void fusedH(Ctx &C, const XInstr &I) {
  uint64_t *D = C.lanes(I.D[0]);
  const uint64_t *A = C.lanes(I.S[0]), *B = C.lanes(I.S[1]),
                 *Cc = C.lanes(I.S[2]);
  const uint32_t K = C.known(I.S[0]) & C.known(I.S[1]) & C.known(I.S[2]);
  constexpr uint64_t NaN =
      sizeof(T) == 4 ? 0x7fffffffull : 0x7fffffffffffffffull;
  for (uint32_t M = C.Active; M; M &= M - 1) {
    const unsigned L = unsigned(__builtin_ctz(M));
    T R;
    if constexpr (sizeof(T) == 4)
      R = __builtin_fmaf(get<T>(A[L]), get<T>(B[L]), get<T>(Cc[L]));
    else
      R = __builtin_fma(get<T>(A[L]), get<T>(B[L]), get<T>(Cc[L]));
    D[L] = R != R ? NaN : put<T>(R);
  }
  C.setKnown(I.D[0], K);
}

/// A converged warp's f32 or f64 add, sub, mul or fma rounded to nearest
/// with AVX2 and FMA, four lanes a step (std::fma is a call into libm a
/// lane, and the compiler keeps the scalar loop under -frounding-math).
/// The same single rounding as the scalar path; NaNs made canonical.
template <class T, uint8_t Op>
__attribute__((target("avx2,fma"))) void wideH(Ctx &C, const XInstr &I) {
  if (C.Active != ~0u)
    return Op == FFma ? fusedH<T>(C, I) : plainH<T, Op>(C, I);
  // Plain pointers, not structured bindings: lambdas capture them (C++17).
  const Operands O = operandsOf<Op>(C, I);
  uint64_t *const D = O.D;
  const uint64_t *const A = O.A, *const B = O.B, *const Cc = O.Cc;
  const uint32_t K = O.K;
  for (unsigned L = 0; L < 32; L += 4) {
    const __m256i VA = _mm256_loadu_si256((const __m256i *)(A + L)),
                  VB = _mm256_loadu_si256((const __m256i *)(B + L)),
                  VC = _mm256_loadu_si256((const __m256i *)(Cc + L));
    __m256i Out;
    if constexpr (sizeof(T) == 4) {
      // Each lane's float is the low half of its 64 bits.
      const __m256i Low = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
      const __m128 X = _mm256_castps256_ps128(_mm256_castsi256_ps(
                       _mm256_permutevar8x32_epi32(VA, Low))),
                   Y = _mm256_castps256_ps128(_mm256_castsi256_ps(
                       _mm256_permutevar8x32_epi32(VB, Low))),
                   Z = _mm256_castps256_ps128(_mm256_castsi256_ps(
                       _mm256_permutevar8x32_epi32(VC, Low)));
      __m128 R = Op == FAdd   ? _mm_add_ps(X, Y)
                 : Op == FSub ? _mm_sub_ps(X, Y)
                 : Op == FMul ? _mm_mul_ps(X, Y)
                              : _mm_fmadd_ps(X, Y, Z);
      R = _mm_blendv_ps(R, _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff)),
                        _mm_cmpunord_ps(R, R));
      Out = _mm256_cvtepu32_epi64(_mm_castps_si128(R));
    } else {
      const __m256d X = _mm256_castsi256_pd(VA), Y = _mm256_castsi256_pd(VB),
                    Z = _mm256_castsi256_pd(VC);
      __m256d R = Op == FAdd   ? _mm256_add_pd(X, Y)
                  : Op == FSub ? _mm256_sub_pd(X, Y)
                  : Op == FMul ? _mm256_mul_pd(X, Y)
                               : _mm256_fmadd_pd(X, Y, Z);
      R = _mm256_blendv_pd(
          R, _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffll)),
          _mm256_cmp_pd(R, R, _CMP_UNORD_Q));
      Out = _mm256_castpd_si256(R);
    }
    _mm256_storeu_si256((__m256i *)(D + L), Out);
  }
  C.setKnown(I.D[0], K);
}

bool wideHost() {
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
#else
template <class T, uint8_t Op> void wideH(Ctx &C, const XInstr &I) {
  plainH<T, Op>(C, I);
}
bool wideHost() { return false; }
#endif

template <class T> Handler plain(uint8_t Op) {
  static const bool Wide = wideHost();
#if defined(__x86_64__)
  static const bool HostFma = __builtin_cpu_supports("fma");
  if (!Wide && Op == FFma && HostFma)
    return fusedH<T>;
#endif
  switch (Op) {
  case FAdd:
    return Wide ? wideH<T, FAdd> : plainH<T, FAdd>;
  case FSub:
    return Wide ? wideH<T, FSub> : plainH<T, FSub>;
  case FMul:
    return Wide ? wideH<T, FMul> : plainH<T, FMul>;
  case FFma:
    return Wide ? wideH<T, FFma> : plainH<T, FFma>;
  default:
    return nullptr;
  }
}

/// Non-nearest rounding of an f32 or f64 operation: the host rounds in
/// that mode.
template <class T> void roundedH(Ctx &C, const XInstr &I) {
  const int Old = std::fegetround();
  static const int Modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD,
                              FE_UPWARD};
  std::fesetround(Modes[(I.Flags & FlagRoundMask) >> 2]);
  const uint8_t Op = I.Sub;
  const bool Ftz = I.Flags & FlagFtz;
  lanewise<T, T>(C, I, [Op, Ftz](T A, T B, T Cv) -> T {
    if constexpr (std::is_same_v<T, float>)
      if (Ftz)
        A = flush(A), B = flush(B), Cv = flush(Cv);
    volatile T X = A, Y = B, Z = Cv;
    T R;
    switch (Op) {
    case FAdd:
      R = X + Y;
      break;
    case FSub:
      R = X - Y;
      break;
    case FMul:
      R = X * Y;
      break;
    case FFma:
      R = std::fma(T(X), T(Y), T(Z));
      break;
    case FDiv:
      R = X / Y;
      break;
    case FRcp:
      R = T(1) / X;
      break;
    default:
      R = std::sqrt(T(X));
      break;
    }
    if constexpr (std::is_same_v<T, float>)
      if (Ftz)
        R = flush(R);
    return R;
  });
  std::fesetround(Old);
}

} // namespace

bool decodeFloat(Decoder &D, const ptx::Instr &I, XInstr &X) {
  const Ty T = Decoder::lastType(I);
  if (!isFloat(T) || T == Ty::TF32)
    return false;
  static const std::pair<const char *, FOp> Ops[] = {
      {"add", FAdd},     {"sub", FSub},     {"mul", FMul},   {"fma", FFma},
      {"mad", FFma},     {"div", FDiv},     {"rcp", FRcp},   {"sqrt", FSqrt},
      {"rsqrt", FRsqrt}, {"sin", FSin},     {"cos", FCos},   {"lg2", FLg2},
      {"ex2", FEx2},     {"tanh", FTanh},   {"min", FMin},   {"max", FMax},
      {"abs", FAbs},     {"neg", FNeg},     {"copysign", FCopysign}};
  int Op = -1;
  for (auto &[N, O] : Ops)
    if (I.Op == N)
      Op = O;
  if (Op < 0)
    return false;
  X.Sub = uint8_t(Op);
  X.Flags = Decoder::flags(I);
  const size_t NS = I.Ops.size() - 1;
  if (NS < 1 || NS > 3) {
    D.unsupported(X, "a float instruction with " + std::to_string(NS) +
                         " sources");
    return true;
  }
  X.D[0] = D.dst(I.Ops[0]);
  X.ND = 1;
  for (size_t K = 0; K < NS; ++K)
    X.S[K] = D.src(I.Ops[K + 1], T);
  X.NS = uint8_t(NS);
  if (X.Flags & (FlagXorSign | FlagAbs)) {
    D.unsupported(X, "min/max with .xorsign or .abs");
    return true;
  }
  const bool Directed = (X.Flags & FlagRoundMask) != 0;
  const bool Basic = Op == FAdd || Op == FSub || Op == FMul || Op == FFma ||
                     Op == FDiv || Op == FRcp || Op == FSqrt;
  const bool Plain = !X.Flags && (Op == FAdd || Op == FSub || Op == FMul ||
                                   Op == FFma);
  switch (T) {
  case Ty::F32:
    X.Fn = Plain ? plain<float>(uint8_t(Op))
           : Directed && Basic && !(X.Flags & FlagSat)
               ? roundedH<float>
               : floatH<F32Fmt, false>;
    break;
  case Ty::F64:
    X.Fn = Plain                 ? plain<double>(uint8_t(Op))
           : Directed && Basic ? roundedH<double>
                               : floatH<F64Fmt, false>;
    break;
  case Ty::F16:
    X.Fn = floatH<F16Fmt, false>;
    break;
  case Ty::F16x2:
    X.Fn = floatH<F16Fmt, true>;
    break;
  case Ty::BF16:
    X.Fn = floatH<BF16Fmt, false>;
    break;
  case Ty::BF16x2:
    X.Fn = floatH<BF16Fmt, true>;
    break;
  default:
    return false;
  }
  return true;
}

} // namespace gmem::exec
