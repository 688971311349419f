//===- host_eval.cpp - Host interpreter: values of expressions ------------===//
//
// Literals, variables, dim3 members, lvalues and the slots behind them,
// casts, constructors and initializer lists. Operators are in
// host_operators.cpp, calls and launches in host_calls.cpp.
//
//===----------------------------------------------------------------------===//
#include "host_interpreter.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include <cmath>

using namespace clang;

namespace gmem {

HostValue HostInterpreter::zeroOf(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  if (std::optional<IntType> IT = intTypeOf(T))
    return HostValue::integer(0, *IT);
  if (T->isRealFloatingType())
    return HostValue::floating(0);
  if (T->isPointerType())
    return HostValue::pointer(NullAllocation, 0);
  if (isDim3(T))
    return HostValue::dim3(0, 0, 0);
  if (const auto *AT = dyn_cast<ConstantArrayType>(T.getTypePtr())) {
    HostValue V;
    V.Kind = HostValue::Array;
    V.Elems.assign(AT->getSize().getZExtValue(), zeroOf(AT->getElementType()));
    return V;
  }
  return HostValue::unknown("a value of type " + T.getAsString() +
                            " is not tracked");
}

HostValue HostInterpreter::convert(const HostValue &V, QualType From,
                                   QualType To, const clang::Expr *E) {
  if (V.isUnknown())
    return V;
  To = To.getNonReferenceType().getCanonicalType();
  auto At = [&] {
    return std::string(E ? " at " + where(E->getExprLoc()) : "");
  };
  if (To->isBooleanType()) {
    if (std::optional<bool> T = truth(V))
      return HostValue::integer(*T, IntType{1, false});
    return HostValue::unknown("truth of a value that is not known" + At());
  }
  if (std::optional<IntType> IT = intTypeOf(To)) {
    if (V.Kind == HostValue::Int)
      return HostValue::integer(V.I, *IT);
    if (V.Kind == HostValue::Float) {
      double T = std::trunc(V.F);
      if (!(T > -9.3e18 && T < 1.8e19))
        return HostValue::unknown("floating value out of integer range" + At());
      if (T >= 9.2e18)
        return HostValue::integer(int64_t(uint64_t(T)), *IT);
      return HostValue::integer(int64_t(T), *IT);
    }
    return HostValue::unknown("a pointer converted to an integer" + At());
  }
  if (To->isRealFloatingType()) {
    double D;
    if (V.Kind == HostValue::Int)
      D = V.Ty.Signed ? double(V.I) : double(uint64_t(V.I));
    else if (V.Kind == HostValue::Float)
      D = V.F;
    else
      return HostValue::unknown("a pointer converted to a number" + At());
    if (Ctx.getTypeSize(To) == 32)
      D = double(float(D));
    return HostValue::floating(D);
  }
  if (To->isPointerType()) {
    if (V.Kind == HostValue::Int && V.I == 0)
      return HostValue::pointer(NullAllocation, 0);
    if (V.Kind == HostValue::Int || V.Kind == HostValue::Float)
      return HostValue::unknown("an integer converted to a pointer" + At());
    return V;
  }
  (void)From;
  return V;
}

HostValue HostInterpreter::evalByClang(const clang::Expr *E) {
  if (!E->isValueDependent() && !E->isTypeDependent()) {
    clang::Expr::EvalResult R;
    if (E->EvaluateAsRValue(R, Ctx) && !R.HasSideEffects) {
      if (R.Val.isInt()) {
        const llvm::APSInt &I = R.Val.getInt();
        if (std::optional<IntType> IT = intTypeOf(E->getType()))
          if (I.getSignificantBits() <= 64 || I.getActiveBits() <= 64)
            return HostValue::integer(I.isSigned() ? I.getSExtValue()
                                                   : int64_t(I.getZExtValue()),
                                      *IT);
      } else if (R.Val.isFloat()) {
        llvm::APFloat F = R.Val.getFloat();
        bool Loses = false;
        F.convert(llvm::APFloat::IEEEdouble(),
                  llvm::APFloat::rmNearestTiesToEven, &Loses);
        return HostValue::floating(F.convertToDouble());
      }
    }
  }
  return HostValue::unknown("`" + text(E) + "` at " + where(E->getExprLoc()) +
                            " is not computable");
}

HostValue HostInterpreter::eval(const clang::Expr *E) {
  if (!E)
    return HostValue::unknown("no expression");
  if (stopped())
    return HostValue::unknown("not reached");
  if (E->containsErrors()) // Host code Clang rejected (parseCudaFile).
    return HostValue::unknown("`" + text(E) + "` at " + where(E->getExprLoc()) +
                              " does not parse");
  switch (E->getStmtClass()) {
  case clang::Stmt::IntegerLiteralClass: {
    const auto *IL = cast<IntegerLiteral>(E);
    std::optional<IntType> IT = intTypeOf(E->getType());
    if (!IT || IL->getValue().getBitWidth() > 64)
      return evalByClang(E);
    return HostValue::integer(int64_t(IL->getValue().getZExtValue()), *IT);
  }
  case clang::Stmt::CharacterLiteralClass:
  case clang::Stmt::CXXBoolLiteralExprClass:
  case clang::Stmt::UnaryExprOrTypeTraitExprClass:
  case clang::Stmt::OffsetOfExprClass:
  case clang::Stmt::SizeOfPackExprClass:
    return evalByClang(E);
  case clang::Stmt::FloatingLiteralClass: {
    double D = cast<FloatingLiteral>(E)->getValueAsApproximateDouble();
    if (Ctx.getTypeSize(E->getType()) == 32)
      D = double(float(D));
    return HostValue::floating(D);
  }
  case clang::Stmt::CXXNullPtrLiteralExprClass:
  case clang::Stmt::GNUNullExprClass:
    return HostValue::pointer(NullAllocation, 0);
  case clang::Stmt::StringLiteralClass: {
    const auto *SL = cast<StringLiteral>(E);
    if (SL->getCharByteWidth() != 1)
      return HostValue::unknown("a wide string literal");
    return HostValue::string(SL->getString().str());
  }
  case clang::Stmt::ParenExprClass:
    return eval(cast<ParenExpr>(E)->getSubExpr());
  case clang::Stmt::ConstantExprClass:
  case clang::Stmt::ExprWithCleanupsClass:
    return eval(cast<FullExpr>(E)->getSubExpr());
  case clang::Stmt::MaterializeTemporaryExprClass:
    return eval(cast<MaterializeTemporaryExpr>(E)->getSubExpr());
  case clang::Stmt::CXXBindTemporaryExprClass:
    return eval(cast<CXXBindTemporaryExpr>(E)->getSubExpr());
  case clang::Stmt::CXXDefaultArgExprClass:
    return eval(cast<CXXDefaultArgExpr>(E)->getExpr());
  case clang::Stmt::CXXDefaultInitExprClass:
    return eval(cast<CXXDefaultInitExpr>(E)->getExpr());
  case clang::Stmt::SubstNonTypeTemplateParmExprClass:
    return eval(cast<SubstNonTypeTemplateParmExpr>(E)->getReplacement());
  case clang::Stmt::ImplicitValueInitExprClass:
  case clang::Stmt::CXXScalarValueInitExprClass:
    return zeroOf(E->getType());
  case clang::Stmt::DeclRefExprClass:
    return evalDeclRef(cast<DeclRefExpr>(E));
  case clang::Stmt::MemberExprClass:
    return evalMember(cast<MemberExpr>(E));
  case clang::Stmt::ArraySubscriptExprClass:
    return evalSubscript(cast<ArraySubscriptExpr>(E));
  case clang::Stmt::UnaryOperatorClass:
    return evalUnary(cast<UnaryOperator>(E));
  case clang::Stmt::BinaryOperatorClass:
  case clang::Stmt::CompoundAssignOperatorClass:
    return evalBinary(cast<BinaryOperator>(E));
  case clang::Stmt::ConditionalOperatorClass: {
    const auto *CO = cast<ConditionalOperator>(E);
    return evalConditional(CO->getCond(), CO->getTrueExpr(), CO->getFalseExpr(),
                           E);
  }
  case clang::Stmt::BinaryConditionalOperatorClass: {
    const auto *BC = cast<BinaryConditionalOperator>(E);
    HostValue C = eval(BC->getCommon());
    if (std::optional<bool> T = truth(C))
      return *T ? C : eval(BC->getFalseExpr());
    return C;
  }
  case clang::Stmt::CXXConstructExprClass:
  case clang::Stmt::CXXTemporaryObjectExprClass:
    return evalConstruct(cast<CXXConstructExpr>(E));
  case clang::Stmt::InitListExprClass:
    return evalInitList(cast<InitListExpr>(E), E->getType());
  case clang::Stmt::CXXThrowExprClass:
    eval(cast<CXXThrowExpr>(E)->getSubExpr());
    State.Dead = true;
    return HostValue::unknown("throws");
  case clang::Stmt::LambdaExprClass:
    return HostValue::unknown("a lambda");
  default:
    break;
  }
  if (const auto *CE = dyn_cast<CastExpr>(E))
    return evalCast(CE);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return evalCall(Call);
  return evalByClang(E);
}

HostValue HostInterpreter::evalDeclRef(const DeclRefExpr *DRE) {
  const ValueDecl *D = DRE->getDecl();
  if (const auto *EC = dyn_cast<EnumConstantDecl>(D)) {
    std::optional<IntType> IT = intTypeOf(DRE->getType());
    return HostValue::integer(EC->getInitVal().getExtValue(),
                              IT ? *IT : IntType{});
  }
  if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
    HostValue V;
    V.Kind = HostValue::Function;
    V.Fns = {FD};
    return V;
  }
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD)
    return evalByClang(DRE);
  if (std::optional<int> Slot = slotOf(VD))
    return read(LRef{*Slot, -1});
  HostValue V = evalByClang(DRE);
  if (V.isUnknown())
    V.Reason = "'" + VD->getName().str() + "' at " + where(DRE->getLocation()) +
               " is not tracked";
  return V;
}

