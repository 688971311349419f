//===- simulator_fuzzer.cpp - Random small kernels through the simulator --===//
//
// Bytes decide a kernel model (global and shared accesses of every size,
// guards, bounded loops with break and continue, returns, inlined calls)
// and a small launch. Every request the evaluator prices is re-priced by
// brute force from DESIGN.md's rules (distinct 32-byte sectors; per group of
// lanes, the most distinct words one bank serves), and the launch's totals
// must satisfy: sectors >= requests, efficiency <= 100 %, wavefronts >=
// requests, the same totals and diagnostics whatever the thread count.
//
//===----------------------------------------------------------------------===//
#include "fuzz_check.h"
#include "memory_units.h"
#include "metrics.h"
#include "model_check.h"
#include "model_json.h"
#include "simulate.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fuzzer/FuzzedDataProvider.h>
#include <map>
#include <set>

using namespace gmem;

namespace {

constexpr IntType I32{32, true}, I64{64, true}, U64{64, false};
constexpr int GeneralSlots = 3, Counters = 3;

class Builder {
public:
  Builder(FuzzedDataProvider &In, Kernel &K) : In(In), K(K) {}

  ExprPtr leaf() {
    switch (In.ConsumeIntegralInRange(0, 7)) {
    case 0:
      return makeConst(In.ConsumeIntegralInRange(-3, 70), I32);
    case 1:
      return makeParam(2, I32); // n
    case 2:
      if (LoopDepth)
        return makeVar(
            GeneralSlots + In.ConsumeIntegralInRange(0, LoopDepth - 1), I32);
      [[fallthrough]];
    case 3:
      return makeVar(In.ConsumeIntegralInRange(0, GeneralSlots - 1), I32);
    default:
      return makeCast(makeBuiltin(Builtin(In.ConsumeIntegralInRange(0, 12))),
                      I32);
    }
  }

  ExprPtr index(int Depth) {
    if (Depth <= 0 || In.ConsumeIntegralInRange(0, 2) == 0)
      return leaf();
    static const Op Ops[] = {Op::Add, Op::Add, Op::Sub, Op::Mul,   Op::Mul,
                             Op::Div, Op::Rem, Op::And, Op::Xor,   Op::Shr,
                             Op::Min, Op::Max, Op::Shl, Op::Select};
    Op K = Ops[In.ConsumeIntegralInRange<size_t>(0, std::size(Ops) - 1)];
    if (K == Op::Shl)
      return makeBinary(K, index(Depth - 1),
                        makeConst(In.ConsumeIntegralInRange(0, 6), I32), I32);
    if (K == Op::Select)
      return makeSelect(cond(Depth - 1), index(Depth - 1), index(Depth - 1),
                        I32);
    return makeBinary(K, index(Depth - 1), index(Depth - 1), I32);
  }

  ExprPtr cond(int Depth) {
    static const Op Cmp[] = {Op::Lt, Op::Le, Op::Eq, Op::Ne, Op::Gt};
    return makeBinary(Cmp[In.ConsumeIntegralInRange(0, 4)], index(Depth),
                      index(Depth), {1, false});
  }

  ExprPtr address(Space Sp, unsigned Size, int &SharedArray) {
    if (Sp == Space::Global && In.ConsumeBool()) {
      // As the analyzer writes p[i]: pointer arithmetic, whose lanes leave
      // the address space for some indices anywhere in 64 bits.
      ExprPtr I = makeCast(index(3), I64);
      if (In.ConsumeIntegralInRange(0, 3) == 0)
        I = makeBinary(Op::Mul, I,
                       makeConst(In.ConsumeIntegral<int64_t>(), I64), I64);
      return makePointerArith(
          Op::Add, makeParam(In.ConsumeIntegralInRange(0, 1), U64),
          makePointerArith(Op::Mul, makeCast(I, U64), makeConst(Size, U64)));
    }
    ExprPtr Offset =
        makeBinary(Op::Mul, makeCast(index(3), I64), makeConst(Size, I64), I64);
    if (In.ConsumeIntegralInRange(0, 7) == 0) // A misaligned byte offset.
      Offset =
          makeBinary(Op::Add, Offset,
                     makeConst(In.ConsumeIntegralInRange(1, 15), I64), I64);
    ExprPtr Base;
    if (Sp == Space::Global) {
      if (In.ConsumeIntegralInRange(0, 15) == 0) // Anywhere in 64 bits.
        return makeConst(In.ConsumeIntegral<int64_t>(), U64);
      Base = makeParam(In.ConsumeIntegralInRange(0, 1), U64);
    } else {
      SharedArray = In.ConsumeIntegralInRange<int>(0, int(K.Shared.size()) - 1);
      Base = makeConst(int64_t(K.Shared[SharedArray].Offset), U64);
    }
    return makeBinary(Op::Add, Base, makeCast(Offset, U64), U64);
  }

