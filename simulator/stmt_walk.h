//===- stmt_walk.h - What a statement list holds, at any depth ------------===//
#ifndef GMEM_SIMULATOR_STMT_WALK_H
#define GMEM_SIMULATOR_STMT_WALK_H

#include "model.h"
#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gmem {

/// Adds to Ids the accesses (Access::Id) made anywhere in L: in branches,
/// loops and inlined calls too.
inline void accessesIn(const std::vector<Stmt> &L, std::set<int> &Ids) {
  for (const Stmt &S : L) {
    if (S.Kind == StmtKind::Access)
      Ids.insert(S.AccessId);
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      accessesIn(*Sub, Ids);
  }
}

/// Whether L can leave its loop: a break outside nested loops, or a return
/// outside inlined calls.
inline bool canLeaveLoop(const std::vector<Stmt> &L,
                         bool InNestedLoop = false) {
  for (const Stmt &S : L) {
    if (S.Kind == StmtKind::Return ||
        (S.Kind == StmtKind::Break && !InNestedLoop))
      return true;
    if (S.Kind == StmtKind::Call)
      continue;
    bool Nested = InNestedLoop || S.Kind == StmtKind::Loop;
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      if (canLeaveLoop(*Sub, Nested))
        return true;
  }
  return false;
}

/// The iterations of loop L[At] when they are constants: an induction
/// variable set to a constant before it, compared with a constant and
/// stepped by a constant (`for (int i = 0; i < 8; i += 2)`, as unrolled
/// code is written); none past Max.
inline std::optional<uint64_t> constantTrips(const std::vector<Stmt> &L,
                                             size_t At, uint64_t Max = 64) {
  const Stmt &S = L[At];
  auto Peel = [](const Expr *E) {
    while (E && E->Kind == Op::Cast && E->Ops.size() == 1)
      E = E->Ops[0].get();
    return E;
  };
  const Expr *C = Peel(S.Cond.get());
  if (!S.TestFirst || !S.CondPre.empty() || !C || C->Ops.size() != 2 ||
      S.Step.size() != 1 || S.Step[0].Kind != StmtKind::Assign)
    return std::nullopt;
  const Expr *V = Peel(C->Ops[0].get()), *N = Peel(C->Ops[1].get());
  if (!V || V->Kind != Op::Var || !N || N->Kind != Op::Const)
    return std::nullopt;
  const Stmt &St = S.Step[0];
  const Expr *Inc = Peel(St.Value.get());
  if (St.Slot != V->Index || !Inc || Inc->Ops.size() != 2 ||
      (Inc->Kind != Op::Add && Inc->Kind != Op::Sub) ||
      Peel(Inc->Ops[0].get())->Kind != Op::Var ||
      Peel(Inc->Ops[0].get())->Index != V->Index ||
      Peel(Inc->Ops[1].get())->Kind != Op::Const)
    return std::nullopt;
  const int64_t D =
      (Inc->Kind == Op::Add ? 1 : -1) * Peel(Inc->Ops[1].get())->Value;
  std::optional<int64_t> X;
  for (size_t I = At; I-- > 0 && !X;)
    if (L[I].Kind == StmtKind::Assign && L[I].Slot == V->Index) {
      const Expr *Init = Peel(L[I].Value.get());
      if (!Init || Init->Kind != Op::Const)
        return std::nullopt;
      X = Init->Value;
    }
  if (!X || !D)
    return std::nullopt;
  const int64_t Bound = N->Value;
  for (uint64_t T = 0; T <= Max; ++T, *X += D) {
    const bool Go = C->Kind == Op::Lt   ? *X < Bound
                    : C->Kind == Op::Le ? *X <= Bound
                    : C->Kind == Op::Gt ? *X > Bound
                    : C->Kind == Op::Ge ? *X >= Bound
                    : C->Kind == Op::Ne ? *X != Bound
                                        : false;
    if (!Go)
      return C->Kind == Op::Lt || C->Kind == Op::Le || C->Kind == Op::Gt ||
                     C->Kind == Op::Ge || C->Kind == Op::Ne
                 ? std::optional<uint64_t>(T)
                 : std::nullopt;
  }
  return std::nullopt;
}

/// Whether ptxas can predicate L instead of branching around it, as it does
/// a short forward branch over plain code (executor/cfg.cpp): assignments,
/// accesses, inlined calls without a return, ifs without an else whose
/// body is plain (`if (a) { if (b) ... }`: two branches to one label), and
/// loops of constant iterations, which nvcc unrolls. Adds to Times, per
/// access, how often one pass through L makes it, each pass Each times.
inline bool plainBranchBody(const std::vector<Stmt> &L,
                            std::map<int, uint64_t> &Times, uint64_t Each = 1) {
  for (size_t I = 0; I < L.size(); ++I) {
    const Stmt &S = L[I];
    switch (S.Kind) {
    case StmtKind::Assign:
      break;
    case StmtKind::Access:
      Times[S.AccessId] += Each;
      break;
    case StmtKind::Call:
      if (!plainBranchBody(S.Body, Times, Each))
        return false;
      break;
    case StmtKind::If:
      if (!S.Else.empty() || !plainBranchBody(S.Then, Times, Each))
        return false;
      break;
    case StmtKind::Loop: {
      const std::optional<uint64_t> Trips = constantTrips(L, I);
      if (!Trips || !plainBranchBody(S.Body, Times, Each * *Trips))
        return false;
      break;
    }
    default:
      return false;
    }
  }
  return true;
}

