//===- executed.cpp - An executed launch, priced as a modelled one is
//-------===//
#include "executed.h"
#include "async_copy_units.h"
#include "l2_traffic.h"
#include "memory_units.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <thread>

namespace gmem {

using namespace exec;

int ExecutedKernel::id(const XFunction *F, uint32_t Instr, uint8_t Part) const {
  auto It = Ids.find(F);
  if (It == Ids.end() || size_t(Instr) * 2 + Part >= It->second.size())
    return -1;
  return It->second[size_t(Instr) * 2 + Part];
}

bool ExecutedKernel::sharedSideOfGeneric(size_t Id) const {
  const auto &[F, Instr] = Where[Id];
  return K.Accesses[Id].Sp == Space::Shared &&
         F->Code[Instr].Space == MemSpace::Generic;
}

std::vector<SourceLoc> sourceChain(const XFunction &F, uint32_t Instr) {
  std::vector<SourceLoc> Out;
  if (Instr >= F.Code.size() || !F.Code[Instr].Src || !F.Mod)
    return Out;
  int32_t Pos = F.Code[Instr].Src->Pos;
  for (unsigned Depth = 0; Pos >= 0 && Depth < 64; ++Depth) {
    const ptx::SourcePos &P = F.Mod->Positions[size_t(Pos)];
    auto File = F.Mod->Files.find(P.File);
    Out.push_back(
        {File == F.Mod->Files.end() ? "" : File->second, P.Line, P.Col});
    Pos = P.InlinedAt;
  }
  return Out;
}

/// How ptxas compiles shared atomic I (SharedAtomicForm), from the PTX:
/// ATOMS.POPC.INC for a 32-bit add of 1 whose result nobody reads, a
/// compare-and-swap loop for float and 64-bit adds (sm_90 has no ATOMS
/// for them).
SharedAtomicForm sharedAtomicForm(const ptx::Instr &I, bool ResultRead) {
  if (I.has("cas"))
    return SharedAtomicForm::PerLanePair;
  if (!I.has("add"))
    return SharedAtomicForm::PerLane;
  for (const char *T :
       {"f16", "bf16", "f16x2", "bf16x2", "f32", "f64", "u64", "s64"})
    if (I.has(T))
      return SharedAtomicForm::SpinRound;
  const ptx::Operand &V = I.Ops.back();
  return !ResultRead && V.Kind == ptx::Operand::Imm && V.Value == 1 &&
                 !V.FloatBits
             ? SharedAtomicForm::PerWord
             : SharedAtomicForm::PerLane;
}

ExecutedKernel executedKernel(const XFunction &K, const SharedLayout *Shared) {
  ExecutedKernel EK;
  EK.K.Name = K.Name;
  EK.K.MangledName = K.Name;
  // The kernel, then the functions it may call, breadth first, and the
  // kernels it may launch.
  const std::vector<const XFunction *> Reach = withLaunches(K);
  // Device runtime calls that move global memory of their own, with
  // instructions gmem never sees (the driver's), as the model says of them.
  for (const XFunction *F : Reach)
    for (const CallInfo &C : F->Calls) {
      if (EK.K.UnmodelledGlobal.empty() && !C.Callee)
        EK.K.UnmodelledGlobal = runtimeCallGlobal(C.Name, "in " + F->Name);
      EK.K.DeviceHeap |= !C.Callee && deviceHeapCall(C.Name);
      EK.K.LaunchesKernels |= C.launchesKernel();
    }
  for (const XFunction *F : Reach) {
    std::vector<int> &Ids = EK.Ids[F];
    Ids.assign(F->Code.size() * 2, -1);
    for (const uint32_t &Instr : F->Accesses) {
      const XInstr &X = F->Code[Instr];
      const bool Async = X.Fn && X.Space == MemSpace::Shared &&
                         X.Mem == MemOp::Load && X.Src && X.Src->Op == "cp";
      // A generic instruction's lanes that reach shared memory are priced
      // as the GPU counts them, as shared: its second access.
      const bool Generic = X.Space == MemSpace::Generic;
      const std::vector<SourceLoc> Chain = sourceChain(*F, Instr);
      const size_t K = size_t(&Instr - F->Accesses.data());
      const bool ResultRead =
          K >= F->AccessResultRead.size() || F->AccessResultRead[K];
      const SharedAtomicForm Form =
          X.Src && X.Space == MemSpace::Shared &&
                  (X.Mem == MemOp::Atomic || X.Mem == MemOp::Reduction)
              ? sharedAtomicForm(*X.Src, ResultRead)
              : SharedAtomicForm::PerLane;
      // A compare-and-swap loop's shared load is its second access.
      const bool Spin = Form == SharedAtomicForm::SpinRound;
      for (uint8_t Part = 0; Part < (Async || Generic || Spin ? 2 : 1);
           ++Part) {
        Access A;
        A.Id = int(EK.K.Accesses.size());
        A.Size = unsigned(X.Width) * X.Vec;
        A.Matrix = X.Matrix;
        A.Sp = (X.Space == MemSpace::Shared && (!Async || Part == 1)) ||
                       (Generic && Part == 1)
                   ? Space::Shared
                   : Space::Global;
        A.SharedAtomic = Form;
        switch (Spin && Part == 1 ? MemOp::Load : X.Mem) {
        case MemOp::Store:
          A.Kind = AccessKind::Store;
          break;
        case MemOp::Atomic:
          A.Kind = AccessKind::Atomic;
          break;
        case MemOp::Reduction:
          A.Kind = AccessKind::Atomic;
          A.Reduction = true;
          break;
        default:
          A.Kind = Async && Part == 1 ? AccessKind::Store : AccessKind::Load;
          break;
        }
        if (Async)
          A.AsyncPartner = Part ? A.Id - 1 : A.Id + 1;
        if (!Chain.empty())
          A.Loc = Chain.front();
        if (K < F->AccessOrigin.size() && F->AccessOrigin[K] >= 0)
          A.Array = F->Origins[size_t(F->AccessOrigin[K])];
        Ids[size_t(Instr) * 2 + Part] = A.Id;
        EK.Where.push_back({F, Instr});
        // A register base is named by the register its address adds up to
        // (access_facts.cpp), in a file of its own, so that r + 8 computed
        // twice is one base.
        const int32_t BaseReg =
            K < F->AccessBaseReg.size() ? F->AccessBaseReg[K] : -1;
        EK.Sites.push_back(
            {Instr < F->BlockOf.size() ? F->BlockOf[Instr] : 0,
             BaseReg >= 0 ? (15u << SlotBits) | uint32_t(BaseReg) : X.Addr,
             X.Off + (BaseReg >= 0 ? F->AccessBaseOff[K] : 0),
             K < F->AccessUniform.size() && F->AccessUniform[K], ResultRead});
        if (Shared && X.Space == MemSpace::Shared && A.Sp == Space::Shared &&
            fileOf(X.Addr) == FLaunch &&
            slotOf(X.Addr) < Shared->Offset.size() &&
            Shared->Offset[slotOf(X.Addr)] != ~uint64_t(0))
          EK.Sites.back().Placed =
              int64_t(Shared->Offset[slotOf(X.Addr)]) + X.Off;
        EK.K.Accesses.push_back(std::move(A));
      }
    }
  }
  return EK;
}

namespace {

/// Why the addresses of an access computed from an atomic's result are not
/// known where several warps run: the order of their atomics decides them.
const Why &racedAtomic() {
  static const Why W{UnknownCause::Timing,
                     "its address is computed from an atomic's result, "
                     "which depends on the order the GPU runs racing "
                     "atomics of several warps in, a timing effect: the "
                     "requests are counted, their bytes not known"};
  return W;
}

const Why &atomicRetry() {
  static const Why W{UnknownCause::Timing,
                     "in a loop that repeats until an atomic's result says "
                     "so (a compare-and-swap retry loop, a lock): how often "
                     "a GPU repeats it depends on how the warps' atomics "
                     "race, a timing effect; these requests are the fewest "
                     "it can make (each warp's atomics meeting no other's)"};
  return W;
}

const Why &waitLoop() {
  static const Why W{UnknownCause::Unmodelled,
                     "in a loop that repeats until a poll or the clock says "
                     "so (a wait for other warps, a backoff, as "
                     "cuda::barrier's): how often a GPU runs it is decided "
                     "by timing; these requests are the executor's, which "
                     "runs the warps one by one"};
  return W;
}

/// Why a child's requests are one order's among several.
const Why &orderedChildren() {
  static const Why W{UnknownCause::Unmodelled,
                     "it runs in a kernel launched after a launch placed "
                     "data where racing atomics said (an address computed "
                     "from an atomic's result): what it reads, and so the "
                     "requests it makes, depend on the order a GPU runs "
                     "those atomics in, a timing effect; these requests "
                     "are those of one order"};
  return W;
}

const Why &wideSpinLoop() {
  static const Why W{UnknownCause::Unmodelled,
                     "ptxas makes a shared 64-bit add a loop of loads and "
                     "compare-and-swaps (ATOMS.CAST.SPIN.64) whose rounds "
                     "gmem does not model: how many requests and wavefronts "
                     "it makes is not known"};
  return W;
}

const Why &bypassLayout() {
  static const Why W{UnknownCause::Unmodelled,
                     "an async copy that bypasses L1 (cp.async.cg) with a "
                     "quarter warp reading or writing more than one 128-byte "
                     "line, or two lanes on one chunk: its wavefronts follow a "
                     "rule not found (measured on an H200: between the most "
                     "lines either side touches and one a lane), so they are "
                     "bounded"};
  return W;
}

const Why &bypassSectors() {
  static const Why W{UnknownCause::Unmodelled,
                     "an async copy that bypasses L1 (cp.async.cg) whose "
                     "quarter warps read other sectors than the 32-byte "
                     "chunks they write: L1 counts its global sectors by a "
                     "rule not found (measured on an H200: between the two "
                     "counts), so they are bounded"};
  return W;
}

const Why &unknownAddress() {
  static const Why W{UnknownCause::LoadedData,
                     "its address depends on memory whose bytes are not "
                     "known (nothing wrote them with known values before the "
                     "launch)"};
  return W;
}
const Why &spinPoll() {
  static const Why W{UnknownCause::Unmodelled,
                     "a poll of a spin-wait (a volatile or acquire load in a "
                     "loop): how often a GPU polls is decided by timing; "
                     "these requests are the fewest it can make"};
  return W;
}
const Why &heapPlacement() {
  static const Why W{UnknownCause::Unmodelled,
                     "it reads or writes device-heap memory (malloc in a "
                     "kernel), which the driver's allocator places where it "
                     "likes, 16-byte aligned: the sectors are bounded over "
                     "every placement"};
  return W;
}
const Why &uncertainControl() {
  static const Why W{UnknownCause::LoadedData,
                     "it runs under a branch on values whose bytes are not "
                     "known: whether the GPU makes this request is not "
                     "known"};
  return W;
}

/// Turns the executor's requests into the pipeline's events, as ptxas's
/// instructions make them (ExecutedKernel's CompiledForms): an aggregated
/// atomic is issued by one lane, and the accesses of a merged group are one
/// request of the group's width when their lanes' bytes are one aligned run
/// (else each is its own request, and the pipeline hears it was unmerged).
class PricingSink : public RequestSink {
public:
  PricingSink(RequestPipeline &P, const ExecutedKernel &EK,
              const LaunchConfig &C, std::vector<AccessStats> &Stats,
              const ArchRules &Arch, GlobalMemory &Mem)
      : Pipe(P), EK(EK), Stats(Stats), Arch(Arch), Mem(Mem),
        WarpsPerBlock((uint64_t(C.Block[0]) * C.Block[1] * C.Block[2] + 31) /
                      32),
        Grid{C.Grid[0], C.Grid[1], C.Grid[2]} {
    for (size_t I = 0; I < EK.K.Accesses.size(); ++I) {
      const Access &A = EK.K.Accesses[I];
      if (EK.Sites[I].SunkAnchor >= 0)
        SunkBy[EK.Sites[I].SunkAnchor].push_back(int(I));
      if (A.Compiled.State == CompiledForm::Merged && A.Compiled.Leader >= 0) {
        Shape &G = Shapes[A.Compiled.Leader];
        const unsigned Parts = EK.Sites[I].Parts;
        G.Need = A.Compiled.Loop != 0 ? G.Need + 1
                 : Parts              ? Parts
                                      : A.Compiled.Width / A.Size;
        G.Width = A.Compiled.Width;
      }
    }
  }
  ~PricingSink() override {
    release(ReleaseExact);
    flushAll();
  }

