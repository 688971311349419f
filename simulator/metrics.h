//===- metrics.h - Kernel-level figures under Nsight Compute/nvprof names -===//
//
// Kernel values aggregate over all instructions of a kind: sectors per
// request = sum of sectors / sum of requests; efficiency = distinct bytes /
// (32 x sectors). A figure any of whose accesses could not be modelled is
// unknown, with the reason, rather than a number that looks exact.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_METRICS_H
#define GMEM_SIMULATOR_METRICS_H

#include "result.h"
#include <string>
#include <vector>

namespace gmem {

/// Fills R.Metrics from R.PerAccess.
void computeMetrics(LaunchResult &R);
/// Where R.Incomplete says the launch did not run to its end: partial
/// counts are not the answer, so every access and metric is unknown with
/// that reason.
void withdrawFigures(LaunchResult &R);

struct MetricInfo {
  std::string Name;
  std::string Description;
  bool Percent = false;
  bool Nvprof = false; ///< nvprof name (ratio) rather than an ncu counter.
};

/// Every metric computeMetrics fills, in the order views print them.
const std::vector<MetricInfo> &metricTable();

} // namespace gmem

#endif // GMEM_SIMULATOR_METRICS_H
