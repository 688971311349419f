//===- host_operators.cpp - Host interpreter: operators -------------------===//
//
// C++ integer semantics of the type Clang gives each operation (wrap-around,
// truncating division, shifts), floating arithmetic, pointer arithmetic in
// bytes, and the logical and conditional operators, whose unknown
// conditions split the path.
//
//===----------------------------------------------------------------------===//
#include "host_interpreter.h"
#include "int_semantics.h"
#include <limits>

using namespace clang;

namespace gmem {
HostValue HostInterpreter::addToPointer(const HostValue &P, const HostValue &N,
                                        QualType PtrTy, bool Subtract,
                                        const clang::Expr *E) {
  if (P.isUnknown())
    return P;
  if (P.Kind == HostValue::String && N.isInt()) {
    // argv[i] + 1: still the same string, further in.
    HostValue R = P;
    int64_t K = N.Ty.Signed ? N.I : int64_t(uint64_t(N.I));
    R.I = Subtract ? P.I - K : P.I + K;
    if (R.I < 0 || uint64_t(R.I) > P.Str.size())
      return HostValue::unknown("a pointer moved out of the string \"" + P.Str +
                                "\" at " + where(E->getExprLoc()));
    return R;
  }
  if (P.Kind != HostValue::Pointer)
    return HostValue::unknown("arithmetic on the address of a host variable "
                              "at " +
                              where(E->getExprLoc()));
  QualType Pointee = PtrTy->getPointeeType();
  int64_t Elem = 1;
  if (!Pointee.isNull() && !Pointee->isVoidType() &&
      !Pointee->isIncompleteType())
    Elem = Ctx.getTypeSizeInChars(Pointee).getQuantity();
  HostValue R = P;
  if (!N.isInt()) {
    if (R.Reason.empty())
      R.Reason = N.isUnknown()
                     ? N.Reason
                     : "offset not computable at " + where(E->getExprLoc());
    return R;
  }
  int64_t K = N.Ty.Signed ? N.I : int64_t(uint64_t(N.I));
  R.I = Subtract ? P.I - K * Elem : P.I + K * Elem;
  return R;
}

HostValue HostInterpreter::evalUnary(const UnaryOperator *UO) {
  const clang::Expr *Sub = UO->getSubExpr();
  auto At = [&] { return std::string(" at " + where(UO->getExprLoc())); };
  switch (UO->getOpcode()) {
  case UO_Plus:
  case UO_Extension:
    return eval(Sub);
  case UO_Minus: {
    HostValue V = eval(Sub);
    if (V.isInt())
      return HostValue::integer(int64_t(0 - uint64_t(V.I)),
                                intTypeOf(UO->getType()).value_or(V.Ty));
    if (V.Kind == HostValue::Float)
      return HostValue::floating(-V.F);
    return V.isUnknown() ? V : HostValue::unknown("not computable" + At());
  }
  case UO_Not: {
    HostValue V = eval(Sub);
    if (V.isInt())
      return HostValue::integer(~V.I, intTypeOf(UO->getType()).value_or(V.Ty));
    return V.isUnknown() ? V : HostValue::unknown("not computable" + At());
  }
  case UO_LNot: {
    HostValue V = eval(Sub);
    if (std::optional<bool> T = truth(V))
      return HostValue::integer(
          !*T, intTypeOf(UO->getType()).value_or(IntType{1, false}));
    return V.isUnknown() ? V : HostValue::unknown("not computable" + At());
  }
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec: {
    bool Inc = UO->isIncrementOp();
    std::optional<LRef> R = lvalue(Sub);
    HostValue Old = R ? read(*R) : eval(Sub);
    HostValue New;
    QualType T = Sub->getType();
    if (Old.isInt())
      New = HostValue::integer(int64_t(uint64_t(Old.I) + (Inc ? 1 : -1)),
                               intTypeOf(T).value_or(Old.Ty));
    else if (Old.Kind == HostValue::Float)
      New = convert(HostValue::floating(Old.F + (Inc ? 1 : -1)), T, T, nullptr);
    else if (Old.Kind == HostValue::Pointer || Old.Kind == HostValue::String)
      New = addToPointer(Old, HostValue::integer(1, IntType{}), T, !Inc, UO);
    else
      New = Old.isUnknown() ? Old : HostValue::unknown("not computable" + At());
    if (R)
      write(*R, New);
    return UO->isPrefix() ? New : Old;
  }
  case UO_AddrOf: {
    const clang::Expr *S = Sub->IgnoreParens();
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S)) {
      // &p[i] is p + i.
      HostValue B = eval(AS->getBase());
      HostValue I = eval(AS->getIdx());
      return addToPointer(B, I, AS->getBase()->getType(), false, UO);
    }
    if (const auto *D = dyn_cast<UnaryOperator>(S))
      if (D->getOpcode() == UO_Deref)
        return eval(D->getSubExpr());
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (isa<FunctionDecl>(DRE->getDecl()))
        return evalDeclRef(DRE);
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl())) {
        if (std::optional<int> Slot = slotOf(VD)) {
          if (VD->getType()->isArrayType())
            return HostValue::pointer(arrayAllocation(VD), 0);
          HostValue V;
          V.Kind = HostValue::AddrOf;
          V.Alloc = *Slot;
          return V;
        }
      }
    }
    if (Sub->HasSideEffects(Ctx))
      eval(Sub);
    return HostValue::unknown("the address of `" + text(Sub) + "`" + At());
  }
  case UO_Deref: {
    HostValue P = eval(Sub);
    if (P.Kind == HostValue::AddrOf)
      return read(LRef{P.Alloc, -1});
    if (P.Kind == HostValue::Function)
      return P;
    if (P.Kind == HostValue::String) // *argv[i]: its first character.
      return HostValue::integer(
          size_t(P.I) < P.Str.size() ? (signed char)P.Str[P.I] : 0,
          intTypeOf(UO->getType()).value_or(IntType{8, true}));
    if (P.Kind == HostValue::Array && !P.Elems.empty()) // *argv
      return P.Elems[0];
    if (P.isUnknown() && P.FromInput)
      return P;
    return HostValue::unknown("read from memory (`" + text(UO) + "`)" + At());
  }
  default:
    eval(Sub);
    return HostValue::unknown("not computable" + At());
  }
}

