//===- block_classes.cpp - Classes of alike blocks, in parallel -----------===//
#include "block_classes.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <sstream>
#include <thread>

namespace gmem {

void Collected::init(size_t Accesses) {
  Stats.assign(Accesses, AccessStats());
  OutOfBounds.assign(Accesses, OrderedExample());
  Misaligned = OutOfBounds;
}

void Collected::keep(std::vector<OrderedExample> &Into,
                     const std::vector<OrderedExample> &From) {
  for (size_t I = 0; I < From.size(); ++I)
    if (From[I].Order < Into[I].Order)
      Into[I] = From[I];
}

void Collected::add(const Collected &O) {
  for (size_t I = 0; I < Stats.size(); ++I)
    Stats[I].add(O.Stats[I]);
  keep(OutOfBounds, O.OutOfBounds);
  keep(Misaligned, O.Misaligned);
  Evaluated += O.Evaluated;
  Derived += O.Derived;
  if (Incomplete.empty())
    Incomplete = O.Incomplete;
}

void runEveryWarp(WarpEvaluator &E, std::vector<AccessStats> &Stats,
                  const BlockBox &Box, unsigned W, Collected &C) {
  // Fresh counts, merged below: a first stride or reason must be the box's
  // own, whatever C saw before.
  std::fill(Stats.begin(), Stats.end(), AccessStats());
  uint64_t U[3];
  for (U[2] = 0; U[2] < Box.Ext[2]; ++U[2])
    for (U[1] = 0; U[1] < Box.Ext[1]; ++U[1])
      for (U[0] = 0; U[0] < Box.Ext[0]; ++U[0]) {
        Dim3 B = Box.block(U);
        C.Evaluated += E.runWarp(B, W);
      }
  for (size_t I = 0; I < Stats.size(); ++I)
    C.Stats[I].add(Stats[I]);
  C.keep(C.OutOfBounds, E.Faults.OutOfBounds);
  C.keep(C.Misaligned, E.Faults.Misaligned);
}

namespace {

struct Item {
  BlockBox Box;
  unsigned W = 0;
  bool EveryWarp = false; ///< No affine description: run each block.
};

/// Largest box run one by one as one piece of work.
constexpr uint64_t EveryWarpChunk = 2048;
/// Most boxes one cut may make; beyond, a box is halved.
constexpr uint64_t MaxClasses = 64;

/// Halves a box that is to run one by one along its longest dimension.
void halve(const Item &It, std::vector<Item> &Out) {
  BlockBox X = It.Box, H = It.Box;
  int D = int(std::max_element(X.Ext, X.Ext + 3) - X.Ext);
  uint64_t Half = X.Ext[D] / 2;
  X.Ext[D] = Half;
  H.Lo[D] += H.Stride[D] * Half;
  H.Ext[D] -= Half;
  Out.push_back({H, It.W, true});
  Out.push_back({X, It.W, true});
}

/// Cuts Box by R into Out.
void cut(const Item &It, const Refine &R, std::vector<Item> &Out) {
  const BlockBox &B = It.Box;
  auto Parts = [&](int D, uint64_t Classes) {
    if (Classes > MaxClasses) {
      // Halve instead: the queue stays short (work is depth first), and
      // every run counts against --max-warps.
      Item Low = It, High = It;
      Low.Box.Ext[D] = B.Ext[D] / 2;
      High.Box.Lo[D] = B.Lo[D] + B.Stride[D] * Low.Box.Ext[D];
      High.Box.Ext[D] = B.Ext[D] - Low.Box.Ext[D];
      Out.push_back(High);
      Out.push_back(Low);
      return;
    }
    for (uint64_t J = 0; J < Classes && J < B.Ext[D]; ++J) {
      Item P = It;
      P.Box.Lo[D] = B.Lo[D] + B.Stride[D] * J;
      P.Box.Stride[D] = B.Stride[D] * Classes;
      P.Box.Ext[D] = (B.Ext[D] - 1 - J) / Classes + 1;
      Out.push_back(P);
    }
  };
  switch (R.Kind) {
  case Refine::Split: {
    Item Low = It, High = It;
    Low.Box.Ext[R.Dim] = R.At;
    High.Box.Lo[R.Dim] = B.Lo[R.Dim] + B.Stride[R.Dim] * R.At;
    High.Box.Ext[R.Dim] = B.Ext[R.Dim] - R.At;
    Out.push_back(High);
    Out.push_back(Low);
    return;
  }
  case Refine::Residues:
    Parts(R.Dim, R.At);
    return;
  case Refine::NonAffine: {
    unsigned Moving = 0;
    for (int D = 0; D < 3; ++D)
      if (B.Ext[D] > 1)
        Moving |= 1u << D;
    unsigned Bad = R.Dims & Moving;
    if (Bad && (Bad != Moving || __builtin_popcount(Bad) > 1)) {
      // Fix the smallest offending dimension: the others stay classes.
      int Best = -1;
      for (int D = 0; D < 3; ++D)
        if ((Bad >> D & 1) && (Best < 0 || B.Ext[D] < B.Ext[Best]))
          Best = D;
      Parts(Best, B.Ext[Best]);
      return;
    }
    // Affine in nothing that moves: every block (cut into chunks when run).
    Out.push_back({B, It.W, true});
    return;
  }
  case Refine::EveryWarp:
    Out.push_back({B, It.W, true});
    return;
  }
}

} // namespace

Budget::Budget(const SimOptions &O)
    : Seconds(O.BudgetSeconds), Start(std::chrono::steady_clock::now()) {}

bool Budget::passed() const {
  return Seconds > 0 &&
         std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
                 .count() > Seconds;
}

std::string Budget::why(uint64_t Done, uint64_t Total) const {
  std::ostringstream OS;
  OS << "stopped after " << Seconds
     << " s of evaluating warps one by one (--sim-budget), " << Done << " of "
     << Total
     << " warps done: the model's evaluation of this launch's loops is too "
        "long to finish; pass --sim-budget with more seconds";
  return OS.str();
}

Collected simulateByClasses(const Kernel &K, const ArchRules &A,
                            const LaunchEnv &Env, const SimOptions &O,
                            Progress &P) {
  const unsigned WarpsPerBlock = unsigned((Env.Block.count() + 31) / 32);
  unsigned Threads =
      O.Threads ? O.Threads : std::max(1u, std::thread::hardware_concurrency());

  std::mutex M;
  std::condition_variable Cv;
  std::vector<Item> Work;
  unsigned Busy = 0;
  bool Stop = false;
  std::atomic<uint64_t> Spent{0}; // Evaluator runs and warps, for MaxWarps.
  const Budget Limit(O);
  std::string Incomplete;
  for (unsigned W = WarpsPerBlock; W-- > 0;) {
    Item It;
    It.W = W;
    It.Box.Ext[0] = Env.Grid.X;
    It.Box.Ext[1] = Env.Grid.Y;
    It.Box.Ext[2] = Env.Grid.Z;
    Work.push_back(It);
  }

  std::vector<Collected> Parts(Threads);
  auto Worker = [&](unsigned T) {
    Collected &C = Parts[T];
    C.init(K.Accesses.size());
    BoxEvaluator E(K, A, Env);
    std::vector<AccessStats> EveryStats(K.Accesses.size());
    WarpEvaluator Every(K, A, Env, EveryStats);
    if (O.EveryIteration) {
      Every.LoopSkipFrom = UINT64_MAX;
      E.HandOverLoops = false;
    }
    std::vector<AccessStats> Local;
    std::vector<Item> New;
    while (true) {
      Item It;
      {
        std::unique_lock<std::mutex> G(M);
        Cv.wait(G, [&] { return Stop || !Work.empty() || Busy == 0; });
        if (Stop || Work.empty())
          return;
        It = Work.back();
        Work.pop_back();
        ++Busy;
      }
      if (Limit.passed()) {
        std::lock_guard<std::mutex> G(M);
        if (Incomplete.empty())
          Incomplete = Limit.why(P.Done, Env.Grid.count() * WarpsPerBlock);
        Stop = true;
        Cv.notify_all();
        return;
      }
      uint64_t Cost = It.EveryWarp ? It.Box.count() : 1;
      bool Chunk = It.EveryWarp && Cost > EveryWarpChunk;
      // A chunk is charged when it runs; a larger box only checked.
      if ((Chunk ? Spent.load() + Cost : Spent.fetch_add(Cost) + Cost) >
          O.MaxWarps) {
        std::lock_guard<std::mutex> G(M);
        if (Incomplete.empty())
          Incomplete =
              "stopped at --max-warps " + std::to_string(O.MaxWarps) +
              " (warps evaluated one by one): this launch has accesses whose "
              "addresses or conditions are not affine in the block "
              "index, so its warps run one by one; pass --max-warps "
              "N with a larger N to finish it";
        Stop = true;
        Cv.notify_all();
        return;
      }
      New.clear();
      if (Chunk) {
        halve(It, New);
      } else if (It.EveryWarp || It.Box.count() == 1) {
        runEveryWarp(Every, EveryStats, It.Box, It.W, C);
        P.Done += It.Box.count();
      } else {
        Local.assign(K.Accesses.size(), AccessStats());
        if (std::optional<Refine> R = E.run(It.Box, It.W, Local)) {
          cut(It, *R, New);
        } else {
          for (size_t I = 0; I < Local.size(); ++I)
            C.Stats[I].add(Local[I]);
          C.keep(C.OutOfBounds, E.Faults.OutOfBounds);
          C.keep(C.Misaligned, E.Faults.Misaligned);
          C.Evaluated += 1;
          C.Derived += It.Box.count() - 1;
          P.Done += It.Box.count();
        }
      }
      std::lock_guard<std::mutex> G(M);
      Work.insert(Work.end(), New.begin(), New.end());
      --Busy;
      Cv.notify_all();
    }
  };
  std::vector<std::thread> Pool;
  for (unsigned T = 1; T < Threads; ++T)
    Pool.emplace_back(Worker, T);
  Worker(0);
  for (std::thread &T : Pool)
    T.join();
  Collected All;
  All.init(K.Accesses.size());
  for (const Collected &C : Parts)
    All.add(C);
  All.Incomplete = Incomplete;
  return All;
}

} // namespace gmem
