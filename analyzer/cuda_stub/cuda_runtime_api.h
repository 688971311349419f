// Stand-in for CUDA's cuda_runtime_api.h: everything it provides is in cuda_runtime.h.
#include "cuda_runtime.h"
