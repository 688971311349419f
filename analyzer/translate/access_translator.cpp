//===- access_translator.cpp - Objects, addresses and memory accesses -----===//
//
// An lvalue is translated to where its object lives: a slot, a register the
// model does not track, or global/shared memory at a byte address. Reading or
// writing a memory lvalue emits an Access; its address is built exactly as
// the device computes it (pointer + index * element size, + member offset).
//
//===----------------------------------------------------------------------===//
#include "body_translator.h"
#include "pointer_arith.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecordLayout.h"
#include "clang/Basic/SourceManager.h"

namespace gmem {

using namespace clang;

namespace {

bool isPow2Size(uint64_t S) {
  return S == 1 || S == 2 || S == 4 || S == 8 || S == 16;
}

const std::set<std::string> &loadIntrinsics() {
  static const std::set<std::string> S = {"__ldg",  "__ldcg", "__ldca",
                                          "__ldcs", "__ldlu", "__ldcv"};
  return S;
}

const std::set<std::string> &storeIntrinsics() {
  static const std::set<std::string> S = {"__stcg", "__stcs", "__stwb",
                                          "__stwt"};
  return S;
}

/// How ptxas compiles the shared atomic CE (atomic<Op>), as
/// executor/executed.cpp decides it from the PTX: an add of the literal 1
/// to a 32-bit integer whose result is unused is ATOMS.POPC.INC, a float
/// or 64-bit add a compare-and-swap loop.
SharedAtomicForm sharedAtomicForm(const CallExpr *CE, StringRef Op, bool Unused,
                                  const ASTContext &Ctx) {
  if (Op.starts_with("CAS"))
    return SharedAtomicForm::PerLanePair;
  if (Op != "Add" && !Op.starts_with("Add_"))
    return SharedAtomicForm::PerLane;
  // Floats, __half and __nv_bfloat16 (classes), 64-bit integers.
  const QualType T = CE->getType();
  if (T->isRealFloatingType() || T->isRecordType() ||
      (T->isIntegerType() && Ctx.getTypeSize(T) == 64))
    return SharedAtomicForm::SpinRound;
  const auto *One =
      dyn_cast<IntegerLiteral>(CE->getArg(1)->IgnoreParenImpCasts());
  return Unused && One && One->getValue() == 1 ? SharedAtomicForm::PerWord
                                               : SharedAtomicForm::PerLane;
}

bool isAtomicName(StringRef N) {
  static const char *Ops[] = {"Add", "Sub", "Exch", "Min", "Max", "Inc",
                              "Dec", "CAS", "And",  "Or",  "Xor"};
  if (!N.consume_front("atomic"))
    return false;
  for (const char *O : Ops)
    if (N == O || N == std::string(O) + "_block" ||
        N == std::string(O) + "_system")
      return true;
  return false;
}

/// cp.async's C++ forms: __pipeline_memcpy_async(dst, src, size) and
/// cuda::memcpy_async(dst, src, size, pipeline or barrier).
bool isAsyncCopy(const FunctionDecl *FD) {
  StringRef N = FD->getName();
  if (N == "__pipeline_memcpy_async")
    return true;
  if (N != "memcpy_async")
    return false;
  bool Cuda = false;
  for (const DeclContext *C = FD->getDeclContext(); C; C = C->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(C)) {
      if (NS->getName() == "cooperative_groups")
        return false; // A group-wide copy, split among the threads.
      Cuda = Cuda || NS->getName() == "cuda";
    }
  return Cuda;
}

/// The byte count of an async copy: a constant, or cuda::aligned_size_t<N>
/// made from one; 0 when it is neither.
uint64_t copySize(const clang::Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreImplicit()->IgnoreParenImpCasts();
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E))
    E = FC->getSubExpr()->IgnoreImplicit()->IgnoreParenImpCasts();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E);
      CE && CE->getNumArgs() >= 1)
    E = CE->getArg(0);
  clang::Expr::EvalResult R;
  if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
    return 0;
  return R.Val.getInt().getLimitedValue();
}

/// The object a pointer argument names, for messages: x[i] for &x[i].
const clang::Expr *pointee(const clang::Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    return UO->getSubExpr()->IgnoreParens();
  return E;
}

} // namespace

