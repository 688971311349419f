//===- measured_json.cpp - Writing measured.json, merging the two passes --===//
#include "measured_json.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <map>
#include <set>

namespace gmem {
namespace cupti {

static bool isRatioMetric(const std::string &Name) {
  auto EndsWith = [&](const char *S) {
    size_t N = std::char_traits<char>::length(S);
    return Name.size() >= N && Name.compare(Name.size() - N, N, S) == 0;
  };
  return EndsWith(".pct") || EndsWith(".ratio") || EndsWith(".per_second");
}

OrderedJson launchToJson(const MeasuredLaunch &L) {
  OrderedJson J;
  J["index"] = L.Index;
  J["kernel"] = L.Kernel;
  J["demangled"] = L.Demangled;
  J["mangled"] = L.Mangled;
  J["grid"] = L.Grid;
  J["block"] = L.Block;
  J["dynamic_smem"] = L.DynamicSmem;
  OrderedJson Args = OrderedJson::array();
  for (const MeasuredArg &A : L.Args) {
    OrderedJson JA;
    JA["type"] = A.Type;
    JA["size"] = A.Size;
    if (A.Value)
      JA["value"] = *A.Value;
    if (A.FloatValue)
      JA["float"] = *A.FloatValue;
    if (A.AlignOffset)
      JA["align_offset"] = *A.AlignOffset;
    Args.push_back(std::move(JA));
  }
  J["args"] = std::move(Args);
  OrderedJson Metrics = OrderedJson::object();
  for (const auto &KV : L.Metrics) {
    double V = KV.second;
    // Counters are integers; print them so (524288, not 524288.0).
    if (!isRatioMetric(KV.first) && std::isfinite(V) && V >= 0 &&
        V < 9007199254740992.0 && std::floor(V) == V)
      Metrics[KV.first] = static_cast<uint64_t>(V);
    else if (std::isfinite(V))
      Metrics[KV.first] = V; // NaN or inf (0/0 ratios) are left out.
  }
  J["metrics"] = std::move(Metrics);
  OrderedJson Lines = OrderedJson::array();
  for (const MeasuredLine &Ln : L.Lines)
    Lines.push_back({{"file", Ln.File},
                     {"line", Ln.Line},
                     {"inst_executed", Ln.InstExecuted},
                     {"sectors", Ln.Sectors},
                     {"sectors_ideal", Ln.SectorsIdeal},
                     {"wavefronts", Ln.Wavefronts},
                     {"wavefronts_ideal", Ln.WavefrontsIdeal}});
  J["lines"] = std::move(Lines);
  return J;
}

OrderedJson measurementToJson(const Measurement &M, const std::string &Error) {
  OrderedJson J;
  J["schema"] = MeasuredSchemaVersion;
  J["tool"] = M.Tool.empty() ? "gmem-verify" : M.Tool;
  J["device"] = {{"name", M.Device},
                 {"compute_capability", M.ComputeCapability},
                 {"driver_version", M.DriverVersion},
                 {"cuda_version", M.CudaVersion}};
  J["date"] = M.Date;
  J["program"] = M.Program;
  OrderedJson Launches = OrderedJson::array();
  for (const MeasuredLaunch &L : M.Launches)
    Launches.push_back(launchToJson(L));
  J["launches"] = std::move(Launches);
  if (M.GraphLaunches)
    J["graph_launches"] = M.GraphLaunches;
  if (!M.KernelReplay)
    J["kernel_replay"] = false;
  if (!Error.empty())
    J["error"] = Error;
  return J;
}

static std::string identity(const OrderedJson &L) {
  return L.value("mangled", std::string()) + " grid " +
         L.value("grid", OrderedJson::array()).dump() + " block " +
         L.value("block", OrderedJson::array()).dump() + " smem " +
         L.value("dynamic_smem", OrderedJson(0)).dump();
}

/// Adds what Take copies from each launch of Pass to the launch of
/// CounterPass with the same index, where kernel and configuration agree;
/// What names the pass's data in the warnings.
template <typename TakeFn>
static MergeOutcome
mergeByIndex(OrderedJson CounterPass, const OrderedJson &Pass,
             const std::string &What, const std::string &Only, TakeFn Take) {
  MergeOutcome Out;
  std::map<uint64_t, const OrderedJson *> ByIndex;
  if (Pass.contains("launches") && Pass["launches"].is_array())
    for (const OrderedJson &L : Pass["launches"])
      if (L.contains("index") && L["index"].is_number_unsigned())
        ByIndex[L["index"].get<uint64_t>()] = &L;
  if (CounterPass.contains("launches") && CounterPass["launches"].is_array()) {
    for (OrderedJson &L : CounterPass["launches"]) {
      uint64_t Index = L.value("index", uint64_t(0));
      auto It = ByIndex.find(Index);
      if (It == ByIndex.end()) {
        Out.Warnings.push_back("launch " + std::to_string(Index) + " (" +
                               L.value("kernel", std::string()) + ") has no " +
                               What);
        continue;
      }
      if (identity(L) != identity(*It->second)) {
        Out.Warnings.push_back("launch " + std::to_string(Index) +
                               " differs between the runs of the program (" +
                               identity(L) + " vs " + identity(*It->second) +
                               "); its " + What + " is left out");
        ByIndex.erase(It);
        continue;
      }
      Take(L, *It->second);
      ByIndex.erase(It);
    }
  }
  if (!Only.empty())
    for (const auto &KV : ByIndex)
      Out.Warnings.push_back("launch " + std::to_string(KV.first) + " (" +
                             KV.second->value("kernel", std::string()) + ") " +
                             Only);
  Out.Doc = std::move(CounterPass);
  return Out;
}

MergeOutcome mergeLinePass(OrderedJson CounterPass,
                           const OrderedJson &LinePass) {
  return mergeByIndex(std::move(CounterPass), LinePass,
                      "per-line data from the line pass",
                      "was measured only by the line pass; left out",
                      [](OrderedJson &L, const OrderedJson &From) {
                        L["lines"] = From.value("lines", OrderedJson::array());
                      });
}

MergeOutcome mergeTrafficPass(OrderedJson CounterPass,
                              const OrderedJson &TrafficPass,
                              const std::string &What) {
  return mergeByIndex(std::move(CounterPass), TrafficPass, What, "",
                      [](OrderedJson &L, const OrderedJson &From) {
                        const OrderedJson M =
                            From.value("metrics", OrderedJson());
                        if (M.is_object())
                          for (auto KV = M.begin(); KV != M.end(); ++KV)
                            L["metrics"][KV.key()] = KV.value();
                      });
}

OrderedJson setAsideFromLineRuns(OrderedJson &CounterPass, uint64_t Limit) {
  OrderedJson Aside = OrderedJson::array();
  if (!CounterPass.contains("launches") ||
      !CounterPass["launches"].is_array() ||
      CounterPass["launches"].size() <= Limit)
    return Aside;
  OrderedJson &All = CounterPass["launches"];
  std::vector<bool> Chosen(All.size());
  std::set<std::string> Kernels;
  uint64_t Taken = 0;
  for (size_t I = 0; I < All.size() && Taken < Limit; ++I)
    if (Kernels.insert(All[I].value("kernel", std::string())).second) {
      Chosen[I] = true;
      ++Taken;
    }
  for (size_t I = 0; I < All.size() && Taken < Limit; ++I)
    if (!Chosen[I]) {
      Chosen[I] = true;
      ++Taken;
    }
  OrderedJson Kept = OrderedJson::array();
  for (size_t I = 0; I < All.size(); ++I)
    (Chosen[I] ? Kept : Aside).push_back(std::move(All[I]));
  All = std::move(Kept);
  return Aside;
}

void putBackLaunches(OrderedJson &CounterPass, OrderedJson Aside) {
  OrderedJson &All = CounterPass["launches"];
  for (OrderedJson &L : Aside)
    All.push_back(std::move(L));
  std::stable_sort(
      All.begin(), All.end(), [](const OrderedJson &A, const OrderedJson &B) {
        return A.value("index", uint64_t(0)) < B.value("index", uint64_t(0));
      });
}

std::string utcNowIso8601() {
  std::time_t T = std::time(nullptr);
  std::tm Tm{};
  gmtime_r(&T, &Tm);
  char Buf[32];
  std::strftime(Buf, sizeof(Buf), "%Y-%m-%dT%H:%M:%SZ", &Tm);
  return Buf;
}

} // namespace cupti
} // namespace gmem
