//===- driver.cpp - The CUDA driver as the recorder answers it ------------===//
//
// Programs that link the driver (-lcuda) mostly call it for what the
// runtime does not offer: tensor maps for Hopper's TMA copies
// (cuTensorMapEncodeTiled), whose 128 bytes the kernels' copies read. This
// libcuda.so.1 encodes them in gmem's layout (executor/tensor_map.h), which
// the executor reads back, and answers initialisation, versions, devices,
// error strings and entry points; every other driver call is a generated
// stub that logs it as missing and fails (CMakeLists.txt).
//
//===----------------------------------------------------------------------===//
#include "tensor_map.h"

#include <cuda.h>
#include <dlfcn.h>

extern "C" int gmemRecordMissingCall(const char *Api);

using gmem::exec::TensorMap;

extern "C" {

CUresult cuInit(unsigned) { return CUDA_SUCCESS; }
CUresult cuDriverGetVersion(int *V) {
  *V = CUDA_VERSION;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetCount(int *N) {
  *N = 1;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *D, int Ordinal) {
  if (Ordinal != 0)
    return CUDA_ERROR_INVALID_DEVICE;
  *D = 0;
  return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult E, const char **S) {
  *S = E == CUDA_SUCCESS               ? "CUDA_SUCCESS"
       : E == CUDA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE"
       : E == CUDA_ERROR_NOT_SUPPORTED ? "CUDA_ERROR_NOT_SUPPORTED"
                                       : "CUDA_ERROR_UNKNOWN";
  return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult E, const char **S) {
  *S = E == CUDA_SUCCESS               ? "no error"
       : E == CUDA_ERROR_INVALID_VALUE ? "invalid argument"
       : E == CUDA_ERROR_NOT_SUPPORTED ? "operation not supported"
                                       : "unknown error";
  return CUDA_SUCCESS;
}

CUresult cuGetProcAddress_v2(const char *Symbol, void **Fn, int, cuuint64_t,
                             CUdriverProcAddressQueryResult *Status) {
  void *Self = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  *Fn = Self && Symbol ? dlsym(Self, Symbol) : nullptr;
  if (Status)
    *Status = *Fn ? CU_GET_PROC_ADDRESS_SUCCESS
                  : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return *Fn ? CUDA_SUCCESS : CUDA_ERROR_NOT_FOUND;
}

CUresult cuTensorMapEncodeTiled(
    CUtensorMap *Map, CUtensorMapDataType Type, cuuint32_t Rank, void *Address,
    const cuuint64_t *Dims, const cuuint64_t *Strides, const cuuint32_t *Box,
    const cuuint32_t *ElemStrides, CUtensorMapInterleave Interleave,
    CUtensorMapSwizzle Swizzle, CUtensorMapL2promotion,
    CUtensorMapFloatOOBfill Fill) {
  if (!Map || !Dims || !Box || !ElemStrides || Rank < 1 || Rank > 5 ||
      (Rank > 1 && !Strides))
    return CUDA_ERROR_INVALID_VALUE;
  TensorMap M;
  M.Type = uint32_t(Type);
  M.Rank = Rank;
  M.Interleave = uint32_t(Interleave);
  M.Swizzle = uint32_t(Swizzle);
  M.OobNan = Fill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA;
  M.Address = reinterpret_cast<uint64_t>(Address);
  for (unsigned I = 0; I < Rank; ++I) {
    M.Dims[I] = Dims[I];
    M.Box[I] = Box[I];
    M.ElemStrides[I] = ElemStrides[I];
    if (I)
      M.Strides[I] = Strides[I - 1];
  }
  uint8_t Bytes[128];
  if (!gmem::exec::encodeTensorMap(M, Bytes).empty())
    return CUDA_ERROR_INVALID_VALUE;
  static_assert(sizeof(CUtensorMap) == 128, "a tensor map is 128 bytes");
  __builtin_memcpy(Map, Bytes, 128);
  return CUDA_SUCCESS;
}

} // extern "C"
