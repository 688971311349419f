//===- progress.cpp - A progress bar on standard error --------------------===//
#include "progress.h"

#include <chrono>
#include <cstdio>
#include <unistd.h>

namespace gmem {

Progress::Progress(std::string Label, uint64_t Total, bool Enabled)
    : Label(std::move(Label)), Total(Total) {
  if (Enabled && isatty(STDERR_FILENO))
    T = std::thread([this] { loop(); });
}

Progress::~Progress() {
  if (!T.joinable())
    return;
  {
    std::lock_guard<std::mutex> G(M);
    Stop = true;
  }
  Cv.notify_all();
  T.join();
}

void Progress::loop() {
  using namespace std::chrono;
  auto Start = steady_clock::now();
  std::unique_lock<std::mutex> G(M);
  // Quiet for the first second: most launches are done by then.
  if (Cv.wait_for(G, seconds(1), [this] { return Stop; }))
    return;
  while (true) {
    uint64_t D = Done.load();
    double Pct = Total ? 100.0 * double(D) / double(Total) : 100.0;
    int Bar = int(Pct / 5);
    double S = duration<double>(steady_clock::now() - Start).count();
    std::fprintf(stderr, "\rgmem: %s [%-20s] %5.1f%% of %llu warps, %.0f s",
                 Label.c_str(), std::string(size_t(Bar), '#').c_str(), Pct,
                 (unsigned long long)Total, S);
    std::fflush(stderr);
    Shown = true;
    if (Cv.wait_for(G, milliseconds(250), [this] { return Stop; }))
      break;
  }
  if (Shown) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  }
}

} // namespace gmem
