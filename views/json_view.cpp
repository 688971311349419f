//===- json_view.cpp - The result as data ---------------------------------===//
//
// {"file": ..., "warnings": [...], "launches": [{"kernel", "grid", "block",
//  "dynamic_smem", "args", "loc", "caveat" (recorded runs), "origin" (read
//  from the host code after a recorded run stopped), "arch", "warps",
//  "warps_evaluated", "warps_derived", "count", "metrics": {name: value or
//  null}, "unknown_metrics": {name: reason}, "metric_bounds": {name: {"min",
//  "max", "known_part", "excluded_requests", "excludes_runtime_requests"}},
//  "accesses": [...],
//  "diagnostics": [...]}]}
//
//===----------------------------------------------------------------------===//
#include "arch.h"
#include "model_json.h"
#include "views.h"

namespace gmem {

using nlohmann::json;

nlohmann::json launchJson(const LaunchResult &R) {
  const ArchRules &Rules = archOrDefault(R.Arch);
  json L = toJson(R.L);
  json Metrics = json::object(), Unknown = json::object(),
       Bounds = json::object();
  auto Opt = [](const std::optional<double> &V) {
    return V ? json(*V) : json(nullptr);
  };
  for (const auto &[Name, M] : R.Metrics) {
    Metrics[Name] = M.Value ? json(*M.Value) : json(nullptr);
    if (M.Value)
      continue;
    Unknown[Name] = M.UnknownReason;
    Bounds[Name] = {{"min", Opt(M.Min)},
                    {"max", Opt(M.Max)},
                    {"known_part", Opt(M.KnownPart)},
                    {"excluded_requests", M.ExcludedRequests},
                    {"excludes_runtime_requests", M.ExcludesRuntime}};
  }
  json Accesses = json::array();
  for (const Access &A : R.K->Accesses) {
    const AccessStats &S = R.PerAccess[A.Id];
    bool Shared = A.Sp == Space::Shared;
    bool Known = costKnown(A, S);
    const unsigned Unit = Rules.unitBytes(A);
    json X = {
        {"id", A.Id},
        {"file", A.Loc.File},
        {"line", A.Loc.Line},
        {"col", A.Loc.Col},
        {"text", A.Text},
        {"array", A.Array},
        {"op", opWord(A)},
        {"space", Shared ? "shared" : "global"},
        {"size", A.Size},
        {"requests", S.Requests},
        {"active_lanes", S.ActiveLanes},
        {Shared ? "wavefronts" : "sectors", Known ? json(S.Units) : json()},
        {Shared ? "ideal_wavefronts" : "ideal_sectors",
         Known ? json(S.IdealUnits) : json()},
        {"per_request", Known ? json(S.perRequest()) : json()},
        {"efficiency_pct",
         Known && S.Units ? json(S.efficiencyPct(Unit)) : json()},
        {"conflict_ways", Shared && Known ? json(S.MaxWays) : json()},
        {"explanation", explainAccess(A, S)},
    };
    if (!Known)
      X["unknown_reason"] =
          S.UnknownRequests ? S.UnknownReason : std::string(AsyncSharedSide);
    if (S.UnknownRequests)
      X["unknown_cause"] = causeName(S.ReasonCause);
    if (A.Kind == AccessKind::Atomic)
      X["reduction"] = A.Reduction;
    if (A.AsyncPartner >= 0)
      X["async_partner"] = A.AsyncPartner;
    if (A.Compiled.State != CompiledForm::Unchecked) {
      X["compiled"] = toJson(A.Compiled);
      X["compiled"]["explanation"] =
          explainCompiled(A, S, R.Path == "executed");
      if (S.UnmergedGroups)
        X["compiled"]["unmerged_groups"] = S.UnmergedGroups;
    }
    if (!Known) {
      X["unknown_requests"] = S.UnknownRequests;
      if (S.atLeast()) // Timing decides how many more a GPU makes.
        X["requests"] = {{"min", S.Requests}};
      else if (S.UncountedRequests)
        X["requests"] = json(); // Some executions may not happen.
      if (S.bounded() && S.Requests) {
        // The known requests' units plus the others' proven bounds.
        uint64_t Lo = S.Units + S.MinUnits, Hi = S.Units + S.MaxUnits;
        X[Shared ? "wavefronts" : "sectors"] = {{"min", Lo}, {"max", Hi}};
        X["per_request"] = {{"min", double(Lo) / S.Requests},
                            {"max", double(Hi) / S.Requests}};
      }
    }
    if (A.Sp == Space::Global && Known)
      X["excessive_sectors"] =
          S.Units > S.IdealUnits ? S.Units - S.IdealUnits : 0;
    if (S.OutOfBoundsLanes)
      X["out_of_bounds_lanes"] = S.OutOfBoundsLanes;
    if (S.LocalExecutions)
      X["local_executions"] = S.LocalExecutions;
    if (S.PredicatedOff)
      X["predicated_off"] = S.PredicatedOff;
    if (S.OverflowRequests)
      X["address_overflow_requests"] = S.OverflowRequests;
    Accesses.push_back(X);
  }
  L["kernel"] = R.K->Name;
  L["arch"] = R.Arch;
  const ExcessSectors E = excessSectors(R);
  L["excessive_sectors"] =
      E.Known ? json{{"load", E.Load}, {"store", E.Store}} : json();
  if (R.K->Sass.Read) {
    L["sass"] = toJson(R.K->Sass);
    L["sass"]["summary"] = explainSass(R.K->Sass);
  }
  L["path"] = R.Path;
  if (!R.PathWhy.empty())
    L["path_why"] = R.PathWhy;
  if (R.Path == "executed") {
    L["thread_instructions"] = R.ThreadInstructions;
    L["execution_seconds"] = R.ExecSeconds;
  }
  if (R.Issue)
    L["ptx_issue"] = {{"warp_instructions", R.Issue->Issued},
                      {"in_loops", R.Issue->IssuedInLoops},
                      {"kernel_instructions", R.Issue->Static},
                      {"kernel_instructions_in_loops", R.Issue->StaticInLoops},
                      {"kernel_memory_in_loops", R.Issue->StaticMemoryInLoops}};
  if (R.SassWarpInstructions)
    L["sass_warp_instructions"] = *R.SassWarpInstructions;
  L["warps"] = R.Warps;
  L["warps_evaluated"] = R.WarpsEvaluated;
  L["warps_derived"] = R.WarpsDerived;
  if (!R.Incomplete.empty())
    L["incomplete"] = R.Incomplete;
  L["count"] = R.Count;
  if (R.Dram) {
    const DramTraffic &D = *R.Dram;
    json J = {{"board", D.Board},
              {"known", D.Known},
              {"caches", D.Warm ? "warm: what the reported launches before "
                                  "it and the host's copies left in L2"
                                : "flushed before the launch, as Nsight "
                                  "Compute does"},
              {"l2_bytes", D.L2Bytes},
              {"dram_bytes_per_second", D.DramBytesPerSecond}};
    if (D.Known || D.Bounded) {
      J[D.Known ? "read_bytes" : "read_bytes_at_most"] = D.ReadBytes;
      J[D.Known ? "write_bytes" : "write_bytes_at_most"] = D.WriteBytes;
      J["launch_bytes"] = D.LaunchBytes;
    }
    if (D.Known) {
      J["footprint_bytes"] = D.Footprint;
      if (D.Warm && R.Count > 1) {
        J["repeat_read_bytes"] = D.RepeatReadBytes;
        J["repeat_write_bytes"] = D.RepeatWriteBytes;
      }
      J["reads"] = D.ReadCounted ? "counted over every block"
                                 : "per buffer, from its sectors and size";
      J["min_seconds"] = D.minSeconds();
    } else {
      J["why"] = D.Why;
    }
    L["dram"] = J;
  }
  if (R.L2) {
    const L2Traffic &T = *R.L2;
    json J = {{"known", T.Known}};
    if (T.Known) {
      J["l1_miss_sectors"] = T.MissSectors;
      J["store_sectors"] = T.StoreSectors;
      J["atomic_sectors"] = T.AtomicSectors;
      J["reduction_sectors"] = T.ReductionSectors;
      J["sampled_blocks"] = T.SampledBlocks;
      J["every_block"] = T.EveryBlock;
      J["lts__t_sectors_op_read.sum"] = T.ReadSectors;
      J["lts__t_sectors_op_write.sum"] = T.WriteSectors;
    } else {
      J["why"] = T.Why;
    }
    L["l2"] = J;
  }
  if (R.Time) {
    const LaunchTime &T = *R.Time;
    json J = {
        {"known", T.Known}, {"clock_hz", T.ClockHz}, {"clock", T.ClockWhy}};
    if (T.SharedWavefronts)
      J["shared_contention"] = {
          {"wavefronts", T.SharedWavefronts},
          {"wavefronts_at_most", T.SharedWavefrontsAtMost},
          {"why", T.SharedContention}};
    if (T.Known) {
      J["seconds"] = T.Seconds;
      J["limit"] = T.Limit;
      J["bounds"] = json::array();
      for (const LaunchTime::Bound &B : T.Bounds)
        J["bounds"].push_back(
            {{"unit", B.Unit}, {"seconds", B.Seconds}, {"work", B.Work}});
      if (!T.Unpriced.empty())
        J["unpriced"] = T.Unpriced;
      J["requested_bytes"] = T.RequestedBytes;
      J["effective_bytes_per_second"] = T.RequestedBytes / T.Seconds;
    } else {
      if (T.Bounded) {
        J["seconds_at_least"] = T.Seconds;
        J["seconds_at_most"] = T.UpperSeconds;
      }
      J["why"] = T.Why;
    }
    L["time"] = J;
  }

  L["metrics"] = Metrics;
  if (!Unknown.empty()) {
    L["unknown_metrics"] = Unknown;
    L["metric_bounds"] = Bounds;
  }
  L["accesses"] = Accesses;
  L["diagnostics"] = R.Diagnostics;
  return L;
}

void printJsonView(const Report &Rep, std::ostream &OS) {
  json Launches = json::array();
  for (size_t I = 0; I < Rep.Launches.size(); ++I) {
    json L = launchJson(Rep.Launches[I]);
    // The checked remedy, as the text view and the findings give it.
    for (json &X : L["accesses"])
      X["advice"] = adviceFor(
          Rep, I, Rep.Launches[I].K->Accesses[X["id"].get<size_t>()]);
    Launches.push_back(std::move(L));
  }
  json NotLaunched = json::array();
  for (const auto &[Name, Loc] : Rep.NotLaunched)
    NotLaunched.push_back(
        {{"kernel", Name}, {"file", Loc.File}, {"line", Loc.Line}});
  json J = {{"file", Rep.File},
            {"compiler", toJson(Rep.Compiler)},
            {"warnings", Rep.Warnings},
            {"launches", Launches},
            {"kernels_not_launched", NotLaunched}};
  OS << J.dump(2) << "\n";
}

} // namespace gmem