bool BodyTranslator::resultUnused(const clang::Expr *E) const {
  const clang::Stmt *Child = E;
  for (;;) {
    auto Ps = Ctx.getParents(*Child);
    if (Ps.size() != 1)
      return false;
    const clang::Stmt *P = Ps[0].get<clang::Stmt>();
    if (!P)
      return false;
    if (isa<ParenExpr, ExprWithCleanups, ImplicitCastExpr>(P) &&
        !(isa<ImplicitCastExpr>(P) &&
          cast<ImplicitCastExpr>(P)->getCastKind() == CK_LValueToRValue)) {
      Child = P;
      continue;
    }
    if (const auto *C = dyn_cast<CastExpr>(P))
      return C->getCastKind() == CK_ToVoid;
    if (const auto *BO = dyn_cast<BinaryOperator>(P))
      return BO->getOpcode() == BO_Comma && BO->getLHS() == Child;
    if (isa<CompoundStmt, AttributedStmt, LabelStmt, SwitchCase>(P))
      return true;
    if (const auto *I = dyn_cast<IfStmt>(P))
      return I->getCond() != Child;
    if (const auto *F = dyn_cast<ForStmt>(P))
      return F->getCond() != Child;
    if (const auto *W = dyn_cast<WhileStmt>(P))
      return W->getCond() != Child;
    if (const auto *D = dyn_cast<DoStmt>(P))
      return D->getCond() != Child;
    return false;
  }
}

Value BodyTranslator::pointerAdd(const Value &P, const Value &Index,
                                 QualType ElemTy, bool Sub) const {
  uint64_t Size = sizeOf(ElemTy);
  Value R = P;
  if (!Size) {
    R.E = makeUnknown("arithmetic on a pointer to an incomplete type", AddrT);
    return R;
  }
  // The index converts to 64 bits first (sign-extended when signed), then
  // scales: the device's address arithmetic. Where the exact value leaves
  // the address space C++ leaves it undefined: the nodes are marked so that
  // the simulator checks them, and a constant offset is checked here.
  const bool Signed = Index.E->Type.Signed;
  ExprPtr Off = castTo(Index.E, AddrT);
  if (Off->Kind == Op::Const) {
    __int128 I = Signed ? __int128(Off->Value) : __int128(uint64_t(Off->Value));
    __int128 Bytes = I * __int128(Size);
    if (Bytes < INT64_MIN || Bytes > INT64_MAX) {
      R.E = makeUnknown(PointerOverflowReason, AddrT,
                        UnknownCause::PointerOverflow);
      return R;
    }
    Off = makeConst(static_cast<int64_t>(Bytes), AddrT);
  } else if (Size != 1) {
    Off = makePointerArith(Op::Mul, Off,
                           makeConst(static_cast<int64_t>(Size), AddrT));
  }
  if (Off->Kind == Op::Const && Off->Value == 0)
    return R;
  if (P.E->Kind == Op::Const && Off->Kind == Op::Const) {
    uint64_t A = static_cast<uint64_t>(P.E->Value);
    uint64_t B = static_cast<uint64_t>(Off->Value);
    R.E = makeConst(static_cast<int64_t>(Sub ? A - B : A + B), AddrT);
    return R;
  }
  if (!Sub && P.E->Kind == Op::Const && P.E->Value == 0) {
    R.E = Off; // A shared array at offset 0.
    return R;
  }
  // Shared addresses are offsets in the block's window: one below it is out
  // of bounds (the simulator says so), not outside the address space.
  Op K = Sub ? Op::Sub : Op::Add;
  R.E = P.Ptr.Kind == PtrOrigin::Shared ? binary(K, P.E, Off, AddrT)
                                        : makePointerArith(K, P.E, Off);
  return R;
}

LValue BodyTranslator::deref(const Value &P, QualType Pointee,
                             const clang::Expr *Site) const {
  LValue L;
  L.Ty = Pointee;
  L.Site = Site;
  switch (P.Ptr.Kind) {
  case PtrOrigin::Local:
    L.Kind = LValue::Register;
    L.Reason = unmodelled("value of a local array element or local object");
    return L;
  case PtrOrigin::Constant:
    L.Kind = LValue::Constant;
    L.Reason = unmodelled("value read from __constant__ memory");
    return L;
  default:
    break;
  }
  L.Kind = LValue::Memory;
  L.Addr = P.E;
  L.Where = P.Ptr;
  if (L.Where.Kind == PtrOrigin::None) {
    L.Where.Kind = PtrOrigin::Unknown;
    L.Where.Reason = "cannot tell which memory the pointer points to";
  }
  return L;
}

