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
#include "property_cases.h"
#include "simulate.h"
#include "warp_eval.h"

#include <gtest/gtest.h>
#include <random>

using namespace gmem;
using namespace gmem::test;

namespace {

std::vector<AccessStats> runAll(const Kernel &K, const Launch &L,
                                uint64_t SkipFrom, uint64_t *Skipped = nullptr,
                                uint64_t *SecondOrder = nullptr) {
  LaunchEnv Env = makeLaunchEnv(K, L);
  std::vector<AccessStats> Stats(K.Accesses.size());
  WarpEvaluator E(K, *findArch("sm_90"), Env, Stats);
  E.LoopSkipFrom = SkipFrom;
  for (uint64_t B = 0; B < L.Grid.X; ++B)
    for (unsigned W = 0; E.runWarp({B, 0, 0}, W); ++W)
      ;
  if (Skipped)
    *Skipped += E.SkippedIterations;
  if (SecondOrder)
    *SecondOrder += E.SkippedSecondOrder;
  return Stats;
}

/// A kernel k(T *a, int64_t IntName) with its local slots; a's elements
/// are Size bytes.
Kernel arrayKernel(unsigned Size, const char *IntName,
                   std::vector<Slot> Slots) {
  Kernel K;
  K.Name = "k";
  K.Params = {pointerParam("a", Size), intParam(IntName, I64)};
  K.Slots = std::move(Slots);
  return K;
}

/// Blocks x Threads threads of k with a at Align bytes past an aligned
/// allocation and the integer argument N.
Launch launchOf(uint64_t Blocks, uint64_t Threads, int64_t N,
                uint64_t Align = 0) {
  return test::launchOf("k", {Blocks, 1, 1}, {Threads, 1, 1},
                        {ptrArg("a", Align), intArg(N)});
}

void expectSameCounts(const Kernel &K, const std::vector<AccessStats> &Fast,
                      const std::vector<AccessStats> &Slow) {
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
    EXPECT_EQ(Fast[A].OutOfBoundsLanes, Slow[A].OutOfBoundsLanes);
  }
}

/// Runs L counting loops by periods from iteration 16 and every iteration,
/// expects the same counts, and returns them; Second adds the iterations
/// counted to the second order.
std::vector<AccessStats>
countedLikeEveryIteration(const Kernel &K, const Launch &L, uint64_t &Second) {
  std::vector<AccessStats> Fast = runAll(K, L, 16, nullptr, &Second);
  std::vector<AccessStats> Slow = runAll(K, L, UINT64_MAX);
  expectSameCounts(K, Fast, Slow);
  return Slow;
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
    // One draw after another, in the order the cases were made.
    const uint64_t Blocks = 1 + Pick(2), Threads = 20 + Pick(60),
                   Align = Pick(4) ? 0 : 4 * Pick(8);
    Launch L = launchOf(Blocks, Threads, N, Align);
    std::vector<AccessStats> Fast = runAll(K, L, uint64_t(1) << 16, &Skipped);
    std::vector<AccessStats> Slow = runAll(K, L, UINT64_MAX);
    expectSameCounts(K, Fast, Slow);
    Run += Slow[0].Requests;
  }
  // Most iterations were counted, not run (the first 65 536 of each warp
  // and the ends of periods are run).
  EXPECT_GT(Skipped, Run / 5) << Skipped << " of " << Run;
}

