//===- early_exits.cpp - Code after an early exit as the if's other side --===//
#include "early_exits.h"
#include "stmt_walk.h"
#include "warp_eval.h"

namespace gmem {

namespace {

bool endsInExit(const std::vector<Stmt> &L) {
  if (L.empty())
    return false;
  const StmtKind K = L.back().Kind;
  return K == StmtKind::Continue || K == StmtKind::Break ||
         K == StmtKind::Return;
}

void markReads(const Expr *E, const std::vector<char> &Set,
               std::vector<char> &Unset) {
  if (!E)
    return;
  if (E->Kind == Op::Var && E->Index >= 0 && size_t(E->Index) < Set.size() &&
      !Set[size_t(E->Index)])
    Unset[size_t(E->Index)] = 1;
  for (const ExprPtr &X : E->Ops)
    markReads(X.get(), Set, Unset);
}

/// Marks in Unset the slots that L reads where Set (the slots set on every
/// path so far) lacks them, and adds to Set the slots L sets on every path.
/// Accesses are not followed: their addresses feed no condition.
void readBeforeSet(const std::vector<Stmt> &L, std::vector<char> &Set,
                   std::vector<char> &Unset) {
  for (const Stmt &S : L) {
    switch (S.Kind) {
    case StmtKind::Assign:
      markReads(S.Value.get(), Set, Unset);
      if (S.Slot >= 0 && size_t(S.Slot) < Set.size())
        Set[size_t(S.Slot)] = 1;
      break;
    case StmtKind::If: {
      markReads(S.Cond.get(), Set, Unset);
      std::vector<char> Then = Set, Else = Set;
      readBeforeSet(S.Then, Then, Unset);
      readBeforeSet(S.Else, Else, Unset);
      for (size_t I = 0; I < Set.size(); ++I)
        Set[I] = Then[I] && Else[I];
      break;
    }
    case StmtKind::Loop: {
      // As on entry for every part: a first pass may skip the body (or
      // leave it early) and reach the condition and the step from anywhere.
      std::vector<char> Part = Set;
      readBeforeSet(S.CondPre, Part, Unset);
      markReads(S.Cond.get(), Set, Unset);
      for (const auto *Sub : {&S.Body, &S.Step}) {
        Part = Set;
        readBeforeSet(*Sub, Part, Unset);
      }
      break;
    }
    case StmtKind::Call: {
      // A return before the call's last statement reaches the code after
      // the call with only what was set before it.
      std::vector<char> Part = Set;
      readBeforeSet(S.Body, Part, Unset);
      std::vector<Stmt> Head(S.Body.begin(), S.Body.end() - !S.Body.empty());
      if (!canLeaveLoop(Head, true))
        Set = Part;
      break;
    }
    default:
      break;
    }
  }
}

/// Folds L and every list inside it; whether anything moved. An if whose
/// condition may be unknown is left alone: its unknown lanes skip both
/// sides, and the code after it must still run for them as before.
bool fold(std::vector<Stmt> &L, const MaybeUnknown &T) {
  bool Moved = false;
  for (size_t I = 0; I < L.size(); ++I) {
    Stmt &S = L[I];
    if (S.Kind == StmtKind::If && S.Else.empty() && I + 1 < L.size() &&
        endsInExit(S.Then) && !T.of(S.Cond.get())) {
      S.Else.assign(std::make_move_iterator(L.begin() + I + 1),
                    std::make_move_iterator(L.end()));
      L.erase(L.begin() + I + 1, L.end());
      Moved = true;
    }
    for (auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      Moved |= fold(*Sub, T);
  }
  return Moved;
}

} // namespace

std::optional<Kernel> withEarlyExitsFolded(const Kernel &K,
                                           const LaunchEnv &Env) {
  // A slot read before it is set, and an operation undefined in some lanes,
  // are unknown to the evaluator there, as loaded data is.
  std::vector<char> Set(K.Slots.size(), 0), Unset(K.Slots.size(), 0);
  readBeforeSet(K.Body, Set, Unset);
  const MaybeUnknown T(
      K, {&Env.ParamUnknown, &Unset, /*Faults=*/true, &Env.ParamValues});
  Kernel Out = K;
  if (!fold(Out.Body, T))
    return std::nullopt;
  return Out;
}

} // namespace gmem
