//===- stmt_translator.cpp - Statements, control flow and calls -----------===//
//
// Control flow maps onto the model's If/Loop/Return/Break/Continue; a switch
// whose cases all end in break becomes an if-else chain. __device__ functions
// are inlined as Call statements with fresh slots for their parameters and
// locals, so each call site is simulated with its own arguments.
//
//===----------------------------------------------------------------------===//
#include "body_translator.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"

namespace gmem {

using namespace clang;

namespace {

/// Functions that touch no memory the model counts and whose value, if any,
/// is not needed; calls to them are not worth a warning.
bool isQuietFunction(StringRef N) {
  static const std::set<std::string> S = {"__syncthreads",
                                          "__syncwarp",
                                          "__threadfence",
                                          "__threadfence_block",
                                          "__threadfence_system",
                                          "printf",
                                          "__assertfail",
                                          "__assert_fail",
                                          "__trap",
                                          "__brkpt",
                                          "__nanosleep",
                                          "__prof_trigger",
                                          "assert"};
  return S.count(N.str()) != 0;
}

/// Does S contain a 'break' that leaves the enclosing switch (not one that
/// belongs to a nested loop or switch)?
bool hasSwitchBreak(const clang::Stmt *S) {
  if (!S)
    return false;
  if (isa<BreakStmt>(S))
    return true;
  if (isa<ForStmt>(S) || isa<WhileStmt>(S) || isa<DoStmt>(S) ||
      isa<CXXForRangeStmt>(S) || isa<SwitchStmt>(S))
    return false;
  for (const clang::Stmt *C : S->children())
    if (hasSwitchBreak(C))
      return true;
  return false;
}

/// The slots that statements in L (at any depth) assign.
void collectWrites(const StmtList &L, std::set<int> &Out) {
  for (const gmem::Stmt &S : L) {
    if (S.Kind == StmtKind::Assign)
      Out.insert(S.Slot);
    for (const StmtList *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      collectWrites(*Sub, Out);
  }
}

bool endsControl(const clang::Stmt *S) {
  return isa<BreakStmt>(S) || isa<ReturnStmt>(S) || isa<ContinueStmt>(S);
}

} // namespace

bool BodyTranslator::containsGoto(const clang::Stmt *S) {
  if (!S)
    return false;
  if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
    return true;
  if (isa<LambdaExpr>(S))
    return false; // Its body is a function of its own, checked when inlined.
  for (const clang::Stmt *C : S->children())
    if (containsGoto(C))
      return true;
  return false;
}

bool BodyTranslator::inGotoFunction() const {
  for (const Frame &F : Frames)
    if (F.UsesGoto)
      return true;
  return false;
}

int BodyTranslator::slotFor(const VarDecl *VD, size_t FrameIdx) {
  Frame &F = Frames[FrameIdx];
  if (auto It = F.Slots.find(VD); It != F.Slots.end())
    return It->second;
  std::string Name = VD->getNameAsString();
  if (FrameIdx > 0) {
    const auto *MD = dyn_cast<CXXMethodDecl>(F.FD);
    Name = (MD && MD->getParent()->isLambda() ? std::string("lambda")
                                              : F.FD->getNameAsString()) +
           "." + Name;
  }
  int S = newSlot(Name, intTypeOf(VD->getType()).value_or(IntType{}));
  F.Slots[VD] = S;
  return S;
}

void BodyTranslator::declare(const VarDecl *VD, StmtList &Out) {
  if (VD->hasAttr<CUDASharedAttr>())
    return; // Laid out before the body is translated.
  if (!VD->hasLocalStorage()) {
    if (VD->isStaticLocal() && !VD->getType().isConstQualified())
      warnAt(VD->getLocation(), "static local variable '" +
                                    VD->getNameAsString() +
                                    "' is not modelled");
    return;
  }
  QualType T = VD->getType();
  const clang::Expr *Init = VD->getInit();
  if (T->isReferenceType()) {
    if (!Init)
      return;
    LValue L = pin(lvalue(Init, Out), Out);
    Frames.back().Refs[VD] = L;
    return;
  }
  if (intTypeOf(T)) {
    // A fresh slot per declaration: a shadowing name gets its own.
    Frame &F = Frames.back();
    int S;
    if (auto It = F.Slots.find(VD); It != F.Slots.end())
      S = It->second;
    else
      S = slotFor(VD, Frames.size() - 1);
    if (Init) {
      Value V = rvalue(Init, Out);
      assign(S, V, Init, Out);
      Out.back().Loc = locOf(VD->getLocation());
    }
    return;
  }
  // Floats, structs, local arrays: not tracked, but their initialisers may
  // read memory.
  if (!Init)
    return;
  bindGroup(VD, Init, Frames.back());
  effects(Init, Out);
  // A copy of an object in memory: its members are loaded data.
  const clang::Expr *Src = Init->IgnoreImplicit();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Src);
      CE && CE->getNumArgs() == 1)
    Src = CE->getArg(0)->IgnoreImplicit();
  Src = Src->IgnoreParenImpCasts();
  if (isa<ArraySubscriptExpr>(Src) ||
      (isa<UnaryOperator>(Src) &&
       cast<UnaryOperator>(Src)->getOpcode() == UO_Deref) ||
      (isa<MemberExpr>(Src) && cast<MemberExpr>(Src)->isArrow()))
    Frames.back().LoadedFrom[VD] = {UnknownCause::LoadedData,
                                    "depends on data loaded by " + textOf(Src) +
                                        " at " + where(Src)};
}

