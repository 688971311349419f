//===- expr_translator.cpp - C++ expressions to model expressions ---------===//
//
// Integer semantics follow the types in Clang's AST exactly: implicit and
// explicit conversions become Cast nodes, binary operators work at their
// (already converted) type, comparisons yield bool. Evaluation order is
// C++17's where it is defined (the right operand of an assignment first) and
// left to right elsewhere, so accesses appear in the order they execute.
//
//===----------------------------------------------------------------------===//
#include "body_translator.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/SourceManager.h"

namespace gmem {

using namespace clang;

namespace {

std::optional<Op> arithmeticOp(BinaryOperatorKind K) {
  switch (K) {
  case BO_Mul:
  case BO_MulAssign:
    return Op::Mul;
  case BO_Div:
  case BO_DivAssign:
    return Op::Div;
  case BO_Rem:
  case BO_RemAssign:
    return Op::Rem;
  case BO_Add:
  case BO_AddAssign:
    return Op::Add;
  case BO_Sub:
  case BO_SubAssign:
    return Op::Sub;
  case BO_Shl:
  case BO_ShlAssign:
    return Op::Shl;
  case BO_Shr:
  case BO_ShrAssign:
    return Op::Shr;
  case BO_And:
  case BO_AndAssign:
    return Op::And;
  case BO_Xor:
  case BO_XorAssign:
    return Op::Xor;
  case BO_Or:
  case BO_OrAssign:
    return Op::Or;
  case BO_LT:
    return Op::Lt;
  case BO_GT:
    return Op::Gt;
  case BO_LE:
    return Op::Le;
  case BO_GE:
    return Op::Ge;
  case BO_EQ:
    return Op::Eq;
  case BO_NE:
    return Op::Ne;
  default:
    return std::nullopt;
  }
}

bool isComparison(Op K) {
  return K == Op::Lt || K == Op::Gt || K == Op::Le || K == Op::Ge ||
         K == Op::Eq || K == Op::Ne;
}

/// Why a value of type T is not an integer the model can carry.
std::string notIntegerReason(QualType T) {
  if (T->isRealFloatingType() || T->isAnyComplexType())
    return "floating-point value";
  if (T->isRecordType())
    return "value of a struct";
  if (T->isVoidType())
    return "no value";
  return "value of type '" + T.getAsString() + "'";
}

/// Does E name CUDA's warpSize? Clang's headers make it a constant 32, but
/// the model keeps it as the built-in it is.
bool mentionsWarpSize(const clang::Stmt *S) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const IdentifierInfo *II = DRE->getDecl()->getIdentifier())
      return II->getName() == "warpSize";
  for (const clang::Stmt *C : S->children())
    if (mentionsWarpSize(C))
      return true;
  return false;
}

} // namespace

std::optional<Value> BodyTranslator::fold(const clang::Expr *E) const {
  if (E->isValueDependent() || E->isTypeDependent() || !E->isPRValue())
    return std::nullopt;
  QualType T = E->getType();
  std::optional<IntType> IT = intTypeOf(T);
  if (!IT || T->isPointerType() || T->isNullPtrType())
    return std::nullopt;
  clang::Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx, clang::Expr::SE_NoSideEffects) ||
      !R.Val.isInt())
    return std::nullopt;
  const llvm::APSInt &V = R.Val.getInt();
  if (V.getBitWidth() > 64 || mentionsWarpSize(E))
    return std::nullopt;
  int64_t X =
      V.isSigned() ? V.getSExtValue() : static_cast<int64_t>(V.getZExtValue());
  return Value{castTo(makeConst(X, IntType{64, V.isSigned()}), *IT), {}};
}