  /// Set: every request is priced and marked unknown for this reason (a
  /// child whose data racing atomics placed).
  const Why *Ordered = nullptr;
  /// Set true when an access whose address racing atomics decide runs.
  bool *SawRaced = nullptr;

  /// R's lanes may poll access Id more often on a GPU, as timing decides.
  void pollUnknown(int Id, const MemRequest &R, const Why &Reason) {
    UnknownEvent U;
    U.AccessId = Id;
    U.Issued = false;
    U.Mask = R.Mask;
    U.Reason = &Reason;
    U.Order = R.Block * WarpsPerBlock + R.Warp;
    Pipe.unknown(U);
  }

  /// The lanes of R may have gone on to poll: every poll of R's function
  /// is marked as made at least as often as the executor made it.
  void mayPoll(const MemRequest &R) {
    for (uint32_t I = 0; I < R.Fn->Code.size(); ++I) {
      const XInstr &In = R.Fn->Code[I];
      if (!In.Ordered || !In.InLoop || In.Access < 0 ||
          In.Space == MemSpace::Shared)
        continue;
      if (const int Id = (*LastIds)[size_t(I) * 2]; Id >= 0)
        pollUnknown(Id, R, spinPoll());
    }
  }

  void elsewhere(const MemRequest &R) override {
    const int Id = EK.id(R.Fn, R.Instr, R.Part);
    if (Id < 0 ||
        EK.K.Accesses[size_t(Id)].Compiled.State == CompiledForm::Reused)
      return;
    AccessStats &S = Stats[size_t(Id)];
    ++S.GenericElsewhere;
    S.LocalExecutions += R.Space == MemSpace::Local;
    // Each lane's local offset is its generic address: lanes at one offset
    // present one address, whose bytes are counted once.
    if (R.Addr)
      S.GenericLocalBytes += distinctBytes(R);
  }

