//===- warp_eval_test.cpp - C++ semantics and SIMT control flow -----------===//
//
// The oracle is the C++ compiler itself: expected addresses are computed by
// ordinary C++ code with the same types the device uses, and random
// expressions are checked against a per-lane evaluator that performs each
// operation in the real C++ type of the node.
//
//===----------------------------------------------------------------------===//
#include "build_model.h"
#include "simulate.h"
#include "warp_eval.h"

#include <gtest/gtest.h>
#include <optional>
#include <random>

using namespace gmem;
using namespace gmem::test;

namespace {

/// Runs K over L with an observer; returns the addresses seen per access as
/// (block linear id, thread id) -> address.
struct Trace {
  std::map<std::tuple<int, uint64_t, unsigned>, uint64_t> Addr;
  std::vector<AccessStats> Stats;
};

Trace run(const Kernel &K, const Launch &L) {
  Trace T;
  T.Stats.assign(K.Accesses.size(), AccessStats());
  LaunchEnv Env = makeLaunchEnv(K, L);
  WarpEvaluator W(K, *findArch("sm_90"), Env, T.Stats);
  uint64_t Block = 0;
  W.Requests.observe([&](const RequestEvent &E) {
    const int Id = E.A->Id;
    const uint64_t *A = E.Addr;
    const uint32_t Mask = E.Mask;
    for (unsigned I = 0; I < 32; ++I)
      if (Mask >> I & 1)
        T.Addr[{Id, Block, I}] = A[I];
  });
  unsigned Warps = unsigned((L.Block.count() + 31) / 32);
  for (uint64_t B = 0; B < L.Grid.count(); ++B) {
    for (unsigned Wp = 0; Wp < Warps; ++Wp) {
      Block = B * 1000 + Wp;
      W.runWarp({B % L.Grid.X, B / L.Grid.X, 0}, Wp);
    }
  }
  return T;
}

Launch launch(Dim3 Grid, Dim3 Block, std::vector<ArgValue> Args) {
  Launch L;
  L.Grid = Grid;
  L.Block = Block;
  L.Args = std::move(Args);
  return L;
}

constexpr uint64_t Base = uint64_t(1) << 36;

TEST(WarpEval, NaiveTransposeAddressesMatchCpp) {
  // naiveGmem: unsigned ix = blockIdx.y * blockDim.y + threadIdx.y; ...
  //            out[ix * ny + iy] = in[iy * nx + ix];
  Kernel K;
  K.Params = {pointerParam("out", 4), pointerParam("in", 4), intParam("nx"),
              intParam("ny")};
  K.Slots = {{"ix", U32}, {"iy", U32}};
  auto Ix = makeVar(0, U32), Iy = makeVar(1, U32);
  auto Nx = cast(makeParam(2, I32), U32), Ny = cast(makeParam(3, I32), U32);
  K.Body.push_back(assign(0, add(mul(by(), bdy()), ty())));
  K.Body.push_back(assign(1, add(mul(bx(), bdx()), tx())));
  Stmt Load = addAccess(K, Space::Global, AccessKind::Load, 4,
                        elem(1, add(mul(Iy, Nx), Ix), 4), "in[iy * nx + ix]");
  Stmt Store = addAccess(K, Space::Global, AccessKind::Store, 4,
                         elem(0, add(mul(Ix, Ny), Iy), 4), "out[ix * ny + iy]");
  K.Body.push_back(ifStmt(
      bin(Op::LAnd, bin(Op::Lt, Ix, Nx), bin(Op::Lt, Iy, Ny)), {Load, Store}));
  const int nx = 40, ny = 24; // Not multiples of the block: guards matter.
  Launch L = launch({3, 2, 1}, {16, 16, 1},
                    {ptrArg("out"), ptrArg("in"), intArg(nx), intArg(ny)});
  Trace T = run(K, L);
  uint64_t Checked = 0;
  for (unsigned By = 0; By < 2; ++By)
    for (unsigned Bx = 0; Bx < 3; ++Bx)
      for (unsigned Ty = 0; Ty < 16; ++Ty)
        for (unsigned Tx = 0; Tx < 16; ++Tx) {
          unsigned ix = By * 16 + Ty, iy = Bx * 16 + Tx;
          unsigned Tid = Ty * 16 + Tx;
          auto Key = [&](int Id) {
            return std::make_tuple(Id, uint64_t(By * 3 + Bx) * 1000 + Tid / 32,
                                   Tid % 32);
          };
          bool In = ix < unsigned(nx) && iy < unsigned(ny);
          ASSERT_EQ(T.Addr.count(Key(0)), In ? 1u : 0u);
          if (!In)
            continue;
          // "in" is the second distinct allocation.
          EXPECT_EQ(T.Addr[Key(0)], 2 * Base + 4ull * (iy * nx + ix));
          EXPECT_EQ(T.Addr[Key(1)], 1 * Base + 4ull * (ix * ny + iy));
          ++Checked;
        }
  // The 3x2 grid of 16x16 blocks covers ix < 32 and iy < 48.
  EXPECT_EQ(Checked, uint64_t(32) * ny);
}

TEST(WarpEval, GridStrideLoopRunsEachLaneItsOwnTripCount) {
  // for (int i = tid; i < n; i += 48) a[i] ... with 64 threads, n = 100:
  // lanes 0..3 of warp 0 run 3 times (i, i+48, i+96), others fewer.
  Kernel K;
  K.Params = {pointerParam("a", 4), intParam("n")};
  K.Slots = {{"i", I32}};
  auto I = makeVar(0, I32);
  K.Body.push_back(assign(0, cast(tx(), I32)));
  Stmt Acc =
      addAccess(K, Space::Global, AccessKind::Load, 4, elem(0, I, 4), "a[i]");
  K.Body.push_back(loop(bin(Op::Lt, I, makeParam(1, I32)), {Acc},
                        {assign(0, add(I, c(48)))}));
  Trace T = run(K, launch({1, 1, 1}, {64, 1, 1}, {ptrArg("a"), intArg(100)}));
  // Iterations with an active lane per warp: warp 0 (tid 0..31): i < 100 for
  // i = t, t+48, t+96 (t < 4) -> 3 requests; warp 1 (32..63): t, t+48 -> 2.
  EXPECT_EQ(T.Stats[0].Requests, 5u);
  // Lane-iterations: t < 4 run 3 times, t < 52 twice, the rest once.
  EXPECT_EQ(T.Stats[0].ActiveLanes, 4u * 3 + 48 * 2 + 12 * 1);
}

TEST(WarpEval, EarlyReturnBreakAndContinue) {
  // if (tid >= 20) return; for (i = 0; i < 10; ++i) { if (i == tid % 4)
  // continue; if (i == 6) break; a[i*32 + tid]; }
  Kernel K;
  K.Params = {pointerParam("a", 4)};
  K.Slots = {{"i", I32}, {"t", I32}};
  auto I = makeVar(0, I32), Tt = makeVar(1, I32);
  K.Body.push_back(assign(1, cast(tx(), I32)));
  K.Body.push_back(ifStmt(bin(Op::Ge, Tt, c(20)), {simple(StmtKind::Return)}));
  K.Body.push_back(assign(0, c(0)));
  Stmt Acc = addAccess(K, Space::Global, AccessKind::Load, 4,
                       elem(0, add(mul(I, c(32)), Tt), 4), "a[i*32+t]");
  K.Body.push_back(
      loop(bin(Op::Lt, I, c(10)),
           {ifStmt(bin(Op::Eq, I, bin(Op::Rem, Tt, c(4))),
                   {simple(StmtKind::Continue)}),
            ifStmt(bin(Op::Eq, I, c(6)), {simple(StmtKind::Break)}), Acc},
           {assign(0, add(I, c(1)))}));
  Trace T = run(K, launch({1, 1, 1}, {32, 1, 1}, {ptrArg("a")}));
  // Iterations 0..5 run; in each, lanes with tid % 4 == i skip. 20 lanes,
  // 5 per residue: iterations 0..3 have 15 active, 4 and 5 have 20.
  EXPECT_EQ(T.Stats[0].Requests, 6u);
  EXPECT_EQ(T.Stats[0].ActiveLanes, 4u * 15 + 2 * 20);
}

TEST(WarpEval, FullyInactiveWarpIssuesNothing) {
  Kernel K;
  K.Params = {pointerParam("a", 4)};
  Stmt Acc = addAccess(K, Space::Global, AccessKind::Load, 4, elem(0, tx(), 4),
                       "a[threadIdx.x]");
  K.Body.push_back(ifStmt(bin(Op::Lt, tx(), c(32, U32)), {Acc}));
  Trace T = run(K, launch({1, 1, 1}, {128, 1, 1}, {ptrArg("a")}));
  EXPECT_EQ(T.Stats[0].Requests, 1u); // Warps 1..3 have no active lane.
}

TEST(WarpEval, PartialLastWarp) {
  Kernel K;
  K.Params = {pointerParam("a", 4)};
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Load, 4,
                             elem(0, tx(), 4), "a[threadIdx.x]"));
  Trace T = run(K, launch({1, 1, 1}, {40, 1, 1}, {ptrArg("a")}));
  EXPECT_EQ(T.Stats[0].Requests, 2u);
  EXPECT_EQ(T.Stats[0].ActiveLanes, 40u);
  EXPECT_EQ(T.Stats[0].Units, 4u + 1u);
}

