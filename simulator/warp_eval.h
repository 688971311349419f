//===- warp_eval.h - Run one warp of a kernel over the model --------------===//
//
// The reference evaluator: every expression is evaluated for all 32 lanes at
// once (values in int64_t, normalised to the expression's C++ type), control
// flow follows active-lane masks exactly as SIMT execution does, and every
// Access statement turns the active lanes' addresses into a request.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_WARP_EVAL_H
#define GMEM_SIMULATOR_WARP_EVAL_H

#include "arch.h"
#include "exits.h"
#include "launch_memory.h"
#include "loop_skip.h"
#include "merge_groups.h"
#include "model.h"
#include "request_listeners.h"
#include "result.h"
#include "stmt_walk.h"
#include "value_range.h"
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace gmem {

/// Launch-wide values the kernel sees.
struct LaunchEnv {
  Dim3 Grid, Block;
  uint64_t DynamicSmem = 0;
  std::vector<int64_t> ParamValues; ///< Normalised ints; pointers: address.
  std::vector<std::string> ParamUnknown; ///< Non-empty: why not known.
  /// Recorded launches: the allocations' bytes, where known.
  std::shared_ptr<const LaunchMemory> Memory;
};

class WarpEvaluator {
public:
  WarpEvaluator(const Kernel &K, const ArchRules &A, const LaunchEnv &Env,
                std::vector<AccessStats> &Stats);
  /// Runs warp W of block B; returns false if it had no thread.
  bool runWarp(Dim3 B, unsigned W);
  /// Where requests go: the totals into the Stats given, the first faults
  /// into Faults, and whatever else listens.
  RequestPipeline Requests;
  FirstFaults Faults;
  /// From this iteration on, a loop of loop_skip.h's shape is counted by
  /// periods (tests raise it to run every iteration).
  uint64_t LoopSkipFrom = 16;
  /// Loop iterations counted by periods rather than run, and of those,
  /// iterations of triangles' outer loops (second order, loop_skip.h).
  uint64_t SkippedIterations = 0, SkippedSecondOrder = 0;

private:
  using Lanes = int64_t[32];
  uint32_t eval(const Expr &E, uint32_t Mask, int64_t *Out, unsigned Depth,
                bool &Uniform);
  uint32_t evalOperator(const Expr &E, uint32_t Mask, int64_t *Out,
                        unsigned Depth, bool &Uniform);
  uint32_t evalLanes(const Expr &E, uint32_t Mask, int64_t *Out);
  /// A value loaded from memory the launch knows (Env.Memory).
  uint32_t evalLoaded(const Expr &E, uint32_t Mask, int64_t *Out,
                      unsigned Depth, bool &Uniform);
  uint32_t evalShuffle(const Expr &E, uint32_t Mask, int64_t *Out,
                       uint32_t Unknown, int64_t *Tmp, unsigned Depth);
  void execList(const std::vector<Stmt> &L, uint32_t Mask);
  void exec(const Stmt &S, uint32_t Mask);
  void execLoop(const Stmt &S, uint32_t Mask);
  void execAccess(const Access &A, uint32_t Mask);
  /// One request of A's instruction (Size bytes per lane) at Addr, to the
  /// pipeline.
  void issue(const Access &A, const uint64_t *Addr, uint32_t Mask,
             unsigned Size);
  // Accesses the compiler merged into wider instructions (Access::Compiled):
  // their executions collect here until a group is complete.
  struct Part {
    int AccessId;
    uint32_t Mask;
    uint64_t Addr[32];
  };
  using Group = MergeGroups<Part>::Group;
  void completeGroup(Group &G);
  void flushGroup(Group &G); ///< Issues each part on its own.
  MergeGroups<Part> Groups;
  std::vector<LoopFrame> LoopStack;
  // Long loops whose iterations only translate (loop_skip.h): one period of
  // iterations is run and the rest counted from it.
  std::map<const Stmt *, LoopShape> Shapes;
  struct SkipPlan {
    bool Set = false;
    /// Cleared when an execution in the period would not fit its types at
    /// the skipped range's end (checkPlans).
    bool Valid = true;
    /// The carried values changed from the first iteration to the second:
    /// every iteration of the period is checked.
    bool EveryIteration = false;
    uint64_t ApplyAt = 0, Count = 0, Period = 1;
    uint32_t Mask = 0;
    size_t Frame = 0; ///< The loop's entry in LoopStack.
    std::vector<AccessStats> Before;
    std::vector<std::pair<int, std::vector<i128>>> Incs; ///< Per lane.
    /// Where the skipped range ends, the slots' moves per lane from where
    /// the period began: the executions checked there (checkPlans).
    using Moves = std::vector<std::pair<int, std::vector<i128>>>;
    std::vector<Moves> EndMoves;
    /// Second order (loop_skip.h): Period is two periods of Step
    /// iterations, and Mid the statistics between them.
    bool SecondOrder = false;
    uint64_t Step = 0;
    std::vector<AccessStats> Mid;
    /// The carried slots' lanes and unknown lanes where the period began:
    /// they must be the same where it ends.
    std::vector<std::vector<int64_t>> Carried;
    std::vector<uint32_t> CarriedUnknown;
    uint64_t UnknownMark = 0;
  };
  bool planSkip(const Stmt &S, uint32_t Active, uint64_t Iter, uint64_t Periods,
                SkipPlan &P);
  struct SecondOrderPlan {
    uint64_t Step = 0, Count = 0;
    /// Inner counters' further moves at the range's end (m < 0).
    std::vector<std::pair<int, std::vector<i128>>> Extra;
  };
  bool planSecondOrder(
      const LoopShape &Sh, uint32_t Active, i128 N, uint64_t Reps,
      uint64_t Period,
      const std::function<std::optional<i128>(int)> &OuterIncOf,
      const std::function<std::optional<int64_t>(const Expr &)> &Leaf,
      unsigned &Lane, SecondOrderPlan &Out);
  /// Counts the period's repetitions; false (nothing counted) when the
  /// period did not repeat.
  bool applySkip(const Stmt &S, SkipPlan &P, uint64_t &Iter);
  /// In the first and last iteration of a planned period: every address
  /// must have its exact value there and at the skipped range's end.
  void checkPlans(const Access &A, uint32_t Mask);
  /// A leaf's value on Lane for exactValue(), a slot's moved by Moved;
  /// nullopt when unknown or (for a slot) outside 64 bits.
  std::optional<int64_t> leafValue(const Expr &E, unsigned Lane,
                                   i128 Moved) const;
  /// Whether the carried slots hold what they held where P began.
  bool carriedSame(const Stmt &S, const SkipPlan &P);
  std::vector<SkipPlan *> Pending;
  /// Unknown values met so far (a period with any does not count).
  uint64_t UnknownEvents = 0;
  uint64_t NextLoopInstance = 0;
  /// OncePerAddress accesses: the lanes and addresses of each request made
  /// in the current run (loop instance) of their unrolled loops.
  struct SeenRequests {
    uint64_t Instance = ~uint64_t(0);
    std::vector<uint64_t> Hashes;
    std::vector<std::vector<uint64_t>> Lanes; ///< Mask, then addresses.
  };
  std::vector<SeenRequests> Seen;
  /// Whether a request of A with these lanes and addresses was made before
  /// in this run of its loops (and remembers it if not).
  bool seenBefore(const Access &A, const uint64_t *Addr, uint32_t Mask);
  template <typename Evaluator>
  friend void skipUnknownCode(Evaluator &, uint32_t, const Why &,
                              const std::vector<Stmt> &,
                              const std::vector<Stmt> &, bool);
  void poison(const std::vector<Stmt> &L, const Why &Why);
  void forgetAssigned(const std::vector<Stmt> &L, uint32_t Lanes,
                      const Why &Why);
  /// A request of lanes Mask (or, when !Issued, code that may hold one)
  /// whose cost is unknown.
  void markUnknown(int AccessId, const Why &Why, uint32_t Mask,
                   bool Issued = true);
  // Bounds for unknown values (access_bounds.cpp).
  ValueRange laneRange(const Expr &E, unsigned Lane);
  uint32_t rememberRanges(const Stmt &S, uint32_t Lanes);
  void boundRequest(const Access &A, uint32_t Mask, const int64_t *V,
                    uint32_t U);

  const Kernel &K;
  /// What a warp executes predicated off where it skips an if's side.
  PredicatedOffSides OffSides;
  const ArchRules &Arch;
  const LaunchEnv &Env;
  std::vector<AccessStats> &Stats;
  /// Each access's requests when the warp started: the difference numbers
  /// the warp's requests (skipped loop iterations included).
  std::vector<uint64_t> WarpStart;
  AccessTotals Totals;
  Dim3 BlockIdx;
  unsigned WarpInBlock = 0;
  uint64_t Order = 0; ///< Linear block index * warps per block + warp.
  std::vector<int64_t> SlotVals;     ///< Slots x 32.
  std::vector<uint32_t> SlotUnknown; ///< Lanes whose value is unknown.
  std::vector<Why> SlotReason;       ///< Why, when some lane is unknown.
  /// Per slot and lane, a proven range of an unknown value; valid for the
  /// lanes in SlotRanged (others: the whole range of the slot's type).
  std::vector<ValueRange> SlotRange;
  std::vector<uint32_t> SlotRanged;
  /// Slots holding one value for every lane (kept in lane 0 only).
  std::vector<char> SlotUniform;
  uint32_t WarpLanes = 0; ///< The lanes this warp has.
  int64_t BuiltinVals[13][32];
  std::vector<int64_t> Scratch; ///< Depth x 32 temporaries for eval().
  // Lanes that left the construct being executed: returned from the current
  // function, or broke out of / continued the current loop.
  uint32_t Dead = 0;
  uint32_t Returned = 0, Broken = 0, Continued = 0;
  /// Lanes whose path is unknown (they skipped code under an unknown
  /// condition that could have returned or left a loop): their later
  /// accesses are unknown.
  UncertainLanes Unc;
  Why LastUnknownReason;
};

} // namespace gmem

#endif // GMEM_SIMULATOR_WARP_EVAL_H
