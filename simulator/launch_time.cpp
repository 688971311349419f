//===- launch_time.cpp - How long a launch takes, and which unit limits it ===//
#include "launch_time.h"
#include "arch.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gmem {

static std::string fmt(const char *F, double V) {
  char B[64];
  std::snprintf(B, sizeof B, F, V);
  return B;
}

std::optional<double> sassWarpInstructions(const PtxIssue &I,
                                           const SassAccount &S) {
  if (!I.Static || !S.AllInstructions)
    return std::nullopt;
  const double Whole = double(S.AllInstructions) / double(I.Static);
  auto Ratio = [&](unsigned Sass, uint64_t Ptx) {
    return Sass && Ptx ? double(Sass) / double(Ptx) : Whole;
  };
  // ptxas may unroll a loop the PTX keeps rolled (4 copies of its body and
  // a remainder): its loops then hold more memory instructions than the
  // PTX's, by that factor, and each SASS iteration stands for that many.
  const double Unrolled =
      S.LoopMemory && I.StaticMemoryInLoops
          ? std::max(1.0, double(S.LoopMemory) / double(I.StaticMemoryInLoops))
          : 1.0;
  return double(I.IssuedInLoops) * Ratio(S.LoopInstructions, I.StaticInLoops) /
             Unrolled +
         double(I.Issued - I.IssuedInLoops) *
             Ratio(S.AllInstructions - S.LoopInstructions,
                   I.Static - I.StaticInLoops);
}

/// The bank rule's shared wavefronts, and at most how many a GPU counts.
static void sharedContention(const LaunchResult &R, const MemorySystem &M,
                             LaunchTime &T) {
  uint64_t Units = 0;
  for (const Access &A : R.K->Accesses)
    if (A.Sp == Space::Shared) {
      const AccessStats &S = R.PerAccess[size_t(A.Id)];
      if (S.UnknownRequests)
        return;
      Units += S.Units;
    }
  if (!Units || !M.SMs)
    return;
  T.SharedWavefronts = T.SharedWavefrontsAtMost = Units;
  if (R.L.Grid.count() <= M.SMs) {
    T.SharedContention = "one block per SM, whose warps cost what the "
                         "rule counts (exact on the H200)";
    return;
  }
  T.SharedWavefrontsAtMost =
      uint64_t(std::ceil(double(Units) * (1 + SharedContentionAtMost)));
  T.SharedContention =
      "warps of several blocks on an SM that access shared memory together "
      "cost up to " +
      fmt("%.0f %%", SharedContentionAtMost * 100) +
      " more on the H200, a timing effect; the duration counts the rule's";
}