Value BodyTranslator::addressOf(const LValue &L) const {
  PtrOrigin O;
  switch (L.Kind) {
  case LValue::Memory:
    return Value{L.Addr, L.Where};
  case LValue::Constant:
    O.Kind = PtrOrigin::Constant;
    return Value{makeUnknown("address in __constant__ memory", AddrT), O};
  default:
    O.Kind = PtrOrigin::Local;
    O.Array = L.Site ? textOf(L.Site) : "local";
    return Value{makeUnknown("address of a local variable", AddrT), O};
  }
}

LValue BodyTranslator::declRef(const DeclRefExpr *DRE) {
  return varRef(DRE->getDecl(), DRE);
}

LValue BodyTranslator::varRef(const ValueDecl *D, const clang::Expr *Site) {
  const clang::Expr *DRE = Site;
  LValue L;
  L.Site = Site;
  L.Ty = Site->getType();
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD) {
    L.Reason = unmodelled("value of '" + D->getNameAsString() + "'");
    return L;
  }
  std::string Name = VD->getNameAsString();
  // Normally the innermost frame's variable; a lambda's captures belong to
  // the enclosing function's frame (read at the time of the call).
  size_t FI = Frames.size() - 1;
  if (VD->hasLocalStorage() && VD->getDeclContext() != Frames[FI].FD)
    for (size_t I = Frames.size(); I-- > 0;)
      if (Frames[I].FD == VD->getDeclContext()) {
        FI = I;
        break;
      }
  Frame &F = Frames[FI];
  if (auto It = F.Refs.find(VD); It != F.Refs.end()) {
    LValue R = It->second;
    R.Site = DRE;
    return R;
  }
  if (auto It = F.Slots.find(VD); It != F.Slots.end()) {
    L.Kind = LValue::Slot;
    L.SlotIdx = It->second;
    return L;
  }
  if (const auto *P = dyn_cast<ParmVarDecl>(VD);
      P && FI == 0 && P->getDeclContext() == F.FD && intTypeOf(P->getType())) {
    L.Kind = LValue::ParamRef;
    L.ParamIdx = static_cast<int>(P->getFunctionScopeIndex());
    return L;
  }
  if (VD->hasAttr<CUDASharedAttr>()) {
    auto It = SharedIdx.find(VD);
    if (It == SharedIdx.end()) {
      L.Reason = unmodelled("__shared__ variable '" + Name +
                            "' missing from the layout");
      warn(DRE, L.Reason.Text);
      return L;
    }
    const SharedArray &SA = K.Shared[It->second];
    L.Kind = LValue::Memory;
    L.Addr = makeConst(static_cast<int64_t>(SA.Offset), AddrT);
    L.Where.Kind = PtrOrigin::Shared;
    L.Where.Array = SA.Name;
    L.Where.SharedIdx = It->second;
    return L;
  }
  if (VD->hasAttr<CUDAConstantAttr>()) {
    L.Kind = LValue::Constant;
    L.Reason =
        unmodelled("value read from __constant__ variable '" + Name + "'");
    return L;
  }
  if (VD->hasLocalStorage()) {
    if (intTypeOf(VD->getType()) && !VD->getType()->isReferenceType()) {
      L.Kind = LValue::Slot;
      L.SlotIdx = slotFor(VD, FI);
      return L;
    }
    auto Loaded = F.LoadedFrom.find(VD);
    L.Reason = VD->getType()->isRealFloatingType()
                   ? unmodelled("floating-point value")
               : Loaded != F.LoadedFrom.end()
                   ? Loaded->second
                   : unmodelled("value of local variable '" + Name + "'");
    return L;
  }
  if (VD->hasAttr<CUDADeviceAttr>() || VD->isStaticLocal()) {
    // Global memory, but at an address the model cannot name.
    L.Kind = LValue::Memory;
    L.Addr = makeUnknown(
        "address of __device__ variable '" + Name + "' is not modelled", AddrT);
    L.Where.Kind = PtrOrigin::Global;
    L.Where.Array = Name;
    return L;
  }
  L.Reason = unmodelled("value of global variable '" + Name + "'");
  return L;
}

