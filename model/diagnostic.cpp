//===- diagnostic.cpp - Findings' names and JSON --------------------------===//
#include "diagnostic.h"

namespace gmem {

const char *severityName(Severity S) {
  switch (S) {
  case Severity::Remark:
    return "remark";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "warning";
}

nlohmann::json diagnosticsJson(const std::vector<Diagnostic> &Ds) {
  nlohmann::json A = nlohmann::json::array();
  for (const Diagnostic &D : Ds) {
    nlohmann::json J = {
        {"rule", D.Rule},      {"severity", severityName(D.Level)},
        {"file", D.Loc.File},  {"line", D.Loc.Line},
        {"col", D.Loc.Col},    {"message", D.Message},
        {"figures", D.Figures}};
    nlohmann::json Notes = nlohmann::json::array();
    for (const DiagNote &N : D.Notes)
      Notes.push_back({{"file", N.Loc.File},
                       {"line", N.Loc.Line},
                       {"col", N.Loc.Col},
                       {"message", N.Message}});
    J["notes"] = Notes;
    if (D.Fix)
      J["fix"] = {{"description", D.Fix->Description},
                  {"checked", D.Fix->Outcome}};
    A.push_back(J);
  }
  return A;
}

std::string fixText(const CheckedFix &F) {
  return "fix, checked by re-simulating the changed model: " + F.Description +
         " (" + F.Outcome + ")";
}

} // namespace gmem
