//===- result.h - What the simulator predicts for one launch --------------===//
//
// Counts are exact totals over every warp of the launch. Views (text tables,
// JSON, comparison) read these structures and nothing else.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_MODEL_RESULT_H
#define GMEM_MODEL_RESULT_H

#include "model.h"
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gmem {

/// One request of an access as its lanes made it, for pictures of lanes,
/// sectors and banks (views/svg_view.cpp): of the requests with the most
/// units, the launch's first (in block and warp order), with its real
/// addresses, whichever warp source ran the launch.
struct WarpSample {
  uint32_t Mask = 0;      ///< Active lanes.
  uint64_t Addr[32] = {}; ///< Each active lane's first byte.
  unsigned Size = 0;      ///< Bytes per lane.
  uint64_t Units = 0;     ///< The request's sectors or wavefronts.
  uint64_t IdealUnits = 0;
  /// Where it was seen, as StrideOrder: of the requests with the most
  /// units, the one of the smallest order is kept, whatever order blocks
  /// ran in.
  uint64_t Order = ~uint64_t(0);
  /// Which request of this access its warp was making: 1 for the warp's
  /// first (a loop's first iteration), 0 where not known (the executor's).
  uint64_t Execution = 0;
  /// Whether O should replace this one.
  bool worseThan(const WarpSample &O) const {
    return O.Units > Units || (O.Units == Units && O.Order < Order);
  }
};

/// Totals for one access over the whole launch.
struct AccessStats {
  uint64_t Requests = 0;    ///< Warp instructions with at least one lane.
  uint64_t ActiveLanes = 0; ///< Sum of active lanes over those requests.
  /// Global: 32-byte sectors; shared: wavefronts.
  uint64_t Units = 0;
  /// Units as the SASS per-instruction counters count them (distinct
  /// sectors of each atomic request; Units otherwise).
  uint64_t SassUnits = 0;
  /// How many more than SassUnits (and BoundedSass) the SASS counters may
  /// count: copies bypassing L1 whose shared wavefronts are bounded.
  uint64_t SassSlack = 0;
  uint64_t IdealUnits = 0;         ///< The fewest the same bytes could take.
  uint64_t DistinctBytes = 0;      ///< Per request, bytes counted once, summed.
  uint64_t MaxUnitsPerRequest = 0; ///< The costliest request.
  uint64_t MaxWays = 0;            ///< Shared: worst bank-conflict degree.
  uint64_t MisalignedLanes = 0;    ///< Lanes whose address is not a
                                   ///< multiple of the access size.
  uint64_t UnknownRequests = 0;    ///< Executed, but address not computable.
  /// Of those, executions that may not happen at all (code under a
  /// condition or in a loop that cannot be computed): the request count
  /// itself is unknown.
  uint64_t UncountedRequests = 0;
  uint64_t OutOfBoundsLanes = 0; ///< Shared: lanes outside the array.
  /// Unknown requests whose pointer arithmetic left the address space.
  uint64_t OverflowRequests = 0;
  std::string UnknownReason;                           ///< First reason seen.
  UnknownCause ReasonCause = UnknownCause::Unmodelled; ///< Its cause.
  /// Groups the compiler merged (Access::Compiled) whose lanes' bytes were
  /// not one aligned run in the simulation: issued one request per part.
  uint64_t UnmergedGroups = 0;
  /// Executions of a generic instruction whose lanes all reached local (or
  /// parameter) memory: the GPU executes the instruction, with no global or
  /// shared request (its per-line instruction count has them).
  uint64_t LocalExecutions = 0;
  /// Executions by warps with every lane off a Guarded access (its guard
  /// false on every lane, or the whole warp skipping the short branch body
  /// that holds it): the GPU executes the predicated instruction with no
  /// request. Its per-line instruction count has them; its kernel-level
  /// instruction and request counters do not (reduce v0 of
  /// How_to_optimize_in_GPU on an H200, tests/data/measured/howto).
  uint64_t PredicatedOff = 0;
  /// Executions of a generic instruction with lanes in shared memory (on
  /// its shared side) or in local memory (on its global side): a GPU
  /// counts their bytes among both its global and its shared data bytes
  /// (simulator/metrics.cpp).
  uint64_t GenericElsewhere = 0;
  /// Of those in local memory, per execution, the bytes of the distinct
  /// local addresses, summed.
  uint64_t GenericLocalBytes = 0;
  /// Of a generic instruction's lanes in global memory, per execution, the
  /// bytes of the distinct addresses, summed: a GPU counts them among its
  /// shared data bytes too (simulator/metrics.cpp).
  uint64_t GenericGlobalBytes = 0;
  /// The shared side of an async copy: requests priced from both sides'
  /// addresses (simulator/async_copy_units.h); the others priced, as plain
  /// stores by a source that saw one side only, are not the GPU's.
  uint64_t AsyncRuled = 0;
  /// Of the bounded requests, those whose bytes are known (their addresses
  /// are; the rule is not), and their distinct bytes, summed: an
  /// efficiency over them has bounds too.
  uint64_t BoundedWithBytes = 0, BoundedBytes = 0;
  /// Of the bounded requests, those whose sectors read are known where
  /// L1's count is not (BoundedEvent::Traffic), and those sectors, summed.
  uint64_t BoundedWithTraffic = 0, BoundedTraffic = 0;
  /// Of the bounded requests, those whose SASS counts are known where L1's
  /// is not (BoundedEvent::Sass), and those counts' fewest, summed.
  uint64_t BoundedWithSass = 0, BoundedSass = 0;
  /// Unknown requests whose cost is bounded (address from loaded data in a
  /// proven range), and the sums of their fewest and most units.
  uint64_t BoundedRequests = 0;
  uint64_t MinUnits = 0, MaxUnits = 0;
  /// Address distance between the first two neighbouring active lanes of
  /// the first request, to explain the pattern (HasStride when seen).
  int64_t Stride = 0;
  bool HasStride = false;
  uint64_t FirstAddress = 0; ///< Lowest lane's address in that request.
  /// Where the stride and the reason were seen: linear block index times
  /// warps per block plus warp, so that merging keeps the launch's first
  /// whatever order blocks were run in.
  uint64_t StrideOrder = ~uint64_t(0);
  uint64_t ReasonOrder = ~uint64_t(0);
  /// The costliest request (the first of them), when any was priced.
  std::optional<WarpSample> Costliest;

  /// Every unknown request is bounded: Units + [MinUnits, MaxUnits] holds.
  bool bounded() const { return UnknownRequests == BoundedRequests; }
  /// The units that reach L2 and DRAM: Units, with those of bounded
  /// requests whose sectors read are known; none where others are unknown.
  std::optional<uint64_t> trafficUnits() const {
    if (UncountedRequests || UnknownRequests != BoundedWithTraffic)
      return std::nullopt;
    return Units + BoundedTraffic;
  }
  /// Timing decides how often it runs: Requests (and Units) are the fewest
  /// a GPU makes, not its count.
  bool atLeast() const {
    return UncountedRequests && ReasonCause == UnknownCause::Timing;
  }
  /// The request count as the views print it: "2048", ">= 2048", "unknown".
  std::string requestsText() const {
    return atLeast()           ? ">= " + std::to_string(Requests)
           : UncountedRequests ? std::string("unknown")
                               : std::to_string(Requests);
  }
  double perRequest() const {
    return Requests ? double(Units) / double(Requests) : 0.0;
  }
  /// Distinct bytes over what the units can carry (ArchRules::unitBytes).
  double efficiencyPct(unsigned UnitBytes) const {
    return Units ? 100.0 * double(DistinctBytes) / (UnitBytes * double(Units))
                 : 0.0;
  }
  void add(const AccessStats &O);
};

/// The shared side of an async copy whose wavefronts were not all priced
/// from both sides' addresses: a source that saw only the shared side
/// (the kernel model's warps) priced them as plain stores, which they are
/// not.
inline bool asyncWavefrontsUnknown(const Access &A, const AccessStats &S) {
  return A.AsyncPartner >= 0 && A.Sp == Space::Shared &&
         S.Requests > S.AsyncRuled + S.UnknownRequests;
}
inline const char *const AsyncSharedSide =
    "the shared side of an async copy (cp.async, LDGSTS): in no shared load "
    "or store figure; its wavefronts depend on where each lane reads as "
    "well as where it writes, which only the executed PTX pairs (run the "
    "launch: --path executed)";

/// A kernel-level figure: known, or unknown with the reason.
struct Metric {
  std::optional<double> Value;
  std::string UnknownReason;
  /// When Value is unknown: the figure over the known requests only, how
  /// many requests it leaves out, and bounds over all requests when every
  /// unknown request is bounded.
  std::optional<double> KnownPart, Min, Max;
  uint64_t ExcludedRequests = 0;
  /// The known part leaves out the requests of the device runtime's code
  /// (printf, malloc) too, whose number is not known.
  bool ExcludesRuntime = false;
};

/// A lane that faults, the launch's first (in block and warp order): what a
/// finding names as its example.
struct FaultExample {
  Dim3 Block;
  uint64_t Thread = 0;  ///< Linear index of the thread in its block.
  uint64_t Address = 0; ///< Shared: offset in shared memory; else address.
};

/// The board's memory system, from its published figures (the DRAM
/// traffic and duration models' inputs: simulator/dram_traffic.h,
/// simulator/launch_time.h).
struct MemorySystem {
  std::string Product;           ///< "NVIDIA H200".
  uint64_t L2Bytes = 0;          ///< Its L2's size.
  double DramBytesPerSecond = 0; ///< Bus width x memory clock x 2.
  unsigned SMs = 0;
  unsigned ThreadsPerSM = 0, BlocksPerSM = 0; ///< Resident at most.
  double ClockHz = 0;   ///< The SM clock a measurement runs at.
  std::string ClockWhy; ///< Which clock that is.
};

/// The DRAM bytes a launch moves, caches flushed before it as Nsight
/// Compute does (simulator/dram_traffic.h says how they are worked out).
struct DramTraffic {
  std::string Board;       ///< The product whose memory system is assumed.
  bool Known = false;      ///< ReadBytes and WriteBytes computed.
  /// Not known, but ReadBytes and WriteBytes bound it (every sector priced,
  /// only the buffers' sizes missing).
  bool Bounded = false;
  std::string Why;         ///< When not known.
  /// Reads counted over every block of the launch (L2Traffic's
  /// LaunchLoadBlocks), not from the per-buffer totals.
  bool ReadCounted = false;
  uint64_t ReadBytes = 0;  ///< Known: the prediction; Bounded: a bound.
  uint64_t WriteBytes = 0; ///< Known: the prediction; Bounded: a bound.
  uint64_t Footprint = 0;  ///< Distinct bytes touched (known: exact bound).
  /// Of ReadBytes, what the launch reads besides its data (its code,
  /// parameters and constant banks).
  uint64_t LaunchBytes = 0;
  /// Known: per buffer (allocation name), the bytes its loads read from a
  /// flushed L2's DRAM, the bytes its stores write and those it touches:
  /// what a warm L2 (simulator/l2_residency.h) works from.
  struct BufferBytes {
    uint64_t Read = 0, Written = 0, Footprint = 0;
  };
  std::map<std::string, BufferBytes> Buffers;
  /// Set where the L2 was taken warm (--l2 warm): what the launches before
  /// it and the host's copies left there, and for a repeated launch (a
  /// timing loop) what each repeat after the first reads and writes.
  bool Warm = false;
  uint64_t RepeatReadBytes = 0, RepeatWriteBytes = 0;
  uint64_t L2Bytes = 0;
  double DramBytesPerSecond = 0;
  /// (Read + write) / DRAM bandwidth: no launch moving them is faster.
  double minSeconds() const {
    return DramBytesPerSecond > 0
               ? double(ReadBytes + WriteBytes) / DramBytesPerSecond
               : 0;
  }
};

/// The sectors a launch's L1s ask of the L2 (simulator/l2_traffic.h says
/// how they are worked out), and what Nsight Compute counts for them.
struct L2Traffic {
  bool Known = false;
  std::string Why; ///< When not known.
  /// Global load sectors that miss L1: the distinct sectors each block
  /// loads, the sampled blocks' mean times the blocks.
  uint64_t MissSectors = 0;
  uint64_t StoreSectors = 0, AtomicSectors = 0, ReductionSectors = 0;
  unsigned SampledBlocks = 0;
  /// Every block's first touches counted (the executed path), not sampled.
  bool EveryBlock = false;
  /// A launch small enough to run every block in full: the distinct 64-byte
  /// blocks its loads and atomics touch over the whole launch, which a cold
  /// L2 fetches from DRAM (dram_traffic.h).
  std::optional<uint64_t> LaunchLoadBlocks;
  /// lts__t_sectors_op_{read,write}.sum: the sectors above, with a split
  /// L2's recount and every launch's own reads. (Atomics' op_atom and
  /// op_red: the H200 counted 1.5 to 2 times their L1 sectors, no rule
  /// found; not predicted.)
  uint64_t ReadSectors = 0, WriteSectors = 0;
};

/// How long a launch takes on a board, unit by unit
/// (simulator/launch_time.h says how).
struct LaunchTime {
  bool Known = false;
  /// Not known, but between Seconds and UpperSeconds: every unit is known
  /// but DRAM, whose bytes are only bounded (DramTraffic::Bounded).
  bool Bounded = false;
  std::string Why; ///< When not known.
  double Seconds = 0;
  double UpperSeconds = 0; ///< Bounded only.
  double ClockHz = 0;      ///< The SM clock assumed.
  std::string ClockWhy;    ///< "locked to base, as Nsight Compute does".
  /// Each unit's bound: the launch takes at least this long for it.
  struct Bound {
    std::string Unit; ///< "DRAM", "L2", "L1", "block launch".
    double Seconds = 0;
    std::string Work; ///< What it moves: "115.3 MB at 2.31 TB/s".
  };
  std::vector<Bound> Bounds;
  std::string Limit; ///< The unit with the longest bound.
  /// A unit not bounded, and why: "instruction issue: the launch was not
  /// executed".
  std::string Unpriced;
  /// Global bytes the lanes asked for (loads and stores, counted once per
  /// request) over the duration: the seeds' effective bandwidth.
  double RequestedBytes = 0;
  /// Shared wavefronts as the bank rule counts them per instruction, and
  /// at most how many a GPU counts when warps of several blocks on an SM
  /// conflict together (a timing effect, simulator/launch_time.h), and
  /// why they differ or do not. Zero when the launch has no shared
  /// access or its wavefronts are not known.
  uint64_t SharedWavefronts = 0, SharedWavefrontsAtMost = 0;
  std::string SharedContention;
};

/// What a GPU's per-line counters count on one source line beyond its
/// accesses: an H200 counts each warp's wgmma with shared-memory operands
/// as one shared instruction, and the operands' bytes over 128 as
/// wavefronts of its warpgroup (A's 64 rows of 32 bytes unless A is in
/// registers, B's N rows), which its kernel totals do not count
/// (tests/data/measured/hopper).
struct LineShared {
  std::string File;
  unsigned Line = 0;
  uint64_t Instructions = 0, Wavefronts = 0;
};

struct LaunchResult {
  Launch L;
  const Kernel *K = nullptr;
  /// The kernel K points to when the result owns it (the executed path's
  /// kernel of PTX accesses); the model's kernels live in their Module.
  std::shared_ptr<const Kernel> OwnedKernel;
  std::string Arch;
  std::vector<AccessStats> PerAccess; ///< Indexed by Access::Id.
  /// Shared instructions and wavefronts the GPU's per-line counters give a
  /// source line and its kernel totals do not (executed launches' wgmma).
  std::vector<LineShared> LineOnly;
  uint64_t Warps = 0;                 ///< Warps of the launch.
  /// Warps run one by one (evaluator runs) and warps whose counts were
  /// derived from another's (the fast path's classes of alike blocks).
  uint64_t WarpsEvaluated = 0, WarpsDerived = 0;
  /// Non-empty when the launch was not simulated in full (too many warps
  /// to run one by one): why, and what to pass. All counts are then unknown.
  std::string Incomplete;
  double Seconds = 0; ///< Simulation wall time.
  /// Nsight Compute and nvprof names (metrics.cpp computes them).
  std::map<std::string, Metric> Metrics;
  std::vector<std::string> Diagnostics; ///< E.g. out-of-bounds shared access.
  /// Per access (Access::Id): the first lane outside its shared array and
  /// the first misaligned lane, where there is one.
  std::vector<std::optional<FaultExample>> FirstOutOfBounds, FirstMisaligned;
  /// Which path produced the figures: "model" (the kernel model,
  /// simulated) or "executed" (its PTX, run), and why that one.
  std::string Path = "model";
  std::string PathWhy;
  /// The executed path: thread instructions run, and the seconds they took
  /// (in the recording runtime, for a functional recording).
  uint64_t ThreadInstructions = 0;
  /// What running the launch's PTX counted for instruction issue, where it
  /// ran (on either path: a functional recording runs launches the model
  /// prices too), and the SASS warp instructions that stands for: each PTX
  /// one reached weighed by the kernel's SASS over PTX count, in loops and
  /// outside them apart.
  std::optional<PtxIssue> Issue;
  std::optional<double> SassWarpInstructions;
  double ExecSeconds = 0;
  /// The executed path: global load sectors new to their block, over every
  /// block (what simulator/l2_traffic.h otherwise samples).
  std::optional<uint64_t> L1MissSectors;
  /// The executed path: for each access, the model's access it stands for
  /// (its Access::Id), or -1.
  std::vector<int> ModelAccess;
  /// How many times the host code makes this same launch (same place,
  /// configuration and arguments: a timing loop); the figures are per launch.
  uint64_t Count = 1;
  /// Set where the board is known (gmem-analyze's launches).
  std::optional<DramTraffic> Dram;
  std::optional<L2Traffic> L2;
  std::optional<LaunchTime> Time;
  /// The board both were predicted for, for re-simulated remedies.
  std::optional<MemorySystem> Board;
};

} // namespace gmem

#endif // GMEM_MODEL_RESULT_H
