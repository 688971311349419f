//===- compare.cpp - Metric by metric, with the reason for each difference ===//
//
// Every row is a metric the simulator predicts (metrics.h) that the
// measurement has too, directly or computed from its counts. A row is named
// as the simulator names the metric, or, for a measurement nvprof took, by
// its nvprof name where the catalog has one (RowNames). Counts are
// judged first; the reasons for a count come from the per-line comparison
// (lines.cpp) or the kernel totals; ratios then inherit the reasons of the
// counts they are made of. Tolerances and reasons: compare.h.
//
//===----------------------------------------------------------------------===//
#include "compare.h"
#include "arch.h"
#include "metric_catalog.h"
#include "nvprof_units.h"
#include "tolerances.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <set>

namespace gmem {

const char *verdictName(Verdict V) {
  switch (V) {
  case Verdict::Match:
    return "match";
  case Verdict::Explained:
    return "explained";
  case Verdict::Mismatch:
    return "mismatch";
  }
  return "?";
}

const char *launchVerdict(const LaunchComparison &LC) {
  return LC.compared() ? verdictName(LC.V) : "not compared";
}

std::string summaryText(const Comparison &C) {
  unsigned Match = 0, Explained = 0, Mismatch = 0, Uncompared = 0;
  for (const LaunchComparison &LC : C.Launches)
    if (!LC.compared())
      ++Uncompared;
    else
      ++(LC.V == Verdict::Match       ? Match
         : LC.V == Verdict::Explained ? Explained
                                      : Mismatch);
  unsigned Estimates = 0, Within = 0;
  for (const LaunchComparison &LC : C.Launches)
    for (const EstimateComparison &E : LC.Estimates) {
      ++Estimates;
      Within += E.Within;
    }
  return std::to_string(C.Launches.size()) +
         " launches: " + std::to_string(Match) + " match, " +
         std::to_string(Explained + Mismatch) + " differ (" +
         std::to_string(Explained) + " explained, " + std::to_string(Mismatch) +
         " unexplained), " + std::to_string(Uncompared) + " not compared" +
         (Estimates ? "; estimates (DRAM bytes, L2 sectors, duration): " +
                          std::to_string(Within) + " of " +
                          std::to_string(Estimates) + " within their bands"
                    : "");
}

bool MetricComparison::exact() const {
  if (!Predicted)
    return false;
  double Eps = 1e-9 * std::max(1.0, std::fabs(*Predicted));
  return std::fabs(Measured - *Predicted) <= Rounding + Eps;
}

namespace {

using Group = MetricGroup;
using Quantity = MetricQuantity;

struct RowSpec {
  const char *Name;   ///< Predicted metric (metrics.cpp), also the row's name.
  const char *Nvprof; ///< nvprof's name for it, or null.
  Group G;
  Quantity Q;
  MetricTolerance Tol;
  /// Measured names with the same meaning, tried in order after Name.
  std::vector<const char *> Aliases;
};

/// The catalog's predicted quantities, grouped by instruction kind.
const std::vector<RowSpec> &rowSpecs() {
  static const std::vector<RowSpec> Rows = [] {
    std::vector<RowSpec> Out;
    for (const MetricSpec &S : metricCatalog()) {
      const char *Name = S.predictedName();
      if (!Name || S.Group == Group::Other || S.Quantity == Quantity::Other)
        continue;
      RowSpec R{Name, S.Nvprof, S.Group, S.Quantity, S.Tolerance, {}};
      if (const char *Other = S.otherName())
        R.Aliases.push_back(Other);
      Out.push_back(R);
    }
    std::stable_sort(
        Out.begin(), Out.end(), [](const RowSpec &A, const RowSpec &B) {
          return std::make_pair(A.G, A.Q) < std::make_pair(B.G, B.Q);
        });
    return Out;
  }();
  return Rows;
}

const RowSpec *specFor(Group G, Quantity Q) {
  for (const RowSpec &S : rowSpecs())
    if (S.G == G && S.Q == Q)
      return &S;
  return nullptr;
}

bool isShared(Group G) {
  return G == Group::SharedLd || G == Group::SharedSt || G == Group::SharedAll;
}

bool inGroup(const Access &A, Group G) {
  const bool Shared = A.Sp == Space::Shared, Async = A.AsyncPartner >= 0;
  switch (G) {
  case Group::GlobalLd:
    return !Shared && A.Kind == AccessKind::Load && !Async;
  case Group::GlobalLdAll:
    return !Shared && A.Kind == AccessKind::Load;
  case Group::AsyncLd:
    return !Shared && Async;
  case Group::GlobalSt:
    return !Shared && A.Kind == AccessKind::Store;
  case Group::GlobalAtom:
    return !Shared && A.Kind == AccessKind::Atomic && !A.Reduction;
  case Group::GlobalRed:
    return !Shared && A.Kind == AccessKind::Atomic && A.Reduction;
  case Group::SharedLd:
    return Shared && A.Kind == AccessKind::Load;
  case Group::SharedSt:
    return Shared && A.Kind == AccessKind::Store && !Async;
  case Group::SharedAll: // Async copies' shared sides are in its figures.
    return Shared && A.Kind != AccessKind::Atomic;
  case Group::Other:
    return false;
  }
  return false;
}

/// The group whose sectors a figure of G is computed from: global load
/// efficiency (LDG only) is judged against the L1 sector count, which holds
/// the async copies too.
Group unitsGroup(Group G) {
  return G == Group::GlobalLd ? Group::GlobalLdAll : G;
}

std::optional<double> measured(const MeasuredLaunch &ML, const RowSpec &S) {
  auto It = ML.Metrics.find(S.Name);
  if (It != ML.Metrics.end())
    return It->second;
  for (const char *A : S.Aliases) {
    It = ML.Metrics.find(A);
    if (It != ML.Metrics.end())
      return It->second;
  }
  return std::nullopt;
}

std::string number(double V) {
  char B[64];
  if (V == std::floor(V) && std::fabs(V) < 1e15)
    snprintf(B, sizeof B, "%.0f", V);
  else
    snprintf(B, sizeof B, "%.4g", V);
  return B;
}

/// A row and what the reasons need to know about it.
struct Row {
  const RowSpec *Spec;
  MetricComparison C;
  bool Within = true;
};

class LaunchJudge {
public:
  LaunchJudge(LaunchComparison &LC, RowNames Names)
      : LC(LC), R(LC.Predicted), Names(Names) {}

