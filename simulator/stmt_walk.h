//===- stmt_walk.h - What a statement list holds, at any depth ------------===//
#ifndef GMEM_SIMULATOR_STMT_WALK_H
#define GMEM_SIMULATOR_STMT_WALK_H

#include "model.h"
#include <set>
#include <vector>

namespace gmem {

/// Adds to Ids the accesses (Access::Id) made anywhere in L: in branches,
/// loops and inlined calls too.
inline void accessesIn(const std::vector<Stmt> &L, std::set<int> &Ids) {
  for (const Stmt &S : L) {
    if (S.Kind == StmtKind::Access)
      Ids.insert(S.AccessId);
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      accessesIn(*Sub, Ids);
  }
}

} // namespace gmem

#endif // GMEM_SIMULATOR_STMT_WALK_H
