//===- recorder.cpp - The recorder's state, its log and its settings ------===//
#include "recorder.h"
#include "functional.h"
#include "device_name.h"

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>

namespace gmem::rec {

static void readParamSizes(Recorder &R, const char *Path) {
  // One kernel per line: its mangled name, then each parameter's size;
  // looked up by the key of nvcc's name (device_name.h).
  std::ifstream In(Path);
  std::string Line;
  while (std::getline(In, Line)) {
    std::istringstream S(Line);
    std::string Name;
    if (!(S >> Name))
      continue;
    std::vector<unsigned> Sizes;
    for (unsigned B; S >> B;)
      Sizes.push_back(B);
    R.ParamSizes[deviceNameKey(Name)] = std::move(Sizes);
  }
}

static void readAttrs(Recorder &R, const char *Path) {
  // One kernel per line: mangled name, registers, shared, local, threads.
  std::ifstream In(Path);
  std::string Name;
  Recorder::KernelAttrs A;
  while (In >> Name >> A.Regs >> A.Shared >> A.Local >> A.MaxThreads)
    R.Attrs[Name] = A;
}

Recorder &recorder() {
  static Recorder *R = [] {
    auto *New = new Recorder(); // Never destroyed: atexit order is unknown.
    if (const char *Log = std::getenv("GMEM_RECORD_LOG"))
      New->Log = std::fopen(Log, "w");
    if (const char *Params = std::getenv("GMEM_RECORD_PARAMS"))
      readParamSizes(*New, Params);
    if (const char *Attrs = std::getenv("GMEM_RECORD_ATTRS"))
      readAttrs(*New, Attrs);
    if (const char *Sm = std::getenv("GMEM_RECORD_SM"))
      New->Sm = std::atoi(Sm);
    if (const char *Count = std::getenv("GMEM_RECORD_LAUNCH_COUNT"))
      New->LaunchLimit = std::strtoull(Count, nullptr, 10);
    // The analyzer checks the name; a run by hand falls back to an H100.
    const char *Gpu = std::getenv("GMEM_RECORD_GPU");
    New->Gpu = findBoard(Gpu ? Gpu : "h100-sxm");
    if (!New->Gpu)
      New->Gpu = findBoard("h100-sxm");
    return New;
  }();
  return *R;
}

void logLine(const std::string &Json) {
  Recorder &R = recorder();
  if (!R.Log)
    return;
  std::fputs(Json.c_str(), R.Log);
  std::fputc('\n', R.Log);
  std::fflush(R.Log);
}

void logLaunch(const std::string &Fields) {
  Recorder &R = recorder();
  logLine("{\"ev\":\"launch\",\"n\":" + std::to_string(R.NextLaunch++) + "," +
          Fields + "}");
  if (R.LaunchLimit && R.NextLaunch >= R.LaunchLimit) {
    logLine("{\"ev\":\"stop\",\"launches\":" + std::to_string(R.NextLaunch) +
            "}");
    std::fflush(nullptr);
    std::_Exit(0);
  }
}

std::string callSite() {
  void *Frames[24];
  const int N = backtrace(Frames, 24);
  std::string Out;
  unsigned Kept = 0;
  for (int I = 0; I < N && Kept < 8; ++I) {
    Dl_info Info;
    link_map *Map = nullptr;
    if (!dladdr1(Frames[I], &Info, reinterpret_cast<void **>(&Map),
                 RTLD_DL_LINKMAP) ||
        !Map || (Map->l_name && *Map->l_name))
      continue; // Not the executable (this library, libc, libstdc++...).
    // A return address follows its call: one byte back is in the call.
    const uintptr_t Offset = uintptr_t(Frames[I]) - Map->l_addr - 1;
    Out += (Out.empty() ? "[" : ",") + std::to_string(Offset);
    ++Kept;
  }
  return Out.empty() ? Out : Out + "]";
}

/// The program's crash, logged with its stack before the signal does what
/// it would have: the analyzer names the line (RecordedRun::CrashSite).
static void onCrash(int Sig) {
  const std::string Site = callSite();
  logLine("{\"ev\":\"crash\",\"signal\":" + std::to_string(Sig) +
          ",\"site\":" + (Site.empty() ? "[]" : Site) + "}");
  std::signal(Sig, SIG_DFL);
  std::raise(Sig);
}

__attribute__((constructor)) static void watchCrashes() {
  for (int Sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
    std::signal(Sig, onCrash);
}

cudaError_t missing(const char *Api) {
  logLine(std::string("{\"ev\":\"missing\",\"api\":\"") + Api + "\"}");
  return fail(cudaErrorNotSupported);
}

const std::pair<const uintptr_t, Allocation> *allocationOf(const void *P) {
  Recorder &R = recorder();
  auto It = R.Allocs.upper_bound(uintptr_t(P));
  if (It == R.Allocs.begin())
    return nullptr;
  --It;
  // One past the end belongs to no allocation (a zero-byte one included).
  if (uintptr_t(P) - It->first >= It->second.Bytes)
    return nullptr;
  return &*It;
}

cudaError_t fail(cudaError_t E) {
  recorder().LastError = E;
  return E;
}

cudaError_t faulted(bool Waits) {
  Recorder &R = recorder();
  if (R.Fault == cudaSuccess || !(Waits || R.FaultSeen))
    return cudaSuccess;
  R.FaultSeen = true;
  return fail(R.Fault);
}

std::string hex(const void *P, size_t Bytes) {
  static const char *Digits = "0123456789abcdef";
  std::string S;
  const auto *B = static_cast<const unsigned char *>(P);
  for (size_t I = 0; I < Bytes; ++I) {
    S += Digits[B[I] >> 4];
    S += Digits[B[I] & 15];
  }
  return S;
}

} // namespace gmem::rec

#include "missing.h"

int gmem::rec::missingCall(const char *Api) { return int(missing(Api)); }

// The recording driver (libraries/driver.cpp) logs the calls it does not
// answer here: CUDA_ERROR_NOT_SUPPORTED is cudaErrorNotSupported's 801.
extern "C" int gmemRecordMissingCall(const char *Api) {
  return gmem::rec::missingCall(Api);
}

// The recording libraries (libraries/) log their calls here, in order with
// the runtime's own events.
extern "C" int gmemRecordLibraryCall(const char *Api) {
  using namespace gmem::rec;
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  logLine(std::string("{\"ev\":\"library\",\"api\":\"") + Api + "\"}");
  // Handles, settings and queries write no device memory; anything else
  // (a GEMM) may have.
  const std::string A = Api;
  bool Quiet = false;
  for (const char *Q : {"Create", "Destroy", "Get", "Heuristic", "SetMathMode",
                        "SetStream", "SetWorkspace", "SetAttribute",
                        "SetPointerMode", "SetAtomicsMode"})
    Quiet |= A.find(Q) != std::string::npos;
  if (!Quiet)
    forgetAll(A + " (a library call gmem does not run) may have written "
                  "device memory");
  return 0;
}

// A library call that gmem computes on the host (libraries/cublas_gemm.cpp)
// asks first whether it may: recording is functional and execution budget
// is left. The launches kept run first (the call reads what they wrote).
extern "C" int gmemRecordLibraryMayCompute() {
  using namespace gmem::rec;
  std::lock_guard<std::mutex> G(recorder().Lock);
  if (!budgetLeft())
    return 0;
  settle();
  return 1;
}

extern "C" int gmemRecordDeviceRange(const void *P, size_t Bytes, int Known) {
  using namespace gmem::rec;
  std::lock_guard<std::mutex> G(recorder().Lock);
  return Known ? knownRange(P, Bytes) : deviceRange(P, Bytes);
}

extern "C" void gmemRecordComputed(void *Dst, size_t Bytes, int Known) {
  using namespace gmem::rec;
  std::lock_guard<std::mutex> G(recorder().Lock);
  computed(Dst, Bytes, Known != 0);
}

// It computed what Api writes, in Seconds: logged as a library call that
// ran, charged to the execution budget.
extern "C" void gmemRecordLibraryComputed(const char *Api, double Seconds) {
  using namespace gmem::rec;
  std::lock_guard<std::mutex> G(recorder().Lock);
  spend(Seconds);
  logLine(std::string("{\"ev\":\"library\",\"api\":\"") + Api +
          "\",\"ran\":true}");
}
