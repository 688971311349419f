//===- memory.h - Device memory as the executor sees it ---------------------===//
//
// Global memory is a set of regions (allocations, module variables) at
// their device addresses, each with its bytes and which of them are known:
// a byte is known when something with known bytes wrote it (the host's
// copies, an executed store of a known value). A load of unknown bytes
// gives a value marked unknown (machine.h), so that an address computed
// from it is never invented.
//
// In the recording runtime the regions are the program's own buffers (the
// device addresses are host addresses); in gmem-analyze they are images
// saved by a recorded run, or nothing at all (every load unknown).
//
// Shared, local and kernel-parameter memory are per block, per thread and
// per launch; generic addresses reach them through windows far above any
// host address, as the GPU's generic address space does.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_EXECUTOR_MEMORY_H
#define GMEM_EXECUTOR_MEMORY_H

#include "texture.h"

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gmem::exec {

/// Generic-address windows (host addresses stay below 2^48).
constexpr uint64_t SharedWindow = uint64_t(1) << 56;
constexpr uint64_t LocalWindow = uint64_t(2) << 56;
constexpr uint64_t ParamWindow = uint64_t(3) << 56;
constexpr uint64_t WindowSize = uint64_t(1) << 48;

/// One bit per byte: which bytes are known.
class KnownBits {
public:
  KnownBits() = default;
  explicit KnownBits(uint64_t Bytes, bool Known)
      : Bits((Bytes + 63) / 64, Known ? ~uint64_t(0) : 0) {}
  /// Whether the N bytes (at most 64) at Off are all known.
  bool all(uint64_t Off, unsigned N) const {
    const unsigned B = unsigned(Off & 63);
    const uint64_t W = Off >> 6;
    if (B + N <= 64) {
      const uint64_t M = maskOf(N) << B;
      return (Bits[W] & M) == M;
    }
    const uint64_t Lo = ~uint64_t(0) << B, Hi = maskOf(B + N - 64);
    return (Bits[W] & Lo) == Lo && (Bits[W + 1] & Hi) == Hi;
  }
  bool get(uint64_t Off) const { return Bits[Off >> 6] >> (Off & 63) & 1; }
  /// Bytes bytes, all known or all unknown (keeps the storage).
  void reset(uint64_t Bytes, bool Known) {
    Bits.assign((Bytes + 63) / 64, Known ? ~uint64_t(0) : 0);
  }
  /// Marks the N bytes (at most 64) at Off; atomic on each word, so that
  /// blocks run on several threads may mark neighbouring bytes.
  void set(uint64_t Off, unsigned N, bool Known) {
    const unsigned B = unsigned(Off & 63);
    const uint64_t W = Off >> 6;
    if (B + N <= 64)
      return apply(W, maskOf(N) << B, Known);
    apply(W, ~uint64_t(0) << B, Known);
    apply(W + 1, maskOf(B + N - 64), Known);
  }
  void setRange(uint64_t Off, uint64_t N, bool Known);
  bool allKnown(uint64_t Bytes) const;

private:
  static uint64_t maskOf(unsigned N) {
    return N >= 64 ? ~uint64_t(0) : (uint64_t(1) << N) - 1;
  }
  void apply(uint64_t W, uint64_t M, bool Known) {
    if (Known) {
      if ((Bits[W] & M) != M)
        __atomic_fetch_or(&Bits[W], M, __ATOMIC_RELAXED);
    } else if (Bits[W] & M) {
      __atomic_fetch_and(&Bits[W], ~M, __ATOMIC_RELAXED);
    }
  }
  std::vector<uint64_t> Bits;
};

struct Region {
  uint64_t Base = 0, Size = 0;
  uint8_t *Data = nullptr; ///< Size bytes (owned elsewhere or by Owned).
  KnownBits *Known = nullptr;
  /// Every byte is known (so loads need not look at Known); false may be
  /// stale, true never is.
  bool AllKnown = false;
  std::string Name; ///< For messages: "cudaMalloc #3", "perm".
  /// The bytes' owner when the memory made them (images, module variables
  /// in gmem-analyze); null for the program's own buffers.
  std::shared_ptr<uint8_t[]> Owned;
  std::shared_ptr<KnownBits> OwnedKnown;
  /// Why its unknown bytes are unknown ("nothing has written it").
  std::string UnknownWhy;
  /// A device-heap allocation (malloc in a kernel): where the driver's
  /// allocator places it is not known beyond this alignment.
  uint32_t HeapAlign = 0;
};

/// The global address space: regions, found by address.
class GlobalMemory {
public:
  /// Adds a region that owns zeroed bytes (all unknown unless Known).
  Region &addOwned(uint64_t Base, uint64_t Size, std::string Name,
                   bool Known);
  /// Adds an owned region of Bytes (all unknown) at the next free address
  /// a multiple of Align, 256 at least, as the device's allocators place
  /// their blocks.
  Region &allocate(uint64_t Bytes, uint64_t Align, std::string Name);
  /// Adds the program's own buffer at its address.
  Region &addExternal(uint64_t Base, uint64_t Size, uint8_t *Data,
                      KnownBits *Known, std::string Name);
  /// Removes the region at Base (a freed allocation).
  void remove(uint64_t Base);
  /// The region holding [Addr, Addr + N), or null. Safe from several
  /// threads while no region is added or removed.
  Region *find(uint64_t Addr, unsigned N);
  /// How far Addr lies from the nearest region (0 inside one; all of the
  /// address space when there is none).
  uint64_t distance(uint64_t Addr) const;
  /// Outside every region, loads are unknown and stores dropped instead of
  /// faulting: gmem-analyze without the program's memory.
  bool Lenient = false;
  /// Where module variables are placed when nothing else places them.
  uint64_t NextFree = uint64_t(1) << 44;
  /// A kernel allocated device-heap memory (some region has HeapAlign).
  bool Heap = false;
  /// Texture and surface objects by handle (texture.h).
  std::map<uint64_t, TextureView> Textures;
  const std::vector<std::unique_ptr<Region>> &regions() const {
    return Regions;
  }
  void clear() {
    Regions.clear();
    Sorted.clear();
    Textures.clear();
    Heap = false;
  }

private:
  std::vector<std::unique_ptr<Region>> Regions;
  std::vector<Region *> Sorted;
};

} // namespace gmem::exec

#endif // GMEM_EXECUTOR_MEMORY_H
