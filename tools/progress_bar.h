//===- progress_bar.h - A long simulation's progress on the terminal ------===//
#ifndef GMEM_TOOLS_PROGRESS_BAR_H
#define GMEM_TOOLS_PROGRESS_BAR_H

#include "progress.h"

namespace gmem {

/// For SimOptions::OnProgress: a bar on standard error, cleared when the
/// launch is done; empty (no reports) when standard error is not a
/// terminal, so that logs and pipes get no control characters.
ProgressFn terminalProgressBar();

} // namespace gmem

#endif // GMEM_TOOLS_PROGRESS_BAR_H
