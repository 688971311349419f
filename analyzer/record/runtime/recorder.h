//===- recorder.h - State of gmem's recording CUDA runtime ----------------===//
//
// libcudart.so.N as gmem builds it: the runtime API of the toolkit's
// libcudart, answered on the host. Nothing runs on a GPU. Device memory is
// host memory (so copies and memsets move real bytes), kernels are
// registered and every launch is written to the log that GMEM_RECORD_LOG
// names, one JSON object per line, flushed at once so that a program that
// crashes leaves the launches it made. The analyzer reads the log
// (analyzer/record/record_run.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_RECORD_RUNTIME_RECORDER_H
#define GMEM_RECORD_RUNTIME_RECORDER_H

#include "boards.h"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace gmem::rec {

struct Allocation {
  uint64_t Id;
  size_t Bytes;
  const char *Kind; ///< "device", "managed", "host".
  /// Written by a copy or set since its image was last saved. The host
  /// cannot touch device memory otherwise; managed and host memory it can,
  /// so theirs are always hashed again (images.cpp).
  bool Changed = true;
};

struct Recorder {
  std::mutex Lock;
  FILE *Log = nullptr;
  const Board *Gpu = nullptr;
  /// Host stub -> mangled device name, and the launch parameter sizes the
  /// analyzer gave for each kernel (GMEM_RECORD_PARAMS; 0: unknown).
  std::map<const void *, std::string> Kernels;
  std::map<std::string, std::vector<unsigned>> ParamSizes;
  std::map<const void *, size_t> MaxDynamicSmem;
  /// What ptxas wrote into the cubins for each kernel, by mangled name
  /// (GMEM_RECORD_ATTRS, analyzer/record/cubin_attrs.h), and the build's sm.
  struct KernelAttrs {
    int Regs = 0;
    size_t Shared = 0, Local = 0;
    int MaxThreads = 1024;
  };
  std::map<std::string, KernelAttrs> Attrs;
  int Sm = 0;
  /// Host shadow of each __device__/__constant__ variable -> its size.
  std::map<const void *, size_t> Symbols;
  std::map<uintptr_t, Allocation> Allocs; ///< By base address.
  /// Live CUDA array handles: host records, not memory a copy may touch.
  std::set<const void *> Arrays;
  /// Host memory cudaHostRegister pinned (base -> bytes): the device can
  /// reach it.
  std::map<const void *, size_t> Registered;
  uint64_t NextAlloc = 1, NextLaunch = 0, NextHandle = 1;
  struct Config {
    dim3 Grid, Block;
    size_t Smem;
    void *Stream;
    std::string Site; ///< callSite() of the <<<>>> expression.
  };
  std::vector<Config> Configs; ///< Pushed by <<<>>>, popped by the stub.
  std::string PoppedSite;      ///< The site of the config popped last.
  cudaError_t LastError = cudaSuccess;
  /// A launch's error of its own (an assert, a trap, a bad address): the
  /// GPU's sticky error. Pending until a call that waits for the device
  /// returns it; from then on every call returns it (measured on an H200,
  /// tests/data/measured/faults).
  cudaError_t Fault = cudaSuccess;
  bool FaultSeen = false;
  int Device = 0;
  /// GMEM_RECORD_LAUNCH_COUNT: the program stops after this many launches
  /// (0: no limit), as Nsight Compute's --launch-count.
  uint64_t LaunchLimit = 0;
};

/// The one recorder, initialised on first use (from any API call, including
/// the registrations that run before main()).
Recorder &recorder();

/// Writes one line to the log (already a JSON object) and flushes it.
void logLine(const std::string &Json);

/// Logs launch event Fields (`"kernel":...`, without "n") as the next
/// launch; at the launch limit, ends the program. Lock held.
void logLaunch(const std::string &Fields);

/// Notes an API call gmem does not answer; returns cudaErrorNotSupported.
cudaError_t missing(const char *Api);

/// The allocation holding P (its base address and record), or null.
const std::pair<const uintptr_t, Allocation> *allocationOf(const void *P);

/// Sets the sticky last error and returns E.
cudaError_t fail(cudaError_t E);

/// What the current call returns for an earlier launch's fault: the fault
/// once seen, or when the call waits for the device (Waits); else
/// cudaSuccess. Sets the last error as a failing call does.
cudaError_t faulted(bool Waits);

std::string hex(const void *P, size_t Bytes);

/// Where in the program the current API call was made: a JSON array of the
/// return addresses on the stack that lie in the main executable, as
/// offsets into its file (the analyzer reads them with the binary's line
/// table, so the report names the launch's source line).
std::string callSite();

} // namespace gmem::rec

#endif // GMEM_RECORD_RUNTIME_RECORDER_H
