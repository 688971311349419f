//===- bounds_test.cpp - Ranges of unknown values, bounds of requests -----===//
//
// Expected values follow from C++ integer semantics (for ranges) and from
// DESIGN.md's rules: a global request touches the distinct 32-byte sectors
// of its lanes; a shared request takes as many wavefronts as the busiest of
// the 32 four-byte banks has distinct words.
//
//===----------------------------------------------------------------------===//
#include "arch.h"
#include "build_model.h"
#include "request_bounds.h"
#include "simulate.h"
#include "value_range.h"
#include "warp_eval.h"

#include <gtest/gtest.h>
#include <random>

using namespace gmem;
using namespace gmem::test;

namespace {

const IntType U8{8, false};

/// A value loaded from memory, of type T.
ExprPtr loaded(IntType T = I32) { return makeUnknown("loaded", T); }

/// Range of E for lane 5 of block 0, block (256), parameter 0 = 0x1000.
ValueRange range(const ExprPtr &E) {
  return valueRange(rangeOf(*E,
                            [](const Expr &X) -> ValueRange {
                              if (X.Kind == Op::Builtin)
                                return pointRange(5, X.Type);
                              if (X.Kind == Op::Param)
                                return pointRange(0x1000, X.Type);
                              return fullRange(X.Type);
                            }),
                    E->Type);
}

void expectRange(const ExprPtr &E, __int128 Lo, __int128 Hi) {
  ValueRange R = range(E);
  EXPECT_TRUE(R.Lo == Lo && R.Hi == Hi)
      << toString(*E) << ": [" << int64_t(R.Lo) << ", " << int64_t(R.Hi) << "]";
}

TEST(ValueRange, MasksModulosClampsAndNarrowTypes) {
  expectRange(bin(Op::And, loaded(), c(15)), 0, 15);
  // Signed % keeps the dividend's sign: -7 .. 7.
  expectRange(bin(Op::Rem, loaded(), c(8)), -7, 7);
  expectRange(bin(Op::Rem, loaded(U32), c(8, U32)), 0, 7);
  expectRange(cast(loaded(U8), I32), 0, 255);
  expectRange(bin(Op::Min, bin(Op::Max, loaded(), c(0)), c(3)), 0, 3);
  expectRange(bin(Op::Shr, loaded(U32), c(28, U32)), 0, 15);
  expectRange(bin(Op::Div, bin(Op::And, loaded(), c(1023)), c(32)), 0, 31);
  // Known parts stay exact: threadIdx.x (5) + [0, 3].
  expectRange(add(cast(tx(), I32), bin(Op::And, loaded(), c(3))), 5, 8);
  // No proof: the whole type.
  expectRange(loaded(), INT32_MIN, INT32_MAX);
  expectRange(mul(loaded(), c(4)), INT32_MIN, INT32_MAX);
}

TEST(ValueRange, WrapAroundIsExact) {
  // 32-bit unsigned: 0 - [0, 1] wraps to {0, 0xffffffff}: both ends, so the
  // values are the whole type, not [0, 1].
  expectRange(bin(Op::Sub, c(0, U32), bin(Op::And, loaded(U32), c(1, U32))), 0,
              0xffffffffll);
  // A signed index converted to a 64-bit address: 0x1000 + (i % 8) * 4 is
  // 0x1000 - 28 .. 0x1000 + 28, though the index is negative for some i.
  ExprPtr I = bin(Op::Rem, loaded(), c(8));
  expectRange(elem(0, I, 4), 0x1000 - 28, 0x1000 + 28);
  // Overflow before the widening cast: (int)x * 65536 may wrap in 32 bits.
  expectRange(cast(mul(bin(Op::And, loaded(), c(0xffff)), c(65536)), I64),
              INT32_MIN, INT32_MAX);
  // Without overflow the product keeps its range.
  expectRange(cast(mul(bin(Op::And, loaded(), c(0x7fff)), c(65536)), I64), 0,
              0x7fffll * 65536);
}

struct Lanes {
  uint64_t Lo[32], Hi[32];
};

/// Lane L's address: Base + 4 * [0, Elems - 1] (Elems == 1: known, + 4 L).
Lanes gather(uint64_t Base, uint64_t Elems) {
  Lanes X;
  for (unsigned L = 0; L < 32; ++L) {
    X.Lo[L] = Elems == 1 ? Base + 4 * L : Base;
    X.Hi[L] = Elems == 1 ? Base + 4 * L : Base + 4 * (Elems - 1);
  }
  return X;
}

TEST(RequestBounds, GlobalGather) {
  const ArchRules &A = *findArch("sm_90");
  // Any 4-byte element: every lane in one sector, or each in its own.
  Lanes Any = gather(0, uint64_t(1) << 40);
  UnitBounds B = globalBounds(A.TransactionBytes, Any.Lo, Any.Hi, ~0u, 4);
  EXPECT_EQ(B.Min, 1u);
  EXPECT_EQ(B.Max, 32u);
  // Fewer active lanes, fewer sectors at most.
  EXPECT_EQ(globalBounds(A.TransactionBytes, Any.Lo, Any.Hi, 0xffu, 4).Max, 8u);
  // src[idx & 15]: 16 floats from a 256-byte aligned base span 2 sectors.
  Lanes Sixteen = gather(0x1000, 16);
  B = globalBounds(A.TransactionBytes, Sixteen.Lo, Sixteen.Hi, ~0u, 4);
  EXPECT_EQ(B.Min, 1u);
  EXPECT_EQ(B.Max, 2u);
  // Known lanes (a coalesced row) are exact: 4 sectors, both bounds.
  Lanes Row = gather(0x1000, 1);
  B = globalBounds(A.TransactionBytes, Row.Lo, Row.Hi, ~0u, 4);
  EXPECT_EQ(B.Min, 4u);
  EXPECT_EQ(B.Max, 4u);
  // Half known (lanes 0-15: 2 sectors), half anywhere in 64 floats from
  // the same base (8 sectors, 2 of them the known ones).
  Lanes Mixed = gather(0x1000, 1);
  for (unsigned L = 16; L < 32; ++L) {
    Mixed.Lo[L] = 0x1000;
    Mixed.Hi[L] = 0x1000 + 4 * 63;
  }
  B = globalBounds(A.TransactionBytes, Mixed.Lo, Mixed.Hi, ~0u, 4);
  EXPECT_EQ(B.Min, 2u);
  EXPECT_EQ(B.Max, 8u);
}

TEST(RequestBounds, SharedHistogram) {
  const ArchRules &A = *findArch("sm_90");
  // hist[data & 15] on int: 16 words in 16 banks, one word per bank, so
  // every possible request is one wavefront.
  Lanes H16 = gather(0, 16);
  UnitBounds B = sharedBounds(A, H16.Lo, H16.Hi, ~0u, 4, true);
  EXPECT_EQ(B.Min, 1u);
  EXPECT_EQ(B.Max, 1u);
  // 64 words: two per bank, at most 2 wavefronts.
  Lanes H64 = gather(0, 64);
  B = sharedBounds(A, H64.Lo, H64.Hi, ~0u, 4, true);
  EXPECT_EQ(B.Min, 1u);
  EXPECT_EQ(B.Max, 2u);
  // 256 words (an unsigned char index): 8 words per bank, so at most an
  // 8-way conflict however the data falls.
  Lanes H256 = gather(0, 256);
  B = sharedBounds(A, H256.Lo, H256.Hi, ~0u, 4, true);
  EXPECT_EQ(B.Max, 8u);
  // Any word: a 32-way conflict is possible.
  Lanes Any = gather(0, uint64_t(1) << 20);
  EXPECT_EQ(sharedBounds(A, Any.Lo, Any.Hi, ~0u, 4, true).Max, 32u);
  // Known conflict-free lanes alone: exactly 1.
  Lanes Row = gather(0, 1);
  B = sharedBounds(A, Row.Lo, Row.Hi, ~0u, 4, true);
  EXPECT_EQ(B.Min, 1u);
  EXPECT_EQ(B.Max, 1u);
}

// A histogram's global atomicAdd(&h[v & 15], 1): lanes on one address
// serialise on it, so a request costs from one sector (all lanes on
// distinct words of one sector) to one per lane (all on one word), not at
// most the two sectors sixteen words span (memory_units.h's rule).
TEST(RequestBounds, GlobalAtomicGatherSerialisesPerLane) {
  for (uint32_t Lanes : {32u, 8u}) {
    Kernel K;
    K.Params = {pointerParam("h", 4)};
    ExprPtr In = bin(Op::Lt, cast(tx(), I32), c(int64_t(Lanes)));
    Stmt A = addAccess(K, Space::Global, AccessKind::Atomic, 4,
                       elem(0, bin(Op::And, loaded(), c(15)), 4), "h[v & 15]");
    K.Body.push_back(ifStmt(In, {A}));
    Launch L;
    L.Grid = {1, 1, 1};
    L.Block = {32, 1, 1};
    L.Args = {ptrArg("h")};
    LaunchResult R = simulate(K, L, SimOptions());
    EXPECT_EQ(R.PerAccess[0].UnknownRequests, 1u);
    EXPECT_EQ(R.PerAccess[0].BoundedRequests, 1u);
    EXPECT_EQ(R.PerAccess[0].MinUnits, 1u);
    EXPECT_EQ(R.PerAccess[0].MaxUnits, Lanes);
  }
}

} // namespace

