//===- gate_driver.h - gmem-analyze as a CI gate --------------------------===//
//
// A loop over translation units: each file is analysed by one per-file
// function (analyzeOneFile, on its own thread with -j), then the rules turn
// every launch into Diagnostics, --checks and NOLINT filter them, the
// policies and the baseline decide the exit code, and a view prints them.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_TOOLS_GATE_DRIVER_H
#define GMEM_TOOLS_GATE_DRIVER_H

#include "gate_options.h"
#include "options.h"
#include <ostream>

namespace gmem {

/// Whether the command line asks for the gate rather than the tables.
bool isGateRun(const Options &O, const GateOptions &G);

/// Runs the gate; returns the exit code (0 clean, 1 findings or
/// regressions at the policy, 2 usage, input or I/O error).
/// --dump-config: the configuration that applies to the first file (the
/// current folder without one), as a .gmem file, on OS; 2 on a bad file.
int dumpConfig(const Options &O, const GateOptions &G, std::ostream &OS);

int runGate(const Options &O, const GateOptions &G);

/// --list-checks: every rule enabled here (the .gmem file of the current
/// folder, then --checks) with its meaning and default threshold.
int listChecks(const GateOptions &G, std::ostream &OS);

} // namespace gmem

#endif // GMEM_TOOLS_GATE_DRIVER_H
