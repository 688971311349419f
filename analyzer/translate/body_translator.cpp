//===- body_translator.cpp - Shared state of the body translator ----------===//
//
// Types, slots, snapshots against reordering, source locations and warnings.
//
//===----------------------------------------------------------------------===//
#include "body_translator.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace gmem {

using namespace clang;

PtrOrigin PtrOrigin::merge(const PtrOrigin &A, const PtrOrigin &B) {
  if (A.Kind == None)
    return B;
  if (B.Kind == None)
    return A;
  if (A.Kind != B.Kind) {
    PtrOrigin U;
    U.Kind = Unknown;
    U.Array = A.Array + "|" + B.Array;
    U.Reason = "the pointer may point to " + A.Array + " or to " + B.Array +
               ", in different memory spaces";
    return U;
  }
  PtrOrigin M = A;
  if (A.Array != B.Array) {
    M.Array = A.Array + "|" + B.Array;
    if (A.Kind == Shared)
      M.SharedIdx = -1;
  }
  return M;
}

namespace {

/// Finds kernel parameters that the body assigns, so that they get slots.
class ParamWriteFinder : public RecursiveASTVisitor<ParamWriteFinder> {
public:
  std::set<const ParmVarDecl *> &Out;
  explicit ParamWriteFinder(std::set<const ParmVarDecl *> &Out) : Out(Out) {}

  void note(const clang::Expr *E) {
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
      if (const auto *P = dyn_cast<ParmVarDecl>(DRE->getDecl()))
        Out.insert(P);
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      note(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      note(UO->getSubExpr());
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    // Binding to a non-const reference parameter may write it.
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return true;
    unsigned Shift = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD);
    for (unsigned I = Shift; I < CE->getNumArgs(); ++I) {
      unsigned PI = I - Shift;
      if (PI >= FD->getNumParams())
        break;
      QualType T = FD->getParamDecl(PI)->getType();
      if (T->isReferenceType() && !T->getPointeeType().isConstQualified())
        note(CE->getArg(I));
    }
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) {
    if (VD->getType()->isReferenceType() &&
        !VD->getType()->getPointeeType().isConstQualified() && VD->getInit())
      note(VD->getInit());
    return true;
  }
};

} // namespace

BodyTranslator::BodyTranslator(ASTContext &Ctx, Kernel &K,
                               const std::map<const VarDecl *, int> &SharedIdx)
    : Ctx(Ctx), SM(Ctx.getSourceManager()), K(K), SharedIdx(SharedIdx) {}

void BodyTranslator::translateKernel(const FunctionDecl *FD) {
  Frames.clear();
  Frames.emplace_back();
  Frames.back().FD = FD;
  Frames.back().UsesGoto = containsGoto(FD->getBody());
  RefusedFrom = 0;
  ParamWriteFinder Finder(ModifiedParams);
  Finder.TraverseStmt(const_cast<clang::Stmt *>(FD->getBody()));
  // A parameter the body changes lives in a slot that starts at its value.
  for (unsigned I = 0; I < FD->getNumParams(); ++I) {
    const ParmVarDecl *P = FD->getParamDecl(I);
    std::optional<IntType> T = intTypeOf(P->getType());
    if (!T || !ModifiedParams.count(P))
      continue;
    int S = newSlot(K.Params[I].Name, *T);
    Frames.back().Slots[P] = S;
    Value V{makeParam(static_cast<int>(I), *T), {}};
    if (P->getType()->isPointerType()) {
      V.Ptr.Kind = PtrOrigin::Global;
      V.Ptr.Array = K.Params[I].Name;
    }
    assign(S, V, nullptr, K.Body);
    K.Body.back().Loc = locOf(P->getLocation());
  }
  stmt(FD->getBody(), K.Body);
  markNeverComputable();
}

