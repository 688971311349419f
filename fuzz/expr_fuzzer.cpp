//===- expr_fuzzer.cpp - The warp evaluator against a per-lane oracle -----===//
//
// Bytes decide a small kernel: parameters of random integer types, slots
// assigned from random expression trees over threadIdx/blockIdx/blockDim/
// gridDim, parameters and earlier slots, under random guards (some with a
// return), then one access whose address is another such tree. Every warp
// of a small launch runs through WarpEvaluator; lane_oracle.h recomputes
// each lane on its own in plain C++. They must agree on which lanes reach
// the access, whether its address is known, and every lane's address.
//
//===----------------------------------------------------------------------===//
#include "fuzz_check.h"
#include "lane_oracle.h"
#include "model_check.h"
#include "simulate.h"
#include "warp_eval.h"

#include <fuzzer/FuzzedDataProvider.h>

using namespace gmem;
using namespace gmem::fuzz;

namespace {

constexpr IntType Arith[] = {{32, true}, {32, false}, {64, true}, {64, false}};
constexpr IntType AllTypes[] = {{1, false},  {8, true},   {8, false},
                                {16, true},  {16, false}, {32, true},
                                {32, false}, {64, true},  {64, false}};

class Builder {
public:
  Builder(FuzzedDataProvider &In, Kernel &K) : In(In), K(K) {}

  IntType arithType() { return Arith[In.ConsumeIntegralInRange(0, 3)]; }
  IntType anyType() { return AllTypes[In.ConsumeIntegralInRange(0, 8)]; }

  ExprPtr to(ExprPtr E, IntType T) { return E->Type == T ? E : makeCast(E, T); }

  ExprPtr leaf(IntType T) {
    switch (In.ConsumeIntegralInRange(0, 9)) {
    case 0:
    case 1:
      return makeConst(In.ConsumeIntegralInRange<int64_t>(-40, 40), T);
    case 2:
      return makeConst(In.ConsumeIntegral<int64_t>(), T);
    case 3:
    case 4: {
      int P = In.ConsumeIntegralInRange<int>(0, int(K.Params.size()) - 1);
      return to(makeParam(P, K.Params[P].Type), T);
    }
    case 5:
      if (!Assigned.empty()) {
        int S =
            Assigned[In.ConsumeIntegralInRange<size_t>(0, Assigned.size() - 1)];
        return to(makeVar(S, K.Slots[S].Type), T);
      }
      [[fallthrough]];
    case 6:
    case 7:
      return to(makeBuiltin(Builtin(In.ConsumeIntegralInRange(0, 12))), T);
    case 8:
      if (In.ConsumeIntegralInRange(0, 7) == 0)
        return makeUnknown("fuzz", T);
      [[fallthrough]];
    default:
      return to(makeBuiltin(Builtin(In.ConsumeIntegralInRange(0, 2))), T);
    }
  }

  /// An expression of type T as the analyzer builds them: arithmetic in
  /// 32- or 64-bit types, comparisons and logic giving bool.
  ExprPtr expr(IntType T, int Depth) {
    if (Depth <= 0 || In.remaining_bytes() == 0 ||
        In.ConsumeIntegralInRange(0, 3) == 0)
      return leaf(T);
    bool IsArith = T.Bits >= 32;
    switch (In.ConsumeIntegralInRange(0, IsArith ? 7 : 3)) {
    case 0: { // Comparison.
      IntType OT = arithType();
      static const Op Cmp[] = {Op::Lt, Op::Le, Op::Gt, Op::Ge, Op::Eq, Op::Ne};
      return to(makeBinary(Cmp[In.ConsumeIntegralInRange(0, 5)],
                           expr(OT, Depth - 1), expr(OT, Depth - 1),
                           {1, false}),
                T);
    }
    case 1: { // Logic.
      static const Op Logic[] = {Op::LAnd, Op::LOr, Op::LNot};
      Op K = Logic[In.ConsumeIntegralInRange(0, 2)];
      ExprPtr E = K == Op::LNot
                      ? makeUnary(K, expr(anyType(), Depth - 1), {1, false})
                      : makeBinary(K, expr(anyType(), Depth - 1),
                                   expr(anyType(), Depth - 1), {1, false});
      return to(E, T);
    }
    case 2: // Conversion.
      return makeCast(expr(anyType(), Depth - 1), T);
    case 3:
      return makeSelect(expr(anyType(), Depth - 1), expr(T, Depth - 1),
                        expr(T, Depth - 1), T);
    case 4: { // Shift: the result has the left operand's type.
      Op K = In.ConsumeBool() ? Op::Shl : Op::Shr;
      ExprPtr Amount =
          In.ConsumeBool()
              ? makeConst(In.ConsumeIntegralInRange(-1, 65), IntType{32, true})
              : expr(arithType(), Depth - 1);
      return makeBinary(K, expr(T, Depth - 1), Amount, T);
    }
    case 5:
      return makeUnary(In.ConsumeBool() ? Op::Neg : Op::BitNot,
                       expr(T, Depth - 1), T);
    default: {
      static const Op Bin[] = {Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Rem,
                               Op::And, Op::Or,  Op::Xor, Op::Min, Op::Max};
      return makeBinary(Bin[In.ConsumeIntegralInRange(0, 9)],
                        expr(T, Depth - 1), expr(T, Depth - 1), T);
    }
    }
  }

