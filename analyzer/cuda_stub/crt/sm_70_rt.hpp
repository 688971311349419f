// Stand-in for CUDA's crt/sm_70_rt.hpp, which Clang's __clang_cuda_intrinsics.h
// includes; the declarations it would add are not needed for analysis.
