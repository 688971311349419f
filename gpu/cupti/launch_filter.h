//===- launch_filter.h - Which launches gmem-verify profiles ---*- C++ -*-===//
//
// Nsight Compute's --kernel-name, --launch-skip and --launch-count, applied
// per kernel and configuration: of the launches of one kernel with one grid,
// block and dynamic shared memory size that match the name filter, the first
// Skip are run unprofiled, the next Count are profiled, the rest run
// unprofiled. A loop that launches the same kernel a thousand times is then
// measured Count times, while every distinct configuration is still measured.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_GPU_CUPTI_LAUNCH_FILTER_H
#define GMEM_GPU_CUPTI_LAUNCH_FILTER_H

#include "expected.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <regex>
#include <string>

namespace gmem {
namespace cupti {

struct LaunchFilterOptions {
  uint64_t Skip = 0;
  uint64_t Count = UINT64_MAX; ///< UINT64_MAX: every launch.
  std::string KernelRegex;     ///< Empty: every kernel.
};

class LaunchFilter {
public:
  /// A Failure when the regular expression is invalid.
  static Expected<std::unique_ptr<LaunchFilter>>
  create(const LaunchFilterOptions &Opts);

  /// Decides for the next launch; \p Kernel is the name without parameters,
  /// the regular expression may match it or \p Mangled (std::regex_search).
  bool select(const std::string &Kernel, const std::string &Mangled,
              const std::array<uint64_t, 3> &Grid,
              const std::array<uint64_t, 3> &Block, uint64_t DynamicSmem);

private:
  LaunchFilterOptions Opts;
  std::regex Regex;
  std::map<std::string, uint64_t> Seen; ///< Matching launches per key.
};

/// Reads an unsigned decimal option value; false on anything else.
bool parseCount(const std::string &Text, uint64_t &Out);

} // namespace cupti
} // namespace gmem

#endif // GMEM_GPU_CUPTI_LAUNCH_FILTER_H
