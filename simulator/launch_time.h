//===- launch_time.h - How long a launch takes, and which unit limits it --===//
//
// A launch takes at least as long as its busiest unit needs for the work
// gmem predicts: DRAM for the bytes dram_traffic.h predicts, at the rate
// the loads in flight sustain (Little's law: the SMs' resident warps, each
// with up to two load requests in flight, over DRAM's latency) up to a
// share of its peak; L2 for the sectors L1 passes on; the L1 of the
// busiest SM for its blocks' global requests (a cycle each, or a cycle per
// two sectors) and shared wavefronts; the busiest SM's block scheduler for
// its blocks; and, for a launch the recording executed, the busiest SM's
// issue of its SASS instructions (the PTX ones it ran, each weighed by the
// kernel's SASS over PTX count). A launch that loads waits a DRAM round
// trip before its data pipe serves it. The duration is the longest of
// these plus
// the launch's fixed cost. The rates are fitted on the H200's launches of
// tests/data/traffic (docs/TRAFFIC.md says how close they come, and where
// not) and scaled to other boards by their SMs, clock and DRAM bandwidth.
// Latency chains (barriers, dependent loads with few warps in flight) are
// not modelled: a launch they limit takes longer than predicted.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_LAUNCH_TIME_H
#define GMEM_SIMULATOR_LAUNCH_TIME_H

#include "dram_traffic.h"

namespace gmem {

/// Fitted on the H200 by scripts/fit_launch_time.py (tests/data/traffic;
/// docs/TRAFFIC.md lists how close each launch comes).
struct TimeRates {
  /// DRAM: the share of its peak a launch reaches at most, the latency a
  /// load request waits, and the requests a warp keeps in flight at most.
  double DramShare = 0.75, DramLatencySeconds = 500e-9;
  double RequestsInFlight = 2;
  /// L1: global sectors per cycle a request passes beyond its first cycle.
  double L1SectorsPerCycle = 2;
  /// L2: the load sectors that miss L1 and reach it, and its bytes per SM
  /// and cycle.
  double L1MissShare = 0.25, L2BytesPerSmCycle = 10;
  /// The busiest SM's cycles to launch a block and each of its warps.
  double CyclesPerBlock = 100, CyclesPerWarp = 10;
  /// Instruction issue: SASS warp instructions an SM issues per cycle (four
  /// schedulers reach about three on the H200's reductions).
  double IssuePerSmCycle = 3;
  double LaunchSeconds = 2e-6;
};

/// Shared-memory wavefronts above the bank rule's count, at most: warps of
/// several blocks on an SM that issue shared accesses together (one
/// block's right after its barrier while another's fill its tile) cost
/// more wavefronts than each instruction alone, by an amount their timing
/// decides. Measured on the H200 (tests/data/contention): none with one
/// block per SM; up to 12 % more over many blocks (the seeds'
/// transposeSmemPad, 1.12 wavefronts per conflict-free load; 8.82 for a
/// column of a 16 x 16 tile, ideal 8; examples/bank_contention.cu, 0.8 to
/// 4.4 %).
inline constexpr double SharedContentionAtMost = 0.12;

/// The SASS warp instructions a run's PTX ones stand for: those in loops
/// and those outside weighed apart by the kernel's SASS over PTX count
/// (ptxas expands a PTX rem.u32 in a loop into 15 SASS instructions), the
/// loops' by how far ptxas unrolled them; none without both counts.
std::optional<double> sassWarpInstructions(const PtxIssue &I,
                                           const SassAccount &S);

LaunchTime predictTime(const LaunchResult &R, const MemorySystem &M,
                       const TimeRates &Rates = TimeRates());

} // namespace gmem

#endif // GMEM_SIMULATOR_LAUNCH_TIME_H
