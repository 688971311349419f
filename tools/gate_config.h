//===- gate_config.h - The gate's .gmem configuration files ---------------===//
//
// As clang-tidy reads .clang-tidy: the gate looks for a file named .gmem in
// each analysed file's folder and then upwards, and takes the first found.
// It is YAML with the gate's policy flags as keys:
//
//   Checks: '-*,gmem-bank-conflict,gmem-uncoalesced-*'
//   WarningsAsErrors: 'gmem-bank-conflict'
//   MinEfficiency: 50
//   MaxConflictWays: 2
//
// --checks and --warnings-as-errors (--fail-on) are appended to the file's
// lists, as clang-tidy appends them; --min-efficiency and
// --max-conflict-ways replace the file's values.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_TOOLS_GATE_CONFIG_H
#define GMEM_TOOLS_GATE_CONFIG_H

#include "gate_options.h"

#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>

namespace gmem {

struct GateConfig {
  std::string Path; ///< The .gmem file read; empty when none was found.
  std::string Checks = "*";
  std::string FailOn;
  std::optional<double> MinEfficiencyPct;
  std::optional<uint64_t> MaxConflictWays;
};

/// Parses a .gmem file's text; an error names Path and what is wrong.
llvm::Expected<GateConfig> parseGateConfig(const std::string &Text,
                                           const std::string &Path);
/// Reads and parses the configuration file Path.
llvm::Expected<GateConfig> readConfigFile(const std::string &Path);
/// C as a .gmem file, every key written (--dump-config).
std::string dumpGateConfig(const GateConfig &C);

/// The configuration that applies to File: the nearest .gmem above it, then
/// the command line's flags (G). Folders are read once (Cache).
class GateConfigs {
public:
  explicit GateConfigs(const GateOptions &G) : G(G) {}
  /// An error when a .gmem file cannot be read or parsed.
  llvm::Expected<GateConfig> forFile(const std::string &File);

private:
  /// Read with the command line's flags applied over it.
  llvm::Expected<GateConfig>
  withCommandLine(llvm::Expected<GateConfig> Read) const;
  const GateOptions &G;
  std::map<std::string, std::optional<GateConfig>> Folders;
};

} // namespace gmem

#endif // GMEM_TOOLS_GATE_CONFIG_H
