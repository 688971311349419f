//===- memory_pcs.h - Which instructions of a cubin access memory ---------===//
//
// CUPTI's SASS metrics count every instruction's executions and a memory
// instruction's sectors and wavefronts. A memory instruction that only ever
// ran with every lane predicated off moved nothing, yet a GPU executed it
// (Nsight Compute's source view counts it): only its opcode tells that it
// is one. nvdisasm, from the toolkit that built the program, reads the
// opcodes out of the cubin the program loaded.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_GPU_CUPTI_MEMORY_PCS_H
#define GMEM_GPU_CUPTI_MEMORY_PCS_H

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gmem {
namespace cupti {

/// Per function (its mangled name), the offsets of its global, generic and
/// shared memory instructions: those whose sectors and wavefronts the SASS
/// metrics count.
using MemoryPcs = std::map<std::string, std::set<uint32_t>>;

/// Whether a SASS opcode (with or without modifiers: "LDG.E.128") is one
/// of those.
bool isMemoryOpcode(const std::string &Opcode);

/// Reads `nvdisasm -c` output.
MemoryPcs parseMemoryPcs(const std::string &Disassembly);

/// Disassembles a cubin with nvdisasm (GMEM_NVDISASM, else
/// $CUDA_HOME/bin/nvdisasm, else nvdisasm on the PATH, else
/// /usr/local/cuda/bin/nvdisasm). None, with why, when it cannot.
std::optional<MemoryPcs> memoryPcsOf(const std::vector<char> &Cubin,
                                     std::string &Error);

} // namespace cupti
} // namespace gmem

#endif // GMEM_GPU_CUPTI_MEMORY_PCS_H