static int dim3Index(const MemberExpr *ME) {
  StringRef N = ME->getMemberDecl()->getName();
  return N == "x" ? 0 : N == "y" ? 1 : N == "z" ? 2 : -1;
}

HostValue HostInterpreter::evalMember(const MemberExpr *ME) {
  if (std::optional<HostValue> P = devicePropRead(ME))
    return *P;
  if (std::optional<HostValue> T = tableRead(ME))
    return *T;
  if (!ME->isArrow() && isDim3(ME->getBase()->getType())) {
    int Index = dim3Index(ME);
    HostValue B = eval(ME->getBase());
    if (B.Kind == HostValue::Dim3 && Index >= 0)
      return B.Elems[Index];
    if (B.isUnknown())
      return B;
  } else if (ME->getBase()->HasSideEffects(Ctx)) {
    eval(ME->getBase());
  }
  HostValue V = evalByClang(ME);
  if (V.isUnknown())
    V.Reason = "the struct member `" + text(ME) + "` at " +
               where(ME->getExprLoc()) + " is not tracked";
  return V;
}

HostValue HostInterpreter::evalSubscript(const ArraySubscriptExpr *AS) {
  if (std::optional<HostValue> P = devicePropRead(AS))
    return *P;
  if (std::optional<LRef> R = lvalue(AS)) {
    if (R->Slot >= 0)
      return read(*R);
    return HostValue::unknown("read from memory (`" + text(AS) + "`) at " +
                              where(AS->getExprLoc()));
  }
  HostValue B = eval(AS->getBase());
  HostValue I = eval(AS->getIdx());
  std::string At = " at " + where(AS->getExprLoc());
  if (B.isUnknown() && B.FromInput)
    return HostValue::unknown(B.Reason.substr(0, B.Reason.find(" at ")) + At,
                              true);
  if (B.Kind == HostValue::AddrOf && I.isInt() && I.I == 0)
    return read(LRef{B.Alloc, -1});
  if (B.Kind == HostValue::Array && I.isInt() && B.Elems.size() > 1 &&
      B.Elems.back().Kind == HostValue::Pointer) {
    // argv: its strings and the null pointer after them; nothing beyond.
    if (I.I >= 0 && uint64_t(I.I) < B.Elems.size() - 1)
      return B.Elems[I.I];
    return HostValue::unknown(
        "argv[" + std::to_string(I.I) + "]" + At + " is " +
            (uint64_t(I.I) == B.Elems.size() - 1 ? "null" : "past argv") +
            ": the program is run with " + std::to_string(B.Elems.size() - 2) +
            " arguments; give its arguments with --run-args \"ARGS\"",
        true);
  }
  if (B.Kind == HostValue::String && I.isInt()) {
    int64_t At0 = B.I + (I.Ty.Signed ? I.I : int64_t(uint64_t(I.I)));
    if (At0 >= 0 && uint64_t(At0) <= B.Str.size())
      return HostValue::integer(
          At0 == int64_t(B.Str.size()) ? 0 : (signed char)B.Str[At0],
          intTypeOf(AS->getType()).value_or(IntType{8, true}));
  }
  return HostValue::unknown("read from memory (`" + text(AS) + "`)" + At);
}