std::optional<Value> BodyTranslator::builtinVar(const clang::Expr *E) const {
  E = E->IgnoreParens();
  // threadIdx.x & co. are property reads on Clang's builtin structs.
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E)) {
    const auto *PRE =
        dyn_cast<MSPropertyRefExpr>(POE->getSyntacticForm()->IgnoreParens());
    if (!PRE)
      return std::nullopt;
    const clang::Expr *BaseE = PRE->getBaseExpr()->IgnoreParenImpCasts();
    if (const auto *OVE = dyn_cast<OpaqueValueExpr>(BaseE))
      if (OVE->getSourceExpr())
        BaseE = OVE->getSourceExpr()->IgnoreParenImpCasts();
    const auto *DRE = dyn_cast<DeclRefExpr>(BaseE);
    if (!DRE || !DRE->getDecl()->getIdentifier() ||
        !PRE->getPropertyDecl()->getIdentifier())
      return std::nullopt;
    StringRef Var = DRE->getDecl()->getName();
    StringRef Field = PRE->getPropertyDecl()->getName();
    int Base = Var == "threadIdx"  ? 0
               : Var == "blockIdx" ? 3
               : Var == "blockDim" ? 6
               : Var == "gridDim"  ? 9
                                   : -1;
    int Off = Field == "x" ? 0 : Field == "y" ? 1 : Field == "z" ? 2 : -1;
    if (Base < 0 || Off < 0)
      return std::nullopt;
    return Value{makeBuiltin(static_cast<Builtin>(Base + Off)), {}};
  }
  // warpSize is a constant 32 in Clang's headers; keep it symbolic.
  if (const auto *ICE = dyn_cast<ImplicitCastExpr>(E))
    if (ICE->getCastKind() == CK_LValueToRValue)
      if (const auto *DRE =
              dyn_cast<DeclRefExpr>(ICE->getSubExpr()->IgnoreParens()))
        if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
          if (VD->getName() == "warpSize" && VD->hasGlobalStorage() &&
              VD->getType()->isIntegerType())
            return Value{makeBuiltin(Builtin::WarpSize), {}};
  return std::nullopt;
}

ExprPtr BodyTranslator::condition(const clang::Expr *E, StmtList &Out) {
  return toBool(rvalue(E, Out).E);
}

void BodyTranslator::effects(const clang::Expr *E, StmtList &Out) {
  if (!E)
    return;
  E = E->IgnoreParens();
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    return effects(EWC->getSubExpr(), Out);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->isIncrementDecrementOp()) {
      incDec(UO, Out, /*ValueUsed=*/false, nullptr);
      return;
    }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp()) {
      assignOp(BO, Out, nullptr);
      return;
    }
    if (BO->getOpcode() == BO_Comma) {
      effects(BO->getLHS(), Out);
      effects(BO->getRHS(), Out);
      return;
    }
  }
  if (const auto *CE = dyn_cast<CastExpr>(E))
    if (CE->getCastKind() == CK_ToVoid)
      return effects(CE->getSubExpr(), Out);
  // A discarded lvalue is not read (no lvalue-to-rvalue conversion).
  if (E->isGLValue()) {
    lvalue(E, Out);
    return;
  }
  rvalue(E, Out);
}

