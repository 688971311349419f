//===- api_stream.cpp - Streams, events and graphs ------------------------===//
//
// Streams and events are handles with nothing behind them: work is
// recorded in the order the host issues it, and host functions put in a
// stream run when issued. Events time nothing; their elapsed time is
// reported as 0 ms. A stream being captured keeps its launches and host
// functions for the graph; a graph built node by node keeps its kernel,
// host, memset, copy and empty nodes. Every launch of a graph's executable
// replays them in the order they were added, its launches logged again,
// marked with the graph's number.
//
//===----------------------------------------------------------------------===//
#include "images.h"
#include "recorder.h"
#include "streams.h"

#include <map>
#include <set>
#include <utility>
#include <vector>

using namespace gmem::rec;

namespace {

struct Graphs {
  /// A graph's node, replayed at each launch of its executable in the
  /// order nodes were added (which follows their dependencies): a launch
  /// (its log fields and the allocations it points into), a host
  /// function, a memset or copy, or nothing.
  struct Node {
    enum KindT { Launch, HostFn, Memset, Memcpy, Empty } Kind = Launch;
    std::string Fields;
    std::vector<uintptr_t> Pointed;
    FunctionalLaunch Exec;
    cudaHostFn_t Fn = nullptr;
    void *Data = nullptr, *Dst = nullptr;
    const void *Src = nullptr;
    size_t Bytes = 0;
    int Value = 0;
    cudaMemcpyKind Copy = cudaMemcpyDefault;
  };
  std::map<uintptr_t, std::vector<Node>> Capturing; ///< By stream.
  std::map<uintptr_t, std::vector<Node>> Captured;  ///< By graph.
  /// Streams that joined a capture (they waited for an event recorded in
  /// it) -> the stream that began it: their work is its graph's too, in
  /// the order the host issues it.
  std::map<uintptr_t, uintptr_t> Joined;
  /// Events recorded in a captured stream -> the stream that began it.
  std::map<uintptr_t, uintptr_t> EventIn;
  /// Graph memory (allocation nodes, cudaMallocAsync in a capture): a GPU
  /// allocates it again at the same address at each launch of the graph,
  /// so the recording keeps it for the program's life.
  std::set<uintptr_t> Owned;
  /// Each executable's nodes, as its graph had them when instantiated.
  std::map<uintptr_t, std::pair<uintptr_t, std::vector<Node>>> Execs;
  /// Node handle -> its graph and place there.
  std::map<uintptr_t, std::pair<uintptr_t, size_t>> Nodes;
};

Graphs &graphs() {
  static Graphs *G = new Graphs();
  return *G;
}

/// The stream whose capture S's work goes to (S itself, or the stream S
/// joined), or 0 when S is not captured. Lock held.
uintptr_t captureOrigin(cudaStream_t S) {
  uintptr_t Id = uintptr_t(S);
  if (auto J = graphs().Joined.find(Id); J != graphs().Joined.end())
    Id = J->second;
  return graphs().Capturing.count(Id) ? Id : 0;
}

/// The nodes a capture of S adds to, or null when S is not captured. Lock
/// held.
std::vector<Graphs::Node> *captureOf(cudaStream_t S) {
  const uintptr_t Id = captureOrigin(S);
  return Id ? &graphs().Capturing[Id] : nullptr;
}

/// A copy node: run as cudaMemcpy at each launch of its graph.
Graphs::Node copyNode(void *Dst, const void *Src, size_t Bytes,
                      cudaMemcpyKind Kind) {
  Graphs::Node N;
  N.Kind = Graphs::Node::Memcpy;
  N.Dst = Dst;
  N.Src = Src;
  N.Bytes = Bytes;
  N.Copy = Kind;
  return N;
}

template <typename T> cudaError_t newHandle(T *Out) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  *Out = reinterpret_cast<T>(uintptr_t(R.NextHandle++));
  return cudaSuccess;
}


/// Adds N to Graph and hands out its handle. Lock held.
cudaError_t addNode(cudaGraphNode_t *Out, cudaGraph_t Graph, Graphs::Node N) {
  Recorder &R = recorder();
  auto It = graphs().Captured.find(uintptr_t(Graph));
  if (It == graphs().Captured.end())
    return fail(cudaErrorInvalidValue);
  const uintptr_t Id = uintptr_t(R.NextHandle++);
  graphs().Nodes[Id] = {It->first, It->second.size()};
  It->second.push_back(std::move(N));
  *Out = reinterpret_cast<cudaGraphNode_t>(Id);
  return cudaSuccess;
}