TEST(WarpEval, DataDependentAddressIsUnknownNotGuessed) {
  Kernel K;
  K.Params = {pointerParam("src", 4)};
  K.Body.push_back(
      addAccess(K, Space::Global, AccessKind::Load, 4,
                elem(0, makeUnknown("depends on data loaded by idx[i]"), 4),
                "src[idx[i]]"));
  Trace T = run(K, launch({1, 1, 1}, {32, 1, 1}, {ptrArg("src")}));
  EXPECT_EQ(T.Stats[0].Requests, 1u);
  EXPECT_EQ(T.Stats[0].UnknownRequests, 1u);
  EXPECT_EQ(T.Stats[0].Units, 0u);
  EXPECT_NE(T.Stats[0].UnknownReason.find("idx[i]"), std::string::npos);
}

// INT_MIN / -1 and INT_MIN % -1 are undefined in C++ for int as for long
// long; the model wrapped the 32-bit case (seen while writing the oracle of
// fuzz/expr_fuzzer, which checks it on every input).
TEST(WarpEval, MostNegativeDividedByMinusOneIsUnknown) {
  for (Op K : {Op::Div, Op::Rem})
    for (IntType T : {I32, I64}) {
      Kernel Kn;
      Kn.Params = {pointerParam("p", 1), intParam("m", T)};
      ExprPtr Q = makeBinary(K, makeParam(1, T), c(-1, T), T);
      Kn.Body.push_back(addAccess(Kn, Space::Global, AccessKind::Load, 1,
                                  add(makeParam(0, U64), cast(Q, U64)),
                                  "p[m / -1]"));
      int64_t Min = T.Bits == 32 ? INT32_MIN : INT64_MIN;
      Trace Tr =
          run(Kn, launch({1, 1, 1}, {32, 1, 1}, {ptrArg("p"), intArg(Min)}));
      EXPECT_EQ(Tr.Stats[0].UnknownRequests, 1u) << int(T.Bits);
      EXPECT_NE(Tr.Stats[0].UnknownReason.find("division overflows"),
                std::string::npos);
      // One more than the minimum divides fine: -(Min + 1), remainder 0.
      Tr = run(Kn,
               launch({1, 1, 1}, {32, 1, 1}, {ptrArg("p"), intArg(Min + 1)}));
      EXPECT_EQ(Tr.Stats[0].UnknownRequests, 0u);
      EXPECT_EQ((Tr.Addr[{0, 0, 0}]),
                Base + (K == Op::Div ? uint64_t(-(Min + 1)) : 0));
    }
}

