//===- sass_collector.h - Per-line sectors and wavefronts of a launch -----===//
//
// The CUPTI SASS metrics API patches a kernel's instructions to count, per
// instruction, executions and actual and ideal global sectors and shared
// wavefronts. begin() enables lazy patching before the launch (the kernel is
// patched at its first execution); end() waits for the kernel, flushes the
// counts and disables patching.
//
// One launch per process: with CUDA 13.0 on an H200 (driver 580), only the
// first kernel launched after patching was enabled ever produced counts.
// Keeping patching on and flushing after each launch, disabling and enabling
// again, setting the configuration again, patching eagerly, eager module
// loading and enabling at context creation all recorded nothing for a second
// kernel. gmem-verify therefore runs the program once per measured launch
// (README.md).
//
// Program counters map to file:line through the cubins captured at module
// load (the program must be built with -lineinfo).
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_GPU_CUPTI_SASS_COLLECTOR_H
#define GMEM_GPU_CUPTI_SASS_COLLECTOR_H

#include "measurement.h"
#include "memory_pcs.h"

#include <cuda.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace gmem {
namespace cupti {

class SassCollector {
public:
  void onModuleLoaded(const void *Cubin, size_t Size);
  /// Enables patching in \p Ctx for the next launch.
  bool begin(CUcontext Ctx, std::string &Error, bool &Fatal);
  /// After the launch: the lines with any global or shared memory traffic
  /// (inst_executed counts the executions of those memory instructions
  /// only), lines of all functions the kernel ran summed.
  bool end(CUcontext Ctx, std::vector<MeasuredLine> &Lines, std::string &Error);
  /// Disables patching in a context about to be destroyed.
  void release(CUcontext Ctx);

  /// Records the last flush returned, and instructions that no cubin maps
  /// to a line (built without -lineinfo).
  size_t lastRecords() const { return LastRecords; }
  uint64_t unmappedInstructions() const { return Unmapped; }

private:
  struct Cubin {
    uint64_t Crc = 0;
    std::vector<char> Bytes;
    /// Its memory instructions, read when first needed (none when nvdisasm
    /// could not read it).
    std::optional<MemoryPcs> Memory;
    bool Disassembled = false;
  };
  bool configure(CUdevice Dev, std::string &Error, bool &Fatal);
  void disable(CUcontext Ctx);
  bool flush(CUcontext Ctx, std::vector<MeasuredLine> &Lines,
             std::string &Error);
  bool sourceLine(uint32_t Crc, const std::string &Function, uint32_t Pc,
                  std::pair<std::string, unsigned> &Where);
  /// Whether the instruction at Pc of Function is a global or shared memory
  /// instruction, by its opcode.
  bool memoryInstruction(uint32_t Crc, const std::string &Function,
                         uint32_t Pc);

  std::vector<Cubin> Cubins;
  std::set<CUdevice> Configured;
  std::set<CUcontext> Enabled;
  std::map<uint64_t, int> Slot; ///< SASS metric id -> value slot.
  std::map<std::tuple<uint32_t, std::string, uint32_t>,
           std::pair<std::string, unsigned>>
      LineCache;
  size_t LastRecords = 0;
  uint64_t Unmapped = 0;
};

} // namespace cupti
} // namespace gmem

#endif // GMEM_GPU_CUPTI_SASS_COLLECTOR_H
