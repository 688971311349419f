//===- execute_launch.h - A launch of the model, run on its PTX -------------===//
//
// gmem-analyze's executed path: the PTX nvcc emitted for the program's
// translation units, parsed once, and each launch run on it with the
// memory the launch knows (a recorded run's images at their addresses; no
// memory at all for launches read from the host code, whose loads are then
// unknown). The result is a LaunchResult like the model's, over the
// executed kernel's accesses, each named by the source words of the
// model's access on its line where there is one.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_EXECUTOR_EXECUTE_LAUNCH_H
#define GMEM_EXECUTOR_EXECUTE_LAUNCH_H

#include "arch.h"
#include "executed.h"
#include "expected.h"
#include "model.h"
#include "result.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gmem {

struct ExecOptions {
  /// Stop a launch after this many warp instructions (0: no limit).
  uint64_t MaxWarpInstructions = 0;
  /// Whether a file is the program's own (an access is placed on the
  /// innermost line of its inline chain in such a file); null: any file
  /// that is not the toolkit's or the system's.
  std::function<bool(const std::string &)> UserFile;
  /// Annotates the executed kernel with what ptxas made of its accesses
  /// (reconcile.h) before it runs; null: counted as the PTX has them.
  std::function<void(ExecutedKernel &)> Annotate;
  /// The program was built with relocatable device code
  /// (Program::LinkerPlacesShared).
  bool LinkerPlacesShared = false;
};

class ExecutedProgram {
public:
  /// Parses each unit's PTX (its file's name, its text).
  static Expected<std::unique_ptr<ExecutedProgram>>
  create(const std::vector<std::pair<std::string, std::string>> &Units);

  /// The entry of the PTX for model kernel K (matched by device name), or
  /// "" when the PTX has none.
  std::string entryFor(const Kernel &K) const;

  /// Runs launch L of K on its PTX and prices it with A's rules. Fails when
  /// the PTX has no such kernel or the launch cannot be set up; a launch
  /// that stops (a fault, an instruction not implemented) is a result whose
  /// figures are unknown, with the reason (LaunchResult::Incomplete).
  Expected<LaunchResult> execute(const Kernel &K, const Launch &L,
                                 const ArchRules &A, const ExecOptions &O);

  /// What ptxas made of every kernel's accesses (O.Annotate), as the
  /// recording runtime reads it (executed_json.h's compiledLines).
  std::string compiledLines(const ExecOptions &O);

  /// The same from a functional recording's counts of the launch
  /// (Launch::Executed): nothing runs again.
  Expected<LaunchResult> fromRecording(const Kernel &K, const Launch &L,
                                       const ArchRules &A,
                                       const ExecOptions &O);

private:
  LaunchResult result(const ExecutedKernel &EK, const ExecutedCounts &Counts,
                      const Kernel &K, const Launch &L, const ArchRules &A,
                      const ExecOptions &O,
                      std::chrono::steady_clock::time_point Start);
  std::shared_ptr<const std::vector<ptx::Module>> Modules;
};

} // namespace gmem

#endif // GMEM_EXECUTOR_EXECUTE_LAUNCH_H