// Found by fuzz/simulator_fuzzer: a 2-byte access at 2^64 - 1 cost 0
// wavefronts (its last byte wrapped to address 0). No device address runs
// past 2^64: such a request is unknown, not priced.
TEST(WarpEval, AddressRunningPast64BitsIsUnknown) {
  for (Space Sp : {Space::Global, Space::Shared}) {
    Kernel K;
    K.Params = {pointerParam("p", 2)};
    // p[tx - 2^36 - 1] as bytes: lane 0 at 2^64 - 1, lane 1 at 0, ...
    ExprPtr Addr = add(makeParam(0, U64),
                       add(cast(tx(), U64), c(-(int64_t(1) << 36) - 1, U64)));
    if (Sp == Space::Shared)
      Addr = add(cast(tx(), U64), c(-1, U64));
    K.Body.push_back(addAccess(K, Sp, AccessKind::Load, 2, Addr, "p[i]", -1));
    Trace T = run(K, launch({1, 1, 1}, {32, 1, 1}, {ptrArg("p")}));
    EXPECT_EQ(T.Stats[0].Requests, 1u);
    EXPECT_EQ(T.Stats[0].UnknownRequests, 1u);
    EXPECT_EQ(T.Stats[0].Units, 0u);
    EXPECT_NE(T.Stats[0].UnknownReason.find("past the end of the 64-bit"),
              std::string::npos);
    // Without lane 0 the same access is priced.
    K.Body[0] = ifStmt(bin(Op::Ne, tx(), c(0, U32)), {K.Body[0]});
    T = run(K, launch({1, 1, 1}, {32, 1, 1}, {ptrArg("p")}));
    EXPECT_EQ(T.Stats[0].UnknownRequests, 0u);
    EXPECT_GE(T.Stats[0].Units, 1u);
  }
}

