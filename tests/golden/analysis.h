//===- analysis.h - Analyse and simulate a file in-process for tests ------===//
#ifndef GMEM_TESTS_GOLDEN_ANALYSIS_H
#define GMEM_TESTS_GOLDEN_ANALYSIS_H

#include "result.h"
#include "translate.h"
#include <string>
#include <vector>

namespace gmem::test {

struct Analysis {
  Module M;
  std::vector<LaunchResult> Results; ///< One per host launch, in order.
  double Seconds = 0;                ///< Simulation wall time of all launches.
  double CpuSeconds = 0; ///< Their CPU time, all threads (steady under load).
};

/// Parses, translates and simulates Path (cached per path and overrides);
/// fails the current test when the file does not parse.
const Analysis &analyze(const std::string &Path, const LaunchOverrides &O = {});

/// What an example's host code needs from the GPU it was measured on:
/// bank_contention.cu sizes its grids by the device's SMs, the H200's 132.
LaunchOverrides measuredDeviceOverrides(const std::string &Path);

/// The first launch of Kernel in A (a test failure when there is none).
const LaunchResult *launchOf(const Analysis &A, const std::string &Kernel);

/// The per-access statistics of the access whose text is Text in R.
const AccessStats *accessByText(const LaunchResult &R, const std::string &Text);

/// What `gmem-analyze ARGS`, run from the source directory, printed.
struct ToolRun {
  int Exit = -1;
  std::string Out, Err;
};
ToolRun runTool(const std::string &Args);

/// Writes Text to a file named Name in the test's temporary directory;
/// returns its path.
std::string writeTemp(const std::string &Name, const std::string &Text);

/// tests/data/groundtruth: the H200 measurements of examples/seeds_gt.cu.
std::string groundTruthDir();
std::string sourceDir();

} // namespace gmem::test

#endif
