//===- host_launches.h - Launches found in host code, with warnings -------===//
//
// The launches in main() and the functions it calls, in execution order,
// with grid, block, shared size and argument values computed from host code
// where they can be, and warnings (as data: no library code prints).
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_RECORD_LAUNCHES_H
#define GMEM_ANALYZER_RECORD_LAUNCHES_H

#include "arch.h"
#include "translate.h"
#include <string>
#include <vector>

namespace gmem {

struct HostLaunches {
  std::vector<Launch> Launches;
  /// "file.cu:12: message": constructs the interpreter did not follow,
  /// limits it hit.
  std::vector<std::string> Warnings;
};

/// Arch: the GPU whose properties cudaGetDeviceProperties gives (null:
/// sm_90, gmem-analyze's default). Whether an --arg names a parameter of a
/// launch is judged once the launches to simulate are known (launch_plan.h).
HostLaunches findHostLaunches(clang::ASTContext &Ctx,
                              const std::vector<Kernel> &Kernels,
                              const LaunchOverrides &Overrides,
                              const ArchRules *Arch = nullptr);

/// The value --arg NAME=Text gives a parameter of kind P (and integer type
/// T): decimal or 0x hexadecimal integers, floats; for a pointer, an integer
/// is its alignment offset. Unknown, with the reason, when Text does not fit.
ArgValue parseArgOverride(const std::string &Name, const std::string &Text,
                          ParamKind P, IntType T);

/// --block, --grid, --dynamic-smem and --arg applied to one launch, wherever
/// it came from (host code interpreted or recorded, a model file): each
/// replaces its value and drops what L could not compute that the flag now
/// gives ("...; pass --grid"). Params: the launched kernel's parameters
/// (their names, kinds and types read --arg).
void applyOverrides(Launch &L, const std::vector<Param> &Params,
                    const LaunchOverrides &O);

} // namespace gmem

#endif // GMEM_ANALYZER_RECORD_LAUNCHES_H