  void run() {
    const MeasuredLaunch &ML = *LC.Measured;
    for (const RowSpec &S : rowSpecs())
      addRow(S, ML);
    // Counts first: the ratios' reasons are those of their counts.
    // Unknown predictions already carry their reason (c).
    for (Row &W : Rows)
      if (!W.Within && W.C.Predicted &&
          (W.Spec->Q == Quantity::Requests || W.Spec->Q == Quantity::Units))
        explainCount(W);
    for (Row &W : Rows)
      if (!W.Within && W.C.Predicted &&
          (W.Spec->Q == Quantity::PerRequest ||
           W.Spec->Q == Quantity::Efficiency))
        explainRatio(W);
    LC.V = Verdict::Match;
    for (Row &W : Rows) {
      LC.V = std::max(LC.V, W.C.V);
      LC.Metrics.push_back(std::move(W.C));
    }
    for (const LineComparison &L : LC.Lines)
      LC.V = std::max(LC.V, L.V);
    // Estimates judge a launch only where nothing exact was compared.
    if (LC.onlyEstimates())
      for (const EstimateComparison &E : LC.Estimates)
        if (!E.Within)
          LC.V = E.Predicted ? Verdict::Mismatch
                             : std::max(LC.V, Verdict::Explained);
    listUncompared(ML);
  }

private:
  LaunchComparison &LC;
  const LaunchResult &R;
  RowNames Names;
  std::vector<Row> Rows;
  std::set<std::string> Used; ///< Measured names a row was made from.

  void use(const RowSpec &S) {
    Used.insert(S.Name);
    Used.insert(S.Aliases.begin(), S.Aliases.end());
  }