  /// The bytes of R's distinct lane addresses.
  static uint64_t distinctBytes(const MemRequest &R) {
    uint64_t Seen[32];
    unsigned N = 0;
    for (uint32_t M = R.Mask; M; M &= M - 1) {
      const uint64_t A = R.Addr[__builtin_ctz(M)];
      if (std::find(Seen, Seen + N, A) == Seen + N)
        Seen[N++] = A;
    }
    return uint64_t(N) * R.Size;
  }

  /// Counted where every instruction of the side is Guarded (else ptxas
  /// branched around it, simulator/stmt_walk.h's PredicatedOffSides).
  void predicatedOff(const exec::XFunction *Fn, const uint32_t *Instrs,
                     size_t N) override {
    for (size_t I = 0; I < N; ++I) {
      const int Id = EK.id(Fn, Instrs[I], 0);
      if (Id >= 0 && branchedAround(EK.K.Accesses[size_t(Id)]))
        return;
    }
    for (size_t I = 0; I < N; ++I) {
      const int Id = EK.id(Fn, Instrs[I], 0);
      if (Id < 0)
        continue;
      if (const unsigned Each =
              predicatedOffInstructions(EK.K.Accesses[size_t(Id)]))
        Pipe.predicatedOff({Id, Each});
    }
  }

  void request(const MemRequest &R) override {
    if ((R.Op == MemOp::Atomic || R.Op == MemOp::Reduction) && !Releasing)
      atomicBy(R.Block * WarpsPerBlock + R.Warp);
    if (R.Fn != LastFn) {
      auto It = EK.Ids.find(R.Fn);
      LastIds = It == EK.Ids.end() ? nullptr : &It->second;
      LastFn = R.Fn;
    }
    if (!LastIds)
      return;
    const int Id = (*LastIds)[size_t(R.Instr) * 2 + R.Part];
    if (Id < 0)
      return;
    const Access &Acc = EK.K.Accesses[size_t(Id)];
    if (Acc.Compiled.State == CompiledForm::Reused)
      return; // ptxas made no instruction of it.
    const int32_t At = R.Fn->Code[R.Instr].Access;
    bool Raced = Racing && At >= 0 && size_t(At) < R.Fn->AccessRaced.size() &&
                 R.Fn->AccessRaced[size_t(At)];
    if (Raced && Releasing == ReleaseExact)
      Raced = false;
    else if (Raced && !AtomicsRace && !Releasing && holdable(R))
      return hold(R);
    if (!SunkBy.empty())
      releaseSunk(Id, R);
    if (R.Part == 0 && R.Space == MemSpace::Global &&
        R.Fn->Code[R.Instr].Space == MemSpace::Generic)
      Stats[size_t(Id)].GenericGlobalBytes += distinctBytes(R);
    // The executor runs each warp alone: a retry loop's fewest requests.
    const bool Retried = Racing && At >= 0 &&
                         size_t(At) < R.Fn->AccessRetried.size() &&
                         R.Fn->AccessRetried[size_t(At)];
    // Not the poll itself, which says so on its own.
    const bool Waiting = Racing && !R.Poll && At >= 0 &&
                         size_t(At) < R.Fn->AccessWaiting.size() &&
                         R.Fn->AccessWaiting[size_t(At)];
    if (Raced && SawRaced)
      *SawRaced = true;
    if ((R.Poll || (Retried && !Raced) || Waiting || Ordered) && !R.Spin &&
        !R.Unknown && !R.Uncertain) {
      // Made, and maybe made again on a GPU: priced, and its count marked
      // as a least.
      RequestEvent E;
      E.A = &Acc;
      E.Addr = R.Addr;
      E.Mask = issuingLanes(Acc, R.Mask);
      E.Size = R.Size;
      E.Order = R.Block * WarpsPerBlock + R.Warp;
      E.Block = {R.Block % Grid.X, R.Block / Grid.X % Grid.Y,
                 R.Block / (Grid.X * Grid.Y)};
      E.Warp = R.Warp;
      Pipe.priced(E);
    }
    if (R.Lookback)
      mayPoll(R);
    if (R.Spin || R.Poll)
      return pollUnknown(Id, R, spinPoll());
    if (Retried)
      return pollUnknown(Id, R, atomicRetry());
    if (Waiting)
      return pollUnknown(Id, R, waitLoop());
    if (Ordered)
      return pollUnknown(Id, R, *Ordered);
    if (Mem.Heap && R.Space == MemSpace::Global && !R.Unknown && !R.Uncertain &&
        !Raced && heap(Id, Acc, R))
      return;
    if (!(Acc.Compiled.State == CompiledForm::Merged &&
          Acc.Compiled.Leader >= 0) &&
        !R.Unknown && !R.Uncertain && !Raced) {
      if (Acc.Compiled.State == CompiledForm::Split)
        return split(Acc, R);
      if (Acc.SharedAtomic == SharedAtomicForm::SpinRound && R.Part == 0) {
        // 64-bit adds' rounds follow another rule, not found (measured
        // rounds of a double add: 1 for 32 lanes on 32 words, 17 for 16
        // lanes on each of two words of one bank): unknown, load included.
        const int LoadId = (*LastIds)[size_t(R.Instr) * 2 + 1];
        if (R.Size > 4) {
          UnknownEvent U;
          U.Mask = R.Mask;
          U.Reason = &wideSpinLoop();
          U.Order = R.Block * WarpsPerBlock + R.Warp;
          for (const int Part : {Id, LoadId})
            if (Part >= 0) {
              U.AccessId = Part;
              Pipe.unknown(U);
            }
          return;
        }
        return spinRounds(Acc, LoadId, R);
      }
      if (EK.Sites[size_t(Id)].SunkAnchor >= 0)
        return holdSunk(Id, R);
      // The common case: one request as it is.
      RequestEvent E;
      E.A = &Acc;
      E.Addr = R.Addr;
      E.Mask = issuingLanes(Acc, R.Mask);
      E.Size = R.Size;
      E.Order = R.Block * WarpsPerBlock + R.Warp;
      E.Block = {R.Block % Grid.X, R.Block / Grid.X % Grid.Y,
                 R.Block / (Grid.X * Grid.Y)};
      E.Warp = R.Warp;
      if (R.Partner && Acc.AsyncPartner >= 0 &&
          (Acc.Sp == Space::Shared || R.Bypass))
        return asyncSide(Id, E, R);
      Pipe.priced(E);
      return;
    }
    One E = oneOf(Id, R);
    E.Raced = Raced;
    const Access &A = EK.K.Accesses[size_t(Id)];
    if (A.Compiled.State == CompiledForm::Merged && A.Compiled.Leader >= 0)
      return join(A.Compiled.Leader, E);
    emit(E);
  }

private:
  /// The order racing atomics run in decides the addresses of an access
  /// computed from their results only where atomics of several warps meet.
  /// While one warp alone has made atomics, such requests wait here
  /// (copied); priced exactly at the launch's end if no other warp made
  /// one, unknown once another does. Global loads are not held: L1's
  /// distinct sectors are counted block by block, in order.
  struct HeldRequest {
    MemRequest R;
    uint64_t Addr[32];
  };
  enum ReleaseT : uint8_t { NotReleasing, ReleaseExact, ReleaseRaced };
  static constexpr size_t MaxHeld = 1 << 16;

