//===- warp_eval.cpp - Run one warp of a kernel over the model ------------===//
#include "warp_eval.h"
#include "memory_units.h"

#include <algorithm>

namespace gmem {

namespace {

/// Loops that run longer than this for one warp are reported, not finished.
constexpr uint64_t MaxLoopIterations = uint64_t(1) << 26;
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

uint32_t laneMaskFor(uint64_t Threads, unsigned Warp) {
  uint64_t First = uint64_t(Warp) * 32;
  if (First >= Threads)
    return 0;
  uint64_t N = std::min<uint64_t>(32, Threads - First);
  return N == 32 ? 0xffffffffu : (1u << N) - 1;
}

} // namespace

WarpEvaluator::WarpEvaluator(const Kernel &K, const ArchRules &A,
                             const LaunchEnv &Env,
                             std::vector<AccessStats> &Stats)
    : K(K), Arch(A), Env(Env), Stats(Stats) {
  SlotVals.assign(K.Slots.size() * 32, 0);
  SlotUnknown.assign(K.Slots.size(), 0);
  SlotReason.assign(K.Slots.size(), "");
  unsigned D = maxDepth(K.Body);
  for (const Access &Acc : K.Accesses)
    if (Acc.Address)
      D = std::max(D, exprDepth(*Acc.Address));
  Scratch.assign(size_t(D + 2) * TempsPerLevel * 32, 0);
  FirstOutOfBounds.assign(K.Accesses.size(), OutOfBounds{{}, ~0u, 0, 0});
  const uint64_t Uniform[] = {Env.Block.X, Env.Block.Y, Env.Block.Z,
                              Env.Grid.X,  Env.Grid.Y,  Env.Grid.Z, 32};
  for (int I = 0; I < 7; ++I)
    std::fill(BuiltinVals[6 + I], BuiltinVals[6 + I] + 32, Uniform[I]);
}

bool WarpEvaluator::runWarp(Dim3 B, unsigned W) {
  uint32_t Mask = laneMaskFor(Env.Block.count(), W);
  if (!Mask)
    return false;
  BlockIdx = B;
  WarpInBlock = W;
  for (unsigned L = 0; L < 32; ++L) {
    uint64_t T = uint64_t(W) * 32 + L;
    BuiltinVals[0][L] = T % Env.Block.X;
    BuiltinVals[1][L] = (T / Env.Block.X) % Env.Block.Y;
    BuiltinVals[2][L] = T / (Env.Block.X * Env.Block.Y);
    BuiltinVals[3][L] = B.X;
    BuiltinVals[4][L] = B.Y;
    BuiltinVals[5][L] = B.Z;
  }
  std::fill(SlotUnknown.begin(), SlotUnknown.end(), 0xffffffffu);
  Dead = Returned = Broken = Continued = 0;
  execList(K.Body, Mask);
  return true;
}

// Evaluates E for all lanes into Out; returns the lanes (within Mask) whose
// value is unknown. Inactive lanes compute garbage, never undefined behaviour.
uint32_t WarpEvaluator::eval(const Expr &E, uint32_t Mask, int64_t *Out,
                             unsigned Depth) {
  const IntType T = E.Type;
  switch (E.Kind) {
  case Op::Const:
    std::fill(Out, Out + 32, E.Value);
    return 0;
  case Op::Param: {
    if (E.Index < 0 || E.Index >= (int)Env.ParamValues.size() ||
        !Env.ParamUnknown[E.Index].empty()) {
      LastUnknownReason =
          E.Index >= 0 && E.Index < (int)Env.ParamUnknown.size()
              ? Env.ParamUnknown[E.Index]
              : "unknown parameter";
      return Mask;
    }
    std::fill(Out, Out + 32, normalize(Env.ParamValues[E.Index], T));
    return 0;
  }
  case Op::Var: {
    const int64_t *V = &SlotVals[size_t(E.Index) * 32];
    std::copy(V, V + 32, Out);
    uint32_t U = SlotUnknown[E.Index] & Mask;
    if (U)
      LastUnknownReason = SlotReason[E.Index].empty()
                              ? "'" + K.Slots[E.Index].Name +
                                    "' is used before it is assigned"
                              : SlotReason[E.Index];
    return U;
  }
  case Op::Builtin:
    std::copy(BuiltinVals[E.Index], BuiltinVals[E.Index] + 32, Out);
    return 0;
  case Op::Unknown:
    LastUnknownReason = E.Reason;
    return Mask;
  default:
    break;
  }

  int64_t *Tmp = &Scratch[size_t(Depth) * TempsPerLevel * 32];
  uint32_t U = eval(*E.Ops[0], Mask, Out, Depth + 1);
  const IntType OT = E.Ops[0]->Type;
  switch (E.Kind) {
  case Op::Cast:
    for (int L = 0; L < 32; ++L)
      Out[L] = normalize(uint64_t(Out[L]), T);
    return U;
  case Op::Neg:
    for (int L = 0; L < 32; ++L)
      Out[L] = normalize(0 - uint64_t(Out[L]), T);
    return U;
  case Op::BitNot:
    for (int L = 0; L < 32; ++L)
      Out[L] = normalize(~uint64_t(Out[L]), T);
    return U;
  case Op::LNot:
    for (int L = 0; L < 32; ++L)
      Out[L] = Out[L] == 0;
    return U;
  case Op::Select: {
    int64_t *A = Tmp, *B = Tmp + 32;
    uint32_t C = 0;
    for (int L = 0; L < 32; ++L)
      C |= uint32_t(Out[L] != 0) << L;
    uint32_t UA = eval(*E.Ops[1], Mask & C, A, Depth + 1);
    uint32_t UB = eval(*E.Ops[2], Mask & ~C, B, Depth + 1);
    for (int L = 0; L < 32; ++L)
      Out[L] = (C >> L & 1) ? A[L] : B[L];
    return U | (UA & C) | (UB & ~C);
  }
  default:
    break;
  }

  int64_t *R = Tmp;
  // Short-circuit operators: the right side only matters where the left
  // side does not decide.
  if (E.Kind == Op::LAnd || E.Kind == Op::LOr) {
    uint32_t LeftTrue = 0;
    for (int L = 0; L < 32; ++L)
      LeftTrue |= uint32_t(Out[L] != 0) << L;
    uint32_t Needs = E.Kind == Op::LAnd ? LeftTrue : ~LeftTrue;
    uint32_t UR = eval(*E.Ops[1], Mask & Needs, R, Depth + 1);
    for (int L = 0; L < 32; ++L) {
      bool Left = Out[L] != 0, Right = R[L] != 0;
      Out[L] = E.Kind == Op::LAnd ? (Left && Right) : (Left || Right);
    }
    return U | (UR & Needs & ~U);
  }

  U |= eval(*E.Ops[1], Mask, R, Depth + 1);
  const bool S = OT.Signed;
  switch (E.Kind) {
  case Op::Add:
    for (int L = 0; L < 32; ++L)
      Out[L] = normalize(uint64_t(Out[L]) + uint64_t(R[L]), T);
    break;
  case Op::Sub:
    for (int L = 0; L < 32; ++L)
      Out[L] = normalize(uint64_t(Out[L]) - uint64_t(R[L]), T);
    break;
  case Op::Mul:
    for (int L = 0; L < 32; ++L)
      Out[L] = normalize(uint64_t(Out[L]) * uint64_t(R[L]), T);
    break;
  case Op::Div:
  case Op::Rem: {
    bool IsDiv = E.Kind == Op::Div;
    for (int L = 0; L < 32; ++L) {
      if (R[L] == 0 || (S && R[L] == -1 && Out[L] == INT64_MIN)) {
        if (Mask >> L & 1) {
          U |= 1u << L;
          LastUnknownReason = "division by zero";
        }
        Out[L] = 0;
        continue;
      }
      if (S)
        Out[L] = normalize(uint64_t(IsDiv ? Out[L] / R[L] : Out[L] % R[L]), T);
      else
        Out[L] = normalize(IsDiv ? uint64_t(Out[L]) / uint64_t(R[L])
                                 : uint64_t(Out[L]) % uint64_t(R[L]),
                           T);
    }
    break;
  }
  case Op::Shl:
  case Op::Shr: {
    for (int L = 0; L < 32; ++L) {
      uint64_t Amount = uint64_t(R[L]);
      if (Amount >= T.Bits || (E.Ops[1]->Type.Signed && R[L] < 0)) {
        if (Mask >> L & 1) {
          U |= 1u << L;
          LastUnknownReason = "shift by an amount out of range";
        }
        Out[L] = 0;
        continue;
      }
      if (E.Kind == Op::Shl)
        Out[L] = normalize(uint64_t(Out[L]) << Amount, T);
      else
        Out[L] = T.Signed ? normalize(uint64_t(Out[L] >> Amount), T)
                          : normalize(uint64_t(Out[L]) >> Amount, T);
    }
    break;
  }
  case Op::And:
    for (int L = 0; L < 32; ++L)
      Out[L] = normalize(uint64_t(Out[L]) & uint64_t(R[L]), T);
    break;
  case Op::Or:
    for (int L = 0; L < 32; ++L)
      Out[L] = normalize(uint64_t(Out[L]) | uint64_t(R[L]), T);
    break;
  case Op::Xor:
    for (int L = 0; L < 32; ++L)
      Out[L] = normalize(uint64_t(Out[L]) ^ uint64_t(R[L]), T);
    break;
#define GMEM_COMPARE(OPK, OPERATOR)                                            \
  case Op::OPK:                                                                \
    if (S)                                                                     \
      for (int L = 0; L < 32; ++L)                                             \
        Out[L] = Out[L] OPERATOR R[L];                                         \
    else                                                                       \
      for (int L = 0; L < 32; ++L)                                             \
        Out[L] = uint64_t(Out[L]) OPERATOR uint64_t(R[L]);                     \
    break;
    GMEM_COMPARE(Lt, <)
    GMEM_COMPARE(Le, <=)
    GMEM_COMPARE(Gt, >)
    GMEM_COMPARE(Ge, >=)
#undef GMEM_COMPARE
  case Op::Eq:
    for (int L = 0; L < 32; ++L)
      Out[L] = Out[L] == R[L];
    break;
  case Op::Ne:
    for (int L = 0; L < 32; ++L)
      Out[L] = Out[L] != R[L];
    break;
  case Op::Min:
  case Op::Max: {
    bool IsMin = E.Kind == Op::Min;
    for (int L = 0; L < 32; ++L) {
      bool Less = S ? Out[L] < R[L] : uint64_t(Out[L]) < uint64_t(R[L]);
      Out[L] = (Less == IsMin) ? Out[L] : R[L];
    }
    break;
  }
  default:
    LastUnknownReason = "unsupported operator in the kernel model";
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
    uint32_t U = eval(*S.Value, Mask, V, 0);
    int64_t *Dst = &SlotVals[size_t(S.Slot) * 32];
    if (Mask == 0xffffffffu) {
      std::copy(V, V + 32, Dst);
    } else {
      for (uint32_t M = Mask; M; M &= M - 1) {
        unsigned L = __builtin_ctz(M);
        Dst[L] = V[L];
      }
    }
    SlotUnknown[S.Slot] = (SlotUnknown[S.Slot] & ~Mask) | (U & Mask);
    if (U & Mask)
      SlotReason[S.Slot] = LastUnknownReason;
    return;
  }
  case StmtKind::If: {
    int64_t C[32];
    uint32_t U = eval(*S.Cond, Mask, C, 0);
    uint32_t True = 0;
    for (int L = 0; L < 32; ++L)
      True |= uint32_t(C[L] != 0) << L;
    if (U) {
      std::string Why = "it runs under a condition that cannot be computed: " +
                        LastUnknownReason;
      poison(S.Then, Why);
      poison(S.Else, Why);
    }
    Mask &= ~U;
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
    Dead = Returned = Broken = Continued = 0;
    execList(S.Body, Mask);
    Dead = SavedDead;
    Returned = SavedReturned;
    Broken = SavedBroken;
    Continued = SavedContinued;
    return;
  }
  }
}