LValue BodyTranslator::lvalue(const clang::Expr *E, StmtList &Out) {
  LValue L;
  L.Site = E;
  L.Ty = E->getType();
  switch (E->getStmtClass()) {
  case clang::Stmt::ParenExprClass:
    return lvalue(cast<ParenExpr>(E)->getSubExpr(), Out);
  case clang::Stmt::DeclRefExprClass:
    return declRef(cast<DeclRefExpr>(E));
  case clang::Stmt::ArraySubscriptExprClass: {
    const auto *ASE = cast<ArraySubscriptExpr>(E);
    if (!ASE->getBase()->getType()->isPointerType())
      break; // Vector element.
    Value B = rvalue(ASE->getBase(), Out);
    size_t Pos = Out.size();
    Value I = rvalue(ASE->getIdx(), Out);
    protect(B, Out, Pos);
    return deref(pointerAdd(B, I, E->getType()), E->getType(), E);
  }
  case clang::Stmt::UnaryOperatorClass: {
    const auto *UO = cast<UnaryOperator>(E);
    if (UO->getOpcode() == UO_Deref) {
      Value P = rvalue(UO->getSubExpr(), Out);
      return deref(P, E->getType(), E);
    }
    if (UO->getOpcode() == UO_PreInc || UO->getOpcode() == UO_PreDec) {
      LValue T;
      incDec(UO, Out, /*ValueUsed=*/false, &T);
      return T;
    }
    if (UO->getOpcode() == UO_Extension)
      return lvalue(UO->getSubExpr(), Out);
    break;
  }
  case clang::Stmt::MemberExprClass: {
    const auto *ME = cast<MemberExpr>(E);
    // block.group_index().x & co.: built-ins.
    if (std::optional<int> B = groupDim3(ME->getBase())) {
      StringRef F = ME->getMemberDecl()->getName();
      int Off = F == "x" ? 0 : F == "y" ? 1 : F == "z" ? 2 : -1;
      if (Off >= 0 && !ME->isArrow()) {
        L.Kind = LValue::Computed;
        L.Val = Value{castTo(makeBuiltin(static_cast<Builtin>(*B + Off)),
                             *intTypeOf(E->getType())),
                      {}};
        return L;
      }
    }
    LValue Base;
    if (ME->isArrow()) {
      Value P = rvalue(ME->getBase(), Out);
      Base = deref(P, ME->getBase()->getType()->getPointeeType(), E);
    } else {
      Base = lvalue(ME->getBase(), Out);
    }
    if (const auto *VD = dyn_cast<VarDecl>(ME->getMemberDecl()))
      return varRef(VD, E); // A static data member.
    const auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD) {
      L.Reason = unmodelled("member function");
      return L;
    }
    if (Base.Kind != LValue::Memory) {
      L.Kind =
          Base.Kind == LValue::Constant ? LValue::Constant : LValue::Register;
      // A copy of an object in memory keeps which load it was.
      L.Reason = Base.Kind == LValue::Constant ? Base.Reason
                 : E->getType()->isRealFloatingType()
                     ? unmodelled("floating-point value")
                 : Base.Reason.Cause == UnknownCause::LoadedData
                     ? Base.Reason
                     : unmodelled("member of a local object");
      return L;
    }
    if (FD->isBitField()) {
      warn(E, "bit-field '" + textOf(E) +
                  "' is not modelled: its access is not counted");
      L.Reason = unmodelled("bit-field value");
      return L;
    }
    L = Base;
    L.Site = E;
    L.Ty = E->getType();
    int64_t Off = Ctx.getFieldOffset(FD) / Ctx.getCharWidth();
    L.Addr = pointerAdd(Value{Base.Addr, Base.Where},
                        Value{makeConst(Off, AddrT), {}}, Ctx.CharTy)
                 .E;
    return L;
  }
  case clang::Stmt::ImplicitCastExprClass:
  case clang::Stmt::CStyleCastExprClass:
  case clang::Stmt::CXXStaticCastExprClass:
  case clang::Stmt::CXXReinterpretCastExprClass:
  case clang::Stmt::CXXConstCastExprClass:
  case clang::Stmt::CXXFunctionalCastExprClass:
  case clang::Stmt::CXXAddrspaceCastExprClass: {
    const auto *CE = cast<CastExpr>(E);
    switch (CE->getCastKind()) {
    case CK_NoOp:
    case CK_LValueBitCast:
    case CK_AddressSpaceConversion:
    case CK_LValueToRValueBitCast: {
      LValue S = lvalue(CE->getSubExpr(), Out);
      S.Ty = E->getType();
      if (!isa<ImplicitCastExpr>(E))
        S.Site = E;
      return S;
    }
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase: {
      LValue S = lvalue(CE->getSubExpr(), Out);
      S.Ty = E->getType();
      if (S.Kind != LValue::Memory)
        return S;
      const CXXRecordDecl *RD =
          CE->getSubExpr()->getType()->getAsCXXRecordDecl();
      for (const CXXBaseSpecifier *B : CE->path()) {
        const CXXRecordDecl *BaseRD = B->getType()->getAsCXXRecordDecl();
        if (!RD || !BaseRD || B->isVirtual()) {
          S.Addr = makeUnknown("virtual base class", AddrT);
          return S;
        }
        int64_t Off =
            Ctx.getASTRecordLayout(RD).getBaseClassOffset(BaseRD).getQuantity();
        S.Addr = pointerAdd(Value{S.Addr, S.Where},
                            Value{makeConst(Off, AddrT), {}}, Ctx.CharTy)
                     .E;
        RD = BaseRD;
      }
      return S;
    }
    default:
      break;
    }
    break;
  }
  case clang::Stmt::BinaryOperatorClass:
  case clang::Stmt::CompoundAssignOperatorClass: {
    const auto *BO = cast<BinaryOperator>(E);
    if (BO->isAssignmentOp()) {
      LValue T;
      assignOp(BO, Out, &T);
      return T;
    }
    if (BO->getOpcode() == BO_Comma) {
      effects(BO->getLHS(), Out);
      return lvalue(BO->getRHS(), Out);
    }
    break;
  }
  case clang::Stmt::ConditionalOperatorClass: {
    // (c ? a : b) named as an object, e.g. &(c ? x[i] : y[i]).
    const auto *CO = cast<ConditionalOperator>(E);
    ExprPtr C = condition(CO->getCond(), Out);
    StmtList TS, FS;
    LValue T = lvalue(CO->getTrueExpr(), TS);
    LValue F = lvalue(CO->getFalseExpr(), FS);
    if (T.Kind == LValue::Memory && F.Kind == LValue::Memory && TS.empty() &&
        FS.empty()) {
      T.Addr = makeSelect(C, T.Addr, F.Addr, AddrT);
      T.Where = PtrOrigin::merge(T.Where, F.Where);
      T.Site = E;
      return T;
    }
    gmem::Stmt If;
    If.Kind = StmtKind::If;
    If.Loc = locOf(E);
    If.Cond = C;
    If.Then = std::move(TS);
    If.Else = std::move(FS);
    Out.push_back(std::move(If));
    warn(E, "conditional object '" + textOf(E) + "' is not modelled");
    L.Reason = unmodelled("conditional object");
    return L;
  }
  case clang::Stmt::CallExprClass:
  case clang::Stmt::CXXMemberCallExprClass:
  case clang::Stmt::CXXOperatorCallExprClass: {
    LValue R;
    R.Site = E;
    R.Ty = E->getType();
    R.Reason = unmodelled("object returned by a call");
    call(cast<CallExpr>(E), Out, &R);
    return R;
  }
  case clang::Stmt::MaterializeTemporaryExprClass: {
    Value V = rvalue(cast<MaterializeTemporaryExpr>(E)->getSubExpr(), Out);
    if (intTypeOf(E->getType())) {
      L.Kind = LValue::Computed;
      L.Val = V;
      return L;
    }
    L.Reason =
        unmodelled(E->getType()->isRealFloatingType() ? "floating-point value"
                                                      : "temporary object");
    return L;
  }
  case clang::Stmt::CXXBindTemporaryExprClass:
    return lvalue(cast<CXXBindTemporaryExpr>(E)->getSubExpr(), Out);
  case clang::Stmt::ExprWithCleanupsClass:
  case clang::Stmt::ConstantExprClass:
    return lvalue(cast<FullExpr>(E)->getSubExpr(), Out);
  case clang::Stmt::OpaqueValueExprClass:
    if (const clang::Expr *Src = cast<OpaqueValueExpr>(E)->getSourceExpr())
      return lvalue(Src, Out);
    break;
  case clang::Stmt::PseudoObjectExprClass:
    return lvalue(cast<PseudoObjectExpr>(E)->getResultExpr(), Out);
  case clang::Stmt::SubstNonTypeTemplateParmExprClass:
    return lvalue(cast<SubstNonTypeTemplateParmExpr>(E)->getReplacement(), Out);
  case clang::Stmt::StringLiteralClass:
  case clang::Stmt::PredefinedExprClass:
    L.Reason = unmodelled("string literal");
    return L;
  case clang::Stmt::CompoundLiteralExprClass:
    effects(cast<CompoundLiteralExpr>(E)->getInitializer(), Out);
    L.Reason = unmodelled("compound literal");
    return L;
  default:
    break;
  }
  for (const clang::Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<clang::Expr>(Child))
      effects(CE, Out);
  warn(E, std::string("object named by an expression of kind ") +
              E->getStmtClassName() + " is not modelled");
  L.Reason = unmodelled("object not modelled");
  return L;
}