  Stmt access() {
    static const unsigned Sizes[] = {1, 2, 4, 4, 4, 8, 8, 16};
    Access A;
    A.Id = int(K.Accesses.size());
    A.Sp = In.ConsumeBool() ? Space::Shared : Space::Global;
    A.Kind = AccessKind(In.ConsumeIntegralInRange(0, 2));
    A.Size = Sizes[In.ConsumeIntegralInRange(0, 7)];
    A.Address = address(A.Sp, A.Size, A.SharedArray);
    A.Text = "a" + std::to_string(A.Id);
    A.Loc = {"fuzz.cu", unsigned(A.Id + 1), 1};
    if (A.Kind == AccessKind::Atomic) {
      A.Reduction = In.ConsumeBool();
      A.Compiled.OneLane = In.ConsumeBool();
    }
    // What the compiler may have made of it (both paths model these).
    switch (In.ConsumeIntegralInRange(0, 9)) {
    case 8:
      A.Compiled.State = CompiledForm::NoInstruction;
      break;
    case 9:
      if (A.Size < 2 || A.Kind == AccessKind::Atomic)
        break;
      A.Compiled.State = CompiledForm::Split;
      A.Compiled.Width = A.Size / 2;
      A.Compiled.Parts = {In.ConsumeBool() ? 0u : A.Size / 2};
      break;
    case 0:
      A.Compiled.State = CompiledForm::Reused;
      break;
    case 1:
      A.Compiled.State = CompiledForm::Hoisted;
      A.Compiled.Loop = In.ConsumeIntegralInRange(0, 1);
      break;
    case 2:
      A.Compiled.State = CompiledForm::OncePerAddress;
      A.Compiled.Loop = In.ConsumeIntegralInRange(0, 1);
      break;
    case 3:
      if (A.Size >= 16)
        break;
      A.Compiled.State = CompiledForm::Merged;
      A.Compiled.Width = A.Size < 8 && In.ConsumeBool() ? 8 : 16;
      if (In.ConsumeBool()) {
        A.Compiled.Loop = In.ConsumeIntegralInRange(0, 1);
      } else {
        // Led by itself or by an earlier access of its size.
        A.Compiled.Leader = A.Id;
        int B = In.ConsumeIntegralInRange(0, A.Id);
        if (B < A.Id && K.Accesses[size_t(B)].Size == A.Size)
          A.Compiled.Leader = B;
      }
      break;
    default:
      break;
    }
    K.Accesses.push_back(A);
    Stmt S;
    S.Kind = StmtKind::Access;
    S.AccessId = A.Id;
    return S;
  }

