//===- select_merge.cpp - Loads of exclusive branches made one load -------===//
#include "select_merge.h"

#include <functional>
#include <map>
#include <set>

namespace gmem {

namespace {

const IntType BoolT{1, false};
const IntType AddrT{64, false};

/// One step from a statement into a part of it.
struct Step {
  const Stmt *S = nullptr;
  int Part = 0; ///< If: 0 Then, 1 Else. Otherwise 2 (loop or call body).
};
using Path = std::vector<Step>;

/// Every access's path from the kernel body down to its statement.
std::map<int, Path> paths(const Kernel &K) {
  std::map<int, Path> Out;
  Path Cur;
  std::function<void(const std::vector<Stmt> &)> Walk =
      [&](const std::vector<Stmt> &L) {
        for (const Stmt &S : L) {
          if (S.Kind == StmtKind::Access)
            Out[S.AccessId] = Cur;
          int Part = 0;
          for (const std::vector<Stmt> *Sub :
               {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step}) {
            Cur.push_back({&S, S.Kind == StmtKind::If ? Part : 2});
            Walk(*Sub);
            Cur.pop_back();
            ++Part;
          }
        }
      };
  Walk(K.Body);
  return Out;
}

/// Where the paths of two exclusive accesses part: the index of the If in
/// whose two branches they lie, or -1 when both may run.
int partIndex(const Path &A, const Path &B) {
  for (size_t I = 0; I < A.size() && I < B.size(); ++I) {
    if (A[I].S != B[I].S)
      return -1; // Two statements of one list: both may run.
    if (A[I].Part != B[I].Part)
      return A[I].S->Kind == StmtKind::If && A[I].Part < 2 && B[I].Part < 2
                 ? int(I)
                 : -1;
  }
  return -1;
}

bool readsAny(const Expr &E, const std::set<int> &Slots) {
  if (E.Kind == Op::Var && Slots.count(E.Index))
    return true;
  for (const ExprPtr &O : E.Ops)
    if (readsAny(*O, Slots))
      return true;
  return false;
}

/// Slots assigned under L, and whether L holds control flow other than
/// plain Ifs.
void scan(const std::vector<Stmt> &L, std::set<int> &Assigned, bool &Flow) {
  for (const Stmt &S : L) {
    if (S.Kind == StmtKind::Assign)
      Assigned.insert(S.Slot);
    if (S.Kind == StmtKind::Loop || S.Kind == StmtKind::Call ||
        S.Kind == StmtKind::Return || S.Kind == StmtKind::Break ||
        S.Kind == StmtKind::Continue)
      Flow = true;
    for (const std::vector<Stmt> *Sub :
         {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      scan(*Sub, Assigned, Flow);
  }
}

/// The list holding Target, found from L down.
std::vector<Stmt> *listOf(std::vector<Stmt> &L, const Stmt *Target) {
  for (Stmt &S : L) {
    if (&S == Target)
      return &L;
    for (std::vector<Stmt> *Sub :
         {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      if (std::vector<Stmt> *F = listOf(*Sub, Target))
        return F;
  }
  return nullptr;
}

} // namespace

std::vector<std::vector<int>> exclusiveGroups(const Kernel &K,
                                              const std::vector<int> &Ids) {
  std::map<int, Path> P = paths(K);
  std::vector<std::vector<int>> Groups;
  std::set<int> Used;
  for (size_t I = 0; I < Ids.size(); ++I) {
    if (Used.count(Ids[I]) || !P.count(Ids[I]))
      continue;
    const Access &First = K.Accesses[Ids[I]];
    std::vector<int> G = {Ids[I]};
    for (size_t J = I + 1; J < Ids.size(); ++J) {
      const Access &B = K.Accesses[Ids[J]];
      if (Used.count(Ids[J]) || !P.count(Ids[J]) || B.Sp != First.Sp ||
          B.Kind != First.Kind || B.Size != First.Size)
        continue;
      bool Exclusive = true;
      for (int M : G)
        Exclusive = Exclusive && partIndex(P[M], P[Ids[J]]) >= 0;
      if (Exclusive)
        G.push_back(Ids[J]);
    }
    if (G.size() < 2)
      continue;
    Used.insert(G.begin(), G.end());
    Groups.push_back(G);
  }
  return Groups;
}

std::optional<int> mergeSelected(Kernel &K, const std::vector<int> &Group) {
  if (Group.size() < 2)
    return std::nullopt;
  std::map<int, Path> P = paths(K);
  // The If where the first two part; every member parts from the others
  // at or below it.
  size_t Root = ~size_t(0);
  for (size_t I = 0; I < Group.size(); ++I)
    for (size_t J = I + 1; J < Group.size(); ++J) {
      int At = partIndex(P[Group[I]], P[Group[J]]);
      if (At < 0)
        return std::nullopt;
      Root = std::min(Root, size_t(At));
    }
  const Stmt *RootIf = P[Group[0]][Root].S;
  std::set<int> Assigned;
  bool Flow = false;
  scan(RootIf->Then, Assigned, Flow);
  scan(RootIf->Else, Assigned, Flow);
  if (Flow)
    return std::nullopt;
  // Each member's condition, from the root down, and its address: all
  // evaluated before the If.
  std::vector<ExprPtr> Conds, Addrs;
  for (int Id : Group) {
    const Access &A = K.Accesses[Id];
    if (!A.Address || A.UnknownReason || readsAny(*A.Address, Assigned))
      return std::nullopt;
    ExprPtr C;
    for (size_t I = Root; I < P[Id].size(); ++I) {
      const Step &St = P[Id][I];
      if (St.S->Kind != StmtKind::If || St.Part > 1 || !St.S->Cond ||
          readsAny(*St.S->Cond, Assigned))
        return std::nullopt;
      ExprPtr T = St.Part == 0 ? St.S->Cond
                               : makeUnary(Op::LNot, St.S->Cond, BoolT);
      C = C ? makeBinary(Op::LAnd, C, T, BoolT) : T;
    }
    Conds.push_back(C);
    Addrs.push_back(A.Address);
  }
  ExprPtr Addr = Addrs.back(), Union = Conds.back();
  for (size_t I = Group.size() - 1; I-- > 0;) {
    Addr = makeSelect(Conds[I], Addrs[I], Addr, AddrT);
    Union = makeBinary(Op::LOr, Conds[I], Union, BoolT);
  }

  const Access &First = K.Accesses[Group[0]];
  Access N;
  N.Id = int(K.Accesses.size());
  N.Sp = First.Sp;
  N.Kind = First.Kind;
  N.Size = First.Size;
  N.Address = Addr;
  N.Loc = First.Loc;
  N.SharedArray = First.SharedArray;
  N.Array = First.Array;
  for (size_t I = 0; I < Group.size(); ++I) {
    const Access &A = K.Accesses[Group[I]];
    N.Text += (I ? " | " : "") + A.Text;
    if (A.Array != First.Array && N.Array == First.Array)
      N.Array += "|" + A.Array;
    if (A.SharedArray != First.SharedArray)
      N.SharedArray = -1;
  }
  Stmt Guard;
  Guard.Kind = StmtKind::If;
  Guard.Loc = RootIf->Loc;
  Guard.Cond = Union;
  Stmt Do;
  Do.Kind = StmtKind::Access;
  Do.Loc = N.Loc;
  Do.AccessId = N.Id;
  Guard.Then.push_back(std::move(Do));
  std::vector<Stmt> *L = listOf(K.Body, RootIf);
  if (!L)
    return std::nullopt;
  // A load's value is used in the branches; a store's is what they chose.
  const bool Store = First.Kind == AccessKind::Store;
  L->insert(L->begin() + (RootIf - L->data()) + Store, std::move(Guard));
  for (int Id : Group) {
    K.Accesses[Id].Compiled.State = CompiledForm::Selected;
    K.Accesses[Id].Compiled.Leader = N.Id;
  }
  K.Accesses.push_back(std::move(N));
  return K.Accesses.back().Id;
}

} // namespace gmem
