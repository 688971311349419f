//===- nvprof_names.cpp - What nvprof's CSV and text tables share ---------===//
#include "nvprof_names.h"
#include "csv.h"
#include "importers.h"
#include "metric_catalog.h"

#include <map>

namespace gmem {

namespace {

/// nvprof names and the Nsight Compute metric with the same meaning, from
/// the catalog (nvprof's "transactions" are 32-byte sectors for global
/// memory on Maxwell and later, and wavefronts for shared memory).
const std::map<std::string, std::string, std::less<>> &nvprofNames() {
  static const std::map<std::string, std::string, std::less<>> Map = [] {
    std::map<std::string, std::string, std::less<>> M;
    for (const MetricSpec &S : metricCatalog())
      if (S.Ncu && S.Nvprof)
        M[S.Nvprof] = S.Ncu;
    return M;
  }();
  return Map;
}

} // namespace

std::optional<std::string> nvprofToNsight(std::string_view NvprofName) {
  auto It = nvprofNames().find(NvprofName);
  if (It == nvprofNames().end())
    return std::nullopt;
  return It->second;
}

namespace nvprof {

std::optional<double> parseValue(std::string_view Text) {
  Text = csv::trim(Text);
  if (std::optional<double> N = csv::parseNumber(Text))
    return N;
  // "Low (1)", "Mid (5)", "Max (10)", "Idle (0)": the level in parentheses.
  size_t Open = Text.find(" (");
  if (Open != std::string_view::npos && Text.back() == ')')
    return csv::parseNumber(Text.substr(Open + 2, Text.size() - Open - 3));
  static const std::pair<const char *, double> Rates[] = {
      {"TB/s", 1e12}, {"GB/s", 1e9}, {"MB/s", 1e6}, {"KB/s", 1e3}, {"B/s", 1}};
  for (const auto &[Unit, Scale] : Rates) {
    std::string_view U(Unit);
    if (Text.size() > U.size() && Text.substr(Text.size() - U.size()) == U) {
      if (std::optional<double> N =
              csv::parseNumber(Text.substr(0, Text.size() - U.size())))
        return *N * Scale;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string deviceName(std::string_view Field) {
  size_t Open = Field.rfind(" (");
  if (Open != std::string_view::npos && Field.back() == ')')
    return std::string(Field.substr(0, Open));
  return std::string(Field);
}

std::string computeCapability(std::string_view Device) {
  // The CUDA GPUs list's capability of each product, under nvprof's name.
  static const std::pair<const char *, const char *> Known[] = {
      {"GeForce GTX 560 Ti", "2.1"},  {"GeForce GTX 650 Ti", "3.0"},
      {"Tesla K20m", "3.5"},          {"Tesla K40m", "3.5"},
      {"GeForce GTX 980", "5.2"},     {"Tesla P100-PCIE-16GB", "6.0"},
      {"Quadro P2000", "6.1"},        {"GeForce GTX 1060 6GB", "6.1"},
      {"GeForce GTX 1080 Ti", "6.1"}, {"TITAN Xp", "6.1"},
      {"GeForce GT 1030", "6.1"},     {"Tesla V100-SXM2-16GB", "7.0"},
      {"Tesla V100-DGXS-16GB", "7.0"}};
  for (const auto &[Name, Cc] : Known)
    if (Device == Name)
      return Cc;
  return "";
}

MeasuredLaunch launchFor(const std::string &Demangled, unsigned Index) {
  MeasuredLaunch L;
  L.Index = Index;
  L.Demangled = Demangled;
  if (Demangled.compare(0, 2, "_Z") == 0)
    L.Mangled = Demangled;
  L.Kernel = kernelBaseName(Demangled);
  L.Grid = {0, 0, 0};
  L.Block = {0, 0, 0};
  return L;
}

void addMetric(MeasuredLaunch &L, const std::string &Metric, double Value) {
  L.Metrics[Metric] = Value;
  if (std::optional<std::string> Nsight = nvprofToNsight(Metric))
    L.Metrics[*Nsight] = Value;
}

} // namespace nvprof
} // namespace gmem
