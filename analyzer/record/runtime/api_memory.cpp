//===- api_memory.cpp - Allocations, copies and sets ----------------------===//
//
// Device memory is host memory here: cudaMalloc returns a 256-byte aligned
// host buffer (the real allocator's guarantee), so copies and memsets move
// real bytes and a kernel argument maps back to its allocation and offset.
// Large buffers are mapped without reserving swap, so a program may
// allocate what its GPU has without this machine's memory.
//
// The log gets each allocation, each copy to the host from an allocation
// (a "read": what kernels wrote there is not what a GPU would have given),
// and each copy or set into one (a "write": from the host, its bytes are
// what a GPU would hold; from another allocation ("from"), they are what
// that one held).
//
//===----------------------------------------------------------------------===//
#include "functional.h"
#include "recorder.h"
#include "streams.h"

#include <cstdlib>
#include <cstring>
#include <sys/mman.h>

using namespace gmem::rec;

namespace {

constexpr size_t Align = 256, MapAbove = 1 << 20;

cudaError_t allocate(void **Ptr, size_t Bytes, const char *Kind,
                     size_t Pitch = 0) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  *Ptr = nullptr;
  if (cudaError_t E = faulted(false))
    return E;
  if (Bytes == 0)
    return cudaSuccess;
  if (Bytes > R.Gpu->GlobalMem)
    return fail(cudaErrorMemoryAllocation);
  const size_t Rounded = (Bytes + Align - 1) / Align * Align;
  void *P = nullptr;
  if (Rounded >= MapAbove) {
    P = mmap(nullptr, Rounded, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (P == MAP_FAILED)
      P = nullptr;
  } else {
    P = std::aligned_alloc(Align, Rounded);
    if (P)
      std::memset(P, 0, Rounded);
  }
  if (!P)
    return fail(cudaErrorMemoryAllocation);
  const uint64_t Id = R.NextAlloc++;
  R.Allocs[uintptr_t(P)] = {Id, Bytes, Kind};
  allocated(P, Bytes, Kind);
  logLine("{\"ev\":\"alloc\",\"id\":" + std::to_string(Id) +
          ",\"base\":" + std::to_string(uintptr_t(P)) +
          ",\"bytes\":" + std::to_string(Bytes) + ",\"kind\":\"" + Kind + "\"" +
          (Pitch ? ",\"pitch\":" + std::to_string(Pitch) : "") + "}");
  *Ptr = P;
  return cudaSuccess;
}

cudaError_t release(void *P) {
  // cudaFree waits for the device.
  if (cudaError_t E = faulted(true))
    return E;
  if (!P)
    return cudaSuccess;
  Recorder &R = recorder();
  std::lock_guard<std::mutex> G(R.Lock);
  auto It = R.Allocs.find(uintptr_t(P));
  if (It == R.Allocs.end())
    return fail(cudaErrorInvalidValue);
  const size_t Rounded = (It->second.Bytes + Align - 1) / Align * Align;
  logLine("{\"ev\":\"free\",\"id\":" + std::to_string(It->second.Id) + "}");
  R.Allocs.erase(It);
  freed(P, [P, Rounded] {
    if (Rounded >= MapAbove)
      munmap(P, Rounded);
    else
      std::free(P);
  });
  return cudaSuccess;
}

/// Logs a write of Bytes at Dst (when it lies in an allocation), from the
/// allocation From (or the host when null).
void logWrite(const void *Dst, size_t Bytes, const Allocation *From,
              const char *Api) {
  const auto *To = allocationOf(Dst);
  if (!To || !Bytes)
    return;
  recorder().Allocs[To->first].Changed = true;
  logLine("{\"ev\":\"write\",\"id\":" + std::to_string(To->second.Id) +
          ",\"offset\":" + std::to_string(uintptr_t(Dst) - To->first) +
          ",\"bytes\":" + std::to_string(Bytes) + ",\"from\":" +
          std::to_string(From ? From->Id : 0) + ",\"api\":\"" + Api + "\"}");
}

/// Logs a copy of Bytes from Src to Dst (spanning Span bytes at Dst): a
/// read when it leaves device memory for the host, a write when it enters
/// an allocation.
void logCopy(void *Dst, const void *Src, size_t Bytes, size_t Span,
             const char *Api) {
  const auto *From = allocationOf(Src), *To = allocationOf(Dst);
  // Pinned host memory (cudaMallocHost) is the host's, not the device's.
  auto OnHost = [](const auto *A) {
    return !A || !std::strcmp(A->second.Kind, "host");
  };
  if (!OnHost(From) && OnHost(To))
    logLine("{\"ev\":\"read\",\"id\":" + std::to_string(From->second.Id) +
            ",\"bytes\":" + std::to_string(Bytes) + ",\"api\":\"" + Api +
            "\"}");
  logWrite(Dst, Span, From ? &From->second : nullptr, Api);
}

/// Whether the device can reach P: an allocation, a __device__ variable or
/// registered host memory.
bool deviceReachable(const void *P) {
  Recorder &R = recorder();
  auto Within = [P](const auto &Map) {
    auto It = Map.upper_bound(P);
    if (It == Map.begin())
      return false;
    --It;
    return uintptr_t(P) - uintptr_t(It->first) < It->second;
  };
  return allocationOf(P) || Within(R.Symbols) || Within(R.Registered);
}

cudaError_t copy(void *Dst, const void *Src, size_t Bytes, const char *Api,
                 cudaMemcpyKind Kind) {
  if (Bytes && (!Dst || !Src))
    return fail(cudaErrorInvalidValue);
  // A cudaArray_t is a handle, not device memory (cudaMemcpy2DToArray
  // copies into one): the GPU's runtime refuses it.
  const auto &Arrays = recorder().Arrays;
  if (Bytes && (Arrays.count(Dst) || Arrays.count(Src)))
    return fail(cudaErrorInvalidValue);
  // The side the kind calls the device's must be memory the device
  // reaches: a copy written in the wrong direction (a host buffer as its
  // source) is refused, "invalid argument", as an H200 answered
  // (tests/data/measured/bf/bf_check1api.out).
  const bool FromDevice =
      Kind == cudaMemcpyDeviceToHost || Kind == cudaMemcpyDeviceToDevice;
  const bool ToDevice =
      Kind == cudaMemcpyHostToDevice || Kind == cudaMemcpyDeviceToDevice;
  if (Bytes && ((FromDevice && !deviceReachable(Src)) ||
                (ToDevice && !deviceReachable(Dst))))
    return fail(cudaErrorInvalidValue);
  // The launches it waits for run first: one of them may fault.
  settle(Dst);
  settle(Src);
  if (cudaError_t E = faulted(true))
    return E;
  logCopy(Dst, Src, Bytes, Bytes, Api);
  written(Dst, Src, Bytes);
  std::memmove(Dst, Src, Bytes);
  return cudaSuccess;
}

/// cudaMallocPitch's row pitch: the width rounded up to 512 bytes (an H100
/// gives 4096 for 4000, docs/PUBLIC_PROGRAMS.md).
size_t pitchOf(size_t Width) { return (Width + 511) / 512 * 512; }

} // namespace

