//===- progress.cpp - How far a long simulation has got -------------------===//
#include "progress.h"

#include <chrono>

namespace gmem {

Progress::Progress(std::string Label, uint64_t Total, ProgressFn Report)
    : Label(std::move(Label)), Total(Total), Report(std::move(Report)) {
  if (this->Report)
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
  auto Seconds = [&] {
    return duration<double>(steady_clock::now() - Start).count();
  };
  std::unique_lock<std::mutex> G(M);
  if (Cv.wait_for(G, seconds(1), [this] { return Stop; }))
    return;
  do
    Report({Label, Done.load(), Total, Seconds(), false});
  while (!Cv.wait_for(G, milliseconds(250), [this] { return Stop; }));
  Report({Label, Done.load(), Total, Seconds(), true});
}

} // namespace gmem
