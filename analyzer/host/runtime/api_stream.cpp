//===- api_stream.cpp - Streams, events and graphs ------------------------===//
//
// Streams and events are handles with nothing behind them: work is
// recorded in the order the host issues it. Events time nothing; their
// elapsed time is reported as 0 ms. A stream being captured keeps its
// launches for the graph, and every launch of the graph's executable logs
// them again, in capture order, marked with the graph's number.
//
//===----------------------------------------------------------------------===//
#include "images.h"
#include "recorder.h"
#include "streams.h"

#include <map>
#include <vector>

using namespace gmem::rec;

namespace {

struct Graphs {
  /// A captured launch: its log fields and the allocations it points into.
  using Node = std::pair<std::string, std::vector<uintptr_t>>;
  std::map<uintptr_t, std::vector<Node>> Capturing; ///< By stream.
  std::map<uintptr_t, std::vector<Node>> Captured;  ///< By graph.
  std::map<uintptr_t, uintptr_t> Execs;             ///< Exec -> graph.
};

Graphs &graphs() {
  static Graphs *G = new Graphs();
  return *G;
}

template <typename T> cudaError_t newHandle(T *Out) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  *Out = reinterpret_cast<T>(uintptr_t(R.NextHandle++));
  return cudaSuccess;
}

} // namespace

namespace gmem::rec {

bool captureLaunch(cudaStream_t Stream, const std::string &Fields,
                   const std::vector<uintptr_t> &Pointed) {
  auto It = graphs().Capturing.find(uintptr_t(Stream));
  if (It == graphs().Capturing.end())
    return false;
  It->second.emplace_back(Fields, Pointed);
  return true;
}

} // namespace gmem::rec

extern "C" {

cudaError_t cudaStreamCreate(cudaStream_t *S) { return newHandle(S); }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *S, unsigned) {
  return newHandle(S);
}
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *S, unsigned, int) {
  return newHandle(S);
}
cudaError_t cudaDeviceGetStreamPriorityRange(int *Least, int *Greatest) {
  *Least = 0;
  *Greatest = -5;
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamQuery(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamWaitEvent(cudaStream_t, cudaEvent_t, unsigned) {
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *E) { return newHandle(E); }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *E, unsigned) {
  return newHandle(E);
}
cudaError_t cudaEventRecord(cudaEvent_t, cudaStream_t) { return cudaSuccess; }
cudaError_t cudaEventRecordWithFlags(cudaEvent_t, cudaStream_t, unsigned) {
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventQuery(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventDestroy(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t, cudaEvent_t) {
  *Ms = 0;
  return cudaSuccess;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t S, cudaStreamCaptureMode) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  graphs().Capturing[uintptr_t(S)];
  return cudaSuccess;
}
cudaError_t cudaStreamIsCapturing(cudaStream_t S,
                                  cudaStreamCaptureStatus *Status) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  *Status = graphs().Capturing.count(uintptr_t(S))
                ? cudaStreamCaptureStatusActive
                : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}
cudaError_t cudaStreamEndCapture(cudaStream_t S, cudaGraph_t *Graph) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  auto It = graphs().Capturing.find(uintptr_t(S));
  if (It == graphs().Capturing.end())
    return fail(cudaErrorIllegalState);
  const uintptr_t Id = uintptr_t(R.NextHandle++);
  graphs().Captured[Id] = std::move(It->second);
  graphs().Capturing.erase(It);
  *Graph = reinterpret_cast<cudaGraph_t>(Id);
  return cudaSuccess;
}
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *Exec, cudaGraph_t Graph,
                                 unsigned long long) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  if (!graphs().Captured.count(uintptr_t(Graph)))
    return fail(cudaErrorInvalidValue);
  const uintptr_t Id = uintptr_t(R.NextHandle++);
  graphs().Execs[Id] = uintptr_t(Graph);
  *Exec = reinterpret_cast<cudaGraphExec_t>(Id);
  return cudaSuccess;
}
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *Exec,
                                          cudaGraph_t Graph,
                                          unsigned long long Flags) {
  return cudaGraphInstantiate(Exec, Graph, Flags);
}
cudaError_t cudaGraphLaunch(cudaGraphExec_t Exec, cudaStream_t) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  auto It = graphs().Execs.find(uintptr_t(Exec));
  if (It == graphs().Execs.end())
    return fail(cudaErrorInvalidValue);
  for (const auto &[Fields, Pointed] : graphs().Captured[It->second])
    logLaunch("\"graph\":" + std::to_string(It->second) + "," + Fields +
              imagesField(Pointed));
  return cudaSuccess;
}
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t Exec) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  graphs().Execs.erase(uintptr_t(Exec));
  return cudaSuccess;
}
cudaError_t cudaGraphDestroy(cudaGraph_t) { return cudaSuccess; }

} // extern "C"