TEST(WarpEval, UnknownGuardPoisonsWhatItGuards) {
  Kernel K;
  K.Params = {pointerParam("a", 4)};
  Stmt Acc = addAccess(K, Space::Global, AccessKind::Load, 4, elem(0, tx(), 4),
                       "a[threadIdx.x]");
  K.Body.push_back(
      ifStmt(makeUnknown("depends on data loaded by a[0]", Bool), {Acc}));
  Trace T = run(K, launch({1, 1, 1}, {32, 1, 1}, {ptrArg("a")}));
  EXPECT_EQ(T.Stats[0].UnknownRequests, 1u);
  EXPECT_NE(T.Stats[0].UnknownReason.find("a[0]"), std::string::npos);
}

TEST(WarpEval, ValuesSetUnderAnUnknownGuardAreUnknownAfterIt) {
  // int i = 0; if (a[0] > 0) i = 5; b[i];  -> b[i] cannot be known.
  Kernel K;
  K.Params = {pointerParam("b", 4)};
  K.Slots = {{"i", I32}};
  K.Body.push_back(assign(0, c(0)));
  K.Body.push_back(ifStmt(makeUnknown("depends on data loaded by a[0]", Bool),
                          {assign(0, c(5))}));
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Load, 4,
                             elem(0, makeVar(0, I32), 4), "b[i]"));
  Trace T = run(K, launch({1, 1, 1}, {32, 1, 1}, {ptrArg("b")}));
  EXPECT_EQ(T.Stats[0].UnknownRequests, 1u);
  EXPECT_NE(T.Stats[0].UnknownReason.find("a[0]"), std::string::npos)
      << T.Stats[0].UnknownReason;
}

