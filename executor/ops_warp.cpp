//===- ops_warp.cpp - shfl, vote, match, redux, activemask, elect -----------===//
//
// Warp-wide operations read other lanes' registers. The lanes taking part
// are the active ones (the member mask names the lanes expected to be
// there; a lane it names that is not active gives what its register held,
// which is what the ISA leaves undefined).
//
//===----------------------------------------------------------------------===//
#include "decode.h"
#include "lanes.h"


namespace gmem::exec {

namespace {

enum ShflMode : uint8_t { SUp, SDown, SBfly, SIdx };

/// shfl.sync.mode.b32 d{|p}, a, b, c, membermask.
void shflH(Ctx &C, const XInstr &I) {
  const uint64_t *A = C.lanes(I.S[0]), *B = C.lanes(I.S[1]),
                 *Cv = C.lanes(I.S[2]);
  uint64_t *D = C.lanes(I.D[0]);
  const uint32_t KA = C.known(I.S[0]);
  const uint32_t KBC = C.known(I.S[1]) & C.known(I.S[2]);
  uint64_t Out[32];
  uint32_t Valid = 0, Known = 0;
  forLanes(C.Active, [&](unsigned L) {
    const uint32_t Bv = uint32_t(B[L]) & 31, Cc = uint32_t(Cv[L]);
    const uint32_t Clamp = Cc & 31, Seg = (Cc >> 8) & 31;
    const uint32_t MaxLane = (L & Seg) | (Clamp & ~Seg);
    const uint32_t MinLane = L & Seg;
    int J = 0;
    bool P = false;
    switch (I.Sub) {
    case SUp:
      J = int(L) - int(Bv);
      P = J >= int(MaxLane);
      break;
    case SDown:
      J = int(L) + int(Bv);
      P = J <= int(MaxLane);
      break;
    case SBfly:
      J = int(L ^ Bv);
      P = J <= int(MaxLane);
      break;
    default:
      J = int(MinLane | (Bv & ~Seg));
      P = J <= int(MaxLane);
      break;
    }
    if (!P)
      J = int(L);
    Out[L] = A[J];
    Valid |= uint32_t(P) << L;
    // A source lane that is not active gives what the ISA leaves undefined.
    if ((KA >> J & 1) && (C.Active >> J & 1) && (KBC >> L & 1))
      Known |= 1u << L;
  });
  forLanes(C.Active, [&](unsigned L) { D[L] = Out[L]; });
  C.setKnown(I.D[0], Known);
  if (I.ND > 1)
    C.setPred(I.D[1], Valid, KBC);
}

/// vote.sync: Sub 0 all, 1 any, 2 uni (predicate results), 3 ballot.
void voteH(Ctx &C, const XInstr &I) {
  uint32_t P = C.pred(I.S[0]);
  if (I.Flags)
    P = ~P;
  const uint32_t Act = C.Active;
  const uint32_t Set = P & Act;
  const bool Known = (C.predKnown(I.S[0]) & Act) == Act;
  if (I.Sub == 3) {
    uint64_t *D = C.lanes(I.D[0]);
    forLanes(Act, [&](unsigned L) { D[L] = Set; });
    C.setKnown(I.D[0], Known ? ~0u : 0);
    return;
  }
  bool R;
  if (I.Sub == 0)
    R = Set == Act;
  else if (I.Sub == 1)
    R = Set != 0;
  else
    R = Set == Act || Set == 0;
  C.setPred(I.D[0], R ? ~0u : 0, Known ? ~0u : 0);
}

/// match.sync.any / .all.
void matchH(Ctx &C, const XInstr &I) {
  const uint64_t *A = C.lanes(I.S[0]);
  uint64_t *D = C.lanes(I.D[0]);
  const uint32_t Act = C.Active;
  const bool Known = (C.known(I.S[0]) & Act) == Act;
  const uint64_t Mask = I.Width == 4 ? 0xffffffffull : ~uint64_t(0);
  if (I.Sub == 0) {
    uint64_t Out[32];
    forLanes(Act, [&](unsigned L) {
      uint32_t M = 0;
      forLanes(Act, [&](unsigned K) {
        M |= uint32_t((A[K] & Mask) == (A[L] & Mask)) << K;
      });
      Out[L] = M;
    });
    forLanes(Act, [&](unsigned L) { D[L] = Out[L]; });
    C.setKnown(I.D[0], Known ? ~0u : 0);
    return;
  }
  const unsigned First = unsigned(ctz(Act));
  bool All = true;
  forLanes(Act, [&](unsigned L) {
    All &= (A[L] & Mask) == (A[First] & Mask);
  });
  forLanes(Act, [&](unsigned L) { D[L] = All ? Act : 0; });
  C.setKnown(I.D[0], Known ? ~0u : 0);
  if (I.ND > 1)
    C.setPred(I.D[1], All ? ~0u : 0, Known ? ~0u : 0);
}

/// redux.sync.op: Sub 0 add, 1 min, 2 max, 3 and, 4 or, 5 xor; Off 1 when
/// signed.
void reduxH(Ctx &C, const XInstr &I) {
  const uint64_t *A = C.lanes(I.S[0]);
  uint64_t *D = C.lanes(I.D[0]);
  const uint32_t Act = C.Active;
  const bool Signed = I.Off;
  uint32_t R = 0;
  bool First = true;
  forLanes(Act, [&](unsigned L) {
    const uint32_t V = uint32_t(A[L]);
    if (First) {
      R = V;
      First = false;
      return;
    }
    switch (I.Sub) {
    case 0:
      R += V;
      break;
    case 1:
      R = Signed ? uint32_t(std::min(int32_t(R), int32_t(V))) : std::min(R, V);
      break;
    case 2:
      R = Signed ? uint32_t(std::max(int32_t(R), int32_t(V))) : std::max(R, V);
      break;
    case 3:
      R &= V;
      break;
    case 4:
      R |= V;
      break;
    default:
      R ^= V;
      break;
    }
  });
  forLanes(Act, [&](unsigned L) { D[L] = R; });
  C.setKnown(I.D[0], (C.known(I.S[0]) & Act) == Act ? ~0u : 0);
}

void activemaskH(Ctx &C, const XInstr &I) {
  uint64_t *D = C.lanes(I.D[0]);
  forLanes(C.Active, [&](unsigned L) { D[L] = C.Active; });
  C.setKnown(I.D[0], ~0u);
}

/// elect.sync d|p, membermask: the lowest active lane is the leader.
void electH(Ctx &C, const XInstr &I) {
  const unsigned Leader = unsigned(ctz(C.Active));
  uint64_t *D = C.lanes(I.D[0]);
  forLanes(C.Active, [&](unsigned L) { D[L] = Leader; });
  C.setKnown(I.D[0], ~0u);
  if (I.ND > 1)
    C.setPred(I.D[1], 1u << Leader, ~0u);
}

} // namespace

bool decodeWarp(Decoder &D, const ptx::Instr &I, XInstr &X) {
  const std::string &Op = I.Op;
  if (Op == "shfl") {
    if (!I.has("sync") || I.Ops.size() < 4) {
      D.unsupported(X, "shfl without .sync (removed after sm_70)");
      return true;
    }
    static const char *Modes[] = {"up", "down", "bfly", "idx"};
    for (uint8_t K = 0; K < 4; ++K)
      if (I.has(Modes[K]))
        X.Sub = K;
    const ptx::Operand &Dst = I.Ops[0];
    X.D[0] = D.dst(Dst);
    X.ND = 1;
    if (Dst.Pair >= 0) {
      X.D[1] = D.dst(ptx::Operand{ptx::Operand::Reg, Dst.Pair});
      X.ND = 2;
    }
    X.S[0] = D.src(I.Ops[1], Ty::B32);
    X.S[1] = D.src(I.Ops[2], Ty::B32);
    X.S[2] = D.src(I.Ops[3], Ty::B32);
    X.NS = 3;
    X.Fn = shflH;
    return true;
  }
  if (Op == "vote") {
    X.Sub = I.has("all") ? 0 : I.has("any") ? 1 : I.has("uni") ? 2 : 3;
    X.D[0] = D.dst(I.Ops.at(0));
    X.S[0] = D.src(I.Ops.at(1), Ty::Pred);
    X.Flags = I.Ops[1].Not;
    X.ND = X.NS = 1;
    X.Fn = voteH;
    return true;
  }
  if (Op == "match") {
    X.Sub = I.has("all") ? 1 : 0;
    const ptx::Operand &Dst = I.Ops.at(0);
    X.D[0] = D.dst(Dst);
    X.ND = 1;
    if (Dst.Pair >= 0) {
      X.D[1] = D.dst(ptx::Operand{ptx::Operand::Reg, Dst.Pair});
      X.ND = 2;
    }
    const Ty T = Decoder::lastType(I);
    X.S[0] = D.src(I.Ops.at(1), T);
    X.NS = 1;
    X.Width = uint8_t(bytesOf(T));
    X.Fn = matchH;
    return true;
  }
  if (Op == "redux") {
    static const char *Ops[] = {"add", "min", "max", "and", "or", "xor"};
    for (uint8_t K = 0; K < 6; ++K)
      if (I.has(Ops[K]))
        X.Sub = K;
    const Ty T = Decoder::lastType(I);
    if (isFloat(T)) {
      D.unsupported(X, "redux.sync on floats");
      return true;
    }
    X.Off = isSigned(T);
    X.D[0] = D.dst(I.Ops.at(0));
    X.S[0] = D.src(I.Ops.at(1), T);
    X.ND = X.NS = 1;
    X.Fn = reduxH;
    return true;
  }
  if (Op == "activemask") {
    X.D[0] = D.dst(I.Ops.at(0));
    X.ND = 1;
    X.Fn = activemaskH;
    return true;
  }
  if (Op == "elect") {
    const ptx::Operand &Dst = I.Ops.at(0);
    X.D[0] = D.dst(Dst);
    X.ND = 1;
    if (Dst.Pair >= 0) {
      X.D[1] = D.dst(ptx::Operand{ptx::Operand::Reg, Dst.Pair});
      X.ND = 2;
    }
    X.Fn = electH;
    return true;
  }
  return false;
}

} // namespace gmem::exec
