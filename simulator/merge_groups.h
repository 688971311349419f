//===- merge_groups.h - Compiled forms that depend on loop iterations -----===//
//
// What both evaluators (WarpEvaluator, BoxEvaluator) do with the compiler's
// forms of an access (CompiledForm) before pricing it: skip executions that
// issue nothing (a reused value, a hoisted load after the first iteration),
// and collect the parts of a merged instruction (accesses written in a row,
// or consecutive iterations of a loop) until the group is complete. The
// evaluators differ only in what a part holds (lane addresses, or affine
// lane values over a box of blocks) and in how a group is priced.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_MERGE_GROUPS_H
#define GMEM_SIMULATOR_MERGE_GROUPS_H

#include "model.h"
#include <algorithm>
#include <cstdint>
#include <vector>

namespace gmem {

/// A loop being run: which run of it (unique per evaluator) and iteration.
struct LoopFrame {
  uint64_t Instance = 0, Iter = 0;
};

/// Whether this execution of an access with compiled form C issues no
/// instruction: its value is reused, or it was hoisted out of loops that
/// are past their first iteration. Loops: innermost last.
inline bool issuesNothing(const CompiledForm &C,
                          const std::vector<LoopFrame> &Loops) {
  // No instruction of its own: none found in the SASS, or the one load of
  // a selected address (CompiledForm::Leader) issues for it.
  if (C.State == CompiledForm::Reused ||
      C.State == CompiledForm::NoInstruction ||
      C.State == CompiledForm::Selected)
    return true;
  if (C.State == CompiledForm::Hoisted)
    for (size_t L = 0; L <= size_t(std::max(C.Loop, 0)) && L < Loops.size();
         ++L)
      if (Loops[Loops.size() - 1 - L].Iter != 0)
        return true;
  return false;
}

/// The open groups of merged accesses of one warp. PartT has AccessId.
template <typename PartT> class MergeGroups {
public:
  struct Group {
    int Leader = -1;       ///< Merged across accesses: the leader's id,
                           ///< which the complete group is priced as.
    int AccessId = -1;     ///< Merged across iterations: the access.
    uint64_t Instance = 0; ///< Its loop instance, iteration / factor and
    uint64_t Block = 0;    ///< ordinal of the execution in the iteration.
    uint64_t Ordinal = 0;
    unsigned Need = 0;
    std::vector<PartT> Parts;
  };

  explicit MergeGroups(size_t Accesses)
      : LastIteration(Accesses, {~uint64_t(0), 0}),
        OrdinalInIteration(Accesses, 0) {}

  /// Drops open groups (a run cut short).
  void clear() { Groups.clear(); }
  bool empty() const { return Groups.empty(); }

  /// Adds P, an execution of A (CompiledForm::Merged). Alone(P) issues it
  /// on its own (its leader did not run, or no loop holds it);
  /// Complete(Group &) prices a full group; Flush(Group &) issues each part
  /// of a group cut short.
  template <typename AloneF, typename CompleteF, typename FlushF>
  void add(const Access &A, PartT P, const std::vector<LoopFrame> &Loops,
           AloneF Alone, CompleteF Complete, FlushF Flush) {
    const CompiledForm &C = A.Compiled;
    typename std::vector<Group>::iterator It;
    if (C.Leader >= 0) {
      // Merged across accesses written in a row: the first of them in the
      // source opens a group, the others join it. The leader is the one
      // whose line holds the instruction (a merged store sits on the last
      // store's line); accesses before it in the source may open the group.
      It = std::find_if(Groups.begin(), Groups.end(),
                        [&](const Group &G) { return G.Leader == C.Leader; });
      if (It != Groups.end() &&
          std::any_of(It->Parts.begin(), It->Parts.end(),
                      [&](const PartT &Q) { return Q.AccessId == A.Id; })) {
        // A member runs again before the group completed: a new group.
        Flush(*It);
        Groups.erase(It);
        It = Groups.end();
      }
      if (It == Groups.end()) {
        if (A.Id > C.Leader)
          return Alone(P);
        Group G;
        G.Leader = C.Leader;
        G.Need = C.Width / A.Size;
        Groups.push_back(std::move(G));
        It = Groups.end() - 1;
      }
    } else {
      // Merged across iterations of the loop C.Loop levels out.
      if (C.Loop < 0 || size_t(C.Loop) >= Loops.size())
        return Alone(P);
      const LoopFrame &F = Loops[Loops.size() - 1 - size_t(C.Loop)];
      const unsigned Need = C.Width / A.Size;
      auto &Last = LastIteration[size_t(A.Id)];
      uint64_t &Ordinal = OrdinalInIteration[size_t(A.Id)];
      if (Last.first == F.Instance && Last.second == F.Iter) {
        ++Ordinal;
      } else {
        Last = {F.Instance, F.Iter};
        Ordinal = 0;
      }
      const uint64_t Block = F.Iter / Need;
      It = std::find_if(Groups.begin(), Groups.end(), [&](const Group &G) {
        return G.AccessId == A.Id && G.Instance == F.Instance &&
               G.Block == Block && G.Ordinal == Ordinal;
      });
      if (It == Groups.end()) {
        Group G;
        G.AccessId = A.Id;
        G.Instance = F.Instance;
        G.Block = Block;
        G.Ordinal = Ordinal;
        G.Need = Need;
        Groups.push_back(std::move(G));
        It = Groups.end() - 1;
      }
    }
    It->Parts.push_back(std::move(P));
    if (It->Parts.size() == It->Need) {
      Complete(*It);
      Groups.erase(It);
    }
  }

  /// Groups merged across the iterations of loop run Instance end with it.
  template <typename FlushF> void endLoop(uint64_t Instance, FlushF Flush) {
    for (size_t I = 0; I < Groups.size();) {
      if (Groups[I].AccessId >= 0 && Groups[I].Instance == Instance) {
        Flush(Groups[I]);
        Groups.erase(Groups.begin() + I);
      } else {
        ++I;
      }
    }
  }

  /// Groups left incomplete at the warp's end (lanes that returned early).
  template <typename FlushF> void endWarp(FlushF Flush) {
    for (Group &G : Groups)
      Flush(G);
    Groups.clear();
  }

private:
  std::vector<Group> Groups;
  /// Per access: the loop iteration of its last execution and how many
  /// executions it had in that iteration (merges across iterations).
  std::vector<std::pair<uint64_t, uint64_t>> LastIteration;
  std::vector<uint64_t> OrdinalInIteration;
};

/// Whether the parts of a merged group, at one lane's addresses (N of them,
/// Size bytes each), are one run of Width bytes aligned to Width; Low gets
/// its first address.
inline bool oneAlignedRun(uint64_t *Addr, unsigned N, unsigned Size,
                          unsigned Width, uint64_t &Low) {
  std::sort(Addr, Addr + N);
  for (unsigned I = 1; I < N; ++I)
    if (Addr[I] != Addr[I - 1] + Size)
      return false;
  Low = Addr[0];
  return Addr[0] % Width == 0;
}

} // namespace gmem

#endif // GMEM_SIMULATOR_MERGE_GROUPS_H
