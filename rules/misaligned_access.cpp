//===- misaligned_access.cpp - gmem-misaligned-access ---------------------===//
#include "rule.h"

namespace gmem {

static void checkMisalignedAccess(const RuleContext &C,
                                  std::vector<Diagnostic> &Out) {
  for (const Access &A : C.K.Accesses) {
    const AccessStats &S = C.R.PerAccess[A.Id];
    if (!S.MisalignedLanes)
      continue;
    Diagnostic D =
        accessDiagnostic(C, A, "gmem-misaligned-access", Severity::Error);
    D.Figures["misaligned_lanes"] = S.MisalignedLanes;
    D.Message = std::string("misaligned ") +
                (A.Sp == Space::Global ? "global " : "shared ") + opText(A) +
                ofArray(A) + ": " + std::to_string(S.MisalignedLanes) +
                " lane accesses of " + std::to_string(A.Size) +
                " bytes start at an address that is not a multiple of " +
                std::to_string(A.Size) + " in " + C.K.Name;
    D.Notes.push_back(
        {A.Loc, "the GPU stops the kernel with 'misaligned "
                "address': an access of " +
                    std::to_string(A.Size) +
                    " bytes needs an address that is a multiple of " +
                    std::to_string(A.Size)});
    Out.push_back(std::move(D));
  }
}

extern const RuleInfo MisalignedAccessRule = {
    "gmem-misaligned-access",
    Severity::Error,
    "Access whose address is not a multiple of its size",
    "A 2-, 4-, 8- or 16-byte access must be naturally aligned; a lane whose "
    "address is not faults ('misaligned address'). Typical cause: casting a "
    "pointer that was advanced by an odd number of elements to a wider "
    "vector type.",
    "any misaligned lane (always an error)",
    checkMisalignedAccess};

} // namespace gmem