void BodyTranslator::stmt(const clang::Stmt *S, StmtList &Out) {
  if (!S)
    return;
  switch (S->getStmtClass()) {
  case clang::Stmt::CompoundStmtClass:
    for (const clang::Stmt *C : cast<CompoundStmt>(S)->body())
      stmt(C, Out);
    return;
  case clang::Stmt::DeclStmtClass:
    for (const Decl *D : cast<DeclStmt>(S)->decls())
      if (const auto *VD = dyn_cast<VarDecl>(D))
        declare(VD, Out);
    return;
  case clang::Stmt::NullStmtClass:
    return;
  case clang::Stmt::IfStmtClass:
    return ifStmt(cast<IfStmt>(S), Out);
  case clang::Stmt::ForStmtClass:
  case clang::Stmt::WhileStmtClass:
  case clang::Stmt::DoStmtClass:
  case clang::Stmt::CXXForRangeStmtClass:
    return loop(S, Out);
  case clang::Stmt::SwitchStmtClass:
    return switchStmt(cast<SwitchStmt>(S), Out);
  case clang::Stmt::BreakStmtClass: {
    if (!BreakTargets.empty() && BreakTargets.back())
      return; // Leaves a switch that is not lowered: nothing to model.
    gmem::Stmt B;
    B.Kind = StmtKind::Break;
    B.Loc = locOf(S);
    Out.push_back(B);
    return;
  }
  case clang::Stmt::ContinueStmtClass: {
    gmem::Stmt C;
    C.Kind = StmtKind::Continue;
    C.Loc = locOf(S);
    Out.push_back(C);
    return;
  }
  case clang::Stmt::ReturnStmtClass:
    return returnStmt(cast<ReturnStmt>(S), Out);
  case clang::Stmt::LabelStmtClass:
    return stmt(cast<LabelStmt>(S)->getSubStmt(), Out);
  case clang::Stmt::AttributedStmtClass:
    return stmt(cast<AttributedStmt>(S)->getSubStmt(), Out);
  case clang::Stmt::CaseStmtClass:
  case clang::Stmt::DefaultStmtClass:
    return stmt(cast<SwitchCase>(S)->getSubStmt(), Out);
  case clang::Stmt::GotoStmtClass:
  case clang::Stmt::IndirectGotoStmtClass: {
    const FunctionDecl *FD = Frames.back().FD;
    std::string Name = FD && FD->getIdentifier() ? FD->getNameAsString()
                                                 : std::string("lambda");
    warn(S, "goto is not modelled: the accesses of '" + Name +
                "' and of the functions it calls are reported as unknown");
    return;
  }
  case clang::Stmt::GCCAsmStmtClass:
  case clang::Stmt::MSAsmStmtClass: {
    const auto *A = cast<AsmStmt>(S);
    for (const clang::Expr *In : A->inputs())
      effects(In, Out);
    for (const clang::Expr *O : A->outputs()) {
      LValue L = lvalue(O, Out);
      if (L.Kind == LValue::Slot)
        assign(L.SlotIdx,
               Value{makeUnknown("value set by inline asm at " + where(S),
                                 K.Slots[L.SlotIdx].Type),
                     {}},
               S, Out);
    }
    warn(S, "inline asm is not modelled: memory it accesses is not counted");
    return;
  }
  default:
    break;
  }
  if (const auto *E = dyn_cast<clang::Expr>(S)) {
    effects(E, Out);
    return;
  }
  warn(S, std::string("statement of kind ") + S->getStmtClassName() +
              " is not modelled");
}

