//===- nvprof_csv.cpp - nvprof `--metrics ... --csv` logs -----------------===//
//
// What nvprof prints (to stderr, or to --log-file):
//
//   ==127053== NVPROF is profiling process 127053, command: ./a.out
//   ...program output...
//   ==127053== Metric result:
//   "Device","Kernel","Invocations","Metric Name","Metric Description",
//     "Min","Max","Avg"
//   "Quadro P2000 (0)","copyGmem(float*, float*, int, int)",1,
//     "gld_efficiency","Global Memory Load Efficiency",100.000000%,
//     100.000000%,100.000000%
//
// Text is quoted, numbers are not; percentages end in '%', throughputs in a
// unit ("157.16GB/s"), utilization levels read "Low (1)".
//
//===----------------------------------------------------------------------===//
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

/// A value as nvprof prints it: a number, a percentage, a throughput with
/// its unit (returned in bytes per second) or a utilization level.
std::optional<double> parseNvprofValue(std::string_view Text) {
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

/// "Quadro P2000 (0)" -> "Quadro P2000".
std::string deviceName(const std::string &Field) {
  size_t Open = Field.rfind(" (");
  if (Open != std::string::npos && !Field.empty() && Field.back() == ')')
    return Field.substr(0, Open);
  return Field;
}

} // namespace

std::optional<std::string> nvprofToNsight(std::string_view NvprofName) {
  auto It = nvprofNames().find(NvprofName);
  if (It == nvprofNames().end())
    return std::nullopt;
  return It->second;
}

ImportResult parseNvprofCsv(const std::string &Text, const std::string &Name) {
  auto Error = [&](unsigned Line, const std::string &What) {
    return ImportError{Name + (Line ? ":" + std::to_string(Line) : "") + ": " +
                       What};
  };
  std::vector<csv::Line> Lines = csv::splitLines(Text);
  if (Lines.empty())
    return Error(0, "empty file");

  std::string RecordError;
  unsigned HeaderError = 0;
  std::optional<csv::Header> Header = csv::findHeader(
      Lines, "\"Device\",\"Kernel\",", RecordError, HeaderError);
  if (!Header && RecordError.empty())
    return Error(0, "no nvprof --csv header line (\"Device\",\"Kernel\",...): "
                    "not an nvprof --metrics --csv log");
  if (!Header)
    return Error(HeaderError, RecordError);
  const csv::Line &HeaderLine = Lines[Header->At];
  int Device = Header->column("Device"), Kernel = Header->column("Kernel"),
      Metric = Header->column("Metric Name"), Avg = Header->column("Avg");
  const std::pair<int, const char *> Required[] = {
      {Kernel, "Kernel"}, {Metric, "Metric Name"}, {Avg, "Avg"}};
  for (const auto &[Index, Column] : Required)
    if (Index < 0)
      return Error(HeaderLine.Number,
                   std::string("no \"") + Column +
                       "\" column in the header (an nvprof --metrics --csv "
                       "log has \"Metric Name\" and \"Avg\")");

  Measurement M;
  M.Tool = "nvprof-csv";
  std::map<std::string, size_t> LaunchOfKernel;
  for (size_t I = Header->At + 1; I < Lines.size(); ++I) {
    const csv::Line &L = Lines[I];
    if (csv::trim(L.Text).empty() || L.Text.compare(0, 2, "==") == 0)
      continue;
    std::optional<std::vector<std::string>> Fields =
        csv::splitRow(L, Header->Columns.size(), RecordError);
    if (!Fields)
      return Error(L.Number, RecordError);
    const std::vector<std::string> &F = *Fields;
    std::string Demangled(csv::trim(F[Kernel]));
    if (Demangled.empty())
      return Error(L.Number, "empty Kernel field");
    const std::string &MetricName = F[Metric];
    if (MetricName.empty())
      return Error(L.Number, "empty Metric Name");
    std::optional<double> Value = parseNvprofValue(F[Avg]);
    if (!Value)
      return Error(L.Number, "metric " + MetricName + ": Avg \"" + F[Avg] +
                                 "\" is not a number");

    auto [It, New] = LaunchOfKernel.try_emplace(Demangled, M.Launches.size());
    if (New) {
      MeasuredLaunch Launch;
      Launch.Index = unsigned(M.Launches.size());
      Launch.Demangled = Demangled;
      if (Demangled.compare(0, 2, "_Z") == 0)
        Launch.Mangled = Demangled;
      Launch.Kernel = kernelBaseName(Demangled);
      // nvprof logs no launch configuration.
      Launch.Grid = {0, 0, 0};
      Launch.Block = {0, 0, 0};
      M.Launches.push_back(std::move(Launch));
      if (Device >= 0 && M.Device.empty())
        M.Device = deviceName(F[Device]);
    }
    MeasuredLaunch &Launch = M.Launches[It->second];
    Launch.Metrics[MetricName] = *Value;
    if (std::optional<std::string> Nsight = nvprofToNsight(MetricName))
      Launch.Metrics[*Nsight] = *Value;
  }
  if (M.Launches.empty())
    return Error(HeaderLine.Number,
                 "a header but no metric rows follow (truncated file?)");
  return M;
}

} // namespace gmem
