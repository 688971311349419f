//===- lines.cpp - Predicted and measured traffic per source line ---------===//
//
// gmem-verify sums the CUPTI SASS counters of every memory instruction that
// -lineinfo maps to a line; the prediction sums the accesses the model has
// on that line. Lines are matched by file base name and number, since the
// measurement records the name the compiler saw and the analyzer the one it
// was given.
//
//===----------------------------------------------------------------------===//
#include "compare.h"
#include "tolerances.h"

#include <cmath>
#include <functional>
#include <map>
#include <vector>

namespace gmem {

namespace {

std::string baseName(const std::string &Path) {
  size_t Slash = Path.find_last_of("/\\");
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

std::string num(uint64_t V) { return std::to_string(V); }

const char *const BypassLineSectors =
    "an async copy that bypasses L1 (cp.async.cg) with bounded shared "
    "wavefronts: the per-line counters count each wavefront's distinct "
    "sectors (measured on an H200), so its line's sectors lie between each "
    "quarter warp's distinct sectors and one set a lane";

std::string traffic(std::optional<uint64_t> Sectors,
                    std::optional<uint64_t> Wavefronts) {
  auto Text = [](std::optional<uint64_t> V) {
    return V ? std::to_string(*V) : std::string("unknown");
  };
  std::string S;
  if (!Sectors || *Sectors)
    S += Text(Sectors) + " sectors";
  if (!Wavefronts || *Wavefronts)
    S += (S.empty() ? "" : ", ") + Text(Wavefronts) + " wavefronts";
  return S.empty() ? "no traffic" : S;
}

void judge(LineComparison &C, bool MultiBlock, unsigned MinSize) {
  bool MeasuredSomething = C.Measured && (C.MeasuredInst || C.MeasuredSectors ||
                                          C.MeasuredWavefronts);
  std::string Measured = traffic(C.MeasuredSectors, C.MeasuredWavefronts);
  std::string Predicted = traffic(C.PredictedSectors, C.PredictedWavefronts);
  C.Exact = false;
  if (!MeasuredSomething) {
    C.Kind = "not executed";
    C.V = Verdict::Explained;
    C.Reason = "(b) " + num(C.PredictedRequests) + " requests predicted (" +
               Predicted +
               "), no memory instruction of this line executed on the GPU: "
               "no warp reached it or the compiler removed it";
    return;
  }
  // Unknown first: an access whose loop count is unknown has no request
  // counted, which is not a prediction that none executes.
  if (!C.UnknownReason.empty() &&
      (!C.PredictedSectors || !C.PredictedWavefronts) && C.AtLeast &&
      C.InstRecorded) {
    // The fewest requests a GPU makes: fewer measured is a difference.
    const std::string Counts = "at least " + num(C.PredictedRequests) +
                               " requests predicted, " + num(C.MeasuredInst) +
                               " instructions measured";
    const bool Fewer = C.MeasuredInst < C.PredictedRequests;
    C.Kind = Fewer ? "differs" : "timing";
    C.V = Fewer ? Verdict::Mismatch : Verdict::Explained;
    C.Reason = Fewer ? "no reason established: " + Counts +
                           ", fewer than the fewest a GPU can make"
                     : "(d) " + Counts + ": " + C.UnknownReason;
    return;
  }
  if ((C.SectorBounds || C.WavefrontBounds) &&
      (C.PredictedSectors || C.SectorBounds) &&
      (C.PredictedWavefronts || C.WavefrontBounds) && C.InstRecorded) {
    // Bounded: the instructions are counted, the sectors or the wavefronts
    // only bounded (the other known).
    const uint64_t Inst = C.PredictedRequests + C.PredictedLocalExecutions +
                          C.PredictedPredicatedOff;
    const auto [SLo, SHi] = C.SectorBounds.value_or(
        std::make_pair(*C.PredictedSectors, *C.PredictedSectors));
    const auto [WLo, WHi] = C.WavefrontBounds.value_or(
        std::make_pair(*C.PredictedWavefronts, *C.PredictedWavefronts));
    // Wavefronts keep their counter noise at either end.
    const double Noise =
        tolerance::sharedTotal(double(WHi), double(C.PredictedSharedRequests));
    const bool Within = C.MeasuredInst == Inst && SLo <= C.MeasuredSectors &&
                        C.MeasuredSectors <= SHi &&
                        double(C.MeasuredWavefronts) >= double(WLo) - Noise &&
                        double(C.MeasuredWavefronts) <= double(WHi) + Noise;
    // "8 instructions and 32 to 64 sectors predicted, 8 and 48 measured":
    // a side with nothing predicted or measured is left out.
    std::vector<std::string> Pred = {num(Inst) + " instructions"},
                             Meas = {num(C.MeasuredInst)};
    auto Add = [&](uint64_t Lo, uint64_t Hi, uint64_t M, const char *Unit) {
      if (!Hi && !M)
        return;
      Pred.push_back((Lo == Hi ? num(Lo) : num(Lo) + " to " + num(Hi)) + " " +
                     Unit);
      Meas.push_back(num(M));
    };
    Add(SLo, SHi, C.MeasuredSectors, "sectors");
    Add(WLo, WHi, C.MeasuredWavefronts, "wavefronts");
    auto List = [](const std::vector<std::string> &V) {
      std::string S = V[0];
      for (size_t I = 1; I < V.size(); ++I)
        S += (I + 1 == V.size() ? " and " : ", ") + V[I];
      return S;
    };
    const std::string Counts =
        List(Pred) + " predicted, " + List(Meas) + " measured";
    C.Kind = Within ? "bounded" : "differs";
    C.V = Within ? Verdict::Explained : Verdict::Mismatch;
    C.Reason = Within ? "(c) " + Counts + ": " + C.UnknownReason
                      : "no reason established: " + Counts +
                            ", outside what the bounds allow";
    return;
  }
  if (!C.UnknownReason.empty() &&
      (!C.PredictedSectors || !C.PredictedWavefronts)) {
    C.Kind = "unknown";
    C.V = Verdict::Explained;
    C.Reason = "(c) prediction unknown: " + C.UnknownReason;
    return;
  }
  // Executions with no request (lanes all predicated off, or all in local
  // memory) are predicted executions: judged below with the requests.
  if (!C.PredictedRequests && !C.PredictedPredicatedOff &&
      !C.PredictedLocalExecutions) {
    C.Kind = "not predicted";
    C.V = Verdict::Explained;
    C.Reason = "(b) the GPU executed " +
               (C.InstRecorded ? num(C.MeasuredInst) + " memory instructions"
                               : std::string("memory instructions")) +
               " here (" + Measured +
               ") where the model predicts no executed access";
    return;
  }
  if (!C.PredictedSectors || !C.PredictedWavefronts) {
    C.Kind = "unknown";
    C.V = Verdict::Explained;
    C.Reason = "(c) prediction unknown: " + C.UnknownReason;
    return;
  }
  double PW = double(*C.PredictedWavefronts), MW = double(C.MeasuredWavefronts);
  bool SectorsSame = *C.PredictedSectors == C.MeasuredSectors;
  bool WavesClose =
      std::fabs(MW - PW) <=
      tolerance::sharedTotal(PW, double(C.PredictedSharedRequests));
  // A generic instruction whose lanes all reached local memory, and a
  // predicated one whose lanes are all off, are executed with no request:
  // the line's instructions count them.
  const uint64_t PredictedInst = C.PredictedRequests +
                                 C.PredictedLocalExecutions +
                                 C.PredictedPredicatedOff;
  bool InstSame = !C.InstRecorded || C.MeasuredInst == PredictedInst;
  C.Exact =
      SectorsSame && InstSame && *C.PredictedWavefronts == C.MeasuredWavefronts;
  std::string Requests =
      num(C.PredictedRequests) + " requests predicted, " +
      (C.InstRecorded ? num(C.MeasuredInst) : std::string("?")) +
      " instructions measured";
  if (SectorsSame && WavesClose && InstSame) {
    C.Kind = "match";
    C.V = Verdict::Match;
    std::vector<std::string> Without;
    if (C.PredictedLocalExecutions)
      Without.push_back(num(C.PredictedLocalExecutions) +
                        " executions of generic instructions whose lanes all "
                        "reached local memory (no global or shared request)");
    if (C.PredictedPredicatedOff)
      Without.push_back(num(C.PredictedPredicatedOff) +
                        " executions by warps with every lane predicated off "
                        "(no request)");
    if (!Without.empty())
      C.Reason = Requests + ", and " + Without.front() +
                 (Without.size() > 1 ? " and " + Without.back() : "");
    return;
  }
  if (SectorsSame && WavesClose && C.InstRecorded &&
      C.MeasuredInst > PredictedInst) {
    // A warp whose lanes are all predicated off still executes the
    // instruction: smsp__sass_inst_executed and l1tex__t_requests count it
    // (mergeHistogram64Kernel of cuda-samples' histogram on an H100), but
    // it moves no byte.
    C.Kind = "inactive warps";
    C.V = Verdict::Explained;
    C.Reason = "(b) " + Requests + " with the same " + Measured + ": " +
               num(C.MeasuredInst - PredictedInst) +
               " executions by warps with every lane predicated off (the "
               "compiler predicated the access instead of branching around "
               "it), counted as instructions and requests with no byte";
    return;
  }
  if (C.InstRecorded && C.MeasuredInst &&
      C.MeasuredInst < C.PredictedRequests &&
      C.PredictedRequests * MinSize <=
          C.MeasuredInst * uint64_t(tolerance::WidestAccess)) {
    // Merging f accesses into one instruction keeps the bytes and can only
    // drop sectors the accesses shared: predicted / f <= measured <=
    // predicted.
    double F = double(C.PredictedRequests) / double(C.MeasuredInst);
    double PS = double(*C.PredictedSectors), MS = double(C.MeasuredSectors);
    double TolW = tolerance::sharedTotal(PW, double(C.PredictedSharedRequests));
    bool SectorsFit = MS <= PS && MS * F + 1e-9 >= PS;
    bool WavesFit = MW <= PW + TolW && (MW + TolW) * F + 1e-9 >= PW;
    bool IdealRecorded = C.MeasuredSectorsIdeal || C.MeasuredWavefrontsIdeal;
    bool BytesKept = !IdealRecorded ||
                     (C.MeasuredSectorsIdeal >= C.PredictedSectorsIdeal &&
                      C.MeasuredWavefrontsIdeal >= C.PredictedWavefrontsIdeal);
    if (SectorsFit && WavesFit && BytesKept) {
      char Factor[32];
      snprintf(Factor, sizeof Factor, "%.3g", F);
      C.Kind = "merged";
      C.V = Verdict::Explained;
      C.Reason = "(a) " + Requests + " (" + Factor + "x fewer), " + Measured +
                 " for " + Predicted +
                 (IdealRecorded ? ", ideal sectors/wavefronts kept" : "") +
                 ": the compiler merged accesses into wider instructions (" +
                 std::to_string(MinSize) + "-byte accesses allow up to " +
                 std::to_string(tolerance::WidestAccess / MinSize) + "x)";
      return;
    }
  }
  if (SectorsSame && InstSame && MultiBlock && PW > 0 &&
      tolerance::withinContention(PW, MW)) {
    char Excess[32];
    snprintf(Excess, sizeof Excess, "%+.1f %%", 100.0 * (MW - PW) / PW);
    C.Kind = "contention";
    C.V = Verdict::Explained;
    C.Reason = "(d) " + num(C.MeasuredWavefronts) +
               " wavefronts measured for " + num(*C.PredictedWavefronts) +
               " predicted (" + Excess +
               "): contention of warps of several blocks on an SM, a "
               "timing effect";
    return;
  }
  const bool BytesKept =
      !(C.MeasuredSectorsIdeal || C.MeasuredWavefrontsIdeal) ||
      (C.MeasuredSectorsIdeal >= C.PredictedSectorsIdeal &&
       C.MeasuredWavefrontsIdeal >= C.PredictedWavefrontsIdeal);
  if (C.InstRecorded && C.MeasuredInst && BytesKept &&
      C.MeasuredInst < C.PredictedRequests &&
      C.PredictedRequests % C.MeasuredInst == 0 &&
      C.PredictedRequests / C.MeasuredInst * MinSize <=
          uint64_t(tolerance::WidestAccess)) {
    // Exactly f times fewer instructions, f within what the access size
    // allows: the compiler emitted one wider instruction per f source
    // accesses (counted as written: --compiler source, or another
    // toolkit). Wider shared instructions change the wavefronts too, which
    // is why the bounds above need not hold.
    uint64_t F = C.PredictedRequests / C.MeasuredInst;
    C.Kind = "merged";
    C.V = Verdict::Explained;
    C.Reason = "(a) " + Requests + " (exactly " + std::to_string(F) +
               "x fewer): merged by the compiler into " +
               std::to_string(F * MinSize) +
               "-byte instructions; predicted " + Predicted + ", measured " +
               Measured + " (run with --compiler nvcc to count them)";
    return;
  }
  C.Kind = "differs";
  C.V = Verdict::Mismatch;
  C.Reason = "no reason established: " + Requests + "; predicted " + Predicted +
             ", measured " + Measured;
}

std::string lineName(const LineComparison &C) {
  return C.File + ":" + std::to_string(C.Line);
}

/// -lineinfo does not always put an instruction at the line of the access
/// the model has: code inlined from another function (an intrinsic such as
/// __ldg in a CUDA header) is counted at that function's line, and a
/// loop-invariant load the compiler hoisted at the loop's line. A line that
/// measured less than predicted, and lines measured without a prediction
/// that make up exactly the rest (instructions, sectors; wavefronts within
/// tolerance), are one line's accesses counted in two places.
void attributeElsewhere(std::vector<LineComparison> &Lines) {
  std::vector<size_t> Extra;
  for (size_t I = 0; I < Lines.size(); ++I)
    if (Lines[I].Kind == "not predicted" && Lines[I].InstRecorded)
      Extra.push_back(I);
  std::vector<bool> Used(Lines.size(), false);
  for (LineComparison &D : Lines) {
    // Exact sums are stronger evidence than merging's bounds.
    if ((D.Kind != "differs" && D.Kind != "merged") || !D.InstRecorded ||
        !D.PredictedSectors || !D.PredictedWavefronts ||
        D.MeasuredInst > D.PredictedRequests ||
        D.MeasuredSectors > *D.PredictedSectors)
      continue;
    uint64_t Inst = D.PredictedRequests - D.MeasuredInst;
    uint64_t Sectors = *D.PredictedSectors - D.MeasuredSectors;
    double Waves =
        double(*D.PredictedWavefronts) - double(D.MeasuredWavefronts);
    double Tol = tolerance::sharedTotal(double(*D.PredictedWavefronts),
                                        double(D.PredictedSharedRequests));
    // The rest in one, two or three of the unpredicted lines.
    std::vector<size_t> Pick;
    std::function<bool(size_t, uint64_t, uint64_t, double)> Find =
        [&](size_t From, uint64_t I, uint64_t S, double W) {
          if (I == Inst && S == Sectors && std::fabs(W - Waves) <= Tol &&
              !Pick.empty())
            return true;
          if (Pick.size() == 3)
            return false;
          for (size_t K = From; K < Extra.size(); ++K) {
            const LineComparison &U = Lines[Extra[K]];
            if (Used[Extra[K]] || I + U.MeasuredInst > Inst ||
                S + U.MeasuredSectors > Sectors)
              continue;
            Pick.push_back(Extra[K]);
            if (Find(K + 1, I + U.MeasuredInst, S + U.MeasuredSectors,
                     W + double(U.MeasuredWavefronts)))
              return true;
            Pick.pop_back();
          }
          return false;
        };
    if (!Inst || !Find(0, 0, 0, 0))
      continue;
    std::string Where;
    for (size_t K : Pick) {
      LineComparison &U = Lines[K];
      Used[K] = true;
      Where += (Where.empty() ? "" : ", ") + lineName(U) + " (" +
               num(U.MeasuredInst) + " instructions, " +
               traffic(U.MeasuredSectors, U.MeasuredWavefronts) + ")";
      U.Kind = "elsewhere";
      U.V = Verdict::Explained;
      U.Reason = "(e) the rest of " + lineName(D) +
                 ": the compiler put those instructions at this line";
    }
    D.Kind = "elsewhere";
    D.V = Verdict::Explained;
    D.Reason = "(e) the GPU counted the rest of this line's accesses (" +
               num(Inst) + " instructions, " +
               traffic(Sectors, uint64_t(Waves + 0.5)) + ") at " + Where +
               ": -lineinfo puts them there (code inlined from that line, "
               "or hoisted into it, as a loop-invariant load is)";
  }
}

} // namespace

std::vector<LineComparison> compareLines(const LaunchResult &R,
                                         const MeasuredLaunch &ML) {
  if (ML.Lines.empty())
    return {};
  std::map<std::pair<std::string, unsigned>, LineComparison> Map;
  std::map<std::pair<std::string, unsigned>, unsigned> MinSize;
  // Per line and side (global, shared): whether its figures are unknown,
  // and whether every unknown access of that side is bounded (their sum).
  struct Side {
    bool Unknown = false, Bounded = true;
    uint64_t Lo = 0, Hi = 0;
  };
  struct Unknowns {
    Side Global, Shared;
  };
  std::map<std::pair<std::string, unsigned>, Unknowns> Unknown;
  for (const Access &A : R.K->Accesses) {
    // The line the GPU attributes the instruction to, where the SASS told.
    auto Key = std::make_pair(
        baseName(A.Compiled.File.empty() ? A.Loc.File : A.Compiled.File),
        A.Compiled.Line ? A.Compiled.Line : A.Loc.Line);
    LineComparison &C = Map[Key];
    C.File = Key.first;
    C.Line = Key.second;
    C.Accesses.push_back(A.Id);
    const AccessStats &S = R.PerAccess[A.Id];
    bool Shared = A.Sp == Space::Shared;
    // An async copy is one instruction: its global side's.
    const uint64_t Requests =
        A.AsyncPartner >= 0 && Shared ? 0 : S.Requests;
    C.PredictedRequests += Requests;
    (Shared ? C.PredictedSharedRequests : C.PredictedGlobalRequests) +=
        Requests;
    C.PredictedLocalExecutions += S.LocalExecutions;
    C.PredictedPredicatedOff += S.PredicatedOff;
    auto &Units = Shared ? C.PredictedWavefronts : C.PredictedSectors;
    Side &Unk = Shared ? Unknown[Key].Shared : Unknown[Key].Global;
    // A copy bypassing L1 whose L1 count is bounded: the per-line counters
    // count by another rule, with bounds of their own (SassSlack).
    const bool OwnSass = !Shared && S.UnknownRequests &&
                         S.BoundedWithSass == S.UnknownRequests &&
                         !S.UncountedRequests;
    if (S.UnknownRequests && !OwnSass) {
      Unk.Bounded = Unk.Bounded && S.bounded() && !S.UncountedRequests;
      Unk.Lo += S.MinUnits;
      Unk.Hi += S.MaxUnits;
      Unk.Unknown = true;
      C.AtLeast = (C.UnknownReason.empty() || C.AtLeast) && S.atLeast();
      if (C.UnknownReason.empty())
        C.UnknownReason = A.Text + ": " + S.UnknownReason;
    }
    if (asyncWavefrontsUnknown(A, S)) {
      Unk.Unknown = true;
      Unk.Bounded = false;
      if (C.UnknownReason.empty())
        C.UnknownReason = A.Text + ": " + AsyncSharedSide;
    }
    if (S.SassSlack) {
      Unk.Unknown = true;
      Unk.Hi += S.SassSlack;
      if (C.UnknownReason.empty())
        C.UnknownReason = A.Text + ": " + BypassLineSectors;
    }
    // The GPU's per-line counters see each request's distinct sectors.
    Units = Units.value_or(0) + S.SassUnits + (OwnSass ? S.BoundedSass : 0);
    (Shared ? C.PredictedWavefrontsIdeal : C.PredictedSectorsIdeal) +=
        S.IdealUnits;
    unsigned &Min = MinSize.try_emplace(Key, A.Size).first->second;
    Min = std::min(Min, A.Size);
  }
  for (const LineShared &L : R.LineOnly) {
    const auto Key = std::make_pair(baseName(L.File), L.Line);
    LineComparison &C = Map[Key];
    C.File = Key.first;
    C.Line = Key.second;
    C.PredictedRequests += L.Instructions;
    C.PredictedSharedRequests += L.Instructions;
    C.PredictedWavefronts = C.PredictedWavefronts.value_or(0) + L.Wavefronts;
    C.PredictedWavefrontsIdeal += L.Wavefronts;
  }
  for (auto &[Key, C] : Map) {
    if (!C.PredictedSectors)
      C.PredictedSectors = 0;
    if (!C.PredictedWavefronts)
      C.PredictedWavefronts = 0;
    const Unknowns &Unk = Unknown[Key];
    auto Bound = [&](const Side &U, std::optional<uint64_t> &Units,
                     std::optional<std::pair<uint64_t, uint64_t>> &Bounds) {
      if (!U.Unknown)
        return;
      if (U.Bounded && !C.AtLeast)
        Bounds = {*Units + U.Lo, *Units + U.Hi};
      Units.reset();
    };
    Bound(Unk.Global, C.PredictedSectors, C.SectorBounds);
    Bound(Unk.Shared, C.PredictedWavefronts, C.WavefrontBounds);
  }
  for (const MeasuredLine &L : ML.Lines) {
    auto Key = std::make_pair(baseName(L.File), L.Line);
    auto [It, New] = Map.try_emplace(Key);
    LineComparison &C = It->second;
    if (New) {
      C.File = Key.first;
      C.Line = Key.second;
      C.PredictedSectors = 0;
      C.PredictedWavefronts = 0;
    }
    C.Measured = true;
    C.MeasuredInst += L.InstExecuted;
    C.MeasuredSectors += L.Sectors;
    C.MeasuredWavefronts += L.Wavefronts;
    C.MeasuredSectorsIdeal += L.SectorsIdeal;
    C.MeasuredWavefrontsIdeal += L.WavefrontsIdeal;
  }
  bool MultiBlock = R.L.Grid.count() > 1;
  std::vector<LineComparison> Out;
  for (auto &[Key, C] : Map) {
    // Instruction counts missing (a hand-written file): compare traffic only.
    C.InstRecorded =
        C.Measured &&
        (C.MeasuredInst || (!C.MeasuredSectors && !C.MeasuredWavefronts));
    if (!C.PredictedRequests && !C.Measured)
      continue; // The model's access never runs, and the GPU agrees.
    auto Min = MinSize.find(Key);
    judge(C, MultiBlock, Min == MinSize.end() ? 4 : Min->second);
    Out.push_back(std::move(C));
  }
  attributeElsewhere(Out);
  return Out;
}

} // namespace gmem
