//===- compare.h - Predictions beside measurements ------------------------===//
//
// `gmem-analyze FILE.cu --compare MEASURED` simulates exactly the launches a
// GPU measured and sets every metric present on both sides, and every source
// line the measurement has, beside its prediction with a verdict:
//
//   Match      within tolerance;
//   Explained  beyond tolerance, with a reason the tool established from the
//              data (each reason names its evidence);
//   Mismatch   beyond tolerance, no reason established (a hypothesis may be
//              given).
//
// A launch of which nothing measured has a prediction to stand beside is
// "not compared" and fails the comparison; measured metrics no row uses are
// listed with the reason (not predicted by gmem, no such request), and a
// name gmem does not know is an error before anything is built
// (checkMetricNames).
//
// Tolerances (a value is judged on the difference measured - predicted):
//   - counts (global requests and sectors, shared instructions): exact;
//   - global sectors per request and load/store efficiencies: exact up to
//     the printed precision, |difference| <= 0.005 (ncu prints 2 decimals);
//   - shared wavefronts per request: |difference| <= max(3 % of the
//     prediction, 0.15). Large grids add noise to the shared counters on
//     Hopper (../shared/groundtruth/README.md: a conflict-free store reads
//     1.05, a 16-way conflict 16.35, a 32-way one 32.16); single blocks read
//     exact integers. Wavefront totals are judged through that figure: a
//     total may differ by max(3 % of it, 0.15 x the predicted instructions);
//   - shared_efficiency (nvprof): the range those wavefront bounds imply.
// --strict accepts only values equal up to the printed precision.
//
// Reasons, each a check on the data (compare.cpp, lines.cpp):
//   (a) merged: the compiler merged accesses into wider instructions. On a
//       line: f = predicted requests / measured instructions is above 1 and
//       at most what the access size allows (16 bytes / size), and the
//       sectors (wavefronts) are what merging f accesses gives: no more than
//       predicted and no fewer than predicted / f (equal when each access
//       had its own sectors), with the measured ideal sectors (the bytes
//       asked for) no fewer than predicted, so that the bytes all arrived and
//       the cause is not warps missing. For a kernel count: the difference
//       is covered by such lines; without per-line data, by the kernel
//       totals meeting the same bounds.
//   (b) not executed: a line with predicted requests where the GPU executed
//       no memory instruction (no warp reached it, or the compiler removed
//       it), or the reverse; a kernel count whose difference those lines
//       account for. Also a line with more instructions than predicted
//       (requests, and executions predicated off that gmem counts:
//       AccessStats::PredicatedOff) but the same sectors and wavefronts:
//       warps with every lane inactive execute a predicated instruction
//       without a request.
//   (c) unknown: the prediction has no value because an address depends on
//       loaded data (the simulator's reason is quoted).
//   (d) contention: shared wavefronts of a launch that runs several blocks
//       on an SM measured at most 12 % above the bank rule's count (never
//       below). Warps of several blocks that access shared memory together
//       cost more wavefronts than each instruction alone, by an amount
//       their timing decides (simulator/launch_time.h's
//       SharedContentionAtMost): the H200 ground truth (h200_summary.txt)
//       reads 1.05 to 1.12 for 1, 16.35 for 16 (+2.2 %) and 32.16 for 32
//       (+0.5 %); one block per SM reads the rule's integers.
//   (e) counted elsewhere: -lineinfo puts some instructions at another
//       line than the access's (code inlined from an intrinsic like __ldg
//       in a CUDA header, a loop-invariant load hoisted to the loop's
//       line): a line measured below its prediction whose remainder
//       (instructions and sectors exactly, wavefronts within tolerance) is
//       what one to three lines without a prediction measured.
//   (f) other code, a hypothesis: a launch measured in kernel totals only
//       whose every row matches what another kernel of the file, launched
//       with the same grid and block, is predicted to do: the program
//       measured may have been built from other code (seed 000's nvprof
//       table and its listing disagree so). Which code ran cannot be
//       checked, so its rows stay mismatches, with this reason.
//   (g) replayed heap: a kernel that calls malloc or free, in kernel totals.
//       gmem-verify takes them with CUPTI's kernel replay, which does not
//       restore the device heap between passes, so a pass may not run as
//       the program does (an H200: heapRows of
//       tests/data/programs/runtime_own/device_runtime.cu got no memory
//       from malloc in that run, its results wrong; cuda-samples' newdelete
//       faulted). Its lines, measured in runs without replay, are compared.
//       Not for a measurement gmem-verify --no-replay made
//       (MeasuredLaunch::KernelReplay false).
// Ratios (per request, efficiency) inherit the reasons of the counts they are
// computed from.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_VIEWS_COMPARE_COMPARE_H
#define GMEM_VIEWS_COMPARE_COMPARE_H

