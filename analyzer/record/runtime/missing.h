//===- missing.h - Calls the recording runtime does not answer ------------===//
//
// The stubs generated from the toolkit's libcudart (CMakeLists.txt) include
// only this, not the CUDA headers, whose declarations they would clash
// with: each is a weak `int NAME()` that the real definitions override.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_RECORD_RUNTIME_MISSING_H
#define GMEM_RECORD_RUNTIME_MISSING_H

namespace gmem::rec {
/// Logs the call as missing and returns cudaErrorNotSupported.
int missingCall(const char *Api);
} // namespace gmem::rec

#endif // GMEM_RECORD_RUNTIME_MISSING_H
