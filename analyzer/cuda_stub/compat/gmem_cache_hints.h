// Cache-hinted loads and stores (__ldcg, __stcs, ...) as CUDA's
// sm_32_intrinsics.h declares them. Clang's CUDA wrapper leaves that header
// out (it defines __ldg itself), so gmem-analyze includes this one: both with
// a CUDA installation and with the stand-in headers.
#ifndef GMEM_CACHE_HINTS_H
#define GMEM_CACHE_HINTS_H
#define GMEM_LDST(T)                                                           \
  __device__ T __ldcg(const T *ptr);                                           \
  __device__ T __ldca(const T *ptr);                                           \
  __device__ T __ldcs(const T *ptr);                                           \
  __device__ T __ldlu(const T *ptr);                                           \
  __device__ T __ldcv(const T *ptr);                                           \
  __device__ void __stwb(T *ptr, T value);                                     \
  __device__ void __stcg(T *ptr, T value);                                     \
  __device__ void __stcs(T *ptr, T value);                                     \
  __device__ void __stwt(T *ptr, T value)
GMEM_LDST(char);
GMEM_LDST(signed char);
GMEM_LDST(unsigned char);
GMEM_LDST(short);
GMEM_LDST(unsigned short);
GMEM_LDST(int);
GMEM_LDST(unsigned int);
GMEM_LDST(long);
GMEM_LDST(unsigned long);
GMEM_LDST(long long);
GMEM_LDST(unsigned long long);
GMEM_LDST(float);
GMEM_LDST(double);
GMEM_LDST(int2);
GMEM_LDST(int4);
GMEM_LDST(uint2);
GMEM_LDST(uint4);
GMEM_LDST(float2);
GMEM_LDST(float4);
GMEM_LDST(double2);
#undef GMEM_LDST
// The device heap's aligned allocation, which CUDA's headers define for
// nvcc only (a driver call) and Clang's wrapper does not declare.
__device__ void *__nv_aligned_device_malloc(size_t size, size_t align);
#endif // GMEM_CACHE_HINTS_H
