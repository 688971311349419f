// Stand-in for CUDA's device_launch_parameters.h: everything it provides is in cuda_runtime.h.
#include "cuda_runtime.h"
