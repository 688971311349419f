//===- api_device.cpp - Devices, properties, errors and versions ----------===//
//
// One device, the board GMEM_RECORD_GPU names. What the board table does
// not hold (clocks, PCI ids, ECC) is not invented: those attributes are
// reported as missing and fail with cudaErrorNotSupported.
//
//===----------------------------------------------------------------------===//
#include "recorder.h"

#include <cstring>
#include <dlfcn.h>

using namespace gmem::rec;

extern "C" {

cudaError_t cudaGetDeviceCount(int *Count) {
  *Count = 1;
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int *Device) {
  *Device = recorder().Device;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int Device) {
  if (Device != 0)
    return fail(cudaErrorInvalidDevice);
  return cudaSuccess;
}

cudaError_t cudaInitDevice(int Device, unsigned, unsigned) {
  return cudaSetDevice(Device);
}
cudaError_t cudaSetDeviceFlags(unsigned) { return cudaSuccess; }
cudaError_t cudaGetDeviceFlags(unsigned *Flags) {
  *Flags = 0;
  return cudaSuccess;
}
cudaError_t cudaChooseDevice(int *Device, const cudaDeviceProp *) {
  *Device = 0;
  return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize() { return faulted(true); }
// A profiler's range markers (cuda_profiler_api.h): nothing to profile in a
// recorded run, and programs check what they return (cuda-samples'
// matrixMul stops at a failed cudaProfilerStart).
cudaError_t cudaProfilerStart() { return cudaSuccess; }
cudaError_t cudaProfilerStop() { return cudaSuccess; }
cudaError_t cudaDeviceReset() { return cudaSuccess; }
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache *C) {
  *C = cudaFuncCachePreferNone;
  return cudaSuccess;
}
cudaError_t cudaDeviceSetLimit(cudaLimit L, size_t) {
  // CUDA 12 removed device-side cudaDeviceSynchronize and the nesting depth
  // it had: an H200 refuses this limit (docs/PUBLIC_PROGRAMS.md, Learn CUDA
  // Programming's quicksort).
  if (L == cudaLimitDevRuntimeSyncDepth)
    return fail(cudaErrorUnsupportedLimit);
  return cudaSuccess;
}
// Deprecated, still declared: every GPU CUDA 13 runs has 4-byte banks,
// which the setting leaves as they are (Kobzol/hardware-effects-gpu's
// bank-conflict demo asks, and prints what it gets).
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig) {
  return cudaSuccess;
}
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig *C) {
  if (!C)
    return fail(cudaErrorInvalidValue);
  *C = cudaSharedMemBankSizeFourByte;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp *P, int Device) {
  if (Device != 0)
    return fail(cudaErrorInvalidDevice);
  const Board &B = *recorder().Gpu;
  std::memset(P, 0, sizeof *P);
  std::strncpy(P->name, B.Product, sizeof P->name - 1);
  P->totalGlobalMem = B.GlobalMem;
  P->sharedMemPerBlock = 48 * 1024;
  P->regsPerBlock = 65536;
  P->warpSize = 32;
  P->memPitch = 2147483647;
  P->maxThreadsPerBlock = 1024;
  P->maxThreadsDim[0] = P->maxThreadsDim[1] = 1024;
  P->maxThreadsDim[2] = 64;
  P->maxGridSize[0] = 2147483647;
  P->maxGridSize[1] = P->maxGridSize[2] = 65535;
  P->totalConstMem = 65536;
  P->major = B.Major;
  P->minor = B.Minor;
  P->textureAlignment = 512;
  P->texturePitchAlignment = 32;
  P->multiProcessorCount = B.SMs;
  P->canMapHostMemory = 1;
  P->concurrentKernels = 1;
  P->unifiedAddressing = 1;
  P->memoryBusWidth = B.BusWidth;
  P->l2CacheSize = B.L2Bytes;
  P->maxThreadsPerMultiProcessor = B.ThreadsPerSM;
  P->globalL1CacheSupported = 1;
  P->localL1CacheSupported = 1;
  P->sharedMemPerMultiprocessor = B.SmemPerSM;
  P->regsPerMultiprocessor = 65536;
  P->managedMemory = 1;
  P->cooperativeLaunch = 1;
  P->sharedMemPerBlockOptin = B.SmemOptin;
  P->maxBlocksPerMultiProcessor = B.BlocksPerSM;
  P->reservedSharedMemPerBlock = B.Major >= 8 ? 1024 : 0;
  P->memoryPoolsSupported = 1;
  P->clusterLaunch = B.Major >= 9;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *Value, cudaDeviceAttr Attr,
                                   int Device) {
  cudaDeviceProp P;
  if (cudaError_t E = cudaGetDeviceProperties(&P, Device))
    return E;
  switch (Attr) {
  case cudaDevAttrMaxThreadsPerBlock:
    *Value = P.maxThreadsPerBlock;
    break;
  case cudaDevAttrMaxBlockDimX:
  case cudaDevAttrMaxBlockDimY:
  case cudaDevAttrMaxBlockDimZ:
    *Value = P.maxThreadsDim[Attr - cudaDevAttrMaxBlockDimX];
    break;
  case cudaDevAttrMaxGridDimX:
  case cudaDevAttrMaxGridDimY:
  case cudaDevAttrMaxGridDimZ:
    *Value = P.maxGridSize[Attr - cudaDevAttrMaxGridDimX];
    break;
  case cudaDevAttrMaxSharedMemoryPerBlock:
    *Value = int(P.sharedMemPerBlock);
    break;
  case cudaDevAttrTotalConstantMemory:
    *Value = int(P.totalConstMem);
    break;
  case cudaDevAttrWarpSize:
    *Value = P.warpSize;
    break;
  case cudaDevAttrMaxPitch:
    *Value = int(P.memPitch);
    break;
  case cudaDevAttrMaxRegistersPerBlock:
    *Value = P.regsPerBlock;
    break;
  case cudaDevAttrMultiProcessorCount:
    *Value = P.multiProcessorCount;
    break;
  case cudaDevAttrComputeCapabilityMajor:
    *Value = P.major;
    break;
  case cudaDevAttrComputeCapabilityMinor:
    *Value = P.minor;
    break;
  case cudaDevAttrL2CacheSize:
    *Value = P.l2CacheSize;
    break;
  case cudaDevAttrMaxThreadsPerMultiProcessor:
    *Value = P.maxThreadsPerMultiProcessor;
    break;
  case cudaDevAttrMaxSharedMemoryPerMultiprocessor:
    *Value = int(P.sharedMemPerMultiprocessor);
    break;
  case cudaDevAttrMaxRegistersPerMultiprocessor:
    *Value = P.regsPerMultiprocessor;
    break;
  case cudaDevAttrMaxSharedMemoryPerBlockOptin:
    *Value = int(P.sharedMemPerBlockOptin);
    break;
  case cudaDevAttrMaxBlocksPerMultiprocessor:
    *Value = P.maxBlocksPerMultiProcessor;
    break;
  case cudaDevAttrReservedSharedMemoryPerBlock:
    *Value = int(P.reservedSharedMemPerBlock);
    break;
  case cudaDevAttrGlobalMemoryBusWidth:
    *Value = P.memoryBusWidth;
    break;
  case cudaDevAttrClockRate:
    *Value = recorder().Gpu->ClockKHz;
    break;
  case cudaDevAttrMemoryClockRate:
    *Value = recorder().Gpu->MemClockKHz;
    break;
  case cudaDevAttrTextureAlignment:
    *Value = int(P.textureAlignment);
    break;
  case cudaDevAttrTexturePitchAlignment:
    *Value = int(P.texturePitchAlignment);
    break;
  case cudaDevAttrConcurrentKernels:
  case cudaDevAttrUnifiedAddressing:
  case cudaDevAttrManagedMemory:
  case cudaDevAttrCooperativeLaunch:
  case cudaDevAttrCanMapHostMemory:
  case cudaDevAttrGlobalL1CacheSupported:
  case cudaDevAttrLocalL1CacheSupported:
  case cudaDevAttrMemoryPoolsSupported:
    *Value = 1;
    break;
  case cudaDevAttrIntegrated:
  case cudaDevAttrComputeMode: // cudaComputeModeDefault.
    *Value = 0;
    break;
  default:
    return missing(
        ("cudaDeviceGetAttribute(attribute " + std::to_string(int(Attr)) + ")")
            .c_str());
  }
  return cudaSuccess;
}

