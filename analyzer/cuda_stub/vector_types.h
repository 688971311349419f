// Stand-in for CUDA's vector_types.h: everything it provides is in cuda_runtime.h.
#include "cuda_runtime.h"
