//===- fork_join.cpp - Both sides of a branch on an unknown value ---------===//
//
// A lane whose branch guard is unknown (a comparison of bytes nothing
// wrote: Thrust's set operations compare keys past their tile's end) would
// take one side on a GPU, and gmem cannot tell which. Where the sides are
// short, acyclic code that nothing outside the warp sees (cfg.cpp,
// computeForks), the lane runs both: first the side its executed value
// chose, then, from the state before the branch, the other. Where they
// meet, each register the sides write is known if both left it the same
// known value, else unknown, within the range of both where that is short
// (ranges.h). Memory they write and the requests they make stay uncertain,
// as under any branch on an unknown value; the second side's instructions
// are not counted (a GPU runs one side).
//
//===----------------------------------------------------------------------===//
#include "launch.h"
#include "ranges.h"

namespace gmem::exec {

namespace {

void save(const Frame &Fr, const XFunction::ForkRegion &G, uint32_t Lanes,
          RegionState &S) {
  S.R.resize(G.Regs.size() * 32);
  S.Lo.resize(G.Regs.size() * 32);
  S.N.resize(G.Regs.size() * 32);
  S.K.resize(G.Regs.size());
  S.RM.resize(G.Regs.size());
  for (size_t I = 0; I < G.Regs.size(); ++I) {
    const size_t From = size_t(G.Regs[I]) * 32;
    std::copy_n(Fr.R.begin() + long(From), 32, S.R.begin() + long(I * 32));
    if (!Fr.RLo.empty()) {
      std::copy_n(Fr.RLo.begin() + long(From), 32, S.Lo.begin() + long(I * 32));
      std::copy_n(Fr.RN.begin() + long(From), 32, S.N.begin() + long(I * 32));
    }
    S.K[I] = Fr.K[G.Regs[I]] & Lanes;
    S.RM[I] = Fr.RM[G.Regs[I]] & Lanes;
  }
  S.P.resize(G.Preds.size());
  S.PK.resize(G.Preds.size());
  for (size_t I = 0; I < G.Preds.size(); ++I) {
    S.P[I] = Fr.P[G.Preds[I]] & Lanes;
    S.PK[I] = Fr.PK[G.Preds[I]] & Lanes;
  }
  S.Carry = Fr.Carry & Lanes;
}

void restore(Frame &Fr, const XFunction::ForkRegion &G, uint32_t Lanes,
             const RegionState &S) {
  for (size_t I = 0; I < G.Regs.size(); ++I) {
    const uint32_t Slot = G.Regs[I];
    const size_t To = size_t(Slot) * 32;
    forLanes(Lanes, [&](unsigned L) {
      Fr.R[To + L] = S.R[I * 32 + L];
      if (!Fr.RLo.empty()) {
        Fr.RLo[To + L] = S.Lo[I * 32 + L];
        Fr.RN[To + L] = S.N[I * 32 + L];
      }
    });
    Fr.K[Slot] = (Fr.K[Slot] & ~Lanes) | S.K[I];
    Fr.RM[Slot] = (Fr.RM[Slot] & ~Lanes) | S.RM[I];
  }
  for (size_t I = 0; I < G.Preds.size(); ++I) {
    const uint32_t Slot = G.Preds[I];
    Fr.P[Slot] = (Fr.P[Slot] & ~Lanes) | S.P[I];
    Fr.PK[Slot] = (Fr.PK[Slot] & ~Lanes) | S.PK[I];
  }
  Fr.Carry = (Fr.Carry & ~Lanes) | S.Carry;
}

/// The lanes' registers after the first sides (First) and after the
/// second (the frame's): each keeps the first side's value, known where
/// both sides left it the same known value, else within both ranges.
void join(Frame &Fr, const XFunction::ForkRegion &G, uint32_t Lanes,
          const RegionState &First) {
  for (size_t I = 0; I < G.Regs.size(); ++I) {
    const uint32_t Slot = G.Regs[I];
    const size_t At = size_t(Slot) * 32;
    uint32_t Known = 0;
    std::vector<std::pair<unsigned, Span>> Ranges;
    forLanes(Lanes, [&](unsigned L) {
      auto SpanIn = [&](uint64_t V, bool K, bool R, uint64_t Lo,
                        unsigned N) -> Span {
        if (K)
          return {V, 0, true};
        if (R)
          return {Lo, N, true};
        return {};
      };
      const bool K1 = First.K[I] >> L & 1, K2 = Fr.K[Slot] >> L & 1;
      const uint64_t V1 = First.R[I * 32 + L], V2 = Fr.R[At + L];
      const bool HasLo = !Fr.RLo.empty();
      const Span A =
          SpanIn(V1, K1, First.RM[I] >> L & 1, HasLo ? First.Lo[I * 32 + L] : 0,
                 HasLo ? First.N[I * 32 + L] : 0);
      const Span B =
          SpanIn(V2, K2, Fr.RM[Slot] >> L & 1, HasLo ? Fr.RLo[At + L] : 0,
                 HasLo ? Fr.RN[At + L] : 0);
      bool Same;
      const Span H = meet(V1, K1, A, V2, K2, B, Same);
      if (Same)
        Known |= 1u << L;
      else if (H.Bounded)
        Ranges.push_back({L, H});
      Fr.R[At + L] = V1;
    });
    Fr.K[Slot] = (Fr.K[Slot] & ~Lanes) | Known;
    Fr.RM[Slot] &= ~Lanes;
    for (const auto &[L, H] : Ranges)
      setRange(Fr, Slot, L, H.Lo, H.N);
  }
  for (size_t I = 0; I < G.Preds.size(); ++I) {
    const uint32_t Slot = G.Preds[I];
    Fr.PK[Slot] =
        (Fr.PK[Slot] & ~Lanes) |
        (alike(First.P[I], First.PK[I], Fr.P[Slot], Fr.PK[Slot]) & Lanes);
    Fr.P[Slot] = (Fr.P[Slot] & ~Lanes) | First.P[I];
  }
  Fr.Carry = (Fr.Carry & ~Lanes) | First.Carry;
}

} // namespace

void runGuardUnknown(Ctx &C, const XInstr &I, uint32_t Lanes, uint32_t Ran,
                     uint32_t Outer) {
  const Opnd D = I.D[0];
  const FileId F = fileOf(D);
  // Memory operations and instructions of several results: what they write
  // on those lanes is unknown (Ctx::RegTaint), memory uncertain.
  if (I.ND != 1 || I.Mem != MemOp::None || I.Extra >= 0 ||
      (F != FReg && F != FPred))
    return I.Fn(C, I);
  const uint32_t Join = Lanes & ~Outer;
  if (F == FPred) {
    const uint32_t S = slotOf(D), OldP = C.P[S], OldK = C.PK[S];
    C.RegTaint = Outer;
    I.Fn(C, I);
    C.RegTaint = Outer | Lanes;
    const uint32_t NewP = C.P[S], NewK = C.PK[S];
    // A lane keeps the value its executed guard chose.
    const uint32_t Keep = Join & ~Ran;
    C.P[S] = (NewP & ~Keep) | (OldP & Keep);
    C.PK[S] = (NewK & ~Join) | (alike(OldP, OldK, NewP, NewK) & Join);
    return;
  }
  const uint32_t S = slotOf(D);
  uint64_t *V = C.lanes(D);
  const uint32_t OldK = C.known(D);
  uint64_t Old[32];
  Span OldSpan[32];
  forLanes(Join, [&](unsigned L) {
    Old[L] = V[L];
    OldSpan[L] = spanOf(C, D, L);
  });
  C.RegTaint = Outer;
  I.Fn(C, I);
  C.RegTaint = Outer | Lanes;
  uint32_t &K = C.KF[F][S];
  const uint32_t NewK = K;
  forLanes(Join, [&](unsigned L) {
    bool Same;
    const Span H = meet(Old[L], OldK >> L & 1, OldSpan[L], V[L], NewK >> L & 1,
                        spanOf(C, D, L), Same);
    if (!(Ran >> L & 1))
      V[L] = Old[L];
    if (Same)
      return;
    K &= ~(1u << L);
    if (C.RM)
      C.RM[S] &= ~(1u << L);
    if (H.Bounded)
      setRange(C, S, L, H.Lo, H.N);
  });
}

void Launch::fork(Ctx &C, const XInstr &I, uint32_t Lanes, uint32_t Taken) {
  Frame &Fr = *C.Fr;
  StackEntry &E = Fr.Stack.back();
  const uint32_t Mask = C.Active;
  const uint32_t Fall = E.PC, Taint = E.Taint | Lanes, Fork = E.Fork | Lanes;
  const uint32_t OuterTaint = E.Taint, OuterFork = E.Fork;
  const int32_t Join = int32_t(Fr.Forks.size());
  Fr.Forks.emplace_back();
  ForkState &S = Fr.Forks.back();
  S.Branch = uint32_t(&I - Fr.Fn->Code.data());
  S.Region = uint32_t(I.Fork);
  S.Lanes = Lanes;
  S.Taken = Taken & Lanes;
  save(Fr, Fr.Fn->ForkRegions[S.Region], Lanes, S.Before);
  E.PC = I.Reconv;
  // Popped last: the meeting point, where the second sides begin.
  Fr.Stack.push_back({I.Reconv, Lanes, I.Reconv, OuterTaint, OuterFork, Join});
  const uint32_t TakenAll = Mask & Taken, NotAll = Mask & ~Taken;
  if (NotAll)
    Fr.Stack.push_back({Fall, NotAll, I.Reconv, Taint, Fork});
  if (TakenAll)
    Fr.Stack.push_back({I.Target, TakenAll, I.Reconv, Taint, Fork});
}

void Launch::forkStep(Warp &W, Frame &Fr) {
  const StackEntry M = Fr.Stack.back();
  ForkState &S = Fr.Forks[size_t(M.Join)];
  const XFunction::ForkRegion &G = Fr.Fn->ForkRegions[S.Region];
  const uint32_t Lanes = S.Lanes & W.Live;
  uint64_t *Counts[5] = {&Out.WarpInstructions, &Out.ThreadInstructions,
                         &Out.Issued, &Out.IssuedInLoops, &W.Executed};
  if (!S.Second) {
    S.Second = true;
    save(Fr, G, Lanes, S.After);
    restore(Fr, G, Lanes, S.Before);
    for (int K = 0; K < 5; ++K)
      S.Counts[K] = *Counts[K];
    const XInstr &B = Fr.Fn->Code[S.Branch];
    const uint32_t Taint = M.Taint | Lanes, Fork = M.Fork | Lanes;
    // Each lane runs the side its value did not choose.
    if (const uint32_t ToFall = Lanes & S.Taken)
      Fr.Stack.push_back({S.Branch + 1, ToFall, B.Reconv, Taint, Fork});
    if (const uint32_t ToTarget = Lanes & ~S.Taken)
      Fr.Stack.push_back({B.Target, ToTarget, B.Reconv, Taint, Fork});
    return;
  }
  join(Fr, G, Lanes, S.After);
  for (int K = 0; K < 5; ++K)
    *Counts[K] = S.Counts[K];
  Fr.Stack.pop_back();
  Fr.Forks.pop_back();
}

} // namespace gmem::exec