  /// Every measured metric no row was made from, with the reason.
  void listUncompared(const MeasuredLaunch &ML) {
    for (const auto &[Name, Value] : ML.Metrics) {
      if (Used.count(Name) || (!LC.Estimates.empty() && usedByEstimates(Name)))
        continue;
      std::string Why;
      switch (metricUse(Name)) {
      case MetricUse::Compared:
        Why = "no prediction of it for this launch";
        if (const MetricSpec *S = findMetric(Name)) {
          const RowSpec *Count = specFor(S->Group, Quantity::Requests);
          if (Count && !predicted(S->Group, Quantity::Requests).value_or(1))
            Why = "the launch is predicted to make no such request";
          else if (S->Quantity == Quantity::PerRequest ||
                   S->Quantity == Quantity::Efficiency)
            continue; // Its counts were compared instead.
        }
        break;
      case MetricUse::NotPredicted:
        Why = "gmem does not predict it";
        break;
      case MetricUse::Unknown:
        Why = "not a metric gmem knows";
        break;
      }
      // One entry for the two names nvprof's metrics are stored under.
      if (const MetricSpec *S = findMetric(Name); S && S->Ncu && S->Nvprof &&
                                                   Name == S->Ncu &&
                                                   ML.Metrics.count(S->Nvprof))
        continue;
      LC.Uncompared.push_back({Name, Why});
    }
  }

  /// The name a row of S is shown under.
  std::string nameOf(const RowSpec &S) const {
    return Names == RowNames::Nvprof && S.Nvprof ? S.Nvprof : S.Name;
  }

  bool multiBlock() const { return R.L.Grid.count() > 1; }

  Row *row(Group G, Quantity Q) {
    for (Row &W : Rows)
      if (W.Spec->G == G && W.Spec->Q == Q)
        return &W;
    return nullptr;
  }

  std::optional<double> predicted(Group G, Quantity Q) const {
    const RowSpec *S = specFor(G, Q);
    if (!S)
      return std::nullopt;
    auto It = R.Metrics.find(S->Name);
    return It == R.Metrics.end() ? std::nullopt : It->second.Value;
  }

  void addRow(const RowSpec &S, const MeasuredLaunch &ML) {
    auto P = R.Metrics.find(S.Name);
    if (P == R.Metrics.end())
      return;
    Row W;
    W.Spec = &S;
    MetricComparison &C = W.C;
    C.Name = nameOf(S);
    C.Predicted = P->second.Value;
    C.UnknownReason = P->second.UnknownReason;
    std::string Definition = Names == RowNames::Nvprof ? toNvprof(S, C) : "";
    std::optional<double> M = measured(ML, S);
    bool Derived = false;
    if (!M && S.Q == Quantity::PerRequest) {
      // Computed from the counts, as ../shared/groundtruth's table does.
      const RowSpec *Num = specFor(S.G, Quantity::Units);
      const RowSpec *Den = specFor(S.G, Quantity::Requests);
      std::optional<double> N = measured(ML, *Num), D = measured(ML, *Den);
      if (!N || !D || *D <= 0)
        return;
      M = *N / *D;
      C.MeasuredFrom = nameOf(*Num) + " / " + nameOf(*Den);
      Derived = true;
      use(*Num);
      use(*Den);
    }
    if (!M)
      return;
    use(S);
    C.Measured = *M;
    bool Shared = isShared(S.G);
    setTolerance(S, C, C.Predicted, Derived);
    if (R.K->DeviceHeap && ML.KernelReplay) {
      W.Within = C.Predicted && std::fabs(C.Measured - *C.Predicted) <= 1e-9;
      C.V = Verdict::Explained;
      C.Reason = std::string("(g) ") + ReplayedHeap;
      Rows.push_back(std::move(W));
      return;
    }
    if (!C.Predicted) {
      W.Within = false;
      if (P->second.Min && P->second.Max && Definition.empty() &&
          !nvprofConverted(S))
        judgeBounds(W, S, *P->second.Min, *P->second.Max, Derived);
      else {
        C.V = Verdict::Explained;
        C.Reason = "(c) prediction unknown: " + C.UnknownReason;
      }
      Rows.push_back(std::move(W));
      return;
    }
    double D = std::fabs(C.Measured - *C.Predicted);
    bool IsCount =
        S.Q == Quantity::Requests || (S.Q == Quantity::Units && !Shared);
    W.Within = IsCount ? tolerance::sameCount(C.Measured, *C.Predicted)
                       : D <= C.Tolerance + 1e-9 * std::max(1.0, *C.Predicted);
    C.V = W.Within ? Verdict::Match : Verdict::Mismatch;
    C.Reason = W.Within ? Definition : "no reason established";
    Rows.push_back(std::move(W));
  }

