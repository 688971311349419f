//===- gate_options.h - What the CI gate was asked to do ------------------===//
//
// Filled from the command line by command_line.cpp, whose gate flags are
// spelled as clang-tidy's (--checks=, --warnings-as-errors=, -p,
// --extra-arg, --extra-arg-before, -fno-color-diagnostics).
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_TOOLS_GATE_OPTIONS_H
#define GMEM_TOOLS_GATE_OPTIONS_H

#include <optional>
#include <string>
#include <vector>

namespace gmem {

struct GateOptions {
  /// --checks: which rules run, appended to a .gmem file's list (default
  /// '*'; gate_config.h).
  std::string Checks;
  std::string FailOn; ///< Rules whose findings are errors (globs).
  std::optional<double> MinEfficiencyPct;
  std::optional<uint64_t> MaxConflictWays;
  std::string Baseline;
  bool UpdateBaseline = false;
  double TolerancePct = 0;
  std::string BuildPath; ///< -p: folder with compile_commands.json.
  unsigned Jobs = 0;     ///< -j: files analysed at once (0: one per core).
  std::vector<std::string> ExtraArgs, ExtraArgsBefore;
  std::string SarifFile;   ///< --sarif FILE: SARIF besides the text output.
  std::string ExportFixes; ///< --export-fixes FILE: clang-tidy's YAML.
  bool Fix = false;        ///< --fix: apply the checked fixes' edits.
  bool DumpConfig = false; ///< --dump-config: print the configuration.
  std::string ConfigFile;  ///< --config-file: instead of the nearest .gmem.
  std::string LaunchFile;  ///< --launches FILE: launches for kernels no
                           ///< main launches (launch_file.cpp).
  std::optional<bool> Color;
  bool ListChecks = false;
  bool Quiet = false; ///< --quiet: no summary line, no notes.
  bool Any = false;   ///< Some gate flag was given.
};

} // namespace gmem

#endif // GMEM_TOOLS_GATE_OPTIONS_H