namespace {

void collectAssigns(const StmtList &L,
                    std::vector<std::vector<const Expr *>> &Out) {
  for (const gmem::Stmt &S : L) {
    if (S.Kind == StmtKind::Assign && S.Slot >= 0 &&
        S.Slot < static_cast<int>(Out.size()))
      Out[S.Slot].push_back(S.Value.get());
    for (const StmtList *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      collectAssigns(*Sub, Out);
  }
}

/// Is E unknown whatever the lanes' values, given the slots in Never? Sets
/// Why to a reason when one is known.
bool neverComputable(const Expr &E, const std::vector<bool> &Never,
                     const std::vector<Why> &Reasons, Why &Why) {
  switch (E.Kind) {
  case Op::Unknown:
    Why = {E.Cause, E.Reason};
    return true;
  case Op::Var:
    if (E.Index < 0 || E.Index >= static_cast<int>(Never.size()) ||
        !Never[E.Index])
      return false;
    Why = Reasons[E.Index];
    return true;
  case Op::Const:
  case Op::Param:
  case Op::Builtin:
    return false;
  case Op::Select:
    if (neverComputable(*E.Ops[0], Never, Reasons, Why))
      return true;
    return neverComputable(*E.Ops[1], Never, Reasons, Why) &&
           neverComputable(*E.Ops[2], Never, Reasons, Why);
  case Op::LAnd:
  case Op::LOr:
    // The known side may decide them.
    return neverComputable(*E.Ops[0], Never, Reasons, Why) &&
           neverComputable(*E.Ops[1], Never, Reasons, Why);
  default:
    for (const ExprPtr &O : E.Ops)
      if (neverComputable(*O, Never, Reasons, Why))
        return true;
    return false;
  }
}

} // namespace

void BodyTranslator::markNeverComputable() {
  size_t N = K.Slots.size();
  std::vector<std::vector<const Expr *>> Assigns(N);
  collectAssigns(K.Body, Assigns);
  // Greatest fixed point: a slot is never computable when every value
  // assigned to it is never computable (j = idx[i]; j = j + 1; ...).
  std::vector<bool> Never(N);
  std::vector<Why> Reasons(N);
  for (size_t S = 0; S < N; ++S)
    Never[S] = !Assigns[S].empty();
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t S = 0; S < N; ++S) {
      if (!Never[S])
        continue;
      for (const Expr *V : Assigns[S]) {
        Why Why;
        if (!neverComputable(*V, Never, Reasons, Why)) {
          Never[S] = false;
          Changed = true;
          break;
        }
        if (Reasons[S].empty() && !Why.empty()) {
          Reasons[S] = Why;
          Changed = true;
        }
      }
    }
  }
  for (Access &A : K.Accesses) {
    Why Why;
    if (A.UnknownReason || !neverComputable(*A.Address, Never, Reasons, Why))
      continue;
    A.UnknownReason = Why.empty() ? "its value is never computable" : Why.Text;
    A.ReasonCause = Why.Cause;
    A.DataDependent = Why.Cause == UnknownCause::LoadedData;
    std::string W = A.Loc.File + ":" + std::to_string(A.Loc.Line) +
                    ": address of '" + A.Text +
                    "' is not modelled: " + *A.UnknownReason;
    if (WarningSet.insert(W).second)
      K.Warnings.push_back(W);
  }
}

// ---- Types and values.

std::optional<IntType> BodyTranslator::intTypeOf(QualType T) const {
  if (T.isNull())
    return std::nullopt;
  T = T.getCanonicalType();
  if (T->isReferenceType())
    T = T->getPointeeType().getCanonicalType();
  if (T->isBooleanType())
    return IntType{1, false};
  if (T->isPointerType() || T->isNullPtrType())
    return IntType{64, false};
  if (!T->isIntegralOrEnumerationType())
    return std::nullopt;
  if (const auto *ET = T->getAs<EnumType>())
    if (!ET->getDecl()->isComplete())
      return std::nullopt;
  uint64_t Bits = Ctx.getIntWidth(T);
  if (Bits != 8 && Bits != 16 && Bits != 32 && Bits != 64)
    return std::nullopt;
  return IntType{static_cast<uint8_t>(Bits),
                 T->isSignedIntegerOrEnumerationType()};
}

ExprPtr BodyTranslator::unknown(const std::string &Reason, QualType T) const {
  return unknown(unmodelled(Reason), T);
}

