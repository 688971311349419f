//===- ops_tensor.cpp - ldmatrix, stmatrix, movmatrix, wmma and mma
//---------===//
//
// The tensor-core instructions of a warp. Their data follow the fragment
// layouts of the PTX ISA ("Matrix fragments for mma.m16n8k*", "ldmatrix");
// wmma's fragments, which the ISA leaves unspecified, are given the layout
// of the mma instructions ptxas builds them from (m16n16k16: two
// m16n8k16). Products are summed exactly and rounded once to the result's
// type; the GPU's tensor cores may differ in the last bit of large sums.
//
// Their requests are the instructions ptxas makes of them on sm_80 and
// later, as seen in its SASS: ldmatrix is one LDSM (each 8 lanes give the
// 16-byte rows of one 8x8 matrix, served as one quarter warp); a wmma.load
// of an A or B fragment is one LDSM.x4 from shared memory and four 32-bit
// loads from global memory (8 lines x 16 bytes each); an accumulator moves
// in four 2-element requests when its rows are the memory's lines
// (row-major) and in eight 1-element requests otherwise. LDSM and STSM are
// not counted among the shared load and store instructions by the GPU's
// counters (XInstr::Matrix), only their wavefronts.
//
//===----------------------------------------------------------------------===//
#include "decode.h"
#include "float_bits.h"
#include "lanes.h"
#include "memory_ops.h"
#include "tensor_map.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace gmem::exec {

