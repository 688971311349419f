//===- metric_names.cpp - Which measured metrics a comparison can use -----===//
//
// A name gmem does not know is a mistake until shown otherwise: a typo or a
// name copied wrong would otherwise drop its row and let the launch pass.
// nvprof's metrics are a closed list, so any other name in an nvprof log is
// an error; Nsight Compute's are open-ended (sections add their own), so
// there only a name close to one gmem compares is taken for a typo.
//
//===----------------------------------------------------------------------===//
#include "compare.h"
#include "importers.h"
#include "metric_catalog.h"

#include <algorithm>
#include <numeric>

namespace gmem {

namespace {

/// Levenshtein distance (the gpu/ libraries build without LLVM).
size_t editDistance(std::string_view A, std::string_view B) {
  std::vector<size_t> Row(B.size() + 1);
  std::iota(Row.begin(), Row.end(), 0);
  for (size_t I = 1; I <= A.size(); ++I) {
    size_t Diagonal = Row[0];
    Row[0] = I;
    for (size_t J = 1; J <= B.size(); ++J) {
      size_t Up = Row[J];
      Row[J] = std::min({Row[J] + 1, Row[J - 1] + 1,
                         Diagonal + (A[I - 1] == B[J - 1] ? 0 : 1)});
      Diagonal = Up;
    }
  }
  return Row[B.size()];
}

bool nvprofLog(const Measurement &Ms) {
  return Ms.Tool == "nvprof-csv" || Ms.Tool == "nvprof-text";
}

} // namespace

std::string closestMetricName(std::string_view Name, bool Nvprof) {
  std::string Best;
  size_t BestDistance = ~size_t(0);
  for (const MetricSpec &S : metricCatalog()) {
    const char *Known = Nvprof ? S.Nvprof : S.Ncu;
    if (!Known)
      continue;
    const size_t D = editDistance(Name, Known);
    if (D < BestDistance) {
      BestDistance = D;
      Best = Known;
    }
  }
  return Best;
}

MetricUse metricUse(std::string_view Name) {
  if (const MetricSpec *S = findMetric(Name))
    return S->predictedName() ? MetricUse::Compared : MetricUse::NotPredicted;
  if (isNvprofMetricName(Name))
    return MetricUse::NotPredicted;
  return MetricUse::Unknown;
}

std::optional<std::string> checkMetricNames(const Measurement &Ms,
                                            const std::string &Path) {
  const bool Nvprof = nvprofLog(Ms);
  for (const MeasuredLaunch &L : Ms.Launches)
    for (const auto &[Name, Value] : L.Metrics) {
      if (metricUse(Name) != MetricUse::Unknown)
        continue;
      const std::string Closest = closestMetricName(Name, Nvprof);
      // Within a quarter of the name's letters of one gmem compares.
      const bool Typo = editDistance(Name, Closest) * 4 <= Name.size();
      if (!Nvprof && !Typo)
        continue;
      auto Line = L.MetricLines.find(Name);
      return Path +
             (Line == L.MetricLines.end() ? ""
                                          : ":" + std::to_string(Line->second)) +
             ": unknown " + (Nvprof ? "nvprof " : "") + "metric '" + Name +
             "' (launch " + std::to_string(L.Index) + ", " + L.Kernel +
             "): " +
             (Typo ? "did you mean '" + Closest + "'?"
                   : "nvprof has no metric of that name; fix the name or "
                     "remove its rows");
    }
  return std::nullopt;
}

} // namespace gmem
