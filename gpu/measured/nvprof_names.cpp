//===- nvprof_names.cpp - What nvprof's CSV and text tables share ---------===//
#include "nvprof_names.h"
#include "csv.h"
#include "importers.h"
#include "metric_catalog.h"

#include <algorithm>
#include <map>
#include <set>

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

/// The metrics nvprof lists (`nvprof --query-metrics`, Fermi to Volta),
/// besides the catalog's: names gmem knows and does not predict.
const std::set<std::string, std::less<>> &otherNvprofMetrics() {
  static const std::set<std::string, std::less<>> Names = {
      "achieved_occupancy", "atomic_replay_overhead", "atomic_throughput",
      "atomic_transactions", "atomic_transactions_per_request",
      "branch_efficiency", "cf_executed", "cf_fu_utilization", "cf_issued",
      "double_precision_fu_utilization", "dram_read_throughput",
      "dram_read_transactions", "dram_utilization", "dram_write_throughput",
      "dram_write_transactions", "ecc_throughput", "ecc_transactions",
      "eligible_warps_per_cycle", "flop_count_dp", "flop_count_dp_add",
      "flop_count_dp_fma", "flop_count_dp_mul", "flop_count_hp",
      "flop_count_hp_add", "flop_count_hp_fma", "flop_count_hp_mul",
      "flop_count_sp", "flop_count_sp_add", "flop_count_sp_fma",
      "flop_count_sp_mul", "flop_count_sp_special", "flop_dp_efficiency",
      "flop_hp_efficiency", "flop_sp_efficiency", "gld_requested_throughput",
      "gld_throughput", "global_atomic_requests", "global_cache_replay_overhead",
      "global_hit_rate", "global_reduction_requests", "global_replay_overhead",
      "gst_requested_throughput", "gst_throughput",
      "half_precision_fu_utilization", "inst_bit_convert", "inst_compute_ld_st",
      "inst_control", "inst_executed", "inst_executed_global_atomics",
      "inst_executed_global_reductions", "inst_executed_local_loads",
      "inst_executed_local_stores", "inst_executed_shared_atomics",
      "inst_executed_surface_atomics", "inst_executed_surface_loads",
      "inst_executed_surface_reductions", "inst_executed_surface_stores",
      "inst_executed_tex_ops", "inst_fp_16", "inst_fp_32", "inst_fp_64",
      "inst_integer", "inst_inter_thread_communication", "inst_issued",
      "inst_misc", "inst_per_warp", "inst_replay_overhead", "ipc",
      "issue_slot_utilization", "issue_slots", "issued_ipc",
      "l1_cache_global_hit_rate", "l1_cache_local_hit_rate",
      "l1_shared_utilization", "l2_atomic_throughput",
      "l2_atomic_transactions", "l2_l1_read_hit_rate", "l2_l1_read_throughput",
      "l2_l1_read_transactions", "l2_l1_write_throughput",
      "l2_l1_write_transactions", "l2_read_throughput", "l2_read_transactions",
      "l2_tex_hit_rate", "l2_tex_read_hit_rate", "l2_tex_read_throughput",
      "l2_tex_read_transactions", "l2_tex_write_hit_rate",
      "l2_tex_write_throughput", "l2_tex_write_transactions",
      "l2_utilization", "l2_write_throughput", "l2_write_transactions",
      "ldst_executed", "ldst_fu_utilization", "ldst_issued", "local_hit_rate",
      "local_load_requests", "local_load_throughput",
      "local_load_transactions", "local_load_transactions_per_request",
      "local_memory_overhead", "local_replay_overhead", "local_store_requests",
      "local_store_throughput", "local_store_transactions",
      "local_store_transactions_per_request", "nc_cache_global_hit_rate",
      "nc_gld_efficiency", "nc_gld_requested_throughput", "nc_gld_throughput",
      "nc_l2_read_throughput", "nc_l2_read_transactions",
      "shared_load_throughput", "shared_replay_overhead",
      "shared_store_throughput", "shared_utilization",
      "single_precision_fu_utilization", "sm_activity", "sm_efficiency",
      "special_fu_utilization", "stall_constant_memory_dependency",
      "stall_exec_dependency", "stall_inst_fetch", "stall_memory_dependency",
      "stall_memory_throttle", "stall_not_selected", "stall_other",
      "stall_pipe_busy", "stall_sleeping", "stall_sync", "stall_texture",
      "surface_atomic_requests", "surface_load_requests",
      "surface_reduction_requests", "surface_store_requests",
      "sysmem_read_bytes", "sysmem_read_throughput",
      "sysmem_read_transactions", "sysmem_read_utilization",
      "sysmem_utilization", "sysmem_write_bytes", "sysmem_write_throughput",
      "sysmem_write_transactions", "sysmem_write_utilization",
      "tex_cache_hit_rate", "tex_cache_throughput", "tex_cache_transactions",
      "tex_fu_utilization", "tex_utilization", "texture_load_requests",
      "unique_warps_launched", "warp_execution_efficiency",
      "warp_nonpred_execution_efficiency"};
  return Names;
}

} // namespace

