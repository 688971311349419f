//===- api_launch.cpp - Registration and launches -------------------------===//
//
// nvcc's generated code registers the fat binary and each kernel's host
// stub with its mangled device name before main(); a <<<>>> launch pushes
// its configuration, and the stub pops it and calls __cudaLaunchKernel
// with a pointer to each argument. Every launch, by whatever API, becomes
// one "launch" line of the log with the bytes of each argument (their
// sizes come from the analyzer, GMEM_RECORD_PARAMS). A launch the real
// runtime would refuse (too many threads, too much shared memory) is
// logged with its error and refused the same way.
//
//===----------------------------------------------------------------------===//
#include "device_name.h"
#include "images.h"
#include "recorder.h"
#include "streams.h"

#include <cuda_occupancy.h>

#include <cstring>

using namespace gmem::rec;

namespace {

/// The cubin's attributes of the kernel whose host stub is Fn, or null.
const Recorder::KernelAttrs *attributesOf(const void *Fn) {
  Recorder &R = recorder();
  auto K = R.Kernels.find(Fn);
  if (K == R.Kernels.end())
    return nullptr;
  auto A = R.Attrs.find(K->second);
  return A == R.Attrs.end() ? nullptr : &A->second;
}

/// Dynamic shared memory a launch of Fn may ask for: what
/// cudaFuncSetAttribute allowed, else the 48 KiB a block gets by default
/// less the kernel's static shared memory.
size_t maxDynamicShared(const void *Fn, const Recorder::KernelAttrs &K) {
  Recorder &R = recorder();
  auto It = R.MaxDynamicSmem.find(Fn);
  if (It != R.MaxDynamicSmem.end())
    return It->second;
  return K.Shared < 48 * 1024 ? 48 * 1024 - K.Shared : 0;
}

std::string dims(dim3 D) {
  return "[" + std::to_string(D.x) + "," + std::to_string(D.y) + "," +
         std::to_string(D.z) + "]";
}

/// Why the real runtime would refuse the launch, or null.
const char *refusal(const Recorder &R, const void *Fn, dim3 G, dim3 B,
                    size_t Smem) {
  if (!G.x || !G.y || !G.z || !B.x || !B.y || !B.z)
    return "cudaErrorInvalidConfiguration";
  if (uint64_t(B.x) * B.y * B.z > 1024 || B.x > 1024 || B.y > 1024 ||
      B.z > 64 || G.x > 2147483647u || G.y > 65535 || G.z > 65535)
    return "cudaErrorInvalidConfiguration";
  auto It = R.MaxDynamicSmem.find(Fn);
  if (Smem > (It == R.MaxDynamicSmem.end() ? 48 * 1024 : It->second))
    return "cudaErrorInvalidValue";
  return nullptr;
}

} // namespace

