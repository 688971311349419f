//===- box_eval.h - Run one warp index over a box of blocks at once -------===//
//
// The fast path's evaluator. It runs warp W of every block of a box (a
// strided rectangle of block indices) in one pass: every value is kept, per
// lane, as an affine function of the box coordinates u (block index =
// Lo + Stride * u), c0 + cx*ux + cy*uy + cz*uz, where c0 is the value the
// device computes at the box's first block and the function is exact, as an
// integer, everywhere in the box (checked against the type's range at every
// step, so no wrap-around hides in it).
//
// Whenever control flow, a division or the exactness would differ between
// blocks of the box, it stops and returns how to cut the box (Refine); the
// caller cuts and runs the parts. When it finishes, every block of the box
// took the same path, and each request's addresses are the first block's
// translated by the same amount t(u) in every lane: sectors, wavefronts and
// conflicts then depend only on t modulo a small period (32-byte sectors,
// 128-byte bank rows), so each residue is one request event
// (request_events.h) at the first block that has it, weighted by the number
// of blocks that have it. What the compiler made of an access
// (CompiledForm: merged into wider instructions, hoisted, reused, once per
// address) is followed as WarpEvaluator follows it, deciding for the whole
// box or cutting it. Semantics mirror WarpEvaluator exactly; the
// differential test (tests/simulator/fast_path_test.cpp) holds them equal.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_BOX_EVAL_H
#define GMEM_SIMULATOR_BOX_EVAL_H

#include "arch.h"
#include "exits.h"
#include "merge_groups.h"
#include "model.h"
#include "request_listeners.h"
#include "result.h"
#include "stmt_walk.h"
#include "warp_eval.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gmem {

/// Blocks Lo[d] + Stride[d] * u[d], u[d] < Ext[d], for d = x, y, z.
struct BlockBox {
  uint64_t Lo[3] = {0, 0, 0};
  uint64_t Stride[3] = {1, 1, 1};
  uint64_t Ext[3] = {1, 1, 1};
  uint64_t count() const { return Ext[0] * Ext[1] * Ext[2]; }
  Dim3 block(const uint64_t U[3]) const {
    return {Lo[0] + Stride[0] * U[0], Lo[1] + Stride[1] * U[1],
            Lo[2] + Stride[2] * U[2]};
  }
};

/// How to cut a box so that its parts behave alike.
struct Refine {
  enum KindT {
    Split,     ///< Dim's u below At and from At on.
    Residues,  ///< Dim into At classes of u modulo At (strided boxes).
    NonAffine, ///< A value is not affine in the dims of mask Dims.
    EveryWarp, ///< Run every block's warp on its own (a long loop that the
               ///< every-warp evaluator counts by periods, loop_skip.h).
  } Kind = Split;
  int Dim = 0;
  uint64_t At = 0;
  unsigned Dims = 0;
};

/// The cuts a run over a box found it needs. The first is made; the run
/// stops at the next statement (its values from then on are not used), and
/// the parts find any other cut again.
struct Cuts {
  std::optional<Refine> First;
  void add(const Refine &R) {
    if (!First)
      First = R;
  }
  explicit operator bool() const { return First.has_value(); }
};

class BoxEvaluator {
public:
  BoxEvaluator(const Kernel &K, const ArchRules &A, const LaunchEnv &Env);
  /// Runs warp W over Box, adding to Stats (one entry per access) counts for
  /// all of its blocks (nothing when the warp has no thread). Returns the
  /// cut to make instead when the blocks do not all behave alike; Stats are
  /// then partly filled, to be dropped.
  std::optional<Refine> run(const BlockBox &Box, unsigned W,
                            std::vector<AccessStats> &Stats);
  /// Long loops go to the every-warp evaluator, which counts them by
  /// periods (off: the every-iteration reference).
  bool HandOverLoops = true;
  /// Where requests go: the totals into the Stats given to run(), the
  /// first faults of the last run into Faults, and whatever else listens.
  RequestPipeline Requests;
  FirstFaults Faults;