  /// The catalog's tolerance class (tolerances.h has the numbers) around
  /// the value Pred: C.Tolerance and C.Rounding.
  void setTolerance(const RowSpec &S, MetricComparison &C,
                    std::optional<double> Pred, bool Derived) const {
    C.Tolerance = C.Rounding = 0;
    switch (S.Tol) {
    case MetricTolerance::Exact:
      break;
    case MetricTolerance::SharedTotal:
      if (Pred)
        C.Tolerance = tolerance::sharedTotal(
            *Pred, predicted(S.G, Quantity::Requests).value_or(0));
      break;
    case MetricTolerance::Printed:
    case MetricTolerance::SharedPerRequest:
      C.Tolerance = S.Tol == MetricTolerance::SharedPerRequest && Pred
                        ? tolerance::sharedPerRequest(*Pred)
                        : tolerance::Printed;
      C.Rounding = Derived ? 0 : tolerance::Printed; // Derived: per request.
      break;
    case MetricTolerance::SharedEfficiency:
      C.Tolerance = C.Rounding = tolerance::Printed;
      if (Pred)
        C.Tolerance = std::max(C.Tolerance, sharedEfficiencyTolerance(*Pred));
      break;
    }
  }

  /// Rows whose prediction nvprof's units convert (toNvprof): bounds are
  /// in the simulated architecture's units, so they are not compared.
  bool nvprofConverted(const RowSpec &S) const {
    return Names == RowNames::Nvprof &&
           (S.G == Group::GlobalLd || S.G == Group::GlobalLdAll ||
            S.G == Group::GlobalSt) &&
           (S.Q == Quantity::Units || S.Q == Quantity::PerRequest);
  }

  /// A bounded prediction: the measurement inside [Lo, Hi], each end with
  /// its tolerance, is explained by the bounds' reason; outside, it is a
  /// difference no reason explains. Shared wavefronts above the upper
  /// bound by no more than contention adds are explained as contention.
  void judgeBounds(Row &W, const RowSpec &S, double Lo, double Hi,
                   bool Derived) {
    MetricComparison &C = W.C;
    C.Bounds = {Lo, Hi};
    MetricComparison AtLo = C, AtHi = C;
    setTolerance(S, AtLo, Lo, Derived);
    setTolerance(S, AtHi, Hi, Derived);
    C.Tolerance = std::max(AtLo.Tolerance, AtHi.Tolerance);
    const bool IsCount =
        S.Q == Quantity::Requests || (S.Q == Quantity::Units && !isShared(S.G));
    const double Eps = 1e-9 * std::max(1.0, Hi);
    const double Below = IsCount ? 0.5 : AtLo.Tolerance + Eps;
    const double Above = IsCount ? 0.5 : AtHi.Tolerance + Eps;
    const double M = C.Measured;
    const std::string Range = "predicted between " + number(Lo) + " and " +
                              number(Hi) + ", measured " + number(M);
    if (M > Lo - Below && M < Hi + Above) {
      C.V = Verdict::Explained;
      C.Reason = "(c) " + Range + ": " + C.UnknownReason;
      return;
    }
    const bool Wavefronts = isShared(S.G) && S.Q != Quantity::Efficiency;
    if (Wavefronts && M > Hi && multiBlock() &&
        tolerance::withinContention(Hi, M)) {
      C.V = Verdict::Explained;
      C.Reason = contentionText(Hi, M) + " (above the upper bound)";
      return;
    }
    C.V = Verdict::Mismatch;
    C.Reason = "no reason established: " + Range + ", outside the bounds";
  }

