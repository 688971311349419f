//===- host_exec.cpp - Host interpreter: statements and control flow ------===//
//
// Statements in order; if/switch on unknown conditions run every branch and
// join; loops run until their condition fails, or once when it is unknown;
// break, continue and return are paths that wait at their targets.
//
//===----------------------------------------------------------------------===//
#include "host_interpreter.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace gmem {

bool HostInterpreter::step(SourceLocation L) {
  if (++Steps > Limits.MaxSteps) {
    warn(L, "stopped interpreting the host code after " +
                std::to_string(Limits.MaxSteps) +
                " steps; launches after this point are not reported");
    Aborted = true;
    return false;
  }
  if (QuietLoop && Steps - QuietLoopStart > Limits.QuietLoopSteps) {
    UnwindTo = QuietLoop;
    return false;
  }
  return true;
}

void HostInterpreter::join(std::vector<PathState> States,
                           const std::string &OuterWhy, bool OuterInput,
                           SourceLocation L) {
  std::vector<PathState *> Live;
  for (PathState &S : States)
    if (!S.Dead)
      Live.push_back(&S);
  if (Live.empty()) {
    State = PathState();
    State.Dead = true;
    State.Why = OuterWhy;
    State.WhyFromInput = OuterInput;
    return;
  }
  PathState R = std::move(*Live[0]);
  for (size_t K = 1; K < Live.size(); ++K) {
    PathState &S = *Live[K];
    std::string Why = !S.Why.empty() ? S.Why : R.Why;
    bool WhyInput = !S.Why.empty() ? S.WhyFromInput : R.WhyFromInput;
    if (Why.empty())
      Why = "differs between the paths that join at " + where(L);
    for (auto &[Slot, V] : S.Values) {
      auto It = R.Values.find(Slot);
      if (It == R.Values.end())
        R.Values.emplace(Slot, std::move(V));
      else if (!sameValue(It->second, V))
        It->second = mergeValues(It->second, V, Why, WhyInput);
    }
  }
  R.Dead = false;
  R.Why = OuterWhy;
  R.WhyFromInput = OuterInput;
  State = std::move(R);
}

void HostInterpreter::exec(const clang::Stmt *S) {
  if (!S || stopped() || !step(S->getBeginLoc()))
    return;
  switch (S->getStmtClass()) {
  case clang::Stmt::CompoundStmtClass:
    for (const clang::Stmt *C : cast<CompoundStmt>(S)->body()) {
      exec(C);
      if (stopped())
        return;
    }
    return;
  case clang::Stmt::DeclStmtClass:
    for (const Decl *D : cast<DeclStmt>(S)->decls()) {
      if (const auto *VD = dyn_cast<VarDecl>(D))
        execDecl(VD);
      if (stopped())
        return;
    }
    return;
  case clang::Stmt::IfStmtClass:
    return execIf(cast<IfStmt>(S));
  case clang::Stmt::ForStmtClass: {
    const auto *F = cast<ForStmt>(S);
    return execLoop(F, F->getInit(), F->getCond(), F->getInc(), F->getBody(),
                    true);
  }
  case clang::Stmt::WhileStmtClass: {
    const auto *W = cast<WhileStmt>(S);
    if (W->getConditionVariable())
      execDecl(W->getConditionVariable());
    return execLoop(W, nullptr, W->getCond(), nullptr, W->getBody(), true);
  }
  case clang::Stmt::DoStmtClass: {
    const auto *D = cast<DoStmt>(S);
    return execLoop(D, nullptr, D->getCond(), nullptr, D->getBody(), false);
  }
  case clang::Stmt::CXXForRangeStmtClass:
    return execRangeFor(cast<CXXForRangeStmt>(S));
  case clang::Stmt::SwitchStmtClass:
    return execSwitch(cast<SwitchStmt>(S));
  case clang::Stmt::BreakStmtClass:
    return jump(true, S);
  case clang::Stmt::ContinueStmtClass:
    return jump(false, S);
  case clang::Stmt::ReturnStmtClass: {
    const auto *RS = cast<ReturnStmt>(S);
    HostValue V = RS->getRetValue() ? eval(RS->getRetValue())
                                    : HostValue::unknown("no value");
    if (stopped())
      return;
    Frames.back().Returns.push_back(State);
    Frames.back().ReturnValues.push_back(std::move(V));
    State.Dead = true;
    return;
  }
  case clang::Stmt::LabelStmtClass:
    return exec(cast<LabelStmt>(S)->getSubStmt());
  case clang::Stmt::AttributedStmtClass:
    return exec(cast<AttributedStmt>(S)->getSubStmt());
  case clang::Stmt::CaseStmtClass:
  case clang::Stmt::DefaultStmtClass:
    return exec(cast<SwitchCase>(S)->getSubStmt());
  case clang::Stmt::CXXTryStmtClass:
    return exec(cast<CXXTryStmt>(S)->getTryBlock());
  case clang::Stmt::GotoStmtClass:
  case clang::Stmt::IndirectGotoStmtClass:
    warn(S->getBeginLoc(), "goto is not followed; the interpreter goes on "
                           "with the next statement");
    return;
  default:
    if (const auto *E = dyn_cast<clang::Expr>(S))
      eval(E);
    return;
  }
}