void BodyTranslator::ifStmt(const IfStmt *S, StmtList &Out) {
  stmt(S->getInit(), Out);
  if (const DeclStmt *DS = S->getConditionVariableDeclStmt())
    stmt(DS, Out);
  // A condition fixed at compile time (if constexpr, template parameters,
  // #define constants): only the branch taken exists.
  const clang::Expr *CondE = S->getCond();
  bool B;
  if (CondE && !CondE->isValueDependent() && !CondE->HasSideEffects(Ctx) &&
      CondE->EvaluateAsBooleanCondition(B, Ctx)) {
    stmt(B ? S->getThen() : S->getElse(), Out);
    return;
  }
  gmem::Stmt I;
  I.Kind = StmtKind::If;
  I.Loc = locOf(S);
  I.Cond = condition(CondE, Out);
  warnIfUnknown(I.Cond, CondE, "condition");
  stmt(S->getThen(), I.Then);
  stmt(S->getElse(), I.Else);
  Out.push_back(std::move(I));
}

void BodyTranslator::loop(const clang::Stmt *S, StmtList &Out) {
  gmem::Stmt L;
  L.Kind = StmtKind::Loop;
  L.Loc = locOf(S);
  BreakTargets.push_back(false);
  const clang::Expr *CondE = nullptr;
  if (const auto *F = dyn_cast<ForStmt>(S)) {
    stmt(F->getInit(), Out);
    if (const DeclStmt *DS = F->getConditionVariableDeclStmt())
      stmt(DS, L.CondPre);
    CondE = F->getCond();
    L.Cond = CondE ? condition(CondE, L.CondPre) : makeConst(1, BoolT);
    stmt(F->getBody(), L.Body);
    if (F->getInc())
      effects(F->getInc(), L.Step);
  } else if (const auto *W = dyn_cast<WhileStmt>(S)) {
    if (const DeclStmt *DS = W->getConditionVariableDeclStmt())
      stmt(DS, L.CondPre);
    CondE = W->getCond();
    L.Cond = condition(CondE, L.CondPre);
    stmt(W->getBody(), L.Body);
  } else if (const auto *D = dyn_cast<DoStmt>(S)) {
    L.TestFirst = false;
    stmt(D->getBody(), L.Body);
    CondE = D->getCond();
    L.Cond = condition(CondE, L.CondPre);
  } else if (const auto *R = dyn_cast<CXXForRangeStmt>(S)) {
    // Iterating a container: the trip count is not modelled; the body's
    // accesses are kept under an unknown condition.
    warn(S, "range-based for loop is not modelled: its trip count is unknown");
    effects(R->getRangeInit(), Out);
    L.Cond = makeUnknown("range-based for loop at " + where(S), BoolT);
    stmt(R->getBody(), L.Body);
  }
  BreakTargets.pop_back();
  if (CondE)
    warnIfUnknown(L.Cond, CondE, "loop condition");
  Out.push_back(std::move(L));
}

void BodyTranslator::returnStmt(const ReturnStmt *S, StmtList &Out) {
  // Copies: evaluating the value may inline calls and grow Frames.
  int Result = Frames.back().ResultSlot;
  bool ReturnsRef = Frames.back().ReturnsRef;
  const clang::Expr *RV = S->getRetValue();
  if (RV && Frames.size() > 1 && Result >= 0) {
    if (ReturnsRef) {
      LValue L = lvalue(RV, Out);
      Value A =
          L.Kind == LValue::Memory ? Value{L.Addr, L.Where} : addressOf(L);
      assign(Result, A, S, Out);
    } else {
      Value V = rvalue(RV, Out);
      assign(Result, V, S, Out);
    }
  } else if (RV) {
    effects(RV, Out);
  }
  gmem::Stmt R;
  R.Kind = StmtKind::Return;
  R.Loc = locOf(S);
  Out.push_back(R);
}

