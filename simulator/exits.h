//===- exits.h - Where lanes skipped under an unknown condition may be ----===//
//
// Both evaluators skip code whose condition cannot be computed for some
// lanes. If that code could return or leave a loop, where those lanes go
// next is not known, and what runs after it is unknown for them, but only
// until the function or loop it could leave ends: a return inside an
// inlined __device__ function ends with the call, a break with its loop.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_EXITS_H
#define GMEM_SIMULATOR_EXITS_H

#include "model.h"
#include <cstdint>
#include <string>
#include <vector>

namespace gmem {

/// How code can leave the statement list it is in.
struct Exits {
  bool Return = false; ///< A return outside nested calls.
  bool Leave = false;  ///< A break or continue outside nested loops.
};

inline void exitsOf(const std::vector<Stmt> &L, Exits &E, bool InLoop = false) {
  for (const Stmt &S : L) {
    if (S.Kind == StmtKind::Return)
      E.Return = true;
    if ((S.Kind == StmtKind::Break || S.Kind == StmtKind::Continue) && !InLoop)
      E.Leave = true;
    if (S.Kind == StmtKind::Call)
      continue; // Its returns end with it.
    bool Nested = InLoop || S.Kind == StmtKind::Loop;
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      exitsOf(*Sub, E, Nested);
  }
}

/// The lanes whose path is unknown, and until where.
struct UncertainLanes {
  uint32_t All = 0;  ///< Every uncertain lane.
  uint32_t Left = 0; ///< Of those, the ones that may only have left a loop.
  Why Reason;

  /// Lanes that skipped code with exits E under a condition that cannot be
  /// computed (W).
  void mark(uint32_t Lanes, const Exits &E, const Why &W) {
    if (!E.Return && !E.Leave)
      return;
    size_t At = W.Text.find("condition");
    if (!All)
      Reason = At == std::string::npos
                   ? W
                   : Why{W.Cause, "an earlier " + W.Text.substr(At)};
    const uint32_t MayHaveReturned = All & ~Left;
    All |= Lanes;
    if (E.Return)
      Left &= ~Lanes;
    else
      Left |= Lanes & ~MayHaveReturned;
  }
  /// Entering a call or loop: what to restore when it ends.
  UncertainLanes save() const { return *this; }
  /// A call ended: its returns are behind every lane.
  void endCall(const UncertainLanes &Before) { *this = Before; }
  /// A loop ended: lanes that may only have left it are past it.
  void endLoop(const UncertainLanes &Before) {
    uint32_t Past = Left & ~Before.Left;
    All &= ~Past;
    // Lanes a return inside the loop took out of Left stay out.
    Left &= Before.Left;
  }
};

} // namespace gmem

#endif // GMEM_SIMULATOR_EXITS_H
