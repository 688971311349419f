//===- loop_skip.h - Long loops whose iterations only translate -----------===//
//
// A loop whose body is straight-line code that adds loop-invariant amounts
// to its variables, whose condition compares expressions linear in them, and
// whose addresses are linear in them, moves every address by a fixed amount
// per iteration. When every lane of an access moves by the same amount d,
// the request's cost (sectors, wavefronts, conflicts, alignment) depends
// only on the address modulo the period of the memory rules, so it repeats
// every Period / gcd(d, Period) iterations. The evaluators run one such
// period and multiply, instead of running 2^40 iterations. Exactness is
// proved, not sampled: values are evaluated exactly (128 bits) at both ends
// of the skipped range, and a value linear in the iteration that fits its
// type at both ends fits it in between, so no wrap-around hides there.
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
  /// The body's accesses and their positions in Body.
  std::vector<std::pair<int, size_t>> Accesses;
};

LoopShape analyzeLoop(const Stmt &Loop, const Kernel &K);

/// E's exact value when every node of it fits its type, from the values of
/// its leaves (Param, Builtin, Var; nullopt when unknown); nullopt when some
/// node does not fit or E has an operation outside + - * neg and casts.
using i128 = __int128;
std::optional<i128>
exactValue(const Expr &E,
           const std::function<std::optional<int64_t>(const Expr &)> &Leaf);

} // namespace gmem

#endif // GMEM_SIMULATOR_LOOP_SKIP_H
