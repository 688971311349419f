//===- warp_eval.cpp - Run one warp of a kernel over the model ------------===//
#include "warp_eval.h"
#include "int_semantics.h"
#include "memory_units.h"
#include "pointer_arith.h"
#include "stmt_walk.h"
#include "unknowns.h"

#include <algorithm>
#include <cstdint>
#include <set>

namespace gmem {

namespace {

constexpr unsigned TempsPerLevel = 3;

unsigned exprDepth(const Expr &E) {
  unsigned D = 0;
  for (const ExprPtr &O : E.Ops)
    D = std::max(D, exprDepth(*O));
  return D + 1;
}

unsigned maxDepth(const std::vector<Stmt> &L) {
  unsigned D = 0;
  for (const Stmt &S : L) {
    if (S.Value)
      D = std::max(D, exprDepth(*S.Value));
    if (S.Cond)
      D = std::max(D, exprDepth(*S.Cond));
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      D = std::max(D, maxDepth(*Sub));
  }
  return D;
}

} // namespace

WarpEvaluator::WarpEvaluator(const Kernel &K, const ArchRules &A,
                             const LaunchEnv &Env,
                             std::vector<AccessStats> &Stats)
    : Requests(A), K(K), Arch(A), Env(Env), Stats(Stats), Totals(&Stats),
      Groups(K.Accesses.size()) {
  Requests.listen(Totals);
  Requests.listen(Faults);
  Faults.reset(K.Accesses.size());
  SlotVals.assign(K.Slots.size() * 32, 0);
  SlotUnknown.assign(K.Slots.size(), 0);
  SlotReason.assign(K.Slots.size(), Why{});
  SlotUniform.assign(K.Slots.size(), false);
  SlotRange.assign(K.Slots.size() * 32, ValueRange{});
  SlotRanged.assign(K.Slots.size(), 0);
  unsigned D = maxDepth(K.Body);
  for (const Access &Acc : K.Accesses)
    if (Acc.Address)
      D = std::max(D, exprDepth(*Acc.Address));
  Scratch.assign(size_t(D + 2) * TempsPerLevel * 32, 0);
  Seen.assign(K.Accesses.size(), SeenRequests());
  const uint64_t Uniform[] = {Env.Block.X, Env.Block.Y, Env.Block.Z, Env.Grid.X,
                              Env.Grid.Y,  Env.Grid.Z,  32};
  for (int I = 0; I < 7; ++I)
    std::fill(BuiltinVals[6 + I], BuiltinVals[6 + I] + 32, Uniform[I]);
}

bool WarpEvaluator::runWarp(Dim3 B, unsigned W) {
  uint32_t Mask = laneMaskFor(Env.Block.count(), W);
  if (!Mask)
    return false;
  BlockIdx = B;
  WarpInBlock = W;
  WarpStart.resize(Stats.size());
  for (size_t I = 0; I < Stats.size(); ++I)
    WarpStart[I] = Stats[I].Requests;
  Order = (B.X + Env.Grid.X * (B.Y + Env.Grid.Y * B.Z)) *
              ((Env.Block.count() + 31) / 32) +
          W;
  for (unsigned L = 0; L < 32; ++L) {
    uint64_t T = uint64_t(W) * 32 + L;
    BuiltinVals[0][L] = T % Env.Block.X;
    BuiltinVals[1][L] = (T / Env.Block.X) % Env.Block.Y;
    BuiltinVals[2][L] = T / (Env.Block.X * Env.Block.Y);
    BuiltinVals[3][L] = B.X;
    BuiltinVals[4][L] = B.Y;
    BuiltinVals[5][L] = B.Z;
  }
  // Stale values of earlier warps would make unknown lanes' garbage, and so
  // the reasons given, depend on the order warps run in.
  std::fill(SlotVals.begin(), SlotVals.end(), 0);
  std::fill(SlotUnknown.begin(), SlotUnknown.end(), 0xffffffffu);
  for (Why &R : SlotReason)
    R = {};
  std::fill(SlotUniform.begin(), SlotUniform.end(), false);
  std::fill(SlotRanged.begin(), SlotRanged.end(), 0);
  WarpLanes = Mask;
  Dead = Returned = Broken = Continued = 0;
  Unc = UncertainLanes();
  LoopStack.clear();
  execList(K.Body, Mask);
  // Groups left incomplete (lanes that returned early) issue part by part.
  Groups.endWarp([&](Group &G) { flushGroup(G); });
  return true;
}

namespace {

/// Normalises the first N lanes to T; the switch is outside the loops so
/// that each loop is a plain (vectorisable) conversion.
inline void normalizeLanes(int64_t *V, unsigned N, IntType T) {
  switch (T.Bits) {
  case 1:
    for (unsigned L = 0; L < N; ++L)
      V[L] = V[L] != 0;
    return;
  case 8:
    for (unsigned L = 0; L < N; ++L)
      V[L] = T.Signed ? int64_t(int8_t(V[L])) : int64_t(uint8_t(V[L]));
    return;
  case 16:
    for (unsigned L = 0; L < N; ++L)
      V[L] = T.Signed ? int64_t(int16_t(V[L])) : int64_t(uint16_t(V[L]));
    return;
  case 32:
    if (T.Signed)
      for (unsigned L = 0; L < N; ++L)
        V[L] = int64_t(int32_t(V[L]));
    else
      for (unsigned L = 0; L < N; ++L)
        V[L] = int64_t(uint32_t(V[L]));
    return;
  default:
    return;
  }
}

/// Out = F(Out, R) on the first N lanes in wrapping 64-bit arithmetic, then
/// normalised to T.
template <typename F>
inline void apply(int64_t *Out, const int64_t *R, unsigned N, IntType T, F Fn) {
  for (unsigned L = 0; L < N; ++L)
    Out[L] = int64_t(Fn(uint64_t(Out[L]), uint64_t(R[L])));
  normalizeLanes(Out, N, T);
}

/// Comparisons: the result is bool and needs no normalisation.
template <typename F>
inline void compare(int64_t *Out, const int64_t *R, unsigned N, F Fn) {
  for (unsigned L = 0; L < N; ++L)
    Out[L] = Fn(Out[L], R[L]);
}

inline void broadcast(int64_t *V) { std::fill(V + 1, V + 32, V[0]); }

} // namespace

// Evaluates E into Out and returns the lanes (within Mask) whose value is
// unknown. When the value is the same for every lane (Uni), only Out[0] is
// written: loop counters, parameters and block indices then cost one
// operation instead of 32. Inactive lanes compute garbage, never undefined
// behaviour.
inline uint32_t WarpEvaluator::eval(const Expr &E, uint32_t Mask, int64_t *Out,
                                    unsigned Depth, bool &Uni) {
  const IntType T = E.Type;
  Uni = true;
  // Leaves are handled here, inline in their parent; operators below.
  switch (E.Kind) {
  case Op::Const:
    Out[0] = E.Value;
    return 0;
  case Op::Param: {
    if (E.Index < 0 || E.Index >= (int)Env.ParamValues.size() ||
        !Env.ParamUnknown[E.Index].empty()) {
      LastUnknownReason = E.Index >= 0 && E.Index < (int)Env.ParamUnknown.size()
                              ? unmodelled(Env.ParamUnknown[E.Index])
                              : unknownParameter();
      Out[0] = 0;
      return Mask;
    }
    Out[0] = normalize(Env.ParamValues[E.Index], T);
    return 0;
  }
  case Op::Var: {
    const int64_t *V = &SlotVals[size_t(E.Index) * 32];
    if (SlotUniform[E.Index]) {
      Out[0] = V[0];
    } else {
      Uni = false;
      std::copy(V, V + 32, Out);
    }
    uint32_t U = SlotUnknown[E.Index] & Mask;
    if (U)
      LastUnknownReason = SlotReason[E.Index].empty()
                              ? usedBeforeAssigned(K.Slots[E.Index].Name)
                              : SlotReason[E.Index];
    return U;
  }
  case Op::Builtin:
    if (E.Index <= static_cast<int>(Builtin::ThreadIdxZ)) {
      Uni = false;
      std::copy(BuiltinVals[E.Index], BuiltinVals[E.Index] + 32, Out);
    } else {
      Out[0] = BuiltinVals[E.Index][0];
    }
    return 0;
  case Op::Unknown:
    if (E.Ops.size() == 1 && Env.Memory)
      return evalLoaded(E, Mask, Out, Depth, Uni);
    LastUnknownReason = {E.Cause, E.Reason};
    Out[0] = 0;
    return Mask;
  default:
    return evalOperator(E, Mask, Out, Depth, Uni);
  }
}

uint32_t WarpEvaluator::evalLoaded(const Expr &E, uint32_t Mask, int64_t *Out,
                                   unsigned Depth, bool &Uni) {
  uint32_t U = eval(*E.Ops[0], Mask, Out, Depth + 1, Uni);
  const unsigned Bytes = E.Type.Bits < 8 ? 1 : E.Type.Bits / 8;
  std::string Miss;
  // A uniform address is read once, for lane 0.
  const uint32_t Lanes = Uni ? (Mask & ~U ? 1u : 0u) : Mask & ~U;
  uint32_t Missed = 0;
  for (uint32_t M = Lanes; M; M &= M - 1) {
    const unsigned L = __builtin_ctz(M);
    int64_t V = 0;
    bool Known = Env.Memory->read(uint64_t(Out[L]), Bytes, E.Type, V, Miss);
    uint64_t Sim = 0;
    if (Known && E.Index == 1 && V != 0) {
      Known = Env.Memory->translate(uint64_t(V), Sim);
      if (!Known)
        Miss = "a pointer loaded from memory points outside the recorded "
               "allocations";
      V = int64_t(Sim);
    }
    Out[L] = V;
    if (!Known)
      Missed |= 1u << L;
  }
  if (Uni && Missed)
    Missed = Mask;
  if (Missed)
    LastUnknownReason = {UnknownCause::LoadedData,
                         Miss.empty() ? E.Reason : Miss};
  return U | Missed;
}

uint32_t WarpEvaluator::evalLanes(const Expr &E, uint32_t Mask, int64_t *Out) {
  bool Uni = false;
  uint32_t U = eval(E, Mask, Out, 0, Uni);
  if (Uni)
    broadcast(Out);
  return U;
}

uint32_t WarpEvaluator::evalOperator(const Expr &E, uint32_t Mask, int64_t *Out,
                                     unsigned Depth, bool &Uni) {
  const IntType T = E.Type;
  int64_t *Tmp = &Scratch[size_t(Depth) * TempsPerLevel * 32];
  bool UniL = false;
  uint32_t U = eval(*E.Ops[0], Mask, Out, Depth + 1, UniL);
  Uni = UniL;
  unsigned N = UniL ? 1 : 32;
  const IntType OT = E.Ops[0]->Type;
  switch (E.Kind) {
  case Op::Cast:
    normalizeLanes(Out, N, T);
    return U;
  case Op::Neg:
    for (unsigned L = 0; L < N; ++L)
      Out[L] = normalize(0 - uint64_t(Out[L]), T);
    return U;
  case Op::BitNot:
    for (unsigned L = 0; L < N; ++L)
      Out[L] = normalize(~uint64_t(Out[L]), T);
    return U;
  case Op::LNot:
    for (unsigned L = 0; L < N; ++L)
      Out[L] = Out[L] == 0;
    return U;
  case Op::Shfl:
    if (UniL)
      broadcast(Out);
    Uni = false;
    return evalShuffle(E, Mask, Out, U, Tmp, Depth);
  case Op::Select: {
    int64_t *A = Tmp, *B = Tmp + 32;
    if (UniL)
      broadcast(Out);
    uint32_t C = 0;
    for (int L = 0; L < 32; ++L)
      C |= uint32_t(Out[L] != 0) << L;
    bool UniA = false, UniB = false;
    uint32_t UA = eval(*E.Ops[1], Mask & C, A, Depth + 1, UniA);
    uint32_t UB = eval(*E.Ops[2], Mask & ~C, B, Depth + 1, UniB);
    if (UniL) {
      // One branch for the whole warp.
      const int64_t *Src = C ? A : B;
      Uni = C ? UniA : UniB;
      std::copy(Src, Src + (Uni ? 1 : 32), Out);
      return U | (C ? UA : UB);
    }
    if (UniA)
      broadcast(A);
    if (UniB)
      broadcast(B);
    for (int L = 0; L < 32; ++L)
      Out[L] = (C >> L & 1) ? A[L] : B[L];
    return U | (UA & C) | (UB & ~C);
  }
  default:
    break;
  }

  int64_t *R = Tmp;
  bool UniR = false;
  // Short-circuit operators: the right side only matters where the left
  // side does not decide.
  if (E.Kind == Op::LAnd || E.Kind == Op::LOr) {
    if (UniL)
      broadcast(Out);
    uint32_t LeftTrue = 0;
    for (int L = 0; L < 32; ++L)
      LeftTrue |= uint32_t(Out[L] != 0) << L;
    uint32_t Needs = E.Kind == Op::LAnd ? LeftTrue : ~LeftTrue;
    uint32_t UR = eval(*E.Ops[1], Mask & Needs, R, Depth + 1, UniR);
    Uni = UniL && UniR;
    N = Uni ? 1 : 32;
    if (!Uni && UniR)
      broadcast(R);
    for (unsigned L = 0; L < N; ++L) {
      bool Left = Out[L] != 0, Right = R[L] != 0;
      Out[L] = E.Kind == Op::LAnd ? (Left && Right) : (Left || Right);
    }
    return U | (UR & Needs & ~U);
  }

  U |= eval(*E.Ops[1], Mask, R, Depth + 1, UniR);
  Uni = UniL && UniR;
  N = Uni ? 1 : 32;
  if (!Uni) {
    if (UniL)
      broadcast(Out);
    if (UniR)
      broadcast(R);
  }
  const bool S = OT.Signed;
  // Lanes (all of Mask when uniform) whose operation is undefined; lanes
  // already unknown keep their reason.
  auto Bad = [&](unsigned L, const char *Text,
                 UnknownCause C = UnknownCause::Unmodelled) {
    uint32_t Lanes = (Uni ? Mask : (Mask & (1u << L))) & ~U;
    if (Lanes) {
      U |= Lanes;
      LastUnknownReason = {C, Text};
    }
  };
  if (E.PointerArith && !pointerCannotLeave(E)) {
    const bool SA = readsSigned(E, 0), SB = readsSigned(E, 1);
    if (!pointerFitsAll(E, SA, SB, Out, R, N))
      for (unsigned L = 0; L < N; ++L)
        if (!pointerFits(E, SA, SB, Out[L], R[L]))
          Bad(L, PointerOverflowReason, UnknownCause::PointerOverflow);
  }
  switch (E.Kind) {
  case Op::Add:
    apply(Out, R, N, T, [](uint64_t A, uint64_t B) { return A + B; });
    break;
  case Op::Sub:
    apply(Out, R, N, T, [](uint64_t A, uint64_t B) { return A - B; });
    break;
  case Op::Mul:
    apply(Out, R, N, T, [](uint64_t A, uint64_t B) { return A * B; });
    break;
  case Op::Div:
  case Op::Rem:
  case Op::Shl:
  case Op::Shr: {
    // Division in the operands' type, shifts in the promoted left operand's
    // (int_semantics.h); both are the result's type as the analyzer writes.
    const bool Shift = E.Kind == Op::Shl || E.Kind == Op::Shr;
    const bool LeftOrDiv = E.Kind == Op::Shl || E.Kind == Op::Div;
    const bool AmountSigned = E.Ops[1]->Type.Signed;
    for (unsigned L = 0; L < N; ++L) {
      int64_t V;
      IntFault F = Shift ? intShift(LeftOrDiv, T, Out[L], R[L], AmountSigned, V)
                         : intDivide(LeftOrDiv, OT, Out[L], R[L], V);
      if (F != IntFault::None)
        Bad(L, intFaultText(F));
      Out[L] = normalize(uint64_t(V), T);
    }
    break;
  }
  case Op::And:
    apply(Out, R, N, T, [](uint64_t A, uint64_t B) { return A & B; });
    break;
  case Op::Or:
    apply(Out, R, N, T, [](uint64_t A, uint64_t B) { return A | B; });
    break;
  case Op::Xor:
    apply(Out, R, N, T, [](uint64_t A, uint64_t B) { return A ^ B; });
    break;
#define GMEM_COMPARE(OPK, OPERATOR)                                            \
  case Op::OPK:                                                                \
    if (S)                                                                     \
      compare(Out, R, N,                                                       \
              [](int64_t A, int64_t B) { return int64_t(A OPERATOR B); });     \
    else                                                                       \
      compare(Out, R, N, [](int64_t A, int64_t B) {                            \
        return int64_t(uint64_t(A) OPERATOR uint64_t(B));                      \
      });                                                                      \
    break;
    GMEM_COMPARE(Lt, <)
    GMEM_COMPARE(Le, <=)
    GMEM_COMPARE(Gt, >)
    GMEM_COMPARE(Ge, >=)
#undef GMEM_COMPARE
  case Op::Eq:
    compare(Out, R, N, [](int64_t A, int64_t B) { return int64_t(A == B); });
    break;
  case Op::Ne:
    compare(Out, R, N, [](int64_t A, int64_t B) { return int64_t(A != B); });
    break;
  case Op::Min:
  case Op::Max: {
    bool IsMin = E.Kind == Op::Min;
    for (unsigned L = 0; L < N; ++L) {
      bool Less = S ? Out[L] < R[L] : uint64_t(Out[L]) < uint64_t(R[L]);
      Out[L] = (Less == IsMin) ? Out[L] : R[L];
    }
    break;
  }
  default:
    LastUnknownReason = unsupportedOperator();
    return Mask;
  }
  return U & Mask;
}

void WarpEvaluator::execList(const std::vector<Stmt> &L, uint32_t Mask) {
  for (const Stmt &S : L) {
    Mask &= ~Dead;
    if (!Mask)
      return;
    exec(S, Mask);
  }
}

void WarpEvaluator::exec(const Stmt &S, uint32_t Mask) {
  switch (S.Kind) {
  case StmtKind::Assign: {
    int64_t V[32];
    bool Uni = false;
    uint32_t U = eval(*S.Value, Mask, V, 0, Uni);
    // Before the slot changes: the value may read the slot itself.
    uint32_t Ranged = U & Mask ? rememberRanges(S, U & Mask) : 0;
    int64_t *Dst = &SlotVals[size_t(S.Slot) * 32];
    if (Uni && Mask == WarpLanes) {
      // Every lane that can still read the slot gets the same value.
      Dst[0] = V[0];
      SlotUniform[S.Slot] = true;
    } else {
      if (SlotUniform[S.Slot])
        broadcast(Dst);
      SlotUniform[S.Slot] = false;
      if (Uni)
        broadcast(V);
      for (uint32_t M = Mask; M; M &= M - 1) {
        unsigned L = __builtin_ctz(M);
        Dst[L] = V[L];
      }
    }
    SlotUnknown[S.Slot] = (SlotUnknown[S.Slot] & ~Mask) | (U & Mask);
    SlotRanged[S.Slot] = (SlotRanged[S.Slot] & ~Mask) | Ranged;
    if (U & Mask)
      SlotReason[S.Slot] = LastUnknownReason;
    return;
  }
  case StmtKind::If: {
    int64_t C[32];
    uint32_t U = evalLanes(*S.Cond, Mask, C);
    uint32_t True = 0;
    for (int L = 0; L < 32; ++L)
      True |= uint32_t(C[L] != 0) << L;
    if (U)
      skipUnknownCode(
          *this, U,
          LastUnknownReason.under(
              "it runs under a condition that cannot be computed: "),
          S.Then, S.Else, false);
    Mask &= ~U;
    // No lane takes one side: ptxas's predicated copy of it still runs.
    if (Mask && !U && (!(Mask & True) || !(Mask & ~True)))
      for (const auto &[Id, N] : OffSides.of(K, Mask & True ? S.Else : S.Then))
        Requests.predicatedOff({Id, N});
    if (Mask & True)
      execList(S.Then, Mask & True);
    if (Mask & ~True)
      execList(S.Else, Mask & ~True);
    return;
  }
  case StmtKind::Loop:
    execLoop(S, Mask);
    return;
  case StmtKind::Access:
    execAccess(K.Accesses[S.AccessId], Mask);
    return;
  case StmtKind::Return:
    Returned |= Mask;
    Dead |= Mask;
    return;
  case StmtKind::Break:
    Broken |= Mask;
    Dead |= Mask;
    return;
  case StmtKind::Continue:
    Continued |= Mask;
    Dead |= Mask;
    return;
  case StmtKind::Call: {
    uint32_t SavedDead = Dead, SavedReturned = Returned;
    uint32_t SavedBroken = Broken, SavedContinued = Continued;
    const UncertainLanes SavedUnc = Unc.save();
    Dead = Returned = Broken = Continued = 0;
    execList(S.Body, Mask);
    Unc.endCall(SavedUnc);
    Dead = SavedDead;
    Returned = SavedReturned;
    Broken = SavedBroken;
    Continued = SavedContinued;
    return;
  }
  }
}

void WarpEvaluator::execLoop(const Stmt &S, uint32_t Mask) {
  if (S.Cond->Kind == Op::Const && S.Cond->Value != 0 &&
      !canLeaveLoop(S.Body) && !canLeaveLoop(S.Step)) {
    // while (true) without break or return: the kernel never finishes.
    poison(S.Body, endlessLoop());
    return;
  }
  uint32_t SavedDead = Dead, SavedBroken = Broken, SavedContinued = Continued;
  uint32_t ReturnedBefore = Returned;
  const UncertainLanes UncBefore = Unc.save();
  uint32_t Active = Mask;
  bool First = true;
  const uint64_t Instance = NextLoopInstance++;
  LoopStack.push_back({Instance, 0});
  SkipPlan Plan;
  uint32_t Planned = 0; // The lanes a skip was last looked for.
  uint64_t RetryAt = 0;
  // Carried values that did not repeat within a period may within a few
  // (a pointer swapped every iteration repeats every second one).
  uint64_t Periods = 1;
  for (uint64_t Iter = 0;; ++Iter) {
    if (Plan.Set && Iter + Plan.Period == Plan.ApplyAt + 1 &&
        Iter < Plan.ApplyAt && !carriedSame(S, Plan))
      Plan.EveryIteration = true; // Carried values change within the period.
    if (Plan.Set && Plan.SecondOrder && Iter == Plan.ApplyAt - Plan.Step)
      Plan.Mid = Stats; // Between the two periods run.
    if (Plan.Set && Iter == Plan.ApplyAt && !applySkip(S, Plan, Iter)) {
      Planned = 0; // The period did not repeat: look again, over more.
      Periods = std::min<uint64_t>(Periods * 2, 64);
    }
    LoopStack.back().Iter = Iter;
    if (S.TestFirst || !First) {
      Dead = 0;
      execList(S.CondPre, Active);
      int64_t C[32];
      uint32_t U = evalLanes(*S.Cond, Active, C);
      if (U) {
        skipUnknownCode(*this, U,
                        LastUnknownReason.under("it runs in a loop whose "
                                                "condition cannot be "
                                                "computed: "),
                        S.Body, S.Step, true);
        Active &= ~U;
      }
      uint32_t True = 0;
      for (int L = 0; L < 32; ++L)
        True |= uint32_t(C[L] != 0) << L;
      Active &= True;
    }
    First = false;
    if (!Active)
      break;
    if (Iter >= MaxLoopIterations) {
      poison(S.Body, unfinishedLoop(MaxLoopIterations));
      break;
    }
    if (Iter >= LoopSkipFrom && !Plan.Set &&
        (Active != Planned || Iter == RetryAt)) {
      Planned = Active;
      // A triangle's inner loops may grow long enough later: look again
      // at twice the iterations.
      if (!planSkip(S, Active, Iter, Periods, Plan))
        RetryAt = 2 * Iter;
    }
    Dead = Broken = Continued = 0;
    execList(S.Body, Active);
    Active &= ~(Broken | Returned);
    Dead = Broken = Continued = 0;
    execList(S.Step, Active);
    Active &= ~Returned;
  }
  if (Plan.Set)
    Pending.erase(std::find(Pending.begin(), Pending.end(), &Plan));
  LoopStack.pop_back();
  // Groups merged across this loop's iterations end with it.
  Groups.endLoop(Instance, [&](Group &G) { flushGroup(G); });
  Broken = SavedBroken;
  Continued = SavedContinued;
  // Lanes that returned inside the loop stay gone for the enclosing code.
  Dead = SavedDead | (Returned & ~ReturnedBefore);
  Unc.endLoop(UncBefore);
}

namespace {

/// How many iterations t >= 0 satisfy F + G t (Cmp) 0, given t = 0 does;
/// nullopt when all do.
std::optional<i128> iterationsLeft(Op Cmp, i128 F, i128 G) {
  auto CeilDiv = [](i128 A, i128 B) { return (A + B - 1) / B; }; // A, B > 0
  switch (Cmp) {
  case Op::Lt: // F + G t < 0, F < 0
    return G > 0 ? std::optional<i128>(CeilDiv(-F, G)) : std::nullopt;
  case Op::Le: // F + G t <= 0, F <= 0
    return G > 0 ? std::optional<i128>(-F / G + 1) : std::nullopt;
  case Op::Gt: // F + G t > 0, F > 0
    return G < 0 ? std::optional<i128>(CeilDiv(F, -G)) : std::nullopt;
  default: // Ge: F + G t >= 0, F >= 0
    return G < 0 ? std::optional<i128>(F / -G + 1) : std::nullopt;
  }
}

} // namespace

// At the start of iteration Iter of loop S, with lanes Active about to run
// it: if the loop only translates (loop_skip.h) and Active stays the same
// for n iterations, plans to run Period of them and count the rest.
bool WarpEvaluator::planSkip(const Stmt &S, uint32_t Active, uint64_t Iter,
                             uint64_t Periods, SkipPlan &P) {
  auto It = Shapes.find(&S);
  if (It == Shapes.end())
    It = Shapes.emplace(&S, analyzeLoop(S, K)).first;
  const LoopShape &Sh = It->second;
  if (!Sh.Skippable || (Active & Unc.All) || !Groups.empty())
    return false;
  // Values at iteration Iter + T, at position Pos of the body.
  std::vector<int> Assigned(K.Slots.size(), -1);
  for (size_t I = 0; I < Sh.Increments.size(); ++I)
    Assigned[size_t(Sh.Increments[I].Slot)] = int(I);
  std::vector<std::vector<i128>> Inc(Sh.Increments.size(),
                                     std::vector<i128>(32, 0));
  unsigned Lane = 0;
  i128 T = 0;
  size_t Pos = 0;
  bool WithIncs = false;
  std::function<std::optional<int64_t>(const Expr &)> Leaf =
      [&](const Expr &E) -> std::optional<int64_t> {
    // A counter's value at this iteration's start, moved T iterations on
    // (one more when its increment comes before Pos).
    i128 Moved = 0;
    int A = E.Kind == Op::Var ? Assigned[size_t(E.Index)] : -1;
    if (A >= 0 && WithIncs)
      Moved = Inc[size_t(A)][Lane] * (T + (Sh.Increments[size_t(A)].Pos < Pos));
    return leafValue(E, Lane, Moved);
  };
  auto At = [&](const Expr &E, i128 AtT, size_t AtPos) {
    T = AtT;
    Pos = AtPos;
    WithIncs = true;
    return exactValue(E, Leaf);
  };
  // Each lane's increments (loop-invariant).
  for (uint32_t M = Active; M; M &= M - 1) {
    Lane = __builtin_ctz(M);
    WithIncs = false;
    for (size_t I = 0; I < Sh.Increments.size(); ++I) {
      std::optional<i128> V = exactValue(*Sh.Increments[I].Inc, Leaf);
      if (!V)
        return false;
      Inc[I][Lane] = Sh.Increments[I].Negate ? -*V : *V;
    }
  }
  // Iterations left with every lane of Active: the condition is linear.
  i128 N = -1;
  for (uint32_t M = Active; M; M &= M - 1) {
    Lane = __builtin_ctz(M);
    std::optional<i128> L0 = At(*Sh.Left, 0, 0), R0 = At(*Sh.Right, 0, 0);
    std::optional<i128> L1 = At(*Sh.Left, 1, 0), R1 = At(*Sh.Right, 1, 0);
    if (!L0 || !R0 || !L1 || !R1)
      return false;
    i128 F = *L0 - *R0, G = (*L1 - *R1) - F;
    std::optional<i128> Left = iterationsLeft(Sh.Cmp, F, G);
    if (!Left)
      return false; // Runs until the iteration limit: not counted here.
    N = N < 0 ? *Left : std::min(N, *Left);
  }
  // The condition's sides must not wrap before the last iteration counted.
  for (uint32_t M = Active; M; M &= M - 1) {
    Lane = __builtin_ctz(M);
    if (!At(*Sh.Left, N - 1, 0) || !At(*Sh.Right, N - 1, 0))
      return false;
  }
  const uint64_t Period = Arch.addressPeriod();
  if (Period & (Period - 1))
    return false;
  // Second order: how far each derived slot moves per iteration (it is
  // assigned from the increments and invariants), per lane.
  WithIncs = false;
  std::vector<int> DerivedOf(K.Slots.size(), -1);
  std::vector<std::vector<i128>> DInc(Sh.Derived.size(),
                                      std::vector<i128>(32, 0));
  auto OuterIncOf = [&](int Slot) -> std::optional<i128> {
    int I = Assigned[size_t(Slot)];
    if (I >= 0)
      return Inc[size_t(I)][Lane];
    int D = DerivedOf[size_t(Slot)];
    return D < 0 ? 0 : DInc[size_t(D)][Lane];
  };
  for (size_t D = 0; D < Sh.Derived.size(); ++D) {
    for (uint32_t M = Active; M; M &= M - 1) {
      Lane = __builtin_ctz(M);
      std::optional<i128> V = slope(*Sh.Derived[D].second, OuterIncOf, Leaf);
      if (!V)
        return false;
      DInc[D][Lane] = *V;
    }
    DerivedOf[size_t(Sh.Derived[D].first)] = int(D);
  }
  // Each access moves every lane alike; its cost repeats with the address
  // modulo Period. Whether its values fit is checked where it runs
  // (checkPlans), as nested statements give it values only then.
  uint64_t Reps = 1;
  std::set<int> Seen;
  for (const auto &[Id, APos] : Sh.Accesses) {
    if (!Seen.insert(Id).second)
      continue;
    const Access &A = K.Accesses[size_t(Id)];
    std::optional<i128> Delta;
    for (uint32_t M = Active; M; M &= M - 1) {
      Lane = __builtin_ctz(M);
      std::optional<i128> D = slope(*A.Address, OuterIncOf, Leaf);
      if (!D || (Delta && *D != *Delta))
        return false;
      Delta = D;
    }
    if (!Delta)
      return false;
    // Period is a power of two: the translation repeats after Period over
    // the lowest set bit of Delta mod Period iterations.
    uint64_t D = uint64_t(*Delta % i128(Period) + i128(Period)) % Period;
    Reps = std::max<uint64_t>(Reps, D ? Period / (D & (~D + 1)) : 1);
  }
  Reps *= Periods;
  SecondOrderPlan Second;
  if (Sh.secondOrder() && !planSecondOrder(Sh, Active, N, Reps, Period,
                                           OuterIncOf, Leaf, Lane, Second))
    return false;
  if (Sh.secondOrder())
    Reps = 2 * Second.Step;
  else if (N < i128(3 * Reps))
    return false;
  const uint64_t Q =
      Sh.secondOrder() ? Second.Count : uint64_t((N - Reps) / Reps) * Reps;
  // The slots where the plan resumes must hold their values without wrap.
  for (uint32_t M = Active; M; M &= M - 1) {
    Lane = __builtin_ctz(M);
    for (size_t I = 0; I < Sh.Increments.size(); ++I) {
      int Slot = Sh.Increments[I].Slot;
      T = i128(Reps + Q);
      Pos = 0;
      WithIncs = true;
      std::optional<int64_t> V =
          Leaf(*makeVar(Slot, K.Slots[size_t(Slot)].Type));
      const IntType Ty = K.Slots[size_t(Slot)].Type;
      if (!V || normalize(uint64_t(*V), Ty) != *V)
        return false;
    }
  }
  // The executions checked where the range ends: every slot moved by Q
  // iterations (and, for a growing triangle, its inner counters by the
  // iterations it gained too).
  SkipPlan::Moves End;
  auto MovedBy = [&](int Slot, const std::vector<i128> &PerLane) {
    std::vector<i128> Moved(32);
    for (unsigned L = 0; L < 32; ++L)
      if (__builtin_mul_overflow(PerLane[L], i128(Q), &Moved[L]))
        return false;
    End.push_back({Slot, Moved});
    return true;
  };
  for (size_t I = 0; I < Sh.Increments.size(); ++I)
    if (!MovedBy(Sh.Increments[I].Slot, Inc[I]))
      return false;
  for (size_t D = 0; D < Sh.Derived.size(); ++D)
    if (!MovedBy(Sh.Derived[D].first, DInc[D]))
      return false;
  P.Set = true;
  P.Valid = true;
  P.EveryIteration = false;
  P.ApplyAt = Iter + Reps;
  P.Count = Q;
  P.Period = Reps;
  P.Mask = Active;
  P.Frame = LoopStack.size() - 1;
  P.Before = Stats;
  P.Incs.clear();
  for (size_t I = 0; I < Sh.Increments.size(); ++I)
    P.Incs.push_back({Sh.Increments[I].Slot, Inc[I]});
  P.EndMoves = {End};
  if (!Second.Extra.empty()) {
    for (auto &[Slot, Moved] : End)
      for (const auto &[XSlot, X] : Second.Extra)
        if (XSlot == Slot)
          for (unsigned L = 0; L < 32; ++L)
            Moved[L] += X[L];
    P.EndMoves.push_back(End);
  }
  P.SecondOrder = Sh.secondOrder();
  P.Step = Second.Step;
  P.Carried.clear();
  P.CarriedUnknown.clear();
  for (int Slot : Sh.Carried) {
    const int64_t *V = &SlotVals[size_t(Slot) * 32];
    std::vector<int64_t> Lanes(32);
    for (unsigned L = 0; L < 32; ++L)
      Lanes[L] = SlotUniform[size_t(Slot)] ? V[0] : V[L];
    P.Carried.push_back(std::move(Lanes));
    P.CarriedUnknown.push_back(SlotUnknown[size_t(Slot)]);
  }
  P.UnknownMark = UnknownEvents;
  Pending.push_back(&P);
  return true;
}

namespace {

bool conditionHolds(Op Cmp, i128 F) {
  return Cmp == Op::Lt   ? F < 0
         : Cmp == Op::Le ? F <= 0
         : Cmp == Op::Gt ? F > 0
                         : F >= 0;
}

/// A 128-bit value as a leaf holds it: the type's bit pattern.
std::optional<int64_t> asLeaf(std::optional<i128> X) {
  if (!X || *X < INT64_MIN || *X > i128(UINT64_MAX))
    return std::nullopt;
  return *X < 0 ? int64_t(*X) : int64_t(uint64_t(*X));
}

} // namespace

// The second order of loop_skip.h: the period Step (a multiple of Reps)
// over which every lane's inner trip count moves by the same m and every
// inner access by whole periods, and how many iterations to count.
bool WarpEvaluator::planSecondOrder(
    const LoopShape &Sh, uint32_t Active, i128 N, uint64_t Reps,
    uint64_t Period, const std::function<std::optional<i128>(int)> &OuterIncOf,
    const std::function<std::optional<int64_t>(const Expr &)> &Leaf,
    unsigned &Lane, SecondOrderPlan &Out) {
  // What the inner loop carries may follow its trip count: only unknown
  // (loaded) values, whose value nothing reads, are let through.
  for (int Slot : Sh.InnerCarried)
    if ((SlotUnknown[size_t(Slot)] & Active) != Active)
      return false;
  if (!Sh.Inner) { // No trip count moves: m = 0.
    Out.Step = Reps;
    if (N < i128(3 * Reps))
      return false;
    Out.Count = uint64_t((N - 2 * i128(Reps)) / Reps) * Reps;
    return true;
  }
  auto It = Shapes.find(Sh.Inner);
  if (It == Shapes.end())
    It = Shapes.emplace(Sh.Inner, analyzeLoop(*Sh.Inner, K)).first;
  const LoopShape &In = It->second;
  if (!In.Skippable || In.secondOrder())
    return false;
  // The inner increments per lane, the same in every outer iteration.
  std::vector<int> InnerOf(K.Slots.size(), -1);
  std::vector<std::vector<i128>> InInc(In.Increments.size(),
                                       std::vector<i128>(32, 0));
  for (size_t I = 0; I < In.Increments.size(); ++I) {
    InnerOf[size_t(In.Increments[I].Slot)] = int(I);
    for (uint32_t M = Active; M; M &= M - 1) {
      Lane = __builtin_ctz(M);
      std::optional<i128> V = exactValue(*In.Increments[I].Inc, Leaf);
      std::optional<i128> Moves =
          slope(*In.Increments[I].Inc, OuterIncOf, Leaf);
      if (!V || !Moves || *Moves != 0)
        return false;
      InInc[I][Lane] = In.Increments[I].Negate ? -*V : *V;
    }
  }
  auto InnerIncOf = [&](int Slot) -> std::optional<i128> {
    int I = InnerOf[size_t(Slot)];
    return I < 0 ? 0 : InInc[size_t(I)][Lane];
  };
  // Values E outer iterations on, at inner iteration T: the increments
  // moved, the derived slots (the inner counters) from their values there.
  i128 AtE = 0, AtT = 0;
  std::function<std::optional<int64_t>(const Expr &)> Moved =
      [&](const Expr &E) -> std::optional<int64_t> {
    if (E.Kind != Op::Var)
      return Leaf(E);
    std::optional<i128> D = OuterIncOf(E.Index);
    for (const auto &[Slot, Value] : Sh.Derived)
      if (Slot == E.Index) {
        // Its value reads only the increments and invariants (loop_skip).
        std::optional<i128> X = exactValue(*Value, Moved);
        std::optional<i128> Step = InnerIncOf(E.Index);
        i128 By;
        if (!X || !Step || __builtin_mul_overflow(*Step, AtT, &By))
          return std::nullopt;
        return asLeaf(*X + By);
      }
    i128 By;
    if (!D || __builtin_mul_overflow(*D, AtE, &By))
      return std::nullopt;
    return leafValue(E, Lane, By);
  };
  auto Side = [&](const Expr &E, i128 OuterE, i128 InnerT) {
    AtE = OuterE;
    AtT = InnerT;
    return exactValue(E, Moved);
  };
  // Per lane: the condition F + G t (Cmp) 0 at this iteration's inner
  // entry, and how F moves per outer iteration (Phi).
  i128 F0[32] = {}, G[32] = {}, Phi[32] = {};
  i128 NMin = -1;
  for (uint32_t M = Active; M; M &= M - 1) {
    Lane = __builtin_ctz(M);
    std::optional<i128> L = Side(*In.Left, 0, 0), R = Side(*In.Right, 0, 0);
    std::optional<i128> LP = slope(*In.Left, OuterIncOf, Leaf),
                        RP = slope(*In.Right, OuterIncOf, Leaf);
    std::optional<i128> LG = slope(*In.Left, InnerIncOf, Leaf),
                        RG = slope(*In.Right, InnerIncOf, Leaf);
    if (!L || !R || !LP || !RP || !LG || !RG || *LG == *RG)
      return false;
    F0[Lane] = *L - *R;
    Phi[Lane] = *LP - *RP;
    G[Lane] = *LG - *RG;
    if (!conditionHolds(In.Cmp, F0[Lane]))
      return false;
    std::optional<i128> Trips = iterationsLeft(In.Cmp, F0[Lane], G[Lane]);
    if (!Trips)
      return false;
    NMin = NMin < 0 ? *Trips : std::min(NMin, *Trips);
  }
  // Each inner access's move per inner iteration, alike on every lane.
  std::set<int> InnerAccesses;
  accessesIn(Sh.Inner->Body, InnerAccesses);
  std::vector<i128> Gamma;
  for (int Id : InnerAccesses) {
    std::optional<i128> Same;
    for (uint32_t M = Active; M; M &= M - 1) {
      Lane = __builtin_ctz(M);
      std::optional<i128> D =
          slope(*K.Accesses[size_t(Id)].Address, InnerIncOf, Leaf);
      if (!D || (Same && *D != *Same))
        return false;
      Same = D;
    }
    Gamma.push_back(*Same);
  }
  // The shortest period of outer iterations over which the trip counts
  // move by the same whole m and the inner accesses by whole periods.
  uint64_t Step = 0;
  i128 Mv = 0;
  for (uint64_t Mult = 1; Mult <= 64 && !Step; ++Mult) {
    const i128 P = i128(Reps) * Mult;
    std::optional<i128> Same;
    bool Ok = true;
    for (uint32_t M = Active; M && Ok; M &= M - 1) {
      Lane = __builtin_ctz(M);
      i128 Moves;
      Ok = !__builtin_mul_overflow(Phi[Lane], P, &Moves) &&
           Moves % G[Lane] == 0 && (!Same || Moves / G[Lane] == *Same);
      Same = Ok ? std::optional<i128>(Moves / G[Lane]) : std::nullopt;
    }
    for (i128 Gm : Gamma) {
      i128 Moves;
      Ok = Ok && Same && !__builtin_mul_overflow(Gm, *Same, &Moves) &&
           Moves % i128(Period) == 0;
    }
    if (Ok) {
      Step = uint64_t(P);
      Mv = *Same;
    }
  }
  const i128 Abs = Mv < 0 ? -Mv : Mv;
  if (!Step || NMin < Abs + 1)
    return false;
  // Periods counted: the outer loop's, and while trips shrink, only as
  // long as each keeps its first |m| iterations with every lane.
  i128 T = N / i128(Step) - 2;
  if (Mv > 0)
    T = std::min(T, (NMin - Abs - 1) / Mv - 2);
  if (T < 1)
    return false;
  // Checked exactly where the range ends: every lane's trip count, and
  // the condition's sides at both ends of that last inner loop.
  const i128 E = 2 * i128(Step) + T * i128(Step) - 1;
  for (uint32_t M = Active; M; M &= M - 1) {
    Lane = __builtin_ctz(M);
    i128 F;
    if (__builtin_mul_overflow(Phi[Lane], E, &F) ||
        __builtin_add_overflow(F, F0[Lane], &F))
      return false;
    std::optional<i128> Trips = conditionHolds(In.Cmp, F)
                                    ? iterationsLeft(In.Cmp, F, G[Lane])
                                    : std::optional<i128>(0);
    if (!Trips || *Trips < Abs + 1)
      return false;
    for (i128 At : {i128(0), *Trips - 1})
      if (!Side(*In.Left, E, At) || !Side(*In.Right, E, At))
        return false;
  }
  Out.Step = Step;
  Out.Count = uint64_t(T) * Step;
  // A growing triangle's last inner loops run past the inner iterations
  // seen: its inner counters are checked moved that far as well.
  i128 Gained;
  if (Mv < 0 && __builtin_mul_overflow(Abs, T, &Gained))
    return false;
  if (Mv < 0)
    for (size_t I = 0; I < In.Increments.size(); ++I) {
      std::vector<i128> X(32, 0);
      for (unsigned L = 0; L < 32; ++L)
        if (__builtin_mul_overflow(InInc[I][L], Gained, &X[L]))
          return false;
      Out.Extra.push_back({In.Increments[I].Slot, X});
    }
  return true;
}

std::optional<int64_t> WarpEvaluator::leafValue(const Expr &E, unsigned Lane,
                                                i128 Moved) const {
  switch (E.Kind) {
  case Op::Param:
    if (!Env.ParamUnknown[size_t(E.Index)].empty())
      return std::nullopt;
    return Env.ParamValues[size_t(E.Index)];
  case Op::Builtin:
    return BuiltinVals[E.Index][Lane];
  case Op::Var: {
    if (SlotUnknown[size_t(E.Index)] >> Lane & 1)
      return std::nullopt;
    const int64_t *V = &SlotVals[size_t(E.Index) * 32];
    int64_t Base = SlotUniform[size_t(E.Index)] ? V[0] : V[Lane];
    const bool Signed = K.Slots[size_t(E.Index)].Type.Signed;
    if (Base < 0 && !Signed)
      return std::nullopt; // Above 2^63: not followed here.
    // An unsigned slot (a pointer) moved below 0 would have wrapped: the
    // real evaluator finds such lanes, so such a range is not skipped.
    i128 X = i128(Base) + Moved;
    if (X < (Signed ? INT64_MIN : 0) || X > INT64_MAX)
      return std::nullopt;
    return int64_t(X);
  }
  default:
    return std::nullopt;
  }
}

void WarpEvaluator::checkPlans(const Access &A, uint32_t Mask) {
  for (SkipPlan *P : Pending) {
    if (!P->Valid)
      continue;
    // Values are linear in the iterations of this loop and of the loops it
    // holds, whose first and last iterations run. Each execution recurs
    // every period; where it fits here and, moved to the skipped range's
    // end, there, it fits in every iteration skipped. When the carried
    // values stay the same from one iteration to the next, every iteration
    // makes the same executions: the first and the last iteration of the
    // period bracket them all.
    const uint64_t Iter = LoopStack[P->Frame].Iter;
    const uint64_t First = P->ApplyAt - P->Period, Last = P->ApplyAt - 1;
    const bool Here = Iter == First || P->EveryIteration;
    const bool There = Iter == First || Iter == Last || P->EveryIteration;
    if (!Here && !There)
      continue;
    unsigned Lane = 0;
    const SkipPlan::Moves *Shift = nullptr; // None: where the period began.
    std::function<std::optional<int64_t>(const Expr &)> Leaf =
        [&](const Expr &E) -> std::optional<int64_t> {
      i128 Moved = 0;
      if (E.Kind == Op::Var && Shift)
        for (const auto &[Slot, By] : *Shift)
          if (Slot == E.Index)
            Moved += By[Lane];
      return leafValue(E, Lane, Moved);
    };
    for (size_t At = 0; At <= P->EndMoves.size(); ++At) {
      if (!(At == 0 ? Here : There))
        continue;
      Shift = At == 0 ? nullptr : &P->EndMoves[At - 1];
      for (uint32_t M = Mask; M && P->Valid; M &= M - 1) {
        Lane = __builtin_ctz(M);
        std::optional<i128> X = exactValue(*A.Address, Leaf);
        bool Fits = X && *X + A.Size - 1 <= i128(UINT64_MAX);
        if (Fits && A.Sp == Space::Shared && A.SharedArray >= 0 &&
            A.SharedArray < int(K.Shared.size())) {
          // Bounds must not change along the loop.
          const SharedArray &Arr = K.Shared[size_t(A.SharedArray)];
          i128 Lo = Arr.Offset,
               Hi = Arr.Offset + (Arr.Dynamic ? Env.DynamicSmem : Arr.Bytes);
          Fits = *X >= Lo && *X + A.Size <= Hi;
        }
        P->Valid = Fits;
      }
    }
  }
}

bool WarpEvaluator::carriedSame(const Stmt &S, const SkipPlan &P) {
  const LoopShape &Sh = Shapes.at(&S);
  for (size_t C = 0; C < Sh.Carried.size(); ++C) {
    const int Slot = Sh.Carried[C];
    const int64_t *V = &SlotVals[size_t(Slot) * 32];
    if (SlotUnknown[size_t(Slot)] != P.CarriedUnknown[C])
      return false;
    for (unsigned L = 0; L < 32; ++L)
      if ((SlotUniform[size_t(Slot)] ? V[0] : V[L]) != P.Carried[C][L])
        return false;
  }
  return true;
}

// At the start of iteration Plan.ApplyAt: the Period iterations since the
// plan repeat Count / Period more times, if the carried values repeat.
bool WarpEvaluator::applySkip(const Stmt &S, SkipPlan &P, uint64_t &Iter) {
  Pending.erase(std::find(Pending.begin(), Pending.end(), &P));
  P.Set = false;
  if (!P.Valid || P.UnknownMark != UnknownEvents || !Groups.empty() ||
      (P.Mask & Unc.All) || !carriedSame(S, P))
    return false;
  // The counts that add up over requests.
  static constexpr uint64_t AccessStats::*Counts[] = {
      &AccessStats::Requests,
      &AccessStats::ActiveLanes,
      &AccessStats::Units,
      &AccessStats::SassUnits,
      &AccessStats::IdealUnits,
      &AccessStats::DistinctBytes,
      &AccessStats::MisalignedLanes,
      &AccessStats::UnknownRequests,
      &AccessStats::UncountedRequests,
      &AccessStats::OutOfBoundsLanes,
      &AccessStats::OverflowRequests,
      &AccessStats::UnmergedGroups,
      &AccessStats::PredicatedOff,
      &AccessStats::BoundedRequests,
      &AccessStats::MinUnits,
      &AccessStats::MaxUnits};
  if (P.SecondOrder) {
    // Periods of Step iterations whose costs grow by C1 - C0 each: the
    // T after the two run add T C1 + (C1 - C0) T (T + 1) / 2.
    const i128 T = P.Count / P.Step;
    std::vector<std::vector<uint64_t>> Sums(Stats.size());
    for (size_t I = 0; I < Stats.size(); ++I)
      for (auto F : Counts) {
        const i128 C0 = i128(P.Mid[I].*F) - i128(P.Before[I].*F);
        const i128 C1 = i128(Stats[I].*F) - i128(P.Mid[I].*F);
        // A product past 128 bits would not fit the count anyway.
        i128 Linear, Pairs, Growth;
        if (C0 < 0 || C1 < 0 || __builtin_mul_overflow(T, C1, &Linear) ||
            __builtin_mul_overflow(T, T + 1, &Pairs) ||
            __builtin_mul_overflow(C1 - C0, Pairs / 2, &Growth))
          return false;
        const i128 Sum = i128(Stats[I].*F) + Linear + Growth;
        if (Sum < 0 || Sum > i128(UINT64_MAX))
          return false;
        Sums[I].push_back(uint64_t(Sum));
      }
    for (size_t I = 0; I < Stats.size(); ++I)
      for (size_t F = 0; F < std::size(Counts); ++F)
        Stats[I].*Counts[F] = Sums[I][F];
  } else {
    const uint64_t Times = P.Count / P.Period;
    for (size_t I = 0; I < Stats.size(); ++I)
      for (auto F : Counts)
        Stats[I].*F += (Stats[I].*F - P.Before[I].*F) * Times;
  }
  for (const auto &[Slot, Inc] : P.Incs) {
    int64_t *V = &SlotVals[size_t(Slot) * 32];
    if (SlotUniform[size_t(Slot)])
      broadcast(V);
    SlotUniform[size_t(Slot)] = false;
    for (uint32_t M = P.Mask; M; M &= M - 1) {
      unsigned L = __builtin_ctz(M);
      V[L] = normalize(uint64_t(i128(V[L]) + Inc[L] * i128(P.Count)),
                       K.Slots[size_t(Slot)].Type);
    }
  }
  Iter += P.Count;
  SkippedIterations += P.Count;
  SkippedSecondOrder += P.SecondOrder ? P.Count : 0;
  return true;
}

void WarpEvaluator::markUnknown(int AccessId, const Why &W, uint32_t Mask,
                                bool Issued) {
  ++UnknownEvents;
  Requests.unknown({AccessId, Issued, Mask, &W, 1, Order});
}

// Lanes that skip code they might have run (its condition is unknown) hold
// unknown values in every slot that code assigns.
void WarpEvaluator::forgetAssigned(const std::vector<Stmt> &L, uint32_t Lanes,
                                   const Why &W) {
  for (const Stmt &S : L) {
    if (S.Kind == StmtKind::Assign) {
      if (SlotUniform[S.Slot]) {
        broadcast(&SlotVals[size_t(S.Slot) * 32]);
        SlotUniform[S.Slot] = false;
      }
      SlotUnknown[S.Slot] |= Lanes;
      SlotRanged[S.Slot] &= ~Lanes;
      SlotReason[S.Slot] = assignedUnder(W);
    }
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      forgetAssigned(*Sub, Lanes, W);
  }
}

void WarpEvaluator::poison(const std::vector<Stmt> &L, const Why &W) {
  for (const Stmt &S : L) {
    if (S.Kind == StmtKind::Access)
      markUnknown(S.AccessId, W, 0, /*Issued=*/false);
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      poison(*Sub, W);
  }
}

void WarpEvaluator::execAccess(const Access &A, uint32_t Mask) {
  const CompiledForm &C = A.Compiled;
  if (issuesNothing(C, LoopStack))
    return;
  // An address unknown only through loaded data is computed where the
  // launch knows the memory (a recorded run).
  if (A.UnknownReason && !(A.DataDependent && Env.Memory)) {
    markUnknown(A.Id, {A.ReasonCause, *A.UnknownReason}, Mask);
    if (!(Mask & Unc.All)) {
      int64_t V[32];
      uint32_t U = evalLanes(*A.Address, Mask, V);
      boundRequest(A, Mask, V, U);
    }
    return;
  }
  if (Mask & Unc.All)
    return markUnknown(
        A.Id,
        Unc.Reason.under("some lanes may have returned or left a loop under "),
        Mask);
  int64_t V[32];
  uint32_t U = evalLanes(*A.Address, Mask, V);
  if (U) {
    markUnknown(A.Id,
                LastUnknownReason.after("its address cannot be computed: "),
                Mask);
    // A wrapped address is no address: no cost range from it (the box
    // evaluator gives none either).
    if (LastUnknownReason.Cause != UnknownCause::PointerOverflow)
      boundRequest(A, Mask, V, U);
    return;
  }
  const uint64_t *Addr = reinterpret_cast<const uint64_t *>(V);
  // Bytes that run past 2^64 (a negative or wild index) belong to no device
  // address: such a request is not priced (found by fuzz/simulator_fuzzer:
  // it cost 0 sectors).
  bool Wraps = false;
  const uint64_t Top = UINT64_MAX - (A.Size - 1);
  for (uint32_t M = Mask; M; M &= M - 1)
    Wraps |= Addr[__builtin_ctz(M)] > Top;
  if (Wraps)
    return markUnknown(A.Id, pastAddressSpace(), Mask);
  if (!Pending.empty())
    checkPlans(A, Mask);
  // Lanes on the same word serialise instead of sharing a broadcast; how
  // the hardware schedules that is not modelled.
  if (A.Sp == Space::Shared && A.Kind == AccessKind::Atomic)
    return markUnknown(A.Id, sharedAtomics(), Mask);
  if (C.State == CompiledForm::Merged && C.Width > A.Size) {
    Part P{A.Id, Mask, {}};
    std::copy(Addr, Addr + 32, P.Addr);
    Groups.add(
        A, P, LoopStack, [&](Part &Q) { issue(A, Q.Addr, Q.Mask, A.Size); },
        [&](Group &G) { completeGroup(G); }, [&](Group &G) { flushGroup(G); });
    return;
  }
  if (C.State == CompiledForm::OncePerAddress && seenBefore(A, Addr, Mask))
    return;
  if (C.State == CompiledForm::Split) {
    // One narrower request per part the compiler kept.
    for (unsigned Off : C.Parts) {
      uint64_t P[32];
      for (unsigned L = 0; L < 32; ++L)
        P[L] = Addr[L] + Off;
      issue(A, P, Mask, C.Width);
    }
    return;
  }
  issue(A, Addr, Mask, A.Size);
}

bool WarpEvaluator::seenBefore(const Access &A, const uint64_t *Addr,
                               uint32_t Mask) {
  const int Level = A.Compiled.Loop;
  if (Level < 0 || size_t(Level) >= LoopStack.size())
    return false;
  SeenRequests &S = Seen[A.Id];
  const uint64_t Instance = LoopStack[LoopStack.size() - 1 - Level].Instance;
  if (S.Instance != Instance) {
    S.Instance = Instance;
    S.Hashes.clear();
    S.Lanes.clear();
  }
  std::vector<uint64_t> Key = {Mask};
  uint64_t H = Mask * 0x9e3779b97f4a7c15ull;
  for (uint32_t M = Mask; M; M &= M - 1) {
    Key.push_back(Addr[__builtin_ctz(M)]);
    H = (H ^ Key.back()) * 0xff51afd7ed558ccdull;
  }
  for (size_t I = 0; I < S.Hashes.size(); ++I)
    if (S.Hashes[I] == H && S.Lanes[I] == Key)
      return true;
  S.Hashes.push_back(H);
  S.Lanes.push_back(std::move(Key));
  return false;
}

// A complete group is one request when, on every active lane, its parts'
// bytes are one run as wide as the instruction and aligned to it (what the
// compiler proved when it emitted the wide instruction). Otherwise the
// matching to the SASS was wrong for this launch: each part is issued on its
// own and the access says so.
void WarpEvaluator::completeGroup(Group &G) {
  const Access &Lead =
      K.Accesses[G.Leader >= 0 ? G.Leader : G.Parts[0].AccessId];
  const unsigned Size = Lead.Size, Width = Lead.Compiled.Width;
  const uint32_t Mask = G.Parts[0].Mask;
  bool One = true;
  uint64_t Low[32] = {0};
  for (const Part &P : G.Parts)
    One = One && P.Mask == Mask && K.Accesses[P.AccessId].Size == Size;
  for (uint32_t M = Mask; One && M; M &= M - 1) {
    unsigned L = __builtin_ctz(M);
    uint64_t A[16];
    unsigned N = 0;
    for (const Part &P : G.Parts)
      A[N++] = P.Addr[L];
    One = oneAlignedRun(A, N, Size, Width, Low[L]);
  }
  if (!One) {
    Requests.unmerged({Lead.Id, 1});
    flushGroup(G);
    return;
  }
  issue(Lead, Low, Mask, Width);
  G.Parts.clear();
}

void WarpEvaluator::flushGroup(Group &G) {
  for (const Part &P : G.Parts)
    issue(K.Accesses[P.AccessId], P.Addr, P.Mask, K.Accesses[P.AccessId].Size);
  G.Parts.clear();
}

void WarpEvaluator::issue(const Access &A, const uint64_t *Addr, uint32_t Mask,
                          unsigned Size) {
  RequestEvent E;
  E.A = &A;
  E.Addr = Addr;
  E.Mask = issuingLanes(A, Mask);
  E.Size = Size;
  E.Order = Order;
  E.Block = BlockIdx;
  E.Warp = WarpInBlock;
  E.Execution = Stats[size_t(A.Id)].Requests - WarpStart[size_t(A.Id)] + 1;
  if (const std::optional<SharedRange> B =
          sharedArrayRange(K, A, Env.DynamicSmem))
    for (uint32_t M = E.Mask; M; M &= M - 1) {
      unsigned L = __builtin_ctz(M);
      // Not Addr + Size <= Hi: that wraps for an address just below 2^64
      // (found by fuzz/simulator_fuzzer).
      if (!(Addr[L] >= B->Lo && Addr[L] < B->Hi && B->Hi - Addr[L] >= Size))
        E.Outside |= 1u << L;
    }
  Requests.pricedOneSide(E);
}

} // namespace gmem
