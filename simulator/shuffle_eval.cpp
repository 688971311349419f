//===- shuffle_eval.cpp - Warp shuffles in the warp evaluator -------------===//
//
// __shfl*_sync hands each lane the value another lane holds: exact when the
// source lane is active and its value known; unknown, with the reason,
// when the source lane is not active (the result is undefined on the GPU)
// or the width is not a power of two up to 32.
//
//===----------------------------------------------------------------------===//
#include "warp_eval.h"

#include <algorithm>

namespace gmem {

uint32_t WarpEvaluator::evalShuffle(const Expr &E, uint32_t Mask, int64_t *Out,
                                    uint32_t Unknown, int64_t *Tmp,
                                    unsigned Depth) {
  int64_t *B = Tmp, *W = Tmp + 32;
  bool UniB = false, UniW = false;
  uint32_t UB = eval(*E.Ops[1], Mask, B, Depth + 1, UniB);
  uint32_t UW = eval(*E.Ops[2], Mask, W, Depth + 1, UniW);
  if (UniB)
    std::fill(B + 1, B + 32, B[0]);
  if (UniW)
    std::fill(W + 1, W + 32, W[0]);
  const ShuffleMode M = static_cast<ShuffleMode>(E.Index & 3);
  int64_t V[32];
  std::copy(Out, Out + 32, V);
  uint32_t U = 0;
  for (uint32_t Lanes = Mask; Lanes; Lanes &= Lanes - 1) {
    unsigned L = __builtin_ctz(Lanes);
    if ((UB | UW) >> L & 1) {
      U |= 1u << L;
      continue;
    }
    int S = shuffleSource(M, L, B[L], W[L]);
    if (S < 0) {
      U |= 1u << L;
      LastUnknownReason = unmodelled("shuffle width " + std::to_string(W[L]) +
                                     " is not a power of two up to 32");
      continue;
    }
    if (!(Mask >> S & 1)) {
      U |= 1u << L;
      LastUnknownReason = unmodelled("shuffle reads lane " + std::to_string(S) +
                                     ", which is not active there (undefined)");
      continue;
    }
    Out[L] = V[S];
    if (Unknown >> S & 1)
      U |= 1u << L;
  }
  return U;
}

} // namespace gmem