namespace {

// PTX shfl.sync's source lanes (see model/model.cpp).
TEST(Shuffle, SourceLanesFollowThePtxRules) {
  using M = ShuffleMode;
  EXPECT_EQ(shuffleSource(M::Idx, 5, 3, 32), 3);
  EXPECT_EQ(shuffleSource(M::Idx, 21, 35, 16), 16 + 3); // 35 mod 16
  EXPECT_EQ(shuffleSource(M::Up, 1, 2, 32), 1);         // Below the segment.
  EXPECT_EQ(shuffleSource(M::Up, 9, 2, 8), 9);          // 7 is below lane 8.
  EXPECT_EQ(shuffleSource(M::Up, 10, 2, 8), 8);
  EXPECT_EQ(shuffleSource(M::Up, 12, 2, 8), 10);
  EXPECT_EQ(shuffleSource(M::Down, 31, 1, 32), 31);
  EXPECT_EQ(shuffleSource(M::Down, 6, 1, 8), 7);
  EXPECT_EQ(shuffleSource(M::Down, 7, 1, 8), 7);
  EXPECT_EQ(shuffleSource(M::Xor, 3, 1, 32), 2);
  EXPECT_EQ(shuffleSource(M::Xor, 3, 8, 8), 3);   // A later segment: own.
  EXPECT_EQ(shuffleSource(M::Xor, 11, 8, 8), 3);  // Earlier segment: read.
  EXPECT_EQ(shuffleSource(M::Idx, 0, 0, 12), -1); // Not a power of two.
  EXPECT_EQ(shuffleSource(M::Idx, 0, 0, 64), -1);
}

} // namespace