/// The model's operator for a host binary operator (compound assignments
/// too), where int_semantics.h computes it.
static std::optional<gmem::Op> modelOp(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_Mul:
  case BO_MulAssign:
    return gmem::Op::Mul;
  case BO_Add:
  case BO_AddAssign:
    return gmem::Op::Add;
  case BO_Sub:
  case BO_SubAssign:
    return gmem::Op::Sub;
  case BO_Div:
  case BO_DivAssign:
    return gmem::Op::Div;
  case BO_Rem:
  case BO_RemAssign:
    return gmem::Op::Rem;
  case BO_Shl:
  case BO_ShlAssign:
    return gmem::Op::Shl;
  case BO_Shr:
  case BO_ShrAssign:
    return gmem::Op::Shr;
  case BO_And:
  case BO_AndAssign:
    return gmem::Op::And;
  case BO_Or:
  case BO_OrAssign:
    return gmem::Op::Or;
  case BO_Xor:
  case BO_XorAssign:
    return gmem::Op::Xor;
  case BO_LT:
    return gmem::Op::Lt;
  case BO_GT:
    return gmem::Op::Gt;
  case BO_LE:
    return gmem::Op::Le;
  case BO_GE:
    return gmem::Op::Ge;
  case BO_EQ:
    return gmem::Op::Eq;
  case BO_NE:
    return gmem::Op::Ne;
  default:
    return std::nullopt;
  }
}