TEST(WarpEval, ReturnUnderAnUnknownGuardMakesLaterAccessesUnknown) {
  // if (a[0] > 0) return; b[t];  -> whether b[t] runs is not known.
  Kernel K;
  K.Params = {pointerParam("b", 4)};
  K.Body.push_back(ifStmt(makeUnknown("depends on data loaded by a[0]", Bool),
                          {simple(StmtKind::Return)}));
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Load, 4,
                             elem(0, tx(), 4), "b[t]"));
  Trace T = run(K, launch({1, 1, 1}, {32, 1, 1}, {ptrArg("b")}));
  EXPECT_EQ(T.Stats[0].UnknownRequests, 1u);
  EXPECT_EQ(T.Stats[0].Units, 0u);
  EXPECT_NE(T.Stats[0].UnknownReason.find("a[0]"), std::string::npos)
      << T.Stats[0].UnknownReason;
}

/// Both warp sources over K: the every-warp evaluator and the fast path.
std::pair<LaunchResult, LaunchResult> bothSources(const Kernel &K,
                                                  const Launch &L) {
  SimOptions Every, Fast;
  Every.Exhaustive = true;
  return {simulate(K, L, Every), simulate(K, L, Fast)};
}

Stmt call(std::vector<Stmt> Body) {
  Stmt S = simple(StmtKind::Call);
  S.Body = std::move(Body);
  return S;
}

TEST(WarpEval, ReturnInsideACallEndsWithTheCall) {
  // maximum() returning from an if/else on loaded data, then b[t]: every
  // lane is back after the call, so b[t] is known (Rodinia's needle).
  Kernel K;
  K.Params = {pointerParam("b", 4)};
  K.Body.push_back(
      call({ifStmt(makeUnknown("depends on data loaded by a[0]", Bool),
                   {simple(StmtKind::Return)}, {simple(StmtKind::Return)})}));
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Load, 4,
                             elem(0, tx(), 4), "b[t]"));
  Launch L = launch({4, 1, 1}, {64, 1, 1}, {ptrArg("b")});
  auto [Every, Fast] = bothSources(K, L);
  for (const LaunchResult *R : {&Every, &Fast}) {
    EXPECT_EQ(R->PerAccess[0].UnknownRequests, 0u);
    EXPECT_EQ(R->PerAccess[0].Requests, 8u);
    EXPECT_EQ(R->PerAccess[0].Units, 32u);
  }
}

TEST(WarpEval, BreakUnderAnUnknownGuardEndsWithItsLoop) {
  // for (i = 0; i < 4; ++i) { if (a[i]) break; b[t]; }  c[t];
  // Inside the loop b[t] may or may not run; after it c[t] runs on every
  // lane.
  Kernel K;
  K.Params = {pointerParam("b", 4), pointerParam("c", 4)};
  K.Slots = {{"i", I32}};
  Stmt B = addAccess(K, Space::Global, AccessKind::Load, 4, elem(0, tx(), 4),
                     "b[t]");
  K.Body.push_back(assign(0, c(0)));
  K.Body.push_back(
      loop(bin(Op::Lt, makeVar(0, I32), c(4)),
           {ifStmt(makeUnknown("depends on data loaded by a[i]", Bool),
                   {simple(StmtKind::Break)}),
            B},
           {assign(0, add(makeVar(0, I32), c(1)))}));
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Load, 4,
                             elem(1, tx(), 4), "c[t]"));
  Launch L = launch({2, 1, 1}, {32, 1, 1}, {ptrArg("b"), ptrArg("c")});
  auto [Every, Fast] = bothSources(K, L);
  for (const LaunchResult *R : {&Every, &Fast}) {
    EXPECT_GT(R->PerAccess[0].UnknownRequests, 0u);
    EXPECT_EQ(R->PerAccess[1].UnknownRequests, 0u);
    EXPECT_EQ(R->PerAccess[1].Units, 8u);
  }
}