void HostInterpreter::execDecl(const VarDecl *VD) {
  if (VD->isStaticLocal()) {
    const VarDecl *Canon = VD->getCanonicalDecl();
    if (Globals.count(Canon) || !isTracked(VD->getType()))
      return;
    int Slot = newSlot(VD, VD->getType());
    Globals[Canon] = Slot;
    write(LRef{Slot, -1},
          VD->getInit() ? eval(VD->getInit()) : zeroOf(VD->getType()));
    return;
  }
  QualType T = VD->getType();
  if (T->isReferenceType()) {
    // A reference aliases the slot of the variable it is bound to.
    if (const clang::Expr *Init = VD->getInit()) {
      std::optional<LRef> R = lvalue(Init);
      if (R && R->Slot >= 0 && R->Index < 0) {
        Frames.back().Vars[VD] = R->Slot;
        return;
      }
      HostValue V = R ? read(*R) : eval(Init);
      if (stopped() || !isTracked(T))
        return;
      int Slot = newSlot(VD, T.getNonReferenceType());
      Frames.back().Vars[VD] = Slot;
      write(LRef{Slot, -1}, V);
    }
    return;
  }
  if (!isTracked(T)) {
    DeviceProps.erase(VD); // Declared again: not filled yet.
    if (const clang::Expr *Init = VD->getInit())
      eval(Init); // For its side effects.
    return;
  }
  // A declaration run again (in a loop) reuses its slot.
  int Slot;
  Frame &F = Frames.back();
  auto It = F.Vars.find(VD);
  if (It != F.Vars.end() && Slots[It->second].FrameId == F.Id) {
    Slot = It->second;
  } else {
    Slot = newSlot(VD, T);
    F.Vars[VD] = Slot;
  }
  HostValue V;
  if (const clang::Expr *Init = VD->getInit()) {
    V = eval(Init);
    if (stopped())
      return;
  } else if (isDim3(T)) {
    V = HostValue::dim3(1, 1, 1);
  } else if (const auto *AT =
                 dyn_cast<ConstantArrayType>(T.getCanonicalType())) {
    V.Kind = HostValue::Array;
    V.Elems.assign(
        AT->getSize().getZExtValue(),
        HostValue::unknown("uninitialised element of " + VD->getName().str()));
  } else {
    V = HostValue::unknown("'" + VD->getName().str() +
                           "' is not initialised at " +
                           where(VD->getLocation()));
  }
  write(LRef{Slot, -1}, std::move(V));
}

std::optional<bool> HostInterpreter::truth(const HostValue &V) {
  switch (V.Kind) {
  case HostValue::Int:
    return V.I != 0;
  case HostValue::Float:
    return V.F != 0;
  case HostValue::Pointer:
    if (V.isVaguePointer())
      return V.Alloc == NullAllocation ? std::nullopt
                                       : std::optional<bool>(true);
    return V.Alloc != NullAllocation || V.I != 0;
  case HostValue::AddrOf:
  case HostValue::Function:
  case HostValue::String:
    return true;
  default:
    return std::nullopt;
  }
}

