//===- coalescing.cpp - Uncoalesced global accesses -----------------------===//
//
// The remedy it checks: swapping the roles of x and y (swapXY), re-simulated.
// It is offered as a fix only when this access gets cheaper and no other
// access gets dearer; when the swap only moves the cost (a transpose), a
// note says where it goes.
//
//===----------------------------------------------------------------------===//
#include "coalescing.h"

#include "explain.h"
#include "resim.h"
#include "simulate.h"

namespace gmem {

static std::string dims(const Dim3 &D) {
  return std::to_string(D.X) + "x" + std::to_string(D.Y) +
         (D.Z > 1 ? "x" + std::to_string(D.Z) : "");
}

static void trySwap(const RuleContext &C, const Access &A, Diagnostic &D) {
  const Launch &L = C.R.L;
  if (L.Block.Y < 2)
    return; // No y to swap with.
  Kernel SK = swapXY(C.K);
  Launch SL = swapXY(L);
  if (!validateLaunch(SK, SL, C.Arch))
    return;
  // Both the original and the swapped kernel over the same blocks.
  LaunchResult Base = resimulate(C.K, L, C), S = resimulate(SK, SL, C);
  const AccessStats &Old = Base.PerAccess[A.Id], &New = S.PerAccess[A.Id];
  if (New.UnknownRequests || New.perRequest() >= Old.perRequest())
    return;
  std::string How = "swap the roles of threadIdx.x and threadIdx.y (and of "
                    "blockIdx, blockDim and gridDim's x and y; block " +
                    dims(L.Block) + " becomes " + dims(SL.Block) + ")";
  std::string Gain = "this " + opText(A) + " takes " +
                     figure(New.perRequest()) + " sectors per request (from " +
                     figure(Old.perRequest()) + ")";
  for (const Access &O : C.K.Accesses) {
    const AccessStats &Before = Base.PerAccess[O.Id],
                      &After = S.PerAccess[O.Id];
    if (O.Id == A.Id || After.perRequest() <= Before.perRequest())
      continue;
    D.Notes.push_back(
        {A.Loc, "checked by re-simulation " + resimScope(L) +
                    ": with the roles of x and y swapped, " + Gain +
                    ", but the " + opText(O) + " of '" + O.Array + "' at " +
                    locText(O.Loc) + " goes from " +
                    figure(Before.perRequest()) + " to " +
                    figure(After.perRequest()) +
                    " per request, so the swap alone only moves the cost"});
    return;
  }
  D.Fix = CheckedFix{How, "re-simulated " + resimScope(L) + ": " + Gain +
                              "; no other access gets more costly"};
}

void checkUncoalesced(const RuleContext &C, std::vector<Diagnostic> &Out,
                      AccessKind Kind, const char *Rule) {
  for (const Access &A : C.K.Accesses) {
    const AccessStats &S = C.R.PerAccess[A.Id];
    if (A.Sp != Space::Global || A.Kind != Kind || !S.Requests ||
        S.UnknownRequests)
      continue;
    double Eff = S.efficiencyPct(C.Arch.unitBytes(A));
    bool Excess =
        double(S.Units) > C.Policy.ExcessFactor * double(S.IdealUnits);
    bool Policy = C.Policy.MinEfficiencyPct && Eff < *C.Policy.MinEfficiencyPct;
    if (!Excess && !Policy)
      continue;
    Diagnostic D = accessDiagnostic(
        C, A, Rule, Policy ? Severity::Error : Severity::Warning);
    double Ideal = double(S.IdealUnits) / double(S.Requests);
    D.Message =
        std::string(Excess ? "uncoalesced" : "inefficient") + " global " +
        opText(A) + (Kind == AccessKind::Load ? " from '" : " to '") + A.Array +
        "': " + figure(S.perRequest()) + " sectors per request, ideal " +
        figure(Ideal) + " (" + figure(Eff) + "% efficiency)";
    if (Policy)
      D.Message += ", below --min-efficiency " +
                   figure(*C.Policy.MinEfficiencyPct) + "%";
    D.Message += " in " + C.K.Name;
    std::string Why = explainCause(A, S);
    if (!Why.empty())
      D.Notes.push_back({A.Loc, Why});
    if (Excess)
      trySwap(C, A, D);
    Out.push_back(std::move(D));
  }
}

} // namespace gmem