HostValue HostInterpreter::evalArith(BinaryOperatorKind Op, const HostValue &L,
                                     const HostValue &R, QualType ResTy,
                                     QualType OpndTy, const clang::Expr *E) {
  // Of two reasons, the one that points at the input (the command line,
  // the GPU model) says what to pass.
  if (L.isUnknown() && !(R.isUnknown() && R.FromInput && !L.FromInput))
    return L;
  if (R.isUnknown())
    return R;
  auto At = [&] { return std::string(" at " + where(E->getExprLoc())); };
  OpndTy = OpndTy.getNonReferenceType().getCanonicalType();
  bool Compare = BinaryOperator::isComparisonOp(Op);
  if (OpndTy->isRealFloatingType()) {
    HostValue A = convert(L, OpndTy, OpndTy, E);
    HostValue B = convert(R, OpndTy, OpndTy, E);
    if (A.Kind != HostValue::Float || B.Kind != HostValue::Float)
      return HostValue::unknown("not computable" + At());
    double X = A.F, Y = B.F, Z;
    if (Compare) {
      bool C = Op == BO_LT   ? X < Y
               : Op == BO_GT ? X > Y
               : Op == BO_LE ? X <= Y
               : Op == BO_GE ? X >= Y
               : Op == BO_EQ ? X == Y
                             : X != Y;
      return HostValue::integer(C, intTypeOf(ResTy).value_or(IntType{1, 0}));
    }
    switch (Op) {
    case BO_Add:
    case BO_AddAssign:
      Z = X + Y;
      break;
    case BO_Sub:
    case BO_SubAssign:
      Z = X - Y;
      break;
    case BO_Mul:
    case BO_MulAssign:
      Z = X * Y;
      break;
    case BO_Div:
    case BO_DivAssign:
      Z = X / Y;
      break;
    default:
      return HostValue::unknown("not computable" + At());
    }
    return convert(HostValue::floating(Z), OpndTy, ResTy, E);
  }
  std::optional<IntType> RT = intTypeOf(ResTy);
  std::optional<IntType> OT = intTypeOf(OpndTy);
  if (!L.isInt() || !R.isInt() || !RT || !OT)
    return HostValue::unknown("not computable" + At());
  std::optional<gmem::Op> K = modelOp(Op);
  if (!K)
    return HostValue::unknown("not computable" + At());
  // The operands in the type the usual conversions give them (a shift's
  // amount keeps its own), then C++'s operator (int_semantics.h).
  const bool Shift = *K == gmem::Op::Shl || *K == gmem::Op::Shr;
  int64_t Z;
  if (IntFault F = intBinary(*K, *OT, normalize(uint64_t(L.I), *OT),
                             Shift ? R.I : normalize(uint64_t(R.I), *OT), Z,
                             R.Ty.Signed);
      F != IntFault::None)
    return HostValue::unknown(intFaultText(F) + At());
  return HostValue::integer(Z, *RT);
}

HostValue HostInterpreter::evalLogical(const BinaryOperator *BO) {
  bool And = BO->getOpcode() == BO_LAnd;
  IntType RT = intTypeOf(BO->getType()).value_or(IntType{1, false});
  HostValue L = eval(BO->getLHS());
  std::optional<bool> LT = truth(L);
  if (LT && *LT != And)
    return HostValue::integer(!And, RT); // Short circuit.
  HostValue R;
  if (LT || !BO->getRHS()->HasSideEffects(Ctx)) {
    R = eval(BO->getRHS());
  } else {
    // The right side runs on one path only.
    std::string OuterWhy = State.Why;
    bool OuterInput = State.WhyFromInput;
    PathState Saved = State;
    R = eval(BO->getRHS());
    if (UnwindTo || Aborted)
      return R;
    std::vector<PathState> Both;
    Both.push_back(std::move(Saved));
    Both.push_back(std::move(State));
    for (PathState &P : Both) {
      P.Why = L.Reason;
      P.WhyFromInput = L.FromInput;
    }
    join(std::move(Both), OuterWhy, OuterInput, BO->getExprLoc());
  }
  std::optional<bool> RTh = truth(R);
  if (LT)
    return RTh ? HostValue::integer(*RTh, RT)
               : (R.isUnknown() ? R : HostValue::unknown("not computable"));
  if (RTh && *RTh != And)
    return HostValue::integer(!And, RT);
  return L.isUnknown() ? L : HostValue::unknown("not computable");
}

HostValue HostInterpreter::evalConditional(const clang::Expr *Cond,
                                           const clang::Expr *T,
                                           const clang::Expr *F,
                                           const clang::Expr *E) {
  HostValue C = eval(Cond);
  if (std::optional<bool> B = truth(C))
    return eval(*B ? T : F);
  if (stopped())
    return C;
  std::string Why = C.Reason.empty() ? "depends on the condition at " +
                                           where(Cond->getExprLoc())
                                     : C.Reason;
  if (!T->HasSideEffects(Ctx) && !F->HasSideEffects(Ctx))
    return mergeValues(eval(T), eval(F), Why, C.FromInput);
  std::string OuterWhy = State.Why;
  bool OuterInput = State.WhyFromInput;
  PathState Saved = State;
  HostValue VT = eval(T);
  if (UnwindTo || Aborted)
    return VT;
  PathState A = std::move(State);
  State = std::move(Saved);
  HostValue VF = eval(F);
  if (UnwindTo || Aborted)
    return VF;
  bool DeadT = A.Dead, DeadF = State.Dead;
  std::vector<PathState> Both;
  Both.push_back(std::move(A));
  Both.push_back(std::move(State));
  for (PathState &P : Both) {
    P.Why = Why;
    P.WhyFromInput = C.FromInput;
  }
  join(std::move(Both), OuterWhy, OuterInput, E->getExprLoc());
  if (DeadT)
    return VF;
  if (DeadF)
    return VT;
  return mergeValues(VT, VF, Why, C.FromInput);
}