void HostInterpreter::execIf(const IfStmt *If) {
  exec(If->getInit());
  if (stopped())
    return;
  if (const VarDecl *CV = If->getConditionVariable())
    execDecl(CV);
  if (stopped())
    return;
  if (If->isConsteval()) {
    exec(If->isNegatedConsteval() ? If->getThen() : If->getElse());
    return;
  }
  HostValue C = eval(If->getCond());
  if (stopped())
    return;
  if (std::optional<bool> T = truth(C)) {
    exec(*T ? If->getThen() : If->getElse());
    return;
  }
  // Unknown condition: run both branches and join what survives.
  std::string Why = C.Reason.empty() ? "depends on the condition at " +
                                           where(If->getCond()->getBeginLoc())
                                     : C.Reason;
  std::string OuterWhy = State.Why;
  bool OuterInput = State.WhyFromInput;
  PathState Saved = State;
  State.Why = Why;
  State.WhyFromInput = C.FromInput;
  exec(If->getThen());
  if (UnwindTo || Aborted)
    return;
  PathState A = std::move(State);
  State = std::move(Saved);
  State.Why = Why;
  State.WhyFromInput = C.FromInput;
  exec(If->getElse());
  if (UnwindTo || Aborted)
    return;
  std::vector<PathState> Both;
  Both.push_back(std::move(A));
  Both.push_back(std::move(State));
  join(std::move(Both), OuterWhy, OuterInput, If->getEndLoc());
}

void HostInterpreter::jump(bool IsBreak, const clang::Stmt *S) {
  std::vector<JumpTarget> &Ts = Frames.back().Targets;
  for (auto It = Ts.rbegin(); It != Ts.rend(); ++It) {
    if (!IsBreak && !It->IsLoop)
      continue;
    (IsBreak ? It->Breaks : It->Continues).push_back(State);
    break;
  }
  State.Dead = true;
}

bool HostInterpreter::canLaunch(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def)
    return false;
  auto It = LaunchMemo.find(Def);
  if (It != LaunchMemo.end())
    return It->second;
  LaunchMemo[Def] = false; // Recursion: assume not while we look.
  bool R = canLaunch(Def->getBody());
  LaunchMemo[Def] = R;
  return R;
}

bool HostInterpreter::canLaunch(const clang::Stmt *S) {
  if (!S)
    return false;
  if (isa<CUDAKernelCallExpr>(S))
    return true;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = CE->getDirectCallee())
      if (isUserFunction(FD) && canLaunch(FD))
        return true;
  for (const clang::Stmt *C : S->children())
    if (canLaunch(C))
      return true;
  return false;
}

/// The variable an assignment to E changes, if it is a tracked one.
static const VarDecl *assignedVar(const clang::Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return dyn_cast<VarDecl>(DRE->getDecl());
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return ME->isArrow() ? nullptr : assignedVar(ME->getBase());
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    // a[i] = ... changes a only when a is an array, not a pointer.
    const clang::Expr *B = AS->getBase()->IgnoreParenImpCasts();
    if (B->getType()->isArrayType())
      return assignedVar(B);
  }
  return nullptr;
}

void HostInterpreter::collectAssigned(const clang::Stmt *S,
                                      std::set<const VarDecl *> &Out,
                                      std::set<const FunctionDecl *> &Seen) {
  if (!S)
    return;
  auto Add = [&](const clang::Expr *E) {
    if (const VarDecl *VD = assignedVar(E))
      Out.insert(VD);
  };
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      Add(BO->getLHS());
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      Add(UO->getSubExpr());
  } else if (const auto *CE = dyn_cast<CallExpr>(S)) {
    if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE))
      if (OC->isAssignmentOp() || OC->getOperator() == OO_PlusPlus ||
          OC->getOperator() == OO_MinusMinus)
        Add(OC->getArg(0));
    if (const FunctionDecl *FD = CE->getDirectCallee()) {
      unsigned Shift = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD);
      for (unsigned I = Shift; I < CE->getNumArgs(); ++I) {
        if (I - Shift >= FD->getNumParams())
          break;
        QualType PT = FD->getParamDecl(I - Shift)->getType();
        if (PT->isLValueReferenceType() &&
            !PT.getNonReferenceType().isConstQualified())
          Add(CE->getArg(I));
      }
      // What the callee changes: only globals matter here.
      const FunctionDecl *Def = nullptr;
      if (isUserFunction(FD) && FD->hasBody(Def) && Seen.insert(Def).second) {
        std::set<const VarDecl *> Inner;
        collectAssigned(Def->getBody(), Inner, Seen);
        for (const VarDecl *VD : Inner)
          if (VD->hasGlobalStorage())
            Out.insert(VD);
      }
    }
  }
  for (const clang::Stmt *C : S->children())
    collectAssigned(C, Out, Seen);
}

