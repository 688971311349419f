//===- ncu_csv.cpp - Nsight Compute `--csv` exports -----------------------===//
//
// The details-page layout, as `ncu --metrics ... --csv` prints it:
//
//   ==PROF== Connected to process 655 (/tmp/seeds_gt)
//   "ID","Process ID","Process Name",...,"Kernel Name",...,"Block Size",
//     "Grid Size","Device","CC","Section Name","Metric Name","Metric Unit",
//     "Metric Value"
//   "0","655","seeds_gt",...,"naiveGmem(float *, float *, int, int)",...,
//     "(32, 16, 1)","(128, 256, 1)","0","9.0",...,
//     "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum","sector","16,777,216"
//
// Rows of one ID are one launch; IDs give the launch order.
//
//===----------------------------------------------------------------------===//
#include "csv.h"
#include "importers.h"

#include <climits>
#include <cmath>
#include <map>

namespace gmem {

namespace {

/// The multiplier that brings a value printed in Unit back to the base
/// unit ncu uses with --print-units base (ns for times, byte, sector, ...).
double unitScale(const std::string &Unit) {
  static const std::map<std::string, double> Times = {
      {"ns", 1},   {"nsecond", 1},   {"us", 1e3}, {"usecond", 1e3},
      {"ms", 1e6}, {"msecond", 1e6}, {"s", 1e9},  {"second", 1e9}};
  auto It = Times.find(Unit);
  if (It != Times.end())
    return It->second;
  // Kbyte, Mbyte/second, Gsector, ...: SI prefixes on a lower-case unit.
  if (Unit.size() >= 2 && Unit[1] >= 'a' && Unit[1] <= 'z') {
    switch (Unit[0]) {
    case 'K':
      return 1e3;
    case 'M':
      return 1e6;
    case 'G':
      return 1e9;
    case 'T':
      return 1e12;
    default:
      break;
    }
  }
  return 1;
}

struct Columns {
  int Id = -1, Kernel = -1, Block = -1, Grid = -1, Name = -1, Unit = -1,
      Value = -1, CC = -1, Process = -1;
};

} // namespace

ImportResult parseNcuCsv(const std::string &Text, const std::string &Name) {
  auto Error = [&](unsigned Line, const std::string &What) {
    return Failure{Name + (Line ? ":" + std::to_string(Line) : "") + ": " +
                   What};
  };
  std::vector<csv::Line> Lines = csv::splitLines(Text);
  if (Lines.empty())
    return Error(0, "empty file");

  // Program output and ==PROF== lines come before the header.
  std::optional<size_t> At = csv::findHeaderLine(Lines, "\"ID\",");
  if (!At)
    return Error(0, "no ncu --csv header line (\"ID\",\"Process ID\",...): "
                    "not an Nsight Compute CSV export");
  Expected<csv::Header> Header = csv::readHeader(Lines, *At);
  if (!Header)
    return Error(Lines[*At].Number, Header.error());
  const csv::Line &HeaderLine = Lines[Header->At];
  Columns C;
  C.Id = Header->column("ID");
  C.Kernel = Header->column("Kernel Name");
  C.Block = Header->column("Block Size");
  C.Grid = Header->column("Grid Size");
  C.Name = Header->column("Metric Name");
  C.Unit = Header->column("Metric Unit");
  C.Value = Header->column("Metric Value");
  C.CC = Header->column("CC");
  C.Process = Header->column("Process Name");
  const std::pair<int, const char *> Required[] = {{C.Id, "ID"},
                                                   {C.Kernel, "Kernel Name"},
                                                   {C.Block, "Block Size"},
                                                   {C.Grid, "Grid Size"},
                                                   {C.Name, "Metric Name"},
                                                   {C.Value, "Metric Value"}};
  for (const auto &[Index, Column] : Required)
    if (Index < 0)
      return Error(HeaderLine.Number,
                   std::string("no \"") + Column +
                       "\" column in the header (export the details page "
                       "with ncu --csv)");

  Measurement M;
  M.Tool = "ncu-csv";
  std::map<std::string, size_t> LaunchOfId;
  for (size_t I = Header->At + 1; I < Lines.size(); ++I) {
    const csv::Line &L = Lines[I];
    if (csv::trim(L.Text).empty() || L.Text.compare(0, 8, "==PROF==") == 0)
      continue;
    Expected<std::vector<std::string>> Fields =
        csv::splitRow(L, Header->Columns.size());
    if (!Fields)
      return Error(L.Number, Fields.error());
    const std::vector<std::string> &F = *Fields;
    const std::string &Id = F[C.Id];
    std::optional<double> IdValue = csv::parseNumber(Id);
    // Range first: converting a double past UINT_MAX to unsigned is
    // undefined.
    if (!IdValue || !(*IdValue >= 0 && *IdValue <= double(UINT_MAX)) ||
        *IdValue != std::floor(*IdValue))
      return Error(L.Number, "launch ID \"" + Id + "\" is not an integer");
    std::optional<std::array<uint64_t, 3>> Block = csv::parseDim3(F[C.Block]);
    if (!Block)
      return Error(L.Number,
                   "Block Size \"" + F[C.Block] + "\" is not \"(x, y, z)\"");
    std::optional<std::array<uint64_t, 3>> Grid = csv::parseDim3(F[C.Grid]);
    if (!Grid)
      return Error(L.Number,
                   "Grid Size \"" + F[C.Grid] + "\" is not \"(x, y, z)\"");

    auto [It, New] = LaunchOfId.try_emplace(Id, M.Launches.size());
    if (New) {
      MeasuredLaunch Launch;
      Launch.Index = unsigned(*IdValue);
      Launch.Demangled = std::string(csv::trim(F[C.Kernel]));
      if (Launch.Demangled.compare(0, 2, "_Z") == 0)
        Launch.Mangled = Launch.Demangled;
      Launch.Kernel = kernelBaseName(Launch.Demangled);
      Launch.Block = *Block;
      Launch.Grid = *Grid;
      M.Launches.push_back(std::move(Launch));
      if (C.CC >= 0 && M.ComputeCapability.empty())
        M.ComputeCapability = F[C.CC];
      if (C.Process >= 0 && M.Program.empty() && !F[C.Process].empty())
        M.Program.push_back(F[C.Process]);
    }
    MeasuredLaunch &Launch = M.Launches[It->second];
    if (std::string(csv::trim(F[C.Kernel])) != Launch.Demangled ||
        *Block != Launch.Block || *Grid != Launch.Grid)
      return Error(L.Number, "launch ID " + Id +
                                 " has a different kernel or configuration "
                                 "than on its first row");

    const std::string &Metric = F[C.Name];
    if (Metric.empty())
      return Error(L.Number, "empty Metric Name");
    const std::string &Value = F[C.Value];
    if (csv::trim(Value) == "n/a")
      continue; // Not collected for this launch: leave it out.
    std::optional<double> Number = csv::parseNumber(Value);
    if (!Number)
      return Error(L.Number, "metric " + Metric + ": value \"" + Value +
                                 "\" is not a number");
    double Scale = C.Unit >= 0 ? unitScale(F[C.Unit]) : 1.0;
    // ncu repeats a metric when several sections show it; keep the first.
    Launch.Metrics.try_emplace(Metric, *Number * Scale);
    Launch.MetricLines.try_emplace(Metric, L.Number);
  }
  if (M.Launches.empty())
    return Error(HeaderLine.Number,
                 "a header but no metric rows follow (truncated file?)");
  return M;
}

} // namespace gmem