HostValue HostInterpreter::evalBinary(const BinaryOperator *BO) {
  BinaryOperatorKind Op = BO->getOpcode();
  const clang::Expr *LHS = BO->getLHS(), *RHS = BO->getRHS();
  switch (Op) {
  case BO_Comma:
    eval(LHS);
    return eval(RHS);
  case BO_LAnd:
  case BO_LOr:
    return evalLogical(BO);
  case BO_Assign: {
    HostValue V = eval(RHS);
    std::optional<LRef> R = lvalue(LHS);
    if (!R) {
      if (LHS->HasSideEffects(Ctx))
        eval(LHS);
      return V;
    }
    write(*R, V);
    return read(*R);
  }
  case BO_PtrMemD:
  case BO_PtrMemI:
    return HostValue::unknown("a pointer to member");
  default:
    break;
  }
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(BO)) {
    std::optional<LRef> R = lvalue(LHS);
    HostValue Old = R ? read(*R) : eval(LHS);
    HostValue N = eval(RHS);
    HostValue New;
    if (LHS->getType()->isPointerType())
      New = addToPointer(Old, N, LHS->getType(), Op == BO_SubAssign, BO);
    else
      New = convert(evalArith(Op,
                              convert(Old, LHS->getType(),
                                      CA->getComputationLHSType(), BO),
                              N, CA->getComputationResultType(),
                              CA->getComputationLHSType(), BO),
                    CA->getComputationResultType(), LHS->getType(), BO);
    if (R) {
      write(*R, New);
      return read(*R);
    }
    return New;
  }
  HostValue L = eval(LHS);
  HostValue R = eval(RHS);
  QualType LT = LHS->getType(), RTy = RHS->getType();
  if (LT->isPointerType() || RTy->isPointerType()) {
    if ((Op == BO_Add || Op == BO_Sub) && LT->isPointerType() &&
        !RTy->isPointerType())
      return addToPointer(L, R, LT, Op == BO_Sub, BO);
    if (Op == BO_Add && RTy->isPointerType())
      return addToPointer(R, L, RTy, false, BO);
    if (L.isUnknown())
      return L;
    if (R.isUnknown())
      return R;
    if (L.Kind == HostValue::Pointer && R.Kind == HostValue::Pointer &&
        L.Alloc == R.Alloc && !L.isVaguePointer() && !R.isVaguePointer()) {
      IntType RT = intTypeOf(BO->getType()).value_or(IntType{64, true});
      if (Op == BO_Sub) {
        QualType Pointee = LT->getPointeeType();
        int64_t Elem = Pointee->isVoidType() || Pointee->isIncompleteType()
                           ? 1
                           : Ctx.getTypeSizeInChars(Pointee).getQuantity();
        return HostValue::integer((L.I - R.I) / Elem, RT);
      }
      if (BO->isComparisonOp())
        return evalArith(Op, HostValue::integer(L.I, IntType{64, true}),
                         HostValue::integer(R.I, IntType{64, true}),
                         BO->getType(), Ctx.LongLongTy, BO);
    }
    // A string (argv[1], a literal) is never null.
    auto IsNull = [](const HostValue &V) {
      return V.Kind == HostValue::Pointer && V.Alloc == NullAllocation &&
             !V.isVaguePointer();
    };
    if ((Op == BO_EQ || Op == BO_NE) &&
        ((L.Kind == HostValue::String && IsNull(R)) ||
         (R.Kind == HostValue::String && IsNull(L))))
      return HostValue::integer(Op == BO_NE, IntType{1, false});
    if ((Op == BO_EQ || Op == BO_NE) && L.Kind == HostValue::Pointer &&
        R.Kind == HostValue::Pointer &&
        (L.Alloc == NullAllocation) != (R.Alloc == NullAllocation))
      return HostValue::integer(Op == BO_NE, IntType{1, false});
    return HostValue::unknown("pointer comparison at " +
                              where(BO->getExprLoc()) + " is not computable");
  }
  return evalArith(Op, L, R, BO->getType(), LT, BO);
}

} // namespace gmem
