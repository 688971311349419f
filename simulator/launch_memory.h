//===- launch_memory.h - What a recorded launch's memory holds ------------===//
//
// A recorded run knows the bytes of the allocations the host alone wrote
// (analyzer/record/recorded_launches.cpp decides which). The evaluator reads
// loaded values from them (Op::Unknown with an address, makeLoaded), so a
// gather through a host-built index array is priced at its real addresses.
// Allocations live at the simulator's own bases (makeLaunchEnv); a pointer
// loaded from memory is an address the program saw and is mapped back.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_LAUNCH_MEMORY_H
#define GMEM_SIMULATOR_LAUNCH_MEMORY_H

#include "model.h"
#include <cstdint>
#include <string>
#include <vector>

namespace gmem {

class LaunchMemory {
public:
  /// Adds Image, placed at the simulator's address Base.
  void add(uint64_t Base, const MemoryImage &Image);
  bool empty() const { return Regions.empty(); }
  /// Reads Bytes (1 to 8) at the simulator address Addr into V (little
  /// endian, normalised to T); when they are not known, says why.
  bool read(uint64_t Addr, unsigned Bytes, IntType T, int64_t &V,
            std::string &Why) const;
  /// Maps an address the program saw to the simulator's; false when it
  /// lies in no recorded allocation.
  bool translate(uint64_t Real, uint64_t &Sim) const;

private:
  struct Region {
    uint64_t Base;
    MemoryImage Image;
  };
  std::vector<Region> Regions; ///< By Base.
};

} // namespace gmem

#endif // GMEM_SIMULATOR_LAUNCH_MEMORY_H
