//===- simulate.cpp - Simulate every warp of a launch ---------------------===//
#include "simulate.h"
#include "metrics.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>
#include <tuple>

namespace gmem {

void AccessStats::add(const AccessStats &O) {
  Requests += O.Requests;
  ActiveLanes += O.ActiveLanes;
  Units += O.Units;
  IdealUnits += O.IdealUnits;
  DistinctBytes += O.DistinctBytes;
  MaxUnitsPerRequest = std::max(MaxUnitsPerRequest, O.MaxUnitsPerRequest);
  MaxWays = std::max(MaxWays, O.MaxWays);
  MisalignedLanes += O.MisalignedLanes;
  UnknownRequests += O.UnknownRequests;
  OutOfBoundsLanes += O.OutOfBoundsLanes;
  if (UnknownReason.empty())
    UnknownReason = O.UnknownReason;
  if (!HasStride && O.HasStride) {
    HasStride = true;
    Stride = O.Stride;
    FirstAddress = O.FirstAddress;
  }
}

static std::string dimText(const Dim3 &D) {
  return std::to_string(D.X) + "," + std::to_string(D.Y) + "," +
         std::to_string(D.Z);
}

std::optional<std::string> validateLaunch(const Kernel &K, const Launch &L,
                                          const ArchRules &A) {
  if (!L.Unresolved.empty())
    return L.Unresolved.front();
  const uint64_t B[] = {L.Block.X, L.Block.Y, L.Block.Z};
  const uint64_t G[] = {L.Grid.X, L.Grid.Y, L.Grid.Z};
  const char *Axis = "xyz";
  for (int I = 0; I < 3; ++I) {
    if (B[I] == 0)
      return std::string("block ") + dimText(L.Block) + " has a zero " +
             Axis[I] + " dimension; pass --block with positive sizes";
    if (G[I] == 0)
      return std::string("grid ") + dimText(L.Grid) + " has a zero " + Axis[I] +
             " dimension; pass --grid with positive sizes";
    if (B[I] > A.MaxBlockDim[I])
      return std::string("block ") + dimText(L.Block) + ": " + Axis[I] +
             " is at most " + std::to_string(A.MaxBlockDim[I]) + " on " +
             A.Name;
    if (G[I] > A.MaxGridDim[I])
      return std::string("grid ") + dimText(L.Grid) + ": " + Axis[I] +
             " is at most " + std::to_string(A.MaxGridDim[I]) + " on " + A.Name;
  }
  if (L.Block.count() > A.MaxThreadsPerBlock)
    return "block " + dimText(L.Block) + " has " +
           std::to_string(L.Block.count()) + " threads; " + A.Name +
           " allows at most " + std::to_string(A.MaxThreadsPerBlock);
  uint64_t Static = 0;
  for (const SharedArray &S : K.Shared)
    if (!S.Dynamic)
      Static = std::max(Static, S.Offset + S.Bytes);
  if (Static > A.MaxStaticShared)
    return K.Name + " declares " + std::to_string(Static) +
           " bytes of static shared memory; " + A.Name + " allows " +
           std::to_string(A.MaxStaticShared) +
           " (use dynamic shared memory beyond that)";
  if (Static + L.DynamicSmem > A.MaxSharedOptIn)
    return K.Name + " needs " + std::to_string(Static + L.DynamicSmem) +
           " bytes of shared memory per block (" + std::to_string(Static) +
           " static + " + std::to_string(L.DynamicSmem) + " dynamic); " +
           A.Name + " allows at most " + std::to_string(A.MaxSharedOptIn);
  if (L.Args.size() != K.Params.size())
    return "launch of " + K.Name + " passes " + std::to_string(L.Args.size()) +
           " arguments for " + std::to_string(K.Params.size()) + " parameters";
  for (size_t I = 0; I < K.Params.size(); ++I)
    if (K.Params[I].Kind == ParamKind::Int &&
        L.Args[I].Kind == ArgValue::Unknown)
      return "cannot compute argument '" + K.Params[I].Name + "' of " + K.Name +
             (L.Args[I].Reason.empty() ? "" : " (" + L.Args[I].Reason + ")") +
             "; pass --arg " + K.Params[I].Name + "=VALUE";
  return std::nullopt;
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
      auto It = Bases.emplace(Alloc, (Bases.size() + 1) << 36).first;
      V = int64_t(It->second + (A ? A->AlignOffset % 256 : 0));
    } else if (P.Kind == ParamKind::Int && A && A->Kind == ArgValue::Int) {
      V = normalize(uint64_t(A->IntValue), P.Type);
    } else {
      Unknown = "parameter '" + P.Name + "' has no integer value" +
                (A && !A->Reason.empty() ? " (" + A->Reason + ")" : "");
    }
    Env.ParamValues.push_back(V);
    Env.ParamUnknown.push_back(Unknown);
  }
  return Env;
}

