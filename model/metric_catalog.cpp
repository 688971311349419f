//===- metric_catalog.cpp - Every metric gmem names, in one table ---------===//
//
// Nsight Compute's names and formulas: its metrics reference and
// ../shared/reference/gpu-metrics.md; nvprof's: the nvprof metrics
// reference (on Maxwell and later, its global "transactions" are 32-byte
// sectors and its shared ones wavefronts).
//
//===----------------------------------------------------------------------===//
#include "metric_catalog.h"

namespace gmem {

namespace {

using G = MetricGroup;
using Q = MetricQuantity;
using T = MetricTolerance;
using P = Predicted;

MetricSpec row(const char *Ncu, const char *Nvprof, const char *NcuText,
               const char *NvprofText, const char *Formula, G Group, Q Quantity,
               T Tol, bool Percent, P Fills, bool Collected) {
  MetricSpec S;
  S.Ncu = Ncu;
  S.Nvprof = Nvprof;
  S.NcuText = NcuText;
  S.NvprofText = NvprofText;
  S.Formula = Formula;
  S.Group = Group;
  S.Quantity = Quantity;
  S.Tolerance = Tol;
  S.Percent = Percent;
  S.Fills = Fills;
  S.Collected = Collected;
  return S;
}

MetricSpec traffic(MetricSpec S) {
  S.Traffic = true;
  return S;
}

} // namespace

const std::vector<MetricSpec> &metricCatalog() {
  static const std::vector<MetricSpec> C = {
      row("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
          "global_load_requests", "Global load requests", "",
          "warp-level global load instructions with an active lane, async "
          "copies to shared memory (LDGSTS) included",
          G::GlobalLdAll, Q::Requests, T::Exact, false, P::Ncu, true),
      row("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "gld_transactions",
          "Global load sectors", "",
          "distinct 32-byte sectors per request, summed (LDGSTS included)",
          G::GlobalLdAll, Q::Units, T::Exact, false, P::Ncu, true),
      row("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld."
          "ratio",
          "gld_transactions_per_request", "",
          "Global Load Transactions Per Request", "sectors / requests",
          G::GlobalLdAll, Q::PerRequest, T::Printed, false, P::Nvprof, false),
      row("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
          "global_store_requests", "Global store requests", "",
          "warp-level global store instructions with an active lane",
          G::GlobalSt, Q::Requests, T::Exact, false, P::Ncu, true),
      row("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "gst_transactions",
          "Global store sectors", "",
          "distinct 32-byte sectors per request, summed", G::GlobalSt, Q::Units,
          T::Exact, false, P::Ncu, true),
      row("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st."
          "ratio",
          "gst_transactions_per_request", "",
          "Global Store Transactions Per Request", "sectors / requests",
          G::GlobalSt, Q::PerRequest, T::Printed, false, P::Nvprof, false),
      row("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct",
          "gld_efficiency", "Global load bytes used per sector",
          "Global Memory Load Efficiency",
          "100 x distinct bytes asked for / (32 x sectors), LDG only",
          G::GlobalLd, Q::Efficiency, T::Printed, true, P::Both, true),
      row("smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct",
          "gst_efficiency", "Global store bytes used per sector",
          "Global Memory Store Efficiency",
          "100 x distinct bytes asked for / (32 x sectors)", G::GlobalSt,
          Q::Efficiency, T::Printed, true, P::Both, true),
      row("smsp__sass_inst_executed_op_shared_ld.sum",
          "inst_executed_shared_loads", "Shared load instructions", "",
          "warp-level shared load instructions executed", G::SharedLd,
          Q::Requests, T::Exact, false, P::Ncu, true),
      row("smsp__sass_inst_executed_op_shared_st.sum",
          "inst_executed_shared_stores", "Shared store instructions", "",
          "warp-level shared store instructions executed", G::SharedSt,
          Q::Requests, T::Exact, false, P::Ncu, true),
      row("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
          "shared_load_transactions", "Shared load wavefronts", "",
          "wavefronts per request (bank conflicts serialise), summed",
          G::SharedLd, Q::Units, T::SharedTotal, false, P::Ncu, true),
      row("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
          "shared_store_transactions", "Shared store wavefronts", "",
          "wavefronts per request (bank conflicts serialise), summed",
          G::SharedSt, Q::Units, T::SharedTotal, false, P::Ncu, true),
      row(nullptr, "shared_load_transactions_per_request", "",
          "Shared Memory Load Transactions Per Request",
          "wavefronts / instructions", G::SharedLd, Q::PerRequest,
          T::SharedPerRequest, false, P::Nvprof, false),
      row(nullptr, "shared_store_transactions_per_request", "",
          "Shared Memory Store Transactions Per Request",
          "wavefronts / instructions", G::SharedSt, Q::PerRequest,
          T::SharedPerRequest, false, P::Nvprof, false),
      row("smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct",
          "shared_efficiency", "", "Shared Memory Efficiency",
          "100 x distinct bytes asked for / (128 x wavefronts)", G::SharedAll,
          Q::Efficiency, T::SharedEfficiency, true, P::Nvprof, true),
      row("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", nullptr,
          "Global atomic requests", "",
          "warp-level global atomics (ATOMG) with an active lane",
          G::GlobalAtom, Q::Requests, T::Exact, false, P::Ncu, true),
      row("l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", nullptr,
          "Global atomic sectors", "",
          "per request, the sum over its sectors of the most lanes on one "
          "address in that sector (lanes on one address are served in turn)",
          G::GlobalAtom, Q::Units, T::Exact, false, P::Ncu, true),
      row("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", nullptr,
          "Global reduction requests", "",
          "warp-level global atomics whose value is unused (REDG)",
          G::GlobalRed, Q::Requests, T::Exact, false, P::Ncu, true),
      row("l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", nullptr,
          "Global reduction sectors", "",
          "per request, the sum over its sectors of the most lanes on one "
          "address in that sector",
          G::GlobalRed, Q::Units, T::Exact, false, P::Ncu, true),
      row("smsp__sass_inst_executed_op_ldgsts.sum", nullptr,
          "Async copy instructions", "",
          "warp-level global-to-shared copies (LDGSTS) executed", G::AsyncLd,
          Q::Requests, T::Exact, false, P::Ncu, true),
      // Measured only: what gmem-verify also records, or nvprof exports.
      row("smsp__sass_data_bytes_mem_global_op_ld.sum", nullptr,
          "Global load bytes asked for", "", "", G::GlobalLd, Q::Other,
          T::Exact, false, P::No, true),
      row("smsp__sass_data_bytes_mem_global_op_st.sum", nullptr,
          "Global store bytes asked for", "", "", G::GlobalSt, Q::Other,
          T::Exact, false, P::No, true),
      row("smsp__sass_inst_executed_op_global_ld.sum",
          "inst_executed_global_loads", "Global load instructions", "", "",
          G::GlobalLd, Q::Other, T::Exact, false, P::No, true),
      row("smsp__sass_inst_executed_op_global_st.sum",
          "inst_executed_global_stores", "Global store instructions", "", "",
          G::GlobalSt, Q::Other, T::Exact, false, P::No, true),
      row("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", nullptr,
          "Shared load bank conflicts", "", "", G::SharedLd, Q::Other, T::Exact,
          false, P::No, true),
      row("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", nullptr,
          "Shared store bank conflicts", "", "", G::SharedSt, Q::Other,
          T::Exact, false, P::No, true),
      // The traffic run's figures (estimates, not counts: compare.h).
      traffic(row("gpu__time_duration.sum", nullptr, "Kernel duration (ns)", "",
                  "", G::Other, Q::Other, T::Exact, false, P::No, false)),
      traffic(row("dram__bytes_read.sum", "dram_read_bytes", "DRAM bytes read",
                  "", "", G::Other, Q::Other, T::Exact, false, P::No, false)),
      traffic(row("dram__bytes_write.sum", "dram_write_bytes",
                  "DRAM bytes written", "", "", G::Other, Q::Other, T::Exact,
                  false, P::No, false)),
      traffic(row("lts__t_sectors_op_read.sum", nullptr, "L2 sectors read", "",
                  "", G::Other, Q::Other, T::Exact, false, P::No, false)),
      traffic(row("lts__t_sectors_op_write.sum", nullptr, "L2 sectors written",
                  "", "", G::Other, Q::Other, T::Exact, false, P::No, false)),
      traffic(row("lts__t_sectors_op_atom.sum", nullptr,
                  "L2 sectors of atomics", "", "", G::Other, Q::Other, T::Exact,
                  false, P::No, false)),
      traffic(row("lts__t_sectors_op_red.sum", nullptr,
                  "L2 sectors of reductions", "", "", G::Other, Q::Other,
                  T::Exact, false, P::No, false)),
      // The SM clock during the launch: gmem-verify leaves the clocks as
      // they are (Nsight Compute locks them to base), so the duration is
      // predicted at this clock.
      traffic(row("sm__cycles_elapsed.avg.per_second", nullptr,
                  "SM clock during the launch (Hz)", "", "", G::Other, Q::Other,
                  T::Exact, false, P::No, false)),
  };
  return C;
}

const MetricSpec *findMetric(std::string_view Name) {
  for (const MetricSpec &S : metricCatalog())
    if ((S.Ncu && Name == S.Ncu) || (S.Nvprof && Name == S.Nvprof))
      return &S;
  return nullptr;
}

} // namespace gmem
