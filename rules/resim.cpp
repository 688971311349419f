//===- resim.cpp - Changed copies of a kernel model -----------------------===//
#include "resim.h"

#include "launch_time.h"
#include "simulate.h"

#include <cstdio>

namespace gmem {

ExprPtr rewriteExpr(const ExprPtr &E,
                    const std::function<ExprPtr(const Expr &)> &F) {
  if (!E)
    return E;
  if (ExprPtr New = F(*E))
    return New;
  bool Changed = false;
  std::vector<ExprPtr> Ops;
  for (const ExprPtr &O : E->Ops) {
    Ops.push_back(rewriteExpr(O, F));
    Changed |= Ops.back() != O;
  }
  if (!Changed)
    return E;
  auto Copy = std::make_shared<Expr>(*E);
  Copy->Ops = std::move(Ops);
  return Copy;
}

static const Stmt *innermostLoop(const std::vector<Stmt> &Ss, int Id,
                                 const Stmt *Outer, bool &Found) {
  for (const Stmt &S : Ss) {
    if (S.Kind == StmtKind::Access && S.AccessId == Id) {
      Found = true;
      return Outer;
    }
    const Stmt *Here = S.Kind == StmtKind::Loop ? &S : Outer;
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step}) {
      const Stmt *L = innermostLoop(*Sub, Id, Here, Found);
      if (Found)
        return L;
    }
  }
  return nullptr;
}

const Stmt *innermostLoop(const std::vector<Stmt> &Body, int Id) {
  bool Found = false;
  return innermostLoop(Body, Id, nullptr, Found);
}

bool readsSlot(const Expr &E, int Slot) {
  if (E.Kind == Op::Var && E.Index == Slot)
    return true;
  for (const ExprPtr &O : E.Ops)
    if (O && readsSlot(*O, Slot))
      return true;
  return false;
}

int inductionSlot(const Stmt &Loop) {
  for (const Stmt &S : Loop.Step)
    if (S.Kind == StmtKind::Assign && S.Value && readsSlot(*S.Value, S.Slot))
      return S.Slot;
  return -1;
}

void assignedSlots(const std::vector<Stmt> &Ss, std::set<int> &Out) {
  for (const Stmt &S : Ss) {
    if (S.Kind == StmtKind::Assign)
      Out.insert(S.Slot);
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      assignedSlots(*Sub, Out);
  }
}

