//===- has_loop.h - Which models a harness may simulate -------------------===//
#ifndef GMEM_FUZZ_HAS_LOOP_H
#define GMEM_FUZZ_HAS_LOOP_H

#include "model.h"

namespace gmem::fuzz {

/// Whether L has a loop: a model from a file or from source may run a loop
/// 2^26 times per warp, too slow for a fuzzing iteration.
inline bool hasLoop(const std::vector<Stmt> &L) {
  for (const Stmt &S : L)
    if (S.Kind == StmtKind::Loop || hasLoop(S.Then) || hasLoop(S.Else) ||
        hasLoop(S.Body))
      return true;
  return false;
}

} // namespace gmem::fuzz

#endif
