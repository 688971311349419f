//===- table_view.cpp - nvprof-style tables -------------------------------===//
//
// One block per launch: the nvprof metrics, then every access sorted by cost
// (excess sectors or wavefronts over the ideal), each bad one explained:
//
//   naiveGmem<<<(128,256,1), (32,16,1)>>> at transpose.cu:97:3 [sm_90]
//     Metric Name                           Metric Description Value
//     gld_transactions_per_request          Global Load Transactions Per
//     Request   32.000000 gld_efficiency                        Global Memory
//     Load Efficiency          12.50%
//     ...
//     Location           Access            Op Space  Size Requests
//     Sectors/Wavefr Per req Ideal Eff%  Ways transpose.cu:23:46 in[iy * nx +
//     ix]  ld global    4   524288       16777216   32.00  4.00 12.5     -
//       -> 32 sectors per request where 4 would hold the same bytes: ...
//
//===----------------------------------------------------------------------===//
#include "arch.h"
#include "metrics.h"
#include "nvprof_units.h"
#include "views.h"

#include <algorithm>
#include <cstdio>

namespace gmem {

namespace {

std::string fmt(const char *F, double V) {
  char B[64];
  snprintf(B, sizeof B, F, V);
  return B;
}

std::string pad(std::string S, size_t W, bool Right = false) {
  if (S.size() >= W)
    return S;
  return Right ? std::string(W - S.size(), ' ') + S
               : S + std::string(W - S.size(), ' ');
}

const char *opName(const Access &A) {
  switch (A.Kind) {
  case AccessKind::Load:
    return "ld";
  case AccessKind::Store:
    return "st";
  case AccessKind::Atomic:
    return A.Reduction ? "red" : "atom";
  }
  return "?";
}

void printMetrics(const LaunchResult &R, std::ostream &OS) {
  OS << "  " << pad("Metric Name", 40) << pad("Metric Description", 46)
     << pad("Value", 12, true) << "\n";
  std::vector<std::string> Unknown;
  for (const MetricInfo &I : metricTable()) {
    if (!I.Nvprof)
      continue;
    const Metric &M = R.Metrics.at(I.Name);
    const char *F = I.Percent ? "%.2f%%" : "%.6f";
    std::string V = M.Value ? fmt(F, *M.Value)
                    : M.Min && M.Max
                        ? "[" + fmt(F, *M.Min) + ", " + fmt(F, *M.Max) + "]"
                        : "unknown";
    if (!M.Value) {
      std::string Line = I.Name + ": " + M.UnknownReason;
      if (M.KnownPart) {
        std::string Out;
        if (M.ExcludedRequests || !M.ExcludesRuntime)
          Out = std::to_string(M.ExcludedRequests) + " request" +
                (M.ExcludedRequests == 1 ? "" : "s");
        if (M.ExcludesRuntime)
          Out += Out.empty() ? "the device runtime's requests (how many is "
                               "not known)"
                             : " and the device runtime's (how many is not "
                               "known)";
        Line += "\n      known part " + fmt(F, *M.KnownPart) + " leaves out " +
                Out + (M.Min ? ", which the bounds include" : "");
      }
      Unknown.push_back(Line);
    }
    OS << "  " << pad(I.Name, 40) << pad(I.Description, 46) << pad(V, 12, true)
       << "\n";
  }
  for (const std::string &U : Unknown)
    OS << "  unknown " << U << "\n";
}

/// Fermi to Pascal, as nvprof printed the metrics for those GPUs: its
/// columns (Invocations, Metric Name, Metric Description, Min, Max, Avg),
/// its totals, and global transactions in its units (nvprof_units.h).
void printNvprofMetrics(const LaunchResult &R, std::ostream &OS) {
  struct Row {
    const char *Name, *Description, *From;
    int Global; ///< 1 loads, 2 stores (converted), 0 as gmem counts.
    bool Percent, Total;
  };
  static const Row Rows[] = {
      {"gld_transactions_per_request", "Global Load Transactions Per Request",
       "gld_transactions_per_request", 1, false, false},
      {"gst_transactions_per_request", "Global Store Transactions Per Request",
       "gst_transactions_per_request", 2, false, false},
      {"gld_transactions", "Global Load Transactions",
       "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 1, false, true},
      {"gst_transactions", "Global Store Transactions",
       "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 2, false, true},
      {"gld_efficiency", "Global Memory Load Efficiency", "gld_efficiency", 0,
       true, false},
      {"gst_efficiency", "Global Memory Store Efficiency", "gst_efficiency",
       0, true, false},
      {"shared_load_transactions_per_request",
       "Shared Memory Load Transactions Per Request",
       "shared_load_transactions_per_request", 0, false, false},
      {"shared_store_transactions_per_request",
       "Shared Memory Store Transactions Per Request",
       "shared_store_transactions_per_request", 0, false, false},
      {"shared_load_transactions", "Shared Load Transactions",
       "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 0, false, true},
      {"shared_store_transactions", "Shared Store Transactions",
       "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 0, false, true},
      {"shared_efficiency", "Shared Memory Efficiency", "shared_efficiency", 0,
       true, false}};
  auto Global = [](bool Load) {
    return [Load](const Access &X) {
      return X.Sp == Space::Global &&
             X.Kind == (Load ? AccessKind::Load : AccessKind::Store);
    };
  };
  const NvprofUnits Units[2] = {nvprofUnits(R, true, Global(true)),
                                nvprofUnits(R, false, Global(false))};
  OS << "  " << pad("Invocations", 11) << pad("Metric Name", 42, true)
     << pad("Metric Description", 45, true) << pad("Min", 12, true)
     << pad("Max", 12, true) << pad("Avg", 12, true) << "\n";
  std::vector<std::string> Notes;
  for (const Row &W : Rows) {
    auto It = R.Metrics.find(W.From);
    if (It == R.Metrics.end())
      continue;
    const Metric &M = It->second;
    std::optional<double> V = M.Value;
    std::string Unknown = M.UnknownReason;
    if (W.Global && V) {
      const NvprofUnits &U = Units[W.Global - 1];
      if (!U.Factor)
        V.reset(), Unknown = U.UnknownReason;
      else
        *V *= *U.Factor;
    }
    const char *F = W.Percent ? "%.2f%%" : W.Total ? "%.0f" : "%.6f";
    const std::string Text = V ? fmt(F, *V) : "unknown";
    OS << "  " << pad(std::to_string(R.Count), 11, true)
       << pad(W.Name, 42, true) << pad(W.Description, 45, true)
       << pad(Text, 12, true) << pad(Text, 12, true) << pad(Text, 12, true)
       << "\n";
    if (!V)
      Notes.push_back(std::string("unknown ") + W.Name + ": " + Unknown);
  }
  for (const NvprofUnits &U : Units)
    if (!U.Definition.empty())
      Notes.push_back("(definition) " + U.Definition);
  for (const std::string &N : Notes)
    OS << "  " << N << "\n";
}

void printAccesses(const Report &Rep, size_t Launch, std::ostream &OS) {
  const LaunchResult &R = Rep.Launches[Launch];
  const ArchRules &Rules = archOrDefault(R.Arch);
  const Kernel &K = *R.K;
  std::vector<int> Order;
  for (const Access &A : K.Accesses)
    Order.push_back(A.Id);
  auto Excess = [&](int I) {
    const AccessStats &S = R.PerAccess[I];
    return S.Units > S.IdealUnits ? S.Units - S.IdealUnits : 0;
  };
  std::stable_sort(Order.begin(), Order.end(), [&](int A, int B) {
    if (Excess(A) != Excess(B))
      return Excess(A) > Excess(B);
    return R.PerAccess[A].Units > R.PerAccess[B].Units;
  });
  size_t LocW = 8, TextW = 6;
  for (const Access &A : K.Accesses) {
    LocW = std::max(LocW, locText(A.Loc).size());
    TextW = std::min<size_t>(40, std::max(TextW, A.Text.size()));
  }
  OS << "  " << pad("Location", LocW + 1) << pad("Access", TextW + 1)
     << "Op   Space  Size " << pad("Requests", 10, true)
     << pad("Sectors/Wavefronts", 19, true) << pad("Per req", 9, true)
     << pad("Ideal", 7, true) << pad("Eff%", 7, true) << pad("Ways", 6, true)
     << "\n";
  for (int I : Order) {
    const Access &A = K.Accesses[I];
    const AccessStats &S = R.PerAccess[I];
    bool Shared = A.Sp == Space::Shared;
    std::string Text =
        A.Text.size() > 40 ? A.Text.substr(0, 37) + "..." : A.Text;
    OS << "  " << pad(locText(A.Loc), LocW + 1) << pad(Text, TextW + 1)
       << pad(opName(A), 5) << pad(Shared ? "shared" : "global", 7)
       << pad(std::to_string(A.Size), 4, true) << " "
       << pad(S.requestsText(), 10, true);
    if (asyncWavefrontsUnknown(A, S) && !S.UnknownRequests) {
      OS << pad("-", 19, true) << "\n      -> " << explainAccess(A, S) << "\n";
      continue;
    }
    if (S.UnknownRequests) {
      if (S.bounded() && S.Requests) {
        // Proven bounds: the known requests plus the fewest and the most
        // units the others can take.
        uint64_t Lo = S.Units + S.MinUnits, Hi = S.Units + S.MaxUnits;
        OS << pad("[" + std::to_string(Lo) + ", " + std::to_string(Hi) + "]",
                  19, true)
           << "  [" << fmt("%.2f", double(Lo) / S.Requests) << ", "
           << fmt("%.2f", double(Hi) / S.Requests) << "]";
      } else {
        OS << pad("unknown", 19, true);
      }
      OS << "\n      -> " << explainAccess(A, S) << "\n";
      continue;
    }
    OS << pad(std::to_string(S.Units), 19, true)
       << pad(fmt("%.2f", S.perRequest()), 9, true)
       << pad(fmt("%.2f", S.Requests ? double(S.IdealUnits) / S.Requests : 0),
              7, true)
       << pad(S.Units ? fmt("%.1f", S.efficiencyPct(Rules.unitBytes(A))) : "-",
              7, true)
       << pad(Shared && S.Requests ? std::to_string(S.MaxWays) : "-", 6, true)
       << "\n";
    std::string Why = explainWithAdvice(Rep, Launch, A, S);
    if (!Why.empty())
      OS << "      -> " << Why << "\n";
    std::string Compiled = explainCompiled(A, S, R.Path == "executed");
    if (!Compiled.empty())
      OS << "      -> " << Compiled << "\n";
  }
}

} // namespace

void printMetricBlock(const LaunchResult &R, std::ostream &OS) {
  if (archOrDefault(R.Arch).Sm < 70)
    printNvprofMetrics(R, OS);
  else
    printMetrics(R, OS);
  const ExcessSectors E = excessSectors(R);
  if (E.Known && (E.Load || E.Store))
    OS << "  excessive sectors (over the fewest that hold the bytes asked "
          "for): "
       << E.Load << " of " << E.LoadAll << " global load sectors, " << E.Store
       << " of " << E.StoreAll << " store sectors\n";
  if (!R.Dram)
    return;
  // Decimal megabytes and microseconds, as Nsight Compute prints them.
  const DramTraffic &D = *R.Dram;
  auto MB = [](uint64_t B) { return fmt("%.2f MB", double(B) / 1e6); };
  OS << "  DRAM (" << D.Board << ", " << fmt("%.0f", double(D.L2Bytes) / 1e6)
     << " MB of L2, " << fmt("%.2f", D.DramBytesPerSecond / 1e12) << " TB/s; "
     << (D.Warm ? "L2 warm: what the reported launches before it and the "
                  "host's copies left there"
                : "caches flushed before the launch, as ncu does")
     << "): ";
  if (D.Known)
    OS << MB(D.ReadBytes) << " read"
       << (D.ReadCounted ? " (every block run: 64-byte blocks counted once)"
                         : "")
       << ", " << MB(D.WriteBytes) << " written (estimate), so no faster than "
       << fmt("%.1f", D.minSeconds() * 1e6) << " us"
       << (D.Warm && R.Count > 1
               ? "; each repeat after the first: " + MB(D.RepeatReadBytes) +
                     " read, " + MB(D.RepeatWriteBytes) + " written"
               : std::string())
       << "\n";
  else if (D.Bounded)
    OS << "at most " << MB(D.ReadBytes) << " read and " << MB(D.WriteBytes)
       << " written: " << D.Why << "\n";
  else
    OS << "not known: " << D.Why << "\n";
  if (R.L2) {
    const L2Traffic &L = *R.L2;
    auto M = [](uint64_t S) {
      return S >= 1000000 ? fmt("%.2f M", double(S) / 1e6) : std::to_string(S);
    };
    OS << "  L2: ";
    if (L.Known)
      OS << M(L.MissSectors) << " load sectors miss L1 ("
         << (L.EveryBlock ? std::string("the distinct sectors of every block, "
                                        "executed")
                          : "the distinct sectors of " +
                                std::to_string(L.SampledBlocks) +
                                (L.SampledBlocks == 1 ? " block" : " blocks") +
                                " run in full, scaled to the grid")
         << "), " << M(L.StoreSectors)
         << " store sectors; as Nsight Compute counts them, "
         << M(L.ReadSectors) << " read, " << M(L.WriteSectors)
         << " written (estimate)\n";
    else
      OS << "not known: " << L.Why << "\n";
  }
  if (!R.Time)
    return;
  const LaunchTime &T = *R.Time;
  if (T.SharedWavefronts)
    OS << "  shared wavefronts: " << T.SharedWavefronts << " by the bank rule"
       << (T.SharedWavefrontsAtMost > T.SharedWavefronts
               ? ", up to " + std::to_string(T.SharedWavefrontsAtMost) +
                     " on a GPU"
               : std::string(", as a GPU counts them"))
       << ": " << T.SharedContention << "\n";
  auto Us = [](double S) { return fmt("%.1f us", S * 1e6); };
  OS << "  time (" << D.Board << " at " << fmt("%.2f GHz", T.ClockHz / 1e9)
     << ", " << T.ClockWhy << "): ";
  if (T.Bounded) {
    OS << "between " << Us(T.Seconds) << " and " << Us(T.UpperSeconds)
       << " (estimates): " << T.Why << "\n";
    return;
  }
  if (!T.Known) {
    OS << "not known: " << T.Why << "\n";
    return;
  }
  OS << Us(T.Seconds) << " (estimate), limited by " << T.Limit;
  std::string Others;
  for (const LaunchTime::Bound &B : T.Bounds)
    if (B.Unit == T.Limit)
      OS << " (" << B.Work << ")";
    else
      Others += (Others.empty() ? "" : ", ") + B.Unit + " " + Us(B.Seconds);
  OS << "; " << Others;
  if (!T.Unpriced.empty())
    OS << "; not priced: " << T.Unpriced;
  OS << "; effective bandwidth "
     << fmt("%.2f TB/s", T.RequestedBytes / T.Seconds / 1e12)
     << " (the bytes the lanes asked for over that time)\n";
}

void printTableView(const Report &Rep, std::ostream &OS) {
  for (const std::string &W : Rep.Warnings)
    OS << "warning: " << W << "\n";
  for (size_t I = 0; I < Rep.Launches.size(); ++I) {
    const LaunchResult &R = Rep.Launches[I];
    if (I || !Rep.Warnings.empty())
      OS << "\n";
    OS << R.K->Name << "<<<" << dimText(R.L.Grid) << ", " << dimText(R.L.Block);
    if (R.L.DynamicSmem)
      OS << ", " << R.L.DynamicSmem;
    OS << ">>>";
    if (R.Count > 1)
      OS << " x" << R.Count;
    if (R.L.Loc.Line)
      OS << " at " << locText(R.L.Loc);
    OS << " [" << R.Arch << ", " << R.Warps << " warps]\n";
    if (!R.L.Caveat.empty())
      OS << "  note: " << R.L.Caveat << "\n";
    if (R.L.Origin == "interpreted")
      OS << "  note: not recorded: read from the host code after the "
            "recorded run stopped\n";
    std::string Sass = explainSass(R.K->Sass);
    if (!Sass.empty())
      OS << "  " << Sass << "\n";
    // A recorded launch whose figures stay the model's though it leaves
    // some unknown: why the run on its PTX did not stand in (the budget
    // was spent, the run stopped), as the JSON's path_why says.
    const bool Recorded = !R.L.ArgBytes.empty() || R.L.Executed;
    const bool Gaps =
        std::any_of(R.PerAccess.begin(), R.PerAccess.end(),
                    [](const AccessStats &S) { return S.UnknownRequests; });
    if (R.Path == "model" && Recorded && Gaps && !R.PathWhy.empty())
      OS << "  note: the kernel model's figures: " << R.PathWhy << "\n";
    printMetricBlock(R, OS);
    OS << "\n";
    printAccesses(Rep, I, OS);
    for (const std::string &D : R.Diagnostics)
      OS << "  error: " << D << "\n";
  }
  if (!Rep.NotLaunched.empty()) {
    OS << "\nkernels no launch reaches (" << Rep.NotLaunched.size()
       << "; --kernel NAME with --grid and --block analyses one):\n";
    for (const auto &[Name, Loc] : Rep.NotLaunched)
      OS << "  " << Name << " at " << locText(Loc) << "\n";
  }
}

} // namespace gmem
