// Stand-in for CUDA's driver API header: the version and the few driver types
// that runtime-API programs mention. Everything else comes from cuda_runtime.h.
#ifndef GMEM_CUDA_STUB_CUDA_H
#define GMEM_CUDA_STUB_CUDA_H
#include "cuda_runtime.h"

typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef unsigned long long CUdeviceptr;
typedef enum cudaError_enum { CUDA_SUCCESS = 0 } CUresult;
#endif // GMEM_CUDA_STUB_CUDA_H