  static bool holdable(const MemRequest &R) {
    return !(R.Space == MemSpace::Global && R.Op == MemOp::Load) && !R.Spin &&
           !R.Poll && !R.Lookback && !R.Partner;
  }
  void hold(const MemRequest &R) {
    if (HeldRaced.size() == MaxHeld) {
      // Too many to keep: unknown, as though another warp raced them.
      AtomicsRace = true;
      release(ReleaseRaced);
      request(R);
      return;
    }
    HeldRaced.emplace_back();
    HeldRequest &H = HeldRaced.back();
    H.R = R;
    for (uint32_t M = R.Mask; M; M &= M - 1)
      H.Addr[ctz(M)] = R.Addr[ctz(M)];
  }
  void release(ReleaseT How) {
    Releasing = How;
    for (HeldRequest &H : HeldRaced) {
      H.R.Addr = H.Addr;
      request(H.R);
    }
    HeldRaced.clear();
    Releasing = NotReleasing;
  }
  void atomicBy(uint64_t Warp) {
    if (AtomicWarp == ~uint64_t(0))
      AtomicWarp = Warp;
    else if (Warp != AtomicWarp && !AtomicsRace) {
      AtomicsRace = true;
      release(ReleaseRaced);
    }
  }
  std::vector<HeldRequest> HeldRaced;
  uint64_t AtomicWarp = ~uint64_t(0);
  bool AtomicsRace = false;
  ReleaseT Releasing = NotReleasing;

  /// A request with lanes in device-heap blocks: its sectors depend on
  /// where the allocator put each block, known to its alignment only. Each
  /// block's lanes are priced at every placement in a 128-byte line; the
  /// request is bounded (or priced, where every placement costs the same).
  /// False where no lane is in the heap.
  bool heap(int Id, const Access &Acc, const MemRequest &R) {
    const uint32_t Mask = issuingLanes(Acc, R.Mask);
    const Region *Blocks[32];
    uint32_t Lanes[32];
    unsigned N = 0;
    uint32_t Fixed = Mask;
    for (uint32_t M = Mask; M; M &= M - 1) {
      const unsigned L = unsigned(__builtin_ctz(M));
      const Region *G = Mem.find(R.Addr[L], R.Size);
      if (!G || !G->HeapAlign)
        continue;
      Fixed &= ~(1u << L);
      unsigned B = 0;
      while (B < N && Blocks[B] != G)
        ++B;
      if (B == N) {
        Blocks[N] = G;
        Lanes[N++] = 0;
      }
      Lanes[B] |= 1u << L;
    }
    if (!N)
      return false;
    // Blocks lie apart (each starts on 16 bytes after the one before
    // ends): lanes of two blocks whose offsets keep them 32 bytes apart
    // wherever they lie share no sector.
    uint64_t Min = 0, Max = 0, Fewest = 0;
    bool Apart = true;
    uint64_t Lo[32], Hi[32];
    for (unsigned B = 0; B < N; ++B) {
      uint64_t BlockMin = ~uint64_t(0), BlockMax = 0;
      const uint64_t Base = Blocks[B]->Base;
      const uint64_t Step = std::min<uint64_t>(Blocks[B]->HeapAlign, 128);
      uint64_t Addr[32];
      for (uint64_t Shift = 0; Shift < 128; Shift += Step) {
        for (uint32_t M = Lanes[B]; M; M &= M - 1) {
          const unsigned L = unsigned(__builtin_ctz(M));
          Addr[L] = (uint64_t(1) << 40) + R.Addr[L] - Base + Shift;
        }
        const uint64_t U =
            priceRequest(Arch, Acc, Addr, Lanes[B], R.Size).Units;
        BlockMin = std::min(BlockMin, U);
        BlockMax = std::max(BlockMax, U);
      }
      Min += BlockMin;
      Fewest = std::max(Fewest, BlockMin);
      Max += BlockMax;
      Lo[B] = ~uint64_t(0);
      Hi[B] = 0;
      for (uint32_t M = Lanes[B]; M; M &= M - 1) {
        const uint64_t Off = R.Addr[__builtin_ctz(M)] - Base;
        Lo[B] = std::min(Lo[B], Off);
        Hi[B] = std::max(Hi[B], Off);
      }
    }
    for (unsigned B = 0; B < N && Apart; ++B)
      for (unsigned C = 0; C < N && Apart; ++C)
        Apart =
            B == C || (Blocks[B]->Size + 15) / 16 * 16 + Lo[C] >= Hi[B] + 32;
    if (!Apart)
      Min = Fewest;
    // The rest of the lanes are in other allocations: sectors of their own.
    if (Fixed) {
      const uint64_t U = priceRequest(Arch, Acc, R.Addr, Fixed, R.Size).Units;
      Min += U;
      Max += U;
    }
    if (Min == Max)
      return false; // Every placement costs what the executor's does.
    auto Unknown = [&](unsigned Parts) {
      for (unsigned P = 0; P < Parts; ++P) {
        UnknownEvent U;
        U.AccessId = Id;
        U.Mask = R.Mask;
        U.Reason = &heapPlacement();
        U.Order = R.Block * WarpsPerBlock + R.Warp;
        Pipe.unknown(U);
      }
    };
    // A merged group's parts, or a split object's, are not priced one by
    // one: unknown, unbounded.
    if (Acc.Compiled.State == CompiledForm::Merged &&
        Acc.Compiled.Leader >= 0) {
      Unknown(1);
    } else if (Acc.Compiled.State == CompiledForm::Split) {
      Unknown(unsigned(Acc.Compiled.Parts.size()));
    } else {
      Unknown(1);
      Pipe.bounded({Id, Min, Max});
    }
    return true;
  }

