//===- ops_control.cpp - Branches, calls, returns, barriers -----------------===//
#include "call_args.h"
#include "decode.h"
#include "float_bits.h"
#include "lanes.h"
#include "launch.h"
#include "model.h"

#include <algorithm>
#include <cstdio>

namespace gmem::exec {

namespace {

uint32_t guardLanes(const Ctx &C, const XInstr &I, uint32_t Mask) {
  if (I.Guard < 0)
    return Mask;
  const uint32_t P = C.P[I.Guard];
  return Mask & (I.GuardNot ? ~P : P);
}

/// Counts an instruction run here, outside the warp's step, on Lanes.
void countIssued(Ctx &C, const XInstr &In, uint32_t Lanes) {
  ++C.W->Executed;
  ++C.L->Out.WarpInstructions;
  C.L->Out.ThreadInstructions += popc(Lanes);
  C.L->Out.IssuedInLoops += In.InLoop;
}

/// A diamond's branch (XFunction::Diamonds) whose lanes split: ptxas
/// predicates both sides, so the warp splits only where they lead. Each
/// side runs here on its lanes, and its lanes go on with the other side's
/// that go the same way; a side whose own guard is unknown for some lane
/// goes on from its branch as any path does.
void diamondH(Ctx &C, const XInstr &I, uint32_t Taken, uint32_t Not) {
  const XFunction &F = *C.Fr->Fn;
  const XFunction::DiamondSides &D = F.Diamonds[size_t(I.Diamond)];
  StackEntry &E = C.Fr->Stack.back();
  const uint32_t Taint = E.Taint, Fork = E.Fork;
  std::vector<StackEntry> Next;
  uint32_t ToLanes = 0, ElseLanes = 0;
  const uint32_t Lanes[2] = {Taken, Not};
  for (unsigned K = 0; K < 2; ++K) {
    C.Active = Lanes[K];
    for (uint32_t Pc = D.Body[K]; Pc <= D.Branch[K]; ++Pc) {
      const XInstr &In = F.Code[Pc];
      if (Pc == D.Branch[K] && (Lanes[K] & ~C.PK[In.Guard])) {
        Next.push_back({Pc, Lanes[K], I.Reconv, Taint, Fork});
        break;
      }
      if (Pc < D.Branch[K])
        In.Fn(C, In);
      countIssued(C, In, Lanes[K]);
      if (Pc == D.Branch[K]) {
        const uint32_t Go = guardLanes(C, In, Lanes[K]);
        // Side K's target is D.To[K]: the first place's or the other's.
        const bool First = D.To[K] == D.To[0];
        (First ? ToLanes : ElseLanes) |= Go;
        (First ? ElseLanes : ToLanes) |= Lanes[K] & ~Go;
      }
    }
  }
  C.Active = Taken | Not;
  E.PC = I.Reconv;
  std::vector<StackEntry> &S = C.Fr->Stack;
  S.insert(S.end(), Next.begin(), Next.end());
  if (ElseLanes)
    S.push_back({D.Else[0], ElseLanes, I.Reconv, Taint, Fork});
  if (ToLanes)
    S.push_back({D.To[0], ToLanes, I.Reconv, Taint, Fork});
}

/// A short-circuit join's first branch (XFunction::ShortJoins) whose lanes
/// split: the lanes that go on run the second test here, and those of them
/// bound for the join meet the taken lanes there, as ptxas's barrier makes
/// them; a second guard unknown for some lane goes on from its branch as
/// any path does.
void shortJoinH(Ctx &C, const XInstr &I, uint32_t Taken, uint32_t Not) {
  const XFunction &F = *C.Fr->Fn;
  const XFunction::ShortJoinSides &SJ = F.ShortJoins[size_t(I.ShortJoin)];
  StackEntry &E = C.Fr->Stack.back();
  const uint32_t Taint = E.Taint, Fork = E.Fork;
  std::vector<StackEntry> &S = C.Fr->Stack;
  C.Active = Not;
  for (uint32_t Pc = SJ.Body; Pc < SJ.Branch; ++Pc) {
    const XInstr &In = F.Code[Pc];
    In.Fn(C, In);
    countIssued(C, In, Not);
  }
  C.Active = Taken | Not;
  E.PC = I.Reconv;
  const XInstr &Br = F.Code[SJ.Branch];
  if (Not & ~C.PK[Br.Guard]) {
    S.push_back({SJ.Branch, Not, I.Reconv, Taint, Fork});
    S.push_back({SJ.Join, Taken, I.Reconv, Taint, Fork});
    return;
  }
  countIssued(C, Br, Not);
  const uint32_t Go = guardLanes(C, Br, Not);
  const uint32_t ToJoin = Br.Target == SJ.Join ? Go : Not & ~Go;
  if (Not & ~ToJoin)
    S.push_back({SJ.Other, Not & ~ToJoin, I.Reconv, Taint, Fork});
  S.push_back({SJ.Join, Taken | ToJoin, I.Reconv, Taint, Fork});
}

/// A branch: the active lanes split by the guard; both paths run, the
/// taken one first, and meet at the reconvergence point. A guard that is
/// unknown for some lane makes everything up to that point uncertain; where
/// the sides allow, such lanes run both (fork_join.cpp).
void braH(Ctx &C, const XInstr &I) {
  StackEntry &E = C.Fr->Stack.back();
  const uint32_t Mask = C.Active;
  const uint32_t Taken = guardLanes(C, I, Mask), Not = Mask & ~Taken;
  const bool Unknown = I.Guard >= 0 && (Mask & ~C.PK[I.Guard]);
  if (!Unknown) {
    // The whole warp skips one side. Lanes of another path that meets this
    // one where the branch's sides do (`a || b`) may run that side: then
    // it is not skipped.
    const int32_t Skip = !Not ? I.SkipTaken : !Taken ? I.SkipNot : -1;
    if (Skip >= 0 && !(E.Taint & Mask) && E.Reconv != I.Reconv)
      C.L->predicatedOff(*C.Fr->Fn, C.Fr->Fn->Skipped[size_t(Skip)]);
    if (!Not) {
      E.PC = I.Target;
      return;
    }
    if (!Taken)
      return;
  }
  if (!Unknown && I.Diamond >= 0 && !(E.Taint & Mask))
    return diamondH(C, I, Taken, Not);
  if (!Unknown && I.ShortJoin >= 0 && !(E.Taint & Mask))
    return shortJoinH(C, I, Taken, Not);
  if (Unknown && I.Fork >= 0 && !(E.Taint & Mask) &&
      C.Fr->Forks.size() < MaxForkDepth)
    return C.L->fork(C, I, Mask & ~C.PK[I.Guard], Taken);
  // Lanes whose path an unknown value decided write unknown values.
  const uint32_t Fall = E.PC, Taint = Unknown ? E.Taint | Mask : E.Taint,
                 Fork = Unknown ? E.Fork & ~Mask : E.Fork;
  // A side that only returns is no way to the meeting point (cfg.cpp): the
  // lanes that go on past it may have returned on a GPU. Their requests
  // and stores are uncertain from here; their registers hold what they
  // would if they run.
  if (Unknown && I.SideReturns) {
    const uint32_t Maybe = Mask & ~C.PK[I.Guard] & ~E.Taint;
    E.Taint |= Maybe;
    E.Fork |= Maybe;
  }
  E.PC = I.Reconv;
  std::vector<StackEntry> &S = C.Fr->Stack;
  if (Not)
    S.push_back({Fall, Not, I.Reconv, Taint, Fork});
  if (Taken)
    S.push_back({I.Target, Taken, I.Reconv, Taint, Fork});
}

void retH(Ctx &C, const XInstr &I) {
  const uint32_t Lanes = guardLanes(C, I, C.Active);
  if (C.W->Frames.size() == 1) {
    C.L->exitLanes(*C.W, Lanes);
    return;
  }
  for (StackEntry &E : C.Fr->Stack)
    E.Mask &= ~Lanes;
}

void exitH(Ctx &C, const XInstr &I) {
  C.L->exitLanes(*C.W, guardLanes(C, I, C.Active));
}

void trapH(Ctx &C, const XInstr &I) {
  if (guardLanes(C, I, C.Active))
    C.L->fail(I,
              "the kernel executed trap (the GPU stops the launch with an "
              "error)",
              DeviceFault::Trap);
}

/// Reads a NUL-terminated string of global memory at A (at most 4 KiB).
std::string cString(Ctx &C, uint64_t A) {
  std::string S;
  while (S.size() < 4096) {
    Region *R = C.L->Mem.find(A + S.size(), 1);
    if (!R)
      break;
    const char Ch = char(R->Data[A + S.size() - R->Base]);
    if (!Ch)
      break;
    S += Ch;
  }
  return S;
}

/// printf's arguments as the device packs them (each aligned to its size).
std::string formatPrintf(const std::string &Fmt, const uint8_t *Args,
                         size_t Size) {
  std::string Out;
  size_t Off = 0;
  auto Take = [&](unsigned N) {
    Off = (Off + N - 1) / N * N;
    uint64_t V = 0;
    if (Args && Off + N <= Size)
      std::memcpy(&V, Args + Off, N);
    Off += N;
    return V;
  };
  for (size_t I = 0; I < Fmt.size(); ++I) {
    if (Fmt[I] != '%') {
      Out += Fmt[I];
      continue;
    }
    size_t J = I + 1;
    while (J < Fmt.size() && std::strchr("-+ #0123456789.*", Fmt[J]))
      ++J;
    std::string Len;
    while (J < Fmt.size() && std::strchr("hlLqjzt", Fmt[J]))
      Len += Fmt[J++];
    if (J >= Fmt.size())
      break;
    const char Conv = Fmt[J];
    std::string Spec = Fmt.substr(I, J - I + 1);
    char Buf[512];
    if (Conv == '%') {
      Out += '%';
    } else if (std::strchr("diuxXoc", Conv)) {
      const bool Long = Len.find('l') != std::string::npos ||
                        Len.find('j') != std::string::npos ||
                        Len.find('z') != std::string::npos;
      const uint64_t V = Take(Long ? 8 : 4);
      // Print with a 64-bit length whatever was written.
      std::string S64 = Fmt.substr(I, J - I - Len.size()) + "ll" + Conv;
      if (Conv == 'c')
        std::snprintf(Buf, sizeof Buf, Spec.c_str(), int(V));
      else if (Conv == 'd' || Conv == 'i')
        std::snprintf(Buf, sizeof Buf, S64.c_str(),
                      Long ? (long long)V : (long long)int32_t(V));
      else
        std::snprintf(Buf, sizeof Buf, S64.c_str(),
                      Long ? (unsigned long long)V
                           : (unsigned long long)uint32_t(V));
      Out += Buf;
    } else if (std::strchr("feEgGaA", Conv)) {
      std::snprintf(Buf, sizeof Buf, Spec.c_str(), asDouble(Take(8)));
      Out += Buf;
    } else if (Conv == 'p') {
      std::snprintf(Buf, sizeof Buf, "%p", (void *)uintptr_t(Take(8)));
      Out += Buf;
    } else if (Conv == 's') {
      Take(8); // A device string: its address is not readable here.
      Out += "(string)";
    } else {
      Out += Spec;
    }
    I = J;
  }
  return Out;
}

/// The functions a PTX module may call without defining them.
void builtinCall(Ctx &C, const XInstr &I, const CallInfo &CI) {
  const CallArgs A(C, CI);
  if (CI.Name == "vprintf") {
    for (uint32_t M = C.Active; M; M &= M - 1) {
      const unsigned L = unsigned(ctz(M));
      const std::string Fmt = cString(C, A.value(L, 0));
      uint64_t Buf = A.value(L, 1);
      // The arguments are a local buffer of this thread.
      std::vector<uint8_t> Args;
      if (Buf - LocalWindow < WindowSize)
        Buf -= LocalWindow;
      if (Buf < C.W->LocalStride)
        Args.assign(C.W->Local.begin() + long(L * C.W->LocalStride + Buf),
                    C.W->Local.begin() + long((L + 1) * C.W->LocalStride));
      C.L->Out.Printed += formatPrintf(Fmt, Args.data(), Args.size());
      A.ret(L, 0);
    }
    return;
  }
  if (CI.Name == "free")
    return;
  if (deviceHeapCall(CI.Name)) {
    // The driver's allocator places a block where it likes, at 16 bytes
    // (or the alignment asked for) at least: here at 256, and the pricing
    // tries every placement the alignment allows (executed.cpp).
    for (uint32_t M = C.Active; M; M &= M - 1) {
      const unsigned L = unsigned(ctz(M));
      const uint64_t Bytes = std::max<uint64_t>(A.value(L, 0), 1);
      // __nv_aligned_device_malloc(size, align) calls the aligned one.
      const uint64_t Align =
          CI.Name == "malloc" ? 16 : std::max<uint64_t>(A.value(L, 1), 16);
      if (Align & (Align - 1)) { // Not a power of two: the GPU returns null.
        A.ret(L, 0);
        continue;
      }
      Region &R = C.L->Mem.allocate(Bytes, Align, "device malloc");
      R.HeapAlign = uint32_t(std::min<uint64_t>(Align, uint64_t(1) << 31));
      C.L->Mem.Heap = true;
      A.ret(L, R.Base);
    }
    return;
  }
  if (CI.Name == "__assertfail") {
    // Each failing thread prints its message, as a GPU words it, and stops;
    // the others run on (the H200 printed all 27 of a probe's,
    // tests/data/measured/faults).
    Outcome &Out = C.L->Out;
    const uint32_t *Dim = C.L->Config.Block;
    const unsigned First = unsigned(ctz(C.Active));
    const std::string Where = cString(C, A.value(First, 1)) + ":" +
                              std::to_string(uint32_t(A.value(First, 2))) +
                              ": " + cString(C, A.value(First, 3)) +
                              ": block: [" + std::to_string(C.B->Idx[0]) + "," +
                              std::to_string(C.B->Idx[1]) + "," +
                              std::to_string(C.B->Idx[2]) + "], thread: [";
    const std::string What =
        "] Assertion `" + cString(C, A.value(First, 0)) + "` failed.\n";
    forLanes(C.Active, [&](unsigned L) {
      const uint64_t T = uint64_t(C.W->Id) * 32 + L;
      Out.AssertLines += Where + std::to_string(T % Dim[0]) + "," +
                         std::to_string(T / Dim[0] % Dim[1]) + "," +
                         std::to_string(T / Dim[0] / Dim[1]) + What;
    });
    Out.AssertThreads += unsigned(popc(C.Active));
    if (Out.Fault == DeviceFault::None)
      Out.Fault = DeviceFault::Assert;
    C.L->exitLanes(*C.W, C.Active);
    return;
  }
  if (deviceRuntimeCall(C, I, CI))
    return;
  C.L->fail(I, "a call of " + CI.Name +
                   ", which no module of the program defines");
}

void callH(Ctx &C, const XInstr &I) {
  const CallInfo &CI = C.Fr->Fn->Calls[size_t(I.Extra)];
  if (CI.Callee || CI.Name.empty())
    C.L->call(C, I, CI);
  else
    builtinCall(C, I, CI);
}

/// bar.sync / barrier.sync id{, count}: the warp waits; bar.arrive counts
/// without waiting. bar.red also reduces a predicate (Sub: 1 popc, 2 and,
/// 3 or).
void barH(Ctx &C, const XInstr &I) {
  const unsigned First = unsigned(ctz(C.Active));
  const unsigned Id = I.NS ? unsigned(C.lanes(I.S[0])[First] & 15) : 0;
  const unsigned Count = I.NS > 1 ? unsigned(C.lanes(I.S[1])[First]) : 0;
  BarrierState &S = C.B->Barriers[Id];
  if (Count) {
    S.Expected = Count;
    S.Arrived += unsigned(popc(C.Active));
  }
  Warp &W = *C.W;
  W.RedOp = I.Sub;
  if (I.Sub) {
    uint32_t P = C.pred(I.S[2]);
    if (I.Flags)
      P = ~P;
    W.RedBits = P & C.Active;
    W.RedDst = I.D[0];
  }
  if (I.Off == 1) // bar.arrive
    return;
  W.State = WarpState::AtBarrier;
  W.BarrierId = Id;
  W.BarrierMask = C.Active;
  C.Yield = true;
}

} // namespace

bool decodeControl(Decoder &D, const ptx::Instr &I, XInstr &X) {
  const std::string &Op = I.Op;
  if (Op == "bra") {
    const ptx::Operand &T = I.Ops.at(0);
    X.Target = D.label(T.Name);
    if (X.Target == ~0u) {
      D.unsupported(X, "a branch to an unknown label " + T.Name);
      return true;
    }
    X.Fn = braH;
    X.Ctl = XInstr::Branch;
    X.GuardInHandler = true;
    return true;
  }
  if (Op == "ret" || Op == "exit") {
    X.Fn = Op == "ret" ? retH : exitH;
    X.Ctl = XInstr::Leave;
    X.GuardInHandler = true;
    return true;
  }
  if (Op == "trap") {
    X.Fn = trapH;
    X.Ctl = XInstr::Leave;
    X.GuardInHandler = true;
    return true;
  }
  // griddepcontrol (programmatic dependent launch, which CUB's kernels use
  // on sm_90): launches run here one after another, so the grids a launch
  // waits for have finished and its dependents start after it anyway.
  if (Op == "brkpt" || Op == "nanosleep" || Op == "pmevent" ||
      (Op == "bar" && I.has("warp")) || Op == "setmaxnreg" ||
      Op == "griddepcontrol") {
    X.Fn = nopHandler;
    return true;
  }
  if (Op == "call") {
    CallInfo CI;
    size_t K = 0;
    bool BadArg = false;
    auto Vars = [&](const ptx::Operand &V) {
      std::vector<std::pair<uint32_t, unsigned>> Out;
      for (const ptx::Operand &E : V.Elems) {
        const Opnd O = D.src(E, Ty::U64);
        // Call arguments are .param variables, whose addresses decode to
        // constants; anything else is not a call PTX allows.
        if (fileOf(O) != FConst) {
          BadArg = true;
          continue;
        }
        unsigned Bytes = 0;
        for (const ptx::Variable &L : D.Fn.Locals)
          if (L.Name == E.Name)
            Bytes = unsigned(L.Bytes);
        Out.push_back({uint32_t(D.X.Consts[size_t(slotOf(O)) * 32]), Bytes});
      }
      return Out;
    };
    if (K < I.Ops.size() && I.Ops[K].Kind == ptx::Operand::Vector)
      CI.Rets = Vars(I.Ops[K++]);
    if (K >= I.Ops.size()) {
      D.unsupported(X, "a call without a callee");
      return true;
    }
    const ptx::Operand &Callee = I.Ops[K++];
    if (Callee.Kind == ptx::Operand::Reg) {
      CI.Target = D.src(Callee, Ty::U64);
    } else {
      CI.Name = Callee.Name;
      const std::string Local =
          std::to_string(D.X.ModuleIndex) + ":" + Callee.Name;
      if (D.Prog.definition(Local, nullptr))
        CI.Callee = D.Prog.decodeFunction(Local);
      else if (D.Prog.definition(Callee.Name, nullptr))
        CI.Callee = D.Prog.decodeFunction(Callee.Name);
    }
    if (K < I.Ops.size() && I.Ops[K].Kind == ptx::Operand::Vector)
      CI.Args = Vars(I.Ops[K++]);
    if (BadArg) {
      D.unsupported(X, "a call argument that is not a .param variable");
      return true;
    }
    X.Extra = int32_t(D.X.Calls.size());
    D.X.Calls.push_back(std::move(CI));
    X.Fn = callH;
    return true;
  }
  if (Op == "bar" || Op == "barrier") {
    if (I.has("cluster")) {
      // A launch without clusters: the cluster is the block itself.
      if (I.has("arrive")) {
        X.Fn = nopHandler;
        return true;
      }
      X.Fn = barH;
      X.S[0] = D.constant(15);
      X.NS = 1;
      return true;
    }
    size_t K = 0;
    if (I.has("red")) {
      X.Sub = I.has("popc") ? 1 : I.has("and") ? 2 : 3;
      X.D[0] = D.dst(I.Ops.at(K++));
      X.ND = 1;
    }
    X.S[0] = D.src(I.Ops.at(K++), Ty::U32);
    X.NS = 1;
    if (K < I.Ops.size() && (!X.Sub || K + 1 < I.Ops.size()))
      X.S[X.NS++] = D.src(I.Ops.at(K++), Ty::U32);
    if (X.Sub) {
      if (K >= I.Ops.size()) {
        D.unsupported(X, "bar.red without its predicate");
        return true;
      }
      if (X.NS == 1)
        X.S[1] = D.constant(0);
      X.NS = 3;
      X.Flags = I.Ops[K].Not;
      X.S[2] = D.src(I.Ops[K], Ty::Pred);
    }
    X.Off = I.has("arrive") ? 1 : 0;
    X.Fn = barH;
    return true;
  }
  return false;
}

} // namespace gmem::exec
