//===- range_profiler.cpp - Per-launch counters with the Range Profiler ---===//
#include "range_profiler.h"
#include "cupti_status.h"
#include "metric_catalog.h"

#include <cupti_target.h>

namespace gmem {
namespace cupti {

// Ranges a counter data image can hold. One launch makes one range; the
// slack keeps a stray second launch (another thread) from overflowing it.
static constexpr size_t MaxRanges = 4;

const std::vector<std::string> &defaultCounterMetrics() {
  static const std::vector<std::string> M = [] {
    std::vector<std::string> Out;
    for (const MetricSpec &S : metricCatalog())
      if (S.Collected)
        Out.push_back(S.Ncu);
    return Out;
  }();
  return M;
}

const std::vector<std::string> &trafficCounterMetrics() {
  static const std::vector<std::string> M = [] {
    std::vector<std::string> Out;
    for (const MetricSpec &S : metricCatalog())
      if (S.Traffic)
        Out.push_back(S.Ncu);
    return Out;
  }();
  return M;
}

RangeProfiler::RangeProfiler(std::vector<std::string> Metrics, int Group)
    : Requested(std::move(Metrics)), Group(Group) {}

#define GMEM_CUPTI_TRY(Call, Params)                                           \
  do {                                                                         \
    CUptiResult R_ = Call(&Params);                                            \
    if (R_ != CUPTI_SUCCESS) {                                                 \
      Error = cuptiMessage(#Call, R_);                                         \
      Fatal = isFatal(R_);                                                     \
      return false;                                                            \
    }                                                                          \
  } while (0)

bool RangeProfiler::setUpHost(CUcontext Ctx, std::string &Error, bool &Fatal) {
  CUdevice Dev = 0;
  if (CUresult R = cuCtxGetDevice(&Dev)) {
    Error = driverMessage("cuCtxGetDevice", R);
    return false;
  }
  CUpti_Device_GetChipName_Params ChipP = {
      CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  ChipP.deviceIndex = static_cast<size_t>(Dev);
  GMEM_CUPTI_TRY(cuptiDeviceGetChipName, ChipP);
  Chip = ChipP.pChipName;

  CUpti_Profiler_GetCounterAvailability_Params AvP = {
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  AvP.ctx = Ctx;
  GMEM_CUPTI_TRY(cuptiProfilerGetCounterAvailability, AvP);
  Availability.assign(AvP.counterAvailabilityImageSize, 0);
  AvP.pCounterAvailabilityImage = Availability.data();
  GMEM_CUPTI_TRY(cuptiProfilerGetCounterAvailability, AvP);

  if (!newHost(Host, Error, Fatal))
    return false;

  // A name the chip does not know would fail the whole configuration: check
  // each one and leave the unknown ones out.
  for (const std::string &M : Requested) {
    CUpti_Profiler_Host_GetMetricProperties_Params PropP = {
        CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
    PropP.pHostObject = Host;
    PropP.pMetricName = M.c_str();
    if (cuptiProfilerHostGetMetricProperties(&PropP) == CUPTI_SUCCESS)
      Metrics.push_back(M);
    else
      Rejected.push_back(M);
  }
  if (Metrics.empty()) {
    Error = "the GPU (" + Chip + ") accepts none of the metrics";
    Fatal = true;
    return false;
  }
  if (Group >= 0 && !keepGroup(Error, Fatal))
    return false;
  for (const std::string &M : Metrics)
    MetricPtrs.push_back(M.c_str());

  return configure(Host, MetricPtrs, Config, Passes, Error, Fatal);
}

bool RangeProfiler::newHost(CUpti_Profiler_Host_Object *&H, std::string &Error,
                            bool &Fatal) {
  CUpti_Profiler_Host_Initialize_Params HostP = {
      CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  HostP.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  HostP.pChipName = Chip.c_str();
  HostP.pCounterAvailabilityImage = Availability.data();
  GMEM_CUPTI_TRY(cuptiProfilerHostInitialize, HostP);
  H = HostP.pHostObject;
  return true;
}

bool RangeProfiler::configure(CUpti_Profiler_Host_Object *H,
                              std::vector<const char *> &Names,
                              std::vector<uint8_t> &Image, size_t &N,
                              std::string &Error, bool &Fatal) {
  CUpti_Profiler_Host_ConfigAddMetrics_Params AddP = {
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  AddP.pHostObject = H;
  AddP.ppMetricNames = Names.data();
  AddP.numMetrics = Names.size();
  GMEM_CUPTI_TRY(cuptiProfilerHostConfigAddMetrics, AddP);
  CUpti_Profiler_Host_GetConfigImageSize_Params SizeP = {
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
  SizeP.pHostObject = H;
  GMEM_CUPTI_TRY(cuptiProfilerHostGetConfigImageSize, SizeP);
  Image.assign(SizeP.configImageSize, 0);
  CUpti_Profiler_Host_GetConfigImage_Params ImgP = {
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
  ImgP.pHostObject = H;
  ImgP.configImageSize = Image.size();
  ImgP.pConfigImage = Image.data();
  GMEM_CUPTI_TRY(cuptiProfilerHostGetConfigImage, ImgP);
  CUpti_Profiler_Host_GetNumOfPasses_Params PassP = {
      CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
  PassP.configImageSize = Image.size();
  PassP.pConfigImage = Image.data();
  GMEM_CUPTI_TRY(cuptiProfilerHostGetNumOfPasses, PassP);
  N = PassP.numOfPasses;
  return true;
}

bool RangeProfiler::passesOf(const std::vector<std::string> &Names, size_t &N,
                             std::string &Error, bool &Fatal) {
  CUpti_Profiler_Host_Object *H = nullptr;
  if (!newHost(H, Error, Fatal))
    return false;
  std::vector<const char *> Ptrs;
  for (const std::string &M : Names)
    Ptrs.push_back(M.c_str());
  std::vector<uint8_t> Image;
  const bool Ok = configure(H, Ptrs, Image, N, Error, Fatal);
  CUpti_Profiler_Host_Deinitialize_Params DeP = {
      CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
  DeP.pHostObject = H;
  cuptiProfilerHostDeinitialize(&DeP);
  return Ok;
}

bool RangeProfiler::keepGroup(std::string &Error, bool &Fatal) {
  // Greedily: each metric joins the last group while it still takes one
  // pass. A metric that alone takes more is a group of its own (and is
  // replayed: gmem-verify warns).
  std::vector<std::vector<std::string>> Parts;
  for (const std::string &M : Metrics) {
    if (!Parts.empty()) {
      std::vector<std::string> Try = Parts.back();
      Try.push_back(M);
      size_t N = 0;
      if (!passesOf(Try, N, Error, Fatal))
        return false;
      if (N == 1) {
        Parts.back() = std::move(Try);
        continue;
      }
    }
    Parts.push_back({M});
  }
  Groups = Parts.size();
  if (size_t(Group) >= Parts.size()) {
    Error = "metric group " + std::to_string(Group) + " of " +
            std::to_string(Parts.size()) + " does not exist";
    Fatal = true;
    return false;
  }
  Metrics = Parts[size_t(Group)];
  return true;
}

bool RangeProfiler::enable(CUcontext Ctx, ContextState &S, std::string &Error,
                           bool &Fatal) {
  CUpti_RangeProfiler_Enable_Params EnP = {
      CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
  EnP.ctx = Ctx;
  GMEM_CUPTI_TRY(cuptiRangeProfilerEnable, EnP);
  S.Object = EnP.pRangeProfilerObject;

  CUpti_RangeProfiler_GetCounterDataSize_Params SizeP = {
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
  SizeP.pRangeProfilerObject = S.Object;
  SizeP.pMetricNames = MetricPtrs.data();
  SizeP.numMetrics = MetricPtrs.size();
  SizeP.maxNumOfRanges = MaxRanges;
  SizeP.maxNumRangeTreeNodes = MaxRanges;
  GMEM_CUPTI_TRY(cuptiRangeProfilerGetCounterDataSize, SizeP);
  S.CounterData.assign(SizeP.counterDataSize, 0);
  return true;
}

bool RangeProfiler::configureAndStart(ContextState &S, std::string &Error,
                                      bool &Fatal) {
  // Re-initialising the image empties it: each session holds one launch.
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params InitP = {
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  InitP.pRangeProfilerObject = S.Object;
  InitP.counterDataSize = S.CounterData.size();
  InitP.pCounterData = S.CounterData.data();
  GMEM_CUPTI_TRY(cuptiRangeProfilerCounterDataImageInitialize, InitP);

  CUpti_RangeProfiler_SetConfig_Params CfgP = {
      CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
  CfgP.pRangeProfilerObject = S.Object;
  CfgP.configSize = Config.size();
  CfgP.pConfig = Config.data();
  CfgP.counterDataImageSize = S.CounterData.size();
  CfgP.pCounterDataImage = S.CounterData.data();
  CfgP.range = CUPTI_AutoRange;
  CfgP.replayMode = CUPTI_KernelReplay;
  CfgP.maxRangesPerPass = MaxRanges;
  CfgP.numNestingLevels = 1;
  CfgP.minNestingLevel = 1;
  CfgP.passIndex = 0;
  CfgP.targetNestingLevel = 1;
  GMEM_CUPTI_TRY(cuptiRangeProfilerSetConfig, CfgP);

  CUpti_RangeProfiler_Start_Params StartP = {
      CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
  StartP.pRangeProfilerObject = S.Object;
  GMEM_CUPTI_TRY(cuptiRangeProfilerStart, StartP);
  return true;
}

bool RangeProfiler::begin(CUcontext Ctx, std::string &Error, bool &Fatal) {
  Fatal = false;
  if (!Host && !setUpHost(Ctx, Error, Fatal)) {
    Fatal = true; // Without a host configuration nothing can be measured.
    return false;
  }
  ContextState &S = Contexts[Ctx];
  if (!S.Object && !enable(Ctx, S, Error, Fatal))
    return false;
  if (!configureAndStart(S, Error, Fatal)) {
    if (Fatal)
      return false;
    // Should a configuration not be reusable after a session, start over
    // with a fresh profiler object once.
    release(Ctx);
    ContextState &Fresh = Contexts[Ctx];
    std::string Again;
    if (!enable(Ctx, Fresh, Again, Fatal) ||
        !configureAndStart(Fresh, Again, Fatal)) {
      Error += "; after re-enabling: " + Again;
      return false;
    }
  }
  Active = Ctx;
  return true;
}

bool RangeProfiler::end(std::map<std::string, double> &Values,
                        std::string &Error) {
  bool Fatal = false;
  auto It = Contexts.find(Active);
  Active = nullptr;
  if (It == Contexts.end() || !It->second.Object) {
    Error = "no profiling session was started";
    return false;
  }
  ContextState &S = It->second;
  cuCtxSynchronize(); // Kernel replay is synchronous; this is belt and braces.

  CUpti_RangeProfiler_Stop_Params StopP = {
      CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
  StopP.pRangeProfilerObject = S.Object;
  GMEM_CUPTI_TRY(cuptiRangeProfilerStop, StopP);
  CUpti_RangeProfiler_DecodeData_Params DecP = {
      CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
  DecP.pRangeProfilerObject = S.Object;
  GMEM_CUPTI_TRY(cuptiRangeProfilerDecodeData, DecP);

  CUpti_RangeProfiler_GetCounterDataInfo_Params InfoP = {
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  InfoP.pCounterDataImage = S.CounterData.data();
  InfoP.counterDataImageSize = S.CounterData.size();
  GMEM_CUPTI_TRY(cuptiRangeProfilerGetCounterDataInfo, InfoP);
  if (InfoP.numTotalRanges == 0) {
    Error = "the profiler recorded no range for the launch";
    if (DecP.numOfRangeDropped)
      Error += " (" + std::to_string(DecP.numOfRangeDropped) + " dropped)";
    return false;
  }
  if (InfoP.numTotalRanges > 1) {
    Error = "the profiler recorded " + std::to_string(InfoP.numTotalRanges) +
            " ranges for one launch (launches from several threads?)";
    return false;
  }
  std::vector<double> V(MetricPtrs.size(), 0.0);
  CUpti_Profiler_Host_EvaluateToGpuValues_Params EvP = {
      CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
  EvP.pHostObject = Host;
  EvP.pCounterDataImage = S.CounterData.data();
  EvP.counterDataImageSize = S.CounterData.size();
  EvP.rangeIndex = 0;
  EvP.ppMetricNames = MetricPtrs.data();
  EvP.numMetrics = MetricPtrs.size();
  EvP.pMetricValues = V.data();
  GMEM_CUPTI_TRY(cuptiProfilerHostEvaluateToGpuValues, EvP);
  (void)Fatal;
  for (size_t I = 0; I < Metrics.size(); ++I)
    Values[Metrics[I]] = V[I];
  return true;
}

void RangeProfiler::release(CUcontext Ctx) {
  auto It = Contexts.find(Ctx);
  if (It == Contexts.end())
    return;
  if (It->second.Object) {
    CUpti_RangeProfiler_Disable_Params DisP = {
        CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
    DisP.pRangeProfilerObject = It->second.Object;
    cuptiRangeProfilerDisable(&DisP);
  }
  Contexts.erase(It);
  if (Active == Ctx)
    Active = nullptr;
}

} // namespace cupti
} // namespace gmem