  /// A side of an async copy priced from both sides' addresses: the shared
  /// side's wavefronts, or the sectors L1 counts for the global side of a
  /// copy that bypasses L1; bounded where the rule is not known.
  void asyncSide(int Id, const RequestEvent &E, const MemRequest &R) {
    const bool Shared = E.A->Sp == Space::Shared;
    const AsyncCopyCost AC = Shared ? asyncCopyRequest(Arch, R.Partner, R.Addr,
                                                       E.Mask, R.Size, R.Bypass)
                                    : asyncCopyRequest(Arch, R.Addr, R.Partner,
                                                       E.Mask, R.Size, true);
    if (Shared ? AC.Known : AC.GlobalKnown) {
      RequestCost C =
          Shared ? AC.Cost : priceRequest(Arch, *E.A, E.Addr, E.Mask, E.Size);
      if (!Shared) {
        C.Units = AC.GlobalSectors;
        C.SassUnits = AC.LineSectors;
        C.SassSlack = AC.LineSlack;
      }
      C.AsyncRule = true;
      Pipe.priced(E, C);
      return;
    }
    UnknownEvent U;
    U.AccessId = Id;
    U.Mask = E.Mask;
    U.Reason = Shared ? &bypassLayout() : &bypassSectors();
    U.Order = E.Order;
    Pipe.unknown(U);
    if (Shared)
      Pipe.bounded({Id, AC.Min, AC.Max, AC.Cost.DistinctBytes});
    else
      Pipe.bounded({Id, AC.GlobalMin, AC.GlobalMax, std::nullopt,
                    AC.GlobalSectors, AC.LineSectors, AC.LineSlack});
  }

  /// One narrower request per part of the object ptxas kept.
  void split(const Access &Acc, const MemRequest &R) {
    for (unsigned Off : Acc.Compiled.Parts) {
      uint64_t Addr[32];
      for (unsigned L = 0; L < 32; ++L)
        Addr[L] = R.Addr[L] + Off;
      RequestEvent E;
      E.A = &Acc;
      E.Addr = Addr;
      E.Mask = issuingLanes(Acc, R.Mask);
      E.Size = Acc.Compiled.Width;
      E.Order = R.Block * WarpsPerBlock + R.Warp;
      E.Block = {R.Block % Grid.X, R.Block / Grid.X % Grid.Y,
                 R.Block / (Grid.X * Grid.Y)};
      E.Warp = R.Warp;
      Pipe.priced(E);
    }
  }

  struct One {
    int Id = 0;
    uint32_t Mask = 0;
    unsigned Size = 0;
    bool Unknown = false, Uncertain = false, Raced = false;
    uint64_t Order = 0, Block = 0;
    unsigned Warp = 0;
    uint64_t Addr[32];
  };
  /// A shared 32-bit float add, as ptxas compiles it: rounds of a load of
  /// the lanes left and a compare-and-swap, in which the lowest lane of
  /// each bank succeeds (measured: SharedAtomicForm::SpinRound).
  void spinRounds(const Access &Cas, int LoadId, const MemRequest &R) {
    RequestEvent E;
    E.Addr = R.Addr;
    E.Size = R.Size;
    E.Order = R.Block * WarpsPerBlock + R.Warp;
    E.Block = {R.Block % Grid.X, R.Block / Grid.X % Grid.Y,
               R.Block / (Grid.X * Grid.Y)};
    E.Warp = R.Warp;
    const unsigned WordShift = __builtin_ctz(Arch.BankBytes);
    for (uint32_t Left = issuingLanes(Cas, R.Mask); Left;) {
      E.Mask = Left;
      if (LoadId >= 0) {
        E.A = &EK.K.Accesses[size_t(LoadId)];
        Pipe.priced(E);
      }
      E.A = &Cas;
      Pipe.priced(E);
      uint64_t Taken = 0;
      for (uint32_t M = Left; M; M &= M - 1) {
        const unsigned L = ctz(M);
        const uint64_t Bank = uint64_t(1)
                              << ((R.Addr[L] >> WordShift) & (Arch.Banks - 1));
        if (!(Taken & Bank)) {
          Taken |= Bank;
          Left &= ~(1u << L);
        }
      }
    }
  }

  /// A merged group's instruction: how many parts make it, its width.
  struct Shape {
    unsigned Need = 0, Width = 0;
  };