namespace gmem::rec {

const char *launchLine(const void *Fn, dim3 G, dim3 B, void **Args, size_t Smem,
                       cudaStream_t Stream, const char *Api, std::string &Line,
                       std::vector<uintptr_t> &Pointed,
                       FunctionalLaunch &Exec) {
  Recorder &R = recorder();
  auto K = R.Kernels.find(Fn);
  if (K == R.Kernels.end())
    return "cudaErrorInvalidDeviceFunction";
  // A <<<>>> launch is made where its configuration was pushed; the stub
  // that calls __cudaLaunchKernel carries the kernel's own line.
  const std::string Site =
      std::string(Api) == "<<<>>>" ? R.PoppedSite : callSite();
  Line = "\"kernel\":\"" + K->second + "\",\"api\":\"" + Api +
         "\",\"grid\":" + dims(G) + ",\"block\":" + dims(B) +
         ",\"smem\":" + std::to_string(Smem) +
         ",\"stream\":" + std::to_string(uintptr_t(Stream));
  if (!Site.empty())
    Line += ",\"site\":" + Site;
  auto Sizes = R.ParamSizes.find(deviceNameKey(K->second));
  // A kernel the analyzer did not size (a library's, or one Clang mangles
  // apart) is sized by its PTX, where it has one.
  std::vector<unsigned> PtxSizes;
  const bool Sized =
      Sizes != R.ParamSizes.end() || ptxParamSizes(K->second, PtxSizes);
  const std::vector<unsigned> &ParamSizes =
      Sizes != R.ParamSizes.end() ? Sizes->second : PtxSizes;
  Pointed.clear();
  if (!Sized) {
    Line += ",\"args\":null";
  } else {
    // Images are for the model's kernels (sized by the analyzer) only.
    if (Sizes != R.ParamSizes.end())
      Pointed = argumentAllocations(Args, ParamSizes);
    Line += ",\"args\":[";
    for (size_t I = 0; I < ParamSizes.size(); ++I) {
      const unsigned Bytes = ParamSizes[I];
      Line += I ? "," : "";
      Line += Bytes && Args && Args[I] ? "\"" + hex(Args[I], Bytes) + "\""
                                       : std::string("null");
    }
    Line += "]";
  }
  const char *Refused = refusal(R, Fn, G, B, Smem);
  if (Refused)
    Line += std::string(",\"error\":\"") + Refused + "\"";
  Exec = FunctionalLaunch();
  Exec.Kernel = K->second;
  Exec.Grid = G;
  Exec.Block = B;
  Exec.Smem = Smem;
  Exec.Cooperative = std::string(Api) == "cudaLaunchCooperativeKernel";
  Exec.TouchesKnown = Sizes != R.ParamSizes.end();
  if (!Refused && functional() && !layoutParams(K->second, Args, Exec.Params))
    Exec.Kernel.clear(); // No PTX of it: executing says so.
  return Refused;
}

void logAndRun(const std::string &Line, const std::vector<uintptr_t> &Pointed,
               const FunctionalLaunch &Exec) {
  // The images are of the launch's inputs: saved before it runs. The run's
  // "exec" event comes before the launch's line, which may end the program
  // (--launch-count).
  // A launch that runs now runs after those kept, which its images show.
  FunctionalLaunch Run = Exec;
  Run.Touches = Pointed;
  if (functional() && !waits(Run))
    settle();
  const std::string Full = Line + imagesField(Pointed);
  if (functional())
    execute(recorder().NextLaunch, Run);
  logLaunch(Full);
}

cudaError_t launch(const void *Fn, dim3 G, dim3 B, void **Args, size_t Smem,
                   cudaStream_t Stream, const char *Api) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> Guard(R.Lock);
  if (!R.Kernels.count(Fn))
    return fail(cudaErrorInvalidDeviceFunction);
  // After a fault the context is lost: a GPU runs nothing more.
  if (R.Fault != cudaSuccess) {
    logLine("{\"ev\":\"unmade\"}");
    return faulted(false);
  }
  std::string Line;
  std::vector<uintptr_t> Pointed;
  FunctionalLaunch Exec;
  const char *Refused =
      launchLine(Fn, G, B, Args, Smem, Stream, Api, Line, Pointed, Exec);
  if (!Refused && captureLaunch(Stream, Line, Pointed, Exec))
    return cudaSuccess; // Logged when its graph is launched.
  if (Refused)
    logLaunch(Line);
  else
    logAndRun(Line, Pointed, Exec);
  if (Refused)
    return fail(std::string(Refused) == "cudaErrorInvalidValue"
                    ? cudaErrorInvalidValue
                    : cudaErrorInvalidConfiguration);
  return cudaSuccess;
}

} // namespace gmem::rec

extern "C" {

void **__cudaRegisterFatBinary(void *) {
  static void *Handle = nullptr;
  recorder(); // Opens the log before any kernel is registered.
  return &Handle;
}
void __cudaRegisterFatBinaryEnd(void **) {}
void __cudaUnregisterFatBinary(void **) {}
char __cudaInitModule(void **) { return 1; }

void __cudaRegisterFunction(void **, const char *HostFun, char *,
                            const char *DeviceName, int, uint3 *, uint3 *,
                            dim3 *, dim3 *, int *) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  R.Kernels[HostFun] = DeviceName;
}

void __cudaRegisterVar(void **, char *HostVar, char *, const char *DeviceName,
                       int, size_t Size, int, int) {
  recorder().Symbols[HostVar] = Size;
  variable(DeviceName, HostVar, Size);
}

void __cudaRegisterManagedVar(void **, void **HostVarPtrAddress, char *,
                              const char *, int, size_t Size, int, int) {
  cudaMallocManaged(HostVarPtrAddress, Size, cudaMemAttachGlobal);
}

// Texture and surface references are gone from CUDA 12 on.
void __cudaRegisterTexture(void **, const void *, const void **, const char *,
                           int, int, int) {}
void __cudaRegisterSurface(void **, const void *, const void **, const char *,
                           int, int) {}