void WarpEvaluator::execLoop(const Stmt &S, uint32_t Mask) {
  uint32_t SavedDead = Dead, SavedBroken = Broken, SavedContinued = Continued;
  uint32_t ReturnedBefore = Returned;
  uint32_t Active = Mask;
  bool First = true;
  for (uint64_t Iter = 0;; ++Iter) {
    if (S.TestFirst || !First) {
      Dead = 0;
      execList(S.CondPre, Active);
      int64_t C[32];
      uint32_t U = eval(*S.Cond, Active, C, 0);
      if (U) {
        poison(S.Body, "it runs in a loop whose condition cannot be "
                       "computed: " + LastUnknownReason);
        poison(S.Step, "loop condition cannot be computed");
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
      poison(S.Body, "its loop did not finish after " +
                         std::to_string(MaxLoopIterations) +
                         " iterations for one warp");
      break;
    }
    Dead = Broken = Continued = 0;
    execList(S.Body, Active);
    Active &= ~(Broken | Returned);
    Dead = Broken = Continued = 0;
    execList(S.Step, Active);
    Active &= ~Returned;
  }
  Broken = SavedBroken;
  Continued = SavedContinued;
  // Lanes that returned inside the loop stay gone for the enclosing code.
  Dead = SavedDead | (Returned & ~ReturnedBefore);
}

void WarpEvaluator::markUnknown(int AccessId, const std::string &Why) {
  AccessStats &St = Stats[AccessId];
  St.UnknownRequests += 1;
  if (St.UnknownReason.empty())
    St.UnknownReason = Why;
}

void WarpEvaluator::poison(const std::vector<Stmt> &L, const std::string &Why) {
  for (const Stmt &S : L) {
    if (S.Kind == StmtKind::Access)
      markUnknown(S.AccessId, Why);
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      poison(*Sub, Why);
  }
}

void WarpEvaluator::execAccess(const Access &A, uint32_t Mask) {
  AccessStats &St = Stats[A.Id];
  if (A.UnknownReason) {
    St.Requests += 1;
    St.ActiveLanes += __builtin_popcount(Mask);
    markUnknown(A.Id, *A.UnknownReason);
    return;
  }
  int64_t V[32];
  uint32_t U = eval(*A.Address, Mask, V, 0);
  St.Requests += 1;
  St.ActiveLanes += __builtin_popcount(Mask);
  if (U) {
    markUnknown(A.Id, "its address cannot be computed: " + LastUnknownReason);
    return;
  }
  const uint64_t *Addr = reinterpret_cast<const uint64_t *>(V);
  if (Observer)
    Observer(A.Id, Addr, Mask);
  if (!St.HasStride) {
    unsigned L = __builtin_ctz(Mask);
    St.FirstAddress = Addr[L];
    if (L < 31 && (Mask >> (L + 1) & 1)) {
      St.HasStride = true;
      St.Stride = int64_t(Addr[L + 1] - Addr[L]);
    }
  }
  RequestCost C;
  if (A.Sp == Space::Global) {
    C = globalRequest(Arch, Addr, Mask, A.Size);
  } else {
    C = sharedRequest(Arch, Addr, Mask, A.Size);
    if (A.SharedArray >= 0 && A.SharedArray < (int)K.Shared.size()) {
      const SharedArray &Arr = K.Shared[A.SharedArray];
      uint64_t Lo = Arr.Offset,
               Hi = Arr.Offset + (Arr.Dynamic ? Env.DynamicSmem : Arr.Bytes);
      for (uint32_t M = Mask; M; M &= M - 1) {
        unsigned L = __builtin_ctz(M);
        if (Addr[L] >= Lo && Addr[L] + A.Size <= Hi)
          continue;
        ++St.OutOfBoundsLanes;
        if (FirstOutOfBounds[A.Id].Lane == ~0u)
          FirstOutOfBounds[A.Id] = {BlockIdx, L, WarpInBlock, Addr[L]};
      }
    }
  }
  St.Units += C.Units;
  St.IdealUnits += C.IdealUnits;
  St.DistinctBytes += C.DistinctBytes;
  St.MaxUnitsPerRequest = std::max(St.MaxUnitsPerRequest, C.Units);
}

} // namespace gmem
