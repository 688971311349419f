//===- streams.h - Stream capture into graphs -----------------------------===//
#ifndef GMEM_HOST_RUNTIME_STREAMS_H
#define GMEM_HOST_RUNTIME_STREAMS_H

#include <cuda_runtime_api.h>
#include <string>

namespace gmem::rec {

/// Records one launch (Api names the call); in streams.cpp's capture, or
/// logged at once.
cudaError_t launch(const void *Fn, dim3 G, dim3 B, void **Args, size_t Smem,
                   cudaStream_t Stream, const char *Api);

/// When Stream is being captured, keeps the launch (its log fields) for
/// the graph and returns true. Called with the recorder's lock held.
bool captureLaunch(cudaStream_t Stream, const std::string &Fields);

} // namespace gmem::rec

#endif // GMEM_HOST_RUNTIME_STREAMS_H
