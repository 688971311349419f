//===- l2_traffic.cpp - The sectors a launch's L1s ask of the L2 ----------===//
#include "l2_traffic.h"
#include "simulate.h"
#include "warp_eval.h"

#include <algorithm>
#include <cmath>

namespace gmem {

namespace {

/// Sector numbers gathered from the sample, at most this many (32 MB); the
/// requests the sample runs (as many blocks as fit, at least one), and a
/// block's at most: a block with long loops cannot make it slow.
constexpr size_t MaxGathered = size_t(1) << 22;
constexpr uint64_t SampledRequests = uint64_t(1) << 15;
constexpr uint64_t MaxBlockRequests = uint64_t(1) << 18;
/// A launch of at most this many requests runs every block, for the 64-byte
/// blocks of the whole launch (what DRAM serves once).
constexpr uint64_t EveryBlockRequests = uint64_t(1) << 15;

/// Sorts and dedupes V from Sorted on into the sorted run before it.
void mergeUnique(std::vector<uint64_t> &V, size_t &Sorted) {
  std::sort(V.begin() + Sorted, V.end());
  std::inplace_merge(V.begin(), V.begin() + Sorted, V.end());
  V.erase(std::unique(V.begin(), V.end()), V.end());
  Sorted = V.size();
}

} // namespace

L2Traffic predictL2(const Kernel &K, const Launch &L, const ArchRules &A,
                    const LaunchResult &R, bool SplitL2) {
  L2Traffic T;
  if (!R.K || !R.Incomplete.empty()) {
    T.Why = "the launch's accesses are not all known";
    return T;
  }
  if (R.K->LaunchesKernels) {
    T.Why = launchesKernelsWhy();
    return T;
  }
  // The executed path ran every block: its first touches are counted, not
  // sampled, over its own accesses (the PTX's).
  const bool Executed = R.Path != "model";
  if (Executed && !R.L1MissSectors) {
    T.Why = "its PTX was executed without counting the sectors new to each "
            "block";
    return T;
  }
  const Kernel &Of = Executed ? *R.K : K;
  uint64_t LoadSectors = 0, Requests = 0;
  for (const Access &X : Of.Accesses) {
    Requests += R.PerAccess[size_t(X.Id)].Requests;
    if (X.Sp != Space::Global)
      continue;
    const AccessStats &S = R.PerAccess[size_t(X.Id)];
    if (S.UnknownRequests) {
      T.Why = "the sectors of " + X.Text + " at " + locText(X.Loc) +
              " are not known";
      return T;
    }
    const uint64_t Sectors = S.Units * A.unitBytes(X) / 32;
    if (X.Kind == AccessKind::Load)
      LoadSectors += Sectors;
    else if (X.Kind == AccessKind::Store)
      T.StoreSectors += Sectors;
    else
      (X.Reduction ? T.ReductionSectors : T.AtomicSectors) += Sectors;
  }

  const double Count = SplitL2 ? 1 + SplitL2Recount : 1;
  auto Counted = [&](uint64_t V) { return uint64_t(std::llround(V * Count)); };
  const uint64_t Blocks = L.Grid.count();
  if (Executed) {
    T.MissSectors = std::min(LoadSectors, *R.L1MissSectors);
    T.SampledBlocks = unsigned(std::min<uint64_t>(Blocks, UINT32_MAX));
    T.EveryBlock = true;
    T.ReadSectors = Counted(T.MissSectors) + LaunchL2ReadSectors;
    T.WriteSectors = Counted(T.StoreSectors);
    T.Known = true;
    return T;
  }

  // The sample: blocks spread evenly over the launch, each run in full.
  const unsigned WarpsPerBlock = unsigned((L.Block.count() + 31) / 32);
  // As many blocks as the request budget allows, by the launch's mean.
  const uint64_t PerBlockRequests = (Requests + Blocks - 1) / Blocks;
  if (PerBlockRequests > MaxBlockRequests) {
    T.Why = "a block makes " + std::to_string(PerBlockRequests) +
            " requests, too many to sample";
    return T;
  }
  const bool Every = Requests <= EveryBlockRequests;
  const uint64_t Samples =
      Every ? Blocks
            : std::min<uint64_t>(
                  {Blocks, L2SampleBlocks,
                   std::max<uint64_t>(
                       1, SampledRequests /
                              std::max<uint64_t>(1, PerBlockRequests))});
  const LaunchEnv Env = makeLaunchEnv(K, L);
  std::vector<AccessStats> Stats(K.Accesses.size());
  WarpEvaluator E(K, A, Env, Stats);
  E.LoopSkipFrom = UINT64_MAX;
  std::vector<uint64_t> Sectors;
  // Every block run: the launch's 64-byte blocks, loads and atomics, sorted
  // up to LaunchSorted.
  std::vector<uint64_t> LaunchBlocks;
  size_t LaunchSorted = 0;
  bool Overflow = false;
  E.Requests.observe([&](const RequestEvent &Ev) {
    if (Ev.A->Sp != Space::Global || Ev.A->Kind == AccessKind::Store)
      return;
    if (Every) {
      appendSectors(Ev, LaunchBlocks, 64);
      if (LaunchBlocks.size() > 2 * LaunchSorted + MaxGathered / 4)
        mergeUnique(LaunchBlocks, LaunchSorted);
      if (LaunchSorted > MaxGathered)
        Overflow = true;
    }
    if (Ev.A->Kind != AccessKind::Load)
      return;
    appendSectors(Ev, Sectors);
    if (Sectors.size() > MaxGathered)
      Overflow = true;
  });
  uint64_t Distinct = 0;
  for (uint64_t I = 0; I < Samples && !Overflow; ++I) {
    const uint64_t B = Samples == 1 ? 0 : I * (Blocks - 1) / (Samples - 1);
    const Dim3 Idx{B % L.Grid.X, (B / L.Grid.X) % L.Grid.Y,
                   B / (L.Grid.X * L.Grid.Y)};
    Sectors.clear();
    for (unsigned W = 0; W < WarpsPerBlock && !Overflow; ++W)
      E.runWarp(Idx, W);
    Distinct += distinctSectors(Sectors);
    T.SampledBlocks += 1;
  }
  if (Overflow) {
    T.SampledBlocks = 0;
    T.Why = "a block loads more than " + std::to_string(MaxGathered) +
            " sectors, too many to sample";
    return T;
  }
  if (Every) {
    mergeUnique(LaunchBlocks, LaunchSorted);
    T.LaunchLoadBlocks = LaunchBlocks.size();
  }
  const double PerBlock =
      T.SampledBlocks ? double(Distinct) / T.SampledBlocks : 0;
  T.MissSectors = std::min<uint64_t>(
      LoadSectors, uint64_t(std::llround(PerBlock * double(Blocks))));
  T.ReadSectors = Counted(T.MissSectors) + LaunchL2ReadSectors;
  T.WriteSectors = Counted(T.StoreSectors);
  T.Known = true;
  return T;
}

} // namespace gmem