TEST(WarpEval, ReturnInsideALoopStaysUnknownAfterIt) {
  // The same with return: lanes may have left the kernel.
  Kernel K;
  K.Params = {pointerParam("c", 4)};
  K.Slots = {{"i", I32}};
  K.Body.push_back(assign(0, c(0)));
  K.Body.push_back(
      loop(bin(Op::Lt, makeVar(0, I32), c(4)),
           {ifStmt(makeUnknown("depends on data loaded by a[i]", Bool),
                   {simple(StmtKind::Return)})},
           {assign(0, add(makeVar(0, I32), c(1)))}));
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Load, 4,
                             elem(0, tx(), 4), "c[t]"));
  Launch L = launch({2, 1, 1}, {32, 1, 1}, {ptrArg("c")});
  auto [Every, Fast] = bothSources(K, L);
  for (const LaunchResult *R : {&Every, &Fast})
    EXPECT_EQ(R->PerAccess[0].UnknownRequests, 2u);
}

TEST(WarpEval, ReturnInAnInnerLoopOutlivesAnOuterBreak) {
  // for (i..) { if (a[i]) break; for (j..) if (a[j]) return; }  c[t];
  // A lane that skipped the break may still have returned in the inner
  // loop: after the outer loop c[t] stays unknown.
  Kernel K;
  K.Params = {pointerParam("c", 4)};
  K.Slots = {{"i", I32}, {"j", I32}};
  Stmt Inner = loop(bin(Op::Lt, makeVar(1, I32), c(2)),
                    {ifStmt(makeUnknown("depends on data loaded by a[j]", Bool),
                            {simple(StmtKind::Return)})},
                    {assign(1, add(makeVar(1, I32), c(1)))});
  K.Body.push_back(assign(0, c(0)));
  K.Body.push_back(
      loop(bin(Op::Lt, makeVar(0, I32), c(2)),
           {ifStmt(makeUnknown("depends on data loaded by a[i]", Bool),
                   {simple(StmtKind::Break)}),
            assign(1, c(0)), Inner},
           {assign(0, add(makeVar(0, I32), c(1)))}));
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Load, 4,
                             elem(0, tx(), 4), "c[t]"));
  Launch L = launch({2, 1, 1}, {32, 1, 1}, {ptrArg("c")});
  auto [Every, Fast] = bothSources(K, L);
  for (const LaunchResult *R : {&Every, &Fast})
    EXPECT_EQ(R->PerAccess[0].UnknownRequests, 2u);
}

TEST(WarpEval, MisalignedPointerArgumentShiftsSectors) {
  // global_add_offset-like: a coalesced warp starting 4 bytes past a
  // boundary (pointer argument x + 1) takes 5 sectors.
  Kernel K;
  K.Params = {pointerParam("x", 4)};
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Load, 4,
                             elem(0, tx(), 4), "x[threadIdx.x]"));
  Trace T = run(K, launch({1, 1, 1}, {32, 1, 1}, {ptrArg("x", 4)}));
  EXPECT_EQ(T.Stats[0].Units, 5u);
}

// ---- Property: random expressions, evaluated per lane by the compiler ----

template <typename T>
std::optional<int64_t> applyIn(Op K, int64_t A, int64_t B) {
  using U = std::make_unsigned_t<T>;
  T X = T(A), Y = T(B);
  auto Wrap = [](U V) { return int64_t(T(V)); };
  switch (K) {
  case Op::Add:
    return Wrap(U(X) + U(Y));
  case Op::Sub:
    return Wrap(U(X) - U(Y));
  case Op::Mul:
    // In 64 bits: two 16-bit operands would be promoted to int and overflow.
    return Wrap(U(uint64_t(U(X)) * uint64_t(U(Y))));
  case Op::Div:
  case Op::Rem:
    if (Y == 0 || (std::is_signed_v<T> && Y == T(-1)))
      return std::nullopt; // Undefined or unknowable: skip this lane.
    return int64_t(K == Op::Div ? T(X / Y) : T(X % Y));
  case Op::And:
    return int64_t(T(X & Y));
  case Op::Or:
    return int64_t(T(X | Y));
  case Op::Xor:
    return int64_t(T(X ^ Y));
  case Op::Lt:
    return int64_t(X < Y);
  case Op::Le:
    return int64_t(X <= Y);
  case Op::Gt:
    return int64_t(X > Y);
  case Op::Ge:
    return int64_t(X >= Y);
  case Op::Eq:
    return int64_t(X == Y);
  case Op::Ne:
    return int64_t(X != Y);
  case Op::Min:
    return int64_t(X < Y ? X : Y);
  case Op::Max:
    return int64_t(X < Y ? Y : X);
  case Op::Shl:
  case Op::Shr:
    if (B < 0 || B >= int64_t(sizeof(T) * 8))
      return std::nullopt;
    return K == Op::Shl ? Wrap(U(U(X) << B)) : int64_t(T(X >> B));
  default:
    return std::nullopt;
  }
}

