//===- run_comparison.h - gmem-analyze --compare --------------------------===//
//
// The wiring of a comparison: read what a GPU measured, simulate exactly
// those launches, and set prediction beside measurement (views/compare).
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_TOOLS_RUN_COMPARISON_H
#define GMEM_TOOLS_RUN_COMPARISON_H

#include "compare.h"
#include "importers.h"

namespace gmem {

/// Reads a measurement to compare with (gmem-verify JSON, ncu CSV, nvprof
/// CSV or nvprof's printed tables) and refuses one naming a metric gmem
/// does not know (checkMetricNames): a one-line Failure. Called before the
/// source is built, so that the mistake is reported first.
ImportResult readComparedMeasurement(const std::string &Path);

/// Matches, validates and simulates every launch of Ms (kept alive by the
/// caller: the comparison points into it). A one-line Failure on bad input.
Expected<Comparison> buildComparison(const Module &M, const Measurement &Ms,
                                     const std::string &MeasurementName,
                                     const ComparisonOptions &O);

/// `gmem-analyze FILE --compare MEASUREMENT`: reads the measurement (gmem-
/// verify JSON, ncu CSV, nvprof CSV or nvprof's printed tables), matches,
/// simulates, prints the view on Out and returns the exit code: 0/1 as
/// comparisonExitCode, 2 with one line "gmem-analyze: error: ..." on Err
/// for bad input.
int runComparison(const Module &M, const std::string &MeasurementPath,
                  const ComparisonOptions &O, std::ostream &Out,
                  std::ostream &Err);

} // namespace gmem

#endif // GMEM_TOOLS_RUN_COMPARISON_H
