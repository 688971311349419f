//===- arch.h - Hardware rules as data ------------------------------------===//
//
// What differs between architectures is a row in a table (arch.cpp), not a
// special case in the simulator: the global transaction size (32-byte sectors
// from Maxwell on; 128-byte L1 lines on Fermi), the shared bank width, and how
// many lanes one shared wavefront serves for each access size.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_ARCH_H
#define GMEM_SIMULATOR_ARCH_H

#include <string>
#include <vector>

namespace gmem {

struct ArchRules {
  std::string Name; ///< "sm_90"
  unsigned Sm = 90;
  std::string Family; ///< "Hopper"
  unsigned WarpSize = 32;
  /// Global memory: bytes per transaction (a sector on sm_50+). This and the
  /// bank figures below must be powers of two.
  unsigned TransactionBytes = 32;
  /// Shared memory: banks and bytes per bank.
  unsigned Banks = 32;
  unsigned BankBytes = 4;
  /// Lanes served together for 8- and 16-byte shared accesses (half and
  /// quarter warps); accesses of 4 bytes or less are served per warp.
  unsigned GroupLanes8 = 16;
  unsigned GroupLanes16 = 8;
  /// Loads only: when every active lane's address equals that of its active
  /// partner lane (lane ^ 1 for all lanes, or lane ^ 2 for all), the data
  /// returned is packed and a group serves twice the lanes (an LDS.128 then
  /// takes 2 wavefronts, not 4). Measured on an H100 (examples/shared_wide.cu);
  /// NVIDIA describes the same rule for sm_70 and sm_75.
  bool PackedPairLoads = true;
  unsigned MaxThreadsPerBlock = 1024;
  /// Shared memory per block: statically declared, and in all (dynamic
  /// included) with the opt-in attribute.
  unsigned long long MaxStaticShared = 48 * 1024;
  unsigned long long MaxSharedOptIn = 48 * 1024;
  unsigned MaxBlockDim[3] = {1024, 1024, 64};
  unsigned long long MaxGridDim[3] = {2147483647ull, 65535, 65535};

  unsigned groupLanes(unsigned Size) const {
    return Size >= 16 ? GroupLanes16 : Size == 8 ? GroupLanes8 : WarpSize;
  }
};

/// The rules for Name ("sm_90", "90" or "9.0"), or null.
const ArchRules *findArch(const std::string &Name);
/// Names findArch accepts, for messages.
std::vector<std::string> archNames();

} // namespace gmem

#endif // GMEM_SIMULATOR_ARCH_H