// Nests as numerical codes write them, run with the default (periods
// counted from iteration 16 of any loop) and with every iteration: an outer
// loop whose lanes start at different rows (j = tx * s, as a covariance's
// triangle), an inner loop restarted each time (carried: its variable), a
// branch on the lane, a parity swapped every iteration (carried, repeating
// every second iteration) choosing a shared buffer, and in some cases an
// inner loop that starts at the outer index (then only the inner loop is
// counted by periods).
TEST(LoopSkip, NestsCountLikeEveryIteration) {
  std::mt19937_64 R(20261124);
  auto Pick = [&](int N) { return int(R() % unsigned(N)); };
  uint64_t Skipped = 0;
  for (int Case = 0; Case < int(propertyCases(16)); ++Case) {
    SCOPED_TRACE("case " + std::to_string(Case));
    Kernel K;
    K.Name = "k";
    static const unsigned Sizes[] = {1, 2, 4, 8, 16};
    unsigned Size = Sizes[Pick(5)];
    K.Params = {pointerParam("a", Size), intParam("n", I64),
                intParam("m", I64)};
    SharedArray S;
    S.Name = "buf";
    S.Bytes = 8192;
    S.Dims = {2048};
    K.Shared = {S};
    K.Slots = {{"j", I64}, {"i", I64}, {"cur", I64}};
    auto J = makeVar(0, I64), I = makeVar(1, I64), Cur = makeVar(2, I64);
    auto Tx = cast(tx(), I64);
    const bool Triangular = Pick(4) == 0;
    int64_t Rows = 1 + Pick(5), Cols = Pick(3), Step = 1 + Pick(3);
    // a[i * Rows + j * Cols + tx]: rows of the inner loop, columns of the
    // outer one.
    ExprPtr Index = add(add(mul(I, c(Rows * 32, I64)), mul(J, c(Cols, I64))),
                        mul(Tx, c(1 + Pick(2), I64)));
    std::vector<Stmt> Inner;
    Inner.push_back(addAccess(K, Space::Global,
                              Pick(2) ? AccessKind::Load : AccessKind::Store,
                              Size, elem(0, Index, Size), "a[...]"));
    if (Pick(2))
      Inner.push_back(
          ifStmt(bin(Op::Eq, bin(Op::Rem, Tx, c(2, I64)), c(0, I64)),
                 {addAccess(K, Space::Global, AccessKind::Load, 4,
                            elem(0, add(mul(J, c(4, I64)), Tx), 4),
                            "a[j * 4 + tx]")}));
    std::vector<Stmt> Outer;
    Outer.push_back(assign(1, Triangular ? J : c(Pick(3), I64)));
    Outer.push_back(loop(bin(Op::Lt, I, makeParam(2, I64)), Inner,
                         {assign(1, add(I, c(1, I64)))}));
    // buf[cur * 1024 + tx * k]: the buffer the parity picks.
    Outer.push_back(
        addAccess(K, Space::Shared, AccessKind::Store, 4,
                  mul(add(mul(Cur, c(1024, I64)), mul(Tx, c(1 + Pick(4), I64))),
                      c(4, I64)),
                  "buf[...]", 0));
    Outer.push_back(assign(2, bin(Op::Sub, c(1, I64), Cur)));
    K.Body = {assign(0, mul(Tx, c(Pick(3), I64))), assign(2, c(0, I64)),
              loop(bin(Op::Lt, J, makeParam(1, I64)), Outer,
                   {assign(0, add(J, c(Step, I64)))})};
    Launch L;
    L.Kernel = "k";
    L.Grid = {uint64_t(1 + Pick(2)), 1, 1};
    L.Block = {uint64_t(20 + Pick(60)), 1, 1};
    const int64_t N = 200 + Pick(300), M = 20 + Pick(60);
    L.Args = {ptrArg("a", Pick(4) ? 0 : 4 * Pick(8)), intArg(N),
              intArg(Triangular ? N + M : M)};
    std::vector<AccessStats> Fast = runAll(K, L, 16, &Skipped);
    std::vector<AccessStats> Slow = runAll(K, L, UINT64_MAX);
    expectSameCounts(K, Fast, Slow);
  }
  EXPECT_GT(Skipped, 0u);
}

