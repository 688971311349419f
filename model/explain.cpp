//===- explain.cpp - An access's figures in words -------------------------===//
#include "explain.h"

#include <cstdlib>
#include <numeric>

namespace gmem {

static std::string num(double V) {
  char B[32];
  snprintf(B, sizeof B, "%.4g", V);
  return B;
}

/// Why an access's figures are not a number: bounds proven, the fewest a
/// GPU makes, or no model.
static std::string unknownText(const AccessStats &S) {
  if (S.bounded() && S.Requests)
    return "bounded: " + S.UnknownReason;
  if (S.atLeast())
    return "at least: " + S.UnknownReason;
  return "not modelled: " + S.UnknownReason;
}

std::string explainCause(const Access &A, const AccessStats &S) {
  if (S.UnknownRequests)
    return unknownText(S);
  return explainCost(A, S);
}

std::string explainAccess(const Access &A, const AccessStats &S) {
  if (S.UnknownRequests)
    return unknownText(S);
  std::string Cost = explainCost(A, S);
  auto Add = [&](const std::string &Part) {
    Cost = Cost.empty() ? Part : Cost + "; " + Part;
  };
  if (S.LocalExecutions)
    Add(std::to_string(S.LocalExecutions) +
        " executions through a generic address reached local memory only: "
        "executed, with no global or shared request");
  if (S.PredicatedOff)
    Add(std::to_string(S.PredicatedOff) +
        " executions by warps with every lane off: ptxas predicated it "
        "instead of branching around it, so they execute it with no request");
  if (A.AsyncPartner < 0)
    return Cost;
  if (asyncWavefrontsUnknown(A, S))
    return AsyncSharedSide;
  if (A.Sp == Space::Shared) {
    Add("the shared side of an async copy (cp.async, LDGSTS): its "
        "wavefronts follow where each lane reads as well as where it writes "
        "(one global line per pass, shared banks as a store's); in the "
        "GPU's shared efficiency, not in its shared load or store figures");
    return Cost;
  }
  Add("the global side of an async copy to shared memory (cp.async, "
      "LDGSTS): in L1's global load requests and sectors, not in the "
      "global load instruction and byte counts");
  return Cost;
}

std::string explainCost(const Access &A, const AccessStats &S) {
  if (A.Sp == Space::Global && S.HasStride && S.Stride == 0 &&
      S.Units == S.Requests)
    return "every lane uses the same address: a broadcast, one sector per "
           "request of which " +
           std::to_string(A.Size) + " bytes are used";
  if (!S.Requests || S.Units <= S.IdealUnits)
    return "";
  const int64_t Stride = S.Stride;
  const std::string Per = num(S.perRequest());
  const std::string Ideal = num(double(S.IdealUnits) / double(S.Requests));
  if (A.Sp == Space::Global) {
    std::string Cost = Per + " sectors per request where " + Ideal +
                       " would hold the same bytes";
    if (A.Compiled.Branches)
      return Cost + ": the lanes of a warp load through " +
             std::to_string(A.Compiled.Branches) + " exclusive branches (" +
             A.Text + "), so each branch's lanes touch sectors of their own";
    if (S.HasStride && Stride == 0)
      return Cost + ": lanes repeat addresses";
    if (S.HasStride && std::llabs(Stride) >= 32)
      return Cost + ": neighbouring lanes are " + std::to_string(Stride) +
             " bytes apart, so every lane needs its own sector";
    if (S.HasStride && Stride == int64_t(A.Size) && S.FirstAddress % 32)
      return Cost + ": the warp's bytes start " +
             std::to_string(S.FirstAddress % 32) +
             " bytes past a 32-byte sector boundary";
    if (S.HasStride)
      return Cost + ": neighbouring lanes are " + std::to_string(Stride) +
             " bytes apart for " + std::to_string(A.Size) + "-byte elements";
    return Cost;
  }
  // An async copy's writes wait for its reads: lanes at one offset of
  // different 128-byte global lines are read, and written, in turns.
  if (A.AsyncPartner >= 0)
    return Per + " wavefronts per request where " + Ideal +
           " would do: the copy writes its lanes as they are read, lanes at "
           "the same offset of different 128-byte global lines in different "
           "passes" +
           (S.MaxWays > 1 ? ", and lanes on one shared bank in different "
                            "cycles (up to " +
                                std::to_string(S.MaxWays) + "-way)"
                          : std::string());
  std::string Cost = Per + " wavefronts per request where " + Ideal +
                     " would do (up to " + std::to_string(S.MaxWays) +
                     "-way bank conflict)";
  // The stride names the cause only where it accounts for the worst
  // request's conflict: requests of one access may stride differently (a
  // tree reduction's 2 words apart in one step, 16 in another).
  if (S.HasStride && Stride % 4 == 0 && Stride != 0) {
    int64_t Words = std::llabs(Stride) / 4;
    int64_t Ways = std::gcd<int64_t>(Words, 32);
    if (Ways > 1 && uint64_t(Ways) >= S.MaxWays)
      return Cost + ": neighbouring lanes are " + std::to_string(Words) +
             " words apart, so " +
             (Ways == 32 ? std::string("they fall into the same bank")
                         : "lanes " + std::to_string(32 / Ways) +
                               " apart fall into the same bank");
  }
  return Cost;
}

} // namespace gmem