bool isNvprofMetricName(std::string_view Name) {
  // The catalog's nvprof names, then those gmem does not predict.
  return otherNvprofMetrics().count(Name) ||
         std::any_of(metricCatalog().begin(), metricCatalog().end(),
                     [&](const MetricSpec &S) {
                       return S.Nvprof && Name == S.Nvprof;
                     });
}

std::optional<std::string> nvprofToNsight(std::string_view NvprofName) {
  auto It = nvprofNames().find(NvprofName);
  if (It == nvprofNames().end())
    return std::nullopt;
  return It->second;
}

namespace nvprof {

std::optional<double> parseValue(std::string_view Text) {
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

std::string deviceName(std::string_view Field) {
  size_t Open = Field.rfind(" (");
  if (Open != std::string_view::npos && Field.back() == ')')
    return std::string(Field.substr(0, Open));
  return std::string(Field);
}

std::string computeCapability(std::string_view Device) {
  // The CUDA GPUs list's capability of each product, under nvprof's name.
  static const std::pair<const char *, const char *> Known[] = {
      {"GeForce GTX 560 Ti", "2.1"},  {"GeForce GTX 650 Ti", "3.0"},
      {"Tesla K20m", "3.5"},          {"Tesla K40m", "3.5"},
      {"GeForce GTX 980", "5.2"},     {"Tesla P100-PCIE-16GB", "6.0"},
      {"Quadro P2000", "6.1"},        {"GeForce GTX 1060 6GB", "6.1"},
      {"GeForce GTX 1080 Ti", "6.1"}, {"TITAN Xp", "6.1"},
      {"GeForce GT 1030", "6.1"},     {"Tesla V100-SXM2-16GB", "7.0"},
      {"Tesla V100-DGXS-16GB", "7.0"}};
  for (const auto &[Name, Cc] : Known)
    if (Device == Name)
      return Cc;
  return "";
}

MeasuredLaunch launchFor(const std::string &Demangled, unsigned Index) {
  MeasuredLaunch L;
  L.Index = Index;
  L.Demangled = Demangled;
  if (Demangled.compare(0, 2, "_Z") == 0)
    L.Mangled = Demangled;
  L.Kernel = kernelBaseName(Demangled);
  L.Grid = {0, 0, 0};
  L.Block = {0, 0, 0};
  return L;
}

std::string restoredName(const std::string &Metric) {
  if (Metric.find(' ') == std::string::npos)
    return Metric;
  std::string Joined;
  for (char C : Metric)
    Joined += C == ' ' ? '_' : C;
  return isNvprofMetricName(Joined) ? Joined : Metric;
}

void addMetric(Measurement &M, size_t Launch, const std::string &Metric,
               double Value, unsigned Line) {
  const std::string Name = restoredName(Metric);
  if (Name != Metric) {
    std::string Note = "metric '" + Metric + "' read as " + Name +
                       " (nvprof's name without its underscores)";
    if (std::find(M.Notes.begin(), M.Notes.end(), Note) == M.Notes.end())
      M.Notes.push_back(Note);
  }
  MeasuredLaunch &L = M.Launches[Launch];
  L.Metrics[Name] = Value;
  L.MetricLines.try_emplace(Name, Line);
  if (std::optional<std::string> Nsight = nvprofToNsight(Name))
    L.Metrics[*Nsight] = Value;
}

} // namespace nvprof
} // namespace gmem
