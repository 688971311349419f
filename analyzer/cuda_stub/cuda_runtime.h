// Stand-in for the CUDA runtime header, used when no CUDA installation is
// available (gmem-analyze force-includes it with -nocudainc). It declares what
// CUDA programs use from cuda_runtime.h with nvcc's types and alignments, so
// that sizes, member offsets and overloads match; nothing here is ever
// compiled to code, so functions are declarations only.
#ifndef GMEM_CUDA_STUB_RUNTIME_H
#define GMEM_CUDA_STUB_RUNTIME_H

#ifndef __CUDA__
#error "the gmem CUDA stand-in headers are for Clang's CUDA mode only"
#endif

// What nvcc's headers announce. Clang defines __CUDA_ARCH__ on the device side.
#define __CUDACC__ 1
#ifndef CUDA_VERSION
#define CUDA_VERSION 12080
#endif
#define CUDART_VERSION CUDA_VERSION
#define __CUDACC_VER_MAJOR__ 12
#define __CUDACC_VER_MINOR__ 8

// Clang's device math headers must see their own declarations before the C++
// library's <cmath>, as Clang's CUDA runtime wrapper arranges it.
#include <__clang_cuda_math_forward_declares.h>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __align__(n)
#define __device_builtin__
#define __cudart_builtin__
#define __grid_constant__ __attribute__((grid_constant))
#define CUDARTAPI
#define CUDART_CB

#include <__clang_cuda_builtin_vars.h>

// ---- Vector types (vector_types.h): members x, y, z, w; nvcc's alignments.
#define GMEM_VEC1(T, N) struct N##1 { T x; }
#define GMEM_VEC2(T, N, A) struct __align__(A) N##2 { T x, y; }
#define GMEM_VEC3(T, N) struct N##3 { T x, y, z; }
#define GMEM_VEC4(T, N, A) struct __align__(A) N##4 { T x, y, z, w; }
#define GMEM_VECS(T, N, A2, A4)                                                \
  GMEM_VEC1(T, N);                                                             \
  GMEM_VEC2(T, N, A2);                                                         \
  GMEM_VEC3(T, N);                                                             \
  GMEM_VEC4(T, N, A4);                                                         \
  typedef struct N##1 N##1;                                                    \
  typedef struct N##2 N##2;                                                    \
  typedef struct N##3 N##3;                                                    \
  typedef struct N##4 N##4
GMEM_VECS(signed char, char, 2, 4);
GMEM_VECS(unsigned char, uchar, 2, 4);
GMEM_VECS(short, short, 4, 8);
GMEM_VECS(unsigned short, ushort, 4, 8);
GMEM_VECS(int, int, 8, 16);
GMEM_VECS(unsigned int, uint, 8, 16);
GMEM_VECS(long, long, 2 * sizeof(long), 16);
GMEM_VECS(unsigned long, ulong, 2 * sizeof(long), 16);
GMEM_VECS(float, float, 8, 16);
GMEM_VECS(long long, longlong, 16, 16);
GMEM_VECS(unsigned long long, ulonglong, 16, 16);
GMEM_VECS(double, double, 16, 16);
#undef GMEM_VECS
#undef GMEM_VEC1
#undef GMEM_VEC2
#undef GMEM_VEC3
#undef GMEM_VEC4

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return {x, y, z}; }
};
typedef struct dim3 dim3;

#define GMEM_MAKE1(T, N)                                                       \
  static __inline__ __host__ __device__ N##1 make_##N##1(T x) { return {x}; }
#define GMEM_MAKE2(T, N)                                                       \
  static __inline__ __host__ __device__ N##2 make_##N##2(T x, T y) {           \
    return {x, y};                                                             \
  }
#define GMEM_MAKE3(T, N)                                                       \
  static __inline__ __host__ __device__ N##3 make_##N##3(T x, T y, T z) {      \
    return {x, y, z};                                                          \
  }
#define GMEM_MAKE4(T, N)                                                       \
  static __inline__ __host__ __device__ N##4 make_##N##4(T x, T y, T z, T w) { \
    return {x, y, z, w};                                                       \
  }
#define GMEM_MAKES(T, N)                                                       \
  GMEM_MAKE1(T, N) GMEM_MAKE2(T, N) GMEM_MAKE3(T, N) GMEM_MAKE4(T, N)
GMEM_MAKES(signed char, char)
GMEM_MAKES(unsigned char, uchar)
GMEM_MAKES(short, short)
GMEM_MAKES(unsigned short, ushort)
GMEM_MAKES(int, int)
GMEM_MAKES(unsigned int, uint)
GMEM_MAKES(long, long)
GMEM_MAKES(unsigned long, ulong)
GMEM_MAKES(float, float)
GMEM_MAKES(long long, longlong)
GMEM_MAKES(unsigned long long, ulonglong)
GMEM_MAKES(double, double)
#undef GMEM_MAKES
#undef GMEM_MAKE1
#undef GMEM_MAKE2
#undef GMEM_MAKE3
#undef GMEM_MAKE4

