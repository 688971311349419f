//===- streams.h - Stream capture into graphs -----------------------------===//
#ifndef GMEM_RECORD_RUNTIME_STREAMS_H
#define GMEM_RECORD_RUNTIME_STREAMS_H

#include "functional.h"

#include <cstdint>
#include <cuda_runtime_api.h>
#include <string>
#include <vector>

namespace gmem::rec {

/// Records one launch (Api names the call); in streams.cpp's capture, or
/// logged at once.
cudaError_t launch(const void *Fn, dim3 G, dim3 B, void **Args, size_t Smem,
                   cudaStream_t Stream, const char *Api);

/// The log fields of a launch (its arguments' bytes copied now), the
/// allocations they point into, and the launch as the executor runs it;
/// returns the error name when the real runtime would refuse it (then in
/// Line too), else null. Lock held.
const char *launchLine(const void *Fn, dim3 G, dim3 B, void **Args,
                       size_t Smem, cudaStream_t Stream, const char *Api,
                       std::string &Line, std::vector<uintptr_t> &Pointed,
                       FunctionalLaunch &Exec);

/// Logs a launch: its line (with the images of Pointed, saved before it
/// runs), then runs it when recording is functional. Lock held.
void logAndRun(const std::string &Line, const std::vector<uintptr_t> &Pointed,
               const FunctionalLaunch &Exec);

/// When Stream is being captured, keeps the launch (its log fields and the
/// allocations its arguments point into, saved at each replay) for the
/// graph and returns true. Called with the recorder's lock held.
bool captureLaunch(cudaStream_t Stream, const std::string &Fields,
                   const std::vector<uintptr_t> &Pointed,
                   const FunctionalLaunch &Exec);

/// When Stream is being captured (or joined a capture), keeps the copy or
/// set as a node of the graph (run at each launch of it) and returns true.
/// Called without the recorder's lock.
bool captureCopy(cudaStream_t Stream, void *Dst, const void *Src, size_t Bytes,
                 cudaMemcpyKind Kind);
bool captureSet(cudaStream_t Stream, void *Dst, int Value, size_t Bytes);
/// Whether Stream's work goes to a graph being captured. Without the lock.
bool captured(cudaStream_t Stream);
/// Graph memory (an allocation node's, or cudaMallocAsync's in a capture),
/// which the recording never frees: each launch of the graph finds it at
/// the address it had. Without the lock.
void ownByGraph(const void *P);
bool ownedByGraph(const void *P);

} // namespace gmem::rec

#endif // GMEM_RECORD_RUNTIME_STREAMS_H
