//===- launch_plan.h - Which launches to simulate -------------------------===//
//
// The host code's launches (already carrying the command line's overrides),
// filtered by --kernel; or, for a kernel the host code does not launch, one
// launch built from --grid, --block and --arg.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_TOOLS_LAUNCH_PLAN_H
#define GMEM_TOOLS_LAUNCH_PLAN_H

#include "model.h"
#include "options.h"

#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace gmem {

/// The kernel --kernel names: its exact name, or the one template instance
/// or kernel with that base name; an error listing the kernels otherwise.
llvm::Expected<const Kernel *> findKernelByName(const Module &M,
                                                const std::string &Name);

/// The kernels --kernel names (Spec): one by name (findKernelByName), or
/// every one whose name, or name without template arguments, matches
/// "regex:PATTERN" (Nsight Compute's --kernel-name). An error when none
/// is, or the pattern is not a regular expression.
llvm::Expected<std::vector<const Kernel *>>
selectKernels(const Module &M, const std::string &Spec);

/// Keeps the launches of Ls whose kernel is in Selected (all when it is
/// empty), then leaves out the first --launch-skip and keeps --launch-count
/// of the rest, in the order the program made them. An error when the skip
/// leaves none; Ls empty without an error when no launch was of the
/// kernels chosen.
llvm::Error chooseLaunches(const Module &M, const Options &O,
                           const std::vector<const Kernel *> &Selected,
                           std::vector<Launch> &Ls);

/// Applies --grid, --block, --dynamic-smem and --arg to the launches M
/// recorded (a model read with --model; host code is not re-run, so a grid
/// derived from the block is not re-derived).
void applyOverrides(Module &M, const LaunchOverrides &O);

/// M's program ran to its end under recording and launched no kernel.
bool ranWithoutLaunches(const Module &M);

/// One of M's kernels is defined in one of Files (by file name), not in a
/// library's header.
bool definesKernel(const Module &M, const std::vector<std::string> &Files);

/// The launches to simulate (none where the program ran to its end without
/// launching any kernel and defines none of its own), or an error saying
/// what to pass.
llvm::Expected<std::vector<Launch>> planLaunches(const Module &M,
                                                 const Options &O);

/// A warning for each --arg that none of Launches (those to simulate, with
/// a --kernel launch built from the flags) has a parameter for.
std::vector<std::string> unusedArgWarnings(const Module &M,
                                           const std::vector<Launch> &Launches,
                                           const LaunchOverrides &O);

} // namespace gmem

#endif // GMEM_TOOLS_LAUNCH_PLAN_H
