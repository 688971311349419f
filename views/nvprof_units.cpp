//===- nvprof_units.cpp - Global transactions as nvprof counted them ------===//
#include "nvprof_units.h"
#include "arch.h"

namespace gmem {

NvprofUnits nvprofUnits(const LaunchResult &R, bool Load,
                        const std::function<bool(const Access &)> &InGroup) {
  NvprofUnits Out;
  Out.Factor = 1;
  const ArchRules *A = findArch(R.Arch);
  if (!A || !R.K)
    return Out;
  using How = ArchRules::NvprofCount;
  const How H = Load ? A->NvprofLoads : A->NvprofStores;
  const std::string On = "nvprof on " + A->Family + " (" + A->Name + ")";
  if (H == How::Units)
    return Out;
  Out.Factor.reset();
  if (H == How::NotModelled) {
    Out.UnknownReason =
        On +
        (Load ? " counted 128-byte L1 transactions for every load"
              : " counted store transactions of 1, 2 or 4 segments") +
        "; gmem counts " +
        std::to_string(
            A->globalBytes(Load ? AccessKind::Load : AccessKind::Store)) +
        "-byte units";
    return Out;
  }
  uint64_t Units = 0, Bytes = 0;
  for (const Access &X : R.K->Accesses)
    if (InGroup(X)) {
      Units += R.PerAccess[X.Id].Units;
      Bytes += R.PerAccess[X.Id].DistinctBytes;
    }
  const unsigned Per = A->LoadTransactionBytes / A->NvprofLoadBytes;
  const std::string Rule =
      On + " counted a coalesced 4-byte load request as " +
      std::to_string(128 / A->NvprofLoadBytes) + " transactions, one per " +
      std::to_string(A->NvprofLoadBytes) + " bytes";
  if (Bytes != Units * A->LoadTransactionBytes) {
    Out.UnknownReason = Rule + "; for requests whose sectors are not full (" +
                        std::to_string(Bytes) + " bytes in " +
                        std::to_string(Units) +
                        " sectors here) what it counts is not established";
    return Out;
  }
  Out.Factor = Per;
  Out.Definition = Rule + ": " + std::to_string(Per) + " per sector";
  return Out;
}

} // namespace gmem