namespace gmem {

std::string explainCompiled(const Access &A, const AccessStats &S,
                            bool Executed) {
  const CompiledForm &C = A.Compiled;
  // An executed launch counts the PTX's own instructions: what the model
  // could not establish is no longer a guess in its figures.
  if (Executed && (C.State == CompiledForm::Ambiguous ||
                   C.State == CompiledForm::NoInstruction))
    return "compiled: " + C.Note + "; counted by executing the PTX";
  switch (C.State) {
  case CompiledForm::Unchecked:
    return "";
  case CompiledForm::AsWritten:
    return C.Note.empty() ? "" : "compiled: " + C.Note;
  case CompiledForm::NoInstruction:
    return "compiled: " + C.Note + "; counted as the SASS says: no request";
  case CompiledForm::Selected:
    return "compiled: " + C.Note + " (its requests are counted there)";
  case CompiledForm::Split:
    return "compiled: " + C.Note;
  case CompiledForm::Merged: {
    std::string Out = "compiled: " + C.Note;
    if (C.Leader >= 0 && C.Leader != A.Id)
      Out += " (its requests are counted there)";
    if (S.UnmergedGroups)
      Out += "; " + std::to_string(S.UnmergedGroups) +
             " groups were not one aligned run in this launch and count one "
             "request per access";
    return Out;
  }
  case CompiledForm::Hoisted:
    return "compiled: " + C.Note + "; counted on the loop's first iteration";
  case CompiledForm::Reused:
    return "compiled: " + C.Note + "; no request";
  case CompiledForm::OncePerAddress:
    return "compiled: " + C.Note +
           "; one request per distinct address over those iterations";
  case CompiledForm::Ambiguous:
    return "compiled: mapping to the SASS is ambiguous (" + C.Note +
           "); counted as written";
  }
  return "";
}

} // namespace gmem

namespace gmem {

std::string explainSass(const SassAccount &S) {
  if (!S.Read)
    return "";
  unsigned Unclaimed = 0;
  for (const SassAccount::UnclaimedInstr &U : S.Unclaimed)
    Unclaimed += U.Copies;
  std::string Out = "SASS: " + std::to_string(S.Instructions) +
                    " memory instruction" + (S.Instructions == 1 ? "" : "s");
  if (!S.Instructions)
    return Out;
  Out += Unclaimed ? ", " + std::to_string(S.Instructions - Unclaimed) +
                         " accounted for: "
                   : ", all accounted for: ";
  Out += std::to_string(S.Claimed) +
         (S.Claimed == 1 ? " matched to an access" : " matched to accesses");
  std::vector<std::string> Outside;
  if (S.Local)
    Outside.push_back(std::to_string(S.Local) +
                      " local (local arrays or register spills)");
  if (S.Texture)
    Outside.push_back(std::to_string(S.Texture) + " on the texture pipe");
  if (S.Bulk)
    Outside.push_back(std::to_string(S.Bulk) + " bulk copies (TMA)");
  for (size_t I = 0; I < Outside.size(); ++I)
    Out += (I + 1 == Outside.size() && I ? " and " : ", ") + Outside[I];
  if (!Outside.empty())
    Out += ", outside these figures";
  if (Unclaimed) {
    Out += "; " + std::to_string(Unclaimed) +
           (Unclaimed == 1 ? " stands" : " stand") +
           " for no access, so the figures of its kind are unknown:";
    size_t Shown = 0;
    for (const SassAccount::UnclaimedInstr &U : S.Unclaimed) {
      if (Shown++ == 3) {
        Out += " and " + std::to_string(S.Unclaimed.size() - 3) + " more";
        break;
      }
      std::string File = U.Loc.File.substr(U.Loc.File.find_last_of('/') + 1);
      Out += (Shown > 1 ? ", " : " ") + U.Opcode +
             (U.Loc.Line ? " at " + File + ":" + std::to_string(U.Loc.Line)
                         : std::string(" (no line)"));
    }
  }
  return Out;
}

} // namespace gmem
