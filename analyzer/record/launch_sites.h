//===- launch_sites.h - Source lines of recorded launches -----------------===//
//
// The recording runtime logs, with each launch, the return addresses on the
// stack that lie in the program's executable (for <<<>>>, those of the
// configuration push, which is made at the launch expression). The binary
// is built with host line tables (-g), so its DWARF names the launch's
// source line: the first frame, inlined frames included, that is not in
// the CUDA toolkit, the system headers or nvcc's generated files. Columns
// are not kept: nvcc's front end rewrites the launch expression.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_RECORD_LAUNCH_SITES_H
#define GMEM_ANALYZER_RECORD_LAUNCH_SITES_H

#include "model.h"
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gmem {

class LaunchSites {
public:
  /// Binary: the executable that was run; Files: the program's files as
  /// the user gave them (a line in one of them is named that way);
  /// Toolkit: the CUDA toolkit's root, whose headers are skipped.
  LaunchSites(std::string Binary, const std::vector<std::string> &Files,
              std::string Toolkit);
  ~LaunchSites();

  /// The source line of a launch whose stack was Offsets (innermost
  /// first); Line 0 when no frame names one of the program's lines.
  SourceLoc siteOf(const std::vector<uint64_t> &Offsets);

private:
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace gmem

#endif // GMEM_ANALYZER_RECORD_LAUNCH_SITES_H