static bool readsSlots(const ExprPtr &E) {
  if (!E)
    return false;
  if (E->Kind == Op::Var)
    return true;
  for (const ExprPtr &O : E->Ops)
    if (readsSlots(O))
      return true;
  return false;
}

LValue BodyTranslator::pin(const LValue &L, StmtList &Out) {
  LValue P = L;
  if (L.Kind == LValue::Memory && readsSlots(L.Addr)) {
    int S = newSlot("ref", AddrT);
    assign(S, Value{L.Addr, L.Where}, L.Site, Out);
    P.Addr = makeVar(S, AddrT);
  } else if (L.Kind == LValue::Computed && readsSlots(L.Val.E)) {
    int S = newSlot("ref", L.Val.E->Type);
    assign(S, L.Val, L.Site, Out);
    P.Val.E = makeVar(S, L.Val.E->Type);
  }
  return P;
}

Why BodyTranslator::loadedReason(const LValue &L) const {
  return {UnknownCause::LoadedData, "depends on data loaded by " +
                                        textOf(L.Site) + " at " +
                                        where(L.Site)};
}

Value BodyTranslator::load(const LValue &L, StmtList &Out) {
  QualType T = L.Ty.isNull() ? Ctx.IntTy : L.Ty.getNonReferenceType();
  std::optional<IntType> IT = intTypeOf(T);
  switch (L.Kind) {
  case LValue::Slot:
    return Value{makeVar(L.SlotIdx, K.Slots[L.SlotIdx].Type),
                 SlotOrigin[L.SlotIdx]};
  case LValue::ParamRef: {
    const Param &P = K.Params[L.ParamIdx];
    Value V{makeParam(L.ParamIdx, P.Type), {}};
    if (P.Kind == ParamKind::Pointer) {
      V.Ptr.Kind = PtrOrigin::Global;
      V.Ptr.Array = P.Name;
    }
    return V;
  }
  case LValue::Computed:
    return L.Val;
  case LValue::Memory: {
    accessObject(AccessKind::Load, L, Out);
    Value V{
        unknown(IT ? loadedReason(L) : unmodelled("floating-point value"), T),
        {}};
    // An integer or pointer from global memory keeps its address: a
    // recorded launch may know the bytes there (host-built indices).
    if (IT && L.Addr && L.Where.Kind == PtrOrigin::Global)
      V.E = makeLoaded(loadedReason(L).Text, L.Addr, *IT, T->isPointerType());
    if (!IT && !T->isRealFloatingType())
      V.E = unknown("value of a struct", T);
    if (T->isPointerType()) {
      V.Ptr.Kind = PtrOrigin::Global;
      V.Ptr.Array = textOf(L.Site);
    }
    return V;
  }
  case LValue::Register:
  case LValue::Constant: {
    const Why W = T->isRealFloatingType() ? unmodelled("floating-point value")
                  : L.Reason.empty() ? unmodelled("value of a local object")
                                     : L.Reason;
    Value V{unknown(W, T), {}};
    if (T->isPointerType()) {
      V.Ptr.Kind = PtrOrigin::Unknown;
      V.Ptr.Reason =
          "pointer read from a " + std::string(L.Kind == LValue::Constant
                                                   ? "__constant__ variable"
                                                   : "local object");
    }
    return V;
  }
  }
  return Value{makeUnknown("value not modelled"), {}};
}