void BodyTranslator::switchStmt(const SwitchStmt *S, StmtList &Out) {
  stmt(S->getInit(), Out);
  if (const DeclStmt *DS = S->getConditionVariableDeclStmt())
    stmt(DS, Out);

  // Cut the body into groups: the case labels in front of a run of
  // statements.
  struct Group {
    std::vector<int64_t> Values;
    bool Default = false;
    std::vector<const clang::Stmt *> Body;
  };
  std::vector<Group> Groups;
  bool Simple = true;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(S->getBody());
  if (!Body)
    Simple = false;
  if (Body) {
    for (const clang::Stmt *C : Body->body()) {
      if (!isa<SwitchCase>(C)) {
        if (Groups.empty())
          Simple = false; // Code before the first label.
        else
          Groups.back().Body.push_back(C);
        continue;
      }
      if (Groups.empty() || !Groups.back().Body.empty())
        Groups.emplace_back();
      const clang::Stmt *Sub = C;
      while (const auto *SC = dyn_cast<SwitchCase>(Sub)) {
        if (const auto *CS = dyn_cast<CaseStmt>(SC)) {
          clang::Expr::EvalResult R;
          if (CS->getRHS() || !CS->getLHS()->EvaluateAsInt(R, Ctx) ||
              R.Val.getInt().getSignificantBits() > 64)
            Simple = false;
          else
            Groups.back().Values.push_back(R.Val.getInt().getSExtValue());
        } else {
          Groups.back().Default = true;
        }
        Sub = SC->getSubStmt();
      }
      Groups.back().Body.push_back(Sub);
    }
  }
  for (size_t I = 0; Simple && I < Groups.size(); ++I) {
    std::vector<const clang::Stmt *> &B = Groups[I].Body;
    // case 1: { ...; break; } ends in the break inside the braces.
    while (!B.empty() && isa<CompoundStmt>(B.back())) {
      const auto *CS = cast<CompoundStmt>(B.back());
      B.pop_back();
      B.insert(B.end(), CS->body_begin(), CS->body_end());
    }
    if (!B.empty() && isa<BreakStmt>(B.back()))
      B.pop_back();
    else if (I + 1 < Groups.size() && (B.empty() || !endsControl(B.back())))
      Simple = false;
    for (const clang::Stmt *X : B)
      if (hasSwitchBreak(X))
        Simple = false;
  }

  Value C = rvalue(S->getCond(), Out);
  if (!Simple) {
    warn(S, "switch with fall-through or nested breaks is not modelled: its "
            "cases run under unknown conditions");
    BreakTargets.push_back(true);
    gmem::Stmt I;
    I.Kind = StmtKind::If;
    I.Loc = locOf(S);
    I.Cond = makeUnknown("case of the switch at " + where(S), BoolT);
    stmt(S->getBody(), I.Then);
    BreakTargets.pop_back();
    Out.push_back(std::move(I));
    return;
  }
  warnIfUnknown(C.E, S->getCond(), "switch value");
  // The value is read once; the cases must not see later changes.
  if (C.E->Kind != Op::Const &&
      !(C.E->Kind == Op::Unknown && C.E->Ops.empty())) {
    int T = newSlot("switch", C.E->Type);
    assign(T, C, S->getCond(), Out);
    C.E = makeVar(T, C.E->Type);
  }
  // case a: case b: X; break;  ->  if (v == a || v == b) X; else ...
  StmtList *Tail = &Out;
  const Group *Default = nullptr;
  for (const Group &G : Groups) {
    if (G.Default) {
      Default = &G;
      continue;
    }
    ExprPtr Cond;
    for (int64_t V : G.Values) {
      ExprPtr Eq =
          binary(Op::Eq, C.E,
                 castTo(makeConst(V, IntType{64, true}), C.E->Type), BoolT);
      Cond = Cond ? binary(Op::LOr, Cond, Eq, BoolT) : Eq;
    }
    gmem::Stmt I;
    I.Kind = StmtKind::If;
    I.Loc =
        locOf(G.Body.empty() ? static_cast<const clang::Stmt *>(S) : G.Body[0]);
    I.Cond = Cond;
    for (const clang::Stmt *X : G.Body)
      stmt(X, I.Then);
    Tail->push_back(std::move(I));
    Tail = &Tail->back().Else;
  }
  if (Default)
    for (const clang::Stmt *X : Default->Body)
      stmt(X, *Tail);
}

// ---- Calls.