std::optional<HostInterpreter::LRef>
HostInterpreter::lvalue(const clang::Expr *E) {
  E = E->IgnoreParens();
  while (const auto *ICE = dyn_cast<ImplicitCastExpr>(E)) {
    if (ICE->getCastKind() != CK_NoOp && ICE->getCastKind() != CK_LValueBitCast)
      break;
    E = ICE->getSubExpr()->IgnoreParens();
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (std::optional<int> Slot = slotOf(VD))
        return LRef{*Slot, -1};
    return std::nullopt;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (ME->isArrow() || !isDim3(ME->getBase()->getType()))
      return std::nullopt;
    int Index = dim3Index(ME);
    std::optional<LRef> B = lvalue(ME->getBase());
    if (B && B->Slot < 0)
      return B;
    if (!B || B->Index >= 0 || Index < 0)
      return std::nullopt;
    return LRef{B->Slot, Index};
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    const clang::Expr *Base = AS->getBase()->IgnoreParenImpCasts();
    if (!Base->getType()->isArrayType())
      return std::nullopt;
    std::optional<LRef> B = lvalue(Base);
    if (!B || B->Index >= 0 || B->Slot < 0)
      return std::nullopt;
    HostValue I = eval(AS->getIdx()); // Before the lookup: it may change State.
    auto It = State.Values.find(B->Slot);
    if (It == State.Values.end() || It->second.Kind != HostValue::Array ||
        !I.isInt() || I.I < 0 || uint64_t(I.I) >= It->second.Elems.size())
      return LRef{}; // Evaluated, but not a tracked element.
    return LRef{B->Slot, int(I.I)};
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() != UO_Deref)
      return std::nullopt;
    HostValue P = eval(UO->getSubExpr());
    if (P.Kind == HostValue::AddrOf)
      return LRef{P.Alloc, -1};
    return LRef{}; // Evaluated, but memory is not tracked.
  }
  return std::nullopt;
}

