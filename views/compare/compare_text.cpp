//===- compare_text.cpp - Prediction beside measurement, as tables --------===//
//
//   measured: NVIDIA H200 (compute capability 9.0), driver 580, CUDA 13.0,
//   2026-11-21T10:00:00Z, by gmem-verify; simulated for sm_90
//   tolerances: ...
//
//   global_add_offset<<<(128,1,1), (32,1,1)>>> at coalescing.cu:169:5
//   [measured launch 2]: match
//     Metric                                       Predicted  Measured
//     Difference  Verdict    Reason
//     l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum    256       256 0  match
//     ...
//     Line              Requests  Instructions  Sectors (pred/meas)  Wavefronts
//     (pred/meas)  Verdict    Reason coalescing.cu:46       384           384
//     1920 / 1920          0 / 0                   match
//
//===----------------------------------------------------------------------===//
#include "compare.h"
#include "views.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gmem {

namespace {

std::string pad(std::string S, size_t W, bool Right = false) {
  if (S.size() >= W)
    return S;
  return Right ? std::string(W - S.size(), ' ') + S
               : S + std::string(W - S.size(), ' ');
}

std::string value(double V, bool Sign = false) {
  char B[64];
  if (V == 0)
    return "0";
  if (V == std::floor(V) && std::fabs(V) < 1e15) {
    snprintf(B, sizeof B, Sign ? "%+.0f" : "%.0f", V);
    return B;
  }
  snprintf(B, sizeof B, Sign ? "%+.4f" : "%.4f", V);
  std::string S = B;
  while (S.back() == '0')
    S.pop_back();
  if (S.back() == '.')
    S.pop_back();
  if (S == "0" || S == "+0" || S == "-0") { // Tiny, but not zero.
    snprintf(B, sizeof B, Sign ? "%+.2g" : "%.2g", V);
    S = B;
  }
  return S;
}

std::string launchTitle(const Launch &L) {
  std::string S = L.Kernel + "<<<" + dimText(L.Grid) + ", " + dimText(L.Block);
  if (L.DynamicSmem)
    S += ", " + std::to_string(L.DynamicSmem);
  S += ">>>";
  if (L.Loc.Line)
    S += " at " + locText(L.Loc);
  return S;
}

void printMetrics(const LaunchComparison &LC, std::ostream &OS) {
  size_t NameW = 6;
  bool AnyDerived = false;
  for (const MetricComparison &M : LC.Metrics) {
    NameW = std::max(NameW, M.Name.size() + 1);
    AnyDerived |= !M.MeasuredFrom.empty();
  }
  OS << "  " << pad("Metric", NameW + 1) << pad("Predicted", 12, true) << " "
     << pad("Measured", 12, true) << " " << pad("Difference", 12, true) << "  "
     << pad("Verdict", 10) << " Reason\n";
  for (const MetricComparison &M : LC.Metrics) {
    std::string Name = M.Name + (M.MeasuredFrom.empty() ? "" : "*");
    std::optional<double> D = M.difference();
    OS << "  " << pad(Name, NameW + 1)
       << pad(M.Predicted ? value(*M.Predicted)
              : M.Bounds
                  ? value(M.Bounds->first) + "-" + value(M.Bounds->second)
                  : "unknown",
              12, true)
       << " " << pad(value(M.Measured), 12, true) << " "
       << pad(D ? value(*D, true) : "-", 12, true) << "  "
       << pad(verdictName(M.V), 10);
    if (!M.Reason.empty())
      OS << " " << M.Reason;
    OS << "\n";
  }
  if (AnyDerived)
    OS << "  * measured value computed from the measured counts "
          "(sectors or wavefronts / requests)\n";
}

void printLines(const LaunchComparison &LC, std::ostream &OS) {
  if (LC.Lines.empty())
    return;
  size_t LocW = 4;
  for (const LineComparison &L : LC.Lines)
    LocW = std::max(LocW, L.File.size() + 1 + std::to_string(L.Line).size());
  auto Opt = [](const std::optional<uint64_t> &V,
                const std::optional<std::pair<uint64_t, uint64_t>> &Bounds) {
    return V        ? std::to_string(*V)
           : Bounds ? std::to_string(Bounds->first) + "-" +
                          std::to_string(Bounds->second)
                    : std::string("unknown");
  };
  OS << "  " << pad("Line", LocW + 1) << pad("Requests", 10, true)
     << pad("Instructions", 14, true) << "  " << pad("Sectors (pred/meas)", 22)
     << " " << pad("Wavefronts (pred/meas)", 23) << " " << pad("Verdict", 10)
     << " Reason\n";
  for (const LineComparison &L : LC.Lines) {
    std::string Inst = !L.Measured      ? "-"
                       : L.InstRecorded ? std::to_string(L.MeasuredInst)
                                        : "?";
    std::string Sectors =
        Opt(L.PredictedSectors, L.SectorBounds) + " / " +
        (L.Measured ? std::to_string(L.MeasuredSectors) : std::string("-"));
    std::string Waves =
        Opt(L.PredictedWavefronts, L.WavefrontBounds) + " / " +
        (L.Measured ? std::to_string(L.MeasuredWavefronts) : std::string("-"));
    OS << "  " << pad(L.File + ":" + std::to_string(L.Line), LocW + 1)
       << pad(std::to_string(L.PredictedRequests), 10, true)
       << pad(Inst, 14, true) << "  " << pad(Sectors, 22) << " "
       << pad(Waves, 23) << " " << pad(verdictName(L.V), 10);
    if (!L.Reason.empty())
      OS << " " << L.Reason;
    OS << "\n";
  }
}

std::string quantity(double V, const std::string &Unit) {
  char B[64];
  if (Unit == "ns")
    snprintf(B, sizeof B, "%.1f us", V / 1e3);
  else if (Unit == "sectors")
    snprintf(B, sizeof B, V >= 1e6 ? "%.3f M" : "%.0f", V >= 1e6 ? V / 1e6 : V);
  else if (V >= 1e6)
    snprintf(B, sizeof B, "%.2f MB", V / 1e6);
  else if (V >= 1e4)
    snprintf(B, sizeof B, "%.1f KB", V / 1e3);
  else
    snprintf(B, sizeof B, "%.0f B", V);
  return B;
}

/// Predicted beside measured, with the difference against the band.
void printEstimates(const LaunchComparison &LC, std::ostream &OS) {
  if (LC.Estimates.empty())
    return;
  OS << "  " << pad("Estimate", 20) << pad("Predicted", 22, true) << " "
     << pad("Measured", 10, true) << " " << pad("Difference", 11, true) << "  "
     << pad("Band", 15) << " Verdict\n";
  for (const EstimateComparison &E : LC.Estimates) {
    std::string P = "unknown", D = "-";
    if (E.Predicted) {
      P = quantity(*E.Predicted, E.Unit);
      if (E.PredictedUpper)
        P += " - " + quantity(*E.PredictedUpper, E.Unit);
      else if (*E.Predicted > 0) {
        char B[32];
        snprintf(B, sizeof B, "%+.1f %%",
                 100 * (E.Measured - *E.Predicted) / *E.Predicted);
        D = B;
      }
    }
    // The floors are round binary sizes and whole microseconds.
    char Band[48];
    if (E.Unit == "ns")
      snprintf(Band, sizeof Band, "%.0f %% or %.0f us", 100 * E.Band,
               E.Floor / 1e3);
    else if (E.Unit == "sectors")
      snprintf(Band, sizeof Band, "%.0f %% or %.0f", 100 * E.Band, E.Floor);
    else
      snprintf(Band, sizeof Band, "%.0f %% or %.0f KiB", 100 * E.Band,
               E.Floor / 1024);
    OS << "  " << pad(E.Label, 20) << pad(P, 22, true) << " "
       << pad(quantity(E.Measured, E.Unit), 10, true) << " " << pad(D, 11, true)
       << "  " << pad(Band, 15) << " "
       << (!E.Predicted ? "unknown: " + E.UnknownReason
           : E.Within   ? std::string("within")
                        : std::string("outside"))
       << "\n";
  }
  // Each assumption once: "DRAM bytes: caches flushed ...; duration: ...".
  std::vector<std::string> Notes;
  for (const EstimateComparison &E : LC.Estimates) {
    if (E.Note.empty() || !E.Predicted)
      continue;
    const std::string What = E.Unit == "ns"        ? "duration"
                             : E.Unit == "sectors" ? "L2 sectors"
                                                   : "DRAM bytes";
    const std::string Line = What + ": " + E.Note;
    if (std::find(Notes.begin(), Notes.end(), Line) == Notes.end())
      Notes.push_back(Line);
  }
  for (size_t I = 0; I < Notes.size(); ++I)
    OS << (I ? "; " : "  ") << Notes[I];
  if (!Notes.empty())
    OS << "\n";
}

/// One line per reason: "not compared (gmem does not predict them): A, B".
void printUncompared(const LaunchComparison &LC, std::ostream &OS) {
  std::vector<std::pair<std::string, std::vector<std::string>>> ByWhy;
  for (const UncomparedMetric &U : LC.Uncompared) {
    auto It = std::find_if(ByWhy.begin(), ByWhy.end(),
                           [&](const auto &P) { return P.first == U.Why; });
    if (It == ByWhy.end())
      ByWhy.push_back({U.Why, {U.Name}});
    else
      It->second.push_back(U.Name);
  }
  for (const auto &[Why, Names] : ByWhy) {
    OS << "  not compared (" << Why << "): ";
    for (size_t I = 0; I < Names.size(); ++I)
      OS << (I ? ", " : "") << Names[I];
    OS << "\n";
  }
}

} // namespace

