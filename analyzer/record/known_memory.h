//===- known_memory.h - Which recorded bytes a launch may trust -----------===//
//
// Kernels do not run under the recorder, so an allocation holds what a GPU
// would hold only until a kernel (or a library) may have written it, and
// device memory nothing has filled is not known at all; copies and sets
// from the host that together fill all of it make it known, and a copy
// from another allocation is as known as its source; a library call that
// may launch kernels (a GEMM) makes everything unknown. KnownMemory follows a
// recorded run in order and gives each launch the images it may read.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_RECORD_KNOWN_MEMORY_H
#define GMEM_ANALYZER_RECORD_KNOWN_MEMORY_H

#include "model.h"
#include "record_run.h"
#include "llvm/ADT/StringRef.h"
#include <map>
#include <string>
#include <vector>

namespace gmem {

/// Which parameters a kernel may write through.
struct KernelWrites {
  std::vector<bool> Params;
  /// A global store or atomic the model cannot tie to parameters (a
  /// pointer loaded from memory, an unclaimed SASS store): it may write
  /// any allocation.
  bool Any = false;
};
KernelWrites kernelWrites(const Kernel &K);

/// Whether a library call (cuBLAS's) may run kernels and write device
/// memory: all but handles, settings and queries.
bool mayWriteMemory(llvm::StringRef Api);

class KnownMemory {
public:
  explicit KnownMemory(const RecordedRun &Run);
  /// The memory launch Index (Run.Launches[Index], simulated as L of K)
  /// sees; then what it may write becomes unknown. Call in launch order,
  /// once per launch that ran.
  std::map<std::string, MemoryImage> launch(size_t Index, const Launch &L,
                                            const Kernel &K);
  /// Launch Index ran a kernel the model lacks: it may have written any
  /// allocation (Why says so).
  void unmodelled(size_t Index, const std::string &Why);
  /// The recorded allocation's name as launches give it.
  static std::string nameOf(const RecordedAlloc &A);
  /// Once the host has read memory a kernel may have written, why the
  /// launches from then on may differ on a GPU (the host's next steps
  /// depend on bytes the recording did not compute); else "".
  const std::string &caveat() const { return Caveat; }

private:
  /// Applies the copies, sets and reads logged before launch Index.
  void advanceTo(size_t Index);
  const RecordedRun &Run;
  size_t NextWrite = 0, NextRead = 0, NextLibrary = 0, Launched = 0;
  std::string Caveat;
  std::map<std::string, const RecordedAlloc *> ByName;
  std::map<uint64_t, const RecordedAlloc *> ById;
  std::map<uint64_t, std::string> Unknown; ///< Allocation id -> why.
  /// Of unknown allocations, the byte ranges the host has filled since
  /// (start -> end, disjoint): all of it makes it known.
  std::map<uint64_t, std::map<uint64_t, uint64_t>> Filled;
};

} // namespace gmem

#endif // GMEM_ANALYZER_RECORD_KNOWN_MEMORY_H