template <typename T> int64_t castTo(int64_t V) { return int64_t(T(V)); }

int64_t castValue(int64_t V, IntType T) {
  switch (T.Bits) {
  case 1:
    return V != 0;
  case 8:
    return T.Signed ? castTo<int8_t>(V) : castTo<uint8_t>(V);
  case 16:
    return T.Signed ? castTo<int16_t>(V) : castTo<uint16_t>(V);
  case 32:
    return T.Signed ? castTo<int32_t>(V) : castTo<uint32_t>(V);
  default:
    return T.Signed ? castTo<int64_t>(V) : int64_t(uint64_t(V));
  }
}

struct LaneEnv {
  int64_t Builtins[13];
  std::vector<int64_t> Params;
};

std::optional<int64_t> oracle(const Expr &E, const LaneEnv &Env) {
  switch (E.Kind) {
  case Op::Const:
    return E.Value;
  case Op::Param:
    return castValue(Env.Params[E.Index], E.Type);
  case Op::Builtin:
    return Env.Builtins[E.Index];
  case Op::Cast: {
    auto V = oracle(*E.Ops[0], Env);
    return V ? std::optional<int64_t>(castValue(*V, E.Type)) : std::nullopt;
  }
  case Op::Select: {
    auto C = oracle(*E.Ops[0], Env);
    if (!C)
      return std::nullopt;
    return oracle(*E.Ops[*C ? 1 : 2], Env);
  }
  default:
    break;
  }
  auto A = oracle(*E.Ops[0], Env), B = oracle(*E.Ops[1], Env);
  if (!A || !B)
    return std::nullopt;
  IntType T = E.Ops[0]->Type;
  switch (T.Bits) {
  case 8:
    return T.Signed ? applyIn<int8_t>(E.Kind, *A, *B)
                    : applyIn<uint8_t>(E.Kind, *A, *B);
  case 16:
    return T.Signed ? applyIn<int16_t>(E.Kind, *A, *B)
                    : applyIn<uint16_t>(E.Kind, *A, *B);
  case 32:
    return T.Signed ? applyIn<int32_t>(E.Kind, *A, *B)
                    : applyIn<uint32_t>(E.Kind, *A, *B);
  default:
    return T.Signed ? applyIn<int64_t>(E.Kind, *A, *B)
                    : applyIn<uint64_t>(E.Kind, *A, *B);
  }
}