std::optional<Value> BodyTranslator::minMax(const CallExpr *CE,
                                            const FunctionDecl *FD,
                                            StmtList &Out) {
  if (!FD->getIdentifier())
    return std::nullopt;
  StringRef N = FD->getName();
  std::optional<IntType> T = intTypeOf(CE->getType());
  if (!T)
    return std::nullopt;
  unsigned NArgs = CE->getNumArgs();
  static const std::set<std::string> Mins = {"min", "umin", "llmin", "ullmin"};
  static const std::set<std::string> Maxs = {"max", "umax", "llmax", "ullmax"};
  // CUDA's min/max/umin/... and std::min/std::max on integers.
  if (NArgs == 2 && (Mins.count(N.str()) || Maxs.count(N.str()))) {
    Value A = rvalue(CE->getArg(0), Out);
    size_t Pos = Out.size();
    Value B = rvalue(CE->getArg(1), Out);
    protect(A, Out, Pos);
    Op K = Mins.count(N.str()) ? Op::Min : Op::Max;
    return Value{binary(K, castTo(A.E, *T), castTo(B.E, *T), *T), {}};
  }
  if (NArgs == 2 && (N == "__mul24" || N == "__umul24")) {
    // The product of the low 24 bits (sign-extended for __mul24).
    Value A = rvalue(CE->getArg(0), Out);
    size_t Pos = Out.size();
    Value B = rvalue(CE->getArg(1), Out);
    protect(A, Out, Pos);
    auto Low24 = [&](ExprPtr X) {
      X = castTo(X, *T);
      if (N == "__umul24")
        return binary(Op::And, X, makeConst(0xFFFFFF, *T), *T);
      ExprPtr Eight = makeConst(8, *T);
      return binary(Op::Shr, binary(Op::Shl, X, Eight, *T), Eight, *T);
    };
    return Value{binary(Op::Mul, Low24(A.E), Low24(B.E), *T), {}};
  }
  if (NArgs == 1 && (N == "abs" || N == "labs" || N == "llabs")) {
    Value A = rvalue(CE->getArg(0), Out);
    ExprPtr X = castTo(A.E, *T);
    return Value{makeSelect(binary(Op::Lt, X, makeConst(0, *T), BoolT),
                            unary(Op::Neg, X, *T), X, *T),
                 {}};
  }
  return std::nullopt;
}

Value BodyTranslator::call(const CallExpr *CE, StmtList &Out,
                           LValue *RefResult) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return unknownCall(CE, nullptr, Out);
  if (std::optional<Value> V = memoryIntrinsic(CE, FD, Out))
    return *V;
  // Hints that return their first argument: __builtin_assume_aligned(p, 16)
  // is p, __builtin_expect(x, 0) is x.
  if (unsigned ID = FD->getBuiltinID();
      (ID == clang::Builtin::BI__builtin_assume_aligned ||
       ID == clang::Builtin::BI__builtin_expect) &&
      CE->getNumArgs() >= 1) {
    Value V = rvalue(CE->getArg(0), Out);
    for (unsigned I = 1; I < CE->getNumArgs(); ++I)
      effects(CE->getArg(I), Out);
    if (CE->getType()->isPointerType())
      V.E = castTo(V.E, IntType{64, false});
    else if (std::optional<IntType> T = intTypeOf(CE->getType()))
      V.E = castTo(V.E, *T);
    return V;
  }
  if (std::optional<Value> V = cooperativeGroups(CE, FD, Out))
    return *V;
  if (std::optional<Value> V = warpIntrinsic(CE, FD, Out))
    return *V;
  if (std::optional<Value> V = textureCall(CE, FD, Out))
    return *V;
  if (std::optional<Value> V = minMax(CE, FD, Out)) {
    if (RefResult) {
      RefResult->Kind = LValue::Computed;
      RefResult->Val = *V;
    }
    return *V;
  }
  // a = b on structs: the implicit, trivial operator= copies the object.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && isa<CXXOperatorCallExpr>(CE) && CE->getNumArgs() == 2 &&
      (MD->isCopyAssignmentOperator() || MD->isMoveAssignmentOperator()) &&
      MD->isTrivial()) {
    LValue Src = lvalue(CE->getArg(1), Out);
    load(Src, Out);
    LValue Dst = lvalue(CE->getArg(0), Out);
    store(Dst, Value{makeUnknown("value of a struct"), {}}, Out);
    if (RefResult)
      *RefResult = Dst;
    return Value{makeUnknown("value of a struct"), {}};
  }
  // A virtual call may run any override: which one is not followed.
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD);
      MD && MD->isVirtual() && isa<CXXMemberCallExpr>(CE)) {
    const auto *ME = dyn_cast<MemberExpr>(
        cast<CXXMemberCallExpr>(CE)->getCallee()->IgnoreParens());
    if (!ME || !ME->hasQualifier()) {
      warn(CE, "virtual call to '" + MD->getQualifiedNameAsString() +
                   "' is not modelled: which override runs is not "
                   "followed; what depends on its result is unknown");
      effects(cast<CXXMemberCallExpr>(CE)->getImplicitObjectArgument(), Out);
      for (const clang::Expr *A : CE->arguments())
        effects(A, Out);
      return Value{unknown("result of the virtual call " +
                               MD->getNameAsString() + "() at " + where(CE),
                           CE->getType()),
                   {}};
    }
  }
  const FunctionDecl *Def = nullptr;
  if (FD->hasBody(Def) && Def && !isa<CXXConstructorDecl>(Def) &&
      !SM.isInSystemHeader(Def->getLocation()))
    return inlineCall(CE, Def, Out, RefResult);
  return unknownCall(CE, FD, Out);
}

