//===- simulate.cpp - Simulate every warp of a launch ---------------------===//
#include "simulate.h"
#include "block_classes.h"
#include "dead_loops.h"
#include "early_exits.h"
#include "metrics.h"
#include "stmt_walk.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>
#include <tuple>

namespace gmem {

static std::string dimText(const Dim3 &D) {
  return std::to_string(D.X) + "," + std::to_string(D.Y) + "," +
         std::to_string(D.Z);
}

Expected<void> validateDims(const Dim3 *Grid, const Dim3 *Block,
                            const ArchRules &A) {
  const char *Axis = "xyz";
  auto At = [](const Dim3 *D, int I) -> uint64_t {
    return !D ? 1 : I == 0 ? D->X : I == 1 ? D->Y : D->Z;
  };
  for (int I = 0; I < 3; ++I) {
    const uint64_t B = At(Block, I), G = At(Grid, I);
    if (B == 0)
      return Failure{std::string("block ") + dimText(*Block) + " has a zero " +
                     Axis[I] + " dimension; pass --block with positive sizes"};
    if (G == 0)
      return Failure{std::string("grid ") + dimText(*Grid) + " has a zero " +
                     Axis[I] + " dimension; pass --grid with positive sizes"};
    if (B > A.MaxBlockDim[I])
      return Failure{std::string("block ") + dimText(*Block) + ": " + Axis[I] +
                     " is at most " + std::to_string(A.MaxBlockDim[I]) +
                     " on " + A.Name};
    if (G > A.MaxGridDim[I])
      return Failure{std::string("grid ") + dimText(*Grid) + ": " + Axis[I] +
                     " is at most " + std::to_string(A.MaxGridDim[I]) + " on " +
                     A.Name};
  }
  if (Block && Block->count() > A.MaxThreadsPerBlock)
    return Failure{"block " + dimText(*Block) + " has " +
                   std::to_string(Block->count()) + " threads; " + A.Name +
                   " allows at most " + std::to_string(A.MaxThreadsPerBlock)};
  return {};
}

Expected<void> validateLaunch(const Kernel &K, const Launch &L,
                              const ArchRules &A) {
  if (!L.Unresolved.empty())
    return Failure{L.Unresolved.front()};
  if (Expected<void> Dims = validateDims(&L.Grid, &L.Block, A); !Dims)
    return Dims;
  uint64_t Static = 0;
  for (const SharedArray &S : K.Shared)
    if (!S.Dynamic)
      Static = std::max(Static, S.Offset + S.Bytes);
  if (Static > A.MaxStaticShared)
    return Failure{K.Name + " declares " + std::to_string(Static) +
                   " bytes of static shared memory; " + A.Name + " allows " +
                   std::to_string(A.MaxStaticShared) +
                   " (use dynamic shared memory beyond that)"};
  if (Static + L.DynamicSmem > A.MaxSharedOptIn)
    return Failure{K.Name + " needs " + std::to_string(Static + L.DynamicSmem) +
                   " bytes of shared memory per block (" +
                   std::to_string(Static) + " static + " +
                   std::to_string(L.DynamicSmem) + " dynamic); " + A.Name +
                   " allows at most " + std::to_string(A.MaxSharedOptIn)};
  if (L.Args.size() != K.Params.size())
    return Failure{"launch of " + K.Name + " passes " +
                   std::to_string(L.Args.size()) + " arguments for " +
                   std::to_string(K.Params.size()) + " parameters"};
  // Only values the model reads are needed (not a texture object's).
  const std::vector<bool> Read = K.paramsRead();
  for (size_t I = 0; I < K.Params.size(); ++I)
    if (K.Params[I].Kind == ParamKind::Int && Read[I] &&
        L.Args[I].Kind == ArgValue::Unknown)
      return Failure{
          "cannot compute argument '" + K.Params[I].Name + "' of " + K.Name +
          (L.Args[I].Reason.empty() ? "" : " (" + L.Args[I].Reason + ")") +
          "; pass --arg " + K.Params[I].Name + "=VALUE"};
  return {};
}

LaunchEnv makeLaunchEnv(const Kernel &K, const Launch &L) {
  LaunchEnv Env;
  Env.Grid = L.Grid;
  Env.Block = L.Block;
  Env.DynamicSmem = L.DynamicSmem;
  std::map<std::string, uint64_t> Bases;
  for (size_t I = 0; I < K.Params.size(); ++I) {
    const Param &P = K.Params[I];
    const ArgValue *A = I < L.Args.size() ? &L.Args[I] : nullptr;
    int64_t V = 0;
    std::string Unknown;
    if (P.Kind == ParamKind::Pointer) {
      std::string Alloc =
          A && A->Kind == ArgValue::Pointer && !A->Allocation.empty()
              ? A->Allocation
              : "param:" + P.Name;
      if (Alloc == NullPointer) {
        V = 0; // `if (p != NULL)` must see it.
      } else {
        auto It = Bases.emplace(Alloc, (Bases.size() + 1) << 36).first;
        // Recorded arguments give the offset in the allocation; bases lie
        // 2^36 apart, so it must stay below that.
        const uint64_t Off = A ? A->AlignOffset : 0;
        V = int64_t(It->second + (Off < (1ull << 35) ? Off : Off % 256));
      }
    } else if (P.Kind == ParamKind::Int && A && A->Kind == ArgValue::Int) {
      V = normalize(uint64_t(A->IntValue), P.Type);
    } else {
      Unknown = "parameter '" + P.Name + "' has no integer value" +
                (A && !A->Reason.empty() ? " (" + A->Reason + ")" : "");
    }
    Env.ParamValues.push_back(V);
    Env.ParamUnknown.push_back(Unknown);
  }
  // Recorded runs: every allocation gets a base (pointers loaded from
  // memory may point into any), after the arguments' so theirs stay put.
  if (!L.Memory.empty()) {
    auto Memory = std::make_shared<LaunchMemory>();
    for (const auto &[Name, Image] : L.Memory) {
      auto It = Bases.emplace(Name, (Bases.size() + 1) << 36).first;
      if (Image.Bytes < (1ull << 35))
        Memory->add(It->second, Image);
    }
    Env.Memory = std::move(Memory);
  }
  return Env;
}

static Collected simulateEveryWarp(const Kernel &K, const ArchRules &A,
                                   const LaunchEnv &Env, const SimOptions &O,
                                   Progress &P) {
  const uint64_t Blocks = Env.Grid.count();
  const unsigned WarpsPerBlock = unsigned((Env.Block.count() + 31) / 32);
  Collected All;
  All.init(K.Accesses.size());
  if (Blocks * WarpsPerBlock > O.MaxWarps) {
    All.Incomplete = "not simulated: " +
                     std::string(O.Exhaustive ? "--exhaustive"
                                              : "this kernel (shuffles, loaded "
                                                "values or compiler-merged "
                                                "accesses)") +
                     " needs " + std::to_string(Blocks * WarpsPerBlock) +
                     " warps run one by one, more than --max-warps " +
                     std::to_string(O.MaxWarps) + "; pass a larger --max-warps";
    return All;
  }
  unsigned Threads =
      O.Threads ? O.Threads : std::max(1u, std::thread::hardware_concurrency());
  Threads = unsigned(std::min<uint64_t>(Threads, Blocks));
  std::vector<Collected> Parts(Threads);
  const Budget Limit(O);
  std::atomic<bool> Over{false};
  // Blocks are dealt out round-robin so that every thread gets a similar mix.
  auto Work = [&](unsigned T) {
    Collected &C = Parts[T];
    C.init(K.Accesses.size());
    WarpEvaluator E(K, A, Env, C.Stats);
    if (O.EveryIteration)
      E.LoopSkipFrom = UINT64_MAX;
    for (uint64_t B = T; B < Blocks && !Over; B += Threads) {
      Dim3 Idx{B % Env.Grid.X, (B / Env.Grid.X) % Env.Grid.Y,
               B / (Env.Grid.X * Env.Grid.Y)};
      for (unsigned W = 0; W < WarpsPerBlock; ++W)
        C.Evaluated += E.runWarp(Idx, W);
      P.Done += WarpsPerBlock;
      if (Limit.passed())
        Over = true;
    }
    C.keep(C.OutOfBounds, E.Faults.OutOfBounds);
    C.keep(C.Misaligned, E.Faults.Misaligned);
  };
  std::vector<std::thread> Pool;
  for (unsigned T = 1; T < Threads; ++T)
    Pool.emplace_back(Work, T);
  Work(0);
  for (std::thread &T : Pool)
    T.join();
  for (const Collected &C : Parts)
    All.add(C);
  if (Over)
    All.Incomplete = Limit.why(P.Done, Blocks * WarpsPerBlock);
  return All;
}

// What the class-based path (box_eval.cpp) does not model yet: shuffles
// and the proven bounds of values loaded from memory (warp_eval's ranges).
// They matter only where they reach an address or a condition: a value
// loaded into an accumulator that only a store writes back (a GEMM's
// `sum += a[i] * b[i]`) costs the same in every warp, and the box path,
// which keeps it unknown, gives the same figures.
static bool condsMayBeUnknown(const std::vector<Stmt> &L,
                              const MaybeUnknown &T) {
  for (const Stmt &S : L) {
    if (T.of(S.Cond.get()))
      return true;
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      if (condsMayBeUnknown(*Sub, T))
        return true;
  }
  return false;
}

static bool needsEveryWarp(const Kernel &K) {
  const MaybeUnknown T(K);
  for (const Access &A : K.Accesses)
    if (T.of(A.Address.get()))
      return true;
  return condsMayBeUnknown(K.Body, T);
}

LaunchResult simulate(const Kernel &K, const Launch &L, const SimOptions &O) {
  auto Start = std::chrono::steady_clock::now();
  const ArchRules &A = O.Arch ? *O.Arch : *findArch("sm_90");
  LaunchEnv Env = makeLaunchEnv(K, L);
  const uint64_t Warps = L.Grid.count() * ((L.Block.count() + 31) / 32);
  Collected C;
  {
    Progress P(K.Name, Warps, O.OnProgress);
    // Loops that change no figure are not evaluated (dead_loops.h).
    const std::optional<Kernel> Pruned = withoutDeadLoops(K);
    // Code after an early exit counts as a branch side (early_exits.h).
    const std::optional<Kernel> Folded =
        withEarlyExitsFolded(Pruned ? *Pruned : K, Env);
    const Kernel &Run = Folded ? *Folded : Pruned ? *Pruned : K;
    C = O.Exhaustive || needsEveryWarp(Run)
            ? simulateEveryWarp(Run, A, Env, O, P)
            : simulateByClasses(Run, A, Env, O, P);
  }

  LaunchResult R;
  R.L = L;
  R.K = &K;
  R.Arch = A.Name;
  R.PerAccess = C.Stats;
  R.Warps = Warps;
  R.WarpsEvaluated = C.Evaluated;
  R.WarpsDerived = C.Derived;
  R.Incomplete = C.Incomplete;
  auto Example = [&](size_t I, bool Misaligned) -> const FaultLane * {
    const OrderedExample &X = (Misaligned ? C.Misaligned : C.OutOfBounds)[I];
    return X.Order == ~uint64_t(0) ? nullptr : &X.Where;
  };
  auto Typed = [](const FaultLane *B) -> std::optional<FaultExample> {
    if (!B)
      return std::nullopt;
    return FaultExample{B->BlockIdx, uint64_t(B->Warp) * 32 + B->Lane,
                        B->Address};
  };
  R.FirstOutOfBounds.resize(K.Accesses.size());
  R.FirstMisaligned.resize(K.Accesses.size());
  for (size_t I = 0; I < K.Accesses.size(); ++I) {
    const Access &Acc = K.Accesses[I];
    std::string Where = Acc.Loc.File + ":" + std::to_string(Acc.Loc.Line) +
                        ":" + std::to_string(Acc.Loc.Col) + ": " + Acc.Text;
    auto Lane = [](const FaultLane &B) {
      return "block (" + dimText(B.BlockIdx) + "), thread " +
             std::to_string(B.Warp * 32 + B.Lane);
    };
    R.FirstOutOfBounds[I] = Typed(Example(I, false));
    R.FirstMisaligned[I] = Typed(Example(I, true));
    if (const FaultLane *B = Example(I, false)) {
      const SharedArray &Arr = K.Shared[Acc.SharedArray];
      uint64_t Size = Arr.Dynamic ? L.DynamicSmem : Arr.Bytes;
      R.Diagnostics.push_back(
          Where + " is out of bounds: " +
          std::to_string(R.PerAccess[I].OutOfBoundsLanes) +
          " lane accesses fall outside the " + std::to_string(Size) +
          "-byte shared array '" + Arr.Name + "' (e.g. " + Lane(*B) +
          ", byte offset " + std::to_string(int64_t(B->Address - Arr.Offset)) +
          ")");
    }
    if (uint64_t N = R.PerAccess[I].OverflowRequests)
      R.Diagnostics.push_back(
          Where + ": pointer arithmetic leaves the address space in " +
          std::to_string(N) + (N == 1 ? " request" : " requests") +
          " (below 0, past 2^64 or 2^63 bytes or more from the pointer; "
          "undefined in C++); check the index and the launch values it "
          "comes from");
    if (const FaultLane *B = Example(I, true))
      R.Diagnostics.push_back(Where + " is misaligned: " +
                              std::to_string(R.PerAccess[I].MisalignedLanes) +
                              " lane accesses of " + std::to_string(Acc.Size) +
                              " bytes start at an address that is "
                              "not a multiple of " +
                              std::to_string(Acc.Size) + " (e.g. " + Lane(*B) +
                              ", address % " + std::to_string(Acc.Size) +
                              " = " + std::to_string(B->Address % Acc.Size) +
                              "); the GPU faults with 'misaligned address'");
  }
  computeMetrics(R);
  if (!R.Incomplete.empty()) {
    R.Diagnostics.clear();
    R.FirstOutOfBounds.assign(K.Accesses.size(), std::nullopt);
    R.FirstMisaligned.assign(K.Accesses.size(), std::nullopt);
    withdrawFigures(R);
  }
  R.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  return R;
}

} // namespace gmem
