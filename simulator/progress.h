//===- progress.h - How far a long simulation has got ---------------------===//
//
// Workers add to Done from any thread; when the caller asked for reports
// (SimOptions::OnProgress), a helper thread hands them over after the first
// second (most launches are done by then), then every quarter second, then
// once more when the work is done. What is shown, and where, is the
// caller's: the simulator prints nothing.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_PROGRESS_H
#define GMEM_SIMULATOR_PROGRESS_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace gmem {

struct ProgressReport {
  const std::string &Label; ///< The work: the kernel's name.
  uint64_t Done, Total;     ///< In warps.
  double Seconds;           ///< Since the work started.
  bool Finished;            ///< The last report, after at least one other.
};
using ProgressFn = std::function<void(const ProgressReport &)>;

class Progress {
public:
  /// No thread, and no report, when Report is empty.
  Progress(std::string Label, uint64_t Total, ProgressFn Report);
  ~Progress();
  std::atomic<uint64_t> Done{0};

private:
  void loop();
  std::string Label;
  uint64_t Total;
  ProgressFn Report;
  std::mutex M;
  std::condition_variable Cv;
  bool Stop = false;
  std::thread T;
};

} // namespace gmem

#endif // GMEM_SIMULATOR_PROGRESS_H
