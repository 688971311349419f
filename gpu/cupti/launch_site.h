//===- launch_site.h - A kernel launch as a CUPTI callback sees it --------===//
//
// The launch APIs the injection listens to, runtime and driver, and what
// each one's parameters say: function, grid, block, dynamic shared memory
// and the argument values. Runtime launches reach the driver too; the
// outermost callback of a launch handles it, an inner one only adds what
// the outer could not know (the CUfunction behind a host stub).
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_GPU_CUPTI_LAUNCH_SITE_H
#define GMEM_GPU_CUPTI_LAUNCH_SITE_H

#include "measurement.h"

#include <cuda.h>
#include <cupti.h>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gmem {
namespace cupti {

struct LaunchSite {
  CUfunction Function = nullptr; ///< May be a CUkernel in disguise.
  CUkernel Kernel = nullptr;
  std::array<uint64_t, 3> Grid{1, 1, 1}, Block{1, 1, 1};
  uint64_t DynamicSmem = 0;
  void **Params = nullptr; ///< One pointer to each argument's value.
  void **Extra = nullptr;  ///< CU_LAUNCH_PARAM_BUFFER_POINTER style.
  CUstream Stream = nullptr;
  bool PerThread = false; ///< A _ptsz API: stream 0 is the thread's own.
};

/// The (domain, callback id) pairs of every launch API handled.
const std::vector<std::pair<CUpti_CallbackDomain, CUpti_CallbackId>> &
launchCallbacks();

/// False when the callback is not a launch the injection understands.
bool readLaunchSite(CUpti_CallbackDomain Domain, CUpti_CallbackId Cbid,
                    const CUpti_CallbackData *Data, LaunchSite &Site);

/// Whether the launch only adds a kernel node to a graph being captured
/// from its stream (it runs when the graph is launched).
bool launchIsCaptured(const LaunchSite &Site);

/// Whether the callback is a graph launch API (driver or runtime).
bool isGraphLaunch(CUpti_CallbackDomain Domain, CUpti_CallbackId Cbid);

/// Offset and size of each parameter, from the driver; empty when unknown.
std::vector<std::pair<size_t, size_t>> paramLayout(const LaunchSite &Site);

/// Name from the driver when the callback carried none.
std::string driverSymbolName(const LaunchSite &Site);

/// Decodes the arguments with \p Types (from the demangled signature) and
/// \p Layout (from the driver); either may be empty.
std::vector<MeasuredArg>
decodeArgs(const LaunchSite &Site, const std::vector<std::string> &Types,
           const std::vector<std::pair<size_t, size_t>> &Layout);

/// Whether a launch API returned success (read at the exit callback).
bool launchSucceeded(CUpti_CallbackDomain Domain,
                     const CUpti_CallbackData *Data, int &Code);

} // namespace cupti
} // namespace gmem

#endif // GMEM_GPU_CUPTI_LAUNCH_SITE_H
