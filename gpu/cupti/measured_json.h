//===- measured_json.h - Writing measured.json, merging the two passes ----===//
//
// gmem-verify runs the program twice (see README.md): the counter pass writes
// the launches with their Range Profiler metrics, the line pass the same
// launches with per-line SASS metrics. Both passes write the schema of
// measurement.h; the launcher merges them by launch index.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_GPU_CUPTI_MEASURED_JSON_H
#define GMEM_GPU_CUPTI_MEASURED_JSON_H

#include "measurement.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gmem {
namespace cupti {

using OrderedJson = nlohmann::ordered_json;

/// One launch as measured.json holds it.
OrderedJson launchToJson(const MeasuredLaunch &L);

/// The whole document (schema 1); \p Error, when not empty, is added as
/// "error" so that the launcher can report why a pass measured nothing.
OrderedJson measurementToJson(const Measurement &M,
                              const std::string &Error = "");

struct MergeOutcome {
  OrderedJson Doc;
  std::vector<std::string> Warnings;
};

/// Adds each launch's "lines" from \p LinePass to \p CounterPass, matching
/// launches by "index" and checking that kernel and configuration agree.
MergeOutcome mergeLinePass(OrderedJson CounterPass,
                           const OrderedJson &LinePass);

/// Keeps at most \p Limit of \p CounterPass's launches for the per-line
/// runs (one run of the program each): each kernel's first launch, then the
/// others in order. Returns the launches set aside, which get no lines.
OrderedJson setAsideFromLineRuns(OrderedJson &CounterPass, uint64_t Limit);

/// Puts launches set aside back into \p CounterPass, in index order.
void putBackLaunches(OrderedJson &CounterPass, OrderedJson Aside);

/// Adds each launch's metrics from \p TrafficPass (DRAM bytes, L2 sectors,
/// duration, clock; or under --no-replay another group of counters) to
/// \p CounterPass, matching launches as mergeLinePass; \p What names them
/// in the warnings.
MergeOutcome mergeTrafficPass(
    OrderedJson CounterPass, const OrderedJson &TrafficPass,
    const std::string &What = "DRAM bytes or duration from the traffic run");

/// Current time as "2026-11-21T10:00:00Z".
std::string utcNowIso8601();

} // namespace cupti
} // namespace gmem

#endif // GMEM_GPU_CUPTI_MEASURED_JSON_H
