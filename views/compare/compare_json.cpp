//===- compare_json.cpp - The comparison as data --------------------------===//
//
// {"file", "measurement": {"path", "tool", "device", "compute_capability",
//  "driver_version", "cuda_version", "date", "program"}, "arch",
//  "tolerances": {...}, "verdict", "summary": {"launches", "match",
//  "explained", "mismatch", "estimates",
//  "estimates_within"}, "warnings", "notes",
//  "launches": [{"kernel", "grid", "block", "dynamic_smem", "loc",
//    "measured_index", "notes", "verdict", "diagnostics",
//    "metrics": [{"name", "predicted", "measured", "difference", "tolerance",
//                 "verdict", "reason", "measured_from", "unknown_reason"}],
//    "lines": [{"file", "line", "predicted": {"requests", "sectors",
//               "wavefronts"}, "measured": {"instructions", "sectors",
//               "wavefronts", "sectors_ideal", "wavefronts_ideal"} or null,
//               "kind", "verdict", "reason"}],
//    "estimates": [{"name", "label", "unit", "predicted" (null: unknown,
//                   "unknown_reason"), "predicted_upper" (a range),
//                   "measured", "band", "floor", "within", "note"}]}],
//  "unmeasured_launches": [{"kernel", "grid", "block", "loc"}]}
//
// Unknown predictions are null; "instructions" is null when the measurement
// did not record it.
//
//===----------------------------------------------------------------------===//
#include "compare.h"
#include "views.h"

