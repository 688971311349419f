//===- cfg.cpp - Where divergent paths meet again -------------------------===//
//
// A divergent branch's lanes reconverge at the immediate post-dominator of
// its block: the first point every path from the branch passes through
// (Cooper, Harvey and Kennedy's iterative algorithm on the reversed flow
// graph). Paths that never reach the function's end (an endless loop) have
// none: they meet at the end. A branch to a block that only returns is not
// waited for, as ptxas makes it an EXIT of the lanes that take it: in
// `if ((a && b) || (c && d)) swap();` the lanes reaching the swap by either
// side of the || run it together (HeCBench's bitonic-sort, measured: one
// store request per warp, not two).
//
//===----------------------------------------------------------------------===//
#include "program.h"

#include <algorithm>

namespace gmem::exec {

namespace {

bool unconditional(const XInstr &I) { return I.Guard < 0; }

constexpr uint32_t NoJoin = ~uint32_t(0);

/// Whether X's instructions [From, To) are plain code, what ptxas predicates
/// rather than branches around: no barrier, no call, and no control but
/// guarded branches forward to JoinsAt (the second test of `a && b`), when
/// that is not NoJoin.
bool plainCode(const XFunction &X, uint32_t From, uint32_t To,
               uint32_t JoinsAt = NoJoin) {
  for (uint32_t J = From; J < To; ++J) {
    const XInstr &B = X.Code[J];
    if (B.Src &&
        (B.Src->Op == "bar" || B.Src->Op == "barrier" || B.Src->Op == "call"))
      return false;
    if (B.Ctl != XInstr::None &&
        (JoinsAt == NoJoin || B.Ctl != XInstr::Branch || B.Guard < 0 ||
         B.Target != JoinsAt || J >= JoinsAt))
      return false;
  }
  return true;
}

} // namespace

void computeReconvergence(XFunction &X) {
  const uint32_t N = uint32_t(X.Code.size());
  if (!N)
    return;
  // Block leaders: the first instruction, targets, what follows control.
  std::vector<char> Leader(N + 1, 0);
  Leader[0] = 1;
  auto Targets = [&](const XInstr &I) {
    std::vector<uint32_t> T;
    if (I.Ctl == XInstr::Branch)
      T.push_back(I.Target);
    else if (I.Ctl == XInstr::MultiBranch)
      for (Opnd O : X.Extras[size_t(I.Extra)])
        T.push_back(O);
    return T;
  };
  for (uint32_t I = 0; I < N; ++I) {
    const XInstr &In = X.Code[I];
    if (In.Ctl == XInstr::None)
      continue;
    Leader[I + 1] = 1;
    for (uint32_t T : Targets(In))
      if (T <= N)
        Leader[T] = 1;
  }
  std::vector<uint32_t> Start, BlockOf(N + 1, 0);
  for (uint32_t I = 0; I < N; ++I) {
    if (Leader[I])
      Start.push_back(I);
    BlockOf[I] = uint32_t(Start.size() - 1);
  }
  X.BlockOf.assign(BlockOf.begin(), BlockOf.begin() + N);
  X.InLoop.assign(N, 0);
  for (uint32_t I = 0; I < N; ++I) {
    const XInstr &In = X.Code[I];
    if (In.Ctl == XInstr::Branch && In.Target <= I)
      std::fill(X.InLoop.begin() + In.Target, X.InLoop.begin() + I + 1, 1);
  }
  // A loop whose back edge or exit tests an atom's result runs as often as
  // the warps' atomics race, one that tests the clock or a poll as long as
  // the other warps take: every access in it is marked.
  auto MarkLoops = [&](const std::vector<uint32_t> &Branches,
                       std::vector<char> &Marked) {
    Marked.assign(X.Accesses.size(), 0);
    for (uint32_t J = 0; J < N; ++J) {
      const XInstr &Back = X.Code[J];
      if (Back.Ctl != XInstr::Branch || Back.Target > J)
        continue;
      const uint32_t T = Back.Target;
      const bool Decided =
          std::any_of(Branches.begin(), Branches.end(), [&](uint32_t B) {
            return B == J || (B >= T && B < J &&
                              (X.Code[B].Target < T || X.Code[B].Target > J));
          });
      for (size_t A = 0; Decided && A < X.Accesses.size(); ++A)
        Marked[A] |= X.Accesses[A] >= T && X.Accesses[A] <= J;
    }
  };
  MarkLoops(X.AtomicBranches, X.AccessRetried);
  MarkLoops(X.WaitBranches, X.AccessWaiting);
  for (uint32_t I = 0; I < N; ++I) {
    X.Code[I].InLoop = uint8_t(X.InLoop[I] != 0);
    X.HasPolls |= X.Code[I].InLoop && X.Code[I].Ordered &&
                  X.Code[I].Space != MemSpace::Shared;
  }
  for (uint32_t I = 0; I < N; ++I) {
    XInstr &In = X.Code[I];
    if (In.Ctl != XInstr::Branch || In.Guard < 0 || In.Target <= I + 1 ||
        In.Target - I - 1 > 16 || In.Target > N)
      continue;
    if (plainCode(X, I + 1, In.Target))
      In.IfConverted = uint8_t(In.Target - I - 1);
  }
  // Diamonds: both sides of a guarded branch short plain code (no memory,
  // no guard) ending in guarded branches to the same two places.
  auto Hop = [&](uint32_t Pc) {
    return Pc < N && X.Code[Pc].Ctl == XInstr::Branch && X.Code[Pc].Guard < 0
               ? X.Code[Pc].Target
               : Pc;
  };
  auto Side = [&](uint32_t Pc, XFunction::DiamondSides &D, unsigned K) {
    Pc = Hop(Pc);
    uint32_t C = Pc;
    while (C < N && C - Pc <= 16 && X.Code[C].Guard < 0 &&
           X.Code[C].Access < 0 && X.Code[C].Mem == MemOp::None &&
           plainCode(X, C, C + 1))
      ++C;
    if (C >= N || C - Pc > 16 || X.Code[C].Ctl != XInstr::Branch ||
        X.Code[C].Guard < 0)
      return false;
    D.Body[K] = Pc;
    D.Branch[K] = C;
    D.To[K] = X.Code[C].Target;
    D.Else[K] = Hop(C + 1);
    return D.To[K] != D.Else[K];
  };
  for (uint32_t I = 0; I < N; ++I) {
    XInstr &In = X.Code[I];
    if (In.Ctl != XInstr::Branch || In.Guard < 0 || In.Target >= N)
      continue;
    XFunction::DiamondSides D;
    if (Side(In.Target, D, 0) && Side(I + 1, D, 1) &&
        D.Branch[0] != D.Branch[1] &&
        std::minmax(D.To[0], D.Else[0]) == std::minmax(D.To[1], D.Else[1])) {
      In.Diamond = int32_t(X.Diamonds.size());
      X.Diamonds.push_back(D);
    }
  }
  // Short-circuit joins: a guarded branch forward to J over at most 16
  // instructions without barriers, calls, atomics or guards that end in a
  // guarded forward branch, whose lanes go to J either way it goes (by its
  // target, or by falling into J or onto an unconditional jump to J).
  for (uint32_t I = 0; I < N; ++I) {
    XInstr &In = X.Code[I];
    if (In.Ctl != XInstr::Branch || In.Guard < 0 || In.Target <= I + 1 ||
        In.Target >= N || In.Diamond >= 0)
      continue;
    const uint32_t J = In.Target;
    uint32_t B = I + 1;
    while (B < N && B - I <= 16 && X.Code[B].Ctl == XInstr::None &&
           X.Code[B].Guard < 0 && X.Code[B].Mem != MemOp::Atomic &&
           X.Code[B].Mem != MemOp::Reduction && plainCode(X, B, B + 1))
      ++B;
    if (B >= N || B - I > 16 || B == I + 1)
      continue;
    const XInstr &Br = X.Code[B];
    if (Br.Ctl != XInstr::Branch || Br.Guard < 0 || Br.Target <= B ||
        Br.Target > N)
      continue;
    const uint32_t Fall = Hop(B + 1);
    XFunction::ShortJoinSides SJ{I + 1, B, J, 0};
    if (Br.Target == J && Fall != J)
      SJ.Other = Fall;
    else if (Br.Target != J && Fall == J)
      SJ.Other = Br.Target;
    else
      continue;
    In.ShortJoin = int32_t(X.ShortJoins.size());
    X.ShortJoins.push_back(SJ);
  }
  const uint32_t NB = uint32_t(Start.size()), Exit = NB;
  BlockOf[N] = Exit;
  std::vector<std::vector<uint32_t>> Succ(NB), Pred(NB + 1);
  for (uint32_t B = 0; B < NB; ++B) {
    const uint32_t End = B + 1 < NB ? Start[B + 1] : N;
    const XInstr &Last = X.Code[End - 1];
    std::vector<uint32_t> &S = Succ[B];
    if (Last.Ctl == XInstr::Leave) {
      S.push_back(Exit);
      if (!unconditional(Last))
        S.push_back(BlockOf[End]);
    } else if (Last.Ctl == XInstr::Branch || Last.Ctl == XInstr::MultiBranch) {
      for (uint32_t T : Targets(Last))
        S.push_back(T <= N ? BlockOf[T] : Exit);
      if (!unconditional(Last) && Last.Ctl == XInstr::Branch)
        S.push_back(BlockOf[End]);
    } else {
      S.push_back(BlockOf[End]);
    }
    std::sort(S.begin(), S.end());
    S.erase(std::unique(S.begin(), S.end()), S.end());
  }
  // Blocks of one unconditional ret or exit; edges into them are dropped
  // where their block has another way on.
  auto Returns = [&](uint32_t B) {
    if (B == Exit)
      return false;
    const uint32_t End = B + 1 < NB ? Start[B + 1] : N;
    const XInstr &Only = X.Code[Start[B]];
    return End - Start[B] == 1 && Only.Ctl == XInstr::Leave &&
           unconditional(Only) && Only.Src &&
           (Only.Src->Op == "ret" || Only.Src->Op == "exit");
  };
  // Unless that leaves no way to the end (a loop left only by returning:
  // its lanes must meet in the loop).
  std::vector<std::vector<uint32_t>> All = Succ;
  for (uint32_t B = 0; B < NB; ++B) {
    std::vector<uint32_t> &S = Succ[B];
    if (S.size() > 1 && !std::all_of(S.begin(), S.end(), Returns))
      S.erase(std::remove_if(S.begin(), S.end(), Returns), S.end());
  }
  for (bool Restored = true; Restored;) {
    Restored = false;
    std::vector<std::vector<uint32_t>> Into(NB + 1);
    for (uint32_t B = 0; B < NB; ++B)
      for (uint32_t T : Succ[B])
        Into[T].push_back(B);
    std::vector<char> Ends(NB + 1, 0);
    std::vector<uint32_t> Work = {Exit};
    Ends[Exit] = 1;
    while (!Work.empty()) {
      const uint32_t T = Work.back();
      Work.pop_back();
      for (uint32_t B : Into[T])
        if (!Ends[B]) {
          Ends[B] = 1;
          Work.push_back(B);
        }
    }
    for (uint32_t B = 0; B < NB; ++B)
      if (!Ends[B] && Succ[B].size() != All[B].size()) {
        Succ[B] = All[B];
        Restored = true;
      }
  }
  for (uint32_t B = 0; B < NB; ++B)
    for (uint32_t T : Succ[B])
      Pred[T].push_back(B);
  // Post-order of the reversed graph from the exit.
  std::vector<int> PO(NB + 1, -1);
  std::vector<uint32_t> Order;
  {
    std::vector<std::pair<uint32_t, size_t>> Stack = {{Exit, 0}};
    std::vector<char> Seen(NB + 1, 0);
    Seen[Exit] = 1;
    while (!Stack.empty()) {
      auto &[Node, Next] = Stack.back();
      if (Next < Pred[Node].size()) {
        const uint32_t P = Pred[Node][Next++];
        if (!Seen[P]) {
          Seen[P] = 1;
          Stack.push_back({P, 0});
        }
        continue;
      }
      PO[Node] = int(Order.size());
      Order.push_back(Node);
      Stack.pop_back();
    }
  }
  std::vector<int> IDom(NB + 1, -1);
  IDom[Exit] = int(Exit);
  auto Intersect = [&](int A, int B) {
    while (A != B) {
      while (PO[size_t(A)] < PO[size_t(B)])
        A = IDom[size_t(A)];
      while (PO[size_t(B)] < PO[size_t(A)])
        B = IDom[size_t(B)];
    }
    return A;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t I = Order.size(); I-- > 0;) {
      const uint32_t B = Order[I];
      if (B == Exit)
        continue;
      int New = -1;
      for (uint32_t S : Succ[B])
        if (IDom[S] >= 0)
          New = New < 0 ? int(S) : Intersect(int(S), New);
      if (New >= 0 && IDom[B] != New) {
        IDom[B] = New;
        Changed = true;
      }
    }
  }
  for (uint32_t B = 0; B < NB; ++B) {
    const uint32_t End = B + 1 < NB ? Start[B + 1] : N;
    XInstr &Last = X.Code[End - 1];
    if (Last.Ctl == XInstr::None)
      continue;
    const int D = IDom[B];
    Last.Reconv = D < 0 || uint32_t(D) == Exit ? N : Start[size_t(D)];
    if (Last.Ctl == XInstr::Branch && Last.Target <= N)
      Last.SideReturns =
          (Last.Reconv == End && Returns(BlockOf[Last.Target])) ||
          (Last.Reconv == Last.Target && Returns(BlockOf[End]));
  }
  computeSkips(X);
  computeForks(X);
}