#include "arch.h"
#include "expected.h"
#include "measurement.h"
#include "model.h"
#include "result.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace gmem {

enum class Verdict : uint8_t { Match, Explained, Mismatch };
/// Reason (g): why a device-heap kernel's totals are not compared.
inline const char *const ReplayedHeap =
    "the kernel uses the device heap (malloc, free), which the kernel "
    "replay that measured its totals does not restore between passes: they "
    "are not those of one run (its lines are compared)";
const char *verdictName(Verdict V);

//===----------------------------------------------------------------------===//
// Matching measured launches with the source's kernels and host launches.
//===----------------------------------------------------------------------===//

/// One measured launch and the launch gmem simulates for it.
struct MatchedLaunch {
  size_t Measured = 0; ///< Index in Measurement::Launches.
  const Kernel *K = nullptr;
  Launch L;            ///< Configuration and arguments to simulate.
  int HostLaunch = -1; ///< Index in Module::Launches, -1 if none.
  /// Where parts of L came from when not from the measurement.
  std::vector<std::string> Notes;
};

struct LaunchMatching {
  std::vector<MatchedLaunch> Launches;
  std::vector<size_t> Unmeasured; ///< Module::Launches never measured.
  std::vector<std::string> Notes; ///< About the matching as a whole.
};

/// Builds the launch to simulate for every measured launch: the kernel by
/// name; grid, block and dynamic shared memory from the measurement, or from
/// the k-th host launch of that kernel (k = its occurrence in the
/// measurement) where the measurement lacks them; argument values from the
/// measurement, else from that host launch; pointer allocations from the
/// host launch. A Failure is one line naming MeasurementName.
Expected<LaunchMatching> matchLaunches(const Module &M, const Measurement &Ms,
                                       const std::string &MeasurementName);

//===----------------------------------------------------------------------===//
// Comparing one launch.
//===----------------------------------------------------------------------===//

/// One metric, predicted and measured.
struct MetricComparison {
  /// The metric's name: the simulator's (Nsight Compute's where the
  /// catalog has both), or nvprof's for nvprof measurements (RowNames).
  std::string Name;
  /// Set when the measured value is computed from other metrics,
  /// e.g. "l1tex__t_sectors_..._ld.sum / l1tex__t_requests_..._ld.sum".
  std::string MeasuredFrom;
  std::optional<double> Predicted;
  std::string UnknownReason; ///< Why Predicted is empty.
  /// Where Predicted is empty but every unknown request is bounded: the
  /// metric lies in [first, second] (Metric::Min, Max), which the
  /// measurement is judged against.
  std::optional<std::pair<double, double>> Bounds;
  double Measured = 0;
  double Tolerance = 0; ///< Largest |difference| that is a Match.
  double Rounding = 0;  ///< Largest |difference| that is equality (--strict).
  Verdict V = Verdict::Match;
  std::string Reason; ///< Explained/Mismatch: the evidence, or why none.

  std::optional<double> difference() const {
    if (!Predicted)
      return std::nullopt;
    return Measured - *Predicted;
  }
  bool exact() const;
};