ExprPtr BodyTranslator::unknown(const Why &W, QualType T) const {
  return makeUnknown(W, intTypeOf(T).value_or(IntType{}));
}

bool BodyTranslator::hasUnknown(const ExprPtr &E, Why *Reason) {
  if (!E)
    return false;
  if (E->Kind == Op::Unknown) {
    if (Reason)
      *Reason = {E->Cause, E->Reason};
    return true;
  }
  for (const ExprPtr &O : E->Ops)
    if (hasUnknown(O, Reason))
      return true;
  return false;
}

ExprPtr BodyTranslator::castTo(ExprPtr E, IntType T) const {
  if (E->Type == T)
    return E;
  if (T.Bits == 1) // Conversion to bool is a test against zero, not a cut.
    return toBool(E);
  if (E->Kind == Op::Const) {
    // Constants convert at once: truncate, then extend per T.
    return makeConst(normalize(uint64_t(E->Value), T), T);
  }
  return makeCast(E, T);
}

ExprPtr BodyTranslator::binary(Op K, ExprPtr L, ExprPtr R, IntType T) const {
  // Arithmetic keeps unknown operands in place: the simulator still proves
  // a range for the result (`idx[i] & 15` lies in [0, 15]). A comparison
  // with an unknown operand is simply unknown.
  bool Compare = K == Op::Lt || K == Op::Le || K == Op::Gt || K == Op::Ge ||
                 K == Op::Eq || K == Op::Ne;
  // A loaded value stays: a recorded launch may know it.
  auto Plain = [](const ExprPtr &E) {
    return E->Kind == Op::Unknown && E->Ops.empty();
  };
  if (Compare && (Plain(L) || Plain(R)))
    return makeUnknown((Plain(L) ? L : R)->Reason, T,
                       (Plain(L) ? L : R)->Cause);
  return makeBinary(K, L, R, T);
}

ExprPtr BodyTranslator::unary(Op K, ExprPtr E, IntType T) const {
  return makeUnary(K, E, T);
}

ExprPtr BodyTranslator::toBool(ExprPtr E) const {
  const IntType Bool{1, false};
  if (E->Type == Bool)
    return E;
  if (E->Kind == Op::Unknown && E->Ops.empty())
    return makeUnknown(E->Reason, Bool, E->Cause);
  if (E->Kind == Op::Const)
    return makeConst(E->Value != 0, Bool);
  return makeBinary(Op::Ne, E, makeConst(0, E->Type), Bool);
}

uint64_t BodyTranslator::sizeOf(QualType T) const {
  if (T.isNull() || T->isIncompleteType() || T->isDependentType() ||
      T->isVariablyModifiedType())
    return 0;
  if (T->isVoidType() || T->isFunctionType())
    return 1; // GNU arithmetic on void* and function pointers.
  return Ctx.getTypeSizeInChars(T).getQuantity();
}

// ---- Slots.

int BodyTranslator::newSlot(const std::string &Name, IntType T) {
  // Shadowed and re-declared names get ".2", ".3", ...: '.' cannot occur in
  // a C++ name, so these never collide with a source name.
  std::string Unique = Name;
  for (int N = 2; !SlotNames.insert(Unique).second; ++N)
    Unique = Name + "." + std::to_string(N);
  K.Slots.push_back(Slot{Unique, T});
  SlotOrigin.emplace_back();
  return static_cast<int>(K.Slots.size()) - 1;
}

void BodyTranslator::assign(int SlotIdx, const Value &V,
                            const clang::Stmt *Where, StmtList &Out) {
  gmem::Stmt S;
  S.Kind = StmtKind::Assign;
  S.Slot = SlotIdx;
  S.Value = castTo(V.E, K.Slots[SlotIdx].Type);
  if (Where)
    S.Loc = locOf(Where);
  // The slot's origin is what any of its assignments gives it.
  PtrOrigin &O = SlotOrigin[SlotIdx];
  O = O.Kind == PtrOrigin::None ? V.Ptr : PtrOrigin::merge(O, V.Ptr);
  Out.push_back(std::move(S));
}

