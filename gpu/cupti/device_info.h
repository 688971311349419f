//===- device_info.h - Which GPU, driver and CUDA measured ----------------===//
#ifndef GMEM_GPU_CUPTI_DEVICE_INFO_H
#define GMEM_GPU_CUPTI_DEVICE_INFO_H

#include "measurement.h"

#include <cuda.h>

namespace gmem {
namespace cupti {

/// Fills device name, compute capability ("9.0"), the kernel driver's
/// version ("580.159.04", from /proc or NVML) and the CUDA version the
/// driver supports ("13.0").
void describeDevice(CUdevice Dev, Measurement &M);

} // namespace cupti
} // namespace gmem

#endif // GMEM_GPU_CUPTI_DEVICE_INFO_H
