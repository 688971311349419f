//===- metrics.cpp - Kernel-level figures ---------------------------------===//
#include "metrics.h"
#include "arch.h"
#include "metric_catalog.h"

#include <algorithm>

namespace gmem {

const std::vector<MetricInfo> &metricTable() {
  // From the catalog: the nvprof names it fills, then Nsight's.
  static const std::vector<MetricInfo> T = [] {
    std::vector<MetricInfo> Out;
    for (bool Nvprof : {true, false})
      for (const MetricSpec &S : metricCatalog()) {
        bool Fills = S.Fills == Predicted::Both ||
                     S.Fills == (Nvprof ? Predicted::Nvprof : Predicted::Ncu);
        if (Fills)
          Out.push_back({Nvprof ? S.Nvprof : S.Ncu,
                         Nvprof ? S.NvprofText : S.NcuText, S.Percent, Nvprof});
      }
    return Out;
  }();
  return T;
}

namespace {

struct Totals {
  uint64_t Requests = 0, Units = 0, Bytes = 0;
  std::string Unknown; ///< First access that could not be modelled.
  /// Requests left out of Units, and the bounds of their units.
  uint64_t UnknownRequests = 0, MinUnits = 0, MaxUnits = 0;
  bool Bounded = true; ///< Every unknown request has bounds.
  /// Traffic no access stands for (Kernel::UnmodelledGlobal), or accesses
  /// that may or may not run: even the request count is unknown.
  bool CountUnknown = false;
  /// The counts are known but not the bytes the GPU counts: why.
  std::string BytesUnknown;
  /// The device runtime's code adds requests of its own, not counted.
  bool Runtime = false;
  /// The bytes of the bounded requests, where every one's are known.
  uint64_t BoundedBytes = 0;
  bool BoundedBytesKnown = true;
};

/// Generic stores or atomics whose lanes reached shared or local memory:
/// how a GPU counts their bytes was not measured (loads': computeMetrics).
const char *const GenericBytes =
    "a generic store or atomic reached shared or local memory: the GPU "
    "counts bytes of it among both the global and the shared data bytes, in "
    "a way gmem does not model";

void addUnmodelled(Totals &T, const std::string &Why) {
  T.Unknown = Why;
  T.Bounded = false;
  T.CountUnknown = true;
}

void addTo(Totals &T, const Access &A, const AccessStats &S) {
  T.Requests += S.Requests;
  T.Units += S.Units;
  T.Bytes += S.DistinctBytes;
  T.UnknownRequests += S.UnknownRequests;
  T.MinUnits += S.MinUnits;
  T.MaxUnits += S.MaxUnits;
  T.Bounded = T.Bounded && S.bounded();
  T.BoundedBytes += S.BoundedBytes;
  T.BoundedBytesKnown =
      T.BoundedBytesKnown && S.BoundedWithBytes == S.BoundedRequests;
  T.CountUnknown = T.CountUnknown || S.UncountedRequests;
  if (S.UnknownRequests && T.Unknown.empty())
    T.Unknown = A.Loc.File + ":" + std::to_string(A.Loc.Line) + ": " + A.Text +
                ": " + S.UnknownReason;
}

Metric known(double V) { return Metric{V, ""}; }

/// An unknown figure with what is known of it.
Metric partial(const Totals &T, std::optional<double> KnownPart) {
  Metric M{std::nullopt, T.Unknown};
  M.KnownPart = KnownPart;
  M.ExcludedRequests = T.UnknownRequests;
  M.ExcludesRuntime = T.Runtime;
  return M;
}

Metric ratio(const Totals &T, double Num, double Den, double Scale = 1) {
  if (!T.Unknown.empty())
    return partial(T, Den > 0 ? std::optional<double>(Scale * Num / Den)
                              : std::nullopt);
  return known(Den > 0 ? Scale * Num / Den : 0.0);
}

/// Units per request: bounded when every unknown request is.
Metric perRequest(const Totals &T) {
  if (T.Unknown.empty())
    return known(T.Requests ? double(T.Units) / T.Requests : 0.0);
  uint64_t Known = T.Requests - T.UnknownRequests;
  Metric M = partial(T, Known ? std::optional<double>(double(T.Units) / Known)
                              : std::nullopt);
  if (T.Bounded && T.Requests) {
    M.Min = double(T.Units + T.MinUnits) / T.Requests;
    M.Max = double(T.Units + T.MaxUnits) / T.Requests;
  }
  return M;
}

Metric count(const Totals &T, uint64_t V) {
  if (T.Unknown.empty())
    return known(double(V));
  Metric M = partial(T, double(V));
  if (T.Bounded) {
    M.Min = double(V + T.MinUnits);
    M.Max = double(V + T.MaxUnits);
  }
  return M;
}

/// The totals an access (or a SASS instruction of its kind) enters: null
/// for the shared side of an async copy and shared atomics, which no load
/// or store figure counts.
Totals *groupOf(Space Sp, AccessKind Kind, bool Reduction, bool Async,
                Totals *Of[]) {
  const bool Shared = Sp == Space::Shared;
  if (Async)
    return Shared ? nullptr : Of[int(MetricGroup::AsyncLd)];
  switch (Kind) {
  case AccessKind::Load:
    return Of[int(Shared ? MetricGroup::SharedLd : MetricGroup::GlobalLd)];
  case AccessKind::Store:
    return Of[int(Shared ? MetricGroup::SharedSt : MetricGroup::GlobalSt)];
  case AccessKind::Atomic:
    return Shared ? nullptr
                  : Of[int(Reduction ? MetricGroup::GlobalRed
                                     : MetricGroup::GlobalAtom)];
  }
  return nullptr;
}

void addTotals(Totals &T, const Totals &O) {
  T.Requests += O.Requests;
  T.Units += O.Units;
  T.Bytes += O.Bytes;
  T.UnknownRequests += O.UnknownRequests;
  T.MinUnits += O.MinUnits;
  T.MaxUnits += O.MaxUnits;
  T.Bounded = T.Bounded && O.Bounded;
  T.BoundedBytes += O.BoundedBytes;
  T.BoundedBytesKnown = T.BoundedBytesKnown && O.BoundedBytesKnown;
  T.CountUnknown = T.CountUnknown || O.CountUnknown;
  T.Runtime = T.Runtime || O.Runtime;
  if (T.BytesUnknown.empty())
    T.BytesUnknown = O.BytesUnknown;
  if (T.Unknown.empty())
    T.Unknown = O.Unknown;
}

} // namespace

void withdrawFigures(LaunchResult &R) {
  for (AccessStats &S : R.PerAccess) {
    S = AccessStats();
    S.UnknownRequests = 1;
    S.UnknownReason = R.Incomplete;
  }
  for (auto &[Name, Value] : R.Metrics)
    Value = Metric{std::nullopt, R.Incomplete};
}

void computeMetrics(LaunchResult &R) {
  const ArchRules &Rules = archOrDefault(R.Arch);
  // One Totals per MetricGroup but Other.
  constexpr int NumGroups = int(MetricGroup::Other);
  Totals Groups[NumGroups];
  Totals *Of[NumGroups];
  for (int I = 0; I < NumGroups; ++I)
    Of[I] = &Groups[I];
  Totals &SAll = Groups[int(MetricGroup::SharedAll)];
  for (const Access &A : R.K->Accesses) {
    const AccessStats &S = R.PerAccess[A.Id];
    const bool Async = A.AsyncPartner >= 0;
    if (Totals *T = groupOf(A.Sp, A.Kind, A.Reduction, Async, Of)) {
      addTo(*T, A, S);
      if (A.Matrix) // LDSM, STSM: wavefronts, but no instruction counted.
        T->Requests -= S.Requests;
    }
    // Shared atomics move bytes through the banks too (their wavefronts are
    // in the GPU's shared efficiency); they are not modelled, so the
    // efficiency of a kernel with any is unknown. So do async copies'
    // shared sides, where priced from both sides' addresses (an H200
    // measured LDS and LDGSTS bytes over both's wavefronts: 40 % for a
    // 4-byte gather of 16 sectors, tests/data/measured/async_copy.json).
    if (A.Sp == Space::Shared && (!Async || !asyncWavefrontsUnknown(A, S)))
      addTo(SAll, A, S);
    // A generic load's bytes in shared memory count among the global load
    // bytes too, and its lanes in local memory, which present one generic
    // address per local offset, in both (an H200: HeCBench's
    // rowwiseMoments, 8448 bytes more in each for 5120 in shared lanes
    // and 3328 executions of 1-byte loads with local lanes; and
    // tests/data/programs/hecbench2_own/shared_or_local.cu, 8192 for 4096
    // and 1024 of 4-byte ones).
    if (S.GenericElsewhere && A.Kind == AccessKind::Load) {
      Totals &G = *Of[int(MetricGroup::GlobalLd)];
      G.Bytes += A.Sp == Space::Shared ? S.DistinctBytes : S.GenericLocalBytes;
      if (A.Sp != Space::Shared)
        SAll.Bytes += S.GenericLocalBytes;
    } else if (S.GenericElsewhere) {
      if (A.Kind == AccessKind::Store)
        Of[int(MetricGroup::GlobalSt)]->BytesUnknown = GenericBytes;
      SAll.BytesUnknown = GenericBytes;
    }
    // And a generic load's or store's bytes in global memory count among
    // the shared data bytes (an H200: heapBlockBuffer of
    // tests/data/programs/runtime_own/device_runtime.cu, whose heap block
    // is reached through a pointer in shared memory, measured its shared
    // efficiency at 184 %, its 256 generic requests' 32768 bytes beside
    // 1152 of shared loads and stores over 144 wavefronts).
    if (A.Kind != AccessKind::Atomic) {
      SAll.Bytes += S.GenericGlobalBytes;
      // Where its count is not known (a spin-wait's polls, as timing
      // decides: CUB's decoupled look-back), neither are those bytes, and
      // the shared efficiency with them (an H200 measured CUB's flagged
      // select sweep at 7.07 %, where the executor's polls make 6.08).
      if (S.GenericGlobalBytes && S.UncountedRequests && SAll.Unknown.empty())
        SAll.Unknown = A.Loc.File + ":" + std::to_string(A.Loc.Line) + ": " +
                       A.Text +
                       ": its generic bytes in global memory count "
                       "among the shared data bytes, and " +
                       S.UnknownReason;
    }
    // Priced as plain stores (the kernel model's warps see one side), they
    // are not the GPU's.
    if (asyncWavefrontsUnknown(A, S))
      addUnmodelled(SAll, A.Loc.File + ":" + std::to_string(A.Loc.Line) + ": " +
                              A.Text +
                              ": the shared side of an async copy, whose "
                              "wavefronts follow where each lane reads as "
                              "well as where it writes: the model's warps "
                              "see one side (the executed PTX pairs them)");
  }
  // SASS instructions no access stands for: their figures are unknown.
  for (const SassAccount::UnclaimedInstr &U : R.K->Sass.Unclaimed) {
    std::string Why =
        "the SASS instruction " + U.Opcode +
        (U.Loc.Line ? " on " + U.Loc.File + ":" + std::to_string(U.Loc.Line)
                    : std::string(" (no line in the line table)")) +
        " stands for no access of the model";
    if (Totals *T = groupOf(U.Sp, U.Kind, U.Reduction, U.Async, Of))
      addUnmodelled(*T, Why);
    if (U.Sp == Space::Shared || U.Async)
      addUnmodelled(SAll, Why);
  }
  // L1 counts async copies' global sides among the global loads.
  Groups[int(MetricGroup::GlobalLdAll)] = Groups[int(MetricGroup::GlobalLd)];
  addTotals(Groups[int(MetricGroup::GlobalLdAll)],
            Groups[int(MetricGroup::AsyncLd)]);
  // The device runtime's calls (printf, malloc, free) run the driver's code,
  // whose requests L1's counters see and the SASS counters of the kernel's
  // own instructions, behind the efficiencies, do not (an H200:
  // globalVariable's printf added 146 load and 215 store requests and no
  // instruction; tests/data/measured/runtime_own).
  Totals Seen[NumGroups];
  std::copy(Groups, Groups + NumGroups, Seen);
  if (!R.K->UnmodelledGlobal.empty())
    for (MetricGroup G : {MetricGroup::GlobalLd, MetricGroup::GlobalLdAll,
                          MetricGroup::GlobalSt, MetricGroup::GlobalAtom,
                          MetricGroup::GlobalRed, MetricGroup::AsyncLd}) {
      addUnmodelled(Groups[int(G)], R.K->UnmodelledGlobal);
      Groups[int(G)].Runtime = true;
    }
  auto Requests = [](const Totals &T) {
    return T.CountUnknown ? partial(T, double(T.Requests))
                          : known(double(T.Requests));
  };
  // Every quantity the catalog says the simulator fills, under its names.
  for (const MetricSpec &S : metricCatalog()) {
    if (S.Fills == Predicted::No || S.Group == MetricGroup::Other)
      continue;
    // Efficiencies and the executed LDGSTS count only the kernel's own SASS
    // instructions: the runtime's unmodelled requests do not reach them.
    const bool Sass = S.Quantity == MetricQuantity::Efficiency ||
                      (S.Group == MetricGroup::AsyncLd &&
                       S.Quantity == MetricQuantity::Requests);
    const Totals &T = Sass ? Seen[int(S.Group)] : *Of[int(S.Group)];
    Metric V;
    switch (S.Quantity) {
    case MetricQuantity::Requests:
      V = Requests(T);
      break;
    case MetricQuantity::Units:
      V = count(T, T.Units);
      break;
    case MetricQuantity::PerRequest:
      V = perRequest(T);
      break;
    case MetricQuantity::Efficiency: {
      // The bytes a unit can carry: a sector or line, a shared wavefront.
      double Unit = S.Group == MetricGroup::SharedAll ? Rules.BankRowBytes
                    : S.Group == MetricGroup::GlobalLd ||
                            S.Group == MetricGroup::GlobalLdAll
                        ? Rules.LoadTransactionBytes
                        : Rules.TransactionBytes;
      V = T.Unknown.empty() && !T.BytesUnknown.empty()
              ? Metric{std::nullopt, T.BytesUnknown}
              : ratio(T, T.Bytes, Unit * T.Units, 100);
      // Bounded requests whose bytes are known (an async copy's shared
      // side): the efficiency lies between their most and fewest units'.
      if (!V.Value && T.Bounded && T.BoundedBytesKnown && T.UnknownRequests &&
          !T.CountUnknown && T.BytesUnknown.empty()) {
        const double Bytes = 100.0 * double(T.Bytes + T.BoundedBytes);
        V.Min = Bytes / (Unit * double(T.Units + T.MaxUnits));
        if (T.Units + T.MinUnits)
          V.Max = Bytes / (Unit * double(T.Units + T.MinUnits));
      }
      break;
    }
    case MetricQuantity::Other:
      continue;
    }
    if (S.Fills != Predicted::Nvprof)
      R.Metrics[S.Ncu] = V;
    if (S.Fills == Predicted::Nvprof || S.Fills == Predicted::Both)
      R.Metrics[S.Nvprof] = V;
  }
}

} // namespace gmem
