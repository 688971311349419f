//===- sass_collector.cpp - Per-line sectors and wavefronts of one launch -===//
#include "sass_collector.h"
#include "cupti_status.h"

#include <cupti_pcsampling.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include <array>
#include <cstdio>
#include <cstdlib>

namespace gmem {
namespace cupti {

namespace {
enum SlotIndex {
  InstExecuted,
  Sectors,
  SectorsIdeal,
  Wavefronts,
  WavefrontsIdeal,
  NumSlots
};
const char *const SlotMetric[NumSlots] = {
    "smsp__sass_inst_executed", "smsp__sass_sectors_mem_global",
    "smsp__sass_sectors_mem_global_ideal",
    "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared",
    "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal"};

std::string baseName(const char *Path) {
  std::string P(Path ? Path : "");
  size_t Slash = P.find_last_of('/');
  return Slash == std::string::npos ? P : P.substr(Slash + 1);
}
} // namespace

#define GMEM_CUPTI_TRY(Call, Params)                                           \
  do {                                                                         \
    CUptiResult R_ = Call(&Params);                                            \
    if (R_ != CUPTI_SUCCESS) {                                                 \
      Error = cuptiMessage(#Call, R_);                                         \
      Fatal = isFatal(R_);                                                     \
      return false;                                                            \
    }                                                                          \
  } while (0)

void SassCollector::onModuleLoaded(const void *Data, size_t Size) {
  if (!Data || Size == 0)
    return;
  Cubin C;
  C.Bytes.assign(static_cast<const char *>(Data),
                 static_cast<const char *>(Data) + Size);
  CUpti_GetCubinCrcParams P = {CUpti_GetCubinCrcParamsSize};
  P.cubin = C.Bytes.data();
  P.cubinSize = C.Bytes.size();
  if (cuptiGetCubinCrc(&P) == CUPTI_SUCCESS)
    C.Crc = P.cubinCrc;
  Cubins.push_back(std::move(C));
}

bool SassCollector::configure(CUdevice Dev, std::string &Error, bool &Fatal) {
  CUpti_Device_GetChipName_Params ChipP = {
      CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  ChipP.deviceIndex = static_cast<size_t>(Dev);
  GMEM_CUPTI_TRY(cuptiDeviceGetChipName, ChipP);
  std::vector<CUpti_SassMetrics_Config> Configs;
  for (int S = 0; S < NumSlots; ++S) {
    CUpti_SassMetrics_GetProperties_Params PropP = {
        CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
    PropP.pChipName = ChipP.pChipName;
    PropP.pMetricName = SlotMetric[S];
    GMEM_CUPTI_TRY(cuptiSassMetricsGetProperties, PropP);
    Slot[PropP.metric.metricId] = S;
    CUpti_SassMetrics_Config C{};
    C.metricId = PropP.metric.metricId;
    C.outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
    Configs.push_back(C);
  }
  CUpti_SassMetricsSetConfig_Params SetP = {
      CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
  SetP.numOfMetricConfig = Configs.size();
  SetP.pConfigs = Configs.data();
  SetP.deviceIndex = static_cast<uint32_t>(Dev);
  GMEM_CUPTI_TRY(cuptiSassMetricsSetConfig, SetP);
  Configured.insert(Dev);
  return true;
}

bool SassCollector::begin(CUcontext Ctx, std::string &Error, bool &Fatal) {
  Fatal = false;
  CUdevice Dev = 0;
  if (CUresult R = cuCtxGetDevice_v2(&Dev, Ctx)) {
    Error = driverMessage("cuCtxGetDevice_v2", R);
    return false;
  }
  if (!Configured.count(Dev) && !configure(Dev, Error, Fatal)) {
    Fatal = true;
    return false;
  }
  if (Enabled.count(Ctx))
    return true;
  CUpti_SassMetricsEnable_Params EnP = {
      CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
  EnP.ctx = Ctx;
  EnP.enableLazyPatching = 1;
  GMEM_CUPTI_TRY(cuptiSassMetricsEnable, EnP);
  Enabled.insert(Ctx);
  return true;
}

void SassCollector::disable(CUcontext Ctx) {
  if (!Enabled.erase(Ctx))
    return;
  CUpti_SassMetricsDisable_Params DisP = {
      CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
  DisP.ctx = Ctx;
  cuptiSassMetricsDisable(&DisP);
}

bool SassCollector::end(CUcontext Ctx, std::vector<MeasuredLine> &Lines,
                        std::string &Error) {
  bool Ok = flush(Ctx, Lines, Error); // Before disabling, which drops counts.
  disable(Ctx);
  return Ok;
}

void SassCollector::release(CUcontext Ctx) { disable(Ctx); }

bool SassCollector::sourceLine(uint32_t Crc, const std::string &Function,
                               uint32_t Pc,
                               std::pair<std::string, unsigned> &Where) {
  auto Key = std::make_tuple(Crc, Function, Pc);
  auto Hit = LineCache.find(Key);
  if (Hit != LineCache.end()) {
    Where = Hit->second;
    return !Where.first.empty();
  }
  // The records carry a 32-bit CRC; try the cubin it names first, then all.
  std::vector<const Cubin *> Order;
  for (const Cubin &C : Cubins)
    if (static_cast<uint32_t>(C.Crc) == Crc)
      Order.push_back(&C);
  for (const Cubin &C : Cubins)
    if (static_cast<uint32_t>(C.Crc) != Crc)
      Order.push_back(&C);
  Where = {"", 0};
  for (const Cubin *C : Order) {
    CUpti_GetSassToSourceCorrelationParams P = {
        CUpti_GetSassToSourceCorrelationParamsSize};
    P.cubin = C->Bytes.data();
    P.cubinSize = C->Bytes.size();
    P.functionName = Function.c_str();
    P.pcOffset = Pc;
    if (cuptiGetSassToSourceCorrelation(&P) != CUPTI_SUCCESS)
      continue;
    if (P.fileName && P.lineNumber)
      Where = {baseName(P.fileName), P.lineNumber};
    std::free(P.fileName);
    std::free(P.dirName);
    if (!Where.first.empty())
      break;
  }
  LineCache[Key] = Where;
  return !Where.first.empty();
}

bool SassCollector::memoryInstruction(uint32_t Crc, const std::string &Function,
                                      uint32_t Pc) {
  for (Cubin &C : Cubins) {
    if (static_cast<uint32_t>(C.Crc) != Crc)
      continue;
    if (!C.Disassembled) {
      std::string Error;
      C.Memory = memoryPcsOf(C.Bytes, Error);
      C.Disassembled = true;
      if (!C.Memory)
        std::fprintf(stderr,
                     "gmem-verify: warning: %s: memory instructions that "
                     "only ran predicated off are left out of their lines\n",
                     Error.c_str());
    }
    if (!C.Memory)
      continue;
    auto F = C.Memory->find(Function);
    if (F != C.Memory->end())
      return F->second.count(Pc) != 0;
  }
  return false;
}

bool SassCollector::flush(CUcontext Ctx, std::vector<MeasuredLine> &Lines,
                          std::string &Error) {
  cuCtxSynchronize();
  LastRecords = 0;
  CUpti_SassMetricsGetDataProperties_Params PropP = {
      CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
  PropP.ctx = Ctx;
  CUptiResult R = cuptiSassMetricsGetDataProperties(&PropP);
  std::vector<CUpti_SassMetrics_Data> Records;
  std::vector<CUpti_SassMetrics_InstanceValue> Values;
  if (R == CUPTI_SUCCESS && PropP.numOfPatchedInstructionRecords &&
      PropP.numOfInstances) {
    size_t N = PropP.numOfPatchedInstructionRecords;
    size_t K = PropP.numOfInstances;
    Records.assign(N, CUpti_SassMetrics_Data{});
    Values.assign(N * K, CUpti_SassMetrics_InstanceValue{});
    for (size_t I = 0; I < N; ++I) {
      Records[I].structSize = sizeof(CUpti_SassMetrics_Data);
      Records[I].pInstanceValues = &Values[I * K];
    }
    CUpti_SassMetricsFlushData_Params FlushP = {
        CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
    FlushP.ctx = Ctx;
    FlushP.numOfPatchedInstructionRecords = N;
    FlushP.numOfInstances = K;
    FlushP.pMetricsData = Records.data();
    R = cuptiSassMetricsFlushData(&FlushP);
    if (R != CUPTI_SUCCESS)
      Records.clear();
  }
  LastRecords = Records.size();
  if (R != CUPTI_SUCCESS) {
    Error = cuptiMessage("cuptiSassMetricsFlushData", R);
    return false;
  }

  // Sum instances per instruction, then instructions per source line.
  using Counts = std::array<uint64_t, NumSlots>;
  std::map<std::tuple<uint32_t, std::string, uint32_t>, Counts> PerPc;
  size_t K = PropP.numOfInstances;
  for (CUpti_SassMetrics_Data &D : Records) {
    std::string Fn = D.functionName ? D.functionName : "";
    std::free(const_cast<char *>(D.functionName));
    Counts &C =
        PerPc.emplace(std::make_tuple(D.cubinCrc, Fn, D.pcOffset), Counts{})
            .first->second;
    for (size_t J = 0; J < K; ++J) {
      auto S = Slot.find(D.pInstanceValues[J].metricId);
      if (S != Slot.end())
        C[S->second] += D.pInstanceValues[J].value;
    }
  }
  std::map<std::pair<std::string, unsigned>, MeasuredLine> PerLine;
  for (const auto &KV : PerPc) {
    const Counts &C = KV.second;
    // No traffic: not a memory instruction, one that never ran, or one
    // whose every execution had all lanes predicated off (executed all
    // the same: its line counts them).
    if (!C[Sectors] && !C[SectorsIdeal] && !C[Wavefronts] &&
        !C[WavefrontsIdeal] &&
        !(C[InstExecuted] &&
          memoryInstruction(std::get<0>(KV.first), std::get<1>(KV.first),
                            std::get<2>(KV.first))))
      continue;
    std::pair<std::string, unsigned> Where;
    if (!sourceLine(std::get<0>(KV.first), std::get<1>(KV.first),
                    std::get<2>(KV.first), Where))
      ++Unmapped;
    MeasuredLine &L = PerLine[Where];
    L.File = Where.first;
    L.Line = Where.second;
    L.InstExecuted += C[InstExecuted];
    L.Sectors += C[Sectors];
    L.SectorsIdeal += C[SectorsIdeal];
    L.Wavefronts += C[Wavefronts];
    L.WavefrontsIdeal += C[WavefrontsIdeal];
  }
  for (auto &KV : PerLine)
    Lines.push_back(KV.second);
  return true;
}

} // namespace cupti
} // namespace gmem