// ---- Runtime API (host side).
enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorLaunchFailure = 719,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevice = 101,
  cudaErrorNoDevice = 100,
  cudaErrorNotReady = 600,
  cudaErrorUnknown = 999
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
};

enum cudaFuncCache {
  cudaFuncCachePreferNone = 0,
  cudaFuncCachePreferShared = 1,
  cudaFuncCachePreferL1 = 2,
  cudaFuncCachePreferEqual = 3
};

enum cudaSharedMemConfig {
  cudaSharedMemBankSizeDefault = 0,
  cudaSharedMemBankSizeFourByte = 1,
  cudaSharedMemBankSizeEightByte = 2
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9
};

enum cudaMemoryAdvise { cudaMemAdviseSetReadMostly = 1 };

// Those of the attributes that the analyzer answers (values as in CUDA's
// driver_types.h).
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxBlockDimY = 3,
  cudaDevAttrMaxBlockDimZ = 4,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxGridDimY = 6,
  cudaDevAttrMaxGridDimZ = 7,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrClockRate = 13,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97
};

#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaMemAttachGlobal 0x01
#define cudaStreamDefault 0x00
#define cudaStreamNonBlocking 0x01
#define cudaEventDefault 0x00
#define cudaEventBlockingSync 0x01
#define cudaEventDisableTiming 0x02

typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled;
  int integrated;
  int canMapHostMemory;
  int computeMode;
  int concurrentKernels;
  int ECCEnabled;
  int pciBusID;
  int pciDeviceID;
  int asyncEngineCount;
  int unifiedAddressing;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor;
  int managedMemory;
  size_t sharedMemPerBlockOptin;
  int maxBlocksPerMultiProcessor;
};

extern "C" {
cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaMallocManaged(void **devPtr, size_t size,
                              unsigned int flags = cudaMemAttachGlobal);
cudaError_t cudaMallocHost(void **ptr, size_t size);
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags);
cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width,
                            size_t height);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                       enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                            enum cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
                         size_t spitch, size_t width, size_t height,
                         enum cudaMemcpyKind kind);
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim,
                             void **args, size_t sharedMem = 0,
                             cudaStream_t stream = 0);
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                            cudaStream_t stream = 0);
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                 int dstDevice, cudaStream_t stream = 0);
cudaError_t cudaMemAdvise(const void *devPtr, size_t count,
                          enum cudaMemoryAdvise advice, int device);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaThreadSynchronize(void);
cudaError_t cudaThreadExit(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t error);
const char *cudaGetErrorName(cudaError_t error);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr,
                                   int device);
cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig);
cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config);
cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *config);
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start,
                                 cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream,
                                      unsigned int flags);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaFuncSetCacheConfig(const void *func,
                                   enum cudaFuncCache cacheConfig);
cudaError_t cudaFuncSetSharedMemConfig(const void *func,
                                       enum cudaSharedMemConfig config);
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr,
                                 int value);
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src,
                               size_t count, size_t offset = 0,
                               enum cudaMemcpyKind kind =
                                   cudaMemcpyHostToDevice);
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                 size_t offset = 0,
                                 enum cudaMemcpyKind kind =
                                     cudaMemcpyDeviceToHost);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
                                                          const void *func,
                                                          int blockSize,
                                                          size_t dynamicSMem);
}

// The typed overloads nvcc's cuda_runtime.h adds on top of the C API.
template <class T> static __inline__ __host__ cudaError_t
cudaMalloc(T **devPtr, size_t size) {
  return ::cudaMalloc((void **)(void *)devPtr, size);
}
template <class T> static __inline__ __host__ cudaError_t
cudaMallocManaged(T **devPtr, size_t size,
                  unsigned int flags = cudaMemAttachGlobal) {
  return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}
template <class T> static __inline__ __host__ cudaError_t
cudaMallocHost(T **ptr, size_t size) {
  return ::cudaMallocHost((void **)(void *)ptr, size);
}
template <class T> static __inline__ __host__ cudaError_t
cudaHostAlloc(T **ptr, size_t size, unsigned int flags) {
  return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T> static __inline__ __host__ cudaError_t
cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                   size_t offset = 0,
                   enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T> static __inline__ __host__ cudaError_t
cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                     size_t offset = 0,
                     enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
  return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset,
                                kind);
}
template <class T> static __inline__ __host__ cudaError_t
cudaFuncSetCacheConfig(T *func, enum cudaFuncCache cacheConfig) {
  return ::cudaFuncSetCacheConfig((const void *)func, cacheConfig);
}
template <class T> static __inline__ __host__ cudaError_t
cudaFuncSetAttribute(T *func, enum cudaFuncAttribute attr, int value) {
  return ::cudaFuncSetAttribute((const void *)func, attr, value);
}
template <class T> static __inline__ __host__ cudaError_t
cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func,
                                              int blockSize,
                                              size_t dynamicSMem) {
  return ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      numBlocks, (const void *)func, blockSize, dynamicSMem);
}

// Clang lowers kernel<<<...>>> to calls of this function.
extern "C" int cudaConfigureCall(dim3 gridSize, dim3 blockSize,
                                 size_t sharedSize = 0,
                                 cudaStream_t stream = 0);