namespace {

enum TensorOp : uint8_t {
  TLdmatrix,
  TStmatrix,
  TMovmatrix,
  TLoad,
  TStore,
  TMma
};

/// Which matrix a fragment holds.
enum FragKind : uint32_t { FragA, FragB, FragC };

/// Element types of fragments.
enum ElemType : uint32_t { EF16, EBF16, EF32, ETF32, EF64 };

unsigned elemBytes(ElemType T) {
  return T == EF64 ? 8 : T == EF32 || T == ETF32 ? 4 : 2;
}

/// The shape and element type of one fragment, and where lane L's element
/// E of it lies in its matrix (row, col; B's rows are K).
struct Fragment {
  FragKind Kind = FragA;
  ElemType Type = EF16;
  unsigned M = 16, N = 16, K = 16;
  bool Wmma = false; ///< wmma's m16n16k16 rather than one mma.
  /// Elements per register: b16 pairs, or one.
  unsigned perReg() const { return elemBytes(Type) == 2 ? 2 : 1; }
  /// Distinct elements a lane holds.
  unsigned elements() const {
    const unsigned Rows = Kind == FragB ? K : M, Cols = Kind == FragA ? K : N;
    return Rows * Cols / 32;
  }
  /// Element E (0 .. elements()) of lane L.
  void at(unsigned L, unsigned E, unsigned &Row, unsigned &Col) const {
    const unsigned G = L >> 2, T = L & 3;
    if (Type == EF64) { // m8n8k4
      if (Kind == FragA)
        Row = G, Col = T;
      else if (Kind == FragB)
        Row = T, Col = G;
      else
        Row = G, Col = 2 * T + E;
      return;
    }
    if (Type == ETF32 && Kind != FragC) { // m16n8k8, m16n8k4; wmma m16n16k8
      if (Kind == FragA)
        Row = G + 8 * (E & 1), Col = T + 4 * (E >> 1);
      else // wmma's N 8..15 from the third register.
        Row = T + 4 * (E & 1), Col = G + 8 * (E >> 1);
      return;
    }
    const unsigned R = E / 2, H = E & 1;
    switch (Kind) {
    case FragA: // Register R: rows +8 when odd, columns +8 from the third.
      Row = G + 8 * (R & 1);
      Col = 2 * T + 8 * (R >> 1) + H;
      return;
    case FragB: // Register R: K +8 when odd, N +8 from the third (wmma).
      Row = 2 * T + 8 * (R & 1) + H;
      Col = G + 8 * (R >> 1);
      return;
    case FragC: // Element E: column pairs, rows +8, then the next 8 columns.
      Row = G + 8 * ((E >> 1) & 1);
      Col = 8 * (E >> 2) + 2 * T + (E & 1);
      return;
    }
  }
};

double toDouble(ElemType T, uint64_t Bits) {
  switch (T) {
  case EF16:
    return halfToDouble(uint32_t(Bits & 0xffff));
  case EBF16:
    return bf16ToDouble(uint32_t(Bits & 0xffff));
  case EF32:
    return double(asFloat(Bits));
  case ETF32: // The tensor cores read the top 19 bits.
    return double(asFloat(Bits & 0xffffe000u));
  case EF64:
    return asDouble(Bits);
  }
  return 0;
}

uint64_t fromDouble(ElemType T, double V) {
  switch (T) {
  case EF16:
    return doubleToHalf(V);
  case EBF16:
    return doubleToBf16(V);
  case EF32:
  case ETF32:
    return bitsOf(float(V));
  case EF64:
    return bitsOf(V);
  }
  return 0;
}

/// Element E of lane L: its register and bit offset there.
void slotOf(const Fragment &F, unsigned E, unsigned &Reg, unsigned &Shift) {
  const unsigned P = F.perReg();
  Reg = E / P;
  Shift = (E % P) * 16;
}

//===----------------------------------------------------------------------===//
// ldmatrix, stmatrix, movmatrix
//===----------------------------------------------------------------------===//

/// Lane L's part of matrix I's 8x8 b16 elements, as register I holds it:
/// (row, first of two columns), or with .trans (first of two rows, col).
void matrixSlot(unsigned L, bool Trans, unsigned &Row, unsigned &Col) {
  if (Trans)
    Row = 2 * (L & 3), Col = L >> 2;
  else
    Row = L >> 2, Col = 2 * (L & 3);
}

void matrixH(Ctx &C, const XInstr &I) {
  const std::vector<Opnd> &X = C.Fr->Fn->Extras[size_t(I.Extra)];
  const bool Store = X[0] == TStmatrix;
  const unsigned Count = X[1];
  const bool Trans = X[2];
  const uint64_t *Base = C.lanes(I.Addr);
  const uint32_t BaseKnown = C.known(I.Addr);
  // The row addresses: lanes 8i..8i+7 give matrix i's.
  Requests Req;
  Place Rows[32];
  bool RowKnown[32] = {};
  for (unsigned L = 0; L < 8 * Count; ++L) {
    if (!(C.W->Live >> L & 1))
      continue;
    const uint64_t A = addressOf(I, Base[L]);
    RowKnown[L] = BaseKnown >> L & 1;
    if (!reach(C, I, I.Space, A, 16, L, RowKnown[L], !Store, Store, Rows[L]))
      return;
    Req.add(Rows[L], L, RowKnown[L]);
  }
  for (unsigned M = 0; M < Count; ++M) {
    uint64_t *V = C.lanes(X[3 + M]);
    uint32_t Known = 0;
    for (unsigned L = 0; L < 32; ++L) {
      if (!(C.Active >> L & 1))
        continue;
      unsigned Row, Col;
      matrixSlot(L, Trans, Row, Col);
      bool K = true;
      uint32_t Word = 0;
      for (unsigned J = 0; J < 2; ++J) {
        const unsigned R = Trans ? Row + J : Row, Cl = Trans ? Col : Col + J;
        const unsigned Giver = 8 * M + R;
        const Place &P = Rows[Giver];
        if (!P.Data || !RowKnown[Giver]) {
          K = false;
          continue;
        }
        Place E = P;
        E.Data += 2 * Cl;
        E.BitOff += 2 * Cl;
        if (Store) {
          const uint16_t H = uint16_t(V[L] >> (16 * J));
          std::memcpy(E.Data, &H, 2);
          setPlaceKnown(E, 2,
                        (C.known(X[3 + M]) >> L & 1) && !(C.Taint >> L & 1));
        } else {
          uint16_t H;
          std::memcpy(&H, E.Data, 2);
          Word |= uint32_t(H) << (16 * J);
          K = K && placeKnown(E, 2);
        }
      }
      if (!Store) {
        V[L] = Word;
        Known |= uint32_t(K) << L;
      }
    }
    if (!Store)
      C.setKnown(X[3 + M], Known);
  }
  Req.emit(C, I, 16);
}

/// movmatrix.trans: lane L gets elements (2(L%4) + j, L/4) of the 8x8
/// matrix whose row r, columns 2c, 2c+1 lane 4r + c holds.
void movmatrixH(Ctx &C, const XInstr &I) {
  const uint64_t *A = C.lanes(I.S[0]);
  const uint32_t AK = C.known(I.S[0]);
  uint64_t Out[32];
  uint32_t Known = 0;
  for (unsigned L = 0; L < 32; ++L) {
    uint32_t Word = 0;
    bool K = true;
    for (unsigned J = 0; J < 2; ++J) {
      const unsigned Row = 2 * (L & 3) + J, Col = L >> 2;
      const unsigned From = 4 * Row + Col / 2;
      Word |= uint32_t((A[From] >> (16 * (Col & 1))) & 0xffff) << (16 * J);
      K = K && (AK >> From & 1);
    }
    Out[L] = Word;
    Known |= uint32_t(K) << L;
  }
  uint64_t *D = C.lanes(I.D[0]);
  forLanes(C.Active, [&](unsigned L) { D[L] = Out[L]; });
  C.setKnown(I.D[0], C.Active == ~0u ? Known : 0);
}

//===----------------------------------------------------------------------===//
// wmma.load, wmma.store
//===----------------------------------------------------------------------===//

/// Request Q of a wmma.load or store: lane L's element, as (line, position
/// in the line) of memory, and the bytes each lane moves.
struct Lowering {
  unsigned Requests = 0, Size = 0;
  bool Matrix = false;
  /// tf32 A and B: request Q moves each lane's element Q (one 32-bit load
  /// each, in shared memory too: no LDSM for 32-bit elements).
  const Fragment *PerElement = nullptr;
  bool RowMajor = true;
  /// (line, pos) of lane L in request Q.
  void at(unsigned Q, unsigned L, unsigned &Line, unsigned &Pos) const {
    const unsigned G = L >> 2, T = L & 3;
    if (PerElement) {
      unsigned Row, Col;
      PerElement->at(L, Q, Row, Col);
      Line = RowMajor ? Row : Col;
      Pos = RowMajor ? Col : Row;
    } else if (Matrix) { // LDSM.x4: 8 rows of 16 bytes per quarter warp.
      Line = (L & 7) + 8 * ((L >> 3) & 1);
      Pos = 8 * (L >> 4);
    } else if (Requests == 4) { // Pairs along the line.
      Line = G + 8 * (Q & 1);
      Pos = 2 * T + 8 * (Q >> 1);
    } else { // Single elements, a line apart within each pair.
      const unsigned Row = G + 8 * ((Q >> 1) & 1),
                     Col = 2 * T + (Q & 1) + 8 * (Q >> 2);
      Line = Col;
      Pos = Row;
    }
  }
};

Lowering lowering(const Fragment &F, bool RowMajor, bool Shared) {
  Lowering W;
  const unsigned B = elemBytes(F.Type);
  if (F.Kind != FragC && F.Type == ETF32) {
    W.PerElement = &F;
    W.RowMajor = RowMajor;
    W.Requests = F.elements();
    W.Size = B;
  } else if (F.Kind != FragC) {
    W.Matrix = Shared;
    W.Requests = Shared ? 1 : 4;
    W.Size = Shared ? 16 : 2 * B;
  } else if (RowMajor) {
    W.Requests = 4;
    W.Size = 2 * B;
  } else {
    W.Requests = 8;
    W.Size = B;
  }
  return W;
}

/// Header of a wmma.load/store's operand list: op, fragment kind, element
/// type, row-major, stride given, register count, K; then the registers,
/// then the stride.
void wmmaMemH(Ctx &C, const XInstr &I) {
  const std::vector<Opnd> &X = C.Fr->Fn->Extras[size_t(I.Extra)];
  const bool Store = X[0] == TStore;
  Fragment F;
  F.Kind = FragKind(X[1]);
  F.Type = ElemType(X[2]);
  F.Wmma = true;
  const bool RowMajor = X[3];
  const unsigned NRegs = X[5];
  F.K = X[6];
  const Opnd *R = &X[7];
  // The pointer and stride are the warp's (uniform): its first active
  // lane's.
  if (!C.Active)
    return;
  const unsigned L0 = ctz(C.Active);
  const uint64_t Base = addressOf(I, C.lanes(I.Addr)[L0]);
  bool Known = C.known(I.Addr) >> L0 & 1;
  uint64_t Stride = 16;
  if (X[4]) {
    Stride = uint32_t(C.lanes(X[7 + NRegs])[L0]);
    Known = Known && (C.known(X[7 + NRegs]) >> L0 & 1);
  }
  const unsigned EB = elemBytes(F.Type);
  // Lines: rows of a row-major matrix, columns of a column-major one (B's
  // rows are K).
  auto Address = [&](unsigned Row, unsigned Col) {
    const unsigned Line = RowMajor ? Row : Col, Pos = RowMajor ? Col : Row;
    return Base + (uint64_t(Line) * Stride + Pos) * EB;
  };
  // The data, element by element in the fragment's layout.
  const unsigned Elems = F.elements(), PerReg = F.perReg();
  std::vector<uint32_t> RegKnown(NRegs, C.Active);
  std::vector<uint64_t> Val(size_t(NRegs) * 32, 0);
  for (unsigned L = 0; L < 32; ++L) {
    if (!(C.Active >> L & 1))
      continue;
    for (unsigned E = 0; E < Elems; ++E) {
      unsigned Row, Col, Reg, Shift;
      F.at(L, E, Row, Col);
      slotOf(F, E, Reg, Shift);
      Place P;
      if (!reach(C, I, I.Space, Address(Row, Col), EB, L, Known, !Store, Store,
                 P))
        return;
      // wmma's A and B fragments hold their elements twice.
      const unsigned Copies = NRegs / (Elems / PerReg);
      for (unsigned Cp = 0; Cp < Copies; ++Cp) {
        const unsigned RR = Reg + Cp * (Elems / PerReg);
        if (Store) {
          if (Cp || !P.Data || !Known)
            continue;
          const uint64_t V = C.lanes(R[RR])[L] >> Shift;
          std::memcpy(P.Data, &V, EB);
          setPlaceKnown(P, EB,
                        (C.known(R[RR]) >> L & 1) && !(C.Taint >> L & 1));
        } else {
          uint64_t V = 0;
          if (P.Data)
            std::memcpy(&V, P.Data, EB);
          Val[size_t(RR) * 32 + L] |= V << Shift;
          if (!P.Data || !Known || !placeKnown(P, EB))
            RegKnown[RR] &= ~(1u << L);
        }
      }
    }
  }
  if (!Store)
    for (unsigned K = 0; K < NRegs; ++K) {
      uint64_t *D = C.lanes(R[K]);
      forLanes(C.Active, [&](unsigned L) { D[L] = Val[size_t(K) * 32 + L]; });
      C.setKnown(R[K], RegKnown[K]);
    }
  if (Store && C.Taint && I.Space != MemSpace::Shared)
    C.L->Out.UncertainWrites = true;
  // The requests of ptxas's instructions.
  const Lowering W = lowering(F, RowMajor, I.Matrix);
  for (unsigned Q = 0; Q < W.Requests; ++Q) {
    Requests Req;
    for (unsigned L = 0; L < 32; ++L) {
      if (!(C.Active >> L & 1))
        continue;
      unsigned Line, Pos;
      W.at(Q, L, Line, Pos);
      const uint64_t A = Base + (uint64_t(Line) * Stride + Pos) * EB;
      Req.add(resolve(C, I.Space, A, W.Size, L), L, Known);
    }
    Req.emit(C, I, W.Size);
  }
}

//===----------------------------------------------------------------------===//
// wmma.mma, mma
//===----------------------------------------------------------------------===//

/// Operand list: op, M, N, K, wmma, then for D, A, B, C: type and register
/// count, then the registers of D, A, B, C.
void mmaH(Ctx &C, const XInstr &I) {
  const std::vector<Opnd> &X = C.Fr->Fn->Extras[size_t(I.Extra)];
  const unsigned M = X[1], N = X[2], K = X[3];
  const bool Wmma = X[4];
  Fragment Fr[4];
  unsigned Count[4];
  const FragKind Kinds[4] = {FragC, FragA, FragB, FragC};
  size_t Next = 13;
  const Opnd *Reg[4];
  for (unsigned O = 0; O < 4; ++O) {
    Fr[O].Kind = Kinds[O];
    Fr[O].Type = ElemType(X[5 + 2 * O]);
    Fr[O].M = M, Fr[O].N = N, Fr[O].K = K;
    Fr[O].Wmma = Wmma;
    Count[O] = X[6 + 2 * O];
    Reg[O] = &X[Next];
    Next += Count[O];
  }
  // The whole matrices, from every lane's fragments.
  std::vector<double> A(M * K), B(K * N), Acc(M * N);
  bool Known = C.Active == ~0u;
  auto Gather = [&](unsigned O, std::vector<double> &Into, unsigned Cols) {
    const Fragment &F = Fr[O];
    for (unsigned L = 0; L < 32; ++L)
      for (unsigned E = 0; E < F.elements(); ++E) {
        unsigned Row, Col, R, Shift;
        F.at(L, E, Row, Col);
        slotOf(F, E, R, Shift);
        const Opnd Op = Reg[O][R];
        Known = Known && (C.known(Op) >> L & 1);
        Into[Row * Cols + Col] = toDouble(F.Type, C.lanes(Op)[L] >> Shift);
      }
  };
  Gather(1, A, K);
  Gather(2, B, N);
  Gather(3, Acc, N);
  // D = A B + C, each sum exact and rounded once.
  const Fragment &D = Fr[0];
  std::vector<uint64_t> Out(size_t(Count[0]) * 32, 0);
  for (unsigned L = 0; L < 32; ++L)
    for (unsigned E = 0; E < D.elements(); ++E) {
      unsigned Row, Col, R, Shift;
      D.at(L, E, Row, Col);
      slotOf(D, E, R, Shift);
      long double Sum = Acc[Row * N + Col];
      for (unsigned J = 0; J < K; ++J)
        Sum += (long double)A[Row * K + J] * B[J * N + Col];
      Out[size_t(R) * 32 + L] |= fromDouble(D.Type, double(Sum)) << Shift;
    }
  for (unsigned R = 0; R < Count[0]; ++R) {
    uint64_t *V = C.lanes(Reg[0][R]);
    forLanes(C.Active, [&](unsigned L) { V[L] = Out[size_t(R) * 32 + L]; });
    C.setKnown(Reg[0][R], Known ? ~0u : 0);
  }
}

bool elemType(const std::string &S, ElemType &T) {
  if (S == "f16")
    T = EF16;
  else if (S == "bf16")
    T = EBF16;
  else if (S == "f32")
    T = EF32;
  else if (S == "tf32")
    T = ETF32;
  else if (S == "f64")
    T = EF64;
  else
    return false;
  return true;
}

/// The registers of a {..} operand (or one register).
std::vector<const ptx::Operand *> regsOf(const ptx::Operand &O) {
  std::vector<const ptx::Operand *> R;
  if (O.Kind == ptx::Operand::Vector)
    for (const ptx::Operand &E : O.Elems)
      R.push_back(&E);
  else
    R.push_back(&O);
  return R;
}

bool decodeMatrix(Decoder &D, const ptx::Instr &I, XInstr &X) {
  const bool Store = I.Op == "stmatrix";
  unsigned Count = 0;
  for (const char *N : {"x1", "x2", "x4"})
    if (I.has(N))
      Count = unsigned(N[1] - '0');
  if (!I.has("m8n8") || !I.has("b16") || !Count || I.Ops.size() != 2) {
    D.unsupported(X, I.Op + " of this shape or type");
    return true;
  }
  if (!D.address(I.Ops[Store ? 0 : 1], X))
    return true;
  const auto Regs = regsOf(I.Ops[Store ? 1 : 0]);
  if (Regs.size() != Count) {
    D.unsupported(X, I.Op + " with the wrong number of registers");
    return true;
  }
  std::vector<Opnd> L = {Store ? TStmatrix : TLdmatrix, Count,
                         uint32_t(I.has("trans"))};
  for (const ptx::Operand *R : Regs)
    L.push_back(Store ? D.src(*R, Ty::B32) : D.dst(*R));
  X.Extra = D.extra(std::move(L));
  X.Space = Decoder::space(I);
  X.Mem = Store ? MemOp::Store : MemOp::Load;
  X.Width = 16;
  X.Matrix = true;
  X.Fn = matrixH;
  return true;
}

bool decodeWmmaMemory(Decoder &D, const ptx::Instr &I, XInstr &X) {
  const bool Store = I.has("store");
  FragKind Kind = FragC;
  if (I.has("a"))
    Kind = FragA;
  else if (I.has("b"))
    Kind = FragB;
  ElemType T;
  // m16n16k16 with f16 or bf16 inputs; m16n16k8 with tf32 inputs.
  const bool K8 = I.has("m16n16k8");
  if (!(I.has("m16n16k16") || K8) || !elemType(I.Mods.back(), T) ||
      (Kind != FragC && !K8 && T != EF16 && T != EBF16) ||
      (Kind != FragC && K8 && T != ETF32) ||
      (Kind == FragC && T != EF32 && (K8 || T != EF16))) {
    D.unsupported(X, "wmma." + std::string(Store ? "store" : "load") +
                         " of this shape or type (m16n16k16 with f16 or "
                         "bf16 inputs and m16n16k8 with tf32 inputs run)");
    return true;
  }
  const size_t AddrAt = Store ? 0 : 1, RegsAt = Store ? 1 : 0;
  if (I.Ops.size() < 2 || !D.address(I.Ops[AddrAt], X))
    return true;
  const auto Regs = regsOf(I.Ops[RegsAt]);
  Fragment F;
  F.Kind = Kind;
  F.Type = T;
  F.Wmma = true;
  F.K = K8 ? 8 : 16;
  // f16 and bf16 A and B fragments hold each element twice.
  const unsigned Want =
      F.elements() / F.perReg() * (Kind == FragC || K8 ? 1 : 2);
  if (Regs.size() != Want) {
    D.unsupported(X, "a wmma fragment of " + std::to_string(Regs.size()) +
                         " registers (" + std::to_string(Want) + " expected)");
    return true;
  }
  const bool Stride = I.Ops.size() > 2;
  std::vector<Opnd> L = {
      Store ? TStore : TLoad, Kind, T, uint32_t(I.has("row")), uint32_t(Stride),
      uint32_t(Regs.size()),  F.K};
  for (const ptx::Operand *R : Regs)
    L.push_back(Store ? D.src(*R, Ty::B32) : D.dst(*R));
  if (Stride)
    L.push_back(D.src(I.Ops[2], Ty::U32));
  X.Extra = D.extra(std::move(L));
  X.Space = Decoder::space(I);
  X.Mem = Store ? MemOp::Store : MemOp::Load;
  const Lowering W = lowering(F, I.has("row"), X.Space == MemSpace::Shared);
  X.Width = uint8_t(W.Size);
  X.Matrix = W.Matrix;
  X.Fn = wmmaMemH;
  return true;
}

bool decodeMma(Decoder &D, const ptx::Instr &I, XInstr &X) {
  const bool Wmma = I.Op == "wmma";
  unsigned M = 0, N = 0, K = 0;
  for (const std::string &S : I.Mods)
    if (S[0] == 'm' && std::sscanf(S.c_str(), "m%un%uk%u", &M, &N, &K) == 3)
      break;
  std::vector<ElemType> Types;
  for (const std::string &S : I.Mods) {
    ElemType T;
    if (elemType(S, T))
      Types.push_back(T);
  }
  // wmma.mma's f16 form names only D and C: A and B are f16.
  if (Wmma && Types.size() == 2)
    Types = {Types[0], EF16, EF16, Types[1]};
  // The shapes and types whose layouts are implemented: D, A, B, C.
  auto Half = [](ElemType T) { return T == EF16 || T == EBF16; };
  auto Acc = [&](ElemType T, ElemType In) {
    return T == EF32 || (T == EF16 && In == EF16);
  };
  const bool Tf32 = Types.size() == 4 && Types[1] == ETF32 &&
                    Types[2] == ETF32 && Types[0] == EF32 && Types[3] == EF32;
  const bool Shapes =
      Types.size() == 4 &&
      ((Wmma && M == 16 && N == 16 && K == 8 && Tf32) ||
       ((Wmma && M == 16 && N == 16 && K == 16) ||
        (!Wmma && M == 16 && N == 8 && (K == 16 || K == 8))) &&
           Half(Types[1]) && Types[2] == Types[1] && Acc(Types[0], Types[1]) &&
           Acc(Types[3], Types[1]) ||
       (!Wmma && M == 16 && N == 8 && (K == 8 || K == 4) && Types[1] == ETF32 &&
        Types[2] == ETF32 && Types[0] == EF32 && Types[3] == EF32) ||
       (!Wmma && M == 8 && N == 8 && K == 4 && Types[0] == EF64 &&
        Types[1] == EF64 && Types[2] == EF64 && Types[3] == EF64));
  // wmma's fragments hold elements by their place in the matrix, as the
  // loads put them: its layouts (row.row, col.col...) change nothing here.
  if (!Shapes || I.Ops.size() != 4 ||
      (!Wmma && (!I.has("row") || !I.has("col"))) || I.has("sp") ||
      I.has("satfinite")) {
    D.unsupported(X, I.Op +
                         " of this shape, layout or type (m16n16k16, "
                         "m16n16k8, m16n8k16, m16n8k8, m16n8k4 and m8n8k4 with "
                         "f16, bf16, tf32 or f64 run)");
    return true;
  }
  std::vector<Opnd> L = {TMma, M, N, K, uint32_t(Wmma)};
  std::vector<std::vector<const ptx::Operand *>> Regs;
  for (unsigned O = 0; O < 4; ++O) {
    Regs.push_back(regsOf(I.Ops[O]));
    L.push_back(Types[O]);
    L.push_back(uint32_t(Regs.back().size()));
  }
  // Each fragment must have the registers its layout reads.
  const FragKind Kinds[4] = {FragC, FragA, FragB, FragC};
  for (unsigned O = 0; O < 4; ++O) {
    Fragment F;
    F.Kind = Kinds[O];
    F.Type = Types[O];
    F.M = M, F.N = N, F.K = K;
    F.Wmma = Wmma;
    const unsigned Need = (F.elements() + F.perReg() - 1) / F.perReg() *
                          (Wmma && O && O < 3 && !Tf32 ? 2 : 1);
    if (Regs[O].size() != Need) {
      D.unsupported(X, I.Op + " with " + std::to_string(Regs[O].size()) +
                           " registers for an operand of " +
                           std::to_string(Need));
      return true;
    }
  }
  for (unsigned O = 0; O < 4; ++O)
    for (const ptx::Operand *R : Regs[O])
      L.push_back(O == 0 ? D.dst(*R) : D.src(*R, Ty::B64));
  X.Extra = D.extra(std::move(L));
  X.Fn = mmaH;
  return true;
}

//===----------------------------------------------------------------------===//
// wgmma (Hopper's warpgroup matrix multiply)
//===----------------------------------------------------------------------===//

/// wgmma's input types.
enum WgType : uint32_t { WF16, WBF16, WTF32, WE4M3, WE5M2, WS8, WU8 };

unsigned wgBytes(WgType T) {
  return T == WTF32 ? 4 : T == WF16 || T == WBF16 ? 2 : 1;
}

double wgValue(WgType T, uint32_t B) {
  switch (T) {
  case WF16: // As mma's fragments read them.
    return toDouble(EF16, B);
  case WBF16:
    return toDouble(EBF16, B);
  case WTF32:
    return toDouble(ETF32, B);
  case WE5M2:
    return fromNarrow(B & 0xff, 5, 2);
  case WE4M3: { // No infinities: only S.1111.111 is NaN.
    if ((B & 0x7f) == 0x7f)
      return NAN;
    const int Exp = int(B >> 3 & 15), Man = int(B & 7);
    const double V = Exp ? std::ldexp(double(Man | 8), Exp - 10)
                         : std::ldexp(double(Man), -9);
    return B & 0x80 ? -V : V;
  }
  case WS8:
    return double(int8_t(B));
  case WU8:
    return double(uint8_t(B));
  }
  return 0;
}

/// Byte offset of element (Row, K) of a descriptor's matrix before the
/// swizzle (Row is M or N): CUTLASS's canonical layouts
/// (cute/arch/mma_sm90_desc.hpp), which an H200 follows
/// (tests/data/programs/hopper/tma_wgmma.cu).
uint64_t wgOffset(bool MnMajor, unsigned Swizzle, uint64_t Lbo, uint64_t Sbo,
                  unsigned E, unsigned Row, unsigned K) {
  const unsigned T = 16 / E;
  if (!MnMajor)
    return Swizzle
               ? (Row % 8) * Swizzle + (Row / 8) * Sbo + K * E
               : (Row % 8) * 16 + (Row / 8) * Sbo + (K % T) * E + (K / T) * Lbo;
  if (!Swizzle)
    return (Row % T) * E + (Row / T) * Sbo + (K % 8) * 16 + (K / 8) * Lbo;
  const unsigned PerAtom = Swizzle / E;
  return (Row % PerAtom) * E + (Row / PerAtom) * Lbo + (K % 8) * Swizzle +
         (K / 8) * Sbo;
}

/// Operand list: N, K, input type, D's type (0 f32, 1 f16, 2 s32), A from
/// registers, MN-major A, MN-major B, scale A, scale B (1 or -1 as +1/-1
/// offsets: 0 negates), satfinite, D's register count; then D's registers,
/// A's (4 registers, or its descriptor), B's descriptor, scale-d.
///
/// A wgmma is one operation of the warpgroup's four warps (.sync.aligned):
/// the first warp to issue it reads the shared-memory operands, A's 64
/// rows and B, as they are then, and each warp computes its own 16 rows
/// of D from that copy when it issues it. (A warp that runs ahead, past
/// wgmma.wait_group, may overwrite the operands with its next TMA copy, as
/// on a GPU once the warpgroup's operation has read them.) Nothing reads D
/// before wgmma.wait_group.
void wgmmaH(Ctx &C, const XInstr &I) {
  const std::vector<Opnd> &X = C.Fr->Fn->Extras[size_t(I.Extra)];
  const unsigned N = X[0], K = X[1];
  const WgType T = WgType(X[2]);
  const unsigned DType = X[3];
  const bool RegA = X[4], MnA = X[5], MnB = X[6];
  const double SA = X[7] ? 1 : -1, SB = X[8] ? 1 : -1;
  const bool Sat = X[9];
  const unsigned NR = X[10];
  const Opnd *DR = &X[11];
  const Opnd *AR = DR + NR;
  const Opnd BD = AR[RegA ? 4 : 1], ScaleD = AR[RegA ? 5 : 2];
  if (!C.Active)
    return;
  const unsigned L0 = ctz(C.Active), E = wgBytes(T);
  bool Known = C.Active == ~0u;
  // Scale-d: a predicate (or an immediate) of the warp.
  const bool Accumulate = fileOf(ScaleD) == FPred ? (C.pred(ScaleD) >> L0 & 1)
                                                  : (C.lanes(ScaleD)[L0] != 0);
  Known = Known && (fileOf(ScaleD) == FPred ? (C.predKnown(ScaleD) >> L0 & 1)
                                            : (C.known(ScaleD) >> L0 & 1));
  // The warpgroup's operation: its operands, read by its first warp.
  const auto Key = std::make_pair(C.W->Id / 4, C.W->Wgmmas++);
  auto [Op, First] = C.B->Wgmmas.try_emplace(Key);
  WgmmaOperands &Ops = Op->second;
  auto &Lines =
      C.L->Out.Wgmma[{C.Fr->Fn, uint32_t(&I - C.Fr->Fn->Code.data())}];
  ++Lines.first;
  if (First) // Rows of K x E = 32 bytes: A's 64 in shared memory, B's N.
    Lines.second += ((RegA ? 0 : 64ull * K * E) + uint64_t(N) * K * E) / 128;
  if (First) {
    struct Desc {
      uint64_t Start = 0, Lbo = 0, Sbo = 0;
      unsigned Swizzle = 0;
    };
    auto Decode = [&](Opnd O, Desc &D) {
      const uint64_t V = C.lanes(O)[L0];
      Ops.Known = Ops.Known && (C.known(O) >> L0 & 1);
      D.Start = (V & 0x3fff) << 4;
      D.Lbo = (V >> 16 & 0x3fff) << 4;
      D.Sbo = (V >> 32 & 0x3fff) << 4;
      const unsigned Mode = unsigned(V >> 62);
      D.Swizzle = Mode == 1 ? 128 : Mode == 2 ? 64 : Mode == 3 ? 32 : 0;
      return (V >> 49 & 7) == 0;
    };
    const std::vector<uint8_t> &Sh = C.B->Shared;
    auto Read = [&](const Desc &D, bool Mn, unsigned Row, unsigned Kk) {
      const uint64_t A = swizzleAddress(
          D.Start + wgOffset(Mn, D.Swizzle, D.Lbo, D.Sbo, E, Row, Kk),
          D.Swizzle);
      uint32_t B = 0;
      if (A + E > Sh.size()) { // Beyond the block's shared memory.
        Ops.Known = false;
        return 0.0;
      }
      std::memcpy(&B, Sh.data() + A, E);
      Ops.Known = Ops.Known && C.B->SharedKnown.all(A, E);
      return wgValue(T, B);
    };
    Desc DA, DB;
    if ((!RegA && !Decode(AR[0], DA)) || !Decode(BD, DB)) {
      C.B->Wgmmas.erase(Op);
      C.L->fail(I, "a wgmma descriptor with a matrix base offset (not "
                   "executed)");
      return;
    }
    if (!RegA) {
      Ops.A.resize(64 * K);
      for (unsigned R = 0; R < 64; ++R)
        for (unsigned Kk = 0; Kk < K; ++Kk)
          Ops.A[R * K + Kk] = Read(DA, MnA, R, Kk);
    }
    Ops.B.resize(size_t(K) * N);
    for (unsigned Col = 0; Col < N; ++Col)
      for (unsigned Kk = 0; Kk < K; ++Kk)
        Ops.B[Kk * N + Col] = Read(DB, MnB, Col, Kk);
  }
  Known = Known && Ops.Known;
  // This warp's 16 rows of A.
  const unsigned Row0 = 16 * (C.W->Id % 4);
  std::vector<double> A(16 * K);
  if (RegA) {
    Fragment F; // The registers hold A as mma.m16n8k16's A fragment.
    F.Kind = FragA;
    F.Type = T == WBF16 ? EBF16 : EF16;
    for (unsigned L = 0; L < 32; ++L)
      for (unsigned El = 0; El < 8; ++El) {
        unsigned Row, Col, R, Shift;
        F.at(L, El, Row, Col);
        slotOf(F, El, R, Shift);
        Known = Known && (C.known(AR[R]) >> L & 1);
        A[Row * K + Col] =
            wgValue(T, uint32_t(C.lanes(AR[R])[L] >> Shift) & 0xffff);
      }
  } else {
    std::copy(Ops.A.begin() + Row0 * K, Ops.A.begin() + (Row0 + 16) * K,
              A.begin());
  }
  const std::vector<double> &B = Ops.B;
  // D's element J of lane L: row L/4 + 8 ((J/2)%2), column
  // 8 (J/4) + 2 (L%4) + J%2; f16 D holds two per register.
  const bool Half = DType == 1;
  std::vector<uint64_t> Out(size_t(NR) * 32, 0);
  uint32_t KnownLanes = ~0u;
  for (unsigned L = 0; L < 32; ++L)
    for (unsigned J = 0; J < N / 2; ++J) {
      const unsigned Row = L / 4 + 8 * ((J / 2) % 2),
                     Col = 8 * (J / 4) + 2 * (L % 4) + J % 2;
      const unsigned R = Half ? J / 2 : J, Shift = Half ? 16 * (J % 2) : 0;
      const uint64_t Old = C.lanes(DR[R])[L] >> Shift;
      if (Accumulate && !(C.known(DR[R]) >> L & 1))
        KnownLanes &= ~(1u << L);
      uint64_t Bits;
      if (DType == 2) { // s32: exact, wrapping (or saturating).
        int64_t Sum = Accumulate ? int64_t(int32_t(Old)) : 0;
        for (unsigned Kk = 0; Kk < K; ++Kk)
          Sum += int64_t(A[Row * K + Kk]) * int64_t(B[Kk * N + Col]);
        if (Sat)
          Sum = std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, Sum));
        Bits = uint32_t(int32_t(uint32_t(Sum)));
      } else {
        long double Sum = Accumulate
                              ? (Half ? halfToDouble(uint32_t(Old & 0xffff))
                                      : double(asFloat(Old)))
                              : 0.0L;
        for (unsigned Kk = 0; Kk < K; ++Kk)
          Sum += (long double)(SA * A[Row * K + Kk]) * (SB * B[Kk * N + Col]);
        Bits = Half ? doubleToHalf(double(Sum)) : bitsOf(float(Sum));
      }
      Out[size_t(R) * 32 + L] |= (Bits & (Half ? 0xffff : 0xffffffff)) << Shift;
    }
  for (unsigned R = 0; R < NR; ++R) {
    uint64_t *V = C.lanes(DR[R]);
    forLanes(C.Active, [&](unsigned L) { V[L] = Out[size_t(R) * 32 + L]; });
    C.setKnown(DR[R], Known ? KnownLanes : 0);
  }
  // The warpgroup's warps that exist (a last group may have fewer).
  const unsigned Group = unsigned(
      std::min<size_t>(4, C.B->Warps.size() - size_t(C.W->Id / 4) * 4));
  if (++Ops.Taken >= Group)
    C.B->Wgmmas.erase(Op);
}