  std::vector<Stmt> stmts(int Depth) {
    std::vector<Stmt> L;
    int N = In.ConsumeIntegralInRange(1, 3);
    for (int I = 0; I < N && In.remaining_bytes(); ++I) {
      Stmt S;
      int Kind = In.ConsumeIntegralInRange(0, 5);
      if (Kind <= 2 || Depth <= 0) {
        S.Kind = StmtKind::Assign;
        S.Slot = In.ConsumeIntegralInRange<int>(0, int(K.Slots.size()) - 1);
        S.Value = expr(K.Slots[S.Slot].Type, 4);
        Assigned.push_back(S.Slot);
      } else if (Kind <= 4) {
        S.Kind = StmtKind::If;
        S.Cond = expr({1, false}, 3);
        S.Then = stmts(Depth - 1);
        if (In.ConsumeBool())
          S.Else = stmts(Depth - 1);
      } else {
        S.Kind = StmtKind::Return;
      }
      L.push_back(std::move(S));
    }
    return L;
  }

private:
  FuzzedDataProvider &In;
  Kernel &K;
  std::vector<int> Assigned; ///< Slots some statement assigns.
};

/// The oracle's run of a statement list for one lane.
struct LaneRun {
  LaneEnv Env;
  bool Returned = false, Uncertain = false;
};

bool hasReturn(const std::vector<Stmt> &L) {
  for (const Stmt &S : L)
    if (S.Kind == StmtKind::Return || hasReturn(S.Then) || hasReturn(S.Else))
      return true;
  return false;
}

void forget(const std::vector<Stmt> &L, LaneRun &R) {
  for (const Stmt &S : L) {
    if (S.Kind == StmtKind::Assign)
      R.Env.Slots[S.Slot].reset();
    forget(S.Then, R);
    forget(S.Else, R);
  }
}

void runLane(const std::vector<Stmt> &L, LaneRun &R) {
  for (const Stmt &S : L) {
    if (R.Returned)
      return;
    switch (S.Kind) {
    case StmtKind::Assign:
      R.Env.Slots[S.Slot] = evalLane(*S.Value, R.Env);
      break;
    case StmtKind::If:
      if (Result C = evalLane(*S.Cond, R.Env)) {
        runLane(*C ? S.Then : S.Else, R);
      } else {
        // Unknown guard: what either branch assigns is unknown, and if a
        // branch could return, so is whether the lane is still here.
        forget(S.Then, R);
        forget(S.Else, R);
        R.Uncertain |= hasReturn(S.Then) || hasReturn(S.Else);
      }
      break;
    case StmtKind::Return:
      R.Returned = true;
      break;
    default:
      break;
    }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  FuzzedDataProvider In(Data, Size);
  Kernel K;
  K.Name = "fuzz";
  Launch L;
  L.Kernel = K.Name;
  L.Block = {In.ConsumeIntegralInRange<uint64_t>(1, 40),
             In.ConsumeIntegralInRange<uint64_t>(1, 3),
             In.ConsumeIntegralInRange<uint64_t>(1, 2)};
  L.Grid = {In.ConsumeIntegralInRange<uint64_t>(1, 3),
            In.ConsumeIntegralInRange<uint64_t>(1, 2), 1};
  Builder B(In, K);
  for (int I = 0, N = In.ConsumeIntegralInRange(1, 3); I < N; ++I) {
    Param P;
    P.Name = "p" + std::to_string(I);
    P.Type = B.arithType();
    K.Params.push_back(P);
    ArgValue A;
    A.Kind = ArgValue::Int;
    A.IntValue = In.ConsumeBool() ? In.ConsumeIntegralInRange(-70, 70)
                                  : In.ConsumeIntegral<int64_t>();
    L.Args.push_back(A);
  }
  for (int I = 0, N = In.ConsumeIntegralInRange(1, 4); I < N; ++I)
    K.Slots.push_back({"s" + std::to_string(I), B.anyType()});
  K.Body = B.stmts(2);
  Access A;
  A.Id = 0;
  A.Size = 1; // Byte accesses: any address is aligned.
  A.Address = makeCast(B.expr(B.anyType(), 6), {64, false});
  K.Accesses.push_back(A);
  Stmt Acc;
  Acc.Kind = StmtKind::Access;
  Acc.AccessId = 0;
  K.Body.push_back(Acc);
  Expected<void> Valid = checkKernel(K);
  FUZZ_CHECK(Valid, "built an invalid model: %s", Valid.error().c_str());

  const ArchRules &Arch = *findArch("sm_90");
  LaunchEnv Env = makeLaunchEnv(K, L);
  std::vector<AccessStats> Stats(1);
  WarpEvaluator W(K, Arch, Env, Stats);
  struct Seen {
    bool Called = false;
    uint32_t Mask = 0;
    uint64_t Addr[32] = {};
  } S;
  W.Requests.observe([&](const RequestEvent &E) {
    const uint64_t *Addr = E.Addr;
    const uint32_t Mask = E.Mask;
    S.Called = true;
    S.Mask = Mask;
    std::copy(Addr, Addr + 32, S.Addr);
  });
  const uint64_t Threads = L.Block.count();
  for (uint64_t Blk = 0; Blk < L.Grid.count(); ++Blk) {
    Dim3 BI{Blk % L.Grid.X, Blk / L.Grid.X, 0};
    for (unsigned Wp = 0; Wp * 32 < Threads; ++Wp) {
      S = Seen();
      uint64_t RequestsBefore = Stats[0].Requests;
      uint64_t UnknownBefore = Stats[0].UnknownRequests;
      W.runWarp(BI, Wp);
      // The oracle, lane by lane.
      uint32_t Alive = 0;
      bool AnyUnknown = false;
      std::optional<int64_t> Want[32];
      for (unsigned Ln = 0; Ln < 32; ++Ln) {
        uint64_t T = uint64_t(Wp) * 32 + Ln;
        if (T >= Threads)
          break;
        LaneRun R;
        int64_t *Bv = R.Env.Builtins;
        Bv[0] = T % L.Block.X;
        Bv[1] = T / L.Block.X % L.Block.Y;
        Bv[2] = T / (L.Block.X * L.Block.Y);
        Bv[3] = BI.X, Bv[4] = BI.Y, Bv[5] = BI.Z;
        Bv[6] = L.Block.X, Bv[7] = L.Block.Y, Bv[8] = L.Block.Z;
        Bv[9] = L.Grid.X, Bv[10] = L.Grid.Y, Bv[11] = L.Grid.Z, Bv[12] = 32;
        for (size_t P = 0; P < K.Params.size(); ++P)
          R.Env.Params.push_back(
              normalize(L.Args[P].IntValue, K.Params[P].Type));
        R.Env.Slots.assign(K.Slots.size(), std::nullopt);
        runLane(K.Body, R);
        if (R.Returned)
          continue;
        Alive |= 1u << Ln;
        Want[Ln] = evalLane(*A.Address, R.Env);
        AnyUnknown |= R.Uncertain || !Want[Ln];
      }
      bool Executed = Stats[0].Requests > RequestsBefore;
      FUZZ_CHECK(Executed == (Alive != 0),
                 "block %llu warp %u: executed %d, "
                 "lanes alive %08x",
                 (unsigned long long)Blk, Wp, Executed, Alive);
      if (!Alive)
        continue;
      bool Unknown = Stats[0].UnknownRequests > UnknownBefore;
      FUZZ_CHECK(Unknown == AnyUnknown,
                 "block %llu warp %u: evaluator says "
                 "unknown=%d (%s), oracle %d",
                 (unsigned long long)Blk, Wp, Unknown,
                 Stats[0].UnknownReason.c_str(), AnyUnknown);
      if (Unknown)
        continue;
      FUZZ_CHECK(S.Called && S.Mask == Alive, "mask %08x, oracle %08x", S.Mask,
                 Alive);
      for (unsigned Ln = 0; Ln < 32; ++Ln)
        if (Alive >> Ln & 1)
          FUZZ_CHECK(
              S.Addr[Ln] == uint64_t(*Want[Ln]),
              "block %llu warp %u lane %u: evaluator %llu, oracle "
              "%llu; address %s",
              (unsigned long long)Blk, Wp, Ln, (unsigned long long)S.Addr[Ln],
              (unsigned long long)*Want[Ln], toString(*A.Address, &K).c_str());
    }
  }
  return 0;
}
