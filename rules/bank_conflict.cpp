//===- bank_conflict.cpp - gmem-bank-conflict -----------------------------===//
//
// The remedy it checks: pad the shared array's last dimension by the
// smallest N (1 to the number of banks) for which the re-simulated access
// needs no more wavefronts than its ideal and no other access to the array
// gets dearer.
//
//===----------------------------------------------------------------------===//
#include "explain.h"
#include "resim.h"
#include "rule.h"

#include <fstream>

namespace gmem {

static std::string shape(const SharedArray &SA) {
  std::string S = SA.Name;
  for (uint64_t D : SA.Dims)
    S += "[" + std::to_string(D) + "]";
  return S;
}

/// The padding as an edit: " + N" before the closing bracket of the
/// declaration's last dimension (tile[16][32] -> tile[16][32 + 1]), found
/// from the declared name on its line. None when the line does not spell
/// the dimensions there (a macro, a typedef, an extern array).
static std::optional<TextEdit> paddingEdit(const SharedArray &SA, uint64_t N) {
  if (SA.Dynamic || !SA.Loc.Line || !SA.Loc.Col)
    return std::nullopt;
  std::ifstream In(SA.Loc.File);
  std::string Line;
  for (unsigned I = 0; I < SA.Loc.Line && std::getline(In, Line); ++I)
    ;
  if (!In)
    return std::nullopt;
  size_t P = SA.Loc.Col - 1;
  if (Line.compare(P, SA.Name.size(), SA.Name) != 0)
    return std::nullopt;
  P += SA.Name.size();
  size_t LastClose = std::string::npos;
  size_t Groups = 0;
  for (;;) {
    while (P < Line.size() && Line[P] == ' ')
      ++P;
    if (P >= Line.size() || Line[P] != '[')
      break;
    int Depth = 0;
    size_t Q = P;
    for (; Q < Line.size(); ++Q) {
      Depth += Line[Q] == '[' ? 1 : Line[Q] == ']' ? -1 : 0;
      if (Depth == 0)
        break;
    }
    if (Q >= Line.size())
      return std::nullopt; // The dimensions go on past the line.
    LastClose = Q;
    ++Groups;
    P = Q + 1;
  }
  if (Groups != SA.Dims.size() || LastClose == std::string::npos)
    return std::nullopt;
  SourceLoc At = SA.Loc;
  At.Col = unsigned(LastClose + 1);
  return TextEdit{At, " + " + std::to_string(N)};
}

static void tryPadding(const RuleContext &C, const Access &A, Diagnostic &D) {
  // The original and each padded copy over the same blocks.
  LaunchResult Storage;
  const LaunchResult &Base = unchanged(C, Storage);
  const AccessStats &Old = Base.PerAccess[A.Id];
  for (uint64_t N = 1; N <= C.Arch.Banks; ++N) {
    std::optional<Kernel> P = padSharedArray(C.K, A.SharedArray, N);
    if (!P)
      return;
    LaunchResult S = resimulate(*P, C.R.L, C);
    const AccessStats &New = S.PerAccess[A.Id];
    if (New.UnknownRequests || New.OutOfBoundsLanes > Old.OutOfBoundsLanes ||
        New.Units > New.IdealUnits)
      continue;
    bool Worse = false;
    for (const Access &O : C.K.Accesses)
      Worse |= O.SharedArray == A.SharedArray &&
               S.PerAccess[O.Id].Units > Base.PerAccess[O.Id].Units;
    if (Worse)
      continue;
    D.Fix = CheckedFix{
        "pad the last dimension of '" + A.Array + "' by " + std::to_string(N) +
            " element" + (N > 1 ? "s" : "") + ": " +
            shape(P->Shared[A.SharedArray]),
        "re-simulated " + resimScope(C.R.L) + ": " + figure(New.perRequest()) +
            " wavefront(s) per request (from " + figure(Old.perRequest()) +
            "), no bank conflict; no other access to '" + A.Array +
            "' gets more costly",
        paddingEdit(C.K.Shared[A.SharedArray], N), New.Costliest};
    return;
  }
}

static void check(const RuleContext &C, std::vector<Diagnostic> &Out) {
  for (const Access &A : C.K.Accesses) {
    const AccessStats &S = C.R.PerAccess[A.Id];
    if (A.Sp != Space::Shared || !S.Requests || S.UnknownRequests ||
        S.Units <= S.IdealUnits || S.MaxWays < 2)
      continue;
    bool Policy =
        C.Policy.MaxConflictWays && S.MaxWays > *C.Policy.MaxConflictWays;
    Diagnostic D =
        accessDiagnostic(C, A, "gmem-bank-conflict",
                         Policy ? Severity::Error : Severity::Warning);
    D.Message = "up to " + std::to_string(S.MaxWays) +
                "-way bank conflict in shared " + opText(A) + " of '" +
                A.Array + "': " + figure(S.perRequest()) +
                " wavefronts per request, ideal " +
                figure(double(S.IdealUnits) / double(S.Requests));
    if (Policy)
      D.Message += ", above --max-conflict-ways " +
                   std::to_string(*C.Policy.MaxConflictWays);
    D.Message += " in " + C.K.Name;
    std::string Why = explainCause(A, S);
    if (!Why.empty())
      D.Notes.push_back({A.Loc, Why});
    if (!S.OutOfBoundsLanes) // Padding cannot be judged on stray lanes.
      tryPadding(C, A, D);
    Out.push_back(std::move(D));
  }
}

extern const RuleInfo BankConflictRule = {
    "gmem-bank-conflict",
    Severity::Warning,
    "Shared-memory access whose lanes collide in the same banks",
    "Shared memory has 32 banks of 4 bytes; a warp's request takes as many "
    "wavefronts as the busiest bank has distinct words to serve (the same "
    "word is broadcast). Lanes whose addresses are a multiple of 128 bytes "
    "apart share a bank and are served one after another.",
    "any request needing more wavefronts than its ideal (2-way or worse); "
    "with --max-conflict-ways N, conflicts of more than N ways are errors",
    check};

} // namespace gmem
