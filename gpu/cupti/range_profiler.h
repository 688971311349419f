//===- range_profiler.h - Per-launch counters with the Range Profiler -----===//
//
// One profiling session per selected launch: begin() before the launch
// resets the counter data image, sets the configuration (auto range, kernel
// replay) and starts; end() after it stops, decodes and evaluates the one
// range. Launches between sessions run unprofiled, which is how launch
// sampling works. The host configuration (chip, metrics, config image) is
// built once, from the first context's counter availability.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_GPU_CUPTI_RANGE_PROFILER_H
#define GMEM_GPU_CUPTI_RANGE_PROFILER_H

#include <cuda.h>
#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gmem {
namespace cupti {

/// The metrics of gpu-metrics.md that gmem-analyze predicts.
const std::vector<std::string> &defaultCounterMetrics();
/// DRAM bytes, L2 sectors, duration and the SM clock: the traffic run's.
const std::vector<std::string> &trafficCounterMetrics();

class RangeProfiler {
public:
  /// With \p Group >= 0, the metrics are split in groups of one pass each
  /// (in catalog order, so every run splits them alike) and only group
  /// \p Group is collected: no launch is replayed.
  explicit RangeProfiler(std::vector<std::string> Metrics, int Group = -1);
  ~RangeProfiler() = default;

  /// Arms profiling of the next launch in \p Ctx. False with \p Error set on
  /// failure; \p Fatal tells whether later launches would fail alike.
  bool begin(CUcontext Ctx, std::string &Error, bool &Fatal);
  /// Collects the launch armed by begin().
  bool end(std::map<std::string, double> &Values, std::string &Error);
  /// Drops the state of a context about to be destroyed.
  void release(CUcontext Ctx);

  /// Metrics the chip rejected (left out of the configuration), once.
  std::vector<std::string> takeRejected() {
    std::vector<std::string> R;
    R.swap(Rejected);
    return R;
  }
  size_t passes() const { return Passes; }
  /// With a group: how many groups the metrics make (0 before the first
  /// launch).
  size_t groups() const { return Groups; }
  const std::string &chip() const { return Chip; }

private:
  struct ContextState {
    CUpti_RangeProfiler_Object *Object = nullptr;
    std::vector<uint8_t> CounterData;
  };

  bool setUpHost(CUcontext Ctx, std::string &Error, bool &Fatal);
  /// A host object of this chip and its counters.
  bool newHost(CUpti_Profiler_Host_Object *&H, std::string &Error, bool &Fatal);
  /// Adds \p Names to \p H and makes its configuration image, which takes
  /// \p N passes.
  bool configure(CUpti_Profiler_Host_Object *H,
                 std::vector<const char *> &Names, std::vector<uint8_t> &Image,
                 size_t &N, std::string &Error, bool &Fatal);
  /// The passes \p Names need on this chip.
  bool passesOf(const std::vector<std::string> &Names, size_t &N,
                std::string &Error, bool &Fatal);
  /// Keeps group Group of the metrics split in one-pass groups.
  bool keepGroup(std::string &Error, bool &Fatal);
  bool enable(CUcontext Ctx, ContextState &S, std::string &Error, bool &Fatal);
  bool configureAndStart(ContextState &S, std::string &Error, bool &Fatal);

  std::vector<std::string> Requested, Metrics, Rejected;
  std::vector<const char *> MetricPtrs;
  std::string Chip;
  std::vector<uint8_t> Availability, Config;
  CUpti_Profiler_Host_Object *Host = nullptr;
  size_t Passes = 0;
  int Group = -1;
  size_t Groups = 0;
  std::map<CUcontext, ContextState> Contexts;
  CUcontext Active = nullptr;
};

} // namespace cupti
} // namespace gmem

#endif // GMEM_GPU_CUPTI_RANGE_PROFILER_H
