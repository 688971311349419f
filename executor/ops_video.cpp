//===- ops_video.cpp - SIMD video instructions (vadd4, vabsdiff4, ...)
//-----===//
//
// vadd, vsub, vavrg, vabsdiff, vmin, vmax and vset on two 16-bit or four
// 8-bit elements of a 32-bit register (the PTX ISA's "SIMD video
// instructions"; CUDA's __vabsdiffu4, __vadd4 and kin, and stereo and
// image kernels' inline assembly). Each element is widened by its
// operand's signedness and the operation applied exactly; with .add the
// results are summed with c, otherwise each is saturated (.sat) or
// truncated to its element and those the mask leaves out come from c.
// Operand selectors other than the default are not executed.
//
//===----------------------------------------------------------------------===//
#include "decode.h"
#include "lanes.h"
#include "launch.h"

namespace gmem::exec {

namespace {

enum VOp : uint8_t { VAdd, VSub, VAvrg, VAbsdiff, VMin, VMax, VSet };

/// XInstr::Flags bits of its own (XInstr::Width holds the mask).
enum : uint16_t {
  VSignedD = 1,
  VSignedA = 2,
  VSignedB = 4,
  VSat = 8,
  VAccumulate = 16,
};

int64_t element(uint32_t V, unsigned K, unsigned Bits, bool Signed) {
  const uint32_t E = (V >> (K * Bits)) & ((1u << Bits) - 1);
  if (Signed && (E >> (Bits - 1)))
    return int64_t(E) - (int64_t(1) << Bits);
  return int64_t(E);
}

void videoH(Ctx &C, const XInstr &I) {
  const Sources S = sources(C, I);
  uint64_t *D = C.lanes(I.D[0]);
  const unsigned N = I.Vec, Bits = 32 / N;
  const uint8_t Cmp = uint8_t(I.Off); // vset: 0 eq 1 ne 2 lt 3 le 4 gt 5 ge.
  forLanes(C.Active, [&](unsigned L) {
    const uint32_t A = uint32_t(S.A[L]), B = uint32_t(S.B[L]),
                   Cv = uint32_t(S.C[L]);
    int64_t Sum = int64_t(int32_t(Cv));
    if (!(I.Flags & VSignedD))
      Sum = int64_t(Cv);
    uint32_t Merged = Cv;
    for (unsigned K = 0; K < N; ++K) {
      const int64_t X = element(A, K, Bits, I.Flags & VSignedA),
                    Y = element(B, K, Bits, I.Flags & VSignedB);
      int64_t R = 0;
      switch (I.Sub) {
      case VAdd:
        R = X + Y;
        break;
      case VSub:
        R = X - Y;
        break;
      case VAvrg: // Rounds half up.
        R = (X + Y + 1) >> 1;
        break;
      case VAbsdiff:
        R = X > Y ? X - Y : Y - X;
        break;
      case VMin:
        R = X < Y ? X : Y;
        break;
      case VMax:
        R = X > Y ? X : Y;
        break;
      case VSet: {
        const bool T[6] = {X == Y, X != Y, X<Y, X <= Y, X> Y, X >= Y};
        R = Cmp < 6 && T[Cmp];
        break;
      }
      }
      if (I.Flags & VAccumulate) {
        Sum += R;
        continue;
      }
      if ((I.Flags & VSat) && I.Sub != VSet) {
        const bool Sd = I.Flags & VSignedD;
        const int64_t Lo = Sd ? -(int64_t(1) << (Bits - 1)) : 0,
                      Hi = Sd ? (int64_t(1) << (Bits - 1)) - 1
                              : (int64_t(1) << Bits) - 1;
        R = R < Lo ? Lo : R > Hi ? Hi : R;
      }
      if (I.Width >> K & 1) {
        const uint32_t M = ((1u << Bits) - 1) << (K * Bits);
        Merged = (Merged & ~M) | ((uint32_t(R) << (K * Bits)) & M);
      }
    }
    D[L] = (I.Flags & VAccumulate) ? uint32_t(Sum) : Merged;
  });
  C.setKnown(I.D[0], S.Known);
}

} // namespace

bool decodeVideo(Decoder &D, const ptx::Instr &I, XInstr &X) {
  static const std::pair<const char *, VOp> Ops[] = {
      {"vadd", VAdd}, {"vsub", VSub}, {"vavrg", VAvrg}, {"vabsdiff", VAbsdiff},
      {"vmin", VMin}, {"vmax", VMax}, {"vset", VSet}};
  const std::string &Op = I.Op;
  if (Op.size() < 2 || (Op.back() != '2' && Op.back() != '4'))
    return false;
  const std::string Base = Op.substr(0, Op.size() - 1);
  int Which = -1;
  for (const auto &[N, V] : Ops)
    if (Base == N)
      Which = V;
  if (Which < 0)
    return false;
  X.Vec = uint8_t(Op.back() - '0');
  X.Sub = uint8_t(Which);
  X.Flags = 0; // Another family's decoder may have set its own.
  // Types: d, a, b for the arithmetic ones; a, b for vset (then a
  // comparison).
  std::vector<bool> Signed;
  for (const std::string &M : I.Mods) {
    if (M == "s32" || M == "u32")
      Signed.push_back(M == "s32");
    else if (M == "sat")
      X.Flags |= VSat;
    else if (M == "add")
      X.Flags |= VAccumulate;
    else if (Which == VSet) {
      static const char *const Cmps[] = {"eq", "ne", "lt", "le", "gt", "ge"};
      for (int K = 0; K < 6; ++K)
        if (M == Cmps[K])
          X.Off = K;
    }
  }
  if (Which == VSet)
    Signed.insert(Signed.begin(), false);
  bool Plain = Signed.size() == 3 && I.Ops.size() == 4;
  for (const ptx::Operand &O : I.Ops)
    Plain = Plain && O.Kind != ptx::Operand::Vector;
  if (!Plain) {
    D.unsupported(X, Op + " of this form (operand selectors or a secondary "
                          "operation)");
    return true;
  }
  X.Flags |= uint16_t((Signed[0] ? VSignedD : 0) | (Signed[1] ? VSignedA : 0) |
                      (Signed[2] ? VSignedB : 0));
  X.D[0] = D.dst(I.Ops[0]);
  X.ND = 1;
  for (unsigned K = 0; K < 3; ++K)
    X.S[K] = D.src(I.Ops[K + 1], Ty::B32);
  X.NS = 3;
  X.Width = uint8_t((1 << X.Vec) - 1); // The mask: every element.
  X.Fn = videoH;
  return true;
}

} // namespace gmem::exec
