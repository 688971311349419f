//===- views.cpp - The table of views -------------------------------------===//
#include "views.h"

namespace gmem {

namespace {
struct Entry {
  const char *Format;
  ViewFn Print;
};
const Entry Views[] = {
    {"text", printTableView},
    {"json", printJsonView},
    {"html", printHtmlView},
    {"svg", printSvgView},
};
} // namespace

ViewFn findView(const std::string &Format) {
  for (const Entry &E : Views)
    if (Format == E.Format)
      return E.Print;
  return nullptr;
}

std::vector<std::string> viewNames() {
  std::vector<std::string> N;
  for (const Entry &E : Views)
    N.push_back(E.Format);
  return N;
}

std::string adviceFor(const Report &Rep, size_t Launch, const Access &A) {
  if (Launch >= Rep.Findings.size())
    return "";
  const LaunchResult &R = Rep.Launches[Launch];
  const std::string Cause = explainCause(A, R.PerAccess[A.Id]);
  for (const Diagnostic &D : Rep.Findings[Launch]) {
    if (D.AccessId != A.Id || D.Kernel != R.K->Name)
      continue;
    if (D.Fix)
      return fixText(*D.Fix);
    // What the rule's checks found instead (the cause is said already).
    std::string Out;
    for (const DiagNote &N : D.Notes)
      if (N.Message != Cause)
        Out += (Out.empty() ? "" : "; ") + N.Message;
    return Out;
  }
  return "";
}

std::string explainWithAdvice(const Report &Rep, size_t Launch,
                              const Access &A, const AccessStats &S) {
  std::string Why = explainAccess(A, S), Advice = adviceFor(Rep, Launch, A);
  if (Why.empty() || Advice.empty())
    return Why + Advice;
  return Why + "; " + Advice;
}

ExcessSectors excessSectors(const LaunchResult &R) {
  ExcessSectors E;
  for (const Access &A : R.K->Accesses) {
    if (A.Sp != Space::Global || A.Kind == AccessKind::Atomic)
      continue;
    const AccessStats &S = R.PerAccess[A.Id];
    if (!costKnown(A, S)) {
      E.Known = false;
      continue;
    }
    const uint64_t Over = S.Units > S.IdealUnits ? S.Units - S.IdealUnits : 0;
    (A.Kind == AccessKind::Load ? E.Load : E.Store) += Over;
    (A.Kind == AccessKind::Load ? E.LoadAll : E.StoreAll) += S.Units;
  }
  return E;
}

std::string dimText(const Dim3 &D) {
  return "(" + std::to_string(D.X) + "," + std::to_string(D.Y) + "," +
         std::to_string(D.Z) + ")";
}

const char *opWord(const Access &A) {
  return A.Kind == AccessKind::Load    ? "load"
         : A.Kind == AccessKind::Store ? "store"
                                       : "atomic";
}

std::string xmlEscaped(const std::string &S) {
  std::string R;
  for (char C : S)
    R += C == '<'   ? "&lt;"
         : C == '>' ? "&gt;"
         : C == '&' ? "&amp;"
         : C == '"' ? "&quot;"
                    : std::string(1, C);
  return R;
}

} // namespace gmem
