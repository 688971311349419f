//===- affine.h - Affine functions of a box's coordinates -----------------===//
//
// A value c0 + c.u over the coordinates u of a BlockBox, in 128-bit integers
// so that ranges over the box never overflow, and the decisions the fast path
// makes with it: does a predicate hold alike in every block of the box, and
// if not, where to cut the box so that it does in each part.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_AFFINE_H
#define GMEM_SIMULATOR_AFFINE_H

#include "box_eval.h"

namespace gmem {

using i128 = __int128;

struct Affine {
  i128 C0 = 0;
  i128 C[3] = {0, 0, 0};
};

struct Range {
  i128 Lo, Hi;
};

/// The integer a normalised int64 value of type T stands for.
inline i128 valueOf(int64_t V, IntType T) {
  return T.Bits == 64 && !T.Signed ? i128(uint64_t(V)) : i128(V);
}
i128 typeMin(IntType T);
i128 typeMax(IntType T);

/// Smallest and largest value of A over the box (attained at corners).
Range rangeOver(const BlockBox &B, const Affine &A);

/// The cut that separates A < T from A >= T (exactly when A moves along one
/// dimension, by halving the longest one otherwise).
Refine splitAt(const BlockBox &B, const Affine &A, i128 T);

enum class Pred { Lt0, Le0, Gt0, Ge0, Eq0, Ne0 };

/// Whether P(A(u)) holds in every block of the box. Where that differs
/// between blocks, adds the cut that separates them to Cut and returns
/// false (the box's run is then abandoned).
bool decide(const BlockBox &B, const Affine &A, Pred P, Cuts &Cut);

/// Mask of the dims (bit d) in which A moves within the box.
unsigned movingDims(const BlockBox &B, const Affine &A);

/// The cut for a value that is not affine in the dims of mask Dims.
Refine nonAffine(unsigned Dims);

} // namespace gmem

#endif // GMEM_SIMULATOR_AFFINE_H
