//===- early_exits.cpp - Code after an early exit as the if's other side --===//
#include "early_exits.h"

namespace gmem {

namespace {

/// Whether an expression may be unknown for some lane: loaded data,
/// shuffles, parameters without a value, or slots that may hold them.
struct Taint {
  const std::vector<std::string> &ParamUnknown;
  std::vector<char> Slots;

  bool of(const Expr *E) const {
    if (!E)
      return false;
    if (E->Kind == Op::Unknown || E->Kind == Op::Shfl)
      return true;
    if (E->Kind == Op::Param && E->Index >= 0 &&
        size_t(E->Index) < ParamUnknown.size() &&
        !ParamUnknown[E->Index].empty())
      return true;
    if (E->Kind == Op::Var &&
        (E->Index < 0 || size_t(E->Index) >= Slots.size() || Slots[E->Index]))
      return true;
    for (const ExprPtr &X : E->Ops)
      if (of(X.get()))
        return true;
    return false;
  }
  /// Marks the slots L assigns from tainted values; whether one was new.
  bool spread(const std::vector<Stmt> &L) {
    bool New = false;
    for (const Stmt &S : L) {
      if (S.Kind == StmtKind::Assign && S.Slot >= 0 &&
          size_t(S.Slot) < Slots.size() && !Slots[S.Slot] &&
          of(S.Value.get())) {
        Slots[S.Slot] = 1;
        New = true;
      }
      for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
        New |= spread(*Sub);
    }
    return New;
  }
};

bool endsInExit(const std::vector<Stmt> &L) {
  if (L.empty())
    return false;
  const StmtKind K = L.back().Kind;
  return K == StmtKind::Continue || K == StmtKind::Break ||
         K == StmtKind::Return;
}

/// Folds L and every list inside it; whether anything moved. An if whose
/// condition may be unknown is left alone: its unknown lanes skip both
/// sides, and the code after it must still run for them as before.
bool fold(std::vector<Stmt> &L, const Taint &T) {
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

std::optional<Kernel>
withEarlyExitsFolded(const Kernel &K,
                     const std::vector<std::string> &ParamUnknown) {
  Taint T{ParamUnknown, std::vector<char>(K.Slots.size(), 0)};
  while (T.spread(K.Body)) {
  }
  Kernel Out = K;
  if (!fold(Out.Body, T))
    return std::nullopt;
  return Out;
}

} // namespace gmem