namespace {

/// E with every unknown leaf replaced by a value of its type.
ExprPtr substitute(const ExprPtr &E, std::mt19937_64 &R) {
  if (E->Kind == Op::Unknown) {
    static const int64_t Vs[] = {0, 1, -1, 5, 255, 256, 1 << 20, INT64_MIN};
    int64_t V = R() % 3 ? Vs[R() % 8] : int64_t(R());
    return makeConst(normalize(uint64_t(V), E->Type), E->Type);
  }
  if (E->Ops.empty())
    return E;
  auto C = std::make_shared<Expr>(*E);
  for (ExprPtr &O : C->Ops)
    O = substitute(O, R);
  return C;
}

ExprPtr randomExpr(std::mt19937_64 &R, IntType T, int Depth) {
  if (Depth == 0 || R() % 4 == 0) {
    switch (R() % 4) {
    case 0:
      return loaded(T);
    case 1:
      return cast(loaded(R() % 2 ? U8 : I32), T);
    case 2:
      return cast(tx(), T);
    default:
      return makeConst(normalize(uint64_t(int64_t(R() % 40) - 8), T), T);
    }
  }
  static const Op Ops[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Rem,
                           Op::Shl, Op::Shr, Op::And, Op::Or,  Op::Xor,
                           Op::Min, Op::Max, Op::Neg, Op::Cast};
  Op K = Ops[R() % 14];
  if (K == Op::Neg)
    return makeUnary(Op::Neg, randomExpr(R, T, Depth - 1), T);
  if (K == Op::Cast) {
    static const IntType Ts[] = {I32, U32, I64, U64, U8};
    return cast(randomExpr(R, Ts[R() % 5], Depth - 1), T);
  }
  return makeBinary(K, randomExpr(R, T, Depth - 1), randomExpr(R, T, Depth - 1),
                    T);
}

// Soundness: whatever the unknown values are, every lane's address (as the
// warp evaluator computes it once they are known) lies in the range proven
// for it.
TEST(ValueRangeProperty, EveryConcreteAddressLiesInItsRange) {
  std::mt19937_64 R(777);
  static const IntType Ts[] = {I32, U32, I64, U64};
  unsigned Checked = 0;
  for (int Round = 0; Round < 2500; ++Round) {
    ExprPtr E = randomExpr(R, Ts[R() % 4], 4);
    Kernel K;
    K.Params = {pointerParam("b", 1)};
    ExprPtr Addr = add(makeParam(0, U64), makeCast(E, U64));
    K.Body.push_back(addAccess(
        K, Space::Global, AccessKind::Load, 1,
        add(makeParam(0, U64), makeCast(substitute(E, R), U64)), "b[e]"));
    Launch L;
    L.Grid = {1, 1, 1};
    L.Block = {32, 1, 1};
    L.Args = {ptrArg("b")};
    std::vector<AccessStats> Stats(1);
    LaunchEnv Env = makeLaunchEnv(K, L);
    WarpEvaluator W(K, *findArch("sm_90"), Env, Stats);
    std::vector<uint64_t> Got;
    W.Requests.observe([&](const RequestEvent &E) {
      const uint64_t *A = E.Addr;
      Got.assign(A, A + 32);
    });
    W.runWarp({0, 0, 0}, 0);
    if (Got.empty())
      continue; // Some lane divides by zero or shifts too far: undefined.
    for (unsigned Lane = 0; Lane < 32; ++Lane) {
      ValueRange Proven =
          valueRange(rangeOf(*Addr,
                             [&](const Expr &X) -> ValueRange {
                               if (X.Kind == Op::Builtin)
                                 return pointRange(Lane, X.Type);
                               if (X.Kind == Op::Param)
                                 return pointRange(Env.ParamValues[0], X.Type);
                               return fullRange(X.Type);
                             }),
                     U64);
      EXPECT_TRUE(Got[Lane] >= Proven.Lo && Got[Lane] <= Proven.Hi)
          << toString(*E) << " lane " << Lane << ": " << Got[Lane]
          << " outside [" << uint64_t(Proven.Lo) << ", " << uint64_t(Proven.Hi)
          << "]";
      ++Checked;
    }
  }
  EXPECT_GT(Checked, 32u * 1000);
}

} // namespace
