//===- launch_site.cpp - A kernel launch as a CUPTI callback sees it ------===//
#include "launch_site.h"
#include "kernel_signature.h"

// cupti.h (through launch_site.h) brings the generated parameter records
// of every driver and runtime API.

namespace gmem {
namespace cupti {

namespace {
// CUDA 13's <<<>>> calls __cudaLaunchKernel(cudaKernel_t, ...); its
// parameter record is missing from the generated headers. CUPTI records a
// call's arguments in declaration order, as for every other API.
struct CudaLaunchKernelV13000Params {
  cudaKernel_t kernel;
  dim3 gridDim;
  dim3 blockDim;
  void **args;
  size_t sharedMem;
  cudaStream_t stream;
};

std::array<uint64_t, 3> dims(const dim3 &D) { return {D.x, D.y, D.z}; }

template <typename P> void fromDriverClassic(const void *Raw, LaunchSite &S) {
  const P *Params = static_cast<const P *>(Raw);
  S.Function = Params->f;
  S.Grid = {Params->gridDimX, Params->gridDimY, Params->gridDimZ};
  S.Block = {Params->blockDimX, Params->blockDimY, Params->blockDimZ};
  S.DynamicSmem = Params->sharedMemBytes;
  S.Params = Params->kernelParams;
  S.Stream = Params->hStream;
}

template <typename P> void fromDriverEx(const void *Raw, LaunchSite &S) {
  const P *Params = static_cast<const P *>(Raw);
  S.Function = Params->f;
  if (const CUlaunchConfig *C = Params->config) {
    S.Grid = {C->gridDimX, C->gridDimY, C->gridDimZ};
    S.Block = {C->blockDimX, C->blockDimY, C->blockDimZ};
    S.DynamicSmem = C->sharedMemBytes;
    S.Stream = C->hStream;
  }
  S.Params = Params->kernelParams;
  S.Extra = Params->extra;
}

template <typename P> void fromRuntimeClassic(const void *Raw, LaunchSite &S) {
  const P *Params = static_cast<const P *>(Raw);
  S.Grid = dims(Params->gridDim);
  S.Block = dims(Params->blockDim);
  S.DynamicSmem = Params->sharedMem;
  S.Params = Params->args;
  S.Stream = reinterpret_cast<CUstream>(Params->stream);
}
bool isPerThread(CUpti_CallbackDomain Domain, CUpti_CallbackId Cbid) {
  if (Domain == CUPTI_CB_DOMAIN_DRIVER_API)
    return Cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz ||
           Cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz ||
           Cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz;
  return Cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000 ||
         Cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060 ||
         Cbid ==
             CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000 ||
         Cbid == CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000;
}
} // namespace

bool launchIsCaptured(const LaunchSite &Site) {
  CUstream Stream = Site.Stream;
  if (!Stream && Site.PerThread)
    Stream = CU_STREAM_PER_THREAD;
  CUstreamCaptureStatus Status = CU_STREAM_CAPTURE_STATUS_NONE;
  // The legacy stream cannot capture; an error there means the launch
  // itself will fail, which its exit callback reports.
  if (cuStreamIsCapturing(Stream, &Status) != CUDA_SUCCESS)
    return false;
  return Status != CU_STREAM_CAPTURE_STATUS_NONE;
}

bool isGraphLaunch(CUpti_CallbackDomain Domain, CUpti_CallbackId Cbid) {
  // The runtime's cudaGraphLaunch calls the driver's: count the driver's.
  return Domain == CUPTI_CB_DOMAIN_DRIVER_API &&
         (Cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch ||
          Cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz);
}

const std::vector<std::pair<CUpti_CallbackDomain, CUpti_CallbackId>> &
launchCallbacks() {
  static const std::vector<std::pair<CUpti_CallbackDomain, CUpti_CallbackId>>
      L = {
          {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel},
          {CUPTI_CB_DOMAIN_DRIVER_API,
           CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz},
          {CUPTI_CB_DOMAIN_DRIVER_API,
           CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx},
          {CUPTI_CB_DOMAIN_DRIVER_API,
           CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz},
          {CUPTI_CB_DOMAIN_DRIVER_API,
           CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel},
          {CUPTI_CB_DOMAIN_DRIVER_API,
           CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz},
          {CUPTI_CB_DOMAIN_RUNTIME_API,
           CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000},
          {CUPTI_CB_DOMAIN_RUNTIME_API,
           CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000},
          {CUPTI_CB_DOMAIN_RUNTIME_API,
           CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060},
          {CUPTI_CB_DOMAIN_RUNTIME_API,
           CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060},
          {CUPTI_CB_DOMAIN_RUNTIME_API,
           CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000},
          {CUPTI_CB_DOMAIN_RUNTIME_API,
           CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000},
          {CUPTI_CB_DOMAIN_RUNTIME_API,
           CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000},
          {CUPTI_CB_DOMAIN_RUNTIME_API,
           CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000},
          {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch},
          {CUPTI_CB_DOMAIN_DRIVER_API,
           CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz},
      };
  return L;
}

bool readLaunchSite(CUpti_CallbackDomain Domain, CUpti_CallbackId Cbid,
                    const CUpti_CallbackData *Data, LaunchSite &S) {
  const void *P = Data->functionParams;
  if (!P)
    return false;
  S.PerThread = isPerThread(Domain, Cbid);
  if (Domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    switch (Cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
      fromDriverClassic<cuLaunchKernel_params>(P, S);
      S.Extra = static_cast<const cuLaunchKernel_params *>(P)->extra;
      return true;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
      fromDriverClassic<cuLaunchKernel_ptsz_params>(P, S);
      S.Extra = static_cast<const cuLaunchKernel_ptsz_params *>(P)->extra;
      return true;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
      fromDriverClassic<cuLaunchCooperativeKernel_params>(P, S);
      return true;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      fromDriverClassic<cuLaunchCooperativeKernel_ptsz_params>(P, S);
      return true;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
      fromDriverEx<cuLaunchKernelEx_params>(P, S);
      return true;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
      fromDriverEx<cuLaunchKernelEx_ptsz_params>(P, S);
      return true;
    default:
      return false;
    }
  }
  if (Domain != CUPTI_CB_DOMAIN_RUNTIME_API)
    return false;
  switch (Cbid) {
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
    // All four share one layout: func, gridDim, blockDim, args, smem, stream.
    fromRuntimeClassic<cudaLaunchKernel_v7000_params>(P, S);
    return true;
  case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000:
  case CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000:
    fromRuntimeClassic<CudaLaunchKernelV13000Params>(P, S);
    S.Kernel = reinterpret_cast<CUkernel>(
        static_cast<const CudaLaunchKernelV13000Params *>(P)->kernel);
    return true;
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
  case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060: {
    const auto *Params =
        static_cast<const cudaLaunchKernelExC_v11060_params *>(P);
    if (const cudaLaunchConfig_t *C = Params->config) {
      S.Grid = dims(C->gridDim);
      S.Block = dims(C->blockDim);
      S.DynamicSmem = C->dynamicSmemBytes;
      S.Stream = reinterpret_cast<CUstream>(C->stream);
    }
    S.Params = Params->args;
    return true;
  }
  default:
    return false;
  }
}

std::vector<std::pair<size_t, size_t>> paramLayout(const LaunchSite &Site) {
  // Parameters are numbered until the driver says the index is past the
  // last one (CUDA_ERROR_INVALID_VALUE); any other error means the handle
  // was not of the kind asked.
  auto Query = [](auto Get, bool &Ok) {
    std::vector<std::pair<size_t, size_t>> L;
    Ok = false;
    for (size_t I = 0; I < 4096; ++I) {
      size_t Offset = 0, Size = 0;
      CUresult R = Get(I, &Offset, &Size);
      if (R == CUDA_ERROR_INVALID_VALUE) {
        Ok = true;
        break;
      }
      if (R != CUDA_SUCCESS)
        break;
      L.emplace_back(Offset, Size);
    }
    if (!Ok)
      L.clear();
    return L;
  };
  bool Ok = false;
  if (Site.Kernel) {
    auto L = Query(
        [&](size_t I, size_t *O, size_t *S) {
          return cuKernelGetParamInfo(Site.Kernel, I, O, S);
        },
        Ok);
    if (Ok)
      return L;
  }
  if (Site.Function) {
    auto L = Query(
        [&](size_t I, size_t *O, size_t *S) {
          return cuFuncGetParamInfo(Site.Function, I, O, S);
        },
        Ok);
    if (Ok)
      return L;
    // The runtime may hand the driver a CUkernel where a CUfunction is due.
    L = Query(
        [&](size_t I, size_t *O, size_t *S) {
          return cuKernelGetParamInfo(reinterpret_cast<CUkernel>(Site.Function),
                                      I, O, S);
        },
        Ok);
    if (Ok)
      return L;
  }
  return {};
}

std::string driverSymbolName(const LaunchSite &Site) {
  const char *Name = nullptr;
  if (Site.Kernel && cuKernelGetName(&Name, Site.Kernel) == CUDA_SUCCESS &&
      Name)
    return Name;
  if (Site.Function && cuFuncGetName(&Name, Site.Function) == CUDA_SUCCESS &&
      Name)
    return Name;
  return "";
}

std::vector<MeasuredArg>
decodeArgs(const LaunchSite &Site, const std::vector<std::string> &Types,
           const std::vector<std::pair<size_t, size_t>> &Layout) {
  std::vector<MeasuredArg> Args;
  const char *Buffer = nullptr;
  if (!Site.Params && Site.Extra) {
    for (void **E = Site.Extra; *E != CU_LAUNCH_PARAM_END; E += 2)
      if (*E == CU_LAUNCH_PARAM_BUFFER_POINTER)
        Buffer = static_cast<const char *>(E[1]);
  }
  size_t N = Layout.empty() ? Types.size() : Layout.size();
  // A signature that lists a different number of parameters than the
  // driver has (a pack expanded differently, say) cannot name their types.
  bool TypesFit = Layout.empty() || Types.size() == Layout.size();
  for (size_t I = 0; I < N; ++I) {
    std::string Type = TypesFit && I < Types.size() ? Types[I] : "";
    unsigned Size = Layout.empty() ? naturalSize(Type)
                                   : static_cast<unsigned>(Layout[I].second);
    const void *Value = nullptr;
    if (Site.Params)
      Value = Site.Params[I];
    else if (Buffer && !Layout.empty())
      Value = Buffer + Layout[I].first;
    // A size that contradicts the type means the signature was misread:
    // keep the size, drop the value.
    if (!Type.empty() && naturalSize(Type) && naturalSize(Type) != Size)
      Value = nullptr;
    Args.push_back(decodeArg(Type, Value, Size));
  }
  return Args;
}

bool launchSucceeded(CUpti_CallbackDomain Domain,
                     const CUpti_CallbackData *Data, int &Code) {
  Code = 0;
  if (!Data->functionReturnValue)
    return true;
  if (Domain == CUPTI_CB_DOMAIN_DRIVER_API)
    Code = *static_cast<const CUresult *>(Data->functionReturnValue);
  else
    Code = *static_cast<const cudaError_t *>(Data->functionReturnValue);
  return Code == 0;
}

} // namespace cupti
} // namespace gmem