bool decodeWgmma(Decoder &D, const ptx::Instr &I, XInstr &X) {
  if (I.has("fence") || I.has("commit_group") || I.has("wait_group")) {
    X.Fn = nopHandler; // Each wgmma completes as it is issued.
    return true;
  }
  unsigned M = 0, N = 0, K = 0;
  for (const std::string &S : I.Mods)
    if (S[0] == 'm' && std::sscanf(S.c_str(), "m%un%uk%u", &M, &N, &K) == 3)
      break;
  // The types: D's, then A's and B's (the last three type modifiers).
  std::vector<std::string> Types;
  for (const std::string &S : I.Mods)
    if (S == "f32" || S == "f16" || S == "bf16" || S == "tf32" || S == "e4m3" ||
        S == "e5m2" || S == "s32" || S == "s8" || S == "u8")
      Types.push_back(S);
  auto InType = [](const std::string &S, WgType &T) {
    static const std::pair<const char *, WgType> Names[] = {
        {"f16", WF16},   {"bf16", WBF16}, {"tf32", WTF32}, {"e4m3", WE4M3},
        {"e5m2", WE5M2}, {"s8", WS8},     {"u8", WU8}};
    for (const auto &[Name, V] : Names)
      if (S == Name)
        return T = V, true;
    return false;
  };
  WgType TA, TB;
  if (!I.has("mma_async") || M != 64 || !N || N > 256 || N % 8 ||
      Types.size() != 3 || !InType(Types[1], TA) || !InType(Types[2], TB) ||
      TA != TB || K * wgBytes(TA) != 32 || I.has("sp") || I.Ops.size() < 4) {
    D.unsupported(X, "this form of wgmma (m64nNk* with f16, bf16, tf32, "
                     "e4m3, e5m2, s8 or u8 inputs, both of one type, runs; "
                     "mixed and sparse do not)");
    return true;
  }
  const unsigned DType = Types[0] == "f32" ? 0 : Types[0] == "f16" ? 1 : 2;
  const bool Int = DType == 2, Wide = wgBytes(TA) == 2;
  const auto DRegs = regsOf(I.Ops[0]);
  const auto ARegs = regsOf(I.Ops[1]);
  const bool RegA = ARegs.size() > 1;
  const unsigned NR = DType == 1 ? N / 4 : N / 2;
  // Immediates after scale-d: scale-a, scale-b, then the transposes
  // (16-bit inputs; A's only from shared memory).
  const size_t Imm = 4;
  const size_t Want = Int ? 4 : Wide ? (RegA ? 7 : 8) : 6;
  if (DRegs.size() != NR || (RegA && (ARegs.size() != 4 || !Wide)) ||
      I.Ops.size() != Want) {
    D.unsupported(X, "a wgmma of this operand shape (A from registers runs "
                     "for f16 and bf16)");
    return true;
  }
  auto ImmAt = [&](size_t At) {
    return At < I.Ops.size() && I.Ops[At].Kind == ptx::Operand::Imm
               ? I.Ops[At].Value
               : 0;
  };
  const int64_t ScaleA = Int ? 1 : ImmAt(Imm),
                ScaleB = Int ? 1 : ImmAt(Imm + 1);
  const bool MnA = Wide && !RegA && ImmAt(Imm + 2),
             MnB = Wide && ImmAt(RegA ? Imm + 2 : Imm + 3);
  std::vector<Opnd> L = {N,
                         K,
                         TA,
                         DType,
                         RegA,
                         MnA,
                         MnB,
                         uint32_t(ScaleA != -1),
                         uint32_t(ScaleB != -1),
                         uint32_t(I.has("satfinite")),
                         NR};
  for (const ptx::Operand *R : DRegs)
    L.push_back(D.dst(*R));
  for (const ptx::Operand *R : ARegs)
    L.push_back(D.src(*R, RegA ? Ty::B32 : Ty::B64));
  L.push_back(D.src(I.Ops[2], Ty::B64));
  const ptx::Operand &SD = I.Ops[3];
  L.push_back(D.src(SD, Ty::Pred));
  X.Extra = D.extra(std::move(L));
  X.Fn = wgmmaH;
  return true;
}

} // namespace

bool decodeTensor(Decoder &D, const ptx::Instr &I, XInstr &X) {
  if (I.Op == "ldmatrix" || I.Op == "stmatrix")
    return decodeMatrix(D, I, X);
  if (I.Op == "movmatrix") {
    if (!I.has("trans") || !I.has("m8n8") || I.Ops.size() != 2) {
      D.unsupported(X, "movmatrix of this form");
      return true;
    }
    X.D[0] = D.dst(I.Ops[0]);
    X.S[0] = D.src(I.Ops[1], Ty::B32);
    X.ND = X.NS = 1;
    X.Fn = movmatrixH;
    return true;
  }
  if (I.Op == "wmma" && (I.has("load") || I.has("store")))
    return decodeWmmaMemory(D, I, X);
  if ((I.Op == "wmma" && I.has("mma")) || I.Op == "mma")
    return decodeMma(D, I, X);
  if (I.Op == "wgmma")
    return decodeWgmma(D, I, X);
  if (I.Op == "tcgen05") {
    D.unsupported(X, "tcgen05 (Blackwell's tensor memory is not executed)");
    return true;
  }
  return false;
}

} // namespace gmem::exec
