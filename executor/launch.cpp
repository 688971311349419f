//===- launch.cpp - Blocks, warps, frames and barriers ----------------------===//
#include "launch.h"
#include "decode.h"

#include <algorithm>
#include <cstdio>

namespace gmem::exec {

std::string where(const XInstr &I, const XFunction &F) {
  std::string S = "line " + std::to_string(I.Src ? I.Src->PtxLine : 0) +
                  " of the PTX of " + F.Name;
  if (I.Src && I.Src->Pos >= 0 && F.Mod) {
    // The innermost source position, as the line table gives it.
    const ptx::SourcePos &P = F.Mod->Positions[size_t(I.Src->Pos)];
    auto File = F.Mod->Files.find(P.File);
    if (File != F.Mod->Files.end())
      S += " (" + File->second + ":" + std::to_string(P.Line) + ")";
  }
  return S;
}

Launch::Launch(Program &P, const XFunction &K, GlobalMemory &M,
               const LaunchConfig &C, RequestSink *S)
    : Prog(P), Kernel(K), Mem(M), Config(C), Sink(S), Layout(P.layout(K)) {
  const size_t NS = Prog.shared().size();
  LaunchConsts.assign(NS * 32 + 32, 0);
  LaunchKnown.assign(NS + 1, ~0u);
  for (size_t I = 0; I < NS; ++I) {
    const uint64_t Off = I < Layout.Offset.size() ? Layout.Offset[I] : 0;
    std::fill_n(LaunchConsts.begin() + long(I * 32), 32,
                Off == ~uint64_t(0) ? 0 : Off);
  }
  KernelParams = C.Params;
  KernelParamsKnown = KnownBits(KernelParams.size() + 1, true);
  for (size_t I = 0; I < C.ParamsKnown.size(); ++I)
    if (!C.ParamsKnown[I])
      KernelParamsKnown.set(I, 1, false);
  Budget = C.MaxWarpInstructions;
}

const char *faultName(DeviceFault F) {
  switch (F) {
  case DeviceFault::None:
    return "cudaSuccess";
  case DeviceFault::Assert:
    return "cudaErrorAssert";
  case DeviceFault::Trap:
    return "cudaErrorLaunchFailure";
  case DeviceFault::IllegalAddress:
    return "cudaErrorIllegalAddress";
  case DeviceFault::MisalignedAddress:
    return "cudaErrorMisalignedAddress";
  case DeviceFault::IllegalInstruction:
    return "cudaErrorIllegalInstruction";
  }
  return "cudaErrorUnknown";
}

void Launch::fail(const XInstr &I, const std::string &Why, DeviceFault F) {
  if (Stop)
    return;
  Stop = true;
  if (Out.Fault == DeviceFault::None)
    Out.Fault = F;
  Out.Error = Why;
  if (I.Src)
    Out.Error += " (PTX line " + std::to_string(I.Src->PtxLine) + ")";
}

void Launch::stray(const XInstr &I, const Warp &W, unsigned L, uint64_t A,
                   bool Store, bool Shared) {
  if (Store)
    Out.UncertainWrites = true;
  if (Out.StrayLanes++)
    return;
  char Hex[32];
  std::snprintf(Hex, sizeof Hex, "0x%llx", (unsigned long long)A);
  Out.FirstStray = std::string(Store ? "writes " : "reads ") +
                   (Shared ? "shared offset " : "") + Hex +
                   (Shared ? ", outside the shared variable it indexes (built "
                             "with -rdc=true: nvlink placed the block's "
                             "shared variables, in an order gmem does not "
                             "know; the GPU may read another one there, or "
                             "fault)"
                           : ", outside every allocation") +
                   ", at " + where(I, *W.Frames.back().Fn) + " (block " +
                   std::to_string(W.B->Linear) + ", thread " +
                   std::to_string(W.Id * 32 + L) + ")";
}

void Launch::sharedRace(const XInstr &I, const Warp &W, unsigned Reader,
                        uint64_t Offset, uint32_t Line) {
  if (Out.SharedRaces++)
    return;
  Out.FirstSharedRace =
      "warp " + std::to_string(Reader) + " of block " +
      std::to_string(W.B->Linear) + " read the shared word at offset " +
      std::to_string(Offset) + " (line " + std::to_string(Line) +
      " of the PTX) that warp " + std::to_string(W.Id) + " wrote later (" +
      where(I, *W.Frames.back().Fn) + ") with no barrier between";
}

void Launch::exitLanes(Warp &W, uint32_t Lanes) {
  Lanes &= W.Live;
  if (!Lanes)
    return;
  W.Live &= ~Lanes;
  W.B->LiveThreads -= unsigned(popc(Lanes));
  for (Frame &F : W.Frames)
    for (StackEntry &E : F.Stack)
      E.Mask &= ~Lanes;
}

/// The deepest local memory a thread may use: the kernel's frame and its
/// deepest chain of calls (recursion: 64 KiB).
static uint64_t stackBytes(const XFunction &F, unsigned Depth) {
  if (Depth > 32)
    return 64 * 1024;
  uint64_t Deepest = 0;
  for (const CallInfo &C : F.Calls)
    if (C.Callee && C.Callee != &F)
      Deepest = std::max(Deepest, stackBytes(*C.Callee, Depth + 1));
    else if (C.Callee == &F || (!C.Callee && C.Name.empty()))
      Deepest = std::max<uint64_t>(Deepest, 64 * 1024);
  return F.LocalBytes + Deepest;
}

void Launch::initBlock(Block &B, uint64_t Linear) {
  const uint32_t *G = Config.Grid, *Bk = Config.Block;
  B.Linear = Linear;
  B.Idx[0] = Linear % G[0];
  B.Idx[1] = Linear / G[0] % G[1];
  B.Idx[2] = Linear / (uint64_t(G[0]) * G[1]);
  const unsigned Threads = Bk[0] * Bk[1] * Bk[2];
  const unsigned NW = (Threads + 31) / 32;
  B.Warps.resize(NW);
  // A block's shared memory is allocated in 128-byte units (with the 1 KB
  // the system reserves before it): a GPU faults only past the last unit
  // (an H200 read 16 bytes past 7016 bytes and faulted at 5120 of 5120:
  // tests/data/measured/probe/shared_bounds_h200.txt).
  const uint64_t SharedBytes =
      alignUp(Layout.DynamicOffset + Config.DynamicSmem, 128);
  // Shared memory starts unknown (its bytes are whatever they were).
  B.Shared.resize(SharedBytes);
  B.SharedKnown.reset(SharedBytes, false);
  B.UnknownReader.assign((SharedBytes + 3) / 4, 0);
  B.UnknownReadLine.resize(B.UnknownReader.size());
  B.UnknownReadWords.clear();
  for (BarrierState &S : B.Barriers)
    S = {};
  B.MBarriers.clear();
  B.Wgmmas.clear();
  B.LiveThreads = Threads;
  const uint64_t Stack = std::max<uint64_t>(stackBytes(Kernel, 0), 16);
  for (unsigned WI = 0; WI < NW; ++WI) {
    Warp &W = B.Warps[WI];
    W.Id = WI;
    W.B = &B;
    W.State = WarpState::Ready;
    W.Executed = 0;
    W.Wgmmas = 0;
    const unsigned Lanes = std::min(32u, Threads - WI * 32);
    W.Live = Lanes == 32 ? ~0u : (1u << Lanes) - 1;
    W.SpecialKnown.assign(NumSpecials, ~0u);
    auto Set = [&](uint32_t S, unsigned L, uint64_t V) {
      W.Specials[size_t(S) * 32 + L] = V;
    };
    // A warp of the block before (run() reuses one Block) differs only in
    // the block's own registers.
    const bool Again = W.Specials.size() == size_t(NumSpecials) * 32;
    if (Again)
      for (unsigned L = 0; L < 32; ++L) {
        for (unsigned D = 0; D < 3; ++D)
          Set(SCtaidX + D, L, B.Idx[D]);
        Set(SSmid, L, Linear % Config.SmCount);
      }
    else
      W.Specials.assign(size_t(NumSpecials) * 32, 0);
    for (unsigned L = 0; L < 32 && !Again; ++L) {
      const uint64_t T = uint64_t(WI) * 32 + L;
      Set(STidX, L, T % Bk[0]);
      Set(STidY, L, T / Bk[0] % Bk[1]);
      Set(STidZ, L, T / (uint64_t(Bk[0]) * Bk[1]));
      for (unsigned D = 0; D < 3; ++D) {
        Set(SNtidX + D, L, Bk[D]);
        Set(SCtaidX + D, L, B.Idx[D]);
        Set(SNctaidX + D, L, G[D]);
      }
      Set(SLaneid, L, L);
      Set(SWarpid, L, WI);
      Set(SNwarpid, L, 64);
      Set(SLanemaskEq, L, uint64_t(1) << L);
      Set(SLanemaskLt, L, (uint64_t(1) << L) - 1);
      Set(SLanemaskLe, L, (uint64_t(2) << L) - 1);
      Set(SLanemaskGt, L, uint32_t(~((uint64_t(2) << L) - 1)));
      Set(SLanemaskGe, L, uint32_t(~((uint64_t(1) << L) - 1)));
      Set(SSmid, L, Linear % Config.SmCount);
      Set(SNsmid, L, Config.SmCount);
      Set(SGridid, L, Config.GridId);
      Set(SDynSmem, L, Config.DynamicSmem);
      Set(STotalSmem, L, Layout.StaticBytes + Config.DynamicSmem);
      Set(SClusterCtarank, L, 0);
      Set(SClusterNctarank, L, 1);
      Set(SZero, L, 0);
      Set(SOne, L, 1);
      if (!GridWorkspace.empty()) {
        // The grid's barrier word: envreg1 (high) and envreg2 (low) of its
        // address, as the driver passes it to a cooperative launch.
        const uint64_t A = GridBarrier;
        Set(SEnvreg0 + 1, L, A >> 32);
        Set(SEnvreg0 + 2, L, uint32_t(A));
      }
    }
    W.LocalStride = Stack;
    W.LocalTop = 0;
    W.Local.resize(Stack * 32);
    W.LocalKnown.reset(Stack * 32, false);
    // The kernel's frame, its storage kept from the block before.
    W.Frames.resize(1);
    initFrame(W, W.Frames[0], Kernel, W.Live);
  }
}

void Launch::pushFrame(Warp &W, const XFunction &F, uint32_t Mask) {
  W.Frames.emplace_back();
  initFrame(W, W.Frames.back(), F, Mask);
}

void Launch::initFrame(Warp &W, Frame &Fr, const XFunction &F,
                       uint32_t Mask) {
  Fr.Fn = &F;
  Fr.R.resize(size_t(F.NumRegs) * 32); // Unknown until written (K).
  Fr.K.assign(F.NumRegs, 0);
  Fr.P.assign(F.NumPreds + 1, 0);
  Fr.PK.assign(F.NumPreds + 1, 0);
  Fr.LocalBase = W.LocalTop;
  W.LocalTop += F.LocalBytes;
  Fr.FrameConsts.resize(F.FrameOffsets.size() * 32);
  for (size_t I = 0; I < F.FrameOffsets.size(); ++I)
    std::fill_n(Fr.FrameConsts.begin() + long(I * 32), 32,
                Fr.LocalBase + F.FrameOffsets[I]);
  Fr.FrameKnown.assign(F.FrameOffsets.size() + 1, ~0u);
  Fr.Params.resize(size_t(F.ParamBytes) * 32);
  Fr.ParamKnown.assign(size_t(F.ParamBytes) * 32, 0);
  Fr.CallMask = Mask;
  Fr.CallIndex = -1;
  Fr.Taint = 0;
  Fr.Carry = 0;
  Fr.RM.assign(F.NumRegs, 0);
  Fr.Ranged = false;
  Fr.Forks.clear();
  Fr.Stack.clear();
  Fr.Stack.push_back({0, Mask, uint32_t(F.Code.size()), 0});
}

void Launch::bindCtx(Ctx &C, Warp &W) {
  Frame &Fr = W.Frames.back();
  const XFunction &F = *Fr.Fn;
  C.F[FReg] = Fr.R.data();
  C.KF[FReg] = Fr.K.data();
  C.F[FConst] = const_cast<uint64_t *>(F.Consts.data());
  C.KF[FConst] = const_cast<uint32_t *>(F.ConstKnown.data());
  C.F[FSpecial] = W.Specials.data();
  C.KF[FSpecial] = W.SpecialKnown.data();
  C.F[FLaunch] = LaunchConsts.data();
  C.KF[FLaunch] = LaunchKnown.data();
  C.F[FFrame] = Fr.FrameConsts.data();
  C.KF[FFrame] = Fr.FrameKnown.data();
  // A predicate register read or written as a value (PTX that ptxas would
  // refuse) lands in scratch lanes instead of beyond the files.
  if (PredScratch.size() < size_t(F.NumPreds + 1) * 32) {
    PredScratch.resize(size_t(F.NumPreds + 1) * 32);
    PredScratchKnown.resize(size_t(F.NumPreds + 1) * 32);
  }
  C.F[FPred] = PredScratch.data();
  C.KF[FPred] = PredScratchKnown.data();
  C.P = Fr.P.data();
  C.PK = Fr.PK.data();
  C.RM = Fr.Ranged ? Fr.RM.data() : nullptr;
  C.W = &W;
  C.Fr = &Fr;
  C.B = W.B;
  C.L = this;
}

void Launch::call(Ctx &C, const XInstr &I, const CallInfo &CI) {
  Warp &W = *C.W;
  const XFunction *Callee = CI.Callee;
  if (!Callee) {
    // An indirect call: the address names the function per lane.
    const uint64_t *T = C.lanes(CI.Target);
    const unsigned First = unsigned(ctz(C.Active));
    uint32_t Same = 0;
    for (unsigned L = 0; L < 32; ++L)
      if ((C.Active >> L & 1) && T[L] == T[First])
        Same |= 1u << L;
    if (const uint32_t Rest = C.Active & ~Same) {
      // Lanes that call different functions (a virtual call on objects of
      // several classes) call them in turn, as a GPU does: the first
      // function's lanes now, the rest at this call again once they are
      // back, and all go on together after it.
      const StackEntry &E = C.Fr->Stack.back(); // Its PC is after the call.
      const uint32_t After = E.PC, Taint = E.Taint, Fork = E.Fork;
      C.Fr->Stack.push_back({After - 1, Rest, After, Taint, Fork});
      C.Active = Same;
    }
    Callee = Prog.functionAt(T[First]);
    if (!Callee)
      return fail(I, "an indirect call through an address that is no "
                     "function");
  }
  const uint32_t Caller = uint32_t(W.Frames.size() - 1);
  const int32_t Index = I.Extra;
  pushFrame(W, *Callee, C.Active);
  Frame &From = W.Frames[Caller], &To = W.Frames.back();
  To.CallIndex = Index;
  To.Taint = C.Taint;
  To.Stack.back().Taint = C.Taint;
  // Arguments: the caller's .param variables into the callee's parameters,
  // lane by lane.
  const unsigned FromBytes = From.Fn->ParamBytes, ToBytes = Callee->ParamBytes;
  for (size_t A = 0; A < CI.Args.size() && A < Callee->ParamSlots.size();
       ++A) {
    const auto [FromOff, Bytes] = CI.Args[A];
    const auto [ToOff, ToSize] = Callee->ParamSlots[A];
    const unsigned N = std::min(Bytes, ToSize);
    if (!N || FromOff + N > FromBytes || ToOff + N > ToBytes)
      continue; // Not the caller's variable (malformed PTX): unknown.
    for (unsigned L = 0; L < 32; ++L) {
      if (!(C.Active >> L & 1))
        continue;
      std::memcpy(&To.Params[size_t(L) * ToBytes + ToOff],
                  &From.Params[size_t(L) * FromBytes + FromOff], N);
      std::memcpy(&To.ParamKnown[size_t(L) * ToBytes + ToOff],
                  &From.ParamKnown[size_t(L) * FromBytes + FromOff], N);
    }
  }
}

void Launch::returnFromFrame(Warp &W) {
  Frame &Callee = W.Frames.back();
  Frame &Caller = W.Frames[W.Frames.size() - 2];
  const uint32_t Lanes = Callee.CallMask & W.Live;
  if (Callee.CallIndex >= 0) {
    const CallInfo &CI = Caller.Fn->Calls[size_t(Callee.CallIndex)];
    const unsigned FromBytes = Callee.Fn->ParamBytes,
                   ToBytes = Caller.Fn->ParamBytes;
    for (size_t R = 0; R < CI.Rets.size() && R < Callee.Fn->ReturnSlots.size();
         ++R) {
      const auto [ToOff, Bytes] = CI.Rets[R];
      const auto [FromOff, Size] = Callee.Fn->ReturnSlots[R];
      const unsigned N = std::min(Bytes, Size);
      if (!N || FromOff + N > FromBytes || ToOff + N > ToBytes)
        continue;
      for (unsigned L = 0; L < 32; ++L) {
        if (!(Lanes >> L & 1))
          continue;
        std::memcpy(&Caller.Params[size_t(L) * ToBytes + ToOff],
                    &Callee.Params[size_t(L) * FromBytes + FromOff], N);
        std::memcpy(&Caller.ParamKnown[size_t(L) * ToBytes + ToOff],
                    &Callee.ParamKnown[size_t(L) * FromBytes + FromOff], N);
      }
    }
  }
  W.LocalTop = Callee.LocalBase;
  W.Frames.pop_back();
}

void Launch::runWarp(Block &B, Warp &W, uint64_t Slice) {
  Ctx C;
  Frame *Bound = nullptr;
  while (!Stop) {
    Frame &Fr = W.Frames.back();
    if (Fr.Stack.empty()) {
      if (W.Frames.size() == 1) {
        W.State = WarpState::Done;
        return;
      }
      returnFromFrame(W);
      Bound = nullptr;
      continue;
    }
    if (Bound != &Fr) {
      bindCtx(C, W);
      Bound = &Fr;
    }
    StackEntry &E = Fr.Stack.back();
    const XFunction &F = *Fr.Fn;
    if (E.Join >= 0) {
      forkStep(W, Fr);
      Bound = nullptr; // The join may have made the frame's first range.
      continue;
    }
    if (!(E.Mask & W.Live) || E.PC == E.Reconv || E.PC >= F.Code.size()) {
      Fr.Stack.pop_back();
      continue;
    }
    const XInstr &I = F.Code[E.PC];
    uint32_t A = E.Mask & W.Live;
    C.Taint = E.Taint;
    C.RegTaint = E.Taint & ~E.Fork;
    const uint32_t OuterRegTaint = C.RegTaint;
    uint32_t Unsure = 0, Ran = 0;
    if (I.Guard >= 0 && !I.GuardInHandler) {
      const uint32_t P = C.P[I.Guard];
      // Lanes whose guard is unknown may or may not run it: they run it,
      // and what they write is uncertain (runGuardUnknown).
      Unsure = A & ~C.PK[I.Guard];
      C.Taint |= Unsure;
      C.RegTaint |= Unsure;
      if (!((I.GuardNot ? ~P : P) & A) && I.Access >= 0 && Sink &&
          !(C.Taint & A))
        Sink->predicatedOff(&F, &E.PC, 1);
      Ran = A & (I.GuardNot ? ~P : P);
      A = Ran | Unsure;
    }
    C.Active = A;
    // Issued: every instruction reached (Out.Issued adds those not run to
    // WarpInstructions when the launch ends).
    Out.IssuedInLoops += I.InLoop;
    ++E.PC;
    if (!A && !I.GuardInHandler)
      ++Out.Issued;
    if (A || I.GuardInHandler) {
      if (I.IfConverted) {
        const size_t Depth = Fr.Stack.size();
        I.Fn(C, I);
        // The whole warp branched over a body ptxas predicates: issued all
        // the same.
        if (Fr.Stack.size() == Depth && Fr.Stack.back().PC == I.Target) {
          Out.Issued += I.IfConverted;
          Out.IssuedInLoops += I.InLoop * uint64_t(I.IfConverted);
        }
      } else if (Unsure) {
        runGuardUnknown(C, I, Unsure, Ran, OuterRegTaint);
      } else {
        I.Fn(C, I);
      }
      ++W.Executed;
      ++Out.WarpInstructions;
      Out.ThreadInstructions += unsigned(popc(A));
    }
    if (C.Yield) {
      C.Yield = false;
      return;
    }
    if (Budget && Out.WarpInstructions >= Budget) {
      Stop = true;
      Out.Error = "stopped after " + std::to_string(Budget) +
                  " warp instructions (the execution budget), in block " +
                  std::to_string(B.Linear) + " at " + where(I, F);
      return;
    }
    if (!(Out.WarpInstructions & 0xffff) &&
        Config.Deadline.time_since_epoch().count() &&
        std::chrono::steady_clock::now() >= Config.Deadline) {
      Stop = true;
      Out.Error = "stopped after " + std::to_string(Out.WarpInstructions) +
                  " warp instructions: the execution budget (time) was "
                  "spent, in block " +
                  std::to_string(B.Linear) + " at " + where(I, F);
      return;
    }
    if (Slice && !--Slice)
      return;
  }
}

bool Launch::releaseBarriers(Block &B) {
  bool Released = false;
  for (unsigned Id = 0; Id < 16; ++Id) {
    unsigned Waiting = 0;
    for (const Warp &W : B.Warps)
      if (W.State == WarpState::AtBarrier && W.BarrierId == Id)
        Waiting += unsigned(popc(W.BarrierMask & W.Live));
    BarrierState &S = B.Barriers[Id];
    const bool Counted = S.Expected != 0;
    const unsigned Arrived = Counted ? S.Arrived : Waiting;
    if (!Waiting && !Counted)
      continue;
    const unsigned Need = Counted ? S.Expected : B.LiveThreads;
    if (Arrived < Need)
      continue;
    // bar.red: every arrived thread's predicate, reduced.
    unsigned Count = 0, Arrivals = 0;
    for (const Warp &W : B.Warps)
      if (W.State == WarpState::AtBarrier && W.BarrierId == Id && W.RedOp) {
        Count += unsigned(popc(W.RedBits));
        Arrivals += unsigned(popc(W.BarrierMask));
      }
    for (Warp &W : B.Warps) {
      if (W.State != WarpState::AtBarrier || W.BarrierId != Id)
        continue;
      W.State = WarpState::Ready;
      if (!W.RedOp)
        continue;
      Frame &F = W.Frames.back();
      const uint32_t M = W.BarrierMask;
      if (fileOf(W.RedDst) == FPred) {
        const bool V = W.RedOp == 2 ? Count == Arrivals : Count != 0;
        const uint32_t Sl = slotOf(W.RedDst);
        F.P[Sl] = (F.P[Sl] & ~M) | (V ? M : 0);
        F.PK[Sl] |= M;
      } else {
        uint64_t *D = F.R.data() + size_t(slotOf(W.RedDst)) * 32;
        for (unsigned L = 0; L < 32; ++L)
          if (M >> L & 1)
            D[L] = W.RedOp == 1 ? Count
                   : W.RedOp == 2 ? (Count == Arrivals)
                                  : (Count != 0);
        F.K[slotOf(W.RedDst)] |= M;
        F.RM[slotOf(W.RedDst)] &= ~M;
      }
      W.RedOp = 0;
    }
    S = {};
    Released = true;
    for (uint32_t Word : B.UnknownReadWords)
      B.UnknownReader[Word] = 0;
    B.UnknownReadWords.clear();
  }
  return Released;
}

void Launch::runBlock(Block &B) {
  // The warps take turns of a few hundred instructions, as an SM
  // interleaves them: they walk through memory together (the host's caches
  // see the locality the GPU's do), and a warp waiting on another's flag
  // lets it run.
  const uint64_t Slice = B.Warps.size() > 1 ? 512 : 0;
  while (!Stop) {
    bool Ran = false, AllDone = true;
    for (Warp &W : B.Warps) {
      if (W.State == WarpState::Ready) {
        runWarp(B, W, Slice);
        Ran = true;
      }
      AllDone &= W.State == WarpState::Done;
    }
    if (AllDone || Stop)
      return;
    if (releaseBarriers(B) || Ran)
      continue;
    Out.Error = "block " + std::to_string(B.Linear) +
                " cannot go on: its warps wait at barriers that the others "
                "never reach";
    Stop = true;
  }
}

void Launch::runCooperative(uint64_t First, uint64_t Count) {
  // Every block resident: turn between them with slices of instructions,
  // so that blocks spinning on a grid barrier let the others arrive.
  std::vector<Block> Blocks(Count);
  for (uint64_t I = 0; I < Count; ++I)
    initBlock(Blocks[I], First + I);
  const uint64_t Slice = 256;
  while (!Stop) {
    bool AllDone = true, Any = false;
    for (Block &B : Blocks) {
      bool Ran = false, Done = true;
      for (Warp &W : B.Warps) {
        if (W.State == WarpState::Ready) {
          runWarp(B, W, Slice);
          Ran = true;
        }
        Done &= W.State == WarpState::Done;
      }
      if (!Done && releaseBarriers(B))
        Ran = true;
      AllDone &= Done;
      Any |= Ran;
      if (Stop)
        return;
    }
    if (AllDone)
      return;
    if (!Any) {
      Out.Error = "the cooperative launch cannot go on: every block waits "
                  "at a barrier";
      Stop = true;
    }
  }
}

Outcome Launch::run() {
  const uint64_t Total =
      uint64_t(Config.Grid[0]) * Config.Grid[1] * Config.Grid[2];
  const uint64_t First = std::min(Config.FirstBlock, Total);
  const uint64_t Count = std::min(Config.BlockCount, Total - First);
  if (!Kernel.DecodeError.empty() && Kernel.Code.empty()) {
    Out.Error = Kernel.DecodeError;
    return Out;
  }
  if (Config.Cooperative) {
    // The grid barrier's word, which the driver provides.
    GridWorkspace.assign(64, 0);
    const uint64_t A = (Mem.NextFree + 255) / 256 * 256;
    Mem.NextFree = A + 256;
    Mem.addOwned(A, 64, "grid barrier", true);
    GridBarrier = A;
    runCooperative(First, Count);
  } else {
    Block B;
    for (uint64_t I = 0; I < Count && !Stop; ++I) {
      initBlock(B, First + I);
      runBlock(B);
    }
  }
  // Threads whose assert failed left it, and the others ran on, as on a
  // GPU; the launch still ends with the error (executeLaunch words it).
  Out.Finished = !Stop && Out.Fault == DeviceFault::None;
  Out.Issued += Out.WarpInstructions;
  return std::move(Out);
}

} // namespace gmem::exec
