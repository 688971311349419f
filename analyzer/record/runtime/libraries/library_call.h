//===- library_call.h - What the recording libraries share ----------------===//
#ifndef GMEM_RECORD_RUNTIME_LIBRARY_CALL_H
#define GMEM_RECORD_RUNTIME_LIBRARY_CALL_H

#include <cstdlib>
#include <cublas_api.h>

/// Logs a call of a library function to the recording libcudart's log.
extern "C" int gmemRecordLibraryCall(const char *Api);

namespace gmem::rec {

/// A fresh zeroed object for an opaque handle: programs only pass it back.
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
