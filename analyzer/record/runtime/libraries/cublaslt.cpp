//===- cublaslt.cpp - cuBLASLt as the recorder answers it -----------------===//
//
// As cublas.cpp, for cuBLASLt: handles and descriptors, and one algorithm
// from the heuristic (programs stop when it finds none).
//
//===----------------------------------------------------------------------===//
#include "library_call.h"

#include <cstring>
#include <cublasLt.h>

using namespace gmem::rec;

extern "C" {

cublasStatus_t cublasLtCreate(cublasLtHandle_t *H) {
  return create(H, "cublasLtCreate");
}
cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *D,
                                        cublasComputeType_t, cudaDataType_t) {
  return create(D, "cublasLtMatmulDescCreate");
}
cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *L,
                                          cudaDataType, uint64_t, uint64_t,
                                          int64_t) {
  return create(L, "cublasLtMatrixLayoutCreate");
}
cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *P) {
  return create(P, "cublasLtMatmulPreferenceCreate");
}
cublasStatus_t
cublasLtMatrixTransformDescCreate(cublasLtMatrixTransformDesc_t *D,
                                  cudaDataType) {
  return create(D, "cublasLtMatrixTransformDescCreate");
}
cublasStatus_t cublasLtMatmulAlgoGetHeuristic(
    cublasLtHandle_t, cublasLtMatmulDesc_t, cublasLtMatrixLayout_t,
    cublasLtMatrixLayout_t, cublasLtMatrixLayout_t, cublasLtMatrixLayout_t,
    cublasLtMatmulPreference_t, int Requested,
    cublasLtMatmulHeuristicResult_t *Results, int *Returned) {
  gmemRecordLibraryCall("cublasLtMatmulAlgoGetHeuristic");
  if (Requested < 1)
    return CUBLAS_STATUS_INVALID_VALUE;
  std::memset(Results, 0, sizeof *Results);
  Results->state = CUBLAS_STATUS_SUCCESS;
  Results->wavesCount = 1;
  *Returned = 1;
  return CUBLAS_STATUS_SUCCESS;
}
size_t cublasLtGetVersion() { return CUBLAS_VERSION; }
size_t cublasLtGetCudartVersion() { return CUDART_VERSION; }
cublasStatus_t cublasLtGetProperty(libraryPropertyType T, int *V) {
  return property(T, V);
}
const char *cublasLtGetStatusName(cublasStatus_t S) { return statusName(S); }
const char *cublasLtGetStatusString(cublasStatus_t S) { return statusName(S); }

} // extern "C"