extern "C" {

cudaError_t cudaMalloc(void **P, size_t Bytes) {
  return allocate(P, Bytes, "device");
}
cudaError_t cudaMallocAsync(void **P, size_t Bytes, cudaStream_t S) {
  const cudaError_t E = allocate(P, Bytes, "device");
  if (E == cudaSuccess && captured(S))
    ownByGraph(*P);
  return E;
}
cudaError_t cudaMallocManaged(void **P, size_t Bytes, unsigned) {
  return allocate(P, Bytes, "managed");
}
cudaError_t cudaMallocHost(void **P, size_t Bytes) {
  return allocate(P, Bytes, "host");
}
cudaError_t cudaHostAlloc(void **P, size_t Bytes, unsigned) {
  return allocate(P, Bytes, "host");
}
cudaError_t cudaMallocPitch(void **P, size_t *Pitch, size_t Width,
                            size_t Height) {
  *Pitch = pitchOf(Width);
  return allocate(P, *Pitch * Height, "device", *Pitch);
}
cudaError_t cudaMalloc3D(cudaPitchedPtr *P, cudaExtent E) {
  P->pitch = pitchOf(E.width);
  P->xsize = E.width;
  P->ysize = E.height;
  return allocate(&P->ptr, P->pitch * E.height * E.depth, "device", P->pitch);
}
cudaError_t cudaFree(void *P) {
  // Graph memory stays for the graph's next launch (streams.h).
  return ownedByGraph(P) ? faulted(true) : release(P);
}
cudaError_t cudaFreeAsync(void *P, cudaStream_t S) {
  // Captured, the free is the graph's: the allocation stays for its runs.
  return captured(S) || ownedByGraph(P) ? faulted(false) : release(P);
}
cudaError_t cudaFreeHost(void *P) { return release(P); }

cudaError_t cudaHostRegister(void *P, size_t Bytes, unsigned) {
  recorder().Registered[P] = Bytes;
  return cudaSuccess;
}
cudaError_t cudaHostUnregister(void *P) {
  recorder().Registered.erase(P);
  return cudaSuccess;
}
cudaError_t cudaHostGetDevicePointer(void **Device, void *Host, unsigned) {
  *Device = Host;
  return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *A, const void *P) {
  std::memset(A, 0, sizeof *A);
  const auto *In = allocationOf(P);
  A->type = !In                                     ? cudaMemoryTypeUnregistered
            : !std::strcmp(In->second.Kind, "host") ? cudaMemoryTypeHost
            : !std::strcmp(In->second.Kind, "managed") ? cudaMemoryTypeManaged
                                                       : cudaMemoryTypeDevice;
  A->devicePointer = const_cast<void *>(P);
  A->hostPointer = const_cast<void *>(P);
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void *Dst, const void *Src, size_t Bytes,
                       cudaMemcpyKind Kind) {
  return copy(Dst, Src, Bytes, "cudaMemcpy", Kind);
}
cudaError_t cudaMemcpyAsync(void *Dst, const void *Src, size_t Bytes,
                            cudaMemcpyKind Kind, cudaStream_t S) {
  if (captureCopy(S, Dst, Src, Bytes, Kind))
    return cudaSuccess;
  return copy(Dst, Src, Bytes, "cudaMemcpyAsync", Kind);
}
cudaError_t cudaMemcpy2D(void *Dst, size_t DPitch, const void *Src,
                         size_t SPitch, size_t Width, size_t Height,
                         cudaMemcpyKind) {
  if (Width > DPitch || Width > SPitch)
    return fail(cudaErrorInvalidPitchValue);
  if (!Width || !Height)
    return cudaSuccess;
  if (!Dst || !Src)
    return fail(cudaErrorInvalidValue);
  settle(Dst);
  settle(Src);
  if (cudaError_t E = faulted(true))
    return E;
  logCopy(Dst, Src, Width * Height, (Height - 1) * DPitch + Width,
          "cudaMemcpy2D");
  for (size_t Row = 0; Row < Height; ++Row) {
    written(static_cast<char *>(Dst) + Row * DPitch,
            static_cast<const char *>(Src) + Row * SPitch, Width);
    std::memmove(static_cast<char *>(Dst) + Row * DPitch,
                 static_cast<const char *>(Src) + Row * SPitch, Width);
  }
  return cudaSuccess;
}
cudaError_t cudaMemcpy2DAsync(void *Dst, size_t DPitch, const void *Src,
                              size_t SPitch, size_t Width, size_t Height,
                              cudaMemcpyKind Kind, cudaStream_t) {
  return cudaMemcpy2D(Dst, DPitch, Src, SPitch, Width, Height, Kind);
}

cudaError_t cudaMemcpyToSymbol(const void *Symbol, const void *Src,
                               size_t Bytes, size_t Offset, cudaMemcpyKind) {
  settle();
  if (cudaError_t E = faulted(true))
    return E;
  // The symbol is the executor's memory too: a launch repeated after the
  // host rewrote a table it reads must run again.
  char *Dst = static_cast<char *>(const_cast<void *>(Symbol)) + Offset;
  written(Dst, Src, Bytes);
  std::memmove(Dst, Src, Bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyToSymbolAsync(const void *Symbol, const void *Src,
                                    size_t Bytes, size_t Offset,
                                    cudaMemcpyKind Kind, cudaStream_t) {
  return cudaMemcpyToSymbol(Symbol, Src, Bytes, Offset, Kind);
}
cudaError_t cudaMemcpyFromSymbol(void *Dst, const void *Symbol, size_t Bytes,
                                 size_t Offset, cudaMemcpyKind) {
  settle();
  if (cudaError_t E = faulted(true))
    return E;
  logLine("{\"ev\":\"read\",\"id\":0,\"bytes\":" + std::to_string(Bytes) +
          ",\"api\":\"cudaMemcpyFromSymbol\"}");
  std::memmove(Dst, static_cast<const char *>(Symbol) + Offset, Bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyFromSymbolAsync(void *Dst, const void *Symbol,
                                      size_t Bytes, size_t Offset,
                                      cudaMemcpyKind Kind, cudaStream_t) {
  return cudaMemcpyFromSymbol(Dst, Symbol, Bytes, Offset, Kind);
}
cudaError_t cudaGetSymbolAddress(void **P, const void *Symbol) {
  *P = const_cast<void *>(Symbol);
  return cudaSuccess;
}
cudaError_t cudaGetSymbolSize(size_t *Bytes, const void *Symbol) {
  auto It = recorder().Symbols.find(Symbol);
  if (It == recorder().Symbols.end())
    return fail(cudaErrorInvalidSymbol);
  *Bytes = It->second;
  return cudaSuccess;
}

cudaError_t cudaMemset(void *P, int Value, size_t Bytes) {
  if (cudaError_t E = faulted(false))
    return E;
  logWrite(P, Bytes, nullptr, "cudaMemset");
  const bool Same = refills(P, Value, Bytes);
  set(P, Bytes);
  if (!Same)
    std::memset(P, Value, Bytes);
  filled(P, Value, Bytes);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void *P, int Value, size_t Bytes, cudaStream_t S) {
  if (captureSet(S, P, Value, Bytes))
    return cudaSuccess;
  return cudaMemset(P, Value, Bytes);
}
cudaError_t cudaMemset2D(void *P, size_t Pitch, int Value, size_t Width,
                         size_t Height) {
  if (cudaError_t E = faulted(false))
    return E;
  if (Height)
    logWrite(P, (Height - 1) * Pitch + Width, nullptr, "cudaMemset2D");
  for (size_t Row = 0; Row < Height; ++Row) {
    set(static_cast<char *>(P) + Row * Pitch, Width);
    std::memset(static_cast<char *>(P) + Row * Pitch, Value, Width);
  }
  return cudaSuccess;
}

cudaError_t cudaMemPrefetchAsync(const void *, size_t, cudaMemLocation,
                                 unsigned, cudaStream_t) {
  return cudaSuccess;
}

} // extern "C"