namespace {

void slotsRead(const ExprPtr &E, std::set<int> &Out) {
  if (!E)
    return;
  if (E->Kind == Op::Var)
    Out.insert(E->Index);
  for (const ExprPtr &O : E->Ops)
    slotsRead(O, Out);
}

bool writesAny(const StmtList &L, size_t From, const std::set<int> &Slots) {
  for (size_t I = From; I < L.size(); ++I) {
    const gmem::Stmt &S = L[I];
    if (S.Kind == StmtKind::Assign && Slots.count(S.Slot))
      return true;
    if (writesAny(S.Then, 0, Slots) || writesAny(S.Else, 0, Slots) ||
        writesAny(S.CondPre, 0, Slots) || writesAny(S.Body, 0, Slots) ||
        writesAny(S.Step, 0, Slots))
      return true;
  }
  return false;
}

} // namespace

void BodyTranslator::protect(Value &V, StmtList &Out, size_t Pos) {
  if (Pos >= Out.size() || !V.E)
    return;
  std::set<int> Read;
  slotsRead(V.E, Read);
  if (Read.empty() || !writesAny(Out, Pos, Read))
    return;
  int T = newSlot("tmp", V.E->Type);
  StmtList Snap;
  assign(T, V, nullptr, Snap);
  Snap.back().Loc = Out[Pos].Loc;
  Out.insert(Out.begin() + Pos, std::move(Snap.back()));
  V.E = makeVar(T, V.E->Type);
}

void BodyTranslator::protectAgainst(Value &V, StmtList &Out,
                                    const StmtList &Later) {
  if (!V.E)
    return;
  std::set<int> Read;
  slotsRead(V.E, Read);
  if (Read.empty() || !writesAny(Later, 0, Read))
    return;
  int T = newSlot("tmp", V.E->Type);
  assign(T, V, nullptr, Out);
  if (!Later.empty())
    Out.back().Loc = Later.front().Loc;
  V.E = makeVar(T, V.E->Type);
}

// ---- Messages and locations.

SourceLoc BodyTranslator::locOf(SourceLocation L) const {
  SourceLoc R;
  if (L.isInvalid())
    return R;
  // Inside a macro, the line that matters is where the macro is used.
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(L));
  if (P.isInvalid())
    return R;
  R.File = P.getFilename();
  R.Line = P.getLine();
  R.Col = P.getColumn();
  return R;
}

SourceLoc BodyTranslator::locOf(const clang::Stmt *S) const {
  return S ? locOf(S->getBeginLoc()) : SourceLoc{};
}

std::string BodyTranslator::textOf(const clang::Stmt *S) const {
  if (!S)
    return "";
  CharSourceRange R = SM.getExpansionRange(S->getSourceRange());
  StringRef T = Lexer::getSourceText(R, SM, Ctx.getLangOpts());
  std::string Text;
  // One line, single spaces: it goes into tables and messages.
  bool Space = false;
  for (char C : T) {
    if (C == '\n' || C == '\r' || C == '\t' || C == ' ') {
      Space = !Text.empty();
      continue;
    }
    if (Space)
      Text += ' ';
    Space = false;
    Text += C;
  }
  return Text;
}

std::string BodyTranslator::where(const clang::Stmt *S) const {
  SourceLoc L = locOf(S);
  return L.File + ":" + std::to_string(L.Line);
}

void BodyTranslator::warn(const clang::Stmt *S, const std::string &Msg) {
  warnAt(S ? S->getBeginLoc() : SourceLocation(), Msg);
}

void BodyTranslator::warnAt(SourceLocation L, const std::string &Msg) {
  SourceLoc P = locOf(L);
  std::string W = P.File + ":" + std::to_string(P.Line) + ": " + Msg;
  if (WarningSet.insert(W).second)
    K.Warnings.push_back(W);
}

void BodyTranslator::warnIfUnknown(const ExprPtr &E, const clang::Stmt *S,
                                   const std::string &What) {
  Why Reason;
  if (hasUnknown(E, &Reason))
    warn(S, What + " '" + textOf(S) + "' is not modelled: " + Reason.Text);
}

} // namespace gmem