  /// nvprof's transactions as nvprof counted them on the simulated
  /// architecture (ArchRules::NvprofCount): the prediction converted, and
  /// the definition said; or the prediction made unknown, with the reason.
  std::string toNvprof(const RowSpec &S, MetricComparison &C) const {
    const bool Load = S.G == Group::GlobalLd || S.G == Group::GlobalLdAll;
    if (!C.Predicted || (!Load && S.G != Group::GlobalSt) ||
        (S.Q != Quantity::Units && S.Q != Quantity::PerRequest))
      return "";
    NvprofUnits U =
        nvprofUnits(R, Load, [&](const Access &X) { return inGroup(X, S.G); });
    if (!U.Factor) {
      C.Predicted.reset();
      C.UnknownReason = U.UnknownReason;
      return "";
    }
    *C.Predicted *= *U.Factor;
    return U.Definition.empty() ? "" : "(definition) " + U.Definition;
  }

  /// shared_efficiency = bytes / (128 x wavefronts): the efficiencies the
  /// wavefront tolerance allows, on the side noise pushes it (down).
  double sharedEfficiencyTolerance(double E) const {
    uint64_t Req = 0, Units = 0;
    for (const Access &A : R.K->Accesses)
      if (inGroup(A, Group::SharedAll)) {
        Req += R.PerAccess[A.Id].Requests;
        Units += R.PerAccess[A.Id].Units;
      }
    if (!Req || !Units)
      return 0;
    double W = double(Units) / double(Req);
    return E - E * W / (W + tolerance::sharedPerRequest(W));
  }

  void explain(Row &W, const std::string &Reason) {
    W.C.V = Verdict::Explained;
    W.C.Reason = Reason;
  }

  // --- Per-line evidence ------------------------------------------------

  bool linesHaveInstructions() const {
    for (const LineComparison &L : LC.Lines)
      if (L.InstRecorded && L.MeasuredInst)
        return true;
    return false;
  }

  /// Field F summed over the line's accesses of group G.
  uint64_t groupSum(const LineComparison &L, Group G,
                    uint64_t AccessStats::*F) const {
    uint64_t N = 0;
    for (int Id : L.Accesses)
      if (inGroup(R.K->Accesses[Id], G))
        N += R.PerAccess[Id].*F;
    return N;
  }
  uint64_t groupRequests(const LineComparison &L, Group G) const {
    return groupSum(L, G, &AccessStats::Requests);
  }

  unsigned minSize(Group G) const {
    unsigned Min = tolerance::WidestAccess;
    for (const Access &A : R.K->Accesses)
      if (inGroup(A, G))
        Min = std::min(Min, A.Size);
    return Min;
  }

  /// "f.cu:12 (64 -> 32)" for up to three lines chosen by Pick.
  std::string where(
      const std::function<bool(const LineComparison &)> &Pick,
      const std::function<std::string(const LineComparison &)> &Detail) const {
    std::string S;
    unsigned N = 0;
    for (const LineComparison &L : LC.Lines)
      if (Pick(L)) {
        if (N < 3)
          S += (N ? ", " : "") + L.File + ":" + std::to_string(L.Line) + " (" +
               Detail(L) + ")";
        ++N;
      }
    if (N > 3)
      S += " and " + std::to_string(N - 3) + " more";
    return S;
  }

  /// Whether every line's shared wavefronts are the prediction; Lines gets
  /// their measured sum.
  bool linesWavefrontsAsPredicted(double &Lines) const {
    bool Each = true;
    for (const LineComparison &L : LC.Lines) {
      const double Pred = double(L.PredictedWavefronts.value_or(0));
      Each = Each && std::fabs(Pred - double(L.MeasuredWavefronts)) < 0.5;
      Lines += double(L.MeasuredWavefronts);
    }
    return Each && Lines > 0;
  }