HostValue HostInterpreter::read(const LRef &R) {
  if (R.Slot < 0)
    return HostValue::unknown("read from memory that is not tracked");
  auto It = State.Values.find(R.Slot);
  if (It == State.Values.end()) {
    const VarDecl *VD = Slots[R.Slot].Var;
    return HostValue::unknown(VD ? "'" + VD->getName().str() +
                                       "' is not set on this path"
                                 : "not set on this path");
  }
  if (R.Index < 0)
    return It->second;
  const HostValue &W = It->second;
  if ((W.Kind == HostValue::Dim3 || W.Kind == HostValue::Array) &&
      size_t(R.Index) < W.Elems.size())
    return W.Elems[R.Index];
  return W.isUnknown() ? W : HostValue::unknown("not tracked");
}

void HostInterpreter::write(const LRef &R, HostValue V) {
  if (R.Slot < 0)
    return;
  const SlotInfo &SI = Slots[R.Slot];
  QualType T = SI.Ty.getNonReferenceType().getCanonicalType();
  if (R.Index < 0) {
    if (T->isPointerType() && !T->isFunctionPointerType()) {
      if (V.Kind != HostValue::Pointer && V.Kind != HostValue::AddrOf &&
          V.Kind != HostValue::Function && V.Kind != HostValue::String &&
          V.Kind != HostValue::Array) {
        // A pointer that is not known is its own allocation.
        V = HostValue::pointer(newAllocation(R.Slot), 0);
      } else if (V.Kind == HostValue::Pointer && V.Alloc >= 0 &&
                 !Allocations[V.Alloc].Owner && SI.Var) {
        // A fresh allocation returned by a helper takes this variable's name.
        Allocations[V.Alloc].Owner = SI.Var;
        Allocations[V.Alloc].FrameId = SI.FrameId;
      }
    } else if (std::optional<IntType> IT = intTypeOf(T)) {
      if (V.Kind == HostValue::Int || V.Kind == HostValue::Float)
        V = convert(V, QualType(), T, nullptr);
    }
    State.Values[R.Slot] = std::move(V);
  } else {
    auto It = State.Values.find(R.Slot);
    if (It == State.Values.end())
      return;
    HostValue &W = It->second;
    if ((W.Kind == HostValue::Dim3 || W.Kind == HostValue::Array) &&
        size_t(R.Index) < W.Elems.size()) {
      if (W.Kind == HostValue::Dim3 && V.isNumber())
        V = convert(V, QualType(), Ctx.UnsignedIntTy, nullptr);
      W.Elems[R.Index] = std::move(V);
    }
  }
  if (SI.Var && OverriddenVars.count(SI.Var)) {
    // --block: the variable holds the command line's block whatever the
    // program writes, so values derived from it follow.
    if (isDim3(T))
      State.Values[R.Slot] =
          HostValue::dim3(OverrideValue.X, OverrideValue.Y, OverrideValue.Z);
    else if (std::optional<IntType> IT = intTypeOf(T))
      State.Values[R.Slot] =
          HostValue::integer(int64_t(OverrideValue.count()), *IT);
  }
}

