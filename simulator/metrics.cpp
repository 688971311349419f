//===- metrics.cpp - Kernel-level figures ---------------------------------===//
#include "metrics.h"

namespace gmem {

const std::vector<MetricInfo> &metricTable() {
  static const std::vector<MetricInfo> T = {
      {"gld_transactions_per_request", "Global Load Transactions Per Request",
       false, true},
      {"gst_transactions_per_request", "Global Store Transactions Per Request",
       false, true},
      {"gld_efficiency", "Global Memory Load Efficiency", true, true},
      {"gst_efficiency", "Global Memory Store Efficiency", true, true},
      {"shared_load_transactions_per_request",
       "Shared Memory Load Transactions Per Request", false, true},
      {"shared_store_transactions_per_request",
       "Shared Memory Store Transactions Per Request", false, true},
      {"shared_efficiency", "Shared Memory Efficiency", true, true},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
       "Global load requests"},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "Global load sectors"},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
       "Global store requests"},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
       "Global store sectors"},
      {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
       "Global load bytes used per sector", true},
      {"smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
       "Global store bytes used per sector", true},
      {"smsp__sass_inst_executed_op_shared_ld.sum", "Shared load instructions"},
      {"smsp__sass_inst_executed_op_shared_st.sum",
       "Shared store instructions"},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
       "Shared load wavefronts"},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
       "Shared store wavefronts"},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
       "Global atomic requests"},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
       "Global atomic sectors"},
  };
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
};

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

} // namespace

void computeMetrics(LaunchResult &R) {
  Totals GLd, GSt, GAtom, SLd, SSt, SAll;
  for (const Access &A : R.K->Accesses) {
    const AccessStats &S = R.PerAccess[A.Id];
    bool Shared = A.Sp == Space::Shared;
    switch (A.Kind) {
    case AccessKind::Load:
      addTo(Shared ? SLd : GLd, A, S);
      break;
    case AccessKind::Store:
      addTo(Shared ? SSt : GSt, A, S);
      break;
    case AccessKind::Atomic:
      if (!Shared)
        addTo(GAtom, A, S);
      break;
    }
    // Shared atomics move bytes through the banks too (their wavefronts are
    // in the GPU's shared efficiency); they are not modelled, so the
    // efficiency of a kernel with any is unknown.
    if (Shared)
      addTo(SAll, A, S);
  }
  // Requests are counted even for accesses whose addresses are unknown: the
  // instruction count does not depend on the address.
  if (!R.K->UnmodelledGlobal.empty())
    for (Totals *T : {&GLd, &GSt, &GAtom})
      addUnmodelled(*T, R.K->UnmodelledGlobal);
  auto Requests = [](const Totals &T) {
    return T.CountUnknown ? partial(T, double(T.Requests))
                          : known(double(T.Requests));
  };
  auto &M = R.Metrics;
  M["gld_transactions_per_request"] = perRequest(GLd);
  M["gst_transactions_per_request"] = perRequest(GSt);
  M["gld_efficiency"] = ratio(GLd, GLd.Bytes, 32.0 * GLd.Units, 100);
  M["gst_efficiency"] = ratio(GSt, GSt.Bytes, 32.0 * GSt.Units, 100);
  M["shared_load_transactions_per_request"] = perRequest(SLd);
  M["shared_store_transactions_per_request"] = perRequest(SSt);
  M["shared_efficiency"] = ratio(SAll, SAll.Bytes, 128.0 * SAll.Units, 100);
  M["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] = Requests(GLd);
  M["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = count(GLd, GLd.Units);
  M["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"] = Requests(GSt);
  M["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"] = count(GSt, GSt.Units);
  M["smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"] =
      M["gld_efficiency"];
  M["smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct"] =
      M["gst_efficiency"];
  M["smsp__sass_inst_executed_op_shared_ld.sum"] = Requests(SLd);
  M["smsp__sass_inst_executed_op_shared_st.sum"] = Requests(SSt);
  M["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] =
      count(SLd, SLd.Units);
  M["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] =
      count(SSt, SSt.Units);
  M["l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"] = Requests(GAtom);
  M["l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"] =
      count(GAtom, GAtom.Units);
}

} // namespace gmem
