//===- dead_loops.cpp - Loops that change no figure -----------------------===//
#include "dead_loops.h"

#include <cstdlib>
#include <vector>

namespace gmem {
namespace {

/// Bounds small enough that a 32-bit counter never wraps on its way.
constexpr int64_t SmallBound = int64_t(1) << 20;

void countReads(const Expr &E, std::vector<unsigned> &Reads) {
  if (E.Kind == Op::Var && E.Index >= 0 && size_t(E.Index) < Reads.size())
    ++Reads[size_t(E.Index)];
  for (const ExprPtr &O : E.Ops)
    if (O)
      countReads(*O, Reads);
}

void countReads(const std::vector<Stmt> &List, std::vector<unsigned> &Reads);

void countReads(const Stmt &S, std::vector<unsigned> &Reads) {
  if (S.Value)
    countReads(*S.Value, Reads);
  if (S.Cond)
    countReads(*S.Cond, Reads);
  countReads(S.Then, Reads);
  countReads(S.Else, Reads);
  countReads(S.CondPre, Reads);
  countReads(S.Body, Reads);
  countReads(S.Step, Reads);
}

void countReads(const std::vector<Stmt> &List, std::vector<unsigned> &Reads) {
  for (const Stmt &S : List)
    countReads(S, Reads);
}

bool quiet(const std::vector<Stmt> &List, std::vector<int> &Assigned);

/// Whether S only assigns, branches and loops (no access, call, break,
/// continue or return), collecting the slots it assigns.
bool quiet(const Stmt &S, std::vector<int> &Assigned) {
  switch (S.Kind) {
  case StmtKind::Assign:
    Assigned.push_back(S.Slot);
    return true;
  case StmtKind::If:
  case StmtKind::Loop:
    return quiet(S.Then, Assigned) && quiet(S.Else, Assigned) &&
           quiet(S.CondPre, Assigned) && quiet(S.Body, Assigned) &&
           quiet(S.Step, Assigned);
  default:
    return false;
  }
}

bool quiet(const std::vector<Stmt> &List, std::vector<int> &Assigned) {
  for (const Stmt &S : List)
    if (!quiet(S, Assigned))
      return false;
  return true;
}

/// E without casts to types of 32 bits or more (which keep the small
/// non-negative values a counting loop's counter takes).
const Expr &uncast(const Expr &E) {
  if (E.Kind == Op::Cast && E.Type.Bits >= 32 && E.Ops.size() == 1 && E.Ops[0])
    return uncast(*E.Ops[0]);
  return E;
}

bool isVar(const Expr &E, int Slot) {
  const Expr &U = uncast(E);
  return U.Kind == Op::Var && U.Index == Slot;
}

bool smallConst(const Expr &E, int64_t Lo, int64_t &V) {
  const Expr &U = uncast(E);
  V = U.Value;
  return U.Kind == Op::Const && U.Value >= Lo && U.Value <= SmallBound;
}

/// Whether Loop, right after Init, counts a 32-bit or wider slot from a
/// constant up to a small constant bound by a constant step: it ends.
bool counts(const Kernel &K, const Stmt *Init, const Stmt &Loop) {
  if (!Init || Init->Kind != StmtKind::Assign || !Init->Value ||
      !Loop.TestFirst || !Loop.CondPre.empty() || !Loop.Cond ||
      Loop.Step.size() != 1)
    return false;
  const int Slot = Init->Slot;
  int64_t V;
  if (Slot < 0 || size_t(Slot) >= K.Slots.size() ||
      K.Slots[size_t(Slot)].Type.Bits < 32 || !smallConst(*Init->Value, 0, V))
    return false;
  const Expr &C = uncast(*Loop.Cond);
  if ((C.Kind != Op::Lt && C.Kind != Op::Le) || C.Ops.size() != 2 ||
      !isVar(*C.Ops[0], Slot) || !smallConst(*C.Ops[1], 0, V))
    return false;
  const Stmt &Step = Loop.Step[0];
  if (Step.Kind != StmtKind::Assign || Step.Slot != Slot || !Step.Value)
    return false;
  const Expr &Add = uncast(*Step.Value);
  if (Add.Kind != Op::Add || Add.Ops.size() != 2 || Add.PointerArith)
    return false;
  return (isVar(*Add.Ops[0], Slot) && smallConst(*Add.Ops[1], 1, V)) ||
         (isVar(*Add.Ops[1], Slot) && smallConst(*Add.Ops[0], 1, V));
}

class Pruner {
public:
  explicit Pruner(const Kernel &K) : K(K), Total(K.Slots.size()) {
    countReads(K.Body, Total);
    for (const Access &A : K.Accesses)
      if (A.Address)
        countReads(*A.Address, Total);
  }

  std::vector<Stmt> prune(const std::vector<Stmt> &List) {
    std::vector<Stmt> Out;
    Out.reserve(List.size());
    for (size_t I = 0; I < List.size(); ++I) {
      const Stmt &S = List[I];
      if (S.Kind == StmtKind::Loop && dead(I ? &List[I - 1] : nullptr, S)) {
        ++Dropped;
        continue;
      }
      Stmt Kept = S;
      Kept.Then = prune(S.Then);
      Kept.Else = prune(S.Else);
      Kept.Body = prune(S.Body);
      Kept.Step = prune(S.Step);
      Kept.CondPre = prune(S.CondPre);
      Out.push_back(std::move(Kept));
    }
    return Out;
  }

  unsigned Dropped = 0;

private:
  bool dead(const Stmt *Init, const Stmt &Loop) {
    std::vector<int> Assigned;
    if (!counts(K, Init, Loop) || !quiet(Loop, Assigned))
      return false;
    std::vector<unsigned> Inside(K.Slots.size());
    countReads(Loop, Inside);
    for (int Slot : Assigned)
      if (Slot < 0 || size_t(Slot) >= Total.size() ||
          Inside[size_t(Slot)] != Total[size_t(Slot)])
        return false;
    return true;
  }

  const Kernel &K;
  std::vector<unsigned> Total; ///< Reads of each slot in the whole kernel.
};

} // namespace

std::optional<Kernel> withoutDeadLoops(const Kernel &K) {
  Pruner P(K);
  std::vector<Stmt> Body = P.prune(K.Body);
  if (!P.Dropped)
    return std::nullopt;
  Kernel Out = K;
  Out.Body = std::move(Body);
  return Out;
}

} // namespace gmem