Value BodyTranslator::rvalue(const clang::Expr *E, StmtList &Out) {
  if (!E)
    return Value{makeUnknown("missing expression"), {}};
  if (E->isGLValue()) {
    // The value of an object: read it.
    LValue L = lvalue(E, Out);
    return load(L, Out);
  }
  if (std::optional<Value> B = builtinVar(E))
    return *B;
  if (std::optional<Value> F = fold(E))
    return *F;

  switch (E->getStmtClass()) {
  case clang::Stmt::ParenExprClass:
    return rvalue(cast<ParenExpr>(E)->getSubExpr(), Out);
  case clang::Stmt::ConstantExprClass:
  case clang::Stmt::ExprWithCleanupsClass:
    return rvalue(cast<FullExpr>(E)->getSubExpr(), Out);
  case clang::Stmt::CXXBindTemporaryExprClass:
    return rvalue(cast<CXXBindTemporaryExpr>(E)->getSubExpr(), Out);
  case clang::Stmt::SubstNonTypeTemplateParmExprClass:
    return rvalue(cast<SubstNonTypeTemplateParmExpr>(E)->getReplacement(), Out);
  case clang::Stmt::CXXDefaultArgExprClass:
    return rvalue(cast<CXXDefaultArgExpr>(E)->getExpr(), Out);
  case clang::Stmt::CXXDefaultInitExprClass:
    return rvalue(cast<CXXDefaultInitExpr>(E)->getExpr(), Out);
  case clang::Stmt::OpaqueValueExprClass:
    if (const clang::Expr *Src = cast<OpaqueValueExpr>(E)->getSourceExpr())
      return rvalue(Src, Out);
    break;
  case clang::Stmt::PseudoObjectExprClass:
    return rvalue(cast<PseudoObjectExpr>(E)->getResultExpr(), Out);
  case clang::Stmt::CXXNullPtrLiteralExprClass:
  case clang::Stmt::GNUNullExprClass:
    return Value{makeConst(0, AddrT), {}};
  case clang::Stmt::ImplicitValueInitExprClass:
  case clang::Stmt::CXXScalarValueInitExprClass:
    if (std::optional<IntType> T = intTypeOf(E->getType()))
      return Value{makeConst(0, *T), {}};
    return Value{unknown(notIntegerReason(E->getType()), E->getType()), {}};
  case clang::Stmt::FloatingLiteralClass:
  case clang::Stmt::StringLiteralClass:
    return Value{unknown(notIntegerReason(E->getType()), E->getType()), {}};
  case clang::Stmt::ImplicitCastExprClass:
  case clang::Stmt::CStyleCastExprClass:
  case clang::Stmt::CXXStaticCastExprClass:
  case clang::Stmt::CXXFunctionalCastExprClass:
  case clang::Stmt::CXXReinterpretCastExprClass:
  case clang::Stmt::CXXConstCastExprClass:
  case clang::Stmt::CXXAddrspaceCastExprClass:
  case clang::Stmt::BuiltinBitCastExprClass:
    return castExpr(cast<CastExpr>(E), Out);
  case clang::Stmt::UnaryOperatorClass:
    return unaryOp(cast<UnaryOperator>(E), Out);
  case clang::Stmt::BinaryOperatorClass:
  case clang::Stmt::CompoundAssignOperatorClass:
    return binaryOp(cast<BinaryOperator>(E), Out);
  case clang::Stmt::ConditionalOperatorClass:
    return conditional(cast<ConditionalOperator>(E), Out, false);
  case clang::Stmt::CallExprClass:
  case clang::Stmt::CXXMemberCallExprClass:
  case clang::Stmt::CXXOperatorCallExprClass:
    return call(cast<CallExpr>(E), Out);
  case clang::Stmt::CUDAKernelCallExprClass:
    // Dynamic parallelism starts a new grid; this thread does not run it.
    return fallback(E, Out, "a kernel launch from device code");
  case clang::Stmt::CXXConstructExprClass:
  case clang::Stmt::CXXTemporaryObjectExprClass:
    return construct(cast<CXXConstructExpr>(E), Out);
  case clang::Stmt::InitListExprClass: {
    const auto *ILE = cast<InitListExpr>(E);
    if (ILE->getNumInits() == 1 && intTypeOf(E->getType()) &&
        !E->getType()->isRecordType() && !E->getType()->isArrayType())
      return rvalue(ILE->getInit(0), Out);
    for (const clang::Expr *Init : ILE->inits())
      effects(Init, Out);
    return Value{unknown(notIntegerReason(E->getType()), E->getType()), {}};
  }
  case clang::Stmt::CXXThisExprClass: {
    const Frame &F = Frames.back();
    if (F.This && F.This->Kind == LValue::Memory)
      return Value{F.This->Addr, F.This->Where};
    PtrOrigin O;
    O.Kind = PtrOrigin::Local;
    O.Array = "this";
    return Value{makeUnknown("address of a local object", AddrT), O};
  }
  case clang::Stmt::UnaryExprOrTypeTraitExprClass:
    return fallback(E, Out, "a variable-length sizeof");
  case clang::Stmt::LambdaExprClass:
    return Value{makeUnknown("lambda object"), {}};
  default:
    break;
  }
  return fallback(E, Out,
                  std::string("expression of kind ") + E->getStmtClassName());
}

Value BodyTranslator::fallback(const clang::Expr *E, StmtList &Out,
                               const std::string &What) {
  // Keep the accesses inside; only the value is given up.
  for (const clang::Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<clang::Expr>(Child))
      effects(CE, Out);
  warn(E, What + " is not modelled");
  QualType T = E->getType();
  Value V{unknown(What + " at " + where(E), T), {}};
  if (T->isPointerType()) {
    V.Ptr.Kind = PtrOrigin::Unknown;
    V.Ptr.Reason = "pointer from " + What;
  }
  return V;
}