unsigned __cudaPushCallConfiguration(dim3 G, dim3 B, size_t Smem,
                                     CUstream_st *Stream) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> Guard(R.Lock);
  R.Configs.push_back({G, B, Smem, Stream, callSite()});
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *G, dim3 *B, size_t *Smem,
                                       void *Stream) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> Guard(R.Lock);
  if (R.Configs.empty())
    return cudaErrorMissingConfiguration;
  Recorder::Config C = R.Configs.back();
  R.Configs.pop_back();
  *G = C.Grid;
  *B = C.Block;
  *Smem = C.Smem;
  *static_cast<void **>(Stream) = C.Stream;
  R.PoppedSite = C.Site;
  return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t *Handle, const void *Fn) {
  *Handle = reinterpret_cast<cudaKernel_t>(const_cast<void *>(Fn));
  return cudaSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t K, dim3 G, dim3 B, void **Args,
                               size_t Smem, cudaStream_t S) {
  return launch(K, G, B, Args, Smem, S, "<<<>>>");
}
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t K, dim3 G, dim3 B, void **Args,
                                    size_t Smem, cudaStream_t S) {
  return launch(K, G, B, Args, Smem, S, "<<<>>>");
}

cudaError_t cudaLaunchKernel(const void *Fn, dim3 G, dim3 B, void **Args,
                             size_t Smem, cudaStream_t S) {
  return launch(Fn, G, B, Args, Smem, S, "cudaLaunchKernel");
}
cudaError_t cudaLaunchCooperativeKernel(const void *Fn, dim3 G, dim3 B,
                                        void **Args, size_t Smem,
                                        cudaStream_t S) {
  return launch(Fn, G, B, Args, Smem, S, "cudaLaunchCooperativeKernel");
}
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *C, const void *Fn,
                                void **Args) {
  return launch(Fn, C->gridDim, C->blockDim, Args, C->dynamicSmemBytes,
                C->stream, "cudaLaunchKernelEx");
}

cudaError_t cudaFuncSetAttribute(const void *Fn, cudaFuncAttribute A,
                                 int Value) {
  Recorder &R = recorder();
  if (A == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (Value < 0 || size_t(Value) > R.Gpu->SmemOptin)
      return fail(cudaErrorInvalidValue);
    R.MaxDynamicSmem[Fn] = size_t(Value);
  }
  return cudaSuccess;
}
cudaError_t cudaFuncSetCacheConfig(const void *, cudaFuncCache) {
  return cudaSuccess;
}
cudaError_t cudaFuncSetSharedMemConfig(const void *, cudaSharedMemConfig) {
  return cudaSuccess; // Banks stay 4 bytes (api_device.cpp).
}

// Registers, static shared memory, stack and launch bounds come from the
// build's cubins (GMEM_RECORD_ATTRS); a kernel without them (a build whose
// cubins were not kept) is not answered.
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *A, const void *Fn) {
  Recorder &R = recorder();
  const Recorder::KernelAttrs *K = attributesOf(Fn);
  if (!K)
    return missing("cudaFuncGetAttributes");
  std::memset(A, 0, sizeof *A);
  A->sharedSizeBytes = K->Shared;
  A->localSizeBytes = K->Local;
  A->maxThreadsPerBlock = K->MaxThreads;
  A->numRegs = K->Regs;
  A->ptxVersion = A->binaryVersion = R.Sm;
  A->maxDynamicSharedSizeBytes = int(maxDynamicShared(Fn, *K));
  A->preferredShmemCarveout = -1;
  return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *Blocks, const void *Fn, int BlockSize, size_t DynamicSmem,
    unsigned Flags) {
  const Recorder::KernelAttrs *K = attributesOf(Fn);
  if (!K)
    return missing("cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  // The toolkit's own calculator (cuda_occupancy.h), over the board's
  // properties as cudaGetDeviceProperties gives them.
  cudaDeviceProp P;
  cudaGetDeviceProperties(&P, 0);
  cudaOccDeviceProp Props(P);
  cudaOccFuncAttributes Attrs;
  Attrs.maxThreadsPerBlock = K->MaxThreads;
  Attrs.numRegs = K->Regs;
  Attrs.sharedSizeBytes = K->Shared;
  Attrs.maxDynamicSharedSizeBytes = int(maxDynamicShared(Fn, *K));
  cudaOccDeviceState State;
  cudaOccResult Result;
  (void)Flags; // cudaOccupancyDisableCachingOverride: no caching here.
  if (cudaOccMaxActiveBlocksPerMultiprocessor(&Result, &Props, &Attrs, &State,
                                              BlockSize,
                                              DynamicSmem) != CUDA_OCC_SUCCESS)
    return fail(cudaErrorInvalidValue);
  *Blocks = Result.activeBlocksPerMultiprocessor;
  return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *Blocks,
                                                          const void *Fn,
                                                          int BlockSize,
                                                          size_t DynamicSmem) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      Blocks, Fn, BlockSize, DynamicSmem, cudaOccupancyDefault);
}

} // extern "C"