  bool hasAsyncCopies() const {
    for (const Access &A : R.K->Accesses)
      if (A.AsyncPartner >= 0 && R.PerAccess[A.Id].Requests)
        return true;
    return false;
  }

  void explainCount(Row &W) {
    Group G = W.Spec->G;
    bool Shared = isShared(G);
    bool IsRequests = W.Spec->Q == Quantity::Requests;
    double P = *W.C.Predicted, M = W.C.Measured, Delta = P - M;
    if (!IsRequests && Shared && multiBlock() &&
        tolerance::withinContention(P, M))
      return explain(W, contentionText(P, M));
    if (LC.Lines.empty() || (IsRequests && !linesHaveInstructions()))
      return explainFromTotals(W);
    // More shared wavefronts than predicted, where every line's count is
    // the prediction: the rest belongs to no instruction (cuda-samples'
    // dct8x8: 24576 in the per-line counts, 36679 to 37136 in the
    // kernel's shared-store counter over ten identical launches).
    if (!IsRequests && Shared && Delta < 0 && linesHaveInstructions()) {
      double Lines = 0;
      if (linesWavefrontsAsPredicted(Lines))
        return explain(W, "(d) every line's shared wavefronts, loads and "
                          "stores, are as predicted (" +
                              number(Lines) +
                              " in the SASS's per-line counts); "
                              "the kernel counter's " +
                              number(-Delta) +
                              " more belong to no memory instruction of the "
                              "kernel");
    }

    if (!IsRequests && (G == Group::GlobalAtom || G == Group::GlobalRed) &&
        Delta < 0) {
      // L1 counts a global atomic's sectors by its lanes' order as well as
      // their addresses: bench/atomic_mixtures.cu on an H200, RED and ATOM
      // alike, 187 of 193 one-warp layouts as the busiest-address rule (all
      // with lanes in address order), 6 random byte layouts 1 or 2 sectors
      // more, and those with a lane left out up to 3 more
      // (tests/data/measured/atomic_mixtures). Where the SASS's distinct
      // sectors are as predicted on every line and the extra stays within
      // 3 a request, that is the difference.
      double Requests = 0;
      bool LinesAsPredicted = !LC.Lines.empty();
      for (const LineComparison &L : LC.Lines) {
        if (!groupRequests(L, G))
          continue;
        Requests += double(groupRequests(L, G));
        LinesAsPredicted &= L.PredictedSectors &&
                            double(*L.PredictedSectors) == L.MeasuredSectors;
      }
      if (LinesAsPredicted && -Delta <= 3 * Requests)
        return explain(
            W, "(e) L1 counts " + number(-Delta) +
                   " sectors more than the busiest-address rule over " +
                   number(Requests) +
                   " requests, as it does for some lane orders (random "
                   "bytes: up to 3 a request in measured layouts, none in "
                   "address order); every line's distinct sectors are as "
                   "predicted");
    }

    // What each kind of line adds to the difference, in this row's unit.
    auto Of = [&](const LineComparison &L) -> double {
      if (IsRequests)
        return double(groupRequests(L, G));
      return double(groupSum(L, G, &AccessStats::Units));
    };
    auto MeasuredOf = [&](const LineComparison &L) -> double {
      if (IsRequests)
        return double(L.MeasuredInst);
      return double(Shared ? L.MeasuredWavefronts : L.MeasuredSectors);
    };
    auto PredictedOf = [&](const LineComparison &L) -> double {
      if (IsRequests)
        return double(L.PredictedRequests);
      return double(Shared ? L.PredictedWavefronts.value_or(0)
                           : L.PredictedSectors.value_or(0));
    };
    auto NotExecuted = [&](const LineComparison &L) {
      return L.Kind == "not executed" && groupRequests(L, G);
    };
    auto Merged = [&](const LineComparison &L) {
      return L.Kind == "merged" && groupRequests(L, G);
    };
    auto NotPredicted = [](const LineComparison &L) {
      return L.Kind == "not predicted";
    };
    auto Inactive = [&](const LineComparison &L) {
      return L.Kind == "inactive warps" && groupRequests(L, G) &&
             groupRequests(L, G) == L.PredictedRequests;
    };
    double NE = 0, MG = 0, UP = 0, IW = 0;
    for (const LineComparison &L : LC.Lines) {
      if (NotExecuted(L))
        NE += Of(L);
      if (Merged(L))
        MG += PredictedOf(L) - MeasuredOf(L);
      if (NotPredicted(L))
        UP += MeasuredOf(L);
      if (Inactive(L) && IsRequests)
        IW += double(L.MeasuredInst) - PredictedOf(L);
    }
    double Tol = IsRequests || !Shared ? 0.5 : W.C.Tolerance;
    std::string Unit = IsRequests ? " requests"
                       : Shared   ? " wavefronts"
                                  : " sectors";
    auto Num = [](double V) { return std::to_string(uint64_t(V + 0.5)); };
    std::string NEText = where(NotExecuted, [&](const LineComparison &L) {
      return Num(Of(L)) + Unit + " predicted, nothing executed";
    });
    if (Delta > 0 && NE > 0 && std::fabs(NE - Delta) <= Tol)
      return explain(W, "(b) the " + number(Delta) + Unit +
                            " missing are those of lines the GPU did not "
                            "execute: " +
                            NEText);
    if (Delta > 0 && MG > 0 && NE + MG + Tol >= Delta) {
      std::string Text =
          "(a) the compiler merged accesses into wider instructions on " +
          where(Merged, [&](const LineComparison &L) {
            return Num(PredictedOf(L)) + " ->" + " " + Num(MeasuredOf(L)) +
                   (IsRequests ? " instructions" : Unit);
          });
      if (NE > 0)
        Text += "; (b) lines not executed: " + NEText;
      return explain(W, Text);
    }
    if (Delta < 0 && IW > 0 && std::fabs(IW + Delta) <= Tol)
      return explain(W,
                     "(b) the extra" + Unit +
                         " are executions by warps with every lane "
                         "predicated off, which the GPU counts as "
                         "requests with no byte: " +
                         where(Inactive, [&](const LineComparison &L) {
                           return Num(double(L.MeasuredInst) - PredictedOf(L)) +
                                  " such executions";
                         }));
    if (Delta < 0 && UP > 0 && UP + Tol >= -Delta)
      return explain(W, "(b) the extra" + Unit +
                            " come from lines where the model predicts no "
                            "executed access: " +
                            where(NotPredicted, [&](const LineComparison &L) {
                              return Num(MeasuredOf(L)) +
                                     (IsRequests ? " instructions" : Unit);
                            }));
  }

