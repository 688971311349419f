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
#include "nvprof_names.h"

#include <map>

namespace gmem {

ImportResult parseNvprofCsv(const std::string &Text, const std::string &Name) {
  auto Error = [&](unsigned Line, const std::string &What) {
    return Failure{Name + (Line ? ":" + std::to_string(Line) : "") + ": " +
                   What};
  };
  std::vector<csv::Line> Lines = csv::splitLines(Text);
  if (Lines.empty())
    return Error(0, "empty file");

  std::optional<size_t> At =
      csv::findHeaderLine(Lines, "\"Device\",\"Kernel\",");
  if (!At)
    return Error(0, "no nvprof --csv header line (\"Device\",\"Kernel\",...): "
                    "not an nvprof --metrics --csv log");
  Expected<csv::Header> Header = csv::readHeader(Lines, *At);
  if (!Header)
    return Error(Lines[*At].Number, Header.error());
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
    Expected<std::vector<std::string>> Fields =
        csv::splitRow(L, Header->Columns.size());
    if (!Fields)
      return Error(L.Number, Fields.error());
    const std::vector<std::string> &F = *Fields;
    std::string Demangled(csv::trim(F[Kernel]));
    if (Demangled.empty())
      return Error(L.Number, "empty Kernel field");
    const std::string &MetricName = F[Metric];
    if (MetricName.empty())
      return Error(L.Number, "empty Metric Name");
    std::optional<double> Value = nvprof::parseValue(F[Avg]);
    if (!Value)
      return Error(L.Number, "metric " + MetricName + ": Avg \"" + F[Avg] +
                                 "\" is not a number");

    auto [It, New] = LaunchOfKernel.try_emplace(Demangled, M.Launches.size());
    if (New) {
      M.Launches.push_back(
          nvprof::launchFor(Demangled, unsigned(M.Launches.size())));
      if (Device >= 0 && M.Device.empty()) {
        M.Device = nvprof::deviceName(F[Device]);
        M.ComputeCapability = nvprof::computeCapability(M.Device);
      }
    }
    nvprof::addMetric(M, It->second, MetricName, *Value, L.Number);
  }
  if (M.Launches.empty())
    return Error(HeaderLine.Number,
                 "a header but no metric rows follow (truncated file?)");
  return M;
}

} // namespace gmem
