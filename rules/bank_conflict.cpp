//===- bank_conflict.cpp - gmem-bank-conflict -----------------------------===//
//
// The remedy it checks: pad the shared array's last dimension by the
// smallest N (1 to the number of banks) for which the re-simulated access
// needs no more wavefronts than its ideal and no other access to the array
// gets dearer. A tree reduction whose step doubles (interleaved
// addressing, sdata[2 * s * tid]) cannot be padded out of its conflicts:
// sequential addressing (sdata[tid] += sdata[tid + s], s halving) is
// re-simulated for one block and offered when only fixed elements of the
// array are read after the loop, so that only the sum matters.
//
//===----------------------------------------------------------------------===//
#include "explain.h"
#include "resim.h"
#include "rule.h"

#include <fstream>

namespace gmem {

static std::string shape(const SharedArray &SA) {
  std::string S = SA.Name;
  for (uint64_t D : SA.Dims)
    S += "[" + std::to_string(D) + "]";
  return S;
}

/// The padding as an edit: " + N" before the closing bracket of the
/// declaration's last dimension (tile[16][32] -> tile[16][32 + 1]), found
/// from the declared name on its line. None when the line does not spell
/// the dimensions there (a macro, a typedef, an extern array).
static std::optional<TextEdit> paddingEdit(const SharedArray &SA, uint64_t N) {
  if (SA.Dynamic || !SA.Loc.Line || !SA.Loc.Col)
    return std::nullopt;
  std::ifstream In(SA.Loc.File);
  std::string Line;
  for (unsigned I = 0; I < SA.Loc.Line && std::getline(In, Line); ++I)
    ;
  if (!In)
    return std::nullopt;
  size_t P = SA.Loc.Col - 1;
  if (Line.compare(P, SA.Name.size(), SA.Name) != 0)
    return std::nullopt;
  P += SA.Name.size();
  size_t LastClose = std::string::npos;
  size_t Groups = 0;
  for (;;) {
    while (P < Line.size() && Line[P] == ' ')
      ++P;
    if (P >= Line.size() || Line[P] != '[')
      break;
    int Depth = 0;
    size_t Q = P;
    for (; Q < Line.size(); ++Q) {
      Depth += Line[Q] == '[' ? 1 : Line[Q] == ']' ? -1 : 0;
      if (Depth == 0)
        break;
    }
    if (Q >= Line.size())
      return std::nullopt; // The dimensions go on past the line.
    LastClose = Q;
    ++Groups;
    P = Q + 1;
  }
  if (Groups != SA.Dims.size() || LastClose == std::string::npos)
    return std::nullopt;
  SourceLoc At = SA.Loc;
  At.Col = unsigned(LastClose + 1);
  return TextEdit{At, " + " + std::to_string(N)};
}

static void tryPadding(const RuleContext &C, const Access &A, Diagnostic &D) {
  // The original and each padded copy over the same blocks.
  LaunchResult Storage;
  const LaunchResult &Base = unchanged(C, Storage);
  if (!reproduces(C, Base, A))
    return;
  const AccessStats &Old = Base.PerAccess[A.Id];
  for (uint64_t N = 1; N <= C.Arch.Banks; ++N) {
    std::optional<Kernel> P = padSharedArray(C.K, A.SharedArray, N);
    if (!P)
      return;
    LaunchResult S = resimulate(*P, C.R.L, C);
    const AccessStats &New = S.PerAccess[A.Id];
    if (New.UnknownRequests || New.OutOfBoundsLanes > Old.OutOfBoundsLanes ||
        New.Units > New.IdealUnits)
      continue;
    bool Worse = false;
    for (const Access &O : C.K.Accesses)
      Worse |= O.SharedArray == A.SharedArray &&
               S.PerAccess[O.Id].Units > Base.PerAccess[O.Id].Units;
    if (Worse)
      continue;
    D.Fix = CheckedFix{
        "pad the last dimension of '" + A.Array + "' by " + std::to_string(N) +
            " element" + (N > 1 ? "s" : "") + ": " +
            shape(P->Shared[A.SharedArray]),
        "re-simulated " + resimScope(C.R.L) + ": " + figure(New.perRequest()) +
            " wavefront(s) per request (from " + figure(Old.perRequest()) +
            "), no bank conflict; no other access to '" + A.Array +
            "' gets more costly" + durationChange(C, Base, S),
        paddingEdit(C.K.Shared[A.SharedArray], N), New.Costliest};
    return;
  }
}

/// Whether the loop's step doubles its induction slot V (s *= 2, s <<= 1,
/// s += s), looking through casts.
static bool doubles(const Stmt &Loop, int V) {
  for (const Stmt &S : Loop.Step) {
    if (S.Kind != StmtKind::Assign || S.Slot != V || !S.Value)
      continue;
    const Expr *E = S.Value.get();
    while (E->Kind == Op::Cast)
      E = E->Ops[0].get();
    if (E->Ops.size() != 2)
      return false;
    auto IsV = [&](const Expr &X) {
      const Expr *P = &X;
      while (P->Kind == Op::Cast)
        P = P->Ops[0].get();
      return P->Kind == Op::Var && P->Index == V;
    };
    auto IsConst = [](const Expr &X, int64_t K) {
      return X.Kind == Op::Const && X.Value == K;
    };
    return (E->Kind == Op::Mul &&
            ((IsV(*E->Ops[0]) && IsConst(*E->Ops[1], 2)) ||
             (IsV(*E->Ops[1]) && IsConst(*E->Ops[0], 2)))) ||
           (E->Kind == Op::Shl && IsV(*E->Ops[0]) && IsConst(*E->Ops[1], 1)) ||
           (E->Kind == Op::Add && IsV(*E->Ops[0]) && IsV(*E->Ops[1]));
  }
  return false;
}

/// Whether E reads no slot, parameter or built-in (the same on every lane
/// of every block).
static bool fixedValue(const Expr &E) {
  if (E.Kind == Op::Var || E.Kind == Op::Param || E.Kind == Op::Builtin ||
      E.Kind == Op::Unknown || E.Kind == Op::Shfl)
    return false;
  for (const ExprPtr &O : E.Ops)
    if (O && !fixedValue(*O))
      return false;
  return true;
}

/// Accesses of Ss in program order, with whether each comes after Loop.
static void accessesAfter(const std::vector<Stmt> &Ss, const Stmt *Loop,
                          bool &Past, std::vector<int> &Out) {
  for (const Stmt &S : Ss) {
    if (S.Kind == StmtKind::Access && Past)
      Out.push_back(S.AccessId);
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      accessesAfter(*Sub, Loop, Past, Out);
    Past |= &S == Loop;
  }
}

/// The sequential-addressing loop of a tree reduction over one block of
/// BlockX threads: for (s = BlockX / 2; s > 0; s >>= 1) if (tid < s)
/// sdata[tid] += sdata[tid + s];
static Kernel sequentialReduction(const SharedArray &Array, unsigned Size,
                                  uint64_t BlockX) {
  Kernel T;
  T.Name = "sequential reduction";
  SharedArray A = Array;
  A.Dynamic = false;
  A.Offset = 0;
  A.ElemSize = Size;
  A.Dims = {BlockX};
  A.Bytes = BlockX * Size;
  T.Shared.push_back(A);
  const IntType U = {64, false}, U32 = {32, false};
  T.Slots.push_back({"s", U32});
  ExprPtr Tid = makeCast(makeBuiltin(Builtin::ThreadIdxX), U);
  ExprPtr S = makeVar(0, U32);
  auto Element = [&](ExprPtr Index) {
    return makeBinary(Op::Mul, Index, makeConst(Size, U), U);
  };
  ExprPtr Addrs[] = {Element(Tid),
                     Element(makeBinary(Op::Add, Tid, makeCast(S, U), U)),
                     Element(Tid)};
  const AccessKind Kinds[] = {AccessKind::Load, AccessKind::Load,
                              AccessKind::Store};
  Stmt If;
  If.Kind = StmtKind::If;
  If.Cond = makeBinary(Op::Lt, makeBuiltin(Builtin::ThreadIdxX), S,
                       IntType{1, false});
  for (int I = 0; I < 3; ++I) {
    Access X;
    X.Id = I;
    X.Sp = Space::Shared;
    X.Kind = Kinds[I];
    X.Size = Size;
    X.SharedArray = 0;
    X.Array = A.Name;
    X.Address = Addrs[I];
    T.Accesses.push_back(X);
    Stmt Run;
    Run.Kind = StmtKind::Access;
    Run.AccessId = I;
    If.Then.push_back(Run);
  }
  Stmt Init;
  Init.Kind = StmtKind::Assign;
  Init.Slot = 0;
  Init.Value = makeConst(int64_t(BlockX / 2), U32);
  Stmt Loop;
  Loop.Kind = StmtKind::Loop;
  Loop.Cond = makeBinary(Op::Gt, S, makeConst(0, U32), IntType{1, false});
  Loop.Body.push_back(If);
  Stmt Step;
  Step.Kind = StmtKind::Assign;
  Step.Slot = 0;
  Step.Value = makeBinary(Op::Shr, S, makeConst(1, U32), U32);
  Loop.Step.push_back(Step);
  T.Body = {Init, Loop};
  return T;
}

static void trySequentialAddressing(const RuleContext &C, const Access &A,
                                    Diagnostic &D) {
  const Launch &L = C.R.L;
  const uint64_t BlockX = L.Block.X;
  if (L.Block.Y != 1 || L.Block.Z != 1 || BlockX < 64 ||
      (BlockX & (BlockX - 1)))
    return; // The halving loop needs a power of two of at least two warps.
  const Stmt *Loop = innermostLoop(C.K.Body, A.Id);
  const int V = Loop ? inductionSlot(*Loop) : -1;
  if (V < 0 || !doubles(*Loop, V) || A.SharedArray < 0 ||
      size_t(A.SharedArray) >= C.K.Shared.size())
    return;
  const SharedArray &SA = C.K.Shared[A.SharedArray];
  if (!SA.Dynamic && SA.Bytes < BlockX * A.Size)
    return;
  // Only the sum may matter: every access of the array after the loop
  // reads a fixed element.
  bool Past = false;
  std::vector<int> After;
  accessesAfter(C.K.Body, Loop, Past, After);
  for (int Id : After) {
    const Access &X = C.K.Accesses[Id];
    if (X.Sp == Space::Shared && X.SharedArray == A.SharedArray &&
        (X.Kind != AccessKind::Load || !fixedValue(*X.Address)))
      return;
  }
  // The loop's own accesses of the array, per block, before the change.
  LaunchResult Storage;
  const LaunchResult &Base = unchanged(C, Storage);
  if (!reproduces(C, Base, A))
    return;
  std::vector<int> InLoop;
  bool Inside = true;
  accessesAfter(Loop->Body, nullptr, Inside, InLoop);
  uint64_t Before = 0;
  for (int Id : InLoop)
    if (C.K.Accesses[Id].Sp == Space::Shared &&
        C.K.Accesses[Id].SharedArray == A.SharedArray)
      Before += Base.PerAccess[Id].Units;
  Launch One = L;
  One.Grid = Dim3{};
  One.Args.clear();
  One.Memory.clear();
  One.DynamicSmem = 0;
  Kernel T = sequentialReduction(SA, A.Size, BlockX);
  One.Kernel = T.Name;
  LaunchResult R = resimulate(T, One, C);
  uint64_t NewUnits = 0, NewRequests = 0;
  for (const AccessStats &St : R.PerAccess) {
    if (St.UnknownRequests || St.Units > St.IdealUnits)
      return;
    NewUnits += St.Units;
    NewRequests += St.Requests;
  }
  const uint64_t Blocks = L.Grid.count();
  // The launch with the new loop, for its duration: the loop's accesses of
  // the array give way to the sequential loop's, in every block.
  Kernel SK = C.K;
  LaunchResult Sequential = Base;
  Sequential.K = &SK;
  for (int Id : InLoop)
    if (SK.Accesses[Id].Sp == Space::Shared &&
        SK.Accesses[Id].SharedArray == A.SharedArray)
      Sequential.PerAccess[Id] = AccessStats();
  Access X;
  X.Id = int(SK.Accesses.size());
  X.Sp = Space::Shared;
  X.Kind = AccessKind::Load;
  X.Size = A.Size;
  X.SharedArray = A.SharedArray;
  X.Array = A.Array;
  SK.Accesses.push_back(X);
  AccessStats New;
  New.Requests = NewRequests * Blocks;
  New.Units = NewUnits * Blocks;
  Sequential.PerAccess.push_back(New);
  D.Fix = CheckedFix{
      "only fixed elements of '" + A.Array +
          "' are read after this loop, so it combines a sum: use sequential "
          "addressing, for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) { "
          "if (threadIdx.x < s) " +
          A.Array + "[threadIdx.x] += " + A.Array +
          "[threadIdx.x + s]; __syncthreads(); } (the same sum in another "
          "order: floating-point results may differ in their last bits)",
      "re-simulated for a block of " + std::to_string(BlockX) +
          " threads: the loop's shared accesses take " +
          std::to_string(NewUnits) + " wavefronts per block (from " +
          figure(double(Before) / double(Blocks)) +
          "), each request 1 wavefront, no bank conflict" +
          durationChange(C, Base, Sequential)};
}

static void checkBankConflict(const RuleContext &C,
                              std::vector<Diagnostic> &Out) {
  for (const Access &A : C.K.Accesses) {
    const AccessStats &S = C.R.PerAccess[A.Id];
    if (A.Sp != Space::Shared || !S.Requests || S.UnknownRequests ||
        S.Units <= S.IdealUnits || S.MaxWays < 2)
      continue;
    bool Policy =
        C.Policy.MaxConflictWays && S.MaxWays > *C.Policy.MaxConflictWays;
    Diagnostic D =
        accessDiagnostic(C, A, "gmem-bank-conflict",
                         Policy ? Severity::Error : Severity::Warning);
    // A shared atomic serves a bank's lanes one after another even where
    // they share a word (SharedAtomicForm::PerLane): contention, not only
    // distinct words.
    const bool Serial = A.Kind == AccessKind::Atomic &&
                        A.SharedAtomic != SharedAtomicForm::PerWord;
    D.Message = "up to " + std::to_string(S.MaxWays) +
                (Serial ? " lanes of a warp on one bank (one word too) in "
                          "shared "
                        : "-way bank conflict in shared ") +
                opText(A) + ofArray(A) + ": " + figure(S.perRequest()) +
                " wavefronts per request, ideal " +
                figure(double(S.IdealUnits) / double(S.Requests));
    if (Policy)
      D.Message += ", above --max-conflict-ways " +
                   std::to_string(*C.Policy.MaxConflictWays);
    D.Message += " in " + C.K.Name;
    std::string Why = explainCause(A, S);
    if (!Why.empty())
      D.Notes.push_back({A.Loc, Why});
    if (!S.OutOfBoundsLanes) // Padding cannot be judged on stray lanes.
      tryPadding(C, A, D);
    if (!S.OutOfBoundsLanes && !D.Fix)
      trySequentialAddressing(C, A, D);
    Out.push_back(std::move(D));
  }
}

extern const RuleInfo BankConflictRule = {
    "gmem-bank-conflict",
    Severity::Warning,
    "Shared-memory access whose lanes collide in the same banks",
    "Shared memory has 32 banks of 4 bytes; a warp's request takes as many "
    "wavefronts as the busiest bank has distinct words to serve (the same "
    "word is broadcast). Lanes whose addresses are a multiple of 128 bytes "
    "apart share a bank and are served one after another.",
    "any request needing more wavefronts than its ideal (2-way or worse); "
    "with --max-conflict-ways N, conflicts of more than N ways are errors",
    checkBankConflict};

} // namespace gmem
