//===- data_dependent_access.cpp - gmem-data-dependent-access -------------===//
#include "rule.h"

namespace gmem {

static void checkDataDependentAccess(const RuleContext &C,
                                     std::vector<Diagnostic> &Out) {
  for (const Access &A : C.K.Accesses) {
    const AccessStats &S = C.R.PerAccess[A.Id];
    // Recorded launches price such an access where the data is known; the
    // requests left unknown are those whose data is not.
    if (!S.UnknownRequests ||
        !(A.DataDependent || S.ReasonCause == UnknownCause::LoadedData))
      continue;
    Diagnostic D =
        accessDiagnostic(C, A, "gmem-data-dependent-access", Severity::Warning);
    D.Figures["unknown_requests"] = S.UnknownRequests;
    D.Message = std::string(A.Sp == Space::Global ? "global " : "shared ") +
                opText(A) + ofArray(A) +
                " has an address that depends on loaded data: its cost "
                "cannot be predicted from the source (" +
                std::to_string(S.UnknownRequests) + " requests) in " + C.K.Name;
    D.Notes.push_back({A.Loc, S.UnknownReason});
    Out.push_back(std::move(D));
  }
}

extern const RuleInfo DataDependentAccessRule = {
    "gmem-data-dependent-access",
    Severity::Warning,
    "Access whose address depends on values loaded from memory",
    "The address is computed from data the kernel reads (an index array, a "
    "pointer loaded from memory), so its coalescing depends on the data and "
    "gmem reports its sectors as unknown rather than guess. Gather and "
    "scatter through index arrays are often uncoalesced: measure them.",
    "any request whose address depends on loaded data",
    checkDataDependentAccess};

} // namespace gmem