  void emit(const One &O) {
    if (O.Unknown || O.Uncertain || O.Raced) {
      UnknownEvent U;
      U.AccessId = O.Id;
      U.Issued = !O.Uncertain;
      U.Mask = O.Mask;
      U.Reason = O.Uncertain ? &uncertainControl()
                 : O.Unknown ? &unknownAddress()
                             : &racedAtomic();
      U.Order = O.Order;
      Pipe.unknown(U);
      return;
    }
    const Access &A = EK.K.Accesses[size_t(O.Id)];
    RequestEvent E;
    E.A = &A;
    E.Addr = O.Addr;
    E.Mask = issuingLanes(A, O.Mask);
    E.Size = O.Size;
    E.Order = O.Order;
    E.Block = {O.Block % Grid.X, O.Block / Grid.X % Grid.Y,
               O.Block / (Grid.X * Grid.Y)};
    E.Warp = O.Warp;
    Pipe.priced(E);
  }

  void join(int Leader, const One &O) {
    // Each warp gathers its own parts: warps take turns of a few hundred
    // instructions, so another warp's parts may come between one warp's.
    // A part seen again (unless the parts are a loop's iterations) starts
    // the next instance; the open one is flushed. A thread runs its blocks
    // one after another: what a block left open is flushed when the next
    // begins, so that at most one block's warps have groups open.
    if (!Open.empty() && O.Block != OpenBlock)
      flushAll();
    OpenBlock = O.Block;
    std::vector<One> &Seen = Open[{Leader, O.Order}];
    const Shape &G = Shapes[Leader];
    const bool Again = EK.K.Accesses[size_t(Leader)].Compiled.Loop != 0 &&
                       std::any_of(Seen.begin(), Seen.end(),
                                   [&](const One &P) { return P.Id == O.Id; });
    if (Again)
      flush(G, Leader, Seen);
    Seen.push_back(O);
    if (Seen.size() >= G.Need) {
      flush(G, Leader, Seen);
      Open.erase({Leader, O.Order});
    }
  }

  /// Emits a group's requests: one wide request when complete, unknown if
  /// any part is, the parts apart otherwise.
  void flush(const Shape &G, int Leader, std::vector<One> &Seen) {
    if (Seen.empty())
      return;
    const One &F = Seen.front();
    bool Whole = Seen.size() == G.Need, Unknown = false, Uncertain = false,
         Raced = false;
    for (const One &P : Seen) {
      Unknown |= P.Unknown;
      Uncertain |= P.Uncertain;
      Raced |= P.Raced;
      Whole = Whole && P.Mask == F.Mask;
    }
    // Each lane's parts must be distinct, aligned parts of one aligned
    // window of the group's width (all of it, or some: ptxas reads the
    // whole window), in whatever order the instructions came.
    uint64_t Low[32];
    for (uint32_t M = F.Mask; Whole && M; M &= M - 1) {
      const unsigned L = ctz(M);
      const uint64_t Window = F.Addr[L] - F.Addr[L] % G.Width;
      uint64_t Bytes = 0; // Of the window, at most 32.
      for (const One &P : Seen) {
        const uint64_t D = P.Addr[L] - Window;
        Whole = Whole && G.Width <= 32 && P.Addr[L] >= Window &&
                D + P.Size <= G.Width && D % P.Size == 0;
        const uint64_t Part =
            Whole ? ((uint64_t(1) << P.Size) - 1) << D : uint64_t(0);
        Whole = Whole && !(Bytes & Part);
        Bytes |= Part;
      }
      Low[L] = Window;
    }
    if (Whole || Unknown || Uncertain || Raced) {
      One W = F;
      if (Whole)
        for (uint32_t M = F.Mask; M; M &= M - 1)
          W.Addr[ctz(M)] = Low[ctz(M)];
      W.Id = Leader;
      W.Size = G.Width;
      W.Unknown = Unknown;
      W.Uncertain = Uncertain;
      W.Raced = Raced;
      emit(W);
    } else {
      for (const One &P : Seen)
        emit(P);
      UnmergedEvent U;
      U.AccessId = Leader;
      Pipe.unmerged(U);
    }
    Seen.clear();
  }

  /// Request R of access Id, its lanes' addresses copied.
  One oneOf(int Id, const MemRequest &R) const {
    One O;
    O.Id = Id;
    O.Mask = R.Mask;
    O.Size = R.Size;
    O.Unknown = R.Unknown != 0;
    O.Uncertain = R.Uncertain != 0;
    O.Order = R.Block * WarpsPerBlock + R.Warp;
    O.Block = R.Block;
    O.Warp = R.Warp;
    for (uint32_t M = R.Mask; M; M &= M - 1)
      O.Addr[ctz(M)] = R.Addr[ctz(M)];
    return O;
  }

  /// A sunk load waits for its warp to reach its anchor; a warp that
  /// leaves first (its lanes exited) never makes it.
  void holdSunk(int Id, const MemRequest &R) {
    if (R.Block != HeldBlock)
      Held.clear();
    HeldBlock = R.Block;
    Held[{Id, R.Block * WarpsPerBlock + R.Warp}] = oneOf(Id, R);
  }

  /// At an anchor: the loads sunk to it, with the lanes that reached it.
  void releaseSunk(int Anchor, const MemRequest &R) {
    auto It = SunkBy.find(Anchor);
    if (It == SunkBy.end() || R.Block != HeldBlock)
      return;
    for (int Id : It->second) {
      auto H = Held.find({Id, R.Block * WarpsPerBlock + R.Warp});
      if (H == Held.end())
        continue;
      H->second.Mask &= R.Mask;
      if (H->second.Mask)
        emit(H->second);
      Held.erase(H);
    }
  }

  void flushAll() {
    for (auto &[Key, Seen] : Open)
      flush(Shapes[Key.first], Key.first, Seen);
    Open.clear();
  }