cudaChannelFormatDesc cudaCreateChannelDesc(int X, int Y, int Z, int W,
                                            cudaChannelFormatKind F) {
  return {X, Y, Z, W, F};
}

cudaError_t cudaMemGetInfo(size_t *Free, size_t *Total) {
  *Total = recorder().Gpu->GlobalMem;
  *Free = *Total; // What the program allocated is not subtracted.
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *V) {
  *V = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int *V) {
  *V = CUDART_VERSION;
  return cudaSuccess;
}

// Driver functions by name, as the runtime finds them: in the driver
// library the program runs with, gmem's recording libcuda.so.1
// (libraries/driver.cpp) beside this runtime.
cudaError_t
cudaGetDriverEntryPointByVersion(const char *Symbol, void **Fn, unsigned,
                                 unsigned long long,
                                 cudaDriverEntryPointQueryResult *Status) {
  static void *Driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  *Fn = Driver && Symbol ? dlsym(Driver, Symbol) : nullptr;
  if (Status)
    *Status =
        *Fn ? cudaDriverEntryPointSuccess : cudaDriverEntryPointSymbolNotFound;
  return *Fn ? cudaSuccess : fail(cudaErrorSymbolNotFound);
}

cudaError_t cudaGetDriverEntryPoint(const char *Symbol, void **Fn,
                                    unsigned long long Flags,
                                    cudaDriverEntryPointQueryResult *Status) {
  return cudaGetDriverEntryPointByVersion(Symbol, Fn, CUDART_VERSION, Flags,
                                          Status);
}

