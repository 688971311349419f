// Stand-in for CUDA's device_functions.h: everything it provides is in cuda_runtime.h.
#include "cuda_runtime.h"
