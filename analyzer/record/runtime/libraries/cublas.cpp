//===- cublas.cpp - cuBLAS as the recorder answers it ---------------------===//
//
// GEMMs and other library calls launch kernels of NVIDIA's that gmem does
// not model. The recording libraries succeed without running anything and
// log each call ("library" events): the analyzer names them as not
// modelled and treats device memory as unknown from then on. Most calls
// are generated stubs (CMakeLists.txt); here are those whose outputs a
// program reads: handles, versions and status strings (cublaslt.cpp does
// the same for cuBLASLt).
//
//===----------------------------------------------------------------------===//
#include "library_call.h"

#include <cublas_v2.h>

using namespace gmem::rec;

extern "C" {

cublasStatus_t cublasCreate_v2(cublasHandle_t *H) {
  return create(H, "cublasCreate_v2");
}
cublasStatus_t cublasGetStream_v2(cublasHandle_t, cudaStream_t *S) {
  *S = nullptr;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetMathMode(cublasHandle_t, cublasMath_t *M) {
  *M = CUBLAS_DEFAULT_MATH;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetVersion_v2(cublasHandle_t, int *V) {
  *V = CUBLAS_VERSION;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetProperty(libraryPropertyType T, int *V) {
  return property(T, V);
}
const char *cublasGetStatusName(cublasStatus_t S) { return statusName(S); }
const char *cublasGetStatusString(cublasStatus_t S) { return statusName(S); }

} // extern "C"