  std::vector<Stmt> stmts(int Depth) {
    std::vector<Stmt> L;
    int N = In.ConsumeIntegralInRange(1, 4);
    for (int I = 0; I < N && In.remaining_bytes() && K.Accesses.size() < 24;
         ++I) {
      int Kind = Depth <= 0 ? In.ConsumeIntegralInRange(0, 1)
                            : In.ConsumeIntegralInRange(0, 9);
      Stmt S;
      switch (Kind) {
      case 0:
        L.push_back(access());
        continue;
      case 1:
      case 2:
        S.Kind = StmtKind::Assign;
        S.Slot = In.ConsumeIntegralInRange(0, GeneralSlots - 1);
        S.Value = index(3);
        break;
      case 3:
      case 4:
        S.Kind = StmtKind::If;
        S.Cond = cond(2);
        S.Then = stmts(Depth - 1);
        if (In.ConsumeBool())
          S.Else = stmts(Depth - 1);
        break;
      case 5:
      case 6: {
        if (LoopDepth == Counters)
          continue;
        // for (c = 0; c < Trips; c += Step): counters are assigned only
        // here, so every loop ends.
        int C = GeneralSlots + LoopDepth;
        L.push_back(assignConst(C, 0));
        S.Kind = StmtKind::Loop;
        S.TestFirst = In.ConsumeBool();
        S.Cond = makeBinary(Op::Lt, makeVar(C, I32),
                            makeConst(In.ConsumeIntegralInRange(0, 5), I32),
                            {1, false});
        ++LoopDepth;
        bool SavedInLoop = InLoop;
        InLoop = true;
        S.Body = stmts(Depth - 1);
        InLoop = SavedInLoop;
        --LoopDepth;
        Stmt Step;
        Step.Kind = StmtKind::Assign;
        Step.Slot = C;
        Step.Value =
            makeBinary(Op::Add, makeVar(C, I32),
                       makeConst(In.ConsumeIntegralInRange(1, 3), I32), I32);
        S.Step = {Step};
        break;
      }
      case 7:
        S.Kind = InLoop
                     ? (In.ConsumeBool() ? StmtKind::Break : StmtKind::Continue)
                     : StmtKind::Return;
        break;
      case 8: {
        S.Kind = StmtKind::Call;
        S.Callee = "f";
        bool SavedInLoop = InLoop;
        InLoop = false; // A function cannot break its caller's loop.
        S.Body = stmts(Depth - 1);
        InLoop = SavedInLoop;
        break;
      }
      default:
        S.Kind = StmtKind::Return;
        break;
      }
      L.push_back(std::move(S));
    }
    return L;
  }

private:
  static Stmt assignConst(int Slot, int64_t V) {
    Stmt S;
    S.Kind = StmtKind::Assign;
    S.Slot = Slot;
    S.Value = makeConst(V, I32);
    return S;
  }

