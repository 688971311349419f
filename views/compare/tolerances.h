//===- tolerances.h - How close a measurement must be (see compare.h) -----===//
#ifndef GMEM_VIEWS_COMPARE_TOLERANCES_H
#define GMEM_VIEWS_COMPARE_TOLERANCES_H

#include <algorithm>
#include <cstdint>

namespace gmem {
namespace tolerance {

/// Nsight Compute prints ratios and percentages with 2 decimals.
constexpr double Printed = 0.005;
/// Shared wavefronts per request: a relative and an absolute allowance.
constexpr double SharedRelative = 0.03;
constexpr double SharedAbsolute = 0.15;
/// Counter noise: a shared figure of a multi-block launch measured at most
/// this much above its prediction.
constexpr double NoiseBand = 0.10;
/// The widest load or store instruction, in bytes per lane.
constexpr unsigned WidestAccess = 16;

inline double sharedPerRequest(double Predicted) {
  return std::max(SharedRelative * Predicted, SharedAbsolute);
}

/// A wavefront total, judged per request: Requests predicted instructions.
inline double sharedTotal(double Predicted, double Requests) {
  return std::max(SharedRelative * Predicted, SharedAbsolute * Requests);
}

/// Measured no lower than Predicted and at most NoiseBand above it.
inline bool withinNoise(double Predicted, double Measured) {
  return Measured >= Predicted && Measured - Predicted <= NoiseBand * Predicted;
}

/// Compares a count read back as a double.
inline bool sameCount(double A, double B) { return A - B < 0.5 && B - A < 0.5; }

} // namespace tolerance
} // namespace gmem

#endif // GMEM_VIEWS_COMPARE_TOLERANCES_H