void BodyTranslator::store(const LValue &L, const Value &V, StmtList &Out) {
  switch (L.Kind) {
  case LValue::Slot:
    assign(L.SlotIdx, V, L.Site, Out);
    return;
  case LValue::Memory:
    accessObject(AccessKind::Store, L, Out);
    return;
  case LValue::ParamRef:
    // The pre-pass gives every assigned parameter a slot; reaching here
    // means a write it did not foresee.
    warn(L.Site, "write to parameter '" + textOf(L.Site) + "' is not modelled");
    return;
  default:
    return;
  }
}

void BodyTranslator::accessObject(AccessKind Kind, const LValue &L,
                                  StmtList &Out) {
  QualType T = L.Ty.isNull() ? Ctx.IntTy : L.Ty.getNonReferenceType();
  uint64_t Size = sizeOf(T);
  uint64_t Align =
      T->isIncompleteType() ? 0 : Ctx.getTypeAlignInChars(T).getQuantity();
  if (!Size) {
    addAccess(
        Kind, L, 4,
        makeUnknown("size of '" + T.getAsString() + "' is unknown", AddrT),
        Out);
    return;
  }
  // Scalars and aligned vector types (float2, float4, double2, ...) move in
  // one instruction; other objects in pieces of their alignment.
  if (isPow2Size(Size) && (Align >= Size || T->isScalarType())) {
    addAccess(Kind, L, static_cast<unsigned>(Size), L.Addr, Out);
    return;
  }
  uint64_t Piece = std::min<uint64_t>(std::max<uint64_t>(Align, 1), 16);
  while (!isPow2Size(Piece) || Size % Piece)
    Piece /= 2;
  for (uint64_t Off = 0; Off < Size; Off += Piece)
    addAccess(Kind, L, static_cast<unsigned>(Piece),
              pointerAdd(Value{L.Addr, L.Where},
                         Value{makeConst(static_cast<int64_t>(Off), AddrT), {}},
                         Ctx.CharTy)
                  .E,
              Out);
}