LaunchResult simulate(const Kernel &K, const Launch &L, const SimOptions &O) {
  auto Start = std::chrono::steady_clock::now();
  const ArchRules &A = O.Arch ? *O.Arch : *findArch("sm_90");
  LaunchEnv Env = makeLaunchEnv(K, L);
  const uint64_t Blocks = L.Grid.count();
  const unsigned WarpsPerBlock = unsigned((L.Block.count() + 31) / 32);
  unsigned Threads =
      O.Threads ? O.Threads : std::max(1u, std::thread::hardware_concurrency());
  Threads = unsigned(std::min<uint64_t>(Threads, Blocks));

  struct Part {
    std::vector<AccessStats> Stats;
    std::vector<OutOfBounds> FirstOOB, FirstMisaligned;
    uint64_t Warps = 0;
  };
  std::vector<Part> Parts(Threads);
  // Blocks are dealt out round-robin so that every thread gets a similar mix.
  auto Work = [&](unsigned T) {
    Part &P = Parts[T];
    P.Stats.assign(K.Accesses.size(), AccessStats());
    WarpEvaluator W(K, A, Env, P.Stats);
    for (uint64_t B = T; B < Blocks; B += Threads) {
      Dim3 Idx{B % L.Grid.X, (B / L.Grid.X) % L.Grid.Y,
               B / (L.Grid.X * L.Grid.Y)};
      for (unsigned Wp = 0; Wp < WarpsPerBlock; ++Wp)
        P.Warps += W.runWarp(Idx, Wp);
    }
    P.FirstOOB = W.FirstOutOfBounds;
    P.FirstMisaligned = W.FirstMisaligned;
  };
  std::vector<std::thread> Pool;
  for (unsigned T = 1; T < Threads; ++T)
    Pool.emplace_back(Work, T);
  Work(0);
  for (std::thread &T : Pool)
    T.join();

  LaunchResult R;
  R.L = L;
  R.K = &K;
  R.Arch = A.Name;
  R.PerAccess.assign(K.Accesses.size(), AccessStats());
  for (const Part &P : Parts) {
    R.Warps += P.Warps;
    for (size_t I = 0; I < P.Stats.size(); ++I)
      R.PerAccess[I].add(P.Stats[I]);
  }
  // One example lane per faulting access (the GPU would stop there).
  // The first in launch order, so that the report does not depend on how
  // blocks were dealt to threads.
  auto Example = [&](size_t I, bool Misaligned) -> const OutOfBounds * {
    const OutOfBounds *First = nullptr;
    auto Order = [&](const OutOfBounds &B) {
      uint64_t Block =
          B.BlockIdx.X + L.Grid.X * (B.BlockIdx.Y + L.Grid.Y * B.BlockIdx.Z);
      return std::make_tuple(Block, B.Warp, B.Lane);
    };
    for (const Part &P : Parts) {
      const OutOfBounds &B = (Misaligned ? P.FirstMisaligned : P.FirstOOB)[I];
      if (B.Lane != ~0u && (!First || Order(B) < Order(*First)))
        First = &B;
    }
    return First;
  };
  for (size_t I = 0; I < K.Accesses.size(); ++I) {
    const Access &Acc = K.Accesses[I];
    std::string Where = Acc.Loc.File + ":" + std::to_string(Acc.Loc.Line) +
                        ":" + std::to_string(Acc.Loc.Col) + ": " + Acc.Text;
    auto Lane = [](const OutOfBounds &B) {
      return "block (" + dimText(B.BlockIdx) + "), thread " +
             std::to_string(B.Warp * 32 + B.Lane);
    };
    if (const OutOfBounds *B = Example(I, false)) {
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
    if (const OutOfBounds *B = Example(I, true))
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
  R.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  return R;
}

} // namespace gmem