/// The node of a graph (Exec null) or of an executable made from its
/// graph, or null. Lock held.
Graphs::Node *nodeOf(cudaGraphNode_t Node, cudaGraphExec_t Exec) {
  auto N = graphs().Nodes.find(uintptr_t(Node));
  if (N == graphs().Nodes.end())
    return nullptr;
  const auto [Graph, At] = N->second;
  std::vector<Graphs::Node> *List = nullptr;
  if (!Exec) {
    List = &graphs().Captured[Graph];
  } else {
    auto E = graphs().Execs.find(uintptr_t(Exec));
    if (E == graphs().Execs.end() || E->second.first != Graph)
      return nullptr;
    List = &E->second.second;
  }
  return At < List->size() ? &(*List)[At] : nullptr;
}

/// A kernel node's launch made again from new parameters. Lock held.
cudaError_t setKernelParams(Graphs::Node &N, const cudaKernelNodeParams *P) {
  std::string Fields;
  std::vector<uintptr_t> Pointed;
  FunctionalLaunch Exec;
  if (launchLine(P->func, P->gridDim, P->blockDim, P->kernelParams,
                 P->sharedMemBytes, nullptr, "cudaGraphAddKernelNode", Fields,
                 Pointed, Exec))
    return fail(cudaErrorInvalidValue);
  N.Fields = std::move(Fields);
  N.Pointed = std::move(Pointed);
  N.Exec = std::move(Exec);
  return cudaSuccess;
}

} // namespace

namespace gmem::rec {

bool captureLaunch(cudaStream_t Stream, const std::string &Fields,
                   const std::vector<uintptr_t> &Pointed,
                   const FunctionalLaunch &Exec) {
  std::vector<Graphs::Node> *Nodes = captureOf(Stream);
  if (!Nodes)
    return false;
  Graphs::Node N;
  N.Fields = Fields;
  N.Pointed = Pointed;
  N.Exec = Exec;
  Nodes->push_back(std::move(N));
  return true;
}

/// Adds N to the capture of Stream, if any. Takes the lock.
static bool captureNode(cudaStream_t Stream, Graphs::Node N) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  std::vector<Graphs::Node> *Nodes = captureOf(Stream);
  if (!Nodes)
    return false;
  Nodes->push_back(std::move(N));
  return true;
}

bool captureCopy(cudaStream_t Stream, void *Dst, const void *Src, size_t Bytes,
                 cudaMemcpyKind Kind) {
  return captureNode(Stream, copyNode(Dst, Src, Bytes, Kind));
}

bool captureSet(cudaStream_t Stream, void *Dst, int Value, size_t Bytes) {
  Graphs::Node N;
  N.Kind = Graphs::Node::Memset;
  N.Dst = Dst;
  N.Value = Value;
  N.Bytes = Bytes;
  return captureNode(Stream, std::move(N));
}

bool captured(cudaStream_t Stream) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  return captureOrigin(Stream) != 0;
}

void ownByGraph(const void *P) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  graphs().Owned.insert(uintptr_t(P));
}

