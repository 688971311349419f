//===- rule_util.cpp - The registry's lookups and helpers rules share -----===//
#include "rule.h"

#include <cmath>
#include <cstdio>
#include <set>

namespace gmem {

const RuleInfo *findRule(const std::string &Id) {
  for (const RuleInfo *R : allRules())
    if (Id == R->Id)
      return R;
  return nullptr;
}

std::vector<Diagnostic> runRules(const RuleContext &C,
                                 const std::vector<const RuleInfo *> &Enabled) {
  std::vector<Diagnostic> Out;
  for (const RuleInfo *R : Enabled)
    R->Check(C, Out);
  return Out;
}

std::string figure(double V) {
  char B[32];
  if (V == double(int64_t(V)) && std::fabs(V) < 1e15) // Counts in full.
    return std::to_string(int64_t(V));
  snprintf(B, sizeof B, "%.4g", V);
  return B;
}

std::string ofArray(const Access &A, const char *Of) {
  if (A.Array.empty())
    return std::string(Of) + "an array its address does not name";
  return std::string(Of) + "'" + A.Array + "'";
}

std::string opText(const Access &A) {
  switch (A.Kind) {
  case AccessKind::Load:
    return "load";
  case AccessKind::Store:
    return "store";
  case AccessKind::Atomic:
    return "atomic";
  }
  return "";
}

Diagnostic accessDiagnostic(const RuleContext &C, const Access &A,
                            const char *Rule, Severity Level) {
  Diagnostic D;
  D.Rule = Rule;
  D.Level = Level;
  D.Loc = A.Loc;
  D.Kernel = C.K.Name;
  D.AccessId = A.Id;
  const AccessStats &S = C.R.PerAccess[A.Id];
  D.Figures = {{"kernel", C.K.Name},
               {"access", A.Text},
               {"array", A.Array},
               {"op", opText(A)},
               {"space", A.Sp == Space::Global ? "global" : "shared"},
               {"requests", S.Requests}};
  if (S.Requests && !S.UnknownRequests) {
    D.Figures["per_request"] = S.perRequest();
    D.Figures["ideal_per_request"] = double(S.IdealUnits) / double(S.Requests);
    if (A.Sp == Space::Global)
      D.Figures["efficiency_pct"] = S.efficiencyPct(C.Arch.unitBytes(A));
    else
      D.Figures["conflict_ways"] = S.MaxWays;
  }
  return D;
}

} // namespace gmem