  RequestPipeline &Pipe;
  const ExecutedKernel &EK;
  std::vector<AccessStats> &Stats;
  const ArchRules &Arch;
  GlobalMemory &Mem;
  uint64_t WarpsPerBlock;
  Dim3 Grid;
  /// More than one warp: their atomics may race.
  bool Racing = WarpsPerBlock * Grid.count() > 1;
  const XFunction *LastFn = nullptr;
  const std::vector<int> *LastIds = nullptr;
  std::map<int, Shape> Shapes;
  /// The parts gathered so far, per leader and warp (its Order), of the
  /// accesses of block OpenBlock.
  std::map<std::pair<int, uint64_t>, std::vector<One>> Open;
  uint64_t OpenBlock = 0;
  /// Sunk loads per anchor, and the loads each warp of block HeldBlock
  /// made that wait for theirs.
  std::map<int, std::vector<int>> SunkBy;
  std::map<std::pair<int, uint64_t>, One> Held;
  uint64_t HeldBlock = ~uint64_t(0);
};

} // namespace

namespace {

/// The distinct global load sectors of each block, which its SM's L1 asks
/// of the L2 once. A thread runs its blocks one after another, so a block's
/// requests arrive together.
class BlockFirstTouches : public RequestListener {
public:
  uint64_t Misses = 0;
  void priced(const RequestEvent &E, const RequestCost &C) override {
    if (E.A->Sp != Space::Global || E.A->Kind != AccessKind::Load)
      return;
    const Dim3 B = E.Block;
    if (!Any || !(B == Current))
      flush();
    Any = true;
    Current = B;
    Sectors.add(E, &C);
  }
  void flush() {
    Misses += Sectors.size();
    Sectors.clear();
  }

private:
  bool Any = false;
  Dim3 Current;
  SectorSet Sectors;
};

/// A device-side cudaMemcpyAsync or cudaMemsetAsync within global memory,
/// the known bytes going with the bytes, the allocations it read and wrote
/// noted in Out; false outside every allocation.
bool copyOrSet(GlobalMemory &Mem, const exec::DeviceWork &W,
               exec::Outcome &Out) {
  for (uint64_t Done = 0; Done < W.Bytes;) {
    Region *D = Mem.find(W.Dst + Done, 1);
    Region *S = W.Value < 0 ? Mem.find(W.Src + Done, 1) : nullptr;
    if (!D || (W.Value < 0 && !S))
      return false;
    exec::addBase(Out.WrittenBases, D->Base);
    if (S)
      exec::addBase(Out.ReadBases, S->Base);
    uint64_t N = std::min(W.Bytes - Done, D->Base + D->Size - (W.Dst + Done));
    if (S)
      N = std::min(N, S->Base + S->Size - (W.Src + Done));
    const uint64_t DOff = W.Dst + Done - D->Base;
    for (uint64_t B = 0; B < N; ++B) {
      const uint64_t SOff = S ? W.Src + Done + B - S->Base : 0;
      D->Data[DOff + B] = S ? S->Data[SOff] : uint8_t(W.Value);
      const bool Known = !S || S->AllKnown || (S->Known && S->Known->get(SOff));
      if (D->Known && (!D->AllKnown || !Known)) {
        D->Known->set(DOff + B, 1, Known);
        D->AllKnown &= Known;
      }
    }
    Done += N;
  }
  return true;
}

/// Adds what launch part From did to To (the blocks of one launch run on
/// several threads, or a launch's children).
void absorb(exec::Outcome &To, const exec::Outcome &From) {
  To.Finished = To.Finished && From.Finished;
  if (To.Error.empty())
    To.Error = From.Error;
  To.WarpInstructions += From.WarpInstructions;
  To.Issued += From.Issued;
  To.IssuedInLoops += From.IssuedInLoops;
  To.ThreadInstructions += From.ThreadInstructions;
  To.UncertainWrites |= From.UncertainWrites;
  if (!To.StrayLanes)
    To.FirstStray = From.FirstStray;
  To.StrayLanes += From.StrayLanes;
  if (!To.SharedRaces)
    To.FirstSharedRace = From.FirstSharedRace;
  To.SharedRaces += From.SharedRaces;
  for (uint64_t B : From.ReadBases)
    exec::addBase(To.ReadBases, B);
  for (uint64_t B : From.WrittenBases)
    exec::addBase(To.WrittenBases, B);
  To.Printed += From.Printed;
  for (const auto &[Where, N] : From.Wgmma) {
    auto &W = To.Wgmma[Where];
    W.first += N.first;
    W.second += N.second;
  }
  if (To.Fault == exec::DeviceFault::None)
    To.Fault = From.Fault;
  To.Runaway |= From.Runaway;
  To.AssertLines += From.AssertLines;
  To.AssertThreads += From.AssertThreads;
}

/// One thread's share of a launch: its blocks, its pricing.
struct Part {
  ExecutedCounts Counts;
  RequestPipeline Pipe;
  AccessTotals Totals;
  FirstFaults Faults;
  BlockFirstTouches Touches;
  const ArchRules &Arch;
  explicit Part(const ArchRules &A, size_t Accesses)
      : Pipe(A), Totals(&Counts.Stats), Arch(A) {
    Counts.Stats.resize(Accesses);
    Faults.reset(Accesses);
    Pipe.listen(Totals);
    Pipe.listen(Faults);
    Pipe.listen(Touches);
  }
  void run(Program &P, const XFunction &K, const ExecutedKernel &EK,
           GlobalMemory &Mem, const LaunchConfig &C, bool Price) {
    std::deque<exec::DeviceWork> Queue;
    Counts.Out = runOne(P, K, EK, Mem, C, Price, 0, Queue);
    runDeviceWork(P, EK, Mem, C, Price, Queue);
    Counts.Misaligned = Faults.Misaligned;
    Touches.flush();
    Counts.L1MissSectors = Touches.Misses;
  }

  /// The launches, copies and sets the launch's threads asked the device
  /// runtime for, and theirs, in order: a device launch's counters count
  /// them all. Each child is priced as a launch of its own shape.
  void runDeviceWork(Program &P, const ExecutedKernel &EK, GlobalMemory &Mem,
                     const LaunchConfig &Parent, bool Price,
                     std::deque<exec::DeviceWork> &Queue) {
    uint64_t Launched = 0;
    for (; !Queue.empty() && Counts.Out.Error.empty(); Queue.pop_front()) {
      exec::DeviceWork &W = Queue.front();
      auto Stop = [&](std::string Why) {
        Counts.Out.Finished = false;
        Counts.Out.Error = std::move(Why);
      };
      if (!W.K) {
        if (!copyOrSet(Mem, W, Counts.Out))
          Stop("a device-side copy or set outside every allocation");
        continue;
      }
      if (++Launched > exec::MaxDeviceLaunches) {
        Stop("the kernels it launched launched more than " +
             std::to_string(exec::MaxDeviceLaunches) +
             " kernels (a recursion without end?)");
        break;
      }
      LaunchConfig &CC = W.Config;
      CC.SmCount = Parent.SmCount;
      // Apart from every host launch's (their count) and from each other.
      CC.GridId = (Parent.GridId << 21) + Launched;
      CC.Deadline = Parent.Deadline;
      if (Parent.MaxWarpInstructions) {
        if (Counts.Out.WarpInstructions >= Parent.MaxWarpInstructions) {
          Stop("the execution budget was spent in the kernels it launched");
          break;
        }
        CC.MaxWarpInstructions =
            Parent.MaxWarpInstructions - Counts.Out.WarpInstructions;
      }
      Touches.flush(); // Another launch: its blocks are new ones.
      absorb(Counts.Out, runOne(P, *W.K, EK, Mem, CC, Price, W.Depth, Queue));
    }
  }