bool ownedByGraph(const void *P) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  return graphs().Owned.count(uintptr_t(P)) != 0;
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
cudaError_t cudaStreamSynchronize(cudaStream_t) { return faulted(true); }
cudaError_t cudaStreamQuery(cudaStream_t) { return faulted(true); }
cudaError_t cudaStreamWaitEvent(cudaStream_t S, cudaEvent_t E, unsigned) {
  // Waiting for an event recorded in a captured stream joins that capture
  // (the fork of a graph captured across streams).
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  auto In = graphs().EventIn.find(uintptr_t(E));
  if (In != graphs().EventIn.end() && graphs().Capturing.count(In->second) &&
      !captureOrigin(S))
    graphs().Joined[uintptr_t(S)] = In->second;
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *E) { return newHandle(E); }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *E, unsigned) {
  return newHandle(E);
}
cudaError_t cudaEventRecord(cudaEvent_t E, cudaStream_t S) {
  {
    Recorder &R = recorder();
    std::lock_guard<std::mutex> G(R.Lock);
    if (const uintptr_t Origin = captureOrigin(S)) {
      graphs().EventIn[uintptr_t(E)] = Origin;
      return cudaSuccess;
    }
    graphs().EventIn.erase(uintptr_t(E));
  }
  return faulted(false);
}
cudaError_t cudaEventRecordWithFlags(cudaEvent_t E, cudaStream_t S, unsigned) {
  return cudaEventRecord(E, S);
}
cudaError_t cudaEventSynchronize(cudaEvent_t) { return faulted(true); }
cudaError_t cudaEventQuery(cudaEvent_t) { return faulted(true); }
cudaError_t cudaEventDestroy(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float *Ms, cudaEvent_t, cudaEvent_t) {
  if (cudaError_t E = faulted(false))
    return E;
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
  *Status = captureOrigin(S) ? cudaStreamCaptureStatusActive
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
  for (auto *Map : {&graphs().Joined, &graphs().EventIn})
    for (auto J = Map->begin(); J != Map->end();)
      J = J->second == uintptr_t(S) ? Map->erase(J) : std::next(J);
  *Graph = reinterpret_cast<cudaGraph_t>(Id);
  return cudaSuccess;
}
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *Exec, cudaGraph_t Graph,
                                 unsigned long long) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  auto It = graphs().Captured.find(uintptr_t(Graph));
  if (It == graphs().Captured.end())
    return fail(cudaErrorInvalidValue);
  const uintptr_t Id = uintptr_t(R.NextHandle++);
  graphs().Execs[Id] = {It->first, It->second};
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
  uintptr_t Graph;
  std::vector<Graphs::Node> Nodes;
  {
    std::lock_guard<std::mutex> G(R.Lock);
    auto It = graphs().Execs.find(uintptr_t(Exec));
    if (It == graphs().Execs.end())
      return fail(cudaErrorInvalidValue);
    Graph = It->second.first;
    Nodes = It->second.second;
  }
  // Without the lock between nodes: host functions may call the runtime.
  for (const Graphs::Node &N : Nodes)
    switch (N.Kind) {
    case Graphs::Node::Launch: {
      std::lock_guard<std::mutex> G(R.Lock);
      if (R.Fault != cudaSuccess) { // A fault ended the context.
        logLine("{\"ev\":\"unmade\"}");
        return faulted(false);
      }
      logAndRun("\"graph\":" + std::to_string(Graph) + "," + N.Fields,
                N.Pointed, N.Exec);
      break;
    }
    case Graphs::Node::HostFn:
      N.Fn(N.Data);
      break;
    case Graphs::Node::Memset:
      cudaMemset(N.Dst, N.Value, N.Bytes);
      break;
    case Graphs::Node::Memcpy:
      cudaMemcpy(N.Dst, N.Src, N.Bytes, N.Copy);
      break;
    case Graphs::Node::Empty:
      break;
    }
  return cudaSuccess;
}
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t Exec) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  graphs().Execs.erase(uintptr_t(Exec));
  return cudaSuccess;
}
cudaError_t cudaGraphDestroy(cudaGraph_t) { return cudaSuccess; }