extern "C" unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                                size_t sharedMem = 0,
                                                void *stream = 0);

// ---- Device functions: Clang's own CUDA headers supply math, intrinsics
// (__ldg, shuffles, votes) and the __nv_* building blocks.
typedef unsigned int cuuint32_t;
typedef unsigned long long cuuint64_t;
__device__ unsigned int __isShared(const void *ptr);
__device__ unsigned int __isGlobal(const void *ptr);
__device__ size_t __cvta_generic_to_shared(const void *ptr);
__device__ size_t __cvta_generic_to_global(const void *ptr);
#include <__clang_cuda_libdevice_declares.h>
#include <__clang_cuda_device_functions.h>
#include <__clang_cuda_math.h>
#include <__clang_cuda_cmath.h>
#include <__clang_cuda_intrinsics.h>

// The mixed-signedness min/max overloads nvcc's math_functions.h declares
// (Clang's headers have min/max(int, int), umin, llmin, ...).
#define GMEM_MINMAX(R, A, B)                                                   \
  __device__ R min(A a, B b);                                                  \
  __device__ R max(A a, B b)
GMEM_MINMAX(unsigned int, unsigned int, unsigned int);
GMEM_MINMAX(unsigned int, int, unsigned int);
GMEM_MINMAX(unsigned int, unsigned int, int);
GMEM_MINMAX(long, long, long);
GMEM_MINMAX(unsigned long, unsigned long, unsigned long);
GMEM_MINMAX(unsigned long, long, unsigned long);
GMEM_MINMAX(unsigned long, unsigned long, long);
GMEM_MINMAX(long long, long long, long long);
GMEM_MINMAX(unsigned long long, unsigned long long, unsigned long long);
GMEM_MINMAX(unsigned long long, long long, unsigned long long);
GMEM_MINMAX(unsigned long long, unsigned long long, long long);
GMEM_MINMAX(float, float, float);
GMEM_MINMAX(double, double, double);
GMEM_MINMAX(double, float, double);
GMEM_MINMAX(double, double, float);
#undef GMEM_MINMAX

// Atomics (device_atomic_functions.h, sm_20/sm_60 atomic functions).
#define GMEM_ATOMIC(Name, T)                                                   \
  __device__ T Name(T *address, T val);                                        \
  __device__ T Name##_block(T *address, T val);                                \
  __device__ T Name##_system(T *address, T val)
#define GMEM_ATOMIC_INTS(Name)                                                 \
  GMEM_ATOMIC(Name, int);                                                      \
  GMEM_ATOMIC(Name, unsigned int);                                             \
  GMEM_ATOMIC(Name, unsigned long long int);                                   \
  GMEM_ATOMIC(Name, long long int)
GMEM_ATOMIC_INTS(atomicAdd);
GMEM_ATOMIC(atomicAdd, float);
GMEM_ATOMIC(atomicAdd, double);
GMEM_ATOMIC(atomicSub, int);
GMEM_ATOMIC(atomicSub, unsigned int);
GMEM_ATOMIC_INTS(atomicExch);
GMEM_ATOMIC(atomicExch, float);
GMEM_ATOMIC_INTS(atomicMin);
GMEM_ATOMIC_INTS(atomicMax);
GMEM_ATOMIC_INTS(atomicAnd);
GMEM_ATOMIC_INTS(atomicOr);
GMEM_ATOMIC_INTS(atomicXor);
GMEM_ATOMIC(atomicInc, unsigned int);
GMEM_ATOMIC(atomicDec, unsigned int);
#undef GMEM_ATOMIC_INTS
#undef GMEM_ATOMIC
__device__ int atomicCAS(int *address, int compare, int val);
__device__ unsigned int atomicCAS(unsigned int *address, unsigned int compare,
                                  unsigned int val);
__device__ unsigned long long int atomicCAS(unsigned long long int *address,
                                            unsigned long long int compare,
                                            unsigned long long int val);
__device__ unsigned short atomicCAS(unsigned short *address,
                                    unsigned short compare,
                                    unsigned short val);

// Cache-hinted loads and stores, shared with the CUDA-installation mode.
#include "compat/gmem_cache_hints.h"

// Texture objects (texture_indirect_functions.h) and surface objects:
// the analyzer names their calls (texture_calls.cpp).
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2
};
template <class T> __device__ T tex1Dfetch(cudaTextureObject_t, int);
template <class T> __device__ T tex1D(cudaTextureObject_t, float);
template <class T> __device__ T tex2D(cudaTextureObject_t, float, float);
template <class T> __device__ T tex3D(cudaTextureObject_t, float, float, float);
template <class T>
__device__ T tex2DLod(cudaTextureObject_t, float, float, float);
#include "compat/gmem_surface_functions.h"

extern "C" __device__ int printf(const char *, ...);
extern "C" __device__ void *malloc(size_t);
extern "C" __device__ void free(void *);
extern "C" __device__ void *memcpy(void *, const void *, size_t);
extern "C" __device__ void *memset(void *, int, size_t);
__device__ long long clock64();
__device__ int clock();

#endif // GMEM_CUDA_STUB_RUNTIME_H
