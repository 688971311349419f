/* gmem: runtime calls that CUDA 13 removed, each mapped onto the call that
   replaced it, so that programs written for older toolkits build as they
   did. gmem-analyze pre-includes this header into its nvcc build and its
   parse and names each call a program makes in a note. C and C++ alike
   (nvcc builds .c files as C). */
#ifndef GMEM_REMOVED_APIS_H
#define GMEM_REMOVED_APIS_H

#include <cuda_runtime_api.h>

#if defined(CUDART_VERSION) && CUDART_VERSION >= 13000
/* Each only where the program has not mapped the name itself
   (-DcudaThreadSynchronize=cudaDeviceSynchronize, as many build scripts
   pass). */
#ifndef cudaThreadSynchronize
static inline cudaError_t cudaThreadSynchronize(void) {
  return cudaDeviceSynchronize();
}
#endif
#ifndef cudaThreadExit
static inline cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }
#endif
#ifndef cudaThreadSetLimit
static inline cudaError_t cudaThreadSetLimit(enum cudaLimit limit,
                                             size_t value) {
  return cudaDeviceSetLimit(limit, value);
}
#endif
#ifndef cudaThreadGetLimit
static inline cudaError_t cudaThreadGetLimit(size_t *value,
                                             enum cudaLimit limit) {
  return cudaDeviceGetLimit(value, limit);
}
#endif
#ifndef cudaThreadGetCacheConfig
static inline cudaError_t
cudaThreadGetCacheConfig(enum cudaFuncCache *config) {
  return cudaDeviceGetCacheConfig(config);
}
#endif
#ifndef cudaThreadSetCacheConfig
static inline cudaError_t cudaThreadSetCacheConfig(enum cudaFuncCache config) {
  return cudaDeviceSetCacheConfig(config);
}
#endif
#ifdef __cplusplus
/* CUDA 13 takes a cudaMemLocation where CUDA 12 took a device number
   (cudaCpuDeviceId for the host): the old forms, as overloads. */
static inline cudaMemLocation gmemLocationOf(int device) {
  cudaMemLocation L;
  L.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost
                                     : cudaMemLocationTypeDevice;
  L.id = device == cudaCpuDeviceId ? 0 : device;
  return L;
}
static inline cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                               int dstDevice,
                                               cudaStream_t stream = 0) {
  return cudaMemPrefetchAsync(devPtr, count, gmemLocationOf(dstDevice), 0,
                              stream);
}
static inline cudaError_t cudaMemAdvise(const void *devPtr, size_t count,
                                        enum cudaMemoryAdvise advice,
                                        int device) {
  return cudaMemAdvise(devPtr, count, advice, gmemLocationOf(device));
}
#endif
#endif

#endif /* GMEM_REMOVED_APIS_H */