void HostInterpreter::havoc(const clang::Stmt *S, const std::string &Reason,
                            bool FromInput) {
  std::set<const VarDecl *> Vars;
  std::set<const FunctionDecl *> Seen;
  collectAssigned(S, Vars, Seen);
  for (const VarDecl *VD : Vars) {
    std::optional<int> Slot = slotOf(VD);
    if (!Slot)
      continue;
    auto It = State.Values.find(*Slot);
    if (It == State.Values.end())
      continue;
    HostValue V = It->second;
    if (V.Kind == HostValue::Pointer) {
      V.Reason = Reason;
    } else if (V.Kind == HostValue::Dim3 || V.Kind == HostValue::Array) {
      for (HostValue &E : V.Elems)
        E = HostValue::unknown(Reason, FromInput);
    } else if (V.Kind != HostValue::Function) {
      V = HostValue::unknown(Reason, FromInput);
    }
    write(LRef{*Slot, -1}, std::move(V));
  }
}

bool HostInterpreter::iterate(const clang::Stmt *Body, SourceLocation L) {
  exec(Body);
  if (UnwindTo || Aborted)
    return false;
  JumpTarget &JT = Frames.back().Targets.back();
  std::vector<PathState> Live = std::move(JT.Continues);
  JT.Continues.clear();
  Live.push_back(std::move(State));
  join(std::move(Live), JT.Why, JT.WhyFromInput, L);
  return !State.Dead;
}

void HostInterpreter::execLoop(const clang::Stmt *Loop, const clang::Stmt *Init,
                               const clang::Expr *Cond, const clang::Stmt *Inc,
                               const clang::Stmt *Body, bool TestFirst) {
  exec(Init);
  if (stopped())
    return;
  bool Quiet = !canLaunchLoop(Loop);
  std::string LongReason = "changes in the loop at " +
                           where(Loop->getBeginLoc()) +
                           ", which runs too long to follow";
  if (Quiet && LongQuietLoops.count(Loop)) {
    havoc(Loop, LongReason, false);
    return;
  }
  bool Outermost = Quiet && !QuietLoop;
  std::optional<PathState> Entry;
  if (Outermost) {
    Entry = State;
    QuietLoop = Loop;
    QuietLoopStart = Steps;
  }
  JumpTarget Target;
  Target.S = Loop;
  Target.Why = State.Why;
  Target.WhyFromInput = State.WhyFromInput;
  Frames.back().Targets.push_back(std::move(Target));
  std::vector<PathState> Exits;
  bool First = true;
  while (!stopped()) {
    if ((TestFirst || !First) && Cond) {
      HostValue C = eval(Cond);
      if (stopped())
        break;
      std::optional<bool> T = truth(C);
      if (!T) {
        unknownLoop(Loop, Body, Cond, Inc, C);
        break;
      }
      if (!*T) {
        Exits.push_back(std::move(State));
        State = PathState();
        State.Dead = true;
        break;
      }
    }
    First = false;
    if (!iterate(Body, Loop->getEndLoc()))
      break;
    if (const auto *IncE = dyn_cast_or_null<clang::Expr>(Inc))
      eval(IncE);
  }
  JumpTarget JT = std::move(Frames.back().Targets.back());
  Frames.back().Targets.pop_back();
  if (Outermost)
    QuietLoop = nullptr;
  if (UnwindTo == Loop) {
    // Too long to follow: forget what the loop changes.
    UnwindTo = nullptr;
    State = std::move(*Entry);
    LongQuietLoops.insert(Loop);
    havoc(Loop, LongReason, false);
    return;
  }
  if (UnwindTo || Aborted)
    return;
  std::vector<PathState> Out = std::move(JT.Breaks);
  for (PathState &E : Exits)
    Out.push_back(std::move(E));
  Out.push_back(std::move(State));
  join(std::move(Out), JT.Why, JT.WhyFromInput, Loop->getEndLoc());
}

