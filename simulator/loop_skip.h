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
// Second order (a triangle: for (k = i; k < n; ++k) inside the loop over
// i). The inner loop's start and condition are linear in the outer
// iteration i, so lane L's inner trip count is n_L(i) = ceil(-F_L(i) / G_L)
// (the condition F_L(i) + G_L t < 0, F_L linear in i). Over P outer
// iterations where G_L divides F_L's change, n_L(i + P) = n_L(i) - m, the
// same m for every lane; and when every access moves by a multiple of the
// period both over P outer iterations at a fixed inner iteration and over m
// inner ones, inner iteration t of outer iteration i + P makes the requests
// of inner iteration t + m of outer iteration i, moved by whole periods:
// same lanes, same cost. So f(i + P) - f(i) = -(cost of the first m inner
// iterations of i) (+ for m < 0, those of i + P), which repeats with period
// P once those first |m| iterations have every lane active: the period's
// cost is an arithmetic series. Two periods are run, and the rest counted
// as T C1 + (C1 - C0) T (T + 1) / 2. Corners of the (i, t) trapezoid are
// checked as above.
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
  /// Second order: slots the body's top level assigns, before anything
  /// reads them, from values linear in the increments (Slot = Value; an
  /// inner loop's start), and the one loop of the top level whose start or
  /// condition reads them or the increments. Its trip count moves with the
  /// iterations; the cost of a period then grows by the same amount from
  /// one period to the next (see below).
  std::vector<std::pair<int, const Expr *>> Derived;
  const Stmt *Inner = nullptr;
  /// Carried slots the inner loop assigns: their evolution may follow its
  /// trip count, so a second-order period counts only while they are
  /// unknown (loaded data).
  std::vector<int> InnerCarried;
  bool secondOrder() const { return !Derived.empty() || Inner; }
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
