//===- dead_loops_test.cpp - Loops that change no figure are dropped ------===//
//
// A register tile's multiply-accumulate leaves empty counting loops in the
// model (simulator/dead_loops.h): they are dropped, and simulate() gives
// the same figures with and without them. Loops that access memory, whose
// counter is read afterwards, or that may not end stay.
//
//===----------------------------------------------------------------------===//
#include "build_model.h"
#include "dead_loops.h"
#include "simulate.h"

#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::test;

namespace {

ExprPtr var(int Slot) { return makeVar(Slot, U32); }
ExprPtr lt(ExprPtr L, int64_t Bound) { return bin(Op::Lt, L, c(Bound, U32)); }
Stmt step(int Slot, int64_t By = 1) {
  return assign(Slot, add(var(Slot), c(By, U32)));
}

/// k(float *a): a[tid] loaded in a loop of 4 (slot 0), after it an 8 x 8
/// tile loop nest (slots 1, 2) with nothing in it, as the model has
/// `for m for n acc[m][n] += x[m] * y[n]`.
Kernel tiled() {
  Kernel K;
  K.Name = "k";
  K.Params = {pointerParam("a", 4)};
  K.Slots = {{"i", U32}, {"m", U32}, {"n", U32}};
  Stmt Load = addAccess(K, Space::Global, AccessKind::Load, 4,
                        elem(0, add(mul(var(0), c(32, U32)), tx()), 4),
                        "a[i * 32 + tid]");
  std::vector<Stmt> Tile = {
      assign(2, c(0, U32)),
      loop(lt(var(2), 8), {}, {step(2)}),
  };
  K.Body = {assign(0, c(0, U32)), loop(lt(var(0), 4),
                                       {Load, assign(1, c(0, U32)),
                                        loop(lt(var(1), 8), Tile, {step(1)})},
                                       {step(0)})};
  return K;
}

TEST(DeadLoops, TheTileNestIsDroppedAndTheFiguresStay) {
  const Kernel K = tiled();
  std::optional<Kernel> P = withoutDeadLoops(K);
  ASSERT_TRUE(P);
  // The outer loop keeps its load and the tile's counter's assignment;
  // the nest is gone.
  ASSERT_EQ(P->Body.size(), 2u);
  const Stmt &Outer = P->Body[1];
  ASSERT_EQ(Outer.Body.size(), 2u);
  EXPECT_EQ(Outer.Body[0].Kind, StmtKind::Access);
  EXPECT_EQ(Outer.Body[1].Kind, StmtKind::Assign);
  // Nothing left to drop.
  EXPECT_FALSE(withoutDeadLoops(*P));

  const Launch L = test::launchOf("k", {3, 1, 1}, {64, 1, 1}, {ptrArg("a", 0)});
  SimOptions O;
  O.Exhaustive = true;
  const LaunchResult R = simulate(K, L, O);
  EXPECT_EQ(R.PerAccess.at(0).Requests, 3u * 2 * 4);
  EXPECT_EQ(R.PerAccess.at(0).Units, 3u * 2 * 4 * 4);
}

TEST(DeadLoops, LoopsThatMatterStay) {
  // The tile's counter read after the nest (an address uses it).
  Kernel K = tiled();
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Store, 4,
                             elem(0, var(1), 4), "a[m]"));
  std::optional<Kernel> P = withoutDeadLoops(K);
  ASSERT_TRUE(P); // The inner loop (over n) still goes.
  EXPECT_EQ(P->Body[1].Body.size(), 3u);
  EXPECT_TRUE(P->Body[1].Body[2].Body.size() == 1 &&
              P->Body[1].Body[2].Body[0].Kind == StmtKind::Assign);

  // A loop that may not end: a counter stepped by 0, or compared with a
  // bound past the small ones, or not set to a constant first.
  for (int Variant = 0; Variant < 3; ++Variant) {
    Kernel Q;
    Q.Name = "q";
    Q.Slots = {{"n", U32}};
    Q.Body = {assign(0, Variant == 2 ? tx() : c(0, U32)),
              loop(lt(var(0), Variant == 1 ? int64_t(1) << 31 : 8), {},
                   {step(0, Variant == 0 ? 0 : 1)})};
    EXPECT_FALSE(withoutDeadLoops(Q)) << Variant;
  }
}

} // namespace
