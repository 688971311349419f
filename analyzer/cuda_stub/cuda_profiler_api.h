// Stand-in for CUDA's cuda_profiler_api.h (no CUDA installation).
#ifndef GMEM_STUB_CUDA_PROFILER_API_H
#define GMEM_STUB_CUDA_PROFILER_API_H
#include "cuda_runtime.h"
extern __host__ cudaError_t cudaProfilerStart(void);
extern __host__ cudaError_t cudaProfilerStop(void);
#endif
