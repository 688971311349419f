//===- ops_device_runtime.cpp - Dynamic parallelism's device runtime ------===//
//
// The calls a kernel makes to launch kernels itself (nvcc turns `k<<<g, b,
// s, stream>>>(...)` in device code into __cudaCDP2GetParameterBufferV2,
// stores of the arguments and __cudaCDP2LaunchDeviceV2), and the device
// runtime's streams, copies and error queries beside them. A launch is
// queued on the Launch (DeviceWork) and runs once its parent has finished.
// The runtime's own loads and stores are the driver's code, as printf's
// are: they enter no access (Kernel::UnmodelledGlobal says so). These
// calls add and remove memory regions, which is safe because a kernel that
// calls a function no module defines runs its blocks on one thread
// (XFunction::Communicates).
//
//===----------------------------------------------------------------------===//
#include "call_args.h"
#include "decode.h"
#include "launch.h"
#include "memory_ops.h"

#include <algorithm>
#include <cstring>

namespace gmem::exec {

namespace {

/// CUDA's nesting limit for device launches: a launch deeper fails.
constexpr unsigned MaxDepth = 24;
/// cudaErrorLaunchMaxDepthExceeded, cudaErrorInvalidValue.
constexpr uint32_t ErrDepth = 65, ErrValue = 1;

/// Writes N known bytes at generic address A for lane L (a stream handle
/// into the caller's variable); false where A is not memory.
bool writeGeneric(Ctx &C, uint64_t A, const void *V, unsigned N, unsigned L) {
  const Place P = resolve(C, MemSpace::Generic, A, N, L);
  if (!P.Data)
    return false;
  std::memcpy(P.Data, V, N);
  setPlaceKnown(P, N, true);
  return true;
}

uint64_t paramBytes(const XFunction &K) {
  uint64_t Bytes = 0;
  for (const auto &[Off, Size] : K.ParamSlots)
    Bytes = std::max<uint64_t>(Bytes, Off + Size);
  return Bytes;
}

/// Hands out a parameter buffer for a launch of the kernel at address F
/// (Grid, Block, Smem) in global memory, where the kernel stores the
/// arguments; 0 (and the launch stopped) when F is no kernel.
uint64_t parameterBuffer(Ctx &C, const XInstr &I, uint64_t F,
                         const uint32_t *Grid, const uint32_t *Block,
                         uint64_t Smem) {
  Launch &L = *C.L;
  const XFunction *K = L.Prog.functionAt(F);
  if (!K || !K->Src || !K->Src->Entry) {
    L.fail(I, "a device launch of a function that is no kernel of the "
              "program's modules");
    return 0;
  }
  // Each buffer a region of its own, so that a store past one is seen.
  Region &R = L.Mem.allocate(std::max<uint64_t>(paramBytes(*K), 1), 256,
                             "a device launch's parameter buffer");
  R.UnknownWhy = "the kernel did not store this argument";
  const uint64_t A = R.Base;
  DeviceWork &W = L.ParamBuffers[A];
  W.K = K;
  std::copy_n(Grid, 3, W.Config.Grid);
  std::copy_n(Block, 3, W.Config.Block);
  W.Config.DynamicSmem = Smem;
  return A;
}

/// Queues the launch whose parameter buffer is at Buf; a CUDA error code.
/// The buffer is the runtime's again either way (recursions launch
/// thousands).
uint32_t launchFrom(Ctx &C, const XInstr &I, uint64_t Buf) {
  Launch &L = *C.L;
  auto It = L.ParamBuffers.find(Buf);
  if (It == L.ParamBuffers.end())
    return ErrValue;
  DeviceWork W = std::move(It->second);
  L.ParamBuffers.erase(It);
  const Region *R = L.Mem.find(Buf, 1);
  const uint64_t Bytes = paramBytes(*W.K);
  W.Config.Params.assign(Bytes, 0);
  W.Config.ParamsKnown.assign(Bytes, false);
  if (R && Bytes) {
    std::memcpy(W.Config.Params.data(), R->Data + (Buf - R->Base), Bytes);
    for (uint64_t B = 0; B < Bytes; ++B)
      W.Config.ParamsKnown[B] =
          R->AllKnown || (R->Known && R->Known->get(Buf - R->Base + B));
  }
  if (R && R->Base == Buf)
    L.Mem.remove(Buf);
  if (L.Depth + 1 >= MaxDepth)
    return ErrDepth;
  for (const uint32_t D :
       {W.Config.Grid[0], W.Config.Grid[1], W.Config.Grid[2], W.Config.Block[0],
        W.Config.Block[1], W.Config.Block[2]})
    if (!D)
      return ErrValue;
  if (L.DeviceQueue.size() >= MaxDeviceLaunches) {
    L.fail(I, "more than " + std::to_string(MaxDeviceLaunches) +
                  " device launches pending from one launch (the "
                  "executor's limit)");
    return ErrValue;
  }
  W.Depth = L.Depth + 1;
  L.DeviceQueue.push_back(std::move(W));
  return 0;
}

} // namespace

bool deviceRuntimeCall(Ctx &C, const XInstr &I, const CallInfo &CI) {
  const std::string &N = CI.Name;
  if (N.rfind("__cudaCDP2", 0) != 0)
    return false;
  const CallArgs A(C, CI);
  // What cannot be done with unknown operands stops the launch, named; so
  // does a launch, copy or stream on a path an unknown value decided
  // (whether it happens at all is not known).
  auto Unknown = [&](const char *What) {
    C.L->fail(I, std::string("a device launch whose ") + What +
                     " is not known (" + N + ")");
  };
  auto Each = [&](auto F) {
    for (uint32_t M = C.Active; M && !C.L->Stop; M &= M - 1)
      F(ctz(M));
  };
  const bool Queries =
      N == "__cudaCDP2StreamDestroy" || N == "__cudaCDP2GetLastError" ||
      N == "__cudaCDP2PeekAtLastError" || N == "__cudaCDP2GetErrorString" ||
      N == "__cudaCDP2GetErrorName" || N == "__cudaCDP2GetDevice";
  if (C.Taint & C.Active && !Queries) {
    Unknown("path");
    return true;
  }
  // A value the runtime writes to the caller's variable (argument 0).
  auto WriteOut = [&](const void *V, unsigned Bytes) {
    Each([&](unsigned L) {
      bool Known = true;
      const uint64_t To = A.value(L, 0, Known);
      A.ret(L, Known && writeGeneric(C, To, V, Bytes, L) ? 0 : ErrValue);
    });
  };
  if (N == "__cudaCDP2GetParameterBufferV2") {
    Each([&](unsigned L) {
      bool Known = true;
      const uint64_t F = A.value(L, 0, Known);
      uint32_t Grid[3], Block[3];
      Known &= A.bytes(L, 1, Grid, 12) && A.bytes(L, 2, Block, 12);
      const uint64_t Smem = A.value(L, 3, Known) & 0xffffffffu;
      if (!Known)
        return Unknown("kernel or shape");
      A.ret(L, parameterBuffer(C, I, F, Grid, Block, Smem));
    });
  } else if (N == "__cudaCDP2LaunchDeviceV2") {
    Each([&](unsigned L) {
      bool Known = true;
      const uint64_t Buf = A.value(L, 0, Known);
      if (!Known)
        return Unknown("parameter buffer");
      A.ret(L, launchFrom(C, I, Buf));
    });
  } else if (N == "__cudaCDP2StreamCreateWithFlags") {
    // Launches run in the order made whatever their stream, which every
    // stream's order allows: a handle only needs to be no null stream.
    const uint64_t Handle = 1;
    WriteOut(&Handle, 8);
  } else if (N == "__cudaCDP2MemcpyAsync" || N == "__cudaCDP2MemsetAsync") {
    const bool Copy = N == "__cudaCDP2MemcpyAsync";
    Each([&](unsigned L) {
      bool Known = true;
      DeviceWork W;
      W.Dst = A.value(L, 0, Known);
      const uint64_t V = A.value(L, 1, Known);
      W.Bytes = A.value(L, 2, Known);
      if (!Known)
        return Unknown("copy");
      if (Copy)
        W.Src = V;
      else
        W.Value = int(V & 0xff);
      W.Depth = C.L->Depth + 1;
      C.L->DeviceQueue.push_back(std::move(W));
      A.ret(L, 0);
    });
  } else if (N == "__cudaCDP2GetDevice") {
    const int32_t Zero = 0;
    WriteOut(&Zero, 4);
  } else if (Queries) {
    // Errors of launches are returned by the launch call itself here; a
    // string's address is null (printf's %s shows "(string)").
    Each([&](unsigned L) { A.ret(L, 0); });
  } else {
    return false;
  }
  return true;
}

} // namespace gmem::exec
