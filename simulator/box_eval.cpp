//===- box_eval.cpp - Run one warp index over a box of blocks at once -----===//
//
// The statement and expression walk mirrors warp_eval.cpp step by step (the
// same unknown lanes, reasons and loop limits); what differs is that every
// value also carries its per-lane coefficients in the box coordinates, and
// that every decision that could differ between blocks goes through decide().
//
//===----------------------------------------------------------------------===//
#include "box_eval.h"
#include "affine.h"
#include "int_semantics.h"
#include "loop_skip.h"
#include "memory_units.h"
#include "pointer_arith.h"
#include "stmt_walk.h"
#include "unknowns.h"

#include <algorithm>
#include <cstring>

namespace gmem {

namespace {

// Once the box's warp has run this many loop iterations per block (at
// least 16 blocks' worth), a loop of loop_skip.h's shape met from then on
// goes to the every-warp evaluator, which counts it by periods: long loops
// over a few blocks cost more here than some periods per warp there.
constexpr uint64_t LoopHandOver = uint64_t(1) << 8;

int bitLength(uint64_t V) { return V ? 64 - __builtin_clzll(V) : 0; }

} // namespace

struct BoxEvaluator::Val {
  int64_t V[32];
  bool Dep = false; ///< C holds coefficients; all zero when false.
  int64_t C[3][32];

  int64_t c(int D, unsigned L) const { return Dep ? C[D][L] : 0; }
  bool dep(unsigned L) const { return Dep && (C[0][L] | C[1][L] | C[2][L]); }
  void makeDep() {
    if (!Dep)
      std::memset(C, 0, sizeof C);
    Dep = true;
  }
  Affine aff(unsigned L, IntType T) const {
    Affine A;
    A.C0 = valueOf(V[L], T);
    for (int D = 0; D < 3; ++D)
      A.C[D] = c(D, L);
    return A;
  }
};

BoxEvaluator::BoxEvaluator(const Kernel &K, const ArchRules &A,
                           const LaunchEnv &Env)
    : Requests(A), K(K), Arch(A), Env(Env), Period(A.addressPeriod()),
      Groups(K.Accesses.size()) {
  Requests.listen(Totals);
  Requests.listen(Faults);
  SlotVals.assign(K.Slots.size() * 32, 0);
  SlotCoef.assign(K.Slots.size() * 96, 0);
  SlotDep.assign(K.Slots.size(), 0);
  SlotUnknown.assign(K.Slots.size(), 0);
  SlotReason.assign(K.Slots.size(), Why{});
  Seen.assign(K.Accesses.size(), {~uint64_t(0), {}});
}

uint64_t BoxEvaluator::orderOf(const Dim3 &B) const {
  uint64_t Lin = B.X + Env.Grid.X * (B.Y + Env.Grid.Y * B.Z);
  return Lin * ((Env.Block.count() + 31) / 32) + WarpInBlock;
}

uint64_t BoxEvaluator::order() const {
  return orderOf({Box.Lo[0], Box.Lo[1], Box.Lo[2]});
}

std::optional<Refine> BoxEvaluator::run(const BlockBox &B, unsigned W,
                                        std::vector<AccessStats> &St) {
  uint32_t Mask = laneMaskFor(Env.Block.count(), W);
  if (!Mask)
    return std::nullopt;
  Box = B;
  Blocks = B.count();
  IterationsRun = 0;
  HandOverAt = LoopHandOver * std::max<uint64_t>(Blocks, 16);
  WarpInBlock = W;
  Stats = &St;
  WarpStart.resize(St.size());
  for (size_t I = 0; I < St.size(); ++I)
    WarpStart[I] = St[I].Requests;
  Totals.collectInto(St);
  ResidueCache.clear();
  for (unsigned L = 0; L < 32; ++L) {
    uint64_t T = uint64_t(W) * 32 + L;
    ThreadVals[0][L] = T % Env.Block.X;
    ThreadVals[1][L] = (T / Env.Block.X) % Env.Block.Y;
    ThreadVals[2][L] = T / (Env.Block.X * Env.Block.Y);
  }
  std::fill(SlotVals.begin(), SlotVals.end(), 0);
  std::fill(SlotDep.begin(), SlotDep.end(), 0);
  std::fill(SlotUnknown.begin(), SlotUnknown.end(), 0xffffffffu);
  for (Why &R : SlotReason)
    R = {};
  Faults.reset(K.Accesses.size());
  WarpLanes = Mask;
  Dead = Returned = Broken = Continued = 0;
  Unc = UncertainLanes();
  LoopStack.clear();
  Groups.clear();
  Cut = Cuts();
  execList(K.Body, Mask);
  if (Cut)
    return Cut.First;
  // Groups left incomplete (lanes that returned early) issue part by part.
  Groups.endWarp([&](Group &G) { flushGroup(G); });
  return std::nullopt;
}

// Operations on Val, lane by lane; Live lanes are the ones whose value
// matters (active and known): only they may ask for the box to be cut.
struct BoxOps {
  using Val = BoxEvaluator::Val;
  const BlockBox &B;
  Cuts &Cut; ///< Where a decision that differs between blocks asks to cut.

