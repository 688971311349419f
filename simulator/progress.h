//===- progress.h - A progress bar on standard error ----------------------===//
//
// Shown only when standard error is a terminal and the work has run for more
// than a second; cleared when done. Workers add to Done from any thread.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_PROGRESS_H
#define GMEM_SIMULATOR_PROGRESS_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace gmem {

class Progress {
public:
  /// Label names the work ("transposeSmem"); Total is in warps.
  Progress(std::string Label, uint64_t Total, bool Enabled);
  ~Progress();
  std::atomic<uint64_t> Done{0};

private:
  void loop();
  std::string Label;
  uint64_t Total;
  std::mutex M;
  std::condition_variable Cv;
  bool Stop = false, Shown = false;
  std::thread T;
};

} // namespace gmem

#endif // GMEM_SIMULATOR_PROGRESS_H
