//===- loop_skip_test.cpp - Long loops counted by periods == every iteration
//
// The every-warp evaluator counts a long loop whose iterations only translate
// its addresses by running one period of iterations and multiplying
// (simulator/loop_skip.h). Here seeded random loops of that shape, from
// 100 000 to 200 000 iterations (past the 65 536 where counting by periods
// starts), with several steps, directions, comparisons, element sizes,
// lanes that leave at different iterations and shared accesses, are run both
// ways; every count must be equal. And a 2^40-iteration loop is answered.
//
//===----------------------------------------------------------------------===//
#include "build_model.h"
#include "simulate.h"
#include "warp_eval.h"

#include <gtest/gtest.h>
#include <random>

using namespace gmem;
using namespace gmem::test;

namespace {

std::vector<AccessStats> runAll(const Kernel &K, const Launch &L,
                                uint64_t SkipFrom,
                                uint64_t *Skipped = nullptr) {
  LaunchEnv Env = makeLaunchEnv(K, L);
  std::vector<AccessStats> Stats(K.Accesses.size());
  WarpEvaluator E(K, *findArch("sm_90"), Env, Stats);
  E.LoopSkipFrom = SkipFrom;
  for (uint64_t B = 0; B < L.Grid.X; ++B)
    for (unsigned W = 0; E.runWarp({B, 0, 0}, W); ++W)
      ;
  if (Skipped)
    *Skipped += E.SkippedIterations;
  return Stats;
}

TEST(LoopSkip, PeriodsCountLikeEveryIteration) {
  std::mt19937_64 R(20261123);
  auto Pick = [&](int N) { return int(R() % unsigned(N)); };
  uint64_t Skipped = 0, Run = 0;
  for (int Case = 0; Case < 24; ++Case) {
    SCOPED_TRACE("case " + std::to_string(Case));
    Kernel K;
    K.Name = "k";
    static const unsigned Sizes[] = {1, 2, 4, 8, 16};
    unsigned Size = Sizes[Pick(5)];
    K.Params = {pointerParam("a", Size), intParam("n", I64)};
    SharedArray S;
    S.Name = "tile";
    S.Bytes = 4096;
    S.Dims = {1024};
    K.Shared = {S};
    K.Slots = {{"i", I64}};
    auto I = makeVar(0, I64);
    auto Tx = cast(tx(), I64);
    bool Down = Pick(3) == 0;
    int64_t Step = 1 + Pick(9);
    int64_t N = 100000 + Pick(100000);
    // Lanes may leave at different iterations: the bound grows with tx.
    ExprPtr Extra = Pick(2) ? mul(Tx, c(Pick(4), I64)) : c(0, I64);
    ExprPtr Cond, Init;
    if (!Down) {
      Init = c(Pick(5), I64);
      Cond = bin(Pick(2) ? Op::Lt : Op::Le, I, add(makeParam(1, I64), Extra));
    } else {
      Init = add(makeParam(1, I64), Extra);
      Cond = bin(Pick(2) ? Op::Gt : Op::Ge, I, c(Pick(5), I64));
    }
    // a[i * Mult + tx * Stride + Off], and a shared word per lane.
    int64_t Mult = Pick(4), Stride = 1 + Pick(3), Off = Pick(7);
    std::vector<Stmt> Body;
    Body.push_back(addAccess(
        K, Space::Global, Pick(2) ? AccessKind::Load : AccessKind::Store, Size,
        elem(0,
             add(add(mul(I, c(Mult, I64)), mul(Tx, c(Stride, I64))),
                 c(Off, I64)),
             Size),
        "a[...]"));
    if (Pick(2))
      Body.push_back(addAccess(K, Space::Shared, AccessKind::Load, 4,
                               mul(cast(tx(), U64), c(4 * (1 + Pick(4)), U64)),
                               "tile[...]", 0));
    Stmt Step_ = assign(0, bin(Down ? Op::Sub : Op::Add, I, c(Step, I64)));
    K.Body = {assign(0, Init), loop(Cond, Body, {Step_})};
    Launch L;
    L.Kernel = "k";
    L.Grid = {uint64_t(1 + Pick(2)), 1, 1};
    L.Block = {uint64_t(20 + Pick(60)), 1, 1};
    L.Args = {ptrArg("a", Pick(4) ? 0 : 4 * Pick(8)), intArg(N)};
    std::vector<AccessStats> Fast = runAll(K, L, uint64_t(1) << 16, &Skipped);
    std::vector<AccessStats> Slow = runAll(K, L, UINT64_MAX);
    for (size_t A = 0; A < K.Accesses.size(); ++A) {
      SCOPED_TRACE(K.Accesses[A].Text);
      EXPECT_EQ(Fast[A].Requests, Slow[A].Requests);
      EXPECT_EQ(Fast[A].ActiveLanes, Slow[A].ActiveLanes);
      EXPECT_EQ(Fast[A].Units, Slow[A].Units);
      EXPECT_EQ(Fast[A].IdealUnits, Slow[A].IdealUnits);
      EXPECT_EQ(Fast[A].DistinctBytes, Slow[A].DistinctBytes);
      EXPECT_EQ(Fast[A].MaxWays, Slow[A].MaxWays);
      EXPECT_EQ(Fast[A].MisalignedLanes, Slow[A].MisalignedLanes);
      EXPECT_EQ(Fast[A].UnknownRequests, Slow[A].UnknownRequests);
    }
    Run += Slow[0].Requests;
  }
  // Most iterations were counted, not run (the first 65 536 of each warp
  // and the ends of periods are run).
  EXPECT_GT(Skipped, Run / 5) << Skipped << " of " << Run;
}

// 2^40 iterations of a[threadIdx.x]: one request of 4 sectors each, counted
// at once instead of cut at 2^26 iterations as unknown.
TEST(LoopSkip, TwoToTheFortyIterationsAreCounted) {
  Kernel K;
  K.Name = "k";
  K.Params = {pointerParam("a", 4), intParam("n", I64)};
  K.Slots = {{"i", I64}};
  auto I = makeVar(0, I64);
  K.Body = {assign(0, c(0, I64)),
            loop(bin(Op::Lt, I, makeParam(1, I64)),
                 {addAccess(K, Space::Global, AccessKind::Load, 4,
                            elem(0, tx(), 4), "a[threadIdx.x]")},
                 {assign(0, add(I, c(1, I64)))})};
  Launch L;
  L.Kernel = "k";
  L.Grid = {3, 1, 1};
  L.Block = {32, 1, 1};
  L.Args = {ptrArg("a"), intArg(int64_t(1) << 40)};
  for (bool Exhaustive : {false, true}) {
    SimOptions O;
    O.Exhaustive = Exhaustive;
    LaunchResult R = simulate(K, L, O);
    const Metric &Req =
        R.Metrics.at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
    ASSERT_TRUE(Req.Value) << Req.UnknownReason;
    EXPECT_EQ(*Req.Value, 3.0 * double(uint64_t(1) << 40));
    EXPECT_EQ(*R.Metrics.at("gld_transactions_per_request").Value, 4.0);
  }
}

// Counted by periods, a loop whose pointer arithmetic leaves the address
// space part way must still find every such iteration: a[off + i] on floats
// with off = 2^61 - 100 000 reaches an offset of 2^63 bytes at i = 100 000,
// so iterations 100 000 to 199 999 of each warp overflow.
TEST(LoopSkip, PointerOverflowPartWayIsCounted) {
  Kernel K;
  K.Name = "k";
  K.Params = {pointerParam("a", 4), intParam("off", I64)};
  K.Slots = {{"i", I64}};
  auto I = makeVar(0, I64);
  K.Body = {
      assign(0, c(0, I64)),
      loop(bin(Op::Lt, I, c(200000, I64)),
           {addAccess(K, Space::Global, AccessKind::Load, 4,
                      elem(0, add(makeParam(1, I64), I), 4), "a[off + i]")},
           {assign(0, add(I, c(1, I64)))})};
  Launch L;
  L.Kernel = "k";
  L.Grid = {2, 1, 1};
  L.Block = {32, 1, 1};
  L.Args = {ptrArg("a"), intArg((int64_t(1) << 61) - 100000)};
  // The range the plan would skip ends past the edge, which the exact end
  // values show: those iterations are run, not multiplied.
  std::vector<AccessStats> Fast = runAll(K, L, 65536);
  std::vector<AccessStats> Slow = runAll(K, L, UINT64_MAX);
  EXPECT_EQ(Fast[0].Requests, 2u * 200000);
  EXPECT_EQ(Fast[0].OverflowRequests, 2u * 100000);
  EXPECT_EQ(Fast[0].Units, 2u * 100000); // One sector per uniform load.
  EXPECT_EQ(Slow[0].OverflowRequests, Fast[0].OverflowRequests);
  EXPECT_EQ(Slow[0].Units, Fast[0].Units);
}

// A pointer variable that steps below address 0 part way: float *p = a +
// off, then *p = 0; p -= 1 for 200 000 iterations. a is at 2^36 bytes, so
// with off = 100 000 - 2^34 floats p is at 400 000 bytes and its value
// leaves the address space after 100 000 steps; a skipped range must not
// wrap over that (found by review: the end values read as unsigned).
TEST(LoopSkip, PointerVariableBelowZeroPartWayIsCounted) {
  Kernel K;
  K.Name = "k";
  K.Params = {pointerParam("a", 4), intParam("off", I64)};
  K.Slots = {{"i", I64}, {"p", U64}};
  auto I = makeVar(0, I64), P = makeVar(1, U64);
  auto Step = [](ExprPtr Index) {
    return makePointerArith(Op::Mul, cast(Index, U64), c(4, U64));
  };
  K.Body = {assign(0, c(0, I64)),
            assign(1, makePointerArith(Op::Add, makeParam(0, U64),
                                       Step(makeParam(1, I64)))),
            loop(bin(Op::Lt, I, c(200000, I64)),
                 {addAccess(K, Space::Global, AccessKind::Store, 4, P, "*p"),
                  assign(1, makePointerArith(Op::Sub, P, Step(c(1, I64))))},
                 {assign(0, add(I, c(1, I64)))})};
  Launch L;
  L.Kernel = "k";
  L.Grid = {1, 1, 1};
  L.Block = {32, 1, 1};
  L.Args = {ptrArg("a"), intArg(100000 - (int64_t(1) << 34))};
  std::vector<AccessStats> Fast = runAll(K, L, 65536);
  std::vector<AccessStats> Slow = runAll(K, L, UINT64_MAX);
  EXPECT_EQ(Slow[0].Requests, 200000u);
  // p reaches 0 at step 100 000 and leaves with the next.
  EXPECT_EQ(Slow[0].OverflowRequests, 99999u);
  EXPECT_EQ(Fast[0].OverflowRequests, Slow[0].OverflowRequests);
  EXPECT_EQ(Fast[0].Units, Slow[0].Units);
}

} // namespace
