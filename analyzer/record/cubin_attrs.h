//===- cubin_attrs.h - What cudaFuncGetAttributes reads from a cubin -------===//
//
// A kernel's registers, static shared memory, stack frame and launch bound,
// as ptxas wrote them into the cubin (.nv.info's EIATTR_REGCOUNT and
// EIATTR_FRAME_SIZE, .nv.info.<kernel>'s EIATTR_MAX_THREADS, the size of
// .nv.shared.<kernel>). The recording runtime answers the attribute and
// occupancy calls with them, as a GPU's runtime does from the same cubin.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_RECORD_CUBIN_ATTRS_H
#define GMEM_ANALYZER_RECORD_CUBIN_ATTRS_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace gmem {

struct CubinKernel {
  std::string Mangled;
  unsigned Regs = 0;
  uint64_t SharedBytes = 0; ///< Static shared memory.
  uint64_t LocalBytes = 0;  ///< The stack frame per thread.
  unsigned MaxThreads = 1024; ///< __launch_bounds__, else the device's.
};

/// The kernels (entry functions) of a cubin of sm_Sm. Empty when the bytes
/// are not a CUDA ELF.
std::vector<CubinKernel> readCubinKernels(llvm::StringRef Bytes, unsigned Sm);

/// One line per kernel, as the recording runtime reads them
/// (GMEM_RECORD_ATTRS): mangled name, registers, shared, local, max threads.
std::string attributeLines(const std::vector<CubinKernel> &Kernels);

} // namespace gmem

#endif // GMEM_ANALYZER_RECORD_CUBIN_ATTRS_H