static void rewriteStmts(std::vector<Stmt> &Ss,
                         const std::function<ExprPtr(const Expr &)> &F) {
  for (Stmt &S : Ss) {
    S.Value = rewriteExpr(S.Value, F);
    S.Cond = rewriteExpr(S.Cond, F);
    for (auto *List : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      rewriteStmts(*List, F);
  }
}

std::optional<Kernel> padSharedArray(const Kernel &K, int ArrayIdx,
                                     uint64_t Pad) {
  // An access of the executed PTX may name no array of the model (-1).
  if (ArrayIdx < 0 || size_t(ArrayIdx) >= K.Shared.size())
    return std::nullopt;
  const SharedArray &SA = K.Shared[ArrayIdx];
  if (SA.Dynamic || SA.Dims.size() < 2)
    return std::nullopt;
  // Byte strides of every dimension but the last, before and after padding.
  std::map<int64_t, int64_t> Strides;
  std::vector<uint64_t> NewDims = SA.Dims;
  NewDims.back() += Pad;
  for (size_t D = 0; D + 1 < SA.Dims.size(); ++D) {
    uint64_t Old = SA.ElemSize, New = SA.ElemSize;
    for (size_t I = D + 1; I < SA.Dims.size(); ++I) {
      Old *= SA.Dims[I];
      New *= NewDims[I];
    }
    Strides[int64_t(Old)] = int64_t(New);
  }
  Kernel Copy = K;
  for (Access &A : Copy.Accesses) {
    if (A.SharedArray != ArrayIdx)
      continue;
    bool Found = false;
    A.Address = rewriteExpr(A.Address, [&](const Expr &E) -> ExprPtr {
      if (E.Kind != Op::Mul || E.Ops.size() != 2)
        return nullptr;
      for (int I = 0; I < 2; ++I) {
        const Expr &C = *E.Ops[I];
        auto It = Strides.find(C.Value);
        if (C.Kind != Op::Const || It == Strides.end())
          continue;
        Found = true;
        auto M = std::make_shared<Expr>(E);
        M->Ops[I] = makeConst(It->second, C.Type);
        M->Ops[1 - I] = E.Ops[1 - I];
        return M;
      }
      return nullptr;
    });
    if (!Found)
      return std::nullopt; // A folded constant row: the copy would be wrong.
  }
  SharedArray &P = Copy.Shared[ArrayIdx];
  P.Dims = NewDims;
  P.Bytes = P.ElemSize;
  for (uint64_t D : NewDims)
    P.Bytes *= D;
  // Later arrays keep their offsets: moving every lane of an access by the
  // same multiple of 4 bytes changes no access's wavefronts.
  return Copy;
}

Kernel swapXY(const Kernel &K) {
  auto Swap = [](const Expr &E) -> ExprPtr {
    if (E.Kind != Op::Builtin)
      return nullptr;
    static const std::pair<Builtin, Builtin> Pairs[] = {
        {Builtin::ThreadIdxX, Builtin::ThreadIdxY},
        {Builtin::BlockIdxX, Builtin::BlockIdxY},
        {Builtin::BlockDimX, Builtin::BlockDimY},
        {Builtin::GridDimX, Builtin::GridDimY}};
    for (auto [A, B] : Pairs) {
      if (E.Index == int(A))
        return makeBuiltin(B);
      if (E.Index == int(B))
        return makeBuiltin(A);
    }
    return nullptr;
  };
  Kernel Copy = K;
  for (Access &A : Copy.Accesses)
    A.Address = rewriteExpr(A.Address, Swap);
  rewriteStmts(Copy.Body, Swap);
  return Copy;
}

Launch swapXY(const Launch &L) {
  Launch Copy = L;
  std::swap(Copy.Block.X, Copy.Block.Y);
  std::swap(Copy.Grid.X, Copy.Grid.Y);
  return Copy;
}

std::string resimScope(const Launch &L) {
  (void)L;
  return "over every block";
}

std::string durationChange(const RuleContext &C, const LaunchResult &Before,
                           const LaunchResult &After) {
  if (!C.R.Board)
    return "";
  // The fix's instructions are not counted (it is not executed), nor its
  // whole launch's DRAM blocks: both sides leave them out, and say so for
  // instruction issue where it counted.
  auto Seconds = [&](const LaunchResult &R) -> std::optional<double> {
    LaunchResult X = R;
    X.Issue.reset();
    X.SassWarpInstructions.reset();
    X.L2.reset(); // Its whole-launch count is the unfixed launch's.

    // The launch's code as compiled, on both sides.
    X.Dram = predictDram(X, *C.R.Board, C.K.Sass);
    const LaunchTime T = predictTime(X, *C.R.Board);
    return T.Known ? std::optional<double>(T.Seconds) : std::nullopt;
  };
  const std::optional<double> From = Seconds(Before), To = Seconds(After);
  if (!From || !To)
    return "";
  char B[128];
  std::snprintf(B, sizeof B, "%.1f us to %.1f us", *From * 1e6, *To * 1e6);
  return "; the launch's predicted duration on the " + C.R.Board->Product +
         " goes from " + B +
         (Before.SassWarpInstructions ? ", for its memory units alone: "
                                        "instruction issue is not re-simulated"
                                      : "");
}

const LaunchResult &unchanged(const RuleContext &C, LaunchResult &Storage) {
  if (C.R.Path == "model" && C.R.Incomplete.empty() && C.R.K == &C.K)
    return C.R;
  Storage = resimulate(C.K, C.R.L, C);
  return Storage;
}

bool reproduces(const RuleContext &C, const LaunchResult &Base,
                const Access &A) {
  const size_t I = size_t(A.Id);
  if (A.Id < 0 || I >= Base.PerAccess.size() || I >= C.R.PerAccess.size())
    return false;
  const AccessStats &B = Base.PerAccess[I], &R = C.R.PerAccess[I];
  return B.Requests && B.Requests == R.Requests && B.Units == R.Units;
}

LaunchResult resimulate(const Kernel &K, const Launch &L,
                        const RuleContext &C) {
  SimOptions O;
  O.Arch = &C.Arch;
  O.Threads = C.Threads;
  return simulate(K, L, O);
}

} // namespace gmem