Value BodyTranslator::castExpr(const CastExpr *CE, StmtList &Out) {
  const clang::Expr *Sub = CE->getSubExpr();
  QualType T = CE->getType();
  std::optional<IntType> To = intTypeOf(T);
  switch (CE->getCastKind()) {
  case CK_LValueToRValue: {
    // c ? a[i] : b[i] read as a value: each branch reads its own object.
    if (const auto *CO =
            dyn_cast<AbstractConditionalOperator>(Sub->IgnoreParens()))
      return conditional(CO, Out, /*LoadBranches=*/true);
    LValue L = lvalue(Sub, Out);
    return load(L, Out);
  }
  case CK_NoOp:
  case CK_AddressSpaceConversion:
  case CK_AtomicToNonAtomic:
  case CK_NonAtomicToAtomic:
  case CK_ConstructorConversion:
  case CK_UserDefinedConversion: {
    Value V = rvalue(Sub, Out);
    if (To && !(V.E->Type == *To))
      V.E = castTo(V.E, *To);
    return V;
  }
  case CK_IntegralCast:
  case CK_IntegralToBoolean:
  case CK_PointerToIntegral:
  case CK_BooleanToSignedIntegral: {
    Value V = rvalue(Sub, Out);
    if (!To)
      return Value{unknown(notIntegerReason(T), T), {}};
    V.E = castTo(V.E, *To);
    if (CE->getCastKind() == CK_BooleanToSignedIntegral)
      V.E = unary(Op::Neg, V.E, *To);
    if (To->Bits == 1)
      V.Ptr = {};
    return V;
  }
  case CK_PointerToBoolean:
  case CK_MemberPointerToBoolean: {
    Value V = rvalue(Sub, Out);
    return Value{toBool(V.E), {}};
  }
  case CK_IntegralToPointer: {
    Value V = rvalue(Sub, Out);
    V.E = castTo(V.E, AddrT);
    if (V.Ptr.Kind == PtrOrigin::None) {
      V.Ptr.Kind = PtrOrigin::Unknown;
      V.Ptr.Reason = "pointer made from an integer";
    }
    return V;
  }
  case CK_NullToPointer:
  case CK_NullToMemberPointer:
    effects(Sub, Out);
    return Value{makeConst(0, AddrT), {}};
  case CK_BitCast:
  case CK_CPointerToObjCPointerCast:
  case CK_AnyPointerToBlockPointerCast: {
    Value V = rvalue(Sub, Out);
    if (T->isPointerType() && Sub->getType()->isPointerType())
      return V; // Same address, the pointee type is read off the AST.
    return Value{unknown("bit pattern of another type", T), {}};
  }
  case CK_ArrayToPointerDecay:
    return addressOf(lvalue(Sub, Out));
  case CK_DerivedToBase:
  case CK_UncheckedDerivedToBase:
  case CK_BaseToDerived: {
    Value V = rvalue(Sub, Out);
    if (!T->isPointerType())
      return V;
    // Walk the inheritance path adding each base's offset.
    const CXXRecordDecl *RD =
        Sub->getType()->getPointeeType()->getAsCXXRecordDecl();
    int64_t Off = 0;
    for (const CXXBaseSpecifier *B : CE->path()) {
      const CXXRecordDecl *Base = B->getType()->getAsCXXRecordDecl();
      if (!RD || !Base || B->isVirtual()) {
        V.E = makeUnknown("virtual base class", AddrT);
        return V;
      }
      Off += Ctx.getASTRecordLayout(RD).getBaseClassOffset(Base).getQuantity();
      RD = Base;
    }
    if (CE->getCastKind() == CK_BaseToDerived)
      Off = -Off;
    if (Off)
      V.E = binary(Op::Add, V.E, makeConst(Off, AddrT), AddrT);
    return V;
  }
  case CK_ToVoid:
    effects(Sub, Out);
    return Value{makeUnknown("no value"), {}};
  case CK_FloatingToIntegral:
  case CK_FloatingToBoolean:
  case CK_FloatingComplexToBoolean:
  case CK_IntegralComplexToBoolean:
    rvalue(Sub, Out);
    return Value{unknown("converted from a floating-point value", T), {}};
  case CK_IntegralToFloating:
  case CK_FloatingCast:
  case CK_FloatingToFixedPoint:
  case CK_FixedPointCast:
  case CK_FloatingRealToComplex:
  case CK_IntegralRealToComplex:
  case CK_VectorSplat:
    rvalue(Sub, Out);
    return Value{unknown(notIntegerReason(T), T), {}};
  case CK_FunctionToPointerDecay:
    return Value{makeUnknown("address of a function", AddrT), {}};
  default:
    break;
  }
  return fallback(CE, Out, std::string("conversion ") + CE->getCastKindName());
}

