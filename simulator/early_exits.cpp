//===- early_exits.cpp - Code after an early exit as the if's other side --===//
#include "early_exits.h"
#include "stmt_walk.h"

namespace gmem {

namespace {

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

std::optional<Kernel>
withEarlyExitsFolded(const Kernel &K,
                     const std::vector<std::string> &ParamUnknown) {
  const MaybeUnknown T(K, &ParamUnknown);
  Kernel Out = K;
  if (!fold(Out.Body, T))
    return std::nullopt;
  return Out;
}

} // namespace gmem