  struct Val; ///< 32 lanes of affine values (box_eval.cpp).

private:
  Cuts Cut; ///< Of the current run.
  uint32_t eval(const Expr &E, uint32_t Mask, Val &Out);
  uint32_t evalOperator(const Expr &E, uint32_t Mask, Val &Out);
  uint32_t truthMask(const Val &V, IntType T, uint32_t Live);
  void execList(const std::vector<Stmt> &L, uint32_t Mask);
  void exec(const Stmt &S, uint32_t Mask);
  void execLoop(const Stmt &S, uint32_t Mask);
  void execAccess(const Access &A, uint32_t Mask);
  /// One request of A's instruction, Size bytes per lane, at V in every
  /// block of the box, to the pipeline: one event per class of blocks that
  /// cost the same.
  void issue(const Access &A, const Val &V, uint32_t Mask, unsigned Size);
  template <typename Evaluator>
  friend void skipUnknownCode(Evaluator &, uint32_t, const Why &,
                              const std::vector<Stmt> &,
                              const std::vector<Stmt> &, bool);
  void poison(const std::vector<Stmt> &L, const Why &Why);
  void forgetAssigned(const std::vector<Stmt> &L, uint32_t Lanes,
                      const Why &Why);
  /// A request of lanes Mask in every block (or, when !Issued, code that
  /// may hold one) whose cost is unknown.
  void markUnknown(int AccessId, const Why &Why, uint32_t Mask,
                   bool Issued = true);
  /// Launch order of this warp in block B (order(): in the box's first).
  uint64_t orderOf(const Dim3 &B) const;
  uint64_t order() const;
  /// Per residue modulo Period of the translation t(u) = C . u that some
  /// block of the box has: how many blocks have it, and the first of them
  /// in launch order (index 0: the box's first block when t is 0).
  struct Residue {
    uint64_t Count = 0;
    uint64_t U[3] = {0, 0, 0};
  };
  const std::vector<Residue> &residues(const int64_t C[3]);

  const Kernel &K;
  /// What a warp executes predicated off where it skips an if's side.
  PredicatedOffSides OffSides;
  const ArchRules &Arch;
  const LaunchEnv &Env;
  const unsigned Period; ///< Translations by a multiple cost the same.
  std::vector<AccessStats> *Stats = nullptr;
  /// Each access's requests when run() started: the difference over Blocks
  /// numbers the warp's requests (each adds one per block of the box).
  std::vector<uint64_t> WarpStart;
  AccessTotals Totals;
  BlockBox Box;
  uint64_t Blocks = 1;
  unsigned WarpInBlock = 0;
  std::vector<int64_t> SlotVals; ///< Slots x 32: c0.
  std::vector<int64_t> SlotCoef; ///< Slots x 3 x 32.
  std::vector<char> SlotDep;     ///< Whether SlotCoef may be non-zero.
  std::vector<uint32_t> SlotUnknown;
  std::vector<Why> SlotReason;
  uint32_t WarpLanes = 0;
  int64_t ThreadVals[3][32];
  uint32_t Dead = 0, Returned = 0, Broken = 0, Continued = 0;
  UncertainLanes Unc;
  Why LastUnknownReason;
  std::map<std::vector<int64_t>, std::vector<Residue>> ResidueCache;
  // Loops being run (innermost last), for the compiled forms that depend on
  // the iteration (CompiledForm::Hoisted, OncePerAddress).
  std::vector<LoopFrame> LoopStack;
  uint64_t NextLoopInstance = 0;
  std::map<const Stmt *, bool> Skippable; ///< analyzeLoop, per loop.
  /// Loop iterations this run (nested loops' included), and from how many
  /// on skippable loops are handed over.
  uint64_t IterationsRun = 0, HandOverAt = 0;
  /// OncePerAddress: per access, the loop instance and the requests made in
  /// it (mask, then each active lane's c0 and coefficients).
  std::vector<std::pair<uint64_t, std::vector<std::vector<int64_t>>>> Seen;
  bool seenBefore(const Access &A, const Val &V, uint32_t Mask);
  // Accesses the compiler merged into wider instructions, as in
  // WarpEvaluator: parts collect until a group is complete.
  struct Part {
    int AccessId;
    uint32_t Mask;
    std::vector<int64_t> Lanes; ///< V[32], then C[3][32].
  };
  using Group = MergeGroups<Part>::Group;
  MergeGroups<Part> Groups;
  void completeGroup(Group &G);
  void flushGroup(Group &G);

  friend struct BoxOps;
};

} // namespace gmem

#endif // GMEM_SIMULATOR_BOX_EVAL_H
