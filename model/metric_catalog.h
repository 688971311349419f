//===- metric_catalog.h - Every metric gmem names, in one table -----------===//
//
// The one list of the figures gmem predicts, collects and imports: each row
// is one quantity, under its Nsight Compute name, its nvprof name, or both,
// with what it counts, how it follows from the counts, and how closely a
// measurement must agree. The simulator (which names it fills), the CUPTI
// collector (which counters it asks for), the nvprof importer (which names
// it translates) and the comparison (which rows it judges, with which
// tolerance) all read it. No dependencies: gpu/ builds it on its own.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_MODEL_METRIC_CATALOG_H
#define GMEM_MODEL_METRIC_CATALOG_H

#include <cstdint>
#include <string_view>
#include <vector>

namespace gmem {

/// The instructions a metric counts.
enum class MetricGroup : uint8_t {
  GlobalLd,    ///< Global load instructions (LDG) as the SASS counters see.
  GlobalSt,
  GlobalAtom,  ///< Atomics that return a value (ATOMG).
  SharedLd,
  SharedSt,
  SharedAll,   ///< Shared loads and stores together.
  GlobalRed,   ///< Atomics whose value is not used (REDG).
  AsyncLd,     ///< Global sides of async copies to shared memory (LDGSTS).
  GlobalLdAll, ///< Global loads as L1 counts them: LDG and LDGSTS.
  Other,       ///< Time, DRAM bytes.
};

/// What it is of them.
enum class MetricQuantity : uint8_t {
  Requests,   ///< Warp-level instructions.
  Units,      ///< Global 32-byte sectors, shared wavefronts.
  PerRequest, ///< Units / Requests.
  Efficiency, ///< Percent of the fetched bytes that were asked for.
  Other,      ///< Bytes, bank conflicts, time.
};

/// How closely a measurement must agree with a prediction
/// (views/compare/tolerances.h has the numbers).
enum class MetricTolerance : uint8_t {
  Exact,            ///< A count.
  Printed,          ///< Nsight Compute's 2 decimals.
  SharedTotal,      ///< Wavefronts: contention, per request.
  SharedPerRequest, ///< Wavefronts per request: contention.
  SharedEfficiency, ///< From noisy wavefronts.
};

/// Which of its names the simulator fills in LaunchResult::Metrics.
enum class Predicted : uint8_t { No, Ncu, Nvprof, Both };

struct MetricSpec {
  const char *Ncu = nullptr;    ///< Nsight Compute name, or null.
  const char *Nvprof = nullptr; ///< nvprof name, or null.
  const char *NcuText = "";     ///< Description under the Nsight name.
  const char *NvprofText = "";  ///< Description under the nvprof name.
  const char *Formula = "";     ///< How it follows from the counts.
  MetricGroup Group = MetricGroup::Other;
  MetricQuantity Quantity = MetricQuantity::Other;
  MetricTolerance Tolerance = MetricTolerance::Exact;
  bool Percent = false;
  Predicted Fills = Predicted::No;
  bool Collected = false; ///< gmem-verify's range profiler asks for it.
  /// gmem-verify's traffic run asks for it: one launch at a time, the L2
  /// emptied of the program's data before it, as Nsight Compute does.
  bool Traffic = false;

  /// The name the simulator fills and the comparison prints (Nsight's when
  /// the simulator fills both), or null when it predicts none.
  const char *predictedName() const {
    return Fills == Predicted::Ncu || Fills == Predicted::Both ? Ncu
           : Fills == Predicted::Nvprof                        ? Nvprof
                                                               : nullptr;
  }
  /// Its other name, under which a measurement may carry it, or null.
  const char *otherName() const {
    const char *P = predictedName();
    return P == Ncu ? Nvprof : Ncu;
  }
};

/// Every row. The order is the one the text view prints predicted names in
/// (nvprof's ratios first, then Nsight's counters).
const std::vector<MetricSpec> &metricCatalog();

/// The row with this Nsight or nvprof name, or null.
const MetricSpec *findMetric(std::string_view Name);

} // namespace gmem

#endif // GMEM_MODEL_METRIC_CATALOG_H
