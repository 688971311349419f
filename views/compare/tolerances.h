//===- tolerances.h - How close a measurement must be (see compare.h) -----===//
#ifndef GMEM_VIEWS_COMPARE_TOLERANCES_H
#define GMEM_VIEWS_COMPARE_TOLERANCES_H

#include "launch_time.h"

#include <algorithm>
#include <cstdint>

namespace gmem {
namespace tolerance {

/// Nsight Compute prints ratios and percentages with 2 decimals.
constexpr double Printed = 0.005;
/// Shared wavefronts per request: a relative and an absolute allowance.
constexpr double SharedRelative = 0.03;
constexpr double SharedAbsolute = 0.15;
/// Contention: a shared figure of a launch that runs several blocks on an
/// SM measured at most this much above the bank rule's count (a timing
/// effect, simulator/launch_time.h).
constexpr double ContentionBand = SharedContentionAtMost;
/// The widest load or store instruction, in bytes per lane.
constexpr unsigned WidestAccess = 16;

inline double sharedPerRequest(double Predicted) {
  return std::max(SharedRelative * Predicted, SharedAbsolute);
}

/// A wavefront total, judged per request: Requests predicted instructions.
inline double sharedTotal(double Predicted, double Requests) {
  return std::max(SharedRelative * Predicted, SharedAbsolute * Requests);
}

/// Measured no lower than Predicted and at most ContentionBand above it.
inline bool withinContention(double Predicted, double Measured) {
  return Measured >= Predicted &&
         Measured - Predicted <= ContentionBand * Predicted;
}

/// Compares a count read back as a double.
inline bool sameCount(double A, double B) { return A - B < 0.5 && B - A < 0.5; }

} // namespace tolerance
} // namespace gmem

#endif // GMEM_VIEWS_COMPARE_TOLERANCES_H
