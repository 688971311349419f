//===- shared_out_of_bounds.cpp - gmem-shared-out-of-bounds ---------------===//
#include "explain.h"
#include "rule.h"

namespace gmem {

static void checkSharedOutOfBounds(const RuleContext &C,
                                   std::vector<Diagnostic> &Out) {
  for (const Access &A : C.K.Accesses) {
    const AccessStats &S = C.R.PerAccess[A.Id];
    // An access of the executed PTX may name no array of the model; its
    // launch stopped at the fault, which the launch reports.
    if (A.Sp != Space::Shared || !S.OutOfBoundsLanes || A.SharedArray < 0 ||
        size_t(A.SharedArray) >= C.K.Shared.size())
      continue;
    const SharedArray &SA = C.K.Shared[A.SharedArray];
    uint64_t Bytes = SA.Dynamic ? C.R.L.DynamicSmem : SA.Bytes;
    Diagnostic D =
        accessDiagnostic(C, A, "gmem-shared-out-of-bounds", Severity::Error);
    D.Figures["out_of_bounds_lanes"] = S.OutOfBoundsLanes;
    D.Figures["array_bytes"] = Bytes;
    D.Message = "shared " + opText(A) + " of '" + A.Array +
                "' out of bounds: " + std::to_string(S.OutOfBoundsLanes) +
                " lane accesses fall outside its " + std::to_string(Bytes) +
                " bytes in " + C.K.Name;
    // The launch's first faulting lane, as the simulator found it.
    if (A.Id < C.R.FirstOutOfBounds.size())
      if (const std::optional<FaultExample> &X = C.R.FirstOutOfBounds[A.Id])
        D.Notes.push_back(
            {A.Loc, "for example block (" + std::to_string(X->Block.X) + "," +
                        std::to_string(X->Block.Y) + "," +
                        std::to_string(X->Block.Z) + "), thread " +
                        std::to_string(X->Thread) + ", byte offset " +
                        std::to_string(int64_t(X->Address - SA.Offset)) +
                        " with block " + std::to_string(C.R.L.Block.X) + "x" +
                        std::to_string(C.R.L.Block.Y) + "x" +
                        std::to_string(C.R.L.Block.Z)});
    std::string Dims;
    for (uint64_t X : SA.Dims)
      Dims += "[" + std::to_string(X) + "]";
    D.Notes.push_back(
        {SA.Loc, "'" + SA.Name + "' declared here" +
                     (Dims.empty() ? "" : " as " + SA.Name + Dims) + ", " +
                     std::to_string(Bytes) + " bytes"});
    Out.push_back(std::move(D));
  }
}

extern const RuleInfo SharedOutOfBoundsRule = {
    "gmem-shared-out-of-bounds",
    Severity::Error,
    "Shared-memory access outside its array",
    "Some lane's address falls outside the shared array it indexes, for the "
    "launch's block: the kernel reads or overwrites another array or faults. "
    "Typical cause: a tile sized for one block shape, launched with another.",
    "any lane outside the array (always an error)",
    checkSharedOutOfBounds};

} // namespace gmem
