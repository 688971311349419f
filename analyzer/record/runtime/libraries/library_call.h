//===- library_call.h - What the recording libraries share ----------------===//
#ifndef GMEM_RECORD_RUNTIME_LIBRARY_CALL_H
#define GMEM_RECORD_RUNTIME_LIBRARY_CALL_H

#include <cstddef>
#include <cstdlib>
#include <cublas_api.h>

/// Logs a call of a library function to the recording libcudart's log.
extern "C" int gmemRecordLibraryCall(const char *Api);

// For a call gmem computes on the host (cublas_gemm.cpp), in order: whether
// it may (recording is functional, budget is left; the launches kept have
// run); whether the Bytes at P lie in one device allocation (and, with
// Known, are all known); that it wrote Bytes at Dst from known inputs or
// not; and that it is done, in Seconds.
extern "C" int gmemRecordLibraryMayCompute();
extern "C" int gmemRecordDeviceRange(const void *P, size_t Bytes, int Known);
extern "C" void gmemRecordComputed(void *Dst, size_t Bytes, int Known);
extern "C" void gmemRecordLibraryComputed(const char *Api, double Seconds);

namespace gmem::rec {

/// A fresh zeroed object for an opaque handle: programs only pass it back
/// (a cuBLAS handle's first bytes keep its pointer mode, cublas_gemm.cpp).
template <typename T> cublasStatus_t create(T *Out, const char *Api) {
  *Out = reinterpret_cast<T>(std::calloc(1, 512));
  gmemRecordLibraryCall(Api);
  return CUBLAS_STATUS_SUCCESS;
}

/// The library's version numbers (cuBLASLt ships with cuBLAS).
inline cublasStatus_t property(libraryPropertyType T, int *V) {
  *V = T == MAJOR_VERSION   ? CUBLAS_VER_MAJOR
       : T == MINOR_VERSION ? CUBLAS_VER_MINOR
                            : CUBLAS_VER_PATCH;
  return CUBLAS_STATUS_SUCCESS;
}

inline const char *statusName(cublasStatus_t S) {
  switch (S) {
  case CUBLAS_STATUS_SUCCESS:
    return "CUBLAS_STATUS_SUCCESS";
  case CUBLAS_STATUS_NOT_SUPPORTED:
    return "CUBLAS_STATUS_NOT_SUPPORTED";
  default:
    return "CUBLAS_STATUS_UNKNOWN (gmem's recording cuBLAS)";
  }
}

} // namespace gmem::rec

#endif // GMEM_RECORD_RUNTIME_LIBRARY_CALL_H
