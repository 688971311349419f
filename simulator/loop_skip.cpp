//===- loop_skip.cpp - Long loops whose iterations only translate ---------===//
#include "loop_skip.h"
#include "pointer_arith.h"

#include <algorithm>
#include <map>
#include <set>

namespace gmem {

namespace {

/// Whether E is built only from + - * neg, casts and leaves, with every
/// product having a side free of Loop slots: then E is linear in them.
bool linearIn(const Expr &E, const std::set<int> &Loop) {
  switch (E.Kind) {
  case Op::Const:
  case Op::Param:
  case Op::Builtin:
  case Op::Var:
    return true;
  case Op::Cast:
  case Op::Neg:
    return linearIn(*E.Ops[0], Loop);
  case Op::Add:
  case Op::Sub:
    return linearIn(*E.Ops[0], Loop) && linearIn(*E.Ops[1], Loop);
  case Op::Mul: {
    auto Free = [&](const Expr &X) {
      std::function<bool(const Expr &)> Uses = [&](const Expr &Y) {
        if (Y.Kind == Op::Var && Loop.count(Y.Index))
          return true;
        for (const ExprPtr &O : Y.Ops)
          if (Uses(*O))
            return true;
        return false;
      };
      return !Uses(X);
    };
    return linearIn(*E.Ops[0], Loop) && linearIn(*E.Ops[1], Loop) &&
           (Free(*E.Ops[0]) || Free(*E.Ops[1]));
  }
  default:
    return false;
  }
}

bool usesAny(const Expr &E, const std::set<int> &Slots) {
  if (E.Kind == Op::Var && Slots.count(E.Index))
    return true;
  for (const ExprPtr &O : E.Ops)
    if (usesAny(*O, Slots))
      return true;
  return false;
}

bool readsMemory(const Expr &E) {
  if (E.Kind == Op::Unknown)
    return true;
  for (const ExprPtr &O : E.Ops)
    if (readsMemory(*O))
      return true;
  return false;
}

/// Linear in the increments' slots Inc, and where a product depends on
/// them, its other factor is invariant (reads no slot the loop assigns):
/// then E moves by the same amount every iteration.
bool steadyIn(const Expr &E, const std::set<int> &Inc,
              const std::set<int> &Assigned) {
  if (!linearIn(E, Inc))
    return false;
  std::function<bool(const Expr &)> Steady = [&](const Expr &X) {
    if (X.Kind == Op::Mul) {
      bool U0 = usesAny(*X.Ops[0], Inc), U1 = usesAny(*X.Ops[1], Inc);
      if ((U0 && usesAny(*X.Ops[1], Assigned)) ||
          (U1 && usesAny(*X.Ops[0], Assigned)))
        return false;
    }
    for (const ExprPtr &O : X.Ops)
      if (!Steady(*O))
        return false;
    return true;
  };
  return Steady(E);
}

/// Whether a compiled form of an access Depth loops deep in the body
/// involves only loops inside the body (so it completes within one
/// iteration of the loop being counted).
bool formInside(const CompiledForm &C, unsigned Depth) {
  switch (C.State) {
  case CompiledForm::Unchecked:
  case CompiledForm::AsWritten:
  case CompiledForm::Ambiguous:
  case CompiledForm::Reused:
  case CompiledForm::NoInstruction:
  case CompiledForm::Selected:
  case CompiledForm::Split:
    return true;
  case CompiledForm::Hoisted:
    return C.Loop >= 0 && unsigned(C.Loop) + 1 <= Depth;
  case CompiledForm::Merged:
    return C.Leader >= 0 || (C.Loop >= 0 && unsigned(C.Loop) < Depth);
  case CompiledForm::OncePerAddress:
    return C.Loop >= 0 && unsigned(C.Loop) < Depth;
  }
  return false;
}

/// Adds the slots S reads, anywhere in it (values, conditions, access
/// addresses), to Reads, and those it assigns to Writes.
void slotsOf(const Stmt &S, const Kernel &K, std::set<int> &Reads,
             std::set<int> &Writes) {
  std::function<void(const Expr &)> Read = [&](const Expr &E) {
    if (E.Kind == Op::Var)
      Reads.insert(E.Index);
    for (const ExprPtr &O : E.Ops)
      Read(*O);
  };
  if (S.Kind == StmtKind::Assign)
    Writes.insert(S.Slot);
  for (const Expr *E : {S.Value.get(), S.Cond.get()})
    if (E)
      Read(*E);
  if (S.Kind == StmtKind::Access && S.AccessId >= 0 &&
      size_t(S.AccessId) < K.Accesses.size() &&
      K.Accesses[size_t(S.AccessId)].Address)
    Read(*K.Accesses[size_t(S.AccessId)].Address);
  for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
    for (const Stmt &X : *Sub)
      slotsOf(X, K, Reads, Writes);
}

/// Collects the slots assigned anywhere in L and how often.
void countAssigned(const std::vector<Stmt> &L, std::map<int, int> &Count) {
  for (const Stmt &S : L) {
    if (S.Kind == StmtKind::Assign)
      ++Count[S.Slot];
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      countAssigned(*Sub, Count);
  }
}

} // namespace

LoopShape analyzeLoop(const Stmt &Loop, const Kernel &K) {
  LoopShape Sh;
  if (!Loop.TestFirst || !Loop.CondPre.empty() || !Loop.Cond)
    return Sh;
  // Increments: Slot = Slot + Inc, Slot = Slot - Inc or Slot = Inc + Slot,
  // in the body or step itself, the slot's only assignment in the loop.
  std::map<int, int> Count;
  countAssigned(Loop.Body, Count);
  countAssigned(Loop.Step, Count);
  std::set<int> Inc, Assigned;
  size_t Pos = 0;
  for (const std::vector<Stmt> *L : {&Loop.Body, &Loop.Step}) {
    for (const Stmt &S : *L) {
      size_t P = Pos++;
      if (S.Kind != StmtKind::Assign || !S.Value || Count[S.Slot] != 1)
        continue;
      const Expr &V = *S.Value;
      if (V.Kind != Op::Add && V.Kind != Op::Sub)
        continue;
      const Expr *L0 = V.Ops[0].get(), *R0 = V.Ops[1].get();
      bool SelfLeft = L0->Kind == Op::Var && L0->Index == S.Slot;
      bool SelfRight =
          V.Kind == Op::Add && R0->Kind == Op::Var && R0->Index == S.Slot;
      if ((!SelfLeft && !SelfRight) ||
          V.Type.Bits != K.Slots[size_t(S.Slot)].Type.Bits ||
          V.Type.Signed != K.Slots[size_t(S.Slot)].Type.Signed)
        continue;
      Sh.Increments.push_back(
          {S.Slot, SelfLeft ? R0 : L0, V.Kind == Op::Sub, P});
      Inc.insert(S.Slot);
    }
  }
  if (Sh.Increments.empty())
    return Sh;
  for (const auto &[Slot, N] : Count) {
    Assigned.insert(Slot);
    if (!Inc.count(Slot))
      Sh.Carried.push_back(Slot);
  }
  // Increments must not change inside the loop.
  for (const LoopShape::Increment &I : Sh.Increments)
    if (usesAny(*I.Inc, Assigned) || !linearIn(*I.Inc, {}))
      return Sh;
  const Expr &C = *Loop.Cond;
  if (C.Kind != Op::Lt && C.Kind != Op::Le && C.Kind != Op::Gt &&
      C.Kind != Op::Ge)
    return Sh;
  // Second order: slots the top level assigns, before any statement reads
  // them, from the increments and invariants (an inner loop's start). They
  // move steadily with the iterations, as the increments do.
  std::set<int> Mentioned, Derived;
  size_t FirstIncrement = Loop.Body.size();
  for (const LoopShape::Increment &I : Sh.Increments)
    FirstIncrement = std::min(FirstIncrement, I.Pos);
  for (size_t At = 0; At < Loop.Body.size(); ++At) {
    const Stmt &S = Loop.Body[At];
    if (At < FirstIncrement && S.Kind == StmtKind::Assign && S.Value &&
        !Inc.count(S.Slot) && !Mentioned.count(S.Slot) &&
        !readsMemory(*S.Value) && steadyIn(*S.Value, Inc, Assigned)) {
      std::set<int> Others = Assigned;
      for (int I : Inc)
        Others.erase(I);
      if (!usesAny(*S.Value, Others)) {
        Derived.insert(S.Slot);
        Sh.Derived.push_back({S.Slot, S.Value.get()});
      }
    }
    slotsOf(S, K, Mentioned, Mentioned);
  }
  // A start that does not read the increments (k = 0) is derived only in a
  // triangle, where a loop's bound reads them or a start that does; a
  // rectangular nest stays first order.
  std::set<int> Moving = Inc;
  for (const auto &[Slot, V] : Sh.Derived)
    if (usesAny(*V, Inc))
      Moving.insert(Slot);
  bool Triangle = false;
  for (const Stmt &S : Loop.Body)
    Triangle |= S.Kind == StmtKind::Loop && S.Cond && usesAny(*S.Cond, Moving);
  if (!Triangle) {
    Sh.Derived.erase(
        std::remove_if(Sh.Derived.begin(), Sh.Derived.end(),
                       [&](const auto &D) { return !usesAny(*D.second, Inc); }),
        Sh.Derived.end());
    Derived.clear();
    for (const auto &D : Sh.Derived)
      Derived.insert(D.first);
  }
  for (int D : Derived)
    Sh.Carried.erase(std::find(Sh.Carried.begin(), Sh.Carried.end(), D));
  std::set<int> IncD = Inc;
  IncD.insert(Derived.begin(), Derived.end());
  const std::set<int> Carried(Sh.Carried.begin(), Sh.Carried.end());
  for (const ExprPtr &Side : C.Ops)
    if (!steadyIn(*Side, Inc, Assigned) || usesAny(*Side, Carried) ||
        usesAny(*Side, Derived))
      return Sh;
  // Everything else in the body: control flow and carried values free of
  // the increments and of loaded data, addresses that move steadily.
  bool Ok = true;
  std::function<void(const std::vector<Stmt> &, unsigned, bool, size_t)> Walk =
      [&](const std::vector<Stmt> &L, unsigned Depth, bool InCall, size_t Top) {
        for (size_t I = 0; I < L.size() && Ok; ++I) {
          const Stmt &S = L[I];
          const size_t At = Depth == 0 && !InCall && &L == &Loop.Body ? I : Top;
          auto Free = [&](const Expr *E) {
            return !E || (!usesAny(*E, IncD) && !readsMemory(*E));
          };
          const bool InInner = Sh.Inner && Depth == 1 && !InCall &&
                               (&L == &Sh.Inner->Body || &L == &Sh.Inner->Step);
          switch (S.Kind) {
          case StmtKind::Access: {
            if (S.AccessId < 0 || size_t(S.AccessId) >= K.Accesses.size()) {
              Ok = false;
              break;
            }
            const Access &A = K.Accesses[size_t(S.AccessId)];
            if (A.UnknownReason || !A.Address ||
                !formInside(A.Compiled, Depth) ||
                (A.Sp == Space::Shared && A.Kind == AccessKind::Atomic) ||
                !steadyIn(*A.Address, IncD, Assigned)) {
              Ok = false;
              break;
            }
            Sh.Accesses.push_back({S.AccessId, At});
            break;
          }
          case StmtKind::Assign:
            if (Inc.count(S.Slot) && Depth == 0 && !InCall)
              break; // The increment itself.
            if (Derived.count(S.Slot) && Depth == 0 && !InCall &&
                &L == &Loop.Body && Count[S.Slot] <= 2) {
              // Its derivation, assigned once at the top level.
              bool First = true;
              for (const auto &[Slot, V] : Sh.Derived)
                First &= Slot != S.Slot || V == S.Value.get();
              Ok = First;
              break;
            }
            if (Derived.count(S.Slot)) {
              // The inner loop's own increment of it: Slot +- invariant.
              const Expr *V = S.Value.get();
              Ok = InInner && V && (V->Kind == Op::Add || V->Kind == Op::Sub) &&
                   V->Ops[0]->Kind == Op::Var && V->Ops[0]->Index == S.Slot &&
                   Free(V->Ops[1].get()) && !usesAny(*V->Ops[1], Assigned);
              break;
            }
            Ok = Free(S.Value.get());
            break;
          case StmtKind::If:
            Ok = Free(S.Cond.get());
            Walk(S.Then, Depth, InCall, At);
            Walk(S.Else, Depth, InCall, At);
            break;
          case StmtKind::Loop:
            Ok = Free(S.Cond.get());
            if (!Ok && !Sh.Inner && Depth == 0 && !InCall && &L == &Loop.Body &&
                S.CondPre.empty() && S.Cond && S.TestFirst &&
                (S.Cond->Kind == Op::Lt || S.Cond->Kind == Op::Le ||
                 S.Cond->Kind == Op::Gt || S.Cond->Kind == Op::Ge) &&
                !readsMemory(*S.Cond) &&
                steadyIn(*S.Cond->Ops[0], IncD, Assigned) &&
                steadyIn(*S.Cond->Ops[1], IncD, Assigned)) {
              // The triangle's inner loop: its bounds move with the
              // iterations (second order, loop_skip.h).
              Sh.Inner = &S;
              Ok = true;
            }
            Walk(S.CondPre, Depth + 1, InCall, At);
            Walk(S.Body, Depth + 1, InCall, At);
            Walk(S.Step, Depth + 1, InCall, At);
            break;
          case StmtKind::Call:
            Walk(S.Body, Depth, true, At);
            break;
          case StmtKind::Return:
            Ok = InCall; // Leaves the call, not the loop.
            break;
          case StmtKind::Break:
          case StmtKind::Continue:
            Ok = Depth > 0; // Leaves a nested loop.
            break;
          }
        }
      };
  Walk(Loop.Body, 0, false, 0);
  if (!Ok)
    return Sh;
  if (Sh.Inner) {
    std::map<int, int> InInner;
    countAssigned(Sh.Inner->Body, InInner);
    countAssigned(Sh.Inner->Step, InInner);
    for (int Slot : Sh.Carried)
      if (InInner.count(Slot))
        Sh.InnerCarried.push_back(Slot);
    // After the inner loop its counters hold where it stopped, not their
    // start moved: nothing after it may read them.
    std::set<int> Counters;
    for (int D : Derived)
      if (InInner.count(D))
        Counters.insert(D);
    bool After = false;
    for (const Stmt &S : Loop.Body) {
      std::set<int> Reads, Writes;
      if (After)
        slotsOf(S, K, Reads, Writes);
      for (int C : Counters)
        if (Reads.count(C))
          return Sh;
      After |= &S == Sh.Inner;
    }
  }
  // The step holds only increments.
  for (const Stmt &S : Loop.Step)
    if (S.Kind != StmtKind::Assign || !Inc.count(S.Slot))
      return Sh;
  Sh.Left = C.Ops[0].get();
  Sh.Right = C.Ops[1].get();
  Sh.Cmp = C.Kind;
  Sh.Skippable = true;
  return Sh;
}

std::optional<i128>
slope(const Expr &E, const std::function<std::optional<i128>(int Slot)> &IncOf,
      const std::function<std::optional<int64_t>(const Expr &)> &Leaf) {
  switch (E.Kind) {
  case Op::Const:
  case Op::Param:
  case Op::Builtin:
    return 0;
  case Op::Var:
    return IncOf(E.Index);
  case Op::Cast:
    return slope(*E.Ops[0], IncOf, Leaf);
  case Op::Neg: {
    std::optional<i128> D = slope(*E.Ops[0], IncOf, Leaf);
    if (!D)
      return std::nullopt;
    return -*D;
  }
  case Op::Add:
  case Op::Sub: {
    std::optional<i128> A = slope(*E.Ops[0], IncOf, Leaf);
    std::optional<i128> B = slope(*E.Ops[1], IncOf, Leaf);
    if (!A || !B)
      return std::nullopt;
    return E.Kind == Op::Add ? *A + *B : *A - *B;
  }
  case Op::Mul: {
    std::optional<i128> A = slope(*E.Ops[0], IncOf, Leaf);
    std::optional<i128> B = slope(*E.Ops[1], IncOf, Leaf);
    if (!A || !B)
      return std::nullopt;
    if (*A == 0 && *B == 0)
      return 0;
    // analyzeLoop saw to it that the other factor is invariant.
    const unsigned Moving = *A != 0 ? 0 : 1;
    const Expr &Fixed = *E.Ops[1 - Moving];
    std::optional<i128> F;
    if (E.PointerArith && readsSigned(E, 1 - Moving) && Fixed.Kind == Op::Cast)
      F = exactValue(*Fixed.Ops[0], Leaf);
    else if (E.PointerArith && readsSigned(E, 1 - Moving) &&
             Fixed.Kind == Op::Const)
      F = Fixed.Value;
    else
      F = exactValue(Fixed, Leaf);
    i128 R;
    if (!F || __builtin_mul_overflow(*F, Moving == 0 ? *A : *B, &R))
      return std::nullopt;
    return R;
  }
  default:
    return std::nullopt;
  }
}

std::optional<i128>
exactValue(const Expr &E,
           const std::function<std::optional<int64_t>(const Expr &)> &Leaf) {
  auto Fits = [&](i128 V) -> std::optional<i128> {
    const IntType T = E.Type;
    if (T.Bits == 0 || T.Bits > 64)
      return std::nullopt;
    i128 Lo = T.Signed ? -(i128(1) << (T.Bits - 1)) : 0;
    i128 Hi =
        T.Signed ? (i128(1) << (T.Bits - 1)) - 1 : (i128(1) << T.Bits) - 1;
    if (V < Lo || V > Hi)
      return std::nullopt;
    return V;
  };
  if (E.PointerArith) {
    // Operands as pointer_arith.h reads them: a signed index is the value
    // before its cast to 64 bits unsigned, a constant offset its int64.
    std::optional<i128> Ops[2];
    for (unsigned I = 0; I < 2; ++I) {
      const Expr &X = *E.Ops[I];
      if (readsSigned(E, I) && X.Kind == Op::Const)
        Ops[I] = X.Value;
      else if (readsSigned(E, I) && X.Kind == Op::Cast)
        Ops[I] = exactValue(*X.Ops[0], Leaf);
      else
        Ops[I] = exactValue(X, Leaf);
    }
    i128 R;
    if (!Ops[0] || !Ops[1] || !pointerExact(E, *Ops[0], *Ops[1], R))
      return std::nullopt;
    const PointerRange Can = pointerRange(E);
    if (R < Can.Lo || R >= Can.Hi)
      return std::nullopt;
    return R;
  }
  switch (E.Kind) {
  case Op::Const: {
    i128 X = E.Value;
    if (!E.Type.Signed && E.Type.Bits == 64 && X < 0)
      X += i128(1) << 64;
    return Fits(X);
  }
  case Op::Param:
  case Op::Builtin:
  case Op::Var: {
    std::optional<int64_t> V = Leaf(E);
    if (!V)
      return std::nullopt;
    // Leaves hold the type's bit pattern: unsigned 64-bit values above
    // INT64_MAX read back negative.
    i128 X = *V;
    if (!E.Type.Signed && E.Type.Bits == 64 && X < 0)
      X += i128(1) << 64;
    return Fits(X);
  }
  case Op::Cast:
  case Op::Neg: {
    std::optional<i128> A = exactValue(*E.Ops[0], Leaf);
    if (!A)
      return std::nullopt;
    return Fits(E.Kind == Op::Neg ? -*A : *A);
  }
  case Op::Add:
  case Op::Sub:
  case Op::Mul: {
    std::optional<i128> A = exactValue(*E.Ops[0], Leaf);
    std::optional<i128> B = exactValue(*E.Ops[1], Leaf);
    if (!A || !B)
      return std::nullopt;
    // Operands fit 64 bits: sums fit 128; a product may not.
    i128 R;
    if (E.Kind == Op::Mul) {
      if (__builtin_mul_overflow(*A, *B, &R))
        return std::nullopt;
    } else {
      R = E.Kind == Op::Add ? *A + *B : *A - *B;
    }
    return Fits(R);
  }
  default:
    return std::nullopt;
  }
}

} // namespace gmem