/// One source line: the accesses the model has on it beside what the SASS
/// instructions mapped to it measured.
struct LineComparison {
  std::string File; ///< Base name.
  unsigned Line = 0;
  std::vector<int> Accesses; ///< Access ids on this line.
  uint64_t PredictedRequests = 0;
  std::optional<uint64_t> PredictedSectors, PredictedWavefronts;
  uint64_t PredictedSectorsIdeal = 0, PredictedWavefrontsIdeal = 0;
  uint64_t PredictedGlobalRequests = 0, PredictedSharedRequests = 0;
  /// Executions of generic instructions that reached local memory only:
  /// instructions a GPU counts on the line, with no request.
  uint64_t PredictedLocalExecutions = 0;
  /// Executions of predicated instructions by warps with every lane off
  /// (AccessStats::PredicatedOff): counted on the line, with no request.
  uint64_t PredictedPredicatedOff = 0;
  std::string UnknownReason;
  /// Every unknown access of the line runs as often as timing decides
  /// (AccessStats::atLeast): its requests are the fewest a GPU makes.
  bool AtLeast = false;
  /// Where every unknown global access of the line is bounded (device
  /// heap placements, values proven to lie in a range): its sectors lie in
  /// [first, second].
  std::optional<std::pair<uint64_t, uint64_t>> SectorBounds;
  /// Likewise for shared wavefronts (an async copy's shared side whose
  /// rule is bounded).
  std::optional<std::pair<uint64_t, uint64_t>> WavefrontBounds;
  bool Measured = false;     ///< The measurement has this line.
  bool InstRecorded = false; ///< Its instruction count is known.
  uint64_t MeasuredInst = 0, MeasuredSectors = 0, MeasuredWavefronts = 0;
  uint64_t MeasuredSectorsIdeal = 0, MeasuredWavefrontsIdeal = 0;
  /// How the line was judged: "match", "merged", "inactive warps",
  /// "not executed", "not predicted", "elsewhere", "unknown", "bounded",
  /// "timing", "contention" or "differs".
  std::string Kind;
  Verdict V = Verdict::Match;
  std::string Reason;
  bool Exact = true;
};

/// An estimate beside its measurement: DRAM bytes and duration, which gmem
/// predicts from a model of the board's memory system and units
/// (simulator/dram_traffic.h, launch_time.h), not as exact counts. Each is
/// judged against a band (estimates.cpp has them), not a tolerance.
struct EstimateComparison {
  std::string Name;  ///< The measured metric: "dram__bytes_read.sum".
  std::string Label; ///< "DRAM bytes read".
  std::string Unit;  ///< "bytes", "ns".
  /// The prediction, or where DRAM bytes are only bounded, the range
  /// [Predicted, PredictedUpper]; none with UnknownReason.
  std::optional<double> Predicted, PredictedUpper;
  std::string UnknownReason;
  double Measured = 0;
  double Band = 0;  ///< Relative allowance, 0.10 for 10 %.
  double Floor = 0; ///< Absolute allowance, in Unit.
  bool Within = false;
  std::string Note; ///< Under which assumption: "at the measured 1.98 GHz".
};

/// A measured metric no row compares, and why.
struct UncomparedMetric {
  std::string Name;
  std::string Why;
};

struct LaunchComparison {
  MatchedLaunch Match;
  const MeasuredLaunch *Measured = nullptr;
  LaunchResult Predicted;
  std::vector<MetricComparison> Metrics;
  std::vector<LineComparison> Lines; ///< Empty without per-line data.
  std::vector<EstimateComparison> Estimates;
  std::vector<UncomparedMetric> Uncompared;
  /// The worst of all values; the estimates count only for a launch with
  /// no exact figure to compare (an estimate outside its band a mismatch).
  Verdict V = Verdict::Match;

  /// Nothing measured had a prediction to stand beside: never a match.
  bool compared() const {
    return !Metrics.empty() || !Lines.empty() || !Estimates.empty();
  }
  /// Only estimates were compared.
  bool onlyEstimates() const { return Metrics.empty() && Lines.empty(); }
};

//===----------------------------------------------------------------------===//
// Which measured metrics can be compared (metric_names.cpp).
//===----------------------------------------------------------------------===//

