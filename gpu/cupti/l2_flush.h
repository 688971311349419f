//===- l2_flush.h - Emptying the L2 of the program's data before a launch -===//
//
// Nsight Compute flushes the caches before each launch it profiles, so that
// a launch's DRAM bytes are its own and not a previous one's leftovers.
// CUPTI has no such call: the traffic run has a kernel of its own read a
// scratch area twice the L2's size, a word per sector, which evicts every
// line (the program's dirty ones written back now, not during the launch)
// and leaves the L2 full of clean lines that the launch evicts without
// writing. Writing the area instead (cudaMemset) leaves dirty lines that the
// launch then writes back; so, measured on the H200, does reading it to the
// host, whose copies do not evict the L2 the way loads do.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_GPU_CUPTI_L2_FLUSH_H
#define GMEM_GPU_CUPTI_L2_FLUSH_H

#include <cuda.h>

#include <cstddef>
#include <map>
#include <string>

namespace gmem {
namespace cupti {

class L2Flush {
public:
  /// Waits for the context's work, then empties the L2 of its data. False
  /// with \p Error set when the scratch area or the kernel cannot be had.
  /// The kernel's launch goes through the launch callbacks: the caller
  /// ignores them meanwhile.
  bool flush(CUcontext Ctx, std::string &Error);
  /// Forgets the context's area (it is being destroyed, and frees it).
  void release(CUcontext Ctx);

private:
  struct Scratch {
    CUmodule Module = nullptr;
    CUfunction Read = nullptr;
    CUdeviceptr Area = 0, Sink = 0;
    size_t Bytes = 0;
    int SMs = 0;
  };
  bool setUp(Scratch &S, std::string &Error);
  std::map<CUcontext, Scratch> ByContext;
};

} // namespace cupti
} // namespace gmem

#endif // GMEM_GPU_CUPTI_L2_FLUSH_H