void HostInterpreter::unknownLoop(const clang::Stmt *Loop,
                                  const clang::Stmt *Body,
                                  const clang::Expr *Cond,
                                  const clang::Stmt *Inc,
                                  const HostValue &CondV) {
  // One pass through the body reports its launches; afterwards whatever the
  // loop changes is unknown, since the number of passes is.
  std::string Why =
      "changes in the loop at " + where(Loop->getBeginLoc()) +
      " whose condition is unknown (" +
      (CondV.Reason.empty() ? "`" + text(Cond) + "`" : CondV.Reason) + ")";
  PathState Before = State;
  if (iterate(Body, Loop->getEndLoc()))
    if (const auto *IncE = dyn_cast_or_null<clang::Expr>(Inc))
      eval(IncE);
  if (UnwindTo || Aborted)
    return;
  std::vector<PathState> Both;
  Both.push_back(std::move(Before));
  Both.push_back(std::move(State));
  JumpTarget &JT = Frames.back().Targets.back();
  join(std::move(Both), JT.Why, JT.WhyFromInput, Loop->getEndLoc());
  if (!State.Dead)
    havoc(Loop, Why, CondV.FromInput);
  // Breaks taken in the pass land after the loop with unknown values too.
  for (PathState &B : JT.Breaks) {
    std::swap(State, B);
    havoc(Loop, Why, CondV.FromInput);
    std::swap(State, B);
  }
}

bool HostInterpreter::canLaunchLoop(const clang::Stmt *Loop) {
  auto It = StmtLaunchMemo.find(Loop);
  if (It != StmtLaunchMemo.end())
    return It->second;
  bool R = canLaunch(Loop);
  StmtLaunchMemo[Loop] = R;
  return R;
}

/// The elements a range-for walks, when they are known.
std::optional<std::vector<HostValue>>
HostInterpreter::rangeElements(const clang::Expr *Range, QualType &ElemTy) {
  const clang::Expr *E = Range->IgnoreImplicit();
  if (const auto *IL = dyn_cast<CXXStdInitializerListExpr>(E))
    E = IL->getSubExpr()->IgnoreImplicit();
  if (const auto *IL = dyn_cast<InitListExpr>(E)) {
    std::vector<HostValue> Out;
    for (const clang::Expr *Init : IL->inits()) {
      Out.push_back(eval(Init));
      ElemTy = Init->getType();
    }
    return Out;
  }
  HostValue V = eval(Range);
  if (V.Kind == HostValue::Array) {
    if (const auto *AT = Ctx.getAsArrayType(Range->getType()))
      ElemTy = AT->getElementType();
    return V.Elems;
  }
  return std::nullopt;
}

void HostInterpreter::execRangeFor(const CXXForRangeStmt *RF) {
  exec(RF->getInit());
  if (stopped())
    return;
  const VarDecl *LV = RF->getLoopVariable();
  QualType ElemTy;
  std::optional<std::vector<HostValue>> Elems =
      rangeElements(RF->getRangeInit(), ElemTy);
  if (stopped())
    return;
  int Slot = -1;
  if (isTracked(LV->getType())) {
    Slot = newSlot(LV, LV->getType().getNonReferenceType());
    Frames.back().Vars[LV] = Slot;
  }
  JumpTarget Target;
  Target.S = RF;
  Target.Why = State.Why;
  Target.WhyFromInput = State.WhyFromInput;
  Frames.back().Targets.push_back(std::move(Target));
  if (Elems) {
    for (const HostValue &V : *Elems) {
      if (stopped())
        break;
      if (Slot >= 0)
        write(LRef{Slot, -1}, convert(V, ElemTy, LV->getType(), nullptr));
      if (!iterate(RF->getBody(), RF->getEndLoc()))
        break;
    }
  } else {
    if (Slot >= 0)
      write(LRef{Slot, -1},
            HostValue::unknown("an element of `" + text(RF->getRangeInit()) +
                               "` at " + where(RF->getBeginLoc())));
    HostValue C = HostValue::unknown("the range `" + text(RF->getRangeInit()) +
                                     "` is not known");
    unknownLoop(RF, RF->getBody(), nullptr, nullptr, C);
  }
  JumpTarget JT = std::move(Frames.back().Targets.back());
  Frames.back().Targets.pop_back();
  if (UnwindTo || Aborted)
    return;
  std::vector<PathState> Out = std::move(JT.Breaks);
  Out.push_back(std::move(State));
  join(std::move(Out), JT.Why, JT.WhyFromInput, RF->getEndLoc());
}

