//===- progress_bar.cpp - A long simulation's progress on the terminal ----===//
#include "progress_bar.h"

#include <cstdio>
#include <unistd.h>

namespace gmem {

ProgressFn terminalProgressBar() {
  if (!isatty(STDERR_FILENO))
    return {};
  return [](const ProgressReport &R) {
    if (R.Finished) {
      std::fprintf(stderr, "\r\033[K");
    } else {
      double Pct = R.Total ? 100.0 * double(R.Done) / double(R.Total) : 100.0;
      std::fprintf(stderr, "\rgmem: %s [%-20s] %5.1f%% of %llu warps, %.0f s",
                   R.Label.c_str(), std::string(size_t(Pct / 5), '#').c_str(),
                   Pct, (unsigned long long)R.Total, R.Seconds);
    }
    std::fflush(stderr);
  };
}

} // namespace gmem