int BodyTranslator::addAccess(AccessKind Kind, const LValue &L, unsigned Size,
                              ExprPtr Addr, StmtList &Out) {
  Access A;
  A.Id = static_cast<int>(K.Accesses.size());
  A.Kind = Kind;
  A.Size = Size;
  A.Address = Addr ? Addr : makeUnknown("no address", AddrT);
  A.Loc = locOf(L.Site);
  A.Text = textOf(L.Site);
  A.Array = L.Where.Array;
  if (L.Where.Kind == PtrOrigin::Shared) {
    // -1 when the pointer may point into several arrays: the address (their
    // offsets) is still exact, only the bounds check needs one array.
    A.Sp = Space::Shared;
    A.SharedArray = L.Where.SharedIdx;
  } else {
    A.Sp = Space::Global;
  }
  Why Reason;
  if (hasUnknown(A.Address, &Reason)) {
    A.UnknownReason = Reason.Text;
    A.ReasonCause = Reason.Cause;
  } else if (L.Where.Kind == PtrOrigin::Unknown)
    A.UnknownReason = L.Where.Reason.empty()
                          ? "cannot tell which memory the pointer points to"
                          : L.Where.Reason;
  A.DataDependent = A.UnknownReason && L.Where.Kind != PtrOrigin::Unknown &&
                    !inGotoFunction() &&
                    A.ReasonCause == UnknownCause::LoadedData;
  if (A.UnknownReason)
    warn(L.Site,
         "address of '" + A.Text + "' is not modelled: " + *A.UnknownReason);
  else if (inGotoFunction())
    // The goto's warning already names the function.
    A.UnknownReason = "the function uses goto, which the model does not follow";
  gmem::Stmt S;
  S.Kind = StmtKind::Access;
  S.Loc = A.Loc;
  S.AccessId = A.Id;
  K.Accesses.push_back(std::move(A));
  Out.push_back(std::move(S));
  return static_cast<int>(K.Accesses.size()) - 1;
}