cudaError_t cudaGetLastError() {
  cudaError_t E = recorder().LastError;
  recorder().LastError = cudaSuccess;
  return E;
}
cudaError_t cudaPeekAtLastError() { return recorder().LastError; }

const char *cudaGetErrorName(cudaError_t E) {
  switch (E) {
  case cudaSuccess:
    return "cudaSuccess";
  case cudaErrorInvalidValue:
    return "cudaErrorInvalidValue";
  case cudaErrorMemoryAllocation:
    return "cudaErrorMemoryAllocation";
  case cudaErrorInvalidConfiguration:
    return "cudaErrorInvalidConfiguration";
  case cudaErrorInvalidDevice:
    return "cudaErrorInvalidDevice";
  case cudaErrorInvalidDeviceFunction:
    return "cudaErrorInvalidDeviceFunction";
  case cudaErrorNotSupported:
    return "cudaErrorNotSupported";
  case cudaErrorAssert:
    return "cudaErrorAssert";
  case cudaErrorLaunchFailure:
    return "cudaErrorLaunchFailure";
  case cudaErrorIllegalAddress:
    return "cudaErrorIllegalAddress";
  case cudaErrorMisalignedAddress:
    return "cudaErrorMisalignedAddress";
  case cudaErrorIllegalInstruction:
    return "cudaErrorIllegalInstruction";
  default:
    return "cudaErrorUnknown";
  }
}

const char *cudaGetErrorString(cudaError_t E) {
  if (E == cudaSuccess)
    return "no error";
  if (E == cudaErrorNotSupported)
    return "operation not supported (gmem's recording runtime does not "
           "answer this call)";
  // The runtime's own words, which programs print.
  switch (E) {
  case cudaErrorAssert:
    return "device-side assert triggered";
  case cudaErrorLaunchFailure:
    return "unspecified launch failure";
  case cudaErrorIllegalAddress:
    return "an illegal memory access was encountered";
  case cudaErrorMisalignedAddress:
    return "misaligned address";
  case cudaErrorIllegalInstruction:
    return "an illegal instruction was encountered";
  default:
    break;
  }
  return cudaGetErrorName(E);
}

} // extern "C"
