//===- value_range.h - Proven ranges of values the model cannot compute ---===//
//
// A value that depends on loaded data is unknown, but its expression often
// limits it: `idx[i] & 15` lies in [0, 15], `% 8` in [-7, 7], an unsigned
// char in [0, 255], a clamp in its limits. Ranges are of mathematical values
// held in 128 bits; wrap-around is exact (base + (i % 8) * 4 in 64-bit
// unsigned arithmetic stays a narrow range), and every rule is sound.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_VALUE_RANGE_H
#define GMEM_SIMULATOR_VALUE_RANGE_H

#include "model.h"
#include <functional>

namespace gmem {

struct ValueRange {
  __int128 Lo = 0, Hi = 0;
  bool operator==(const ValueRange &O) const {
    return Lo == O.Lo && Hi == O.Hi;
  }
};

/// Every value of type T.
ValueRange fullRange(IntType T);
/// The single value V (normalised to T as the evaluator keeps it).
ValueRange pointRange(int64_t V, IntType T);

/// Gives the range of a leaf (Param, Var, Builtin, Unknown) for one lane.
using LeafRange = std::function<ValueRange(const Expr &)>;

/// A range that holds E's value for one lane, from its leaves' ranges. It
/// may be unwrapped (beyond T's limits, standing for its members reduced
/// to T): valueRange() gives the values themselves.
ValueRange rangeOf(const Expr &E, const LeafRange &Leaf);

/// The values of type T that R stands for, as one range (all of T when they
/// wrap around its limits).
ValueRange valueRange(const ValueRange &R, IntType T);

} // namespace gmem

#endif // GMEM_SIMULATOR_VALUE_RANGE_H
