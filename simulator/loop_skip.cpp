//===- loop_skip.cpp - Long loops whose iterations only translate ---------===//
#include "loop_skip.h"
#include "pointer_arith.h"

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

} // namespace

LoopShape analyzeLoop(const Stmt &Loop, const Kernel &K) {
  LoopShape Sh;
  if (!Loop.TestFirst || !Loop.CondPre.empty() || !Loop.Cond)
    return Sh;
  // Straight-line body and step: assignments and plain accesses only.
  std::set<int> Assigned;
  size_t Pos = 0;
  for (const std::vector<Stmt> *L : {&Loop.Body, &Loop.Step}) {
    for (const Stmt &S : *L) {
      size_t P = Pos++;
      if (S.Kind == StmtKind::Access) {
        if (L != &Loop.Body || S.AccessId < 0 ||
            size_t(S.AccessId) >= K.Accesses.size())
          return Sh;
        const Access &A = K.Accesses[size_t(S.AccessId)];
        auto St = A.Compiled.State;
        if (A.UnknownReason || !A.Address ||
            (St != CompiledForm::Unchecked && St != CompiledForm::AsWritten &&
             St != CompiledForm::Ambiguous) ||
            (A.Sp == Space::Shared && A.Kind == AccessKind::Atomic))
          return Sh;
        Sh.Accesses.push_back({S.AccessId, P});
        continue;
      }
      if (S.Kind != StmtKind::Assign || !S.Value ||
          !Assigned.insert(S.Slot).second)
        return Sh;
      // Slot = Slot + Inc, Slot = Slot - Inc or Slot = Inc + Slot.
      const Expr &V = *S.Value;
      if (V.Kind != Op::Add && V.Kind != Op::Sub)
        return Sh;
      const Expr *L0 = V.Ops[0].get(), *R0 = V.Ops[1].get();
      bool SelfLeft = L0->Kind == Op::Var && L0->Index == S.Slot;
      bool SelfRight =
          V.Kind == Op::Add && R0->Kind == Op::Var && R0->Index == S.Slot;
      if (!SelfLeft && !SelfRight)
        return Sh;
      if (V.Type.Bits != K.Slots[size_t(S.Slot)].Type.Bits ||
          V.Type.Signed != K.Slots[size_t(S.Slot)].Type.Signed)
        return Sh;
      Sh.Increments.push_back(
          {S.Slot, SelfLeft ? R0 : L0, V.Kind == Op::Sub, P});
    }
  }
  if (Sh.Increments.empty())
    return Sh;
  // Increments must not change inside the loop.
  for (const LoopShape::Increment &I : Sh.Increments)
    if (usesAny(*I.Inc, Assigned) || !linearIn(*I.Inc, {}))
      return Sh;
  const Expr &C = *Loop.Cond;
  if (C.Kind != Op::Lt && C.Kind != Op::Le && C.Kind != Op::Gt &&
      C.Kind != Op::Ge)
    return Sh;
  if (!linearIn(*C.Ops[0], Assigned) || !linearIn(*C.Ops[1], Assigned))
    return Sh;
  for (const auto &[Id, P] : Sh.Accesses)
    if (!linearIn(*K.Accesses[size_t(Id)].Address, Assigned))
      return Sh;
  Sh.Left = C.Ops[0].get();
  Sh.Right = C.Ops[1].get();
  Sh.Cmp = C.Kind;
  Sh.Skippable = true;
  return Sh;
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
