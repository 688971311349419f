//===- build_model.h - Small helpers to write kernel models by hand -------===//
#ifndef GMEM_TESTS_BUILD_MODEL_H
#define GMEM_TESTS_BUILD_MODEL_H

#include "model.h"

namespace gmem::test {

constexpr IntType U32{32, false}, I32{32, true}, U64{64, false}, I64{64, true},
    Bool{1, false};

inline ExprPtr c(int64_t V, IntType T = I32) { return makeConst(V, T); }
inline ExprPtr tx() { return makeBuiltin(Builtin::ThreadIdxX); }
inline ExprPtr ty() { return makeBuiltin(Builtin::ThreadIdxY); }
inline ExprPtr bx() { return makeBuiltin(Builtin::BlockIdxX); }
inline ExprPtr by() { return makeBuiltin(Builtin::BlockIdxY); }
inline ExprPtr bdx() { return makeBuiltin(Builtin::BlockDimX); }
inline ExprPtr bdy() { return makeBuiltin(Builtin::BlockDimY); }
inline ExprPtr gdx() { return makeBuiltin(Builtin::GridDimX); }
inline ExprPtr bin(Op K, ExprPtr L, ExprPtr R) {
  bool Cmp = K >= Op::Lt && K <= Op::LOr;
  return makeBinary(K, L, R, Cmp ? Bool : L->Type);
}
inline ExprPtr add(ExprPtr L, ExprPtr R) { return bin(Op::Add, L, R); }
inline ExprPtr mul(ExprPtr L, ExprPtr R) { return bin(Op::Mul, L, R); }
inline ExprPtr cast(ExprPtr E, IntType T) { return makeCast(E, T); }

/// Byte address of Param[Index]-based array element E of Size bytes, as
/// pointer arithmetic (as the analyzer writes `p[i]`).
inline ExprPtr elem(int Param, ExprPtr Index, unsigned Size) {
  return makePointerArith(
      Op::Add, makeParam(Param, U64),
      makePointerArith(Op::Mul, cast(Index, U64), c(Size, U64)));
}

inline Stmt assign(int Slot, ExprPtr V) {
  Stmt S;
  S.Kind = StmtKind::Assign;
  S.Slot = Slot;
  S.Value = V;
  return S;
}

inline Stmt accessStmt(int Id) {
  Stmt S;
  S.Kind = StmtKind::Access;
  S.AccessId = Id;
  return S;
}

inline Stmt ifStmt(ExprPtr C, std::vector<Stmt> Then,
                   std::vector<Stmt> Else = {}) {
  Stmt S;
  S.Kind = StmtKind::If;
  S.Cond = C;
  S.Then = std::move(Then);
  S.Else = std::move(Else);
  return S;
}

inline Stmt loop(ExprPtr C, std::vector<Stmt> Body, std::vector<Stmt> Step) {
  Stmt S;
  S.Kind = StmtKind::Loop;
  S.Cond = C;
  S.Body = std::move(Body);
  S.Step = std::move(Step);
  return S;
}

inline Stmt simple(StmtKind K) {
  Stmt S;
  S.Kind = K;
  return S;
}

/// Adds an access and returns its statement.
inline Stmt addAccess(Kernel &K, Space Sp, AccessKind Kind, unsigned Size,
                      ExprPtr Address, std::string Text, int Shared = -1) {
  Access A;
  A.Id = static_cast<int>(K.Accesses.size());
  A.Sp = Sp;
  A.Kind = Kind;
  A.Size = Size;
  A.Address = Address;
  A.Text = std::move(Text);
  A.SharedArray = Shared;
  A.Loc = {"test.cu", unsigned(10 + A.Id), 1};
  K.Accesses.push_back(A);
  return accessStmt(A.Id);
}

inline Param pointerParam(std::string Name, unsigned Size) {
  Param P;
  P.Name = std::move(Name);
  P.Kind = ParamKind::Pointer;
  P.Type = U64;
  P.PointeeSize = Size;
  return P;
}

inline Param intParam(std::string Name, IntType T = I32) {
  Param P;
  P.Name = std::move(Name);
  P.Kind = ParamKind::Int;
  P.Type = T;
  return P;
}

inline ArgValue ptrArg(std::string Alloc, uint64_t Offset = 0) {
  ArgValue A;
  A.Kind = ArgValue::Pointer;
  A.Allocation = std::move(Alloc);
  A.AlignOffset = Offset;
  return A;
}

inline ArgValue intArg(int64_t V) {
  ArgValue A;
  A.Kind = ArgValue::Int;
  A.IntValue = V;
  return A;
}

/// A launch of kernel Name (1-D grid and block unless given in full).
inline Launch launchOf(std::string Name, Dim3 Grid, Dim3 Block,
                       std::vector<ArgValue> Args = {}) {
  Launch L;
  L.Kernel = std::move(Name);
  L.Grid = Grid;
  L.Block = Block;
  L.Args = std::move(Args);
  return L;
}

} // namespace gmem::test

#endif