void computeSkips(XFunction &X) {
  const uint32_t N = uint32_t(X.Code.size());
  X.Skipped.clear();
  auto List = [&](uint32_t From, uint32_t To) -> int32_t {
    std::vector<uint32_t> Mem;
    for (uint32_t J = From; J < To; ++J)
      if (X.Code[J].Access >= 0)
        Mem.push_back(J);
    if (Mem.empty())
      return -1;
    X.Skipped.push_back(std::move(Mem));
    return int32_t(X.Skipped.size() - 1);
  };
  for (uint32_t I = 0; I < N; ++I) {
    XInstr &In = X.Code[I];
    if (In.Ctl != XInstr::Branch || In.Guard < 0 || In.Target <= I + 1 ||
        In.Target > N || In.Reconv < In.Target || In.Reconv > N)
      continue;
    const uint32_t T = In.Target, R = In.Reconv;
    const XInstr &Before = X.Code[T - 1];
    // if/else: the then side ends in `bra R`, the else side runs to R.
    const bool Else = T < R && Before.Ctl == XInstr::Branch &&
                      Before.Guard < 0 && Before.Target == R;
    if (T == R && plainCode(X, I + 1, T, R))
      In.SkipTaken = List(I + 1, T);
    if (Else && plainCode(X, I + 1, T - 1, R))
      In.SkipTaken = List(I + 1, T - 1);
    if (Else && plainCode(X, T, R, R))
      In.SkipNot = List(T, R);
  }
}