// Graphs built node by node.
cudaError_t cudaGraphCreate(cudaGraph_t *Graph, unsigned) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  const uintptr_t Id = uintptr_t(R.NextHandle++);
  graphs().Captured[Id];
  *Graph = reinterpret_cast<cudaGraph_t>(Id);
  return cudaSuccess;
}
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *Out, cudaGraph_t Graph,
                                   const cudaGraphNode_t *, size_t,
                                   const cudaKernelNodeParams *P) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  Graphs::Node N;
  if (const char *Refused = launchLine(
          P->func, P->gridDim, P->blockDim, P->kernelParams,
          P->sharedMemBytes, nullptr, "cudaGraphAddKernelNode", N.Fields,
          N.Pointed, N.Exec))
    return fail(std::string(Refused) == "cudaErrorInvalidDeviceFunction"
                    ? cudaErrorInvalidDeviceFunction
                    : cudaErrorInvalidValue);
  return addNode(Out, Graph, std::move(N));
}
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *Out, cudaGraph_t Graph,
                                 const cudaGraphNode_t *, size_t,
                                 const cudaHostNodeParams *P) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  Graphs::Node N;
  N.Kind = Graphs::Node::HostFn;
  N.Fn = P->fn;
  N.Data = P->userData;
  return addNode(Out, Graph, std::move(N));
}
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *Out, cudaGraph_t Graph,
                                  const cudaGraphNode_t *, size_t) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  Graphs::Node N;
  N.Kind = Graphs::Node::Empty;
  return addNode(Out, Graph, std::move(N));
}
// Graph memory: the recording allocates at once and keeps the allocation
// (its address is what every launch of the graph gets) until the program
// ends; the graph's free is an empty node.
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *Out, cudaGraph_t Graph,
                                     const cudaGraphNode_t *, size_t,
                                     cudaMemAllocNodeParams *P) {
  if (!P)
    return fail(cudaErrorInvalidValue);
  if (cudaError_t E = cudaMalloc(&P->dptr, P->bytesize))
    return E;
  ownByGraph(P->dptr);
  return cudaGraphAddEmptyNode(Out, Graph, nullptr, 0);
}
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *Out, cudaGraph_t Graph,
                                    const cudaGraphNode_t *, size_t, void *) {
  return cudaGraphAddEmptyNode(Out, Graph, nullptr, 0);
}
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *Out, cudaGraph_t Graph,
                                   const cudaGraphNode_t *, size_t,
                                   const cudaMemsetParams *P) {
  // One row of bytes, or a value whose bytes are all alike (0 included).
  const unsigned V = P->value;
  const bool Bytewise =
      P->elementSize == 1 || V == 0 ||
      (P->elementSize == 2 && (V & 0xff) * 0x101u == (V & 0xffff)) ||
      (P->elementSize == 4 && (V & 0xff) * 0x1010101u == V);
  if (P->height > 1 || !Bytewise)
    return missing("cudaGraphAddMemsetNode (2-D or a multi-byte value)");
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  Graphs::Node N;
  N.Kind = Graphs::Node::Memset;
  N.Dst = P->dst;
  N.Value = int(V & 0xff);
  N.Bytes = P->width * P->elementSize;
  return addNode(Out, Graph, std::move(N));
}
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *Out, cudaGraph_t Graph,
                                     const cudaGraphNode_t *, size_t,
                                     void *Dst, const void *Src, size_t Bytes,
                                     cudaMemcpyKind Kind) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  return addNode(Out, Graph, copyNode(Dst, Src, Bytes, Kind));
}
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t Node,
                                         const cudaKernelNodeParams *P) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  Graphs::Node *N = nodeOf(Node, nullptr);
  if (!N || N->Kind != Graphs::Node::Launch)
    return fail(cudaErrorInvalidValue);
  return setKernelParams(*N, P);
}
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t Exec,
                                             cudaGraphNode_t Node,
                                             const cudaKernelNodeParams *P) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  Graphs::Node *N = nodeOf(Node, Exec);
  if (!N || N->Kind != Graphs::Node::Launch)
    return fail(cudaErrorInvalidValue);
  return setKernelParams(*N, P);
}

// Host work in a stream runs when the host issues it (work is recorded in
// host order); while the stream is captured, it is a node of the graph.
cudaError_t cudaLaunchHostFunc(cudaStream_t Stream, cudaHostFn_t Fn,
                               void *Data) {
  Recorder &R = recorder();
  {
    std::lock_guard<std::mutex> G(R.Lock);
    if (std::vector<Graphs::Node> *Nodes = captureOf(Stream)) {
      Graphs::Node N;
      N.Kind = Graphs::Node::HostFn;
      N.Fn = Fn;
      N.Data = Data;
      Nodes->push_back(std::move(N));
      return cudaSuccess;
    }
  }
  Fn(Data);
  return cudaSuccess;
}
cudaError_t cudaStreamAddCallback(cudaStream_t Stream,
                                  cudaStreamCallback_t Callback, void *Data,
                                  unsigned) {
  Callback(Stream, cudaSuccess, Data);
  return cudaSuccess;
}
cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode *Mode) {
  thread_local cudaStreamCaptureMode Current = cudaStreamCaptureModeGlobal;
  std::swap(Current, *Mode);
  return cudaSuccess;
}
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t S,
                                     cudaStreamCaptureStatus *Status,
                                     unsigned long long *Id,
                                     cudaGraph_t *Graph,
                                     const cudaGraphNode_t **Deps,
                                     const cudaGraphEdgeData **Edges,
                                     size_t *NumDeps) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  const uintptr_t Origin = captureOrigin(S);
  *Status =
      Origin ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  if (Id)
    *Id = Origin;
  if (Graph)
    *Graph = nullptr;
  if (Deps)
    *Deps = nullptr;
  if (Edges)
    *Edges = nullptr;
  if (NumDeps)
    *NumDeps = 0;
  return cudaSuccess;
}

} // extern "C"