  /// Merging seen in the kernel totals alone (ncu and nvprof exports have
  /// no per-line data): f = predicted / measured requests within what the
  /// access size allows, and the sectors or wavefronts within the bounds
  /// merging f accesses gives.
  void explainFromTotals(Row &W) {
    Group G = W.Spec->G;
    Row *Req = row(G, Quantity::Requests), *Units = row(G, Quantity::Units);
    if (!Req || !Units || !Req->C.Predicted || !Units->C.Predicted)
      return;
    double PR = *Req->C.Predicted, MR = Req->C.Measured;
    double PU = *Units->C.Predicted, MU = Units->C.Measured;
    unsigned Min = minSize(G);
    if (!(MR > 0 && MR < PR && PR * Min <= MR * tolerance::WidestAccess))
      return;
    double F = PR / MR;
    double Tol = Units->C.Tolerance;
    if (!(MU <= PU + Tol && (MU + Tol) * F + 1e-9 >= PU))
      return;
    char Factor[32];
    snprintf(Factor, sizeof Factor, "%.3g", F);
    bool Shared = isShared(G);
    explain(W, "(a) " + number(MR) + " requests measured for " + number(PR) +
                   " predicted (" + Factor + "x fewer) with " + number(MU) +
                   (Shared ? " wavefronts" : " sectors") + " for " +
                   number(PU) + ": the compiler merged " + std::to_string(Min) +
                   "-byte accesses into wider "
                   "instructions (kernel totals; no per-line measurement)");
  }