Value BodyTranslator::unaryOp(const UnaryOperator *UO, StmtList &Out) {
  QualType T = UO->getType();
  std::optional<IntType> IT = intTypeOf(T);
  switch (UO->getOpcode()) {
  case UO_Plus:
  case UO_Extension:
    return rvalue(UO->getSubExpr(), Out);
  case UO_Minus:
  case UO_Not: {
    Value V = rvalue(UO->getSubExpr(), Out);
    if (!IT)
      return Value{unknown(notIntegerReason(T), T), {}};
    return Value{
        unary(UO->getOpcode() == UO_Minus ? Op::Neg : Op::BitNot, V.E, *IT),
        {}};
  }
  case UO_LNot: {
    Value V = rvalue(UO->getSubExpr(), Out);
    return Value{
        castTo(unary(Op::LNot, toBool(V.E), BoolT), IT.value_or(BoolT)), {}};
  }
  case UO_AddrOf:
    return addressOf(lvalue(UO->getSubExpr(), Out));
  case UO_PreInc:
  case UO_PreDec:
  case UO_PostInc:
  case UO_PostDec:
    return incDec(UO, Out, /*ValueUsed=*/true, nullptr);
  default:
    break;
  }
  return fallback(UO, Out,
                  std::string("operator ") +
                      UnaryOperator::getOpcodeStr(UO->getOpcode()).str());
}

Value BodyTranslator::binaryOp(const BinaryOperator *BO, StmtList &Out) {
  BinaryOperatorKind Opc = BO->getOpcode();
  if (BO->isAssignmentOp())
    return assignOp(BO, Out, nullptr);
  if (Opc == BO_Comma) {
    effects(BO->getLHS(), Out);
    return rvalue(BO->getRHS(), Out);
  }
  if (Opc == BO_LAnd || Opc == BO_LOr)
    return logicalOp(BO, Out);

  const clang::Expr *LE = BO->getLHS(), *RE = BO->getRHS();
  QualType LT = LE->getType(), RT = RE->getType(), T = BO->getType();
  Value L = rvalue(LE, Out);
  size_t Pos = Out.size();
  Value R = rvalue(RE, Out);
  protect(L, Out, Pos);

  std::optional<Op> K = arithmeticOp(Opc);
  if (!K)
    return fallback(BO, Out,
                    "operator " + BinaryOperator::getOpcodeStr(Opc).str());

  // Pointer arithmetic moves by whole elements.
  if ((Opc == BO_Add || Opc == BO_Sub) && LT->isPointerType() &&
      RT->isIntegralOrEnumerationType())
    return pointerAdd(L, R, LT->getPointeeType(), Opc == BO_Sub);
  if (Opc == BO_Add && RT->isPointerType() && LT->isIntegralOrEnumerationType())
    return pointerAdd(R, L, RT->getPointeeType());
  if (Opc == BO_Sub && LT->isPointerType() && RT->isPointerType()) {
    IntType D = intTypeOf(T).value_or(IntType{64, true});
    uint64_t Size = sizeOf(LT->getPointeeType());
    if (!Size)
      return Value{makeUnknown("difference of pointers to incomplete types", D),
                   {}};
    ExprPtr Diff = castTo(binary(Op::Sub, L.E, R.E, AddrT), D);
    return Value{binary(Op::Div, Diff, makeConst(Size, D), D), {}};
  }

  std::optional<IntType> IT = intTypeOf(T);
  if (!IT || !intTypeOf(LT) || !intTypeOf(RT)) {
    std::string Why = isComparison(*K) ? "comparison of floating-point values"
                                       : notIntegerReason(!intTypeOf(LT)   ? LT
                                                          : !intTypeOf(RT) ? RT
                                                                           : T);
    return Value{unknown(Why, T), {}};
  }

  Value V;
  V.E = binary(*K, L.E, R.E, isComparison(*K) ? BoolT : *IT);
  if (!(V.E->Type == *IT))
    V.E = castTo(V.E, *IT);
  // Integers that carry a pointer's address keep its origin.
  if (*K == Op::Add || *K == Op::Sub || *K == Op::And || *K == Op::Or) {
    if (L.Ptr.Kind != PtrOrigin::None && R.Ptr.Kind == PtrOrigin::None)
      V.Ptr = L.Ptr;
    else if (R.Ptr.Kind != PtrOrigin::None && L.Ptr.Kind == PtrOrigin::None &&
             *K != Op::Sub)
      V.Ptr = R.Ptr;
  }
  return V;
}