/// The accesses of branch side L that a warp executes with every lane off
/// when none of its lanes takes L, and how many instructions each: those of
/// a plain side whose instructions are all Guarded (one that is not tells
/// that ptxas branched around the side: `if (ty == 0) { u = y > 0 ? in[i]
/// : 0; s[tx] = u; }` guards the load alone). Worked out once per side.
class PredicatedOffSides {
public:
  using Counts = std::vector<std::pair<int, uint64_t>>;
  const Counts &of(const Kernel &K, const std::vector<Stmt> &L) {
    auto [It, New] = Known.try_emplace(&L);
    if (New)
      It->second = work(K, L);
    return It->second;
  }

private:
  static Counts work(const Kernel &K, const std::vector<Stmt> &L) {
    std::map<int, uint64_t> Times;
    if (L.empty() || !plainBranchBody(L, Times))
      return {};
    Counts Out;
    for (const auto &[Id, N] : Times) {
      const Access &A = K.Accesses[size_t(Id)];
      if (branchedAround(A))
        return {};
      if (const unsigned Each = predicatedOffInstructions(A))
        Out.push_back({Id, N * Each});
    }
    return Out;
  }
  std::map<const std::vector<Stmt> *, Counts> Known;
};

/// What besides loaded data and shuffles MaybeUnknown counts as unknown.
struct UnknownSources {
  /// Parameters whose value the launch did not record (non-empty entry).
  const std::vector<std::string> *ParamUnknown = nullptr;
  /// Slots some lane may read before they are set (1), which the evaluator
  /// holds unknown.
  const std::vector<char> *Unset = nullptr;
  /// Operations undefined in some lanes (`x / y`, `x << y` where y is not
  /// a constant, a block or grid dimension, warpSize or a parameter of
  /// ParamValues that keeps it defined), which the evaluator makes unknown.
  bool Faults = false;
  /// The launch's parameter values (normalised), for Faults.
  const std::vector<int64_t> *ParamValues = nullptr;
};

/// Which expressions may hold a value that some lane does not know:
/// loaded data and shuffles (which the class-based path does not carry),
/// what Sources adds, and the slots set from them anywhere in the kernel
/// (flow-insensitive: a fixed point over every assignment).
class MaybeUnknown {
public:
  explicit MaybeUnknown(const Kernel &K, UnknownSources Sources = {})
      : ParamUnknown(Sources.ParamUnknown), Faults(Sources.Faults),
        ParamValues(Sources.ParamValues), Slots(K.Slots.size(), 0) {
    if (Sources.Unset)
      for (size_t I = 0; I < Slots.size() && I < Sources.Unset->size(); ++I)
        Slots[I] = (*Sources.Unset)[I];
    while (spread(K.Body)) {
    }
  }
  bool of(const Expr *E) const {
    if (!E)
      return false;
    if (E->Kind == Op::Unknown || E->Kind == Op::Shfl)
      return true;
    if (E->Kind == Op::Param && ParamUnknown && E->Index >= 0 &&
        size_t(E->Index) < ParamUnknown->size() &&
        !(*ParamUnknown)[size_t(E->Index)].empty())
      return true;
    if (E->Kind == Op::Var &&
        (E->Index < 0 || size_t(E->Index) >= Slots.size() || Slots[E->Index]))
      return true;
    if (Faults && mayFault(*E))
      return true;
    for (const ExprPtr &X : E->Ops)
      if (of(X.get()))
        return true;
    return false;
  }

private:
  bool mayFault(const Expr &E) const {
    if (E.PointerArith)
      return true;
    const bool Divide = E.Kind == Op::Div || E.Kind == Op::Rem;
    if ((!Divide && E.Kind != Op::Shl && E.Kind != Op::Shr) ||
        E.Ops.size() != 2)
      return false;
    const Expr *R = E.Ops[1].get();
    while (R && R->Kind == Op::Cast && R->Ops.size() == 1)
      R = R->Ops[0].get();
    if (Divide && R && R->Kind == Op::Builtin &&
        R->Index >= int(Builtin::BlockDimX) &&
        R->Index <= int(Builtin::WarpSize))
      return false; // At least 1, and at most 2^31 - 1.
    std::optional<int64_t> V;
    if (R && R->Kind == Op::Const)
      V = R->Value;
    else if (R && R->Kind == Op::Param && ParamValues && ParamUnknown &&
             R->Index >= 0 && size_t(R->Index) < ParamValues->size() &&
             size_t(R->Index) < ParamUnknown->size() &&
             (*ParamUnknown)[size_t(R->Index)].empty())
      V = normalize(uint64_t((*ParamValues)[size_t(R->Index)]), E.Ops[1]->Type);
    if (!V)
      return true;
    return Divide ? *V == 0 || *V == -1 : *V < 0 || uint64_t(*V) >= E.Type.Bits;
  }

  /// Marks the slots L sets from such values; whether one was new.
  bool spread(const std::vector<Stmt> &L) {
    bool New = false;
    for (const Stmt &S : L) {
      if (S.Kind == StmtKind::Assign && S.Slot >= 0 &&
          size_t(S.Slot) < Slots.size() && !Slots[S.Slot] &&
          of(S.Value.get())) {
        Slots[S.Slot] = 1;
        New = true;
      }
      for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
        New |= spread(*Sub);
    }
    return New;
  }
  const std::vector<std::string> *ParamUnknown;
  bool Faults;
  const std::vector<int64_t> *ParamValues;
  std::vector<char> Slots;
};

/// The lanes of warp Warp that a block of Threads threads has.
inline uint32_t laneMaskFor(uint64_t Threads, unsigned Warp) {
  uint64_t First = uint64_t(Warp) * 32;
  if (First >= Threads)
    return 0;
  uint64_t N = std::min<uint64_t>(32, Threads - First);
  return N == 32 ? 0xffffffffu : (1u << N) - 1;
}

} // namespace gmem

#endif // GMEM_SIMULATOR_STMT_WALK_H