  /// Makes sure lane L's affine value is exact over the box for type T.
  void checkRange(const Val &X, unsigned L, IntType T) const {
    if (!X.dep(L))
      return;
    Affine A = X.aff(L, T);
    if (T.Bits == 1)
      return Cut.add(nonAffine(movingDims(B, A)));
    Range R = rangeOver(B, A);
    i128 Lo = typeMin(T), Hi = typeMax(T);
    if (R.Lo < Lo || R.Hi > Hi)
      Cut.add(splitAt(B, A, R.Hi > Hi ? Hi + 1 : Lo));
  }
  unsigned dims(const Val &X, unsigned L) const {
    return movingDims(B, X.aff(L, {64, true}));
  }
  /// Whether lane L of X is non-zero, the same in every block.
  bool truth(const Val &X, unsigned L, IntType T, bool Live) const {
    if (!Live || !X.dep(L))
      return X.V[L] != 0;
    return decide(B, X.aff(L, T), Pred::Ne0, Cut);
  }
  /// Lanes where the divisor-like operand Y of lane L moves: not affine.
  void needConstant(const Val &Y, unsigned L) const {
    if (Y.dep(L))
      Cut.add(nonAffine(dims(Y, L)));
  }
  /// Cuts the box so that every moving coefficient of X becomes a multiple
  /// of M (M > 0).
  void needMultiple(const Val &X, unsigned L, i128 M) const {
    for (int D = 0; D < 3; ++D) {
      i128 C = X.c(D, L);
      if (C == 0 || B.Ext[D] <= 1 || C % M == 0)
        continue;
      i128 A = C < 0 ? -C : C, G = M;
      while (A) {
        i128 T = G % A;
        G = A;
        A = T;
      }
      i128 Classes = M / G;
      Refine R;
      R.Kind = Refine::Residues;
      R.Dim = D;
      R.At = Classes >= i128(B.Ext[D]) ? B.Ext[D] : uint64_t(Classes);
      return Cut.add(R);
    }
  }
  /// Lane L of X as the exact value it stands for in pointer arithmetic
  /// (pointer_arith.h): Signed reads its 64 bits as signed, and the box is
  /// cut where that changes sign.
  Affine pointerOperand(const Val &X, unsigned L, bool Signed) const {
    Affine A = X.aff(L, {64, false});
    if (Signed) {
      const i128 Half = i128(1) << 63;
      Range R = X.dep(L) ? rangeOver(B, A) : Range{A.C0, A.C0};
      if (R.Lo >= Half)
        A.C0 -= i128(1) << 64;
      else if (R.Hi >= Half)
        Cut.add(splitAt(B, A, Half));
    }
    return A;
  }
  /// Lane L of X read as pointer arithmetic reads it, as its value at the
  /// box's corner (at most 2^60 from 0) and how far it moves over the box
  /// (below 3 x 2^27 x 2^32 = 1.5 x 2^60): sums and differences of two
  /// such stay below 2^63, in int64.
  bool small(const Val &X, unsigned L, bool Signed, int64_t &V,
             int64_t &Moves) const {
    constexpr int64_t Limit = int64_t(1) << 60;
    V = X.V[L];
    if ((!Signed && V < 0) || V > Limit || V < -Limit)
      return false;
    Moves = 0;
    if (!X.dep(L))
      return true;
    for (int D = 0; D < 3; ++D) {
      int64_t C = X.C[D][L];
      if (C > (1 << 27) || C < -(1 << 27) || B.Ext[D] > (uint64_t(1) << 32))
        return false;
      Moves += (C < 0 ? -C : C) * int64_t(B.Ext[D] - 1);
    }
    return true;
  }
  /// Whether lane L of pointer arithmetic E on X and Y keeps a value it can
  /// have (Can), the same in every block (the box is cut where it differs).
  bool pointerFits(const Expr &E, const Val &X, const Val &Y, unsigned L,
                   const bool Signed[2], const PointerRange &Can) const {
    // A lane that does not move is one value: as in the every-warp path.
    if (!X.dep(L) && !Y.dep(L))
      return gmem::pointerFits(E, Signed[0], Signed[1], X.V[L], Y.V[L]);
    // Most lanes are far from both edges: that is shown in 64 bits.
    int64_t VA, MA, VB, MB;
    if (small(X, L, Signed[0], VA, MA) && small(Y, L, Signed[1], VB, MB)) {
      if (E.Kind == Op::Mul) {
        i128 Most = i128((VA < 0 ? -VA : VA) + MA) * ((VB < 0 ? -VB : VB) + MB);
        if (Most < (i128(1) << 63))
          return true;
      } else if ((E.Kind == Op::Add ? VA + VB : VA - VB) - MA - MB >= 0) {
        return true; // And below 2^63: in the address space.
      }
    }
    Affine A = pointerOperand(X, L, Signed[0]),
           Bv = pointerOperand(Y, L, Signed[1]), R;
    if (!pointerExact(E, A.C0, Bv.C0, R.C0))
      return false;
    for (int D = 0; D < 3; ++D) {
      if (E.Kind != Op::Mul)
        R.C[D] = E.Kind == Op::Add ? A.C[D] + Bv.C[D] : A.C[D] - Bv.C[D];
      else if (A.C[D] && Bv.C[D]) {
        Cut.add(nonAffine(dims(X, L) | dims(Y, L)));
        return true; // Not used: the run stops.
      } else if (__builtin_mul_overflow(A.C[D] ? A.C[D] : Bv.C[D],
                                        A.C[D] ? Bv.C0 : A.C0, &R.C[D]))
        return false;
    }
    Range Over = rangeOver(B, R);
    if (Over.Lo >= Can.Lo && Over.Hi < Can.Hi)
      return true;
    if (Over.Hi < Can.Lo || Over.Lo >= Can.Hi)
      return false;
    Cut.add(splitAt(B, R, Over.Lo < Can.Lo ? Can.Lo : Can.Hi));
    return true; // Not used: the run stops.
  }
};

namespace {

inline int64_t norm(uint64_t V, IntType T) { return normalize(V, T); }

} // namespace

uint32_t BoxEvaluator::eval(const Expr &E, uint32_t Mask, Val &Out) {
  Out.Dep = false;
  switch (E.Kind) {
  case Op::Const:
    std::fill(Out.V, Out.V + 32, E.Value);
    return 0;
  case Op::Param:
    if (E.Index < 0 || E.Index >= (int)Env.ParamValues.size() ||
        !Env.ParamUnknown[E.Index].empty()) {
      LastUnknownReason = E.Index >= 0 && E.Index < (int)Env.ParamUnknown.size()
                              ? unmodelled(Env.ParamUnknown[E.Index])
                              : unknownParameter();
      std::fill(Out.V, Out.V + 32, 0);
      return Mask;
    }
    std::fill(Out.V, Out.V + 32, normalize(Env.ParamValues[E.Index], E.Type));
    return 0;
  case Op::Var: {
    const int64_t *V = &SlotVals[size_t(E.Index) * 32];
    std::copy(V, V + 32, Out.V);
    if (SlotDep[E.Index]) {
      Out.Dep = true;
      std::memcpy(Out.C, &SlotCoef[size_t(E.Index) * 96], sizeof Out.C);
    }
    uint32_t U = SlotUnknown[E.Index] & Mask;
    if (U)
      LastUnknownReason = SlotReason[E.Index].empty()
                              ? usedBeforeAssigned(K.Slots[E.Index].Name)
                              : SlotReason[E.Index];
    return U;
  }
  case Op::Builtin: {
    int I = E.Index;
    if (I <= static_cast<int>(Builtin::ThreadIdxZ)) {
      std::copy(ThreadVals[I], ThreadVals[I] + 32, Out.V);
      return 0;
    }
    if (I <= static_cast<int>(Builtin::BlockIdxZ)) {
      int D = I - static_cast<int>(Builtin::BlockIdxX);
      std::fill(Out.V, Out.V + 32, int64_t(Box.Lo[D]));
      if (Box.Ext[D] > 1) {
        Out.makeDep();
        std::fill(Out.C[D], Out.C[D] + 32, int64_t(Box.Stride[D]));
      }
      return 0;
    }
    const uint64_t Uniform[] = {Env.Block.X, Env.Block.Y, Env.Block.Z,
                                Env.Grid.X,  Env.Grid.Y,  Env.Grid.Z,
                                32};
    std::fill(Out.V, Out.V + 32,
              int64_t(Uniform[I - static_cast<int>(Builtin::BlockDimX)]));
    return 0;
  }
  case Op::Unknown:
    LastUnknownReason = {E.Cause, E.Reason};
    std::fill(Out.V, Out.V + 32, 0);
    return Mask;
  default:
    return evalOperator(E, Mask, Out);
  }
}

uint32_t BoxEvaluator::truthMask(const Val &X, IntType T, uint32_t Live) {
  BoxOps O{Box, Cut};
  uint32_t M = 0;
  for (unsigned L = 0; L < 32; ++L)
    M |= uint32_t(O.truth(X, L, T, Live >> L & 1)) << L;
  return M;
}

uint32_t BoxEvaluator::evalOperator(const Expr &E, uint32_t Mask, Val &Out) {
  const IntType T = E.Type;
  const IntType OT = E.Ops[0]->Type;
  BoxOps O{Box, Cut};
  uint32_t U = eval(*E.Ops[0], Mask, Out);
  auto IsLive = [&](unsigned L) { return (Mask & ~U) >> L & 1; };
  switch (E.Kind) {
  case Op::Cast:
  case Op::Neg:
  case Op::BitNot: {
    for (unsigned L = 0; L < 32; ++L) {
      uint64_t X = uint64_t(Out.V[L]);
      if (E.Kind == Op::Cast)
        Out.V[L] = norm(X, T);
      else if (E.Kind == Op::Neg)
        Out.V[L] = norm(0 - X, T);
      else
        Out.V[L] = norm(~X, T);
      if (E.Kind != Op::Cast && Out.Dep)
        for (int D = 0; D < 3; ++D)
          Out.C[D][L] = int64_t(0 - uint64_t(Out.C[D][L]));
      if (IsLive(L))
        O.checkRange(Out, L, T);
    }
    return U;
  }
  case Op::LNot: {
    uint32_t True = truthMask(Out, OT, Mask & ~U);
    Out.Dep = false;
    for (unsigned L = 0; L < 32; ++L)
      Out.V[L] = !(True >> L & 1);
    return U;
  }
  case Op::Select: {
    uint32_t C = truthMask(Out, OT, Mask & ~U);
    Val A, B;
    uint32_t UA = eval(*E.Ops[1], Mask & C, A);
    uint32_t UB = eval(*E.Ops[2], Mask & ~C, B);
    Out.Dep = A.Dep || B.Dep;
    if (Out.Dep) {
      A.makeDep();
      B.makeDep();
    }
    for (unsigned L = 0; L < 32; ++L) {
      const Val &S = (C >> L & 1) ? A : B;
      Out.V[L] = S.V[L];
      if (Out.Dep)
        for (int D = 0; D < 3; ++D)
          Out.C[D][L] = S.C[D][L];
    }
    return U | (UA & C) | (UB & ~C);
  }
  default:
    break;
  }

  Val R;
  if (E.Kind == Op::LAnd || E.Kind == Op::LOr) {
    uint32_t LeftTrue = truthMask(Out, OT, Mask & ~U);
    uint32_t Needs = E.Kind == Op::LAnd ? LeftTrue : ~LeftTrue;
    uint32_t UR = eval(*E.Ops[1], Mask & Needs, R);
    uint32_t RightTrue = truthMask(R, E.Ops[1]->Type, Mask & Needs & ~UR & ~U);
    Out.Dep = false;
    for (unsigned L = 0; L < 32; ++L) {
      bool Left = LeftTrue >> L & 1, Right = RightTrue >> L & 1;
      Out.V[L] = E.Kind == Op::LAnd ? (Left && Right) : (Left || Right);
    }
    return U | (UR & Needs & ~U);
  }

  U |= eval(*E.Ops[1], Mask, R);
  const bool S = OT.Signed;
  const bool AnyDep = Out.Dep || R.Dep;
  if (AnyDep) {
    Out.makeDep();
    R.makeDep();
  }
  // The operation is undefined in lane L (division by zero, shift out of
  // range): the lane's value is unknown. Lanes already unknown keep their
  // reason.
  auto Bad = [&](unsigned L, const char *Text,
                 UnknownCause C = UnknownCause::Unmodelled) {
    uint32_t Lanes = Mask & ~U & (1u << L);
    Out.V[L] = 0;
    if (AnyDep)
      for (int D = 0; D < 3; ++D)
        Out.C[D][L] = 0;
    if (Lanes) {
      U |= Lanes;
      LastUnknownReason = {C, Text};
    }
  };
  if (E.PointerArith && !pointerCannotLeave(E)) {
    const bool Signed[2] = {readsSigned(E, 0), readsSigned(E, 1)};
    const PointerRange Can = pointerRange(E);
    for (uint32_t M = Mask & ~U; M; M &= M - 1) {
      unsigned L = __builtin_ctz(M);
      if (!O.pointerFits(E, Out, R, L, Signed, Can))
        Bad(L, PointerOverflowReason, UnknownCause::PointerOverflow);
    }
  }
  // Comparisons of the difference of the two sides with zero.
  auto Compare = [&](Pred P) {
    for (unsigned L = 0; L < 32; ++L) {
      bool Live = (Mask & ~U) >> L & 1;
      bool Res;
      if (Live && AnyDep && (Out.dep(L) || R.dep(L))) {
        Affine A = Out.aff(L, OT), Bv = R.aff(L, OT), D;
        // Constants as warp_eval reads them: int64 or uint64.
        A.C0 = S ? i128(Out.V[L]) : i128(uint64_t(Out.V[L]));
        Bv.C0 = S ? i128(R.V[L]) : i128(uint64_t(R.V[L]));
        D.C0 = A.C0 - Bv.C0;
        for (int I = 0; I < 3; ++I)
          D.C[I] = A.C[I] - Bv.C[I];
        Res = decide(Box, D, P, Cut);
      } else {
        // As warp_eval compares: int64s when signed, uint64s otherwise.
        i128 A = S ? i128(Out.V[L]) : i128(uint64_t(Out.V[L]));
        i128 Bv = S ? i128(R.V[L]) : i128(uint64_t(R.V[L]));
        i128 X = A - Bv;
        switch (P) {
        case Pred::Lt0:
          Res = X < 0;
          break;
        case Pred::Le0:
          Res = X <= 0;
          break;
        case Pred::Gt0:
          Res = X > 0;
          break;
        case Pred::Ge0:
          Res = X >= 0;
          break;
        case Pred::Eq0:
          Res = X == 0;
          break;
        default:
          Res = X != 0;
          break;
        }
      }
      Out.V[L] = Res;
    }
    Out.Dep = false;
  };

  switch (E.Kind) {
  case Op::Add:
  case Op::Sub:
    for (unsigned L = 0; L < 32; ++L) {
      uint64_t A = Out.V[L], Bv = R.V[L];
      Out.V[L] = norm(E.Kind == Op::Add ? A + Bv : A - Bv, T);
      if (AnyDep) {
        for (int D = 0; D < 3; ++D) {
          uint64_t CA = Out.C[D][L], CB = R.C[D][L];
          Out.C[D][L] = int64_t(E.Kind == Op::Add ? CA + CB : CA - CB);
        }
        if (IsLive(L))
          O.checkRange(Out, L, T);
      }
    }
    break;
  case Op::Mul:
    for (unsigned L = 0; L < 32; ++L) {
      uint64_t A = Out.V[L], Bv = R.V[L];
      Out.V[L] = norm(A * Bv, T);
      if (!AnyDep)
        continue;
      bool DA = Out.dep(L), DB = R.dep(L);
      if (IsLive(L) && DA && DB)
        Cut.add(nonAffine(O.dims(Out, L) | O.dims(R, L)));
      for (int D = 0; D < 3; ++D)
        Out.C[D][L] = DA ? int64_t(uint64_t(Out.C[D][L]) * Bv)
                         : int64_t(uint64_t(R.C[D][L]) * A);
      if (IsLive(L))
        O.checkRange(Out, L, T);
    }
    break;
  case Op::Div:
  case Op::Rem: {
    bool IsDiv = E.Kind == Op::Div;
    for (unsigned L = 0; L < 32; ++L) {
      bool Live = IsLive(L);
      if (Live && AnyDep)
        O.needConstant(R, L);
      if (Live && Out.dep(L) && S && R.V[L] == -1) {
        // The type's minimum divided by -1 is undefined: a box of its own,
        // so that each box's lanes fault alike.
        const i128 Min = -(i128(1) << (OT.Bits - 1));
        Affine A = Out.aff(L, OT);
        Range Rg = rangeOver(Box, A);
        if (Rg.Lo <= Min && Rg.Hi > Min)
          Cut.add(splitAt(Box, A, Min + 1));
      }
      int64_t Q;
      if (IntFault F = intDivide(IsDiv, OT, Out.V[L], R.V[L], Q);
          F != IntFault::None) {
        Bad(L, intFaultText(F));
        continue;
      }
      if (Live && Out.dep(L)) {
        i128 Dv = S ? i128(R.V[L]) : i128(uint64_t(R.V[L]));
        O.needMultiple(Out, L, Dv < 0 ? -Dv : Dv);
        Affine A = Out.aff(L, OT);
        if (S) { // Truncation is affine only on one side of zero.
          Range Rg = rangeOver(Box, A);
          if (Rg.Lo < 0 && Rg.Hi > 0)
            Cut.add(splitAt(Box, A, 0));
        }
        for (int D = 0; D < 3; ++D)
          Out.C[D][L] = IsDiv ? int64_t(i128(Out.C[D][L]) / Dv) : 0;
      } else if (AnyDep) {
        for (int D = 0; D < 3; ++D)
          Out.C[D][L] = 0;
      }
      Out.V[L] = norm(uint64_t(Q), T);
      if (Live && AnyDep)
        O.checkRange(Out, L, T);
    }
    break;
  }
  case Op::Shl:
  case Op::Shr:
    for (unsigned L = 0; L < 32; ++L) {
      bool Live = IsLive(L);
      if (Live && AnyDep)
        O.needConstant(R, L);
      const uint64_t Amount = uint64_t(R.V[L]);
      int64_t Shifted;
      if (IntFault F = intShift(E.Kind == Op::Shl, T, Out.V[L], R.V[L],
                                E.Ops[1]->Type.Signed, Shifted);
          F != IntFault::None) {
        Bad(L, intFaultText(F));
        continue;
      }
      Out.V[L] = Shifted;
      if (E.Kind == Op::Shl) {
        if (AnyDep)
          for (int D = 0; D < 3; ++D)
            Out.C[D][L] = int64_t(uint64_t(Out.C[D][L]) << Amount);
      } else {
        if (Live && Out.dep(L))
          O.needMultiple(Out, L, i128(1) << Amount);
        if (AnyDep)
          for (int D = 0; D < 3; ++D)
            Out.C[D][L] = Out.dep(L) ? Out.C[D][L] >> Amount : 0;
      }
      if (Live && AnyDep)
        O.checkRange(Out, L, T);
    }
    break;
  case Op::And:
  case Op::Or:
  case Op::Xor:
    for (unsigned L = 0; L < 32; ++L) {
      uint64_t A = Out.V[L], Bv = R.V[L];
      Out.V[L] = norm(E.Kind == Op::And  ? A & Bv
                      : E.Kind == Op::Or ? A | Bv
                                         : A ^ Bv,
                      T);
      if (!AnyDep)
        continue;
      bool Live = IsLive(L);
      bool DA = Out.dep(L), DB = R.dep(L);
      if (!DA && !DB)
        continue;
      if (Live && DA && DB)
        Cut.add(nonAffine(O.dims(Out, L) | O.dims(R, L)));
      // X moves by multiples of 2^J; M is the constant side.
      const Val &X = DA ? Out : R;
      uint64_t M = DA ? Bv : A;
      int J = 64;
      for (int D = 0; D < 3; ++D)
        if (X.C[D][L])
          J = std::min(J, __builtin_ctzll(uint64_t(X.C[D][L])));
      uint64_t Low = J >= 64 ? ~uint64_t(0) : (uint64_t(1) << J) - 1;
      if (E.Kind == Op::And && !T.Signed && T.Bits < 64)
        M |= ~((uint64_t(1) << T.Bits) - 1); // X has no bits up there.
      bool Constant = E.Kind == Op::And && (M & ~Low) == 0;
      bool Moves =
          E.Kind == Op::And ? (M | Low) == ~uint64_t(0) : (M & ~Low) == 0;
      if (Live && !Constant && !Moves) {
        uint64_t Bits = E.Kind == Op::And ? (M & ~Low) : M;
        int Len = bitLength(Bits);
        if (int64_t(Bits) < 0 || Len > 62)
          Cut.add(nonAffine(O.dims(X, L)));
        O.needMultiple(X, L, i128(1) << Len);
      }
      int64_t Keep[3] = {X.C[0][L], X.C[1][L], X.C[2][L]};
      for (int D = 0; D < 3; ++D)
        Out.C[D][L] = Constant ? 0 : Keep[D];
      if (Live)
        O.checkRange(Out, L, T);
    }
    break;
  case Op::Lt:
    Compare(Pred::Lt0);
    break;
  case Op::Le:
    Compare(Pred::Le0);
    break;
  case Op::Gt:
    Compare(Pred::Gt0);
    break;
  case Op::Ge:
    Compare(Pred::Ge0);
    break;
  case Op::Eq:
    Compare(Pred::Eq0);
    break;
  case Op::Ne:
    Compare(Pred::Ne0);
    break;
  case Op::Min:
  case Op::Max: {
    bool IsMin = E.Kind == Op::Min;
    for (unsigned L = 0; L < 32; ++L) {
      bool Less;
      if (IsLive(L) && AnyDep && (Out.dep(L) || R.dep(L))) {
        Affine A = Out.aff(L, OT), Bv = R.aff(L, OT), D;
        // Constants as warp_eval reads them: int64 or uint64.
        A.C0 = S ? i128(Out.V[L]) : i128(uint64_t(Out.V[L]));
        Bv.C0 = S ? i128(R.V[L]) : i128(uint64_t(R.V[L]));
        D.C0 = A.C0 - Bv.C0;
        for (int I = 0; I < 3; ++I)
          D.C[I] = A.C[I] - Bv.C[I];
        Less = decide(Box, D, Pred::Lt0, Cut);
      } else {
        Less = S ? Out.V[L] < R.V[L] : uint64_t(Out.V[L]) < uint64_t(R.V[L]);
      }
      if (Less != IsMin) {
        Out.V[L] = R.V[L];
        if (AnyDep)
          for (int D = 0; D < 3; ++D)
            Out.C[D][L] = R.C[D][L];
      }
    }
    break;
  }
  default:
    LastUnknownReason = unsupportedOperator();
    return Mask;
  }
  return U & Mask;
}

void BoxEvaluator::execList(const std::vector<Stmt> &L, uint32_t Mask) {
  for (const Stmt &S : L) {
    Mask &= ~Dead;
    if (!Mask || Cut)
      return;
    exec(S, Mask);
  }
}

void BoxEvaluator::exec(const Stmt &S, uint32_t Mask) {
  switch (S.Kind) {
  case StmtKind::Assign: {
    Val V;
    uint32_t U = eval(*S.Value, Mask, V);
    int64_t *Dst = &SlotVals[size_t(S.Slot) * 32];
    int64_t *DstC = &SlotCoef[size_t(S.Slot) * 96];
    if (V.Dep && !SlotDep[S.Slot]) {
      std::fill(DstC, DstC + 96, 0);
      SlotDep[S.Slot] = 1;
    }
    for (uint32_t M = Mask; M; M &= M - 1) {
      unsigned L = __builtin_ctz(M);
      Dst[L] = V.V[L];
      if (SlotDep[S.Slot])
        for (int D = 0; D < 3; ++D)
          DstC[D * 32 + L] = V.c(D, L);
    }
    SlotUnknown[S.Slot] = (SlotUnknown[S.Slot] & ~Mask) | (U & Mask);
    if (U & Mask)
      SlotReason[S.Slot] = LastUnknownReason;
    return;
  }
  case StmtKind::If: {
    Val C;
    uint32_t U = eval(*S.Cond, Mask, C);
    uint32_t True = truthMask(C, S.Cond->Type, Mask & ~U);
    if (U)
      skipUnknownCode(
          *this, U,
          LastUnknownReason.under(
              "it runs under a condition that cannot be computed: "),
          S.Then, S.Else, false);
    Mask &= ~U;
    // No lane takes one side: ptxas's predicated copy of it still runs.
    if (Mask && !U && (!(Mask & True) || !(Mask & ~True)))
      for (const auto &[Id, N] : OffSides.of(K, Mask & True ? S.Else : S.Then))
        Requests.predicatedOff({Id, N * Blocks});
    if (Mask & True)
      execList(S.Then, Mask & True);
    if (Mask & ~True)
      execList(S.Else, Mask & ~True);
    return;
  }
  case StmtKind::Loop:
    execLoop(S, Mask);
    return;
  case StmtKind::Access:
    execAccess(K.Accesses[S.AccessId], Mask);
    return;
  case StmtKind::Return:
    Returned |= Mask;
    Dead |= Mask;
    return;
  case StmtKind::Break:
    Broken |= Mask;
    Dead |= Mask;
    return;
  case StmtKind::Continue:
    Continued |= Mask;
    Dead |= Mask;
    return;
  case StmtKind::Call: {
    uint32_t SavedDead = Dead, SavedReturned = Returned;
    uint32_t SavedBroken = Broken, SavedContinued = Continued;
    const UncertainLanes SavedUnc = Unc.save();
    Dead = Returned = Broken = Continued = 0;
    execList(S.Body, Mask);
    Unc.endCall(SavedUnc);
    Dead = SavedDead;
    Returned = SavedReturned;
    Broken = SavedBroken;
    Continued = SavedContinued;
    return;
  }
  }
}

void BoxEvaluator::execLoop(const Stmt &S, uint32_t Mask) {
  if (S.Cond->Kind == Op::Const && S.Cond->Value != 0 &&
      !canLeaveLoop(S.Body) && !canLeaveLoop(S.Step)) {
    poison(S.Body, endlessLoop());
    return;
  }
  uint32_t SavedDead = Dead, SavedBroken = Broken, SavedContinued = Continued;
  uint32_t ReturnedBefore = Returned;
  const UncertainLanes UncBefore = Unc.save();
  uint32_t Active = Mask;
  bool First = true;
  LoopStack.push_back({NextLoopInstance++, 0});
  for (uint64_t Iter = 0;; ++Iter, ++IterationsRun) {
    LoopStack.back().Iter = Iter;
    if (S.TestFirst || !First) {
      Dead = 0;
      execList(S.CondPre, Active);
      Val C;
      uint32_t U = eval(*S.Cond, Active, C);
      uint32_t True = truthMask(C, S.Cond->Type, Active & ~U);
      if (U) {
        skipUnknownCode(*this, U,
                        LastUnknownReason.under("it runs in a loop whose "
                                                "condition cannot be "
                                                "computed: "),
                        S.Body, S.Step, true);
        Active &= ~U;
      }
      Active &= True;
    }
    First = false;
    if (!Active)
      break;
    if (HandOverLoops && IterationsRun >= HandOverAt) {
      // A long loop the every-warp evaluator can count by periods: hand the
      // box's warps to it rather than run the iterations here.
      auto It = Skippable.find(&S);
      if (It == Skippable.end())
        It = Skippable.emplace(&S, analyzeLoop(S, K).Skippable).first;
      if (It->second) {
        Refine R;
        R.Kind = Refine::EveryWarp;
        Cut.add(R);
      }
    }
    if (Cut) // The rest of the run is not used.
      break;
    if (Iter >= MaxLoopIterations) {
      poison(S.Body, unfinishedLoop(MaxLoopIterations));
      break;
    }
    Dead = Broken = Continued = 0;
    execList(S.Body, Active);
    Active &= ~(Broken | Returned);
    Dead = Broken = Continued = 0;
    execList(S.Step, Active);
    Active &= ~Returned;
  }
  const uint64_t Instance = LoopStack.back().Instance;
  LoopStack.pop_back();
  // Groups merged across this loop's iterations end with it.
  Groups.endLoop(Instance, [&](Group &G) { flushGroup(G); });
  Broken = SavedBroken;
  Continued = SavedContinued;
  Dead = SavedDead | (Returned & ~ReturnedBefore);
  Unc.endLoop(UncBefore);
}

void BoxEvaluator::markUnknown(int AccessId, const Why &W, uint32_t Mask,
                               bool Issued) {
  if (Cut) // Found after the run stopped counting.
    return;
  Requests.unknown({AccessId, Issued, Mask, &W, Blocks, order()});
}

void BoxEvaluator::forgetAssigned(const std::vector<Stmt> &L, uint32_t Lanes,
                                  const Why &W) {
  for (const Stmt &S : L) {
    if (S.Kind == StmtKind::Assign) {
      SlotUnknown[S.Slot] |= Lanes;
      SlotReason[S.Slot] = assignedUnder(W);
    }
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      forgetAssigned(*Sub, Lanes, W);
  }
}

void BoxEvaluator::poison(const std::vector<Stmt> &L, const Why &W) {
  for (const Stmt &S : L) {
    if (S.Kind == StmtKind::Access)
      markUnknown(S.AccessId, W, 0, /*Issued=*/false);
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      poison(*Sub, W);
  }
}

const std::vector<BoxEvaluator::Residue> &
BoxEvaluator::residues(const int64_t C[3]) {
  const uint64_t P = Period;
  std::vector<int64_t> Key = {int64_t(uint64_t(C[0]) & (P - 1)),
                              int64_t(uint64_t(C[1]) & (P - 1)),
                              int64_t(uint64_t(C[2]) & (P - 1))};
  auto It = ResidueCache.find(Key);
  if (It != ResidueCache.end())
    return It->second;
  // Counts of (C[0]*u0 + C[1]*u1 + C[2]*u2) mod P, one dimension at a time:
  // c*u mod P repeats every P / gcd(c, P) steps. A residue's first block in
  // launch order has the smallest u2, then u1, then u0: dimensions are
  // taken x first, each more significant than the ones before, and u in
  // increasing order, so the first u that reaches a residue is its own.
  std::vector<Residue> Acc(P), Next(P);
  Acc[0].Count = 1;
  for (int D = 0; D < 3; ++D) {
    uint64_t Cm = uint64_t(Key[D]), Ext = Box.Ext[D];
    uint64_t Rep = Cm == 0 ? 1 : P >> __builtin_ctzll(Cm);
    for (Residue &X : Next)
      X.Count = 0;
    for (uint64_t U = 0; U < std::min(Rep, Ext); ++U) {
      uint64_t N = (Ext - 1 - U) / Rep + 1, Shift = (Cm * U) & (P - 1);
      for (uint64_t R = 0; R < P; ++R) {
        if (!Acc[R].Count)
          continue;
        Residue &To = Next[(R + Shift) & (P - 1)];
        if (!To.Count) {
          std::copy(Acc[R].U, Acc[R].U + 3, To.U);
          To.U[D] = U;
        }
        To.Count += Acc[R].Count * N;
      }
    }
    Acc.swap(Next);
  }
  std::vector<Residue> Out;
  for (const Residue &R : Acc)
    if (R.Count)
      Out.push_back(R);
  return ResidueCache.emplace(Key, std::move(Out)).first->second;
}

namespace {

std::vector<int64_t> lanesOf(const BoxEvaluator::Val &V) {
  std::vector<int64_t> Out(V.V, V.V + 32);
  for (int D = 0; D < 3; ++D)
    for (unsigned L = 0; L < 32; ++L)
      Out.push_back(V.c(D, L));
  return Out;
}

BoxEvaluator::Val valOf(const std::vector<int64_t> &Lanes) {
  BoxEvaluator::Val V;
  std::copy(Lanes.begin(), Lanes.begin() + 32, V.V);
  V.makeDep();
  for (int D = 0; D < 3; ++D)
    std::copy(Lanes.begin() + 32 * (D + 1), Lanes.begin() + 32 * (D + 2),
              V.C[D]);
  return V;
}

} // namespace

void BoxEvaluator::execAccess(const Access &A, uint32_t Mask) {
  // The compiled forms, as in WarpEvaluator::execAccess.
  const CompiledForm &CF = A.Compiled;
  if (issuesNothing(CF, LoopStack))
    return;
  // A request whose cost is not modelled: counted, and the reason kept.
  auto Unknown = [&](const Why &W) { markUnknown(A.Id, W, Mask); };
  if (A.UnknownReason)
    return Unknown({A.ReasonCause, *A.UnknownReason});
  if (Mask & Unc.All)
    return Unknown(
        Unc.Reason.under("some lanes may have returned or left a loop under "));
  Val V;
  if (eval(*A.Address, Mask, V))
    return Unknown(LastUnknownReason.after("its address cannot be computed: "));
  // As in warp_eval.cpp: bytes past 2^64 belong to no device address. The
  // box is cut where that differs between blocks.
  const i128 Top = i128(UINT64_MAX) - (A.Size - 1);
  for (uint32_t M = Mask; M; M &= M - 1) {
    Affine Past = V.aff(__builtin_ctz(M), {64, false});
    Past.C0 -= Top;
    if (decide(Box, Past, Pred::Gt0, Cut))
      return Unknown(pastAddressSpace());
  }
  if (A.Sp == Space::Shared && A.Kind == AccessKind::Atomic)
    return Unknown(sharedAtomics());
  // Every active lane must move by the same amount from block to block.
  const unsigned First = __builtin_ctz(Mask);
  int64_t C[3] = {V.c(0, First), V.c(1, First), V.c(2, First)};
  unsigned Differ = 0;
  for (uint32_t M = Mask; M; M &= M - 1)
    for (int D = 0; D < 3; ++D)
      if (V.c(D, __builtin_ctz(M)) != C[D])
        Differ |= 1u << D;
  if (Differ)
    return Cut.add(nonAffine(Differ));
  if (CF.State == CompiledForm::OncePerAddress && seenBefore(A, V, Mask))
    return;
  if (CF.State == CompiledForm::Merged && CF.Width > A.Size)
    return Groups.add(
        A, Part{A.Id, Mask, lanesOf(V)}, LoopStack,
        [&](Part &P) { issue(A, valOf(P.Lanes), P.Mask, A.Size); },
        [&](Group &G) { completeGroup(G); }, [&](Group &G) { flushGroup(G); });
  if (CF.State == CompiledForm::Split) {
    // One narrower request per part the compiler kept.
    for (unsigned Off : CF.Parts) {
      Val P = V;
      for (unsigned L = 0; L < 32; ++L)
        P.V[L] = int64_t(uint64_t(P.V[L]) + Off);
      issue(A, P, Mask, CF.Width);
    }
    return;
  }
  issue(A, V, Mask, A.Size);
}

void BoxEvaluator::issue(const Access &A, const Val &V, uint32_t Mask,
                         unsigned Size) {
  if (Cut) // Found after the run stopped counting.
    return;
  RequestEvent E;
  E.A = &A;
  E.Mask = issuingLanes(A, Mask);
  E.Size = Size;
  E.Warp = WarpInBlock;
  E.Execution =
      ((*Stats)[size_t(A.Id)].Requests - WarpStart[size_t(A.Id)]) / Blocks + 1;
  // Shared bounds: each lane in or out alike over the box.
  if (const std::optional<SharedRange> B =
          sharedArrayRange(K, A, Env.DynamicSmem))
    for (uint32_t M = E.Mask; M; M &= M - 1) {
      unsigned L = __builtin_ctz(M);
      Affine Ad = V.aff(L, {64, false});
      Affine Below = Ad, Above = Ad;
      Below.C0 -= B->Lo;
      Above.C0 += i128(Size) - B->Hi;
      if (!(decide(Box, Below, Pred::Ge0, Cut) &&
            decide(Box, Above, Pred::Le0, Cut)))
        E.Outside |= 1u << L;
    }
  // Every lane moves by t(u) = C . u from the box's first block (execAccess
  // checked it), and a request costs the same at translations that differ
  // by a multiple of Period: one event per residue of t, at the residue's
  // first block.
  const unsigned First = __builtin_ctz(E.Mask);
  const int64_t C[3] = {V.c(0, First), V.c(1, First), V.c(2, First)};
  static const std::vector<Residue> Still(1);
  const bool Moves = C[0] || C[1] || C[2];
  const uint64_t *Base = reinterpret_cast<const uint64_t *>(V.V);
  uint64_t Addr[32];
  E.Addr = Addr;
  for (const Residue &R : Moves ? residues(C) : Still) {
    // The real addresses of that block: no wrap-around, as execAccess
    // checked every block's.
    const uint64_t T = uint64_t(C[0]) * R.U[0] + uint64_t(C[1]) * R.U[1] +
                       uint64_t(C[2]) * R.U[2];
    for (unsigned L = 0; L < 32; ++L)
      Addr[L] = Base[L] + T;
    E.Weight = Moves ? R.Count : Blocks;
    E.Block = Box.block(R.U);
    E.Order = orderOf(E.Block);
    Requests.pricedOneSide(E);
  }
}

// As WarpEvaluator::completeGroup, for every block of the box: one request
// when on every active lane the parts' bytes are one run as wide as the
// instruction and aligned to it. The parts must move alike from block to
// block and by multiples of the width, so that the answer is the box's
// first block's everywhere; otherwise the box is cut.
void BoxEvaluator::completeGroup(Group &G) {
  const Access &Lead =
      K.Accesses[G.Leader >= 0 ? G.Leader : G.Parts[0].AccessId];
  const unsigned Size = Lead.Size, Width = Lead.Compiled.Width;
  const uint32_t Mask = G.Parts[0].Mask;
  bool One = true;
  for (const Part &P : G.Parts)
    One = One && P.Mask == Mask && K.Accesses[P.AccessId].Size == Size;
  const unsigned First = __builtin_ctz(Mask);
  unsigned Moves = 0, Unaligned = 0;
  for (const Part &P : G.Parts)
    for (int D = 0; D < 3; ++D) {
      int64_t Cd = P.Lanes[32 * (D + 1) + First];
      if (Box.Ext[D] == 1) // u[D] is 0 in every block.
        continue;
      if (Cd != G.Parts[0].Lanes[32 * (D + 1) + First])
        Moves |= 1u << D;
      if (Cd % int64_t(Width))
        Unaligned |= 1u << D;
    }
  if (One && (Moves | Unaligned))
    return Cut.add(nonAffine(Moves | Unaligned));
  std::vector<int64_t> Low = G.Parts[0].Lanes;
  for (uint32_t M = Mask; One && M; M &= M - 1) {
    unsigned L = __builtin_ctz(M);
    uint64_t A[16], First;
    unsigned N = 0;
    for (const Part &P : G.Parts)
      A[N++] = uint64_t(P.Lanes[L]);
    One = oneAlignedRun(A, N, Size, Width, First);
    Low[L] = int64_t(First);
  }
  if (!One) {
    Requests.unmerged({Lead.Id, Blocks});
    flushGroup(G);
    return;
  }
  issue(Lead, valOf(Low), Mask, Width);
  G.Parts.clear();
}

void BoxEvaluator::flushGroup(Group &G) {
  for (const Part &P : G.Parts)
    issue(K.Accesses[P.AccessId], valOf(P.Lanes), P.Mask,
          K.Accesses[P.AccessId].Size);
  G.Parts.clear();
}

// Two requests of one instance of the loops repeat each other in every block
// of the box when their lanes' affine addresses are equal. Each request's
// lanes move alike from block to block (checked by the caller); two that
// move alike but start apart never meet. Two that move differently could
// meet in some blocks only: those blocks are run one warp at a time.
bool BoxEvaluator::seenBefore(const Access &A, const Val &V, uint32_t Mask) {
  const int Level = A.Compiled.Loop;
  if (Level < 0 || size_t(Level) >= LoopStack.size())
    return false;
  auto &[Instance, Requests] = Seen[A.Id];
  const uint64_t Now = LoopStack[LoopStack.size() - 1 - Level].Instance;
  if (Instance != Now) {
    Instance = Now;
    Requests.clear();
  }
  std::vector<int64_t> Key = {int64_t(Mask)};
  for (uint32_t M = Mask; M; M &= M - 1) {
    unsigned L = __builtin_ctz(M);
    // Movement along a dimension the box does not extend in is no movement.
    auto Co = [&](int D) { return Box.Ext[D] > 1 ? V.c(D, L) : 0; };
    Key.insert(Key.end(), {V.V[L], Co(0), Co(1), Co(2)});
  }
  for (const std::vector<int64_t> &R : Requests) {
    if (R == Key)
      return true;
    if (R[0] != Key[0])
      continue;
    unsigned Moves = 0; // Dims along which the two move differently.
    for (int D = 0; D < 3; ++D)
      if (Box.Ext[D] > 1 && R[2 + D] != Key[2 + D])
        Moves |= 1u << D;
    if (Moves) {
      Cut.add(nonAffine(Moves));
      return true; // Issue nothing: the run stops.
    }
  }
  Requests.push_back(std::move(Key));
  return false;
}

} // namespace gmem
