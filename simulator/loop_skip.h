//===- loop_skip.h - Long loops whose iterations only translate -----------===//
//
// A loop whose variables move by loop-invariant amounts (Slot += Inc, the
// loop's increments), whose condition compares expressions linear in them,
// and whose addresses are linear in them with invariant coefficients, moves
// every address by a fixed amount per iteration. When every lane of an
// access moves by the same amount d, the request's cost (sectors,
// wavefronts, conflicts, alignment) depends only on the address modulo the
// period of the memory rules, so it repeats every Period / gcd(d, Period)
// iterations. The evaluators run one such period and multiply, instead of
// running 2^40 iterations.
//
// The body may hold more than straight-line code: nested loops, branches,
// inlined calls and other assignments, as long as none of them reads an
// increment's slot (so control flow does not depend on it) or loaded data.
// The slots those statements assign are carried from one iteration to the
// next; they depend only on themselves and invariants, so once they repeat
// (equal at the start of two iterations a period apart) they repeat for
// good. A triangular nest whose lanes start at different rows, or a loop
// over rows around a loop over columns, is counted this way one level at a
// time: the inner loop by its own periods, the outer loop by its.
//
// Exactness is proved, not sampled: values are evaluated exactly (128 bits)
// at both ends of the skipped range, and a value linear in the iterations
// that fits its type at the corners of the iteration ranges fits it in
// between, so no wrap-around hides there.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_LOOP_SKIP_H
#define GMEM_SIMULATOR_LOOP_SKIP_H

#include "model.h"
#include <functional>
#include <optional>
#include <vector>

namespace gmem {

/// What makes a loop skippable, found once per loop statement.
struct LoopShape {
  bool Skippable = false;
  /// Per assigned slot: Slot += Inc (or -= when Negate), in body order;
  /// Pos is the position in Body (Body.size() + i for the Step's i-th).
  struct Increment {
    int Slot;
    const Expr *Inc;
    bool Negate;
    size_t Pos;
  };
  std::vector<Increment> Increments;
  /// The condition's sides and comparison (Lt, Le, Gt or Ge).
  const Expr *Left = nullptr, *Right = nullptr;
  Op Cmp = Op::Lt;
  /// Every access the body makes, at any depth, and the position in Body
  /// of the statement that holds it.
  std::vector<std::pair<int, size_t>> Accesses;
  /// Slots assigned by the body other than the increments: their values
  /// must repeat for a period to count.
  std::vector<int> Carried;
};

LoopShape analyzeLoop(const Stmt &Loop, const Kernel &K);

/// E's exact value when every node of it fits its type, from the values of
/// its leaves (Param, Builtin, Var; nullopt when unknown); nullopt when some
/// node does not fit or E has an operation outside + - * neg and casts.
using i128 = __int128;
std::optional<i128>
exactValue(const Expr &E,
           const std::function<std::optional<int64_t>(const Expr &)> &Leaf);

/// How much E, accepted by analyzeLoop as an address, moves in one
/// iteration, from each increment's amount (IncOf: 0 for other slots) and
/// the exact values of its invariant factors; nullopt when a factor has
/// none.
std::optional<i128>
slope(const Expr &E, const std::function<std::optional<i128>(int Slot)> &IncOf,
      const std::function<std::optional<int64_t>(const Expr &)> &Leaf);

} // namespace gmem

#endif // GMEM_SIMULATOR_LOOP_SKIP_H
