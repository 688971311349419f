//===- executed_json.cpp - Executed counts across the recording boundary ----===//
#include "executed_json.h"

#include <nlohmann/json.hpp>
#include <sstream>

namespace gmem {

using nlohmann::json;

namespace {

/// An access's counts as an array; 0 for an access that never ran.
json statsJson(const AccessStats &S) {
  if (!S.Requests && !S.UnknownRequests && !S.UncountedRequests &&
      !S.UnmergedGroups && !S.LocalExecutions && !S.GenericElsewhere &&
      !S.PredicatedOff)
    return 0;
  json Sample = nullptr;
  if (S.Costliest) {
    const WarpSample &W = *S.Costliest;
    json Addr = json::array();
    for (unsigned L = 0; L < 32; ++L)
      Addr.push_back(W.Mask >> L & 1 ? W.Addr[L] : 0);
    Sample = {W.Mask, W.Size, W.Units, W.IdealUnits, W.Order, Addr};
  }
  return json{S.Requests,
              S.ActiveLanes,
              S.Units,
              S.SassUnits,
              S.IdealUnits,
              S.DistinctBytes,
              S.MaxUnitsPerRequest,
              S.MaxWays,
              S.MisalignedLanes,
              S.UnknownRequests,
              S.UncountedRequests,
              S.UnmergedGroups,
              S.HasStride,
              S.Stride,
              S.FirstAddress,
              S.StrideOrder,
              S.UnknownReason,
              int(S.ReasonCause),
              S.ReasonOrder,
              Sample,
              S.LocalExecutions,
              S.GenericElsewhere,
              S.GenericLocalBytes,
              S.PredicatedOff,
              S.BoundedRequests,
              S.MinUnits,
              S.MaxUnits,
              S.GenericGlobalBytes,
              S.AsyncRuled,
              S.BoundedWithBytes,
              S.BoundedBytes,
              S.BoundedWithTraffic,
              S.BoundedTraffic,
              S.SassSlack,
              S.BoundedWithSass,
              S.BoundedSass};
}

AccessStats statsFrom(const json &J) {
  AccessStats S;
  if (!J.is_array())
    return S;
  size_t I = 0;
  auto U = [&]() { return J.at(I++).get<uint64_t>(); };
  S.Requests = U();
  S.ActiveLanes = U();
  S.Units = U();
  S.SassUnits = U();
  S.IdealUnits = U();
  S.DistinctBytes = U();
  S.MaxUnitsPerRequest = U();
  S.MaxWays = U();
  S.MisalignedLanes = U();
  S.UnknownRequests = U();
  S.UncountedRequests = U();
  S.UnmergedGroups = U();
  S.HasStride = J.at(I++).get<bool>();
  S.Stride = J.at(I++).get<int64_t>();
  S.FirstAddress = U();
  S.StrideOrder = U();
  S.UnknownReason = J.at(I++).get<std::string>();
  S.ReasonCause = UnknownCause(J.at(I++).get<int>());
  S.ReasonOrder = U();
  const json &Sample = J.at(I++);
  if (Sample.is_array()) {
    WarpSample W;
    W.Mask = Sample.at(0).get<uint32_t>();
    W.Size = Sample.at(1).get<unsigned>();
    W.Units = Sample.at(2).get<uint64_t>();
    W.IdealUnits = Sample.at(3).get<uint64_t>();
    W.Order = Sample.at(4).get<uint64_t>();
    for (unsigned L = 0; L < 32; ++L)
      W.Addr[L] = Sample.at(5).at(L).get<uint64_t>();
    S.Costliest = W;
  }
  if (I + 2 < J.size()) {
    S.LocalExecutions = U();
    S.GenericElsewhere = U();
    S.GenericLocalBytes = U();
  }
  if (I < J.size())
    S.PredicatedOff = U();
  if (I + 2 < J.size()) {
    S.BoundedRequests = U();
    S.MinUnits = U();
    S.MaxUnits = U();
  }
  if (I < J.size())
    S.GenericGlobalBytes = U();
  if (I < J.size())
    S.AsyncRuled = U();
  if (I + 1 < J.size()) {
    S.BoundedWithBytes = U();
    S.BoundedBytes = U();
  }
  if (I + 1 < J.size()) {
    S.BoundedWithTraffic = U();
    S.BoundedTraffic = U();
  }
  if (I + 2 < J.size()) {
    S.SassSlack = U();
    S.BoundedWithSass = U();
    S.BoundedSass = U();
  }
  return S;
}

} // namespace

std::string countsJson(const ExecutedCounts &C, double Seconds) {
  json Stats = json::array(), Mis = json::array();
  for (const AccessStats &S : C.Stats)
    Stats.push_back(statsJson(S));
  for (const OrderedExample &E : C.Misaligned)
    Mis.push_back(E.Order == ~uint64_t(0)
                      ? json(nullptr)
                      : json{E.Order, E.Where.BlockIdx.X, E.Where.BlockIdx.Y,
                             E.Where.BlockIdx.Z, E.Where.Lane, E.Where.Warp,
                             E.Where.Address});
  json J = {{"finished", C.Out.Finished},
            {"error", C.Out.Error},
            {"seconds", Seconds},
            {"warp_instructions", C.Out.WarpInstructions},
            {"thread_instructions", C.Out.ThreadInstructions},
            {"issue",
             {C.Out.Issued, C.Out.IssuedInLoops, C.Out.PtxInstructions,
              C.Out.PtxInLoops, C.Out.PtxMemoryInLoops}},
            {"uncertain_writes", C.Out.UncertainWrites},
            {"stray_lanes", C.Out.StrayLanes},
            {"first_stray", C.Out.FirstStray},
            {"shared_races", C.Out.SharedRaces},
            {"first_shared_race", C.Out.FirstSharedRace},
            {"runaway", C.Out.Runaway},
            {"stats", Stats},
            {"misaligned", Mis}};
  if (C.Out.Fault != exec::DeviceFault::None)
    J["fault"] = int(C.Out.Fault);
  if (!C.LineOnly.empty()) {
    json Lines = json::array();
    for (const LineShared &L : C.LineOnly)
      Lines.push_back({L.File, L.Line, L.Instructions, L.Wavefronts});
    J["line_only"] = Lines;
  }
  if (!C.Priced)
    J["priced"] = false;
  if (C.L1MissSectors)
    J["l1_miss_sectors"] = *C.L1MissSectors;
  const std::string S = J.dump(-1, ' ', false,
                               json::error_handler_t::replace);
  return S.substr(1, S.size() - 2);
}

Expected<ExecutedCounts> countsFromJson(const std::string &Event) {
  json J = json::parse(Event, nullptr, false);
  if (J.is_discarded() || !J.is_object())
    return Failure{"an exec event that is not JSON"};
  ExecutedCounts C;
  try {
    C.Out.Finished = J.value("finished", false);
    C.Out.Error = J.value("error", std::string());
    C.Out.WarpInstructions = J.value("warp_instructions", uint64_t(0));
    C.Out.ThreadInstructions = J.value("thread_instructions", uint64_t(0));
    if (J.contains("issue")) {
      const auto &I = J.at("issue");
      C.Out.Issued = I.at(0).get<uint64_t>();
      C.Out.IssuedInLoops = I.at(1).get<uint64_t>();
      C.Out.PtxInstructions = I.at(2).get<uint64_t>();
      C.Out.PtxInLoops = I.at(3).get<uint64_t>();
      C.Out.PtxMemoryInLoops = I.at(4).get<uint64_t>();
    }
    if (J.contains("l1_miss_sectors"))
      C.L1MissSectors = J.at("l1_miss_sectors").get<uint64_t>();
    C.Out.UncertainWrites = J.value("uncertain_writes", false);
    C.Seconds = J.value("seconds", 0.0);
    C.Priced = J.value("priced", true);
    C.Out.StrayLanes = J.value("stray_lanes", uint64_t(0));
    C.Out.FirstStray = J.value("first_stray", std::string());
    C.Out.SharedRaces = J.value("shared_races", uint64_t(0));
    C.Out.FirstSharedRace = J.value("first_shared_race", std::string());
    C.Out.Runaway = J.value("runaway", false);
    const int Fault = J.value("fault", 0);
    if (Fault < 0 || Fault > int(exec::DeviceFault::IllegalInstruction))
      return Failure{"an exec event with an unknown fault"};
    C.Out.Fault = exec::DeviceFault(Fault);
    if (J.contains("line_only"))
      for (const json &L : J.at("line_only"))
        C.LineOnly.push_back({L.at(0).get<std::string>(),
                              L.at(1).get<unsigned>(), L.at(2).get<uint64_t>(),
                              L.at(3).get<uint64_t>()});
    if (J.contains("stats"))
      for (const json &S : J.at("stats"))
        C.Stats.push_back(statsFrom(S));
    if (J.contains("misaligned"))
      for (const json &M : J.at("misaligned")) {
        OrderedExample E;
        if (M.is_array()) {
          E.Order = M.at(0).get<uint64_t>();
          E.Where.BlockIdx = {M.at(1).get<uint64_t>(), M.at(2).get<uint64_t>(),
                              M.at(3).get<uint64_t>()};
          E.Where.Lane = M.at(4).get<unsigned>();
          E.Where.Warp = M.at(5).get<unsigned>();
          E.Where.Address = M.at(6).get<uint64_t>();
        }
        C.Misaligned.push_back(E);
      }
  } catch (const json::exception &E) {
    return Failure{std::string("an exec event with a field of the wrong "
                               "shape: ") +
                   E.what()};
  }
  return C;
}

std::string compiledLines(const ExecutedKernel &EK) {
  std::string Out;
  for (const Access &A : EK.K.Accesses) {
    const CompiledForm &C = A.Compiled;
    const ExecutedKernel::Site *S =
        size_t(A.Id) < EK.Sites.size() ? &EK.Sites[size_t(A.Id)] : nullptr;
    const int Sunk = S ? S->SunkAnchor : -1;
    if (C.State != CompiledForm::Merged && C.State != CompiledForm::Reused &&
        C.State != CompiledForm::Split && !C.OneLane && !A.Reduction &&
        !C.Guarded && Sunk < 0)
      continue;
    Out += EK.K.MangledName + " " + std::to_string(A.Id) + " " +
           std::to_string(int(C.State)) + " " + std::to_string(C.Width) +
           " " + std::to_string(C.Leader) + " " + std::to_string(C.Loop) +
           " " + std::to_string(int(C.OneLane)) + " " +
           std::to_string(int(A.Reduction)) + " " +
           std::to_string(C.Parts.size());
    for (unsigned P : C.Parts)
      Out += " " + std::to_string(P);
    Out += " " + std::to_string(int(C.Guarded)) + " " +
           std::to_string(S ? S->Parts : 0) + " " + std::to_string(Sunk) + "\n";
  }
  return Out;
}

void applyCompiledLine(ExecutedKernel &EK, const std::string &Line) {
  std::istringstream In(Line);
  std::string Kernel;
  int Id = -1, State = 0, Leader = -1, Loop = -1, OneLane = 0, Red = 0;
  unsigned Width = 0, NParts = 0;
  if (!(In >> Kernel >> Id >> State >> Width >> Leader >> Loop >> OneLane >>
        Red >> NParts) ||
      Kernel != EK.K.MangledName || Id < 0 ||
      size_t(Id) >= EK.K.Accesses.size() || NParts > 64)
    return;
  std::vector<unsigned> Parts(NParts);
  for (unsigned &P : Parts)
    if (!(In >> P))
      return;
  int Guarded = 0, Sunk = -1;
  unsigned SiteParts = 0;
  In >> Guarded >> SiteParts >> Sunk;
  Access &A = EK.K.Accesses[size_t(Id)];
  if (size_t(Id) < EK.Sites.size()) {
    EK.Sites[size_t(Id)].Parts = SiteParts <= 64 ? SiteParts : 0;
    EK.Sites[size_t(Id)].SunkAnchor =
        Sunk >= 0 && size_t(Sunk) < EK.K.Accesses.size() ? Sunk : -1;
  }
  A.Compiled.Parts = std::move(Parts);
  A.Compiled.State = CompiledForm::StateT(State);
  A.Compiled.Width = Width;
  A.Compiled.Leader = Leader;
  A.Compiled.Loop = Loop;
  A.Compiled.OneLane = OneLane;
  A.Compiled.Guarded = Guarded;
  A.Reduction = Red;
}

} // namespace gmem