  /// Runs launch C of K at nesting depth Depth, priced into this part
  /// (once an access racing atomics decide has run, its requests are
  /// ordered by them); what it asked the device runtime for is added at
  /// Queue's end, where a deque keeps the caller's references valid.
  exec::Outcome runOne(Program &P, const XFunction &K, const ExecutedKernel &EK,
                       GlobalMemory &Mem, const LaunchConfig &C, bool Price,
                       unsigned Depth, std::deque<exec::DeviceWork> &Queue) {
    PricingSink Sink(Pipe, EK, C, Counts.Stats, Arch, Mem);
    Sink.SawRaced = &Raced;
    if (Raced)
      Sink.Ordered = &orderedChildren();
    exec::Launch L(P, K, Mem, C, Price ? &Sink : nullptr);
    L.Depth = Depth;
    exec::Outcome O = L.run();
    Queue.insert(Queue.end(), std::make_move_iterator(L.DeviceQueue.begin()),
                 std::make_move_iterator(L.DeviceQueue.end()));
    return O;
  } // The sink flushes its open groups before the next launch.

  /// An access whose address racing atomics decide ran: the data of the
  /// launches made after it may be placed otherwise on a GPU.
  bool Raced = false;
};

bool communicates(const XFunction &K) {
  const std::vector<const XFunction *> Reach = reachable(K);
  return std::any_of(Reach.begin(), Reach.end(),
                     [](const XFunction *F) { return F->Communicates; });
}

} // namespace

std::vector<const XFunction *> reachable(const XFunction &K) {
  return withLaunches(K);
}

ExecutedCounts executeLaunch(Program &P, const XFunction &K,
                             const ExecutedKernel &EK, GlobalMemory &Mem,
                             const LaunchConfig &C, const ArchRules &A,
                             unsigned Threads, bool Price) {
  const auto Start = std::chrono::steady_clock::now();
  const uint64_t Blocks = std::min<uint64_t>(
      C.BlockCount,
      uint64_t(C.Grid[0]) * C.Grid[1] * C.Grid[2] -
          std::min<uint64_t>(C.FirstBlock,
                             uint64_t(C.Grid[0]) * C.Grid[1] * C.Grid[2]));
  if (!Threads)
    Threads = std::max(1u, std::thread::hardware_concurrency());
  if (C.Cooperative || communicates(K) || Blocks < 2 * Threads)
    Threads = 1;
  const size_t N = EK.K.Accesses.size();
  std::vector<std::unique_ptr<Part>> Parts;
  std::vector<LaunchConfig> Configs(Threads, C);
  for (unsigned T = 0; T < Threads; ++T) {
    Parts.push_back(std::make_unique<Part>(A, N));
    // Contiguous ranges, in launch order.
    Configs[T].FirstBlock = C.FirstBlock + Blocks * T / Threads;
    Configs[T].BlockCount = Blocks * (T + 1) / Threads - Blocks * T / Threads;
  }
  // The shared layout is computed once, before the threads (Program caches
  // it).
  (void)P.layout(K);
  std::vector<std::thread> Pool;
  for (unsigned T = 1; T < Threads; ++T)
    Pool.emplace_back(
        [&, T] { Parts[T]->run(P, K, EK, Mem, Configs[T], Price); });
  Parts[0]->run(P, K, EK, Mem, Configs[0], Price);
  for (std::thread &T : Pool)
    T.join();
  ExecutedCounts Out = std::move(Parts[0]->Counts);
  for (const XFunction *F : reachable(K)) {
    Out.Out.PtxInstructions += F->Code.size();
    for (uint32_t A : F->Accesses)
      Out.Out.PtxMemoryInLoops += uint64_t(F->InLoop[A] != 0);
    Out.Out.PtxInLoops += uint64_t(std::count_if(
        F->InLoop.begin(), F->InLoop.end(), [](char C) { return C; }));
  }
  for (unsigned T = 1; T < Threads; ++T) {
    const ExecutedCounts &O = Parts[T]->Counts;
    for (size_t I = 0; I < N; ++I) {
      Out.Stats[I].add(O.Stats[I]);
      if (O.Misaligned[I].Order < Out.Misaligned[I].Order)
        Out.Misaligned[I] = O.Misaligned[I];
    }
    if (O.L1MissSectors)
      Out.L1MissSectors = Out.L1MissSectors.value_or(0) + *O.L1MissSectors;
    absorb(Out.Out, O.Out);
  }
  std::map<std::pair<std::string, unsigned>, LineShared> ByLine;
  for (const auto &[Where, N] : Out.Out.Wgmma) {
    const std::vector<SourceLoc> Chain =
        sourceChain(*Where.first, Where.second);
    const SourceLoc L = Chain.empty() ? SourceLoc() : Chain.front();
    LineShared &To = ByLine[{L.File, L.Line}];
    To.File = L.File;
    To.Line = L.Line;
    To.Instructions += N.first;
    To.Wavefronts += N.second;
  }
  for (auto &[Key, L] : ByLine)
    Out.LineOnly.push_back(std::move(L));
  const uint64_t Asserts = Out.Out.AssertThreads;
  if (Asserts && Out.Out.Error.empty())
    Out.Out.Error =
        std::to_string(Asserts) + " thread" + (Asserts > 1 ? "s'" : "'s") +
        " device assert failed, the first: " +
        Out.Out.AssertLines.substr(0, Out.Out.AssertLines.find('\n'));
  // A GPU stops at a misaligned access (the H200 at a 4-byte store 2 bytes
  // off); the executor made it and ran on, the pricing found it.
  if (Out.Out.Fault == exec::DeviceFault::None &&
      std::any_of(Out.Misaligned.begin(), Out.Misaligned.end(),
                  [](const OrderedExample &E) { return E.Order != ~0ull; }))
    Out.Out.Fault = exec::DeviceFault::MisalignedAddress;
  Out.Priced = Price;
  Out.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  return Out;
}

} // namespace gmem