  FuzzedDataProvider &In;
  Kernel &K;
  int LoopDepth = 0;
  bool InLoop = false;
};

/// DESIGN.md's global rule by brute force: distinct sectors and bytes.
RequestCost bruteGlobal(const uint64_t *Addr, uint32_t Mask, unsigned Size) {
  std::set<uint64_t> Bytes, Sectors;
  for (unsigned L = 0; L < 32; ++L)
    if (Mask >> L & 1)
      for (unsigned I = 0; I < Size; ++I) {
        Bytes.insert(Addr[L] + I);
        Sectors.insert((Addr[L] + I) / 32);
      }
  RequestCost C;
  C.Units = Sectors.size();
  C.DistinctBytes = Bytes.size();
  return C;
}

/// The atomic rule measured on an H100 (examples/atomics.cu), by brute
/// force: each 32-byte sector counts once per lane on its busiest address.
uint64_t bruteAtomic(const uint64_t *Addr, uint32_t Mask) {
  std::map<uint64_t, std::map<uint64_t, uint64_t>> Lanes; // sector -> addr
  for (unsigned L = 0; L < 32; ++L)
    if (Mask >> L & 1)
      ++Lanes[Addr[L] / 32][Addr[L]];
  uint64_t Total = 0;
  for (const auto &[Sector, ByAddr] : Lanes) {
    uint64_t Most = 0;
    for (const auto &[A, N] : ByAddr)
      Most = std::max(Most, N);
    Total += Most;
  }
  return Total;
}

/// DESIGN.md's shared rule: per group of lanes (warp; half warp for 8-byte,
/// quarter warp for 16-byte accesses), the most distinct 4-byte words one
/// of the 32 banks serves; groups add up. A load whose active lanes equal
/// their active partner (lane ^ 1, or lane ^ 2) is served in groups twice
/// as large (measured on an H100, examples/shared_wide.cu).
/// Wavefronts of a shared request served in groups of Group lanes: per
/// group, the most distinct words one bank serves; Ways gets the largest.
uint64_t bruteGroups(const uint64_t *Addr, uint32_t Mask, unsigned Size,
                     unsigned Group, size_t &Ways) {
  uint64_t Total = 0;
  Ways = 0;
  for (unsigned G = 0; G < 32; G += Group) {
    std::map<uint64_t, std::set<uint64_t>> Bank;
    for (unsigned L = G; L < G + Group; ++L)
      if (Mask >> L & 1)
        for (unsigned I = 0; I < Size; I += 4) {
          uint64_t Word = (Addr[L] + I) / 4;
          Bank[Word % 32].insert(Word);
        }
    size_t Max = 0;
    for (const auto &[B, Words] : Bank)
      Max = std::max(Max, Words.size());
    Total += Max;
    Ways = std::max(Ways, Max);
  }
  return Total;
}

uint64_t bruteShared(const uint64_t *Addr, uint32_t Mask, unsigned Size,
                     bool Load) {
  const unsigned Group = Size == 16 ? 8 : Size == 8 ? 16 : 32;
  bool Pairs[2] = {true, true};
  for (unsigned L = 0; L < 32; ++L)
    for (unsigned X = 1; X <= 2; ++X)
      if ((Mask >> L & 1) && (Mask >> (L ^ X) & 1) && Addr[L] != Addr[L ^ X])
        Pairs[X - 1] = false;
  size_t Ways = 0;
  // Lanes that read their partner's address are served in twice the group,
  // but only where that group has no bank conflict (measured on an H200:
  // DESIGN.md's rule as amended in simulator/memory_units.cpp).
  if (Load && Group < 32 && (Pairs[0] || Pairs[1])) {
    const uint64_t Doubled = bruteGroups(Addr, Mask, Size, 2 * Group, Ways);
    if (Ways <= 1)
      return Doubled;
  }
  return bruteGroups(Addr, Mask, Size, Group, Ways);
}

bool sameStats(const AccessStats &A, const AccessStats &B) {
  return A.Requests == B.Requests && A.ActiveLanes == B.ActiveLanes &&
         A.Units == B.Units && A.IdealUnits == B.IdealUnits &&
         A.DistinctBytes == B.DistinctBytes &&
         A.MaxUnitsPerRequest == B.MaxUnitsPerRequest &&
         A.MaxWays == B.MaxWays && A.MisalignedLanes == B.MisalignedLanes &&
         A.UnknownRequests == B.UnknownRequests &&
         A.OutOfBoundsLanes == B.OutOfBoundsLanes &&
         A.OverflowRequests == B.OverflowRequests;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  FuzzedDataProvider In(Data, Size);
  Kernel K;
  K.Name = "fuzz";
  Param P0, P1, N;
  P0.Name = "a", P0.Kind = ParamKind::Pointer, P0.Type = U64;
  P1.Name = "b", P1.Kind = ParamKind::Pointer, P1.Type = U64;
  N.Name = "n", N.Type = I32;
  K.Params = {P0, P1, N};
  SharedArray S0, S1;
  S0.Name = "tile";
  S0.Bytes = 4 * In.ConsumeIntegralInRange<uint64_t>(1, 1024);
  S1.Name = "dyn";
  S1.Dynamic = true;
  S1.Offset = (S0.Bytes + 15) / 16 * 16;
  K.Shared = {S0, S1};
  for (int I = 0; I < GeneralSlots + Counters; ++I)
    K.Slots.push_back({"s" + std::to_string(I), I32});
  Launch L;
  L.Kernel = K.Name;
  L.Block = {In.ConsumeIntegralInRange<uint64_t>(1, 64),
             In.ConsumeIntegralInRange<uint64_t>(1, 4),
             In.ConsumeIntegralInRange<uint64_t>(1, 2)};
  L.Grid = {In.ConsumeIntegralInRange<uint64_t>(1, 3),
            In.ConsumeIntegralInRange<uint64_t>(1, 2),
            In.ConsumeIntegralInRange<uint64_t>(1, 2)};
  L.DynamicSmem = 4 * In.ConsumeIntegralInRange<uint64_t>(0, 1024);
  ArgValue A, B, Nv;
  A.Kind = B.Kind = ArgValue::Pointer;
  A.Allocation = "a";
  B.Allocation = In.ConsumeBool() ? "a" : "b"; // Aliasing or not.
  B.AlignOffset = In.ConsumeIntegralInRange(0, 3) * 4;
  Nv.Kind = ArgValue::Int;
  Nv.IntValue = In.ConsumeIntegralInRange(-5, 300);
  L.Args = {A, B, Nv};
  Builder Bld(In, K);
  K.Body = Bld.stmts(3);
  Expected<void> Valid = checkKernel(K);
  FUZZ_CHECK(Valid, "built an invalid model: %s", Valid.error().c_str());
  const ArchRules &Arch = *findArch("sm_90");
  if (!validateLaunch(K, L, Arch))
    return 0;

  // Every priced request against the brute-force rules.
  LaunchEnv Env = makeLaunchEnv(K, L);
  std::vector<AccessStats> Stats(K.Accesses.size());
  std::vector<uint64_t> Units(K.Accesses.size());
  WarpEvaluator W(K, Arch, Env, Stats);
  W.Requests.observe([&](const RequestEvent &E) {
    const int Id = E.A->Id;
    const uint64_t *Addr = E.Addr;
    const uint32_t Mask = E.Mask;
    const unsigned Size = E.Size;
    const Access &Acc = K.Accesses[Id];
    FUZZ_CHECK(Mask != 0, "request without an active lane");
    FUZZ_CHECK(!Acc.Compiled.OneLane || __builtin_popcount(Mask) == 1,
               "access %d: aggregated atomic issued by %d lanes", Id,
               __builtin_popcount(Mask));
    if (Acc.Sp == Space::Global && Acc.Kind == AccessKind::Atomic) {
      RequestCost C = atomicRequest(Arch, Addr, Mask, Size);
      uint64_t Want = bruteAtomic(Addr, Mask);
      FUZZ_CHECK(C.Units == Want,
                 "access %d: %llu atomic sectors, brute force %llu", Id,
                 (unsigned long long)C.Units, (unsigned long long)Want);
      Units[Id] += C.Units;
    } else if (Acc.Sp == Space::Global) {
      RequestCost C =
          globalRequest(Arch.globalBytes(Acc.Kind), Addr, Mask, Size);
      RequestCost Want = bruteGlobal(Addr, Mask, Size);
      FUZZ_CHECK(C.Units == Want.Units && C.DistinctBytes == Want.DistinctBytes,
                 "access %d: %llu sectors and %llu bytes, brute force %llu and "
                 "%llu",
                 Id, (unsigned long long)C.Units,
                 (unsigned long long)C.DistinctBytes,
                 (unsigned long long)Want.Units,
                 (unsigned long long)Want.DistinctBytes);
      FUZZ_CHECK(C.IdealUnits <= C.Units && C.DistinctBytes <= 32 * C.Units,
                 "access %d: ideal %llu, bytes %llu, sectors %llu", Id,
                 (unsigned long long)C.IdealUnits,
                 (unsigned long long)C.DistinctBytes,
                 (unsigned long long)C.Units);
      Units[Id] += C.Units;
    } else if (Acc.Kind != AccessKind::Atomic) {
      const bool Load = Acc.Kind == AccessKind::Load;
      RequestCost C = sharedRequest(Arch, Addr, Mask, Size, Load);
      bool Aligned = true;
      for (unsigned Ln = 0; Ln < 32; ++Ln)
        Aligned &= !(Mask >> Ln & 1) || Addr[Ln] % Size == 0;
      if (Aligned)
        FUZZ_CHECK(C.Units == bruteShared(Addr, Mask, Size, Load),
                   "access %d: %llu wavefronts, brute force %llu", Id,
                   (unsigned long long)C.Units,
                   (unsigned long long)bruteShared(Addr, Mask, Size, Load));
      FUZZ_CHECK(C.Units >= 1 && C.Ways >= 1 && C.Ways <= C.Units &&
                     C.IdealUnits <= C.Units,
                 "access %d: %llu wavefronts, %llu ways, ideal %llu; size %u, "
                 "first lane's address %#llx",
                 Id, (unsigned long long)C.Units, (unsigned long long)C.Ways,
                 (unsigned long long)C.IdealUnits, Size,
                 (unsigned long long)Addr[__builtin_ctz(Mask)]);
      Units[Id] += C.Units;
    }
  });
  const unsigned WarpsPerBlock = unsigned((L.Block.count() + 31) / 32);
  for (uint64_t Blk = 0; Blk < L.Grid.count(); ++Blk)
    for (unsigned Wp = 0; Wp < WarpsPerBlock; ++Wp)
      W.runWarp({Blk % L.Grid.X, Blk / L.Grid.X % L.Grid.Y,
                 Blk / (L.Grid.X * L.Grid.Y)},
                Wp);

  // The launch's totals: the same as warp by warp, whatever the threads.
  SimOptions O;
  O.Threads = 1;
  LaunchResult R = simulate(K, L, O);
  for (size_t I = 0; I < K.Accesses.size(); ++I) {
    const AccessStats &St = R.PerAccess[I];
    if (!sameStats(St, Stats[I]) && std::getenv("GMEM_FUZZ_DUMP")) {
      Module M;
      M.Kernels = {K};
      M.Launches = {L};
      std::fprintf(stderr,
                   "%s\nfast: req %llu units %llu unknown %llu oob %llu\n"
                   "every warp: req %llu units %llu unknown %llu oob %llu\n",
                   toJson(M).dump(1).c_str(), (unsigned long long)St.Requests,
                   (unsigned long long)St.Units,
                   (unsigned long long)St.UnknownRequests,
                   (unsigned long long)St.OutOfBoundsLanes,
                   (unsigned long long)Stats[I].Requests,
                   (unsigned long long)Stats[I].Units,
                   (unsigned long long)Stats[I].UnknownRequests,
                   (unsigned long long)Stats[I].OutOfBoundsLanes);
    }
    FUZZ_CHECK(sameStats(St, Stats[I]), "access %zu: totals differ", I);
    FUZZ_CHECK(St.Units == Units[I],
               "access %zu: units %llu, requests "
               "priced %llu",
               I, (unsigned long long)St.Units, (unsigned long long)Units[I]);
    FUZZ_CHECK(St.OverflowRequests <= St.UnknownRequests,
               "access %zu: %llu requests overflow, %llu unknown", I,
               (unsigned long long)St.OverflowRequests,
               (unsigned long long)St.UnknownRequests);
    FUZZ_CHECK(St.Requests == 0 || St.UnknownRequests > 0 ||
                   St.Units >= St.Requests,
               "access %zu: %llu units for %llu requests", I,
               (unsigned long long)St.Units, (unsigned long long)St.Requests);
  }
  for (const MetricInfo &M : metricTable()) {
    auto It = R.Metrics.find(M.Name);
    if (It == R.Metrics.end() || !It->second.Value)
      continue;
    double V = *It->second.Value;
    FUZZ_CHECK(std::isfinite(V) && V >= 0, "%s = %g", M.Name.c_str(), V);
    if (M.Percent)
      FUZZ_CHECK(V <= 100.0 + 1e-9, "%s = %g %%", M.Name.c_str(), V);
    if (M.Name.find("transactions_per_request") != std::string::npos)
      FUZZ_CHECK(V == 0 || V >= 1.0, "%s = %g", M.Name.c_str(), V);
  }
  if (L.Grid.count() > 1) {
    O.Threads = 3;
    LaunchResult R3 = simulate(K, L, O);
    for (size_t I = 0; I < K.Accesses.size(); ++I)
      FUZZ_CHECK(sameStats(R.PerAccess[I], R3.PerAccess[I]),
                 "access %zu: totals depend on the thread count", I);
    FUZZ_CHECK(R.Diagnostics == R3.Diagnostics,
               "diagnostics depend on the thread count:\n%s\nversus\n%s",
               R.Diagnostics.empty() ? "" : R.Diagnostics[0].c_str(),
               R3.Diagnostics.empty() ? "" : R3.Diagnostics[0].c_str());
  }
  return 0;
}