LaunchTime predictTime(const LaunchResult &R, const MemorySystem &M,
                       const TimeRates &Rates) {
  LaunchTime T;
  T.ClockHz = M.ClockHz;
  T.ClockWhy = M.ClockWhy;
  if (!R.K || !R.Incomplete.empty()) {
    T.Why = "the launch's accesses are not all known";
    return T;
  }
  sharedContention(R, M, T);
  if (!M.SMs || M.ClockHz <= 0 || M.DramBytesPerSecond <= 0) {
    T.Why = "the board's SMs, clock or DRAM bandwidth are not known";
    return T;
  }
  if (!R.Dram || (!R.Dram->Known && !R.Dram->Bounded)) {
    T.Why = "its DRAM traffic is not known" +
            (R.Dram && !R.Dram->Why.empty() ? ": " + R.Dram->Why : "");
    return T;
  }
  const ArchRules &Rules = archOrDefault(R.Arch);
  // Global sectors by kind (32 bytes each, whatever unit the architecture
  // counts in), the cycles L1 spends on the global requests, and shared
  // wavefronts.
  double Loaded = 0, Stored = 0, Atomic = 0, LoadRequests = 0;
  double L1Cycles = 0;
  for (const Access &A : R.K->Accesses) {
    const AccessStats &S = R.PerAccess[size_t(A.Id)];
    if (S.UnknownRequests) {
      T.Why = "the sectors of " + A.Text + " at " + locText(A.Loc) +
              " are not known";
      return T;
    }
    if (A.Sp == Space::Shared) {
      L1Cycles += double(S.Units);
      continue;
    }
    const double Sectors = double(S.Units) * Rules.unitBytes(A) / 32.0;
    L1Cycles += std::max(double(S.Requests), Sectors / Rates.L1SectorsPerCycle);
    (A.Kind == AccessKind::Load    ? Loaded
     : A.Kind == AccessKind::Store ? Stored
                                   : Atomic) += Sectors;
    if (A.Kind == AccessKind::Load)
      LoadRequests += double(S.Requests);
    T.RequestedBytes += double(S.DistinctBytes);
  }
  const double Clock = M.ClockHz, SMs = M.SMs;
  const double Blocks = double(std::max<uint64_t>(R.L.Grid.count(), 1));
  // Blocks go to the SMs in turn: the busiest runs ceil(blocks / SMs) of
  // them, and its share of the launch's work is that many blocks' worth.
  const double PerSM = std::ceil(Blocks / SMs), Share = PerSM / Blocks;
  const double Threads = double(std::max<uint64_t>(R.L.Block.count(), 1));
  const double Warps = std::ceil(Threads / 32);
  // Loads in flight: each resident warp's requests, of the launch's average
  // bytes, up to RequestsInFlight of them (Little's law).
  const double Resident =
      std::min(PerSM,
               std::max(1.0, std::min(double(M.BlocksPerSM),
                                      std::floor(M.ThreadsPerSM / Threads)))) *
      Warps;
  const double PerRequest = LoadRequests ? Loaded * 32 / LoadRequests : 128;
  const double InFlight =
      SMs * Resident * PerRequest *
      std::clamp(LoadRequests / (Blocks * Warps), 1.0, Rates.RequestsInFlight);
  const DramTraffic &D = *R.Dram;
  const double DramBytes = double(D.ReadBytes + D.WriteBytes);
  const double DramRate = std::min(Rates.DramShare * M.DramBytesPerSecond,
                                   InFlight / Rates.DramLatencySeconds);
  const double L2Bytes = (Loaded * Rates.L1MissShare + Stored + Atomic) * 32.0;
  const double L2Rate = Rates.L2BytesPerSmCycle * SMs * Clock;
  L1Cycles *= Share;
  T.Bounds = {
      {"DRAM", DramBytes / DramRate,
       fmt("%.2f MB", DramBytes / 1e6) + " at " +
           fmt("%.2f TB/s", DramRate / 1e12)},
      {"L2", L2Bytes / L2Rate,
       fmt("%.2f MB", L2Bytes / 1e6) + " at " +
           fmt("%.2f TB/s", L2Rate / 1e12)},
      // However few its bytes, a launch that loads waits a DRAM round
      // trip before its SM's data pipe serves them: a tiny strided launch
      // is slower than a coalesced one of the same bytes.
      {"L1", L1Cycles / Clock + (Loaded > 0 ? Rates.DramLatencySeconds : 0),
       fmt("%.0f", L1Cycles) + " cycles of the busiest SM's data pipe" +
           (Loaded > 0 ? fmt(" after a %.0f ns DRAM round trip",
                             Rates.DramLatencySeconds * 1e9)
                       : std::string())},
      {"block launch",
       PerSM * (Rates.CyclesPerBlock + Rates.CyclesPerWarp * Warps) / Clock,
       fmt("%.0f", PerSM) + " blocks of " + fmt("%.0f", Warps) +
           " warps on the busiest SM"}};
  if (R.SassWarpInstructions) {
    // A shared access's wavefronts beyond its first hold its warp's issue
    // slot too (replays).
    double Replays = 0;
    for (const Access &A : R.K->Accesses)
      if (A.Sp == Space::Shared) {
        const AccessStats &S = R.PerAccess[size_t(A.Id)];
        Replays += double(S.Units - std::min(S.Units, S.Requests));
      }
    const double Issued = *R.SassWarpInstructions * Share,
                 Replayed = Replays * Share;
    T.Bounds.push_back({"instruction issue",
                        (Issued + Replayed) / (Rates.IssuePerSmCycle * Clock),
                        fmt("%.3g", Issued) + " SASS warp instructions" +
                            (Replayed ? " and " + fmt("%.3g", Replayed) +
                                            " shared wavefronts replayed"
                                      : std::string()) +
                            " on the busiest SM"});
  } else {
    T.Unpriced = "instruction issue: " +
                 std::string(R.Issue ? "the SASS was not read"
                                     : "the launch was not executed (a "
                                       "functional recording runs it)");
  }
  auto Longest = [&](size_t From) {
    return std::max_element(
        T.Bounds.begin() + From, T.Bounds.end(),
        [](const auto &A, const auto &B) { return A.Seconds < B.Seconds; });
  };
  const auto Max = Longest(0);
  T.Limit = Max->Unit;
  T.Seconds = Rates.LaunchSeconds + Max->Seconds;
  T.Known = D.Known;
  if (!D.Known) {
    // DRAM's bytes are an upper bound: the other units give the least time.
    T.Bounded = true;
    T.Why = "its DRAM traffic is only bounded: " + D.Why;
    T.UpperSeconds = T.Seconds;
    T.Seconds = Rates.LaunchSeconds + Longest(1)->Seconds;
  }
  return T;
}

} // namespace gmem