// Triangles counted to the second order (loop_skip.h): the outer loop over
// j runs an inner loop over k whose start or end moves with j, shrinking
// (k = j * a + b; k < n) or growing (k = b; k < j * a + n0), up or down,
// with steps, lanes that start at different rows, a store per outer
// iteration, accesses a[k * Rows + j * Cols + tx * X], and sometimes k read
// after the inner loop or before it is set (not second order then). Both
// ways must count alike, and outer loops must have been counted, not run.
TEST(LoopSkip, TrianglesCountLikeEveryIteration) {
  std::mt19937_64 R(20261125);
  auto Pick = [&](int N) { return int(R() % unsigned(N)); };
  uint64_t Second = 0;
  for (int Case = 0; Case < int(propertyCases(40)); ++Case) {
    SCOPED_TRACE("case " + std::to_string(Case));
    Kernel K;
    K.Name = "k";
    static const unsigned Sizes[] = {1, 2, 4, 8, 16};
    unsigned Size = Sizes[Pick(5)];
    K.Params = {pointerParam("a", Size), intParam("n", I64)};
    K.Slots = {{"j", I64}, {"k", I64}};
    auto J = makeVar(0, I64), Kv = makeVar(1, I64);
    auto Tx = cast(tx(), I64);
    const bool Grows = Pick(2), Down = Pick(3) == 0;
    const int64_t A = 1 + Pick(2), B = Pick(4), Step = 1 + Pick(2);
    const int64_t Rows = (1 + Pick(4)) * (Pick(2) ? 32 : 1), Cols = Pick(3);
    ExprPtr Index = add(add(mul(Kv, c(Rows, I64)), mul(J, c(Cols, I64))),
                        mul(Tx, c(1 + Pick(2), I64)));
    std::vector<Stmt> Inner = {addAccess(
        K, Space::Global, Pick(2) ? AccessKind::Load : AccessKind::Store, Size,
        elem(0, Index, Size), "a[...]")};
    ExprPtr Start, Cond;
    Stmt InnerStep = assign(1, bin(Down ? Op::Sub : Op::Add, Kv, c(1, I64)));
    auto N = makeParam(1, I64);
    if (!Grows && !Down) { // k = j * A + B; k < n
      Start = add(mul(J, c(A, I64)), c(B, I64));
      Cond = bin(Op::Lt, Kv, N);
    } else if (!Grows) { // k = n - 1 - j * A; k >= B
      Start = bin(Op::Sub, bin(Op::Sub, N, c(1, I64)), mul(J, c(A, I64)));
      Cond = bin(Op::Ge, Kv, c(B, I64));
    } else if (!Down) { // k = B; k < j * A + 8
      Start = c(B, I64);
      Cond = bin(Op::Lt, Kv, add(mul(J, c(A, I64)), c(8, I64)));
    } else { // k = j * A + 8; k > B
      Start = add(mul(J, c(A, I64)), c(8, I64));
      Cond = bin(Op::Gt, Kv, c(B, I64));
    }
    std::vector<Stmt> Outer = {
        assign(1, Start), loop(Cond, Inner, {InnerStep}),
        addAccess(K, Space::Global, AccessKind::Store, 4,
                  elem(0, add(mul(J, c(64, I64)), Tx), 4), "a[j * 64 + tx]")};
    // Sometimes k is read where it does not move with j: after the inner
    // loop (where it stopped) or before its start is set (last row's end).
    if (Pick(4) == 0)
      Outer.push_back(addAccess(K, Space::Global, AccessKind::Load, 4,
                                elem(0, add(Kv, Tx), 4), "a[k + tx]"));
    if (Pick(4) == 0)
      Outer.insert(Outer.begin(),
                   addAccess(K, Space::Global, AccessKind::Load, 4,
                             elem(0, add(Kv, Tx), 4), "a[k + tx]"));
    // The lanes' first rows: all alike, or a few apart.
    ExprPtr First = Pick(2) ? c(Pick(3), I64) : mul(Tx, c(Pick(2), I64));
    const int64_t Rows_ = 300 + Pick(400);
    ExprPtr OuterCond =
        Grows ? bin(Op::Lt, J, c(Rows_, I64))
              : bin(Op::Lt, mul(J, c(A, I64)), bin(Op::Sub, N, c(40, I64)));
    K.Body = {assign(0, First),
              loop(OuterCond, Outer, {assign(0, add(J, c(Step, I64)))})};
    const uint64_t Blocks = 1 + Pick(2), Threads = 20 + Pick(60),
                   Align = Pick(4) ? 0 : 4 * Pick(8);
    const int64_t Extent = Rows_ * A + 40 + Pick(100);
    Launch L = launchOf(Blocks, Threads, Extent, Align);
    countedLikeEveryIteration(K, L, Second);
  }
  EXPECT_GT(Second, 0u);
}

// After a growing triangle's inner loop, k holds where it stopped (j + 8),
// which moves with j unlike its start: a[k + tx] costs 4 or 5 sectors as k
// moves. The outer loop is then not counted to the second order, and the
// counts stay the reference's.
TEST(LoopSkip, InnerCounterReadAfterTheTriangleIsNotMoved) {
  Kernel K = arrayKernel(4, "n", {{"j", I64}, {"k", I64}});
  auto J = makeVar(0, I64), Kv = makeVar(1, I64);
  auto Tx = cast(tx(), I64);
  std::vector<Stmt> Inner = {
      addAccess(K, Space::Global, AccessKind::Load, 4,
                elem(0, add(mul(Kv, c(256, I64)), Tx), 4), "a[k * 256 + tx]")};
  std::vector<Stmt> Outer = {assign(1, c(0, I64)),
                             loop(bin(Op::Lt, Kv, add(J, c(8, I64))), Inner,
                                  {assign(1, add(Kv, c(1, I64)))}),
                             addAccess(K, Space::Global, AccessKind::Store, 4,
                                       elem(0, add(Kv, Tx), 4), "a[k + tx]")};
  K.Body = {assign(0, c(0, I64)), loop(bin(Op::Lt, J, makeParam(1, I64)), Outer,
                                       {assign(0, add(J, c(1, I64)))})};
  Launch L = launchOf(1, 32, 600);
  uint64_t Second = 0;
  std::vector<AccessStats> Counts = countedLikeEveryIteration(K, L, Second);
  // 600 stores, 4 sectors when k is a multiple of 8, else 5.
  EXPECT_EQ(Counts[1].Units, 75u * 4 + 525u * 5);
  EXPECT_EQ(Second, 0u);
}