Value BodyTranslator::logicalOp(const BinaryOperator *BO, StmtList &Out) {
  bool And = BO->getOpcode() == BO_LAnd;
  Value L{condition(BO->getLHS(), Out), {}};
  StmtList RS;
  ExprPtr R = condition(BO->getRHS(), RS);
  if (!RS.empty()) {
    // The right side runs only for the lanes the left side lets through.
    protectAgainst(L, Out, RS);
    gmem::Stmt If;
    If.Kind = StmtKind::If;
    If.Loc = locOf(BO->getRHS());
    If.Cond = And ? L.E : unary(Op::LNot, L.E, BoolT);
    If.Then = std::move(RS);
    Out.push_back(std::move(If));
  }
  IntType T = intTypeOf(BO->getType()).value_or(BoolT);
  return Value{castTo(binary(And ? Op::LAnd : Op::LOr, L.E, R, BoolT), T), {}};
}

Value BodyTranslator::conditional(const AbstractConditionalOperator *CO,
                                  StmtList &Out, bool LoadBranches) {
  if (isa<BinaryConditionalOperator>(CO))
    return fallback(CO, Out, "operator ?: without a middle operand");
  Value C{condition(CO->getCond(), Out), {}};
  StmtList TS, FS;
  auto Branch = [&](const clang::Expr *B, StmtList &S) {
    if (LoadBranches) {
      LValue L = lvalue(B, S);
      return load(L, S);
    }
    return rvalue(B, S);
  };
  Value T = Branch(CO->getTrueExpr(), TS);
  Value F = Branch(CO->getFalseExpr(), FS);
  QualType Ty = CO->getType();
  std::optional<IntType> IT = intTypeOf(Ty);
  PtrOrigin O = PtrOrigin::merge(T.Ptr, F.Ptr);
  if (TS.empty() && FS.empty()) {
    if (!IT)
      return Value{unknown(notIntegerReason(Ty), Ty), {}};
    return Value{makeSelect(C.E, castTo(T.E, *IT), castTo(F.E, *IT), *IT), O};
  }
  // Each branch's statements run only for its lanes; the value is collected
  // in a slot set on both paths.
  protectAgainst(C, Out, TS);
  protectAgainst(C, Out, FS);
  Value Res{unknown(notIntegerReason(Ty), Ty), {}};
  if (IT) {
    int S = newSlot("cond", *IT);
    assign(S, T, CO->getTrueExpr(), TS);
    assign(S, F, CO->getFalseExpr(), FS);
    Res = Value{makeVar(S, *IT), SlotOrigin[S]};
  }
  gmem::Stmt If;
  If.Kind = StmtKind::If;
  If.Loc = locOf(CO);
  If.Cond = C.E;
  If.Then = std::move(TS);
  If.Else = std::move(FS);
  Out.push_back(std::move(If));
  return Res;
}