namespace {

/// Whether an instruction may run on both sides of a fork: it writes only
/// its destination registers and memory (which the fork leaves uncertain),
/// and nothing another warp, another lane or a later call sees.
bool forkable(const XInstr &I) {
  if (I.Ctl == XInstr::Leave || I.Ctl == XInstr::MultiBranch)
    return false;
  if (I.Ctl == XInstr::Branch)
    return true;
  if (!I.Src || I.Extra >= 0 || I.Mem == MemOp::Atomic ||
      I.Mem == MemOp::Reduction)
    return false;
  static const char *const Plain[] = {
      "mov",   "add",  "sub",      "mul",      "mad",       "mul24",
      "mad24", "sad",  "div",      "rem",      "abs",       "neg",
      "min",   "max",  "and",      "or",       "xor",       "not",
      "cnot",  "popc", "clz",      "brev",     "bfind",     "bfe",
      "bfi",   "shl",  "shr",      "shf",      "lop3",      "prmt",
      "setp",  "selp", "set",      "slct",     "cvt",       "cvta",
      "fma",   "rcp",  "sqrt",     "rsqrt",    "ex2",       "lg2",
      "sin",   "cos",  "tanh",     "copysign", "testp",     "dp4a",
      "dp2a",  "bmsk", "szext",    "addc",     "subc",      "madc",
      "ld",    "st",   "isspacep", "prefetch", "prefetchu", "membar",
      "fence"};
  const std::string &Op = I.Src->Op;
  if (std::none_of(std::begin(Plain), std::end(Plain),
                   [&](const char *P) { return Op == P; }))
    return false;
  // Asynchronous stores and a call's arguments are seen elsewhere.
  return !(Op == "st" && (I.Src->has("async") || I.Src->has("param")));
}

} // namespace

