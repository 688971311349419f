//===- async_copy_units.h - The shared side of cp.async (LDGSTS) ---------===//
//
// An async copy's data reaches shared memory through L1's data stage, whose
// wavefronts depend on both addresses of each lane: where it reads (the
// global side) and where it writes (the shared side). Found by measuring
// 23 lane layouts (88 launches) on an H200 (tests/data/measured/ldgsts).
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_ASYNC_COPY_UNITS_H
#define GMEM_SIMULATOR_ASYNC_COPY_UNITS_H

#include "arch.h"
#include "memory_units.h"
#include <cstdint>
#include <string>

namespace gmem {

/// The shared side's wavefronts of one async-copy request: exact (Known),
/// or between Min and Max where the rule is not known.
struct AsyncCopyCost {
  RequestCost Cost; ///< Units: the wavefronts, when Known.
  bool Known = true;
  uint64_t Min = 0, Max = 0;
  /// Bypassing L1, the global side's sectors as L1 counts them: each
  /// quarter warp's distinct sectors where they are as many as the 32-byte
  /// chunks it writes, else between the two counts (GlobalKnown false).
  bool GlobalKnown = true;
  uint64_t GlobalSectors = 0, GlobalMin = 0, GlobalMax = 0;
  /// Bypassing L1, the global sectors the per-line (SASS) counters count:
  /// each shared wavefront's distinct sectors, summed. At least
  /// LineSectors, at most LineSectors + LineSlack (0 where the wavefronts
  /// are known).
  uint64_t LineSectors = 0, LineSlack = 0;
};

/// Bypassing L1, whether the global side's sectors are the plain rule's
/// (a copy whose form is not known counts as bypassing at 16 bytes).
inline bool bypassGlobalSideUnknown(unsigned Size, const std::string &Sass) {
  return Sass.find("BYPASS") != std::string::npos ||
         (Sass.empty() && Size == 16);
}

/// Why a source that sees one side at a time (the kernel model's warps)
/// leaves such a global side unknown.
const Why &bypassOneSided();

/// Global and Shared are the active lanes' addresses on each side; Size is
/// 4, 8 or 16 bytes. Bypass: the copy skips L1 (cp.async.cg,
/// LDGSTS.BYPASS).
AsyncCopyCost asyncCopyRequest(const ArchRules &A, const uint64_t *Global,
                               const uint64_t *Shared, uint32_t Mask,
                               unsigned Size, bool Bypass);

} // namespace gmem

#endif // GMEM_SIMULATOR_ASYNC_COPY_UNITS_H