  std::string contentionText(double P, double M) const {
    char B[160];
    snprintf(
        B, sizeof B,
        "(d) measured %s for %s predicted (%+.1f %%): contention of warps "
        "of several blocks on an SM, a timing effect (a %llu-block launch; "
        "at most %.0f %% above the bank rule, never below)",
        number(M).c_str(), number(P).c_str(), P ? 100.0 * (M - P) / P : 0.0,
        static_cast<unsigned long long>(R.L.Grid.count()),
        100 * tolerance::ContentionBand);
    return B;
  }

  /// Explained when the counts it is computed from are all within tolerance
  /// or explained, at least one explained.
  bool inherit(Row &W, const std::vector<Row *> &Parts) {
    std::string Text;
    bool Any = false;
    for (Row *P : Parts) {
      if (!P)
        continue;
      if (P->C.V == Verdict::Mismatch)
        return false;
      if (P->C.V == Verdict::Explained) {
        Any = true;
        Text += (Text.empty() ? "" : "; ") + P->C.Name + ": " + P->C.Reason;
      }
    }
    if (!Any)
      return false;
    explain(W, "follows from " + Text);
    return true;
  }

  void explainRatio(Row &W) {
    Group G = W.Spec->G;
    double P = *W.C.Predicted, M = W.C.Measured;
    bool Shared = isShared(G);
    if (W.Spec->Q == Quantity::PerRequest) {
      if (Shared && multiBlock() && tolerance::withinContention(P, M))
        return explain(W, contentionText(P, M));
      Row *Req = row(G, Quantity::Requests), *Units = row(G, Quantity::Units);
      if (Req && Units)
        inherit(W, {Req, Units});
      return;
    }
    // Efficiency: bytes over sectors or wavefronts.
    if (Shared) {
      // Contention adds wavefronts, so it lowers the efficiency.
      if (multiBlock() && M > 0 && tolerance::withinContention(M, P))
        return explain(W, contentionText(P, M));
      double Lines = 0;
      if (M < P && hasAsyncCopies() && linesHaveInstructions() &&
          linesWavefrontsAsPredicted(Lines))
        return explain(
            W, "(d) every line's shared wavefronts, the async copies' "
               "included, are as predicted (" +
                   number(Lines) +
                   " in the SASS's per-line counts): the GPU counted fewer "
                   "of the bytes the async copies move (an H200 counted about "
                   "half, a different number each run, for copies ptxas "
                   "predicated in a loop: tests/data/measured/ldgsts)");
      inherit(W, {row(Group::SharedLd, Quantity::Units),
                  row(Group::SharedSt, Quantity::Units)});
      return;
    }
    inherit(W, {row(unitsGroup(G), Quantity::Units)});
  }
};

} // namespace

RowNames rowNamesFor(const Measurement &Ms) {
  return Ms.Tool.compare(0, 6, "nvprof") == 0 ? RowNames::Nvprof
                                              : RowNames::Predicted;
}

LaunchComparison compareLaunch(const MatchedLaunch &Match,
                               const MeasuredLaunch &Measured, LaunchResult R,
                               RowNames Names, bool OwnFlush) {
  LaunchComparison LC;
  LC.Match = Match;
  LC.Measured = &Measured;
  LC.Predicted = std::move(R);
  LC.Lines = compareLines(LC.Predicted, Measured);
  LC.Estimates = compareEstimates(LC.Predicted, Measured, OwnFlush);
  LaunchJudge(LC, Names).run();
  return LC;
}

int comparisonExitCode(const Comparison &C, bool Strict) {
  for (const LaunchComparison &L : C.Launches) {
    if (!L.compared())
      return 1;
    for (const MetricComparison &M : L.Metrics)
      if (M.V == Verdict::Mismatch || (Strict && !M.exact()))
        return 1;
    for (const LineComparison &Line : L.Lines)
      if (Line.V == Verdict::Mismatch || (Strict && !Line.Exact))
        return 1;
    if (L.onlyEstimates() && L.V == Verdict::Mismatch)
      return 1;
  }
  return 0;
}

} // namespace gmem