std::optional<Value> BodyTranslator::memoryIntrinsic(const CallExpr *CE,
                                                     const FunctionDecl *FD,
                                                     StmtList &Out) {
  if (!FD->getIdentifier() || CE->getNumArgs() == 0)
    return std::nullopt;
  std::string Name = FD->getName().str();
  QualType PT = CE->getArg(0)->getType();
  if (!PT->isPointerType())
    return std::nullopt;
  QualType Pointee = PT->getPointeeType();
  if (loadIntrinsics().count(Name) && CE->getNumArgs() == 1) {
    Value P = rvalue(CE->getArg(0), Out);
    return load(deref(P, Pointee, CE), Out);
  }
  if (storeIntrinsics().count(Name) && CE->getNumArgs() == 2) {
    Value P = rvalue(CE->getArg(0), Out);
    size_t Pos = Out.size();
    Value V = rvalue(CE->getArg(1), Out);
    protect(P, Out, Pos);
    store(deref(P, Pointee, CE), V, Out);
    return Value{makeUnknown("no value"), {}};
  }
  if (isAsyncCopy(FD) && CE->getNumArgs() >= 3) {
    // One LDGSTS per thread when the size is one access wide: a global load
    // and a shared store, each naming the other. Anything else stays an
    // unknown call (and its instructions unclaimed in the SASS).
    uint64_t Bytes = copySize(CE->getArg(2), Ctx);
    QualType DT = CE->getArg(1)->getType();
    if (Bytes == 4 || Bytes == 8 || Bytes == 16) {
      Value Dst = rvalue(CE->getArg(0), Out);
      size_t Pos = Out.size();
      Value Src = rvalue(CE->getArg(1), Out);
      protect(Dst, Out, Pos);
      for (unsigned I = 2; I < CE->getNumArgs(); ++I)
        effects(CE->getArg(I), Out);
      if (Dst.Ptr.Kind == PtrOrigin::Shared) {
        LValue G = deref(Src, Ctx.CharTy, pointee(CE->getArg(1)));
        LValue S = deref(Dst, Ctx.CharTy, pointee(CE->getArg(0)));
        if (G.Kind == LValue::Memory && S.Kind == LValue::Memory &&
            G.Where.Kind != PtrOrigin::Shared) {
          int L = addAccess(AccessKind::Load, G, unsigned(Bytes), G.Addr, Out);
          int T = addAccess(AccessKind::Store, S, unsigned(Bytes), S.Addr, Out);
          // Both at the call, where the line table puts the instruction.
          for (int Id : {L, T})
            K.Accesses[Id].Loc = locOf(CE);
          K.Accesses[L].AsyncPartner = T;
          K.Accesses[T].AsyncPartner = L;
          return Value{makeUnknown("no value"), {}};
        }
      }
      warn(CE, "async copy '" + textOf(CE) +
                   "' is not modelled: its destination is not a known "
                   "__shared__ array or its source is not global memory");
      return Value{makeUnknown("no value"), {}};
    }
    (void)DT;
  }
  if (isAtomicName(Name) && CE->getNumArgs() >= 2) {
    Value P = rvalue(CE->getArg(0), Out);
    size_t Pos = Out.size();
    for (unsigned I = 1; I < CE->getNumArgs(); ++I)
      rvalue(CE->getArg(I), Out);
    protect(P, Out, Pos);
    LValue L = deref(P, Pointee, CE);
    if (L.Kind == LValue::Memory) {
      size_t First = K.Accesses.size();
      accessObject(AccessKind::Atomic, L, Out);
      // nvcc emits a reduction (RED) when the old value is not used and
      // the operation has one (exchange and compare-and-swap have none);
      // the SASS, when read, has the last word (analyzer/compiled).
      StringRef Op = StringRef(Name).drop_front(6); // After "atomic".
      const bool Unused =
          resultUnused(CE) && !Op.starts_with("Exch") && !Op.starts_with("CAS");
      const SharedAtomicForm Form = sharedAtomicForm(CE, Op, Unused, Ctx);
      for (size_t I = First; I < K.Accesses.size(); ++I) {
        Access &A = K.Accesses[I];
        A.Reduction = Unused;
        if (A.Sp != Space::Shared)
          continue;
        A.SharedAtomic = Form;
        if (Form == SharedAtomicForm::SpinRound)
          markSpinLoop(A);
      }
    }
    return Value{unknown("value returned by " + Name + " at " + where(CE),
                         CE->getType()),
                 {}};
  }
  return std::nullopt;
}

} // namespace gmem
