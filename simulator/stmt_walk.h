//===- stmt_walk.h - What a statement list holds, at any depth ------------===//
#ifndef GMEM_SIMULATOR_STMT_WALK_H
#define GMEM_SIMULATOR_STMT_WALK_H

#include "model.h"
#include <algorithm>
#include <cstdint>
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

/// Whether L can leave its loop: a break outside nested loops, or a return
/// outside inlined calls.
inline bool canLeaveLoop(const std::vector<Stmt> &L,
                         bool InNestedLoop = false) {
  for (const Stmt &S : L) {
    if (S.Kind == StmtKind::Return ||
        (S.Kind == StmtKind::Break && !InNestedLoop))
      return true;
    if (S.Kind == StmtKind::Call)
      continue;
    bool Nested = InNestedLoop || S.Kind == StmtKind::Loop;
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      if (canLeaveLoop(*Sub, Nested))
        return true;
  }
  return false;
}

/// The lanes of warp Warp that a block of Threads threads has.
inline uint32_t laneMaskFor(uint64_t Threads, unsigned Warp) {
  uint64_t First = uint64_t(Warp) * 32;
  if (First >= Threads)
    return 0;
  uint64_t N = std::min<uint64_t>(32, Threads - First);
  return N == 32 ? 0xffffffffu : (1u << N) - 1;
}

} // namespace gmem

#endif // GMEM_SIMULATOR_STMT_WALK_H