HostValue HostInterpreter::evalCast(const CastExpr *CE) {
  const clang::Expr *Sub = CE->getSubExpr();
  switch (CE->getCastKind()) {
  case CK_LValueToRValue:
  case CK_NoOp:
  case CK_ConstructorConversion:
  case CK_UserDefinedConversion:
  case CK_AtomicToNonAtomic:
  case CK_NonAtomicToAtomic:
  case CK_LValueBitCast:
  case CK_BitCast:
  case CK_AddressSpaceConversion:
  case CK_Dependent:
    return eval(Sub);
  case CK_ToVoid:
    eval(Sub);
    return HostValue::unknown("void");
  case CK_NullToPointer:
    eval(Sub);
    return HostValue::pointer(NullAllocation, 0);
  case CK_ArrayToPointerDecay: {
    const clang::Expr *S = Sub->IgnoreParens();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        return HostValue::pointer(arrayAllocation(VD), 0);
    if (isa<StringLiteral>(S))
      return eval(S);
    return HostValue::unknown("the array `" + text(Sub) + "` at " +
                              where(Sub->getExprLoc()) + " is not tracked");
  }
  case CK_FunctionToPointerDecay:
  case CK_BuiltinFnToFnPtr:
    return eval(Sub);
  case CK_IntegralToPointer:
  case CK_PointerToIntegral: {
    HostValue V = eval(Sub);
    if (V.isUnknown())
      return V;
    return convert(V, Sub->getType(), CE->getType(), CE);
  }
  default:
    return convert(eval(Sub), Sub->getType(), CE->getType(), CE);
  }
}