enum class MetricUse : uint8_t {
  Compared,     ///< gmem predicts it.
  NotPredicted, ///< A metric gmem knows (nvprof's or the catalog's) but
                ///< does not predict: DRAM bytes, time, occupancy.
  Unknown,      ///< No metric gmem knows.
};
MetricUse metricUse(std::string_view Name);

/// The name gmem compares that is nearest Name (nvprof's or Nsight's).
std::string closestMetricName(std::string_view Name, bool Nvprof);

/// An error naming the first measured metric that can only be a mistake:
/// in an nvprof log, any name nvprof does not have; elsewhere, a name within
/// a few letters of one gmem compares. With the file's line and the
/// closest known name. Nothing when every name is usable.
std::optional<std::string> checkMetricNames(const Measurement &Ms,
                                            const std::string &Path);

/// Which of a metric's names the rows carry: the simulator's (Nsight
/// Compute's where the catalog has both), or, for a measurement nvprof
/// took, nvprof's wherever the catalog has one (gld_efficiency, not
/// smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct), so that
/// the rows read like the table they are compared with. Either way the
/// measured value is found under any of the metric's names.
enum class RowNames : uint8_t { Predicted, Nvprof };

/// Nvprof for measurements read from nvprof logs ("nvprof-csv",
/// "nvprof-text"), Predicted for the others.
RowNames rowNamesFor(const Measurement &Ms);

/// Compares R (simulated for Measured's configuration) with Measured.
/// OwnFlush: gmem-verify emptied the L2 before the launch with a kernel of
/// its own, which leaves the launch's code and parameters there.
LaunchComparison compareLaunch(const MatchedLaunch &Match,
                               const MeasuredLaunch &Measured, LaunchResult R,
                               RowNames Names = RowNames::Predicted,
                               bool OwnFlush = false);

/// The estimates of compareLaunch (estimates.cpp): every one the
/// measurement and the prediction both have.
std::vector<EstimateComparison> compareEstimates(const LaunchResult &R,
                                                 const MeasuredLaunch &Measured,
                                                 bool OwnFlush = false);

/// The measured names compareEstimates reads (the clock among them).
bool usedByEstimates(std::string_view Name);

/// The per-line half of compareLaunch (lines.cpp).
std::vector<LineComparison> compareLines(const LaunchResult &R,
                                         const MeasuredLaunch &Measured);

//===----------------------------------------------------------------------===//
// The whole comparison and its views.
//===----------------------------------------------------------------------===//

struct Comparison {
  std::string File; ///< The source analysed.
  std::string MeasurementPath;
  const Measurement *Ms = nullptr;
  std::string Arch; ///< What the simulation assumed.
  std::vector<LaunchComparison> Launches;
  std::vector<Launch> Unmeasured; ///< Host launches no measurement covers.
  std::vector<std::string> Notes, Warnings;
};

/// 0 when every launch compared something and every value is Match or
/// Explained, 1 otherwise; Strict: 1 unless every value equals its
/// prediction up to the printed precision.
int comparisonExitCode(const Comparison &C, bool Strict);

/// "match", "explained", "mismatch", or "not compared".
const char *launchVerdict(const LaunchComparison &LC);
/// "3 launches: 1 match, 2 differ (2 explained, 0 unexplained), 0 not
/// compared": differences, explained or not, apart from matches.
std::string summaryText(const Comparison &C);

void printComparisonText(const Comparison &C, std::ostream &OS);
nlohmann::json comparisonJson(const Comparison &C);

struct ComparisonOptions {
  /// --arch; the measured device's compute capability wins when it names
  /// an architecture gmem knows (the launches ran there).
  std::string Arch = "sm_90";
  unsigned Threads = 0;
  bool Strict = false;
  std::string Format = "text"; ///< "text" or "json".
  /// What a launch is predicted to do (gmem-analyze's path: the model or
  /// the executed PTX); null: the model, simulated.
  std::function<LaunchResult(const Kernel &, const Launch &,
                             const ArchRules &)>
      Predict;
};

} // namespace gmem

#endif // GMEM_VIEWS_COMPARE_COMPARE_H