namespace gmem {

using nlohmann::json;

namespace {

json dim(const Dim3 &D) { return json::array({D.X, D.Y, D.Z}); }

json opt(const std::optional<uint64_t> &V) {
  return V ? json(*V) : json(nullptr);
}

json launchHeader(const Launch &L) {
  return {{"kernel", L.Kernel},
          {"grid", dim(L.Grid)},
          {"block", dim(L.Block)},
          {"dynamic_smem", L.DynamicSmem},
          {"loc", L.Loc.Line ? json(locText(L.Loc)) : json(nullptr)}};
}

json metricJson(const MetricComparison &M) {
  json J = {
      {"name", M.Name},
      {"predicted", M.Predicted ? json(*M.Predicted) : json(nullptr)},
      {"measured", M.Measured},
      {"difference", M.difference() ? json(*M.difference()) : json(nullptr)},
      {"tolerance", M.Tolerance},
      {"verdict", verdictName(M.V)},
      {"reason", M.Reason}};
  if (!M.MeasuredFrom.empty())
    J["measured_from"] = M.MeasuredFrom;
  if (!M.Predicted)
    J["unknown_reason"] = M.UnknownReason;
  if (M.Bounds)
    J["predicted_bounds"] = {{"min", M.Bounds->first},
                             {"max", M.Bounds->second}};
  return J;
}

json lineJson(const LineComparison &L) {
  json Measured = nullptr;
  if (L.Measured)
    Measured = {
        {"instructions", L.InstRecorded ? json(L.MeasuredInst) : json(nullptr)},
        {"sectors", L.MeasuredSectors},
        {"wavefronts", L.MeasuredWavefronts},
        {"sectors_ideal", L.MeasuredSectorsIdeal},
        {"wavefronts_ideal", L.MeasuredWavefrontsIdeal}};
  json J = {{"file", L.File},
            {"line", L.Line},
            {"predicted",
             {{"requests", L.PredictedRequests},
              {"sectors", opt(L.PredictedSectors)},
              {"wavefronts", opt(L.PredictedWavefronts)}}},
            {"measured", Measured},
            {"kind", L.Kind},
            {"verdict", verdictName(L.V)},
            {"reason", L.Reason}};
  auto Bounds = [&](const char *Name, const auto &B) {
    if (B)
      J["predicted"][Name] = {{"min", B->first}, {"max", B->second}};
  };
  Bounds("sectors", L.SectorBounds);
  Bounds("wavefronts", L.WavefrontBounds);
  return J;
}

} // namespace

nlohmann::json comparisonJson(const Comparison &C) {
  const Measurement &Ms = *C.Ms;
  json Launches = json::array();
  unsigned Count[3] = {0, 0, 0}, Uncompared = 0;
  unsigned EstimateCount = 0, EstimatesWithin = 0;
  Verdict Worst = Verdict::Match;
  for (const LaunchComparison &LC : C.Launches) {
    if (LC.compared())
      ++Count[int(LC.V)];
    else
      ++Uncompared;
    Worst = std::max(Worst, LC.compared() ? LC.V : Verdict::Mismatch);
    json L = launchHeader(LC.Predicted.L);
    L["measured_index"] = LC.Measured->Index;
    L["notes"] = LC.Match.Notes;
    L["verdict"] = launchVerdict(LC);
    json Uncomp = json::array();
    for (const UncomparedMetric &U : LC.Uncompared)
      Uncomp.push_back({{"name", U.Name}, {"why", U.Why}});
    L["not_compared"] = Uncomp;
    L["diagnostics"] = LC.Predicted.Diagnostics;
    json Metrics = json::array(), Lines = json::array();
    for (const MetricComparison &M : LC.Metrics)
      Metrics.push_back(metricJson(M));
    for (const LineComparison &Line : LC.Lines)
      Lines.push_back(lineJson(Line));
    L["metrics"] = Metrics;
    L["lines"] = Lines;
    json Estimates = json::array();
    for (const EstimateComparison &E : LC.Estimates) {
      ++EstimateCount;
      EstimatesWithin += E.Within;
      json J = {{"name", E.Name},     {"label", E.Label},
                {"unit", E.Unit},     {"measured", E.Measured},
                {"band", E.Band},     {"floor", E.Floor},
                {"within", E.Within}, {"note", E.Note}};
      J["predicted"] = E.Predicted ? json(*E.Predicted) : json(nullptr);
      if (E.PredictedUpper)
        J["predicted_upper"] = *E.PredictedUpper;
      if (!E.Predicted)
        J["unknown_reason"] = E.UnknownReason;
      Estimates.push_back(J);
    }
    L["estimates"] = Estimates;
    Launches.push_back(L);
  }
  json Unmeasured = json::array();
  for (const Launch &L : C.Unmeasured)
    Unmeasured.push_back(launchHeader(L));
  return {
      {"file", C.File},
      {"measurement",
       {{"path", C.MeasurementPath},
        {"tool", Ms.Tool},
        {"device", Ms.Device},
        {"compute_capability", Ms.ComputeCapability},
        {"driver_version", Ms.DriverVersion},
        {"cuda_version", Ms.CudaVersion},
        {"date", Ms.Date},
        {"program", Ms.Program}}},
      {"arch", C.Arch},
      {"tolerances",
       {{"counts", "exact"},
        {"global_per_request_and_efficiency", "absolute 0.005"},
        {"shared_wavefronts_per_request", "max(3 %, 0.15)"},
        {"noise_band", "shared, multi-block: measured at most 10 % above"},
        {"estimates",
         "DRAM bytes read within 10 % or 4096 bytes, written within 25 % or "
         "65536 bytes, L2 sectors within 10 % or 1000, duration within 25 % "
         "or 2000 ns; they judge only a "
         "launch with no exact figure compared"}}},
      {"verdict", verdictName(Worst)},
      {"summary",
       {{"launches", C.Launches.size()},
        {"match", Count[0]},
        {"differ", Count[1] + Count[2]},
        {"explained", Count[1]},
        {"mismatch", Count[2]},
        {"not_compared", Uncompared},
        {"estimates", EstimateCount},
        {"estimates_within", EstimatesWithin}}},
      {"warnings", C.Warnings},
      {"notes", C.Notes},
      {"measurement_notes", Ms.Notes},
      {"launches", Launches},
      {"unmeasured_launches", Unmeasured},
  };
}

} // namespace gmem