HostValue HostInterpreter::evalConstruct(const CXXConstructExpr *CE) {
  if (isDim3(CE->getType())) {
    if (CE->getNumArgs() == 1 && isDim3(CE->getArg(0)->getType()))
      return eval(CE->getArg(0)); // Copy or move.
    HostValue V;
    V.Kind = HostValue::Dim3;
    for (unsigned I = 0; I < 3; ++I) {
      if (I >= CE->getNumArgs()) {
        V.Elems.push_back(HostValue::integer(1, IntType{32, false}));
        continue;
      }
      const clang::Expr *A = CE->getArg(I);
      HostValue C = eval(A);
      if (C.isNumber())
        C = convert(C, A->getType(), Ctx.UnsignedIntTy, A);
      else if (!C.isUnknown())
        C = HostValue::unknown("`" + text(A) + "` at " +
                               where(A->getExprLoc()) + " is not a number");
      V.Elems.push_back(std::move(C));
    }
    return V;
  }
  // std::string(argv[1]), as std::stoi's argument: the same string.
  const auto *RD = CE->getType()->getAsCXXRecordDecl();
  if (RD && RD->getName() == "basic_string" && CE->getNumArgs() >= 1 &&
      CE->getArg(0)->getType()->isPointerType()) {
    HostValue S = eval(CE->getArg(0));
    for (unsigned I = 1; I < CE->getNumArgs(); ++I)
      eval(CE->getArg(I));
    if (S.Kind == HostValue::String || S.isUnknown())
      return S;
    return HostValue::unknown("a std::string at " + where(CE->getExprLoc()) +
                              " is not tracked");
  }
  for (const clang::Expr *A : CE->arguments())
    eval(A);
  return HostValue::unknown("a value of type " + CE->getType().getAsString() +
                            " is not tracked");
}

HostValue HostInterpreter::evalInitList(const InitListExpr *IL, QualType T) {
  if (const InitListExpr *Sem =
          IL->isSemanticForm() ? nullptr : IL->getSemanticForm())
    IL = Sem;
  T = T.getNonReferenceType().getCanonicalType();
  if (isDim3(T)) {
    HostValue V;
    V.Kind = HostValue::Dim3;
    for (unsigned I = 0; I < 3; ++I) {
      HostValue C = I < IL->getNumInits()
                        ? eval(IL->getInit(I))
                        : HostValue::integer(1, IntType{32, false});
      if (C.isNumber())
        C = convert(C, QualType(), Ctx.UnsignedIntTy, nullptr);
      V.Elems.push_back(std::move(C));
    }
    return V;
  }
  if (const auto *AT = dyn_cast<ConstantArrayType>(T.getTypePtr())) {
    HostValue V;
    V.Kind = HostValue::Array;
    uint64_t N = AT->getSize().getZExtValue();
    if (N > 1024) {
      for (const clang::Expr *I : IL->inits())
        if (I->HasSideEffects(Ctx))
          eval(I);
      return HostValue::unknown("a large array");
    }
    for (uint64_t I = 0; I < N; ++I)
      V.Elems.push_back(I < IL->getNumInits() ? eval(IL->getInit(I))
                                              : zeroOf(AT->getElementType()));
    return V;
  }
  if (IL->getNumInits() == 1 && !T->isRecordType())
    return eval(IL->getInit(0));
  if (IL->getNumInits() == 0)
    return zeroOf(T);
  for (const clang::Expr *I : IL->inits())
    eval(I);
  return HostValue::unknown("a value of type " + T.getAsString() +
                            " is not tracked");
}

} // namespace gmem