// The outer loop of a rectangular nest is counted by periods too: 64 rows
// of 4 sectors per request over 4096 columns, 16 of them run.
TEST(LoopSkip, OuterLoopOfANestIsCounted) {
  Kernel K = arrayKernel(4, "n", {{"j", I64}, {"i", I64}});
  auto J = makeVar(0, I64), I = makeVar(1, I64);
  ExprPtr Index = add(add(mul(I, c(1 << 16, I64)), J), cast(tx(), I64));
  K.Body = {assign(0, c(0, I64)),
            loop(bin(Op::Lt, J, makeParam(1, I64)),
                 {assign(1, c(0, I64)),
                  loop(bin(Op::Lt, I, c(64, I64)),
                       {addAccess(K, Space::Global, AccessKind::Load, 4,
                                  elem(0, Index, 4), "a[i * 65536 + j]")},
                       {assign(1, add(I, c(1, I64)))})},
                 {assign(0, add(J, c(1, I64)))})};
  Launch L = launchOf(1, 32, 4096);
  uint64_t Skipped = 0;
  std::vector<AccessStats> Fast = runAll(K, L, 16, &Skipped);
  EXPECT_EQ(Fast[0].Requests, 64u * 4096);
  // Every request of 32 floats from a 4-byte step: 4 sectors when aligned
  // to 32 bytes, 5 otherwise (7 of every 8 columns).
  EXPECT_EQ(Fast[0].Units, 64u * (512 * 4 + 3584 * 5));
  // The outer loop skipped most of its 4096 iterations.
  EXPECT_GT(Skipped, 4000u);
}

// 2^40 iterations of a[threadIdx.x]: one request of 4 sectors each, counted
// at once instead of cut at 2^26 iterations as unknown.
TEST(LoopSkip, TwoToTheFortyIterationsAreCounted) {
  Kernel K = arrayKernel(4, "n", {{"i", I64}});
  auto I = makeVar(0, I64);
  K.Body = {assign(0, c(0, I64)),
            loop(bin(Op::Lt, I, makeParam(1, I64)),
                 {addAccess(K, Space::Global, AccessKind::Load, 4,
                            elem(0, tx(), 4), "a[threadIdx.x]")},
                 {assign(0, add(I, c(1, I64)))})};
  Launch L = launchOf(3, 32, int64_t(1) << 40);
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
  Kernel K = arrayKernel(4, "off", {{"i", I64}});
  auto I = makeVar(0, I64);
  K.Body = {
      assign(0, c(0, I64)),
      loop(bin(Op::Lt, I, c(200000, I64)),
           {addAccess(K, Space::Global, AccessKind::Load, 4,
                      elem(0, add(makeParam(1, I64), I), 4), "a[off + i]")},
           {assign(0, add(I, c(1, I64)))})};
  Launch L = launchOf(2, 32, (int64_t(1) << 61) - 100000);
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
  Kernel K = arrayKernel(4, "off", {{"i", I64}, {"p", U64}});
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
  Launch L = launchOf(1, 32, 100000 - (int64_t(1) << 34));
  std::vector<AccessStats> Fast = runAll(K, L, 65536);
  std::vector<AccessStats> Slow = runAll(K, L, UINT64_MAX);
  EXPECT_EQ(Slow[0].Requests, 200000u);
  // p reaches 0 at step 100 000 and leaves with the next.
  EXPECT_EQ(Slow[0].OverflowRequests, 99999u);
  EXPECT_EQ(Fast[0].OverflowRequests, Slow[0].OverflowRequests);
  EXPECT_EQ(Fast[0].Units, Slow[0].Units);
}

} // namespace
