// Surface reads and writes on surface objects (surf2Dread, surf2Dwrite, ...)
// as CUDA's surface_indirect_functions.h declares them. Clang's CUDA wrapper
// leaves that header out, so gmem-analyze includes this one: both with a
// CUDA installation and with the stand-in headers. The analyzer names the
// calls instead of counting them (analyzer/translate/texture_calls.cpp). The boundary
// mode is an int here: CUDA's enum converts to it.
#ifndef GMEM_SURFACE_FUNCTIONS_H
#define GMEM_SURFACE_FUNCTIONS_H
template <class T> __device__ T surf1Dread(cudaSurfaceObject_t, int, int = 0);
template <class T>
__device__ void surf1Dread(T *, cudaSurfaceObject_t, int, int = 0);
template <class T>
__device__ T surf2Dread(cudaSurfaceObject_t, int, int, int = 0);
template <class T>
__device__ void surf2Dread(T *, cudaSurfaceObject_t, int, int, int = 0);
template <class T>
__device__ T surf3Dread(cudaSurfaceObject_t, int, int, int, int = 0);
template <class T>
__device__ void surf1Dwrite(T, cudaSurfaceObject_t, int, int = 0);
template <class T>
__device__ void surf2Dwrite(T, cudaSurfaceObject_t, int, int, int = 0);
template <class T>
__device__ void surf3Dwrite(T, cudaSurfaceObject_t, int, int, int, int = 0);
#endif // GMEM_SURFACE_FUNCTIONS_H
