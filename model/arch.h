//===- arch.h - Hardware rules as data ------------------------------------===//
//
// What differs between architectures is a row in a table (arch.cpp), not a
// special case in the simulator: the global transaction sizes (32-byte sectors
// from Maxwell on; 128-byte L1 lines for Fermi's cached loads), the shared
// banks, how many lanes one shared wavefront serves for each access size, and
// how nvprof counted on the architecture where its definitions differ.
// docs/ARCHITECTURES.md says which rows were checked on a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_MODEL_ARCH_H
#define GMEM_MODEL_ARCH_H

#include "model.h"

#include <algorithm>
#include <string>
#include <vector>

namespace gmem {

struct ArchRules {
  std::string Name; ///< "sm_90"
  unsigned Sm = 90;
  std::string Family; ///< "Hopper"
  unsigned WarpSize = 32;
  /// Global memory: bytes per transaction of stores and atomics (a sector
  /// on sm_50+; Fermi and Kepler store 32-byte segments too), and of loads
  /// (Fermi caches loads in L1 by default, in 128-byte lines). These and
  /// the bank figures below must be powers of two.
  unsigned TransactionBytes = 32;
  unsigned LoadTransactionBytes = 32;
  /// Shared memory: banks and bytes per bank word.
  unsigned Banks = 32;
  unsigned BankBytes = 4;
  /// Bytes of one bank row: two words of the same bank in one aligned row
  /// are served together. Banks x BankBytes, except on Kepler, whose banks
  /// deliver 64 bits (words i and i + 32 of a 64-word row do not conflict
  /// in the 4-byte mode; the 8-byte mode maps 8-byte words to banks).
  unsigned BankRowBytes = 128;
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

  /// What nvprof's gld_transactions and gst_transactions counted on this
  /// architecture, where the figures in docs/ARCHITECTURES.md establish it.
  enum class NvprofCount : uint8_t {
    Units,       ///< The simulator's units (sectors; Fermi's load lines).
    PerBytes,    ///< One per NvprofLoadBytes requested, where every sector
                 ///< is full (Maxwell 16, Pascal 8); unknown otherwise.
    NotModelled, ///< Something gmem does not count (Kepler's 128-byte L1
                 ///< transactions, Fermi's and Kepler's store segments).
  };
  NvprofCount NvprofLoads = NvprofCount::Units;
  NvprofCount NvprofStores = NvprofCount::Units;
  unsigned NvprofLoadBytes = 0;

  unsigned groupLanes(unsigned Size) const {
    return Size >= 16 ? GroupLanes16 : Size == 8 ? GroupLanes8 : WarpSize;
  }
  /// Bytes per global transaction of an access of kind K.
  unsigned globalBytes(AccessKind K) const {
    return K == AccessKind::Load ? LoadTransactionBytes : TransactionBytes;
  }
  /// Bytes one unit of access X carries: a global transaction, a shared
  /// wavefront.
  unsigned unitBytes(const Access &X) const {
    return X.Sp == Space::Shared ? BankRowBytes : globalBytes(X.Kind);
  }
  /// Bytes after which every unit's cost repeats: a loop whose addresses
  /// move by a multiple of it costs the same in every iteration.
  unsigned addressPeriod() const {
    return std::max({TransactionBytes, LoadTransactionBytes, BankRowBytes,
                     Banks * BankBytes, 16u});
  }
};

/// The rules for Name ("sm_90", "90" or "9.0"; "sm_35:8" for Kepler's
/// 8-byte bank mode), or null.
const ArchRules *findArch(const std::string &Name);
/// The rules a result names (LaunchResult::Arch), sm_90's when it names
/// none gmem knows.
const ArchRules &archOrDefault(const std::string &Name);
/// Names findArch accepts, for messages.
std::vector<std::string> archNames();

} // namespace gmem

#endif // GMEM_MODEL_ARCH_H