struct Gen {
  std::mt19937_64 R;
  const IntType Types[6] = {I32, U32, I64, U64, {16, true}, {8, false}};
  IntType type() { return Types[R() % 6]; }
  ExprPtr leaf(IntType T) {
    ExprPtr E;
    switch (R() % 4) {
    case 0:
      E = makeBuiltin(Builtin(R() % 6));
      break;
    case 1:
      E = makeParam(int(R() % 2), I32);
      break;
    case 2:
      E = makeConst(castValue(int64_t(R() % 70) - 5, T), T);
      return E;
    default:
      E = makeConst(castValue(int64_t(R()), T), T);
      return E;
    }
    return E->Type == T ? E : makeCast(E, T);
  }
  ExprPtr expr(IntType T, int Depth) {
    if (Depth == 0 || R() % 5 == 0)
      return leaf(T);
    static const Op Ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Rem,
                             Op::And, Op::Or,  Op::Xor, Op::Shl, Op::Shr,
                             Op::Min, Op::Max, Op::Lt,  Op::Ne,  Op::Select};
    Op K = Ops[R() % (sizeof Ops / sizeof Ops[0])];
    if (T.Bits == 1) // C++ does no arithmetic in bool: only comparisons.
      K = R() % 2 ? Op::Lt : Op::Ne;
    if (K == Op::Select)
      return makeSelect(expr(Bool, Depth - 1), expr(T, Depth - 1),
                        expr(T, Depth - 1), T);
    if (K == Op::Lt || K == Op::Ne) {
      IntType OT = type();
      ExprPtr Cmp =
          makeBinary(K, expr(OT, Depth - 1), expr(OT, Depth - 1), Bool);
      return T.Bits == 1 ? Cmp : makeCast(Cmp, T);
    }
    if (K == Op::Shl || K == Op::Shr)
      return makeBinary(K, expr(T, Depth - 1),
                        makeConst(int64_t(R() % (T.Bits + 2)), I32), T);
    return makeBinary(K, expr(T, Depth - 1), expr(T, Depth - 1), T);
  }
};

TEST(WarpEvalProperty, EveryLaneAddressEqualsDirectEvaluation) {
  Gen G{std::mt19937_64(12345)};
  const Dim3 Grid{3, 2, 1}, Block{8, 6, 2}; // Partial warps, 3-D threads.
  uint64_t Compared = 0;
  for (int Round = 0; Round < 300; ++Round) {
    Kernel K;
    K.Params = {intParam("p"), intParam("q")};
    K.Params.push_back(pointerParam("base", 1));
    ExprPtr E = G.expr(G.type(), 5);
    K.Body.push_back(addAccess(K, Space::Global, AccessKind::Load, 1,
                               add(makeParam(2, U64), makeCast(E, U64)),
                               toString(*E, &K)));
    int64_t P = int64_t(G.R() % 2000) - 1000, Q = int64_t(G.R() % 100);
    Launch L = launch(Grid, Block, {intArg(P), intArg(Q), ptrArg("base")});
    Trace T = run(K, L);
    for (uint64_t B = 0; B < Grid.count(); ++B)
      for (unsigned W = 0; W * 32 < Block.count(); ++W) {
        // A lane whose value C++ leaves undefined makes the whole request
        // unknown: then no address may be reported for that warp.
        std::vector<std::optional<int64_t>> Want;
        bool AllDefined = true;
        for (unsigned Tid = W * 32;
             Tid < std::min<uint64_t>(Block.count(), W * 32 + 32); ++Tid) {
          LaneEnv Env;
          Env.Params = {P, Q, 0};
          int64_t V[13] = {Tid % 8,
                           (Tid / 8) % 6,
                           Tid / 48,
                           int64_t(B % 3),
                           int64_t(B / 3),
                           0,
                           8,
                           6,
                           2,
                           3,
                           2,
                           1,
                           32};
          std::copy(V, V + 13, Env.Builtins);
          Want.push_back(oracle(*E, Env));
          AllDefined &= Want.back().has_value();
        }
        for (unsigned I = 0; I < Want.size(); ++I) {
          auto Key = std::make_tuple(0, B * 1000 + W, I);
          if (!AllDefined) {
            ASSERT_EQ(T.Addr.count(Key), 0u) << toString(*E);
            continue;
          }
          ASSERT_EQ(T.Addr.count(Key), 1u)
              << toString(*E) << ": " << T.Stats[0].UnknownReason;
          ASSERT_EQ(T.Addr[Key], Base + uint64_t(castValue(*Want[I], U64)))
              << toString(*E) << " block " << B << " lane " << I;
          ++Compared;
        }
      }
  }
  EXPECT_GT(Compared, 300u * 96 * 6 / 2); // Most lanes are defined.
}

} // namespace