/// What a call that is not followed does to the object of a member call
/// (or of a member operator): CUDA's class types (__half, __nv_bfloat16,
/// their vectors) have their operators and conversions in headers that are
/// not inlined, so their loads and stores are read off the signature.
enum class ObjectUse { None, Read, Write, Update };

static ObjectUse objectUse(const CXXMethodDecl *MD) {
  if (!MD || MD->isStatic())
    return ObjectUse::None;
  switch (MD->getOverloadedOperator()) {
  case OO_Equal:
    return ObjectUse::Write;
  case OO_PlusEqual:
  case OO_MinusEqual:
  case OO_StarEqual:
  case OO_SlashEqual:
  case OO_PercentEqual:
  case OO_AmpEqual:
  case OO_PipeEqual:
  case OO_CaretEqual:
  case OO_LessLessEqual:
  case OO_GreaterGreaterEqual:
  case OO_PlusPlus:
  case OO_MinusMinus:
    return ObjectUse::Update;
  default:
    break;
  }
  return MD->isConst() || isa<CXXConversionDecl>(MD) ? ObjectUse::Read
                                                     : ObjectUse::None;
}

Value BodyTranslator::unknownCall(const CallExpr *CE, const FunctionDecl *FD,
                                  StmtList &Out) {
  bool PointerArgs = false;
  // The object of a member call, and objects in memory bound to reference
  // parameters: the callee reads each whole (and writes those it may
  // change) after the arguments are evaluated.
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
  const bool MemberOperator = MD && isa<CXXOperatorCallExpr>(CE);
  std::vector<std::pair<LValue, ObjectUse>> Objects;
  auto Bind = [&](const clang::Expr *A, ObjectUse U) {
    LValue L = lvalue(A, Out);
    if (L.Kind == LValue::Memory && U != ObjectUse::None)
      Objects.push_back({pin(L, Out), U});
  };
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
    const clang::Expr *Obj = MC->getImplicitObjectArgument();
    if (Obj->isGLValue() && !Obj->getType()->isPointerType())
      Bind(Obj, objectUse(MD));
    else
      effects(Obj, Out);
  } else if (!FD) {
    effects(CE->getCallee(), Out);
  }
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const clang::Expr *A = CE->getArg(I);
    QualType T = A->getType();
    if (T->isPointerType() && !T->getPointeeType()->isFunctionType() &&
        !T->getPointeeType()->isCharType())
      PointerArgs = true;
    if (MemberOperator && I == 0) {
      Bind(A, objectUse(MD));
      continue;
    }
    unsigned P = I - (MemberOperator ? 1 : 0);
    QualType PT = FD && P < FD->getNumParams() ? FD->getParamDecl(P)->getType()
                                               : QualType();
    if (!PT.isNull() && PT->isReferenceType() && A->isGLValue() &&
        !PT->getPointeeType()->isPointerType()) {
      Bind(A, PT->getPointeeType().isConstQualified() ? ObjectUse::Read
                                                      : ObjectUse::Update);
      continue;
    }
    effects(A, Out);
  }
  for (const auto &[L, U] : Objects)
    if (U == ObjectUse::Read || U == ObjectUse::Update)
      load(L, Out);
  for (const auto &[L, U] : Objects)
    if (U == ObjectUse::Write || U == ObjectUse::Update)
      store(L, Value{makeUnknown("value of a struct"), {}}, Out);
  std::string Name =
      FD ? FD->getQualifiedNameAsString() : textOf(CE->getCallee());
  bool Quiet = FD && FD->getIdentifier() && isQuietFunction(FD->getName());
  // Device runtime calls that move global memory of their own.
  if (FD && FD->getIdentifier() && K.UnmodelledGlobal.empty())
    K.UnmodelledGlobal =
        runtimeCallGlobal(FD->getName().str(), "at " + where(CE));
  if (FD && FD->getIdentifier() && deviceHeapCall(FD->getName().str()))
    K.DeviceHeap = true;
  bool System = FD && SM.isInSystemHeader(FD->getLocation());
  if (!Quiet && (!System || PointerArgs)) {
    std::string Why = PointerArgs ? "memory it accesses through its pointer "
                                    "arguments is not counted"
                      : !FD       ? "a call through a function pointer is not "
                                    "followed; its result is unknown"
                      : !FD->hasBody()
                          ? "no definition in this file; its result is unknown"
                          : "its result is unknown";
    warn(CE, "call to '" + Name + "' is not modelled: " + Why);
  }
  QualType T = CE->getType();
  Value V{unknown(T->isRealFloatingType() ? "floating-point value"
                  : !FD ? "result of the call through function pointer " +
                              Name + " at " + where(CE)
                        : "result of " + Name + "() at " + where(CE),
                  T),
          {}};
  if (T->isPointerType()) {
    V.Ptr.Kind = PtrOrigin::Unknown;
    V.Ptr.Reason = "pointer returned by " + Name + "()";
  }
  return V;
}

