//===- cupti_status.h - CUPTI and driver results as messages -----------*-===//
#ifndef GMEM_GPU_CUPTI_CUPTI_STATUS_H
#define GMEM_GPU_CUPTI_CUPTI_STATUS_H

#include <cuda.h>
#include <cupti.h>
#include <string>

namespace gmem {
namespace cupti {

/// "cuptiRangeProfilerStart: CUPTI_ERROR_..." with the privileges case
/// spelled out, since that is the one a user can fix.
std::string cuptiMessage(const char *Call, CUptiResult R);
std::string driverMessage(const char *Call, CUresult R);

/// True for errors that make every later launch fail the same way.
bool isFatal(CUptiResult R);

} // namespace cupti
} // namespace gmem

#endif // GMEM_GPU_CUPTI_CUPTI_STATUS_H