void printComparisonText(const Comparison &C, std::ostream &OS) {
  const Measurement &Ms = *C.Ms;
  OS << "comparing " << C.File << " with " << C.MeasurementPath << "\n";
  OS << "measured: " << (Ms.Device.empty() ? "unnamed device" : Ms.Device);
  if (!Ms.ComputeCapability.empty())
    OS << " (compute capability " << Ms.ComputeCapability << ")";
  if (!Ms.DriverVersion.empty())
    OS << ", driver " << Ms.DriverVersion;
  if (!Ms.CudaVersion.empty())
    OS << ", CUDA " << Ms.CudaVersion;
  if (!Ms.Date.empty())
    OS << ", " << Ms.Date;
  OS << ", by " << Ms.Tool << "; simulated for " << C.Arch << "\n";
  OS << "tolerances: counts exact; global sectors per request and "
        "efficiencies within 0.005 (printed precision); shared wavefronts "
        "per request within max(3 %, 0.15) (contention, a timing effect)\n";
  if (std::any_of(
          C.Launches.begin(), C.Launches.end(),
          [](const LaunchComparison &LC) { return !LC.Estimates.empty(); }))
    OS << "estimates (predicted from a model of the board, judged apart): "
          "DRAM bytes read within 10 % or 4 KiB, written within 25 % or "
          "64 KiB, L2 sectors within 10 % or 1000, duration within 25 % or "
          "2 us\n";
  for (const std::string &W : C.Warnings)
    OS << "warning: " << W << "\n";
  for (const std::string &N : C.Notes)
    OS << "note: " << N << "\n";
  for (const std::string &N : Ms.Notes)
    OS << "note: " << C.MeasurementPath << ": " << N << "\n";
  for (const LaunchComparison &LC : C.Launches) {
    const MeasuredLaunch &ML = *LC.Measured;
    OS << "\n"
       << launchTitle(LC.Predicted.L) << " [measured launch " << ML.Index
       << "]: " << launchVerdict(LC) << "\n";
    for (const std::string &N : LC.Match.Notes)
      OS << "  note: " << N << "\n";
    for (const std::string &D : LC.Predicted.Diagnostics)
      OS << "  error: " << D << "\n";
    if (!LC.Metrics.empty())
      printMetrics(LC, OS);
    printLines(LC, OS);
    printEstimates(LC, OS);
    printUncompared(LC, OS);
  }
  if (!C.Unmeasured.empty()) {
    // A loop's launches of one configuration and place are one line
    // (gmem-verify --launch-count measures a few of them), in first order.
    std::vector<std::pair<std::string, size_t>> Titles;
    for (const Launch &L : C.Unmeasured) {
      std::string T = launchTitle(L);
      auto It = std::find_if(Titles.begin(), Titles.end(),
                             [&](const auto &P) { return P.first == T; });
      if (It == Titles.end())
        Titles.push_back({T, 1});
      else
        ++It->second;
    }
    OS << "\nhost launches not measured (" << C.Unmeasured.size() << "):\n";
    for (const auto &[T, N] : Titles)
      OS << "  " << T << (N > 1 ? " x " + std::to_string(N) : "") << "\n";
  }
  OS << "\n" << summaryText(C) << "\n";
}

} // namespace gmem