Value BodyTranslator::inlineCall(const CallExpr *CE, const FunctionDecl *Def,
                                 StmtList &Out, LValue *RefResult) {
  const auto *MD = dyn_cast<CXXMethodDecl>(Def);
  bool Lambda = MD && MD->getParent()->isLambda();
  std::string Name = Lambda ? "lambda" : Def->getNameAsString();
  const std::string DeepReason = "recursion deeper than " +
                                 std::to_string(MaxInlineDepth) +
                                 " calls is not modelled";
  // Too deep: the body is kept once more, under an unknown condition, so a
  // lane that gets here makes its accesses unknown and lanes that return
  // earlier cost nothing. Inside that body, recursion is cut off: no lane
  // runs it with a known outcome anyway.
  bool Refuse = !RefusedFrom && Frames.size() > MaxInlineDepth;
  if (RefusedFrom) {
    bool Recursive = Frames.size() >= RefusedFrom + MaxInlineDepth;
    for (size_t I = RefusedFrom; I < Frames.size() && !Recursive; ++I)
      Recursive = Frames[I].FD->getCanonicalDecl() == Def->getCanonicalDecl();
    if (Recursive) {
      for (const clang::Expr *A : CE->arguments())
        effects(A, Out);
      return Value{unknown(DeepReason, CE->getType()), {}};
    }
  }
  if (Refuse)
    warn(CE, "call to '" + Name + "' is not inlined: calls nest deeper than " +
                 std::to_string(MaxInlineDepth) +
                 " (recursion?); its accesses are unknown for lanes that "
                 "reach it");
  size_t SlotsBefore = K.Slots.size();
  Frame F;
  F.FD = Def;
  F.UsesGoto = containsGoto(Def->getBody());
  // The object of a member function call.
  unsigned Shift = isa<CXXOperatorCallExpr>(CE) && MD ? 1 : 0;
  if (MD && !MD->isStatic()) {
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE)) {
      const clang::Expr *Obj = MC->getImplicitObjectArgument();
      if (Obj->getType()->isPointerType())
        F.This =
            pin(deref(rvalue(Obj, Out), Obj->getType()->getPointeeType(), Obj),
                Out);
      else
        F.This = pin(lvalue(Obj, Out), Out);
    } else if (Shift) {
      F.This = pin(lvalue(CE->getArg(0), Out), Out);
    }
  }
  // Arguments, left to right, in the caller.
  struct Arg {
    const ParmVarDecl *P = nullptr;
    bool IsRef = false;
    LValue L;
    Value V;
    size_t End = 0;
  };
  std::vector<Arg> Args;
  for (unsigned I = Shift; I < CE->getNumArgs(); ++I) {
    const clang::Expr *AE = CE->getArg(I);
    if (I - Shift >= Def->getNumParams()) {
      effects(AE, Out); // Variadic.
      continue;
    }
    Arg A;
    A.P = Def->getParamDecl(I - Shift);
    bindGroup(A.P, AE, F);
    if (A.P->getType()->isReferenceType()) {
      A.IsRef = true;
      A.L = pin(lvalue(AE, Out), Out);
    } else {
      A.V = rvalue(AE, Out);
    }
    A.End = Out.size();
    Args.push_back(std::move(A));
  }
  // A later argument may change a slot an earlier one read.
  for (size_t I = Args.size(); I-- > 0;)
    if (!Args[I].IsRef)
      protect(Args[I].V, Out, Args[I].End);

  gmem::Stmt C;
  C.Kind = StmtKind::Call;
  C.Loc = locOf(CE);
  C.Callee = Lambda ? "lambda at " + where(Def->getBody())
                    : Def->getQualifiedNameAsString();
  Frames.push_back(F);
  for (const Arg &A : Args) {
    if (A.IsRef) {
      Frames.back().Refs[A.P] = A.L;
      continue;
    }
    std::optional<IntType> T = intTypeOf(A.P->getType());
    if (!T)
      continue; // Floats and structs are not tracked.
    int S = newSlot(Name + "." + A.P->getNameAsString(), *T);
    Frames.back().Slots[A.P] = S;
    assign(S, A.V, CE, C.Body);
  }
  QualType RT = Def->getReturnType();
  if (RT->isReferenceType()) {
    Frames.back().ReturnsRef = true;
    Frames.back().ResultSlot = newSlot(Name + ".ret", AddrT);
  } else if (std::optional<IntType> T = intTypeOf(RT)) {
    Frames.back().ResultSlot = newSlot(Name + ".ret", *T);
  }
  std::vector<bool> SavedTargets;
  SavedTargets.swap(BreakTargets);
  if (Refuse) {
    gmem::Stmt I;
    I.Kind = StmtKind::If;
    I.Loc = locOf(CE);
    I.Cond = makeUnknown(DeepReason, BoolT);
    RefusedFrom = Frames.size() - 1;
    stmt(Def->getBody(), I.Then);
    RefusedFrom = 0;
    // What the body may write in its callers (through references) and
    // its result are unknown for the lanes that make this call.
    std::set<int> Written;
    collectWrites(I.Then, Written);
    C.Body.push_back(std::move(I));
    int Result = Frames.back().ResultSlot;
    if (Result >= 0)
      Written.insert(Result);
    for (int S : Written)
      if (S < static_cast<int>(SlotsBefore) || S == Result)
        assign(S, Value{makeUnknown(DeepReason, K.Slots[S].Type), {}}, CE,
               C.Body);
  } else {
    stmt(Def->getBody(), C.Body);
  }
  BreakTargets.swap(SavedTargets);
  Frame Done = std::move(Frames.back());
  Frames.pop_back();
  Out.push_back(std::move(C));

  if (Done.ReturnsRef) {
    LValue L;
    L.Kind = LValue::Memory;
    L.Addr = makeVar(Done.ResultSlot, AddrT);
    L.Where = SlotOrigin[Done.ResultSlot];
    L.Ty = RT->getPointeeType();
    L.Site = CE;
    if (L.Where.Kind == PtrOrigin::Local) {
      L.Kind = LValue::Register;
      L.Reason = unmodelled("object returned by reference from " + Name + "()");
    }
    if (RefResult) {
      *RefResult = L;
      return Value{makeUnknown("object returned by reference"), {}};
    }
    return load(L, Out);
  }
  if (Done.ResultSlot >= 0)
    return Value{makeVar(Done.ResultSlot, K.Slots[Done.ResultSlot].Type),
                 SlotOrigin[Done.ResultSlot]};
  return Value{unknown(RT->isRealFloatingType() ? "floating-point value"
                       : RT->isVoidType()       ? "no value"
                                                : "value of a struct",
                       RT),
               {}};
}

} // namespace gmem