void HostInterpreter::execSwitchFrom(const clang::Stmt *Body, size_t Entry) {
  const auto *CS = dyn_cast<CompoundStmt>(Body);
  if (!CS) {
    exec(Body);
    return;
  }
  for (size_t I = Entry; I < CS->size() && !stopped(); ++I)
    exec(CS->body_begin()[I]);
}

void HostInterpreter::execSwitch(const SwitchStmt *SW) {
  exec(SW->getInit());
  if (stopped())
    return;
  if (const VarDecl *CV = SW->getConditionVariable())
    execDecl(CV);
  if (stopped())
    return;
  HostValue C = eval(SW->getCond());
  if (stopped())
    return;
  // Entry points: the top-level statements that carry case labels.
  struct Entry {
    size_t Index;
    const SwitchCase *Label;
  };
  std::vector<Entry> Entries;
  const clang::Stmt *Body = SW->getBody();
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Body)) {
    for (size_t I = 0; I < CS->size(); ++I)
      for (const clang::Stmt *S = CS->body_begin()[I];
           isa_and_nonnull<SwitchCase>(S);
           S = cast<SwitchCase>(S)->getSubStmt())
        Entries.push_back({I, cast<SwitchCase>(S)});
  } else if (isa_and_nonnull<SwitchCase>(Body)) {
    for (const clang::Stmt *S = Body; isa_and_nonnull<SwitchCase>(S);
         S = cast<SwitchCase>(S)->getSubStmt())
      Entries.push_back({0, cast<SwitchCase>(S)});
  }
  std::optional<size_t> Default;
  for (const Entry &E : Entries)
    if (isa<DefaultStmt>(E.Label))
      Default = E.Index;

  JumpTarget Target;
  Target.S = SW;
  Target.IsLoop = false;
  Target.Why = State.Why;
  Target.WhyFromInput = State.WhyFromInput;
  Frames.back().Targets.push_back(std::move(Target));
  std::vector<PathState> Ends;
  if (C.isInt()) {
    std::optional<size_t> Taken;
    for (const Entry &E : Entries) {
      const auto *Case = dyn_cast<CaseStmt>(E.Label);
      if (!Case)
        continue;
      llvm::APSInt Lo = Case->getLHS()->EvaluateKnownConstInt(Ctx);
      bool Match = Lo.getExtValue() == C.I;
      if (const clang::Expr *RHS = Case->getRHS()) // GNU case ranges.
        Match = C.I >= Lo.getExtValue() &&
                C.I <= RHS->EvaluateKnownConstInt(Ctx).getExtValue();
      if (Match) {
        Taken = E.Index;
        break;
      }
    }
    if (!Taken)
      Taken = Default;
    if (Taken)
      execSwitchFrom(Body, *Taken);
    Ends.push_back(std::move(State));
  } else {
    std::string Why = C.Reason.empty() ? "depends on the switch at " +
                                             where(SW->getBeginLoc())
                                       : C.Reason;
    PathState Saved = std::move(State);
    Saved.Why = Why;
    Saved.WhyFromInput = C.FromInput;
    std::set<size_t> Seen;
    for (const Entry &E : Entries) {
      if (!Seen.insert(E.Index).second)
        continue;
      State = Saved;
      execSwitchFrom(Body, E.Index);
      if (UnwindTo || Aborted)
        break;
      Ends.push_back(std::move(State));
    }
    if (!Default)
      Ends.push_back(std::move(Saved)); // No label matched.
  }
  JumpTarget JT = std::move(Frames.back().Targets.back());
  Frames.back().Targets.pop_back();
  if (UnwindTo || Aborted)
    return;
  for (PathState &B : JT.Breaks)
    Ends.push_back(std::move(B));
  join(std::move(Ends), JT.Why, JT.WhyFromInput, SW->getEndLoc());
}

} // namespace gmem
