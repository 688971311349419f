//===- affine.cpp - Affine functions of a box's coordinates ---------------===//
#include "affine.h"

namespace gmem {

i128 typeMin(IntType T) {
  if (!T.Signed || T.Bits == 1)
    return 0;
  return -(i128(1) << (T.Bits - 1));
}

i128 typeMax(IntType T) {
  if (T.Bits == 1)
    return 1;
  return (i128(1) << (T.Signed ? T.Bits - 1 : T.Bits)) - 1;
}

Range rangeOver(const BlockBox &B, const Affine &A) {
  Range R{A.C0, A.C0};
  for (int D = 0; D < 3; ++D) {
    if (B.Ext[D] <= 1 || A.C[D] == 0)
      continue;
    i128 E = A.C[D] * i128(B.Ext[D] - 1);
    (E < 0 ? R.Lo : R.Hi) += E;
  }
  return R;
}

unsigned movingDims(const BlockBox &B, const Affine &A) {
  unsigned M = 0;
  for (int D = 0; D < 3; ++D)
    if (B.Ext[D] > 1 && A.C[D] != 0)
      M |= 1u << D;
  return M;
}

Refine nonAffine(unsigned Dims) {
  Refine R;
  R.Kind = Refine::NonAffine;
  R.Dims = Dims;
  return R;
}

static i128 floorDiv(i128 A, i128 B) { // B > 0
  i128 Q = A / B;
  return (A % B != 0 && A < 0) ? Q - 1 : Q;
}

Refine splitAt(const BlockBox &B, const Affine &A, i128 T) {
  unsigned M = movingDims(B, A);
  Refine R;
  R.Kind = Refine::Split;
  if (__builtin_popcount(M) == 1) {
    int D = __builtin_ctz(M);
    i128 C = A.C[D], U;
    if (C > 0) // Smallest u with C0 + C*u >= T.
      U = -floorDiv(A.C0 - T, C);
    else // First u past the last with C0 + C*u >= T.
      U = floorDiv(A.C0 - T, -C) + 1;
    if (U >= 1 && U < i128(B.Ext[D])) {
      R.Dim = D;
      R.At = uint64_t(U);
      return R;
    }
  }
  // Several dimensions move (or no exact cut was found): halve the longest.
  int Best = -1;
  for (int D = 0; D < 3; ++D)
    if ((M >> D & 1) && (Best < 0 || B.Ext[D] > B.Ext[Best]))
      Best = D;
  if (Best < 0)
    return nonAffine(0); // Unreachable for a box where A moves.
  R.Dim = Best;
  R.At = B.Ext[Best] / 2;
  return R;
}

static i128 gcd128(i128 A, i128 B) {
  A = A < 0 ? -A : A;
  B = B < 0 ? -B : B;
  while (B) {
    i128 T = A % B;
    A = B;
    B = T;
  }
  return A;
}

bool decide(const BlockBox &B, const Affine &A, Pred P, Cuts &Cut) {
  auto Holds = [P](i128 X) {
    switch (P) {
    case Pred::Lt0:
      return X < 0;
    case Pred::Le0:
      return X <= 0;
    case Pred::Gt0:
      return X > 0;
    case Pred::Ge0:
      return X >= 0;
    case Pred::Eq0:
      return X == 0;
    case Pred::Ne0:
      return X != 0;
    }
    return false;
  };
  Range R = rangeOver(B, A);
  if (R.Lo == R.Hi)
    return Holds(R.Lo);
  if (P == Pred::Eq0 || P == Pred::Ne0) {
    if (R.Lo > 0 || R.Hi < 0)
      return P == Pred::Ne0;
    i128 G = 0;
    for (int D = 0; D < 3; ++D)
      if (B.Ext[D] > 1)
        G = gcd128(G, A.C[D]);
    if (G > 1 && A.C0 % G != 0) // Zero lies between values never taken.
      return P == Pred::Ne0;
    Cut.add(splitAt(B, A, R.Lo < 0 ? 0 : 1));
    return false;
  }
  bool Lo = Holds(R.Lo), Hi = Holds(R.Hi);
  if (Lo == Hi)
    return Lo;
  Cut.add(splitAt(B, A, (P == Pred::Lt0 || P == Pred::Ge0) ? 0 : 1));
  return false;
}

} // namespace gmem
