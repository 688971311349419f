//===- cupti_status.cpp - CUPTI and driver results as messages ------------===//
#include "cupti_status.h"

namespace gmem {
namespace cupti {

std::string cuptiMessage(const char *Call, CUptiResult R) {
  if (R == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
    return std::string(Call) +
           ": insufficient privileges to read GPU performance counters; run "
           "as root or load the driver with "
           "NVreg_RestrictProfilingToAdminUsers=0";
  const char *S = nullptr;
  cuptiGetResultString(R, &S);
  return std::string(Call) + ": " + (S ? S : "unknown CUPTI error") + " (" +
         std::to_string(static_cast<int>(R)) + ")";
}

std::string driverMessage(const char *Call, CUresult R) {
  const char *S = nullptr;
  cuGetErrorName(R, &S);
  return std::string(Call) + ": " + (S ? S : "unknown CUDA error") + " (" +
         std::to_string(static_cast<int>(R)) + ")";
}

bool isFatal(CUptiResult R) {
  return R == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
         R == CUPTI_ERROR_NOT_SUPPORTED ||
         R == CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED ||
         R == CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED ||
         R == CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED ||
         R == CUPTI_ERROR_NOT_INITIALIZED;
}

} // namespace cupti
} // namespace gmem
