//===- nvprof_units.h - Global transactions as nvprof counted them --------===//
//
// nvprof's gld_transactions and gst_transactions were not 32-byte sectors
// on every architecture (ArchRules::NvprofCount, docs/ARCHITECTURES.md):
// Pascal counted a coalesced 4-byte load request as 16, Maxwell as 8, and
// Kepler's and Fermi's counts are of units gmem does not model. The text
// view of those architectures and the comparison with nvprof's tables both
// convert through here, so that they say the same.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_VIEWS_NVPROF_UNITS_H
#define GMEM_VIEWS_NVPROF_UNITS_H

#include "result.h"

#include <functional>
#include <optional>
#include <string>

namespace gmem {

struct NvprofUnits {
  /// nvprof's transactions per gmem unit; empty when what nvprof counted
  /// is not established for these requests (UnknownReason says why).
  std::optional<double> Factor;
  std::string Definition; ///< The rule applied, where it is not 1 per unit.
  std::string UnknownReason;
};

/// The global loads (Load) or stores of R as nvprof counted them on R's
/// architecture; InGroup picks the accesses whose units are converted.
NvprofUnits nvprofUnits(const LaunchResult &R, bool Load,
                        const std::function<bool(const Access &)> &InGroup);

} // namespace gmem

#endif // GMEM_VIEWS_NVPROF_UNITS_H