Value BodyTranslator::assignOp(const BinaryOperator *BO, StmtList &Out,
                               LValue *Target) {
  // C++17: the right operand is sequenced before the left one.
  Value R = rvalue(BO->getRHS(), Out);
  size_t Pos = Out.size();
  LValue L = lvalue(BO->getLHS(), Out);
  protect(R, Out, Pos);
  if (Target)
    *Target = L;
  if (BO->getOpcode() == BO_Assign) {
    store(L, R, Out);
    return R;
  }
  const auto *CAO = cast<CompoundAssignOperator>(BO);
  QualType LT = BO->getLHS()->getType();
  Value Old = load(L, Out);
  Value New;
  BinaryOperatorKind Opc = BO->getOpcode();
  std::optional<IntType> LIT = intTypeOf(LT);
  std::optional<IntType> CL = intTypeOf(CAO->getComputationLHSType());
  std::optional<IntType> CR = intTypeOf(CAO->getComputationResultType());
  if (LT->isPointerType() && (Opc == BO_AddAssign || Opc == BO_SubAssign)) {
    New = pointerAdd(Old, R, LT->getPointeeType(), Opc == BO_SubAssign);
  } else if (LIT && CL && CR && intTypeOf(BO->getRHS()->getType())) {
    Op K = *arithmeticOp(Opc);
    ExprPtr RE = R.E;
    if (K != Op::Shl && K != Op::Shr)
      RE = castTo(RE, *CR);
    New.E = castTo(binary(K, castTo(Old.E, *CL), RE, *CR), *LIT);
    New.Ptr = Old.Ptr;
  } else {
    New.E = unknown(
        notIntegerReason(intTypeOf(LT) ? BO->getRHS()->getType() : LT), LT);
  }
  store(L, New, Out);
  return New;
}

Value BodyTranslator::incDec(const UnaryOperator *UO, StmtList &Out,
                             bool ValueUsed, LValue *Target) {
  LValue L = lvalue(UO->getSubExpr(), Out);
  if (Target)
    *Target = L;
  QualType T = UO->getSubExpr()->getType();
  Value Old = load(L, Out);
  bool Inc = UO->isIncrementOp();
  Value New;
  if (T->isPointerType()) {
    New = pointerAdd(Old, Value{makeConst(1, IntType{64, true}), {}},
                     T->getPointeeType(), !Inc);
  } else if (std::optional<IntType> IT = intTypeOf(T); IT && IT->Bits > 1) {
    New.E = binary(Inc ? Op::Add : Op::Sub, Old.E, makeConst(1, *IT), *IT);
    New.Ptr = Old.Ptr;
  } else {
    New.E = unknown(notIntegerReason(T), T);
  }
  if (UO->isPostfix() && ValueUsed && L.Kind == LValue::Slot) {
    // The old value must survive the update.
    int S = newSlot("tmp", K.Slots[L.SlotIdx].Type);
    assign(S, Old, UO, Out);
    Old.E = makeVar(S, K.Slots[L.SlotIdx].Type);
  }
  store(L, New, Out);
  return UO->isPostfix() ? Old : New;
}

Value BodyTranslator::construct(const CXXConstructExpr *CE, StmtList &Out) {
  const CXXConstructorDecl *Ctor = CE->getConstructor();
  QualType T = CE->getType();
  if (Ctor && Ctor->isCopyOrMoveConstructor() && CE->getNumArgs() >= 1 &&
      (Ctor->isTrivial() || SM.isInSystemHeader(Ctor->getLocation()))) {
    // A struct copy reads the whole source object (CUDA's __half2 and
    // __nv_bfloat162 have copy constructors of their own that do).
    LValue Src = lvalue(CE->getArg(0), Out);
    Src.Ty = T;
    load(Src, Out);
    return Value{unknown(notIntegerReason(T), T), {}};
  }
  for (const clang::Expr *A : CE->arguments())
    effects(A, Out);
  if (Ctor && !Ctor->isTrivial() && Ctor->hasBody() &&
      !SM.isInSystemHeader(Ctor->getLocation()))
    warn(CE, "constructor of '" + T.getAsString() +
                 "' is not inlined: memory it accesses is not counted");
  return Value{unknown(notIntegerReason(T), T), {}};
}

} // namespace gmem
