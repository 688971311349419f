//===- host_launches.h - Launches found in host code, with warnings -------===//
//
// findLaunches (translate.h) prints its warnings to stderr; callers that
// want them as data (the CLI's JSON, tests) use findHostLaunches.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_HOST_LAUNCHES_H
#define GMEM_ANALYZER_HOST_LAUNCHES_H

#include "translate.h"
#include <string>
#include <vector>

namespace gmem {

struct HostLaunches {
  std::vector<Launch> Launches;
  /// "file.cu:12: message": constructs the interpreter did not follow, limits
  /// it hit, overrides that matched nothing.
  std::vector<std::string> Warnings;
};

HostLaunches findHostLaunches(clang::ASTContext &Ctx,
                              const std::vector<Kernel> &Kernels,
                              const LaunchOverrides &Overrides);

/// The value --arg NAME=Text gives a parameter of kind P (and integer type
/// T): decimal or 0x hexadecimal integers, floats; for a pointer, an integer
/// is its alignment offset. Unknown, with the reason, when Text does not fit.
ArgValue parseArgOverride(const std::string &Name, const std::string &Text,
                          ParamKind P, IntType T);

} // namespace gmem

#endif // GMEM_ANALYZER_HOST_LAUNCHES_H