void computeForks(XFunction &X) {
  constexpr uint32_t MaxSides = 256; // Instructions between branch and join.
  const uint32_t N = uint32_t(X.Code.size());
  X.ForkRegions.clear();
  for (uint32_t I = 0; I < N; ++I) {
    XInstr &In = X.Code[I];
    In.Fork = -1;
    if (In.Ctl != XInstr::Branch || In.Guard < 0 || In.Target <= I ||
        In.Reconv <= I || In.Reconv > N || In.Target > In.Reconv ||
        In.Reconv - I > MaxSides)
      continue;
    // Every path from the branch stays in [I + 1, Reconv] going forward.
    bool Ok = true;
    XFunction::ForkRegion G;
    for (uint32_t J = I + 1; J < In.Reconv && Ok; ++J) {
      const XInstr &B = X.Code[J];
      Ok = forkable(B) &&
           (B.Ctl != XInstr::Branch || (B.Target > J && B.Target <= In.Reconv));
      for (unsigned K = 0; K < B.ND; ++K) {
        std::vector<uint32_t> &To = fileOf(B.D[K]) == FPred ? G.Preds : G.Regs;
        if (fileOf(B.D[K]) == FReg || fileOf(B.D[K]) == FPred)
          To.push_back(slotOf(B.D[K]));
      }
    }
    if (!Ok)
      continue;
    for (std::vector<uint32_t> *V : {&G.Regs, &G.Preds}) {
      std::sort(V->begin(), V->end());
      V->erase(std::unique(V->begin(), V->end()), V->end());
    }
    In.Fork = int32_t(X.ForkRegions.size());
    X.ForkRegions.push_back(std::move(G));
  }
}

} // namespace gmem::exec
