//===- coalescing.cpp - Uncoalesced global accesses -----------------------===//
//
// The remedies it checks, each re-simulated: swapping the roles of x and y
// (swapXY), offered when this access gets cheaper and the others do not
// get dearer, or the kernel's global sectors fall by a tenth (a naive
// SGEMM); when the swap only moves the cost between a load and a store (a
// transpose), a note says where it goes and the fix is a shared tile through
// which each keeps the order it wants (per iteration in a loop); a member of
// an array of structures becomes an array of its own (structure of arrays);
// a row walk inside a loop exchanges the roles of the thread's index and
// the loop's (the array stored transposed).
//
//===----------------------------------------------------------------------===//
#include "coalescing.h"

#include <cmath>

#include "explain.h"
#include "resim.h"
#include "simulate.h"

#include <functional>
#include <set>

namespace gmem {

static std::string dims(const Dim3 &D) {
  return std::to_string(D.X) + "x" + std::to_string(D.Y) +
         (D.Z > 1 ? "x" + std::to_string(D.Z) : "");
}

/// What the shared tile of a tiled transpose costs, simulated: one side
/// writes tile[threadIdx.y][threadIdx.x] in the launch's thread order, the
/// other reads tile[threadIdx.x][threadIdx.y] in the swapped order (block
/// Y x X), for the smallest padding of the rows that gives the fewest
/// wavefronts. The tile's cost is the same in every block: one block is
/// simulated.
struct TileCost {
  uint64_t Pad = 0;
  double Current = 0, Swapped = 0; ///< Wavefronts per request.
};

static std::optional<TileCost> tileCost(const RuleContext &C, unsigned Size,
                                        bool CurrentStores) {
  const Launch &L = C.R.L;
  const uint64_t W = L.Block.X, H = L.Block.Y;
  if (L.Block.Z != 1)
    return std::nullopt;
  const IntType U = {64, false};
  auto Builtin_ = [&](Builtin B) { return makeCast(makeBuiltin(B), U); };
  auto Cost = [&](uint64_t Pad, bool Swap) -> std::optional<double> {
    Kernel T;
    T.Name = C.K.Name + " (tile)";
    SharedArray Tile;
    Tile.Name = "tile";
    Tile.ElemSize = Size;
    Tile.Dims = {H, W + Pad};
    Tile.Bytes = H * (W + Pad) * Size;
    T.Shared.push_back(Tile);
    Access A;
    A.Id = 0;
    A.Sp = Space::Shared;
    A.Kind = (CurrentStores != Swap) ? AccessKind::Store : AccessKind::Load;
    A.Size = Size;
    A.SharedArray = 0;
    A.Array = "tile";
    Builtin Row = Swap ? Builtin::ThreadIdxX : Builtin::ThreadIdxY;
    Builtin Col = Swap ? Builtin::ThreadIdxY : Builtin::ThreadIdxX;
    A.Address = makeBinary(
        Op::Mul,
        makeBinary(Op::Add,
                   makeBinary(Op::Mul, Builtin_(Row), makeConst(W + Pad, U), U),
                   Builtin_(Col), U),
        makeConst(Size, U), U);
    T.Accesses.push_back(A);
    Stmt S;
    S.Kind = StmtKind::Access;
    S.AccessId = 0;
    T.Body.push_back(S);
    Launch One;
    One.Kernel = T.Name;
    One.Block = Swap ? swapXY(L).Block : L.Block;
    LaunchResult R = resimulate(T, One, C);
    const AccessStats &St = R.PerAccess[0];
    if (St.UnknownRequests || !St.Requests)
      return std::nullopt;
    return St.perRequest();
  };
  std::optional<TileCost> Best;
  for (uint64_t Pad = 0; Pad <= 32; ++Pad) {
    if (H * (W + Pad) * Size > C.Arch.MaxStaticShared)
      break;
    std::optional<double> Cur = Cost(Pad, false), Swp = Cost(Pad, true);
    if (!Cur || !Swp)
      return std::nullopt;
    if (!Best || *Cur + *Swp < Best->Current + Best->Swapped)
      Best = TileCost{Pad, *Cur, *Swp};
    if (*Cur + *Swp <= 2)
      break; // Conflict-free: no smaller padding did better.
  }
  return Best;
}

/// Global sectors of every access of the kernel in R.
static uint64_t globalSectors(const Kernel &K, const LaunchResult &R) {
  uint64_t N = 0;
  for (const Access &O : K.Accesses)
    if (O.Sp == Space::Global)
      N += R.PerAccess[O.Id].Units;
  return N;
}

static void trySwap(const RuleContext &C, const Access &A, Diagnostic &D) {
  const Launch &L = C.R.L;
  if (L.Block.Y < 2)
    return; // No y to swap with.
  Kernel SK = swapXY(C.K);
  Launch SL = swapXY(L);
  if (!validateLaunch(SK, SL, C.Arch))
    return;
  // Both the original and the swapped kernel over the same blocks.
  LaunchResult Storage, S = resimulate(SK, SL, C);
  const LaunchResult &Base = unchanged(C, Storage);
  if (!reproduces(C, Base, A))
    return;
  const AccessStats &Old = Base.PerAccess[A.Id], &New = S.PerAccess[A.Id];
  if (New.UnknownRequests || New.perRequest() >= Old.perRequest())
    return;
  for (const Access &O : C.K.Accesses)
    if (S.PerAccess[O.Id].UnknownRequests)
      return;
  std::string How = "swap the roles of threadIdx.x and threadIdx.y (and of "
                    "blockIdx, blockDim and gridDim's x and y; block " +
                    dims(L.Block) + " becomes " + dims(SL.Block) + ")";
  std::string Gain = "this " + opText(A) + " takes " +
                     figure(New.perRequest()) + " sectors per request (from " +
                     figure(Old.perRequest()) + ")";
  // What the swap costs elsewhere: accesses that get dearer per request.
  std::string Dearer;
  const Access *Partner = nullptr;
  for (const Access &O : C.K.Accesses) {
    const AccessStats &Before = Base.PerAccess[O.Id],
                      &After = S.PerAccess[O.Id];
    if (O.Id == A.Id || After.perRequest() <= Before.perRequest())
      continue;
    Dearer += std::string(Dearer.empty() ? "" : "; ") + "the " + opText(O) +
              " of '" + O.Array + "' at " + locText(O.Loc) + " goes from " +
              figure(Before.perRequest()) + " to " +
              figure(After.perRequest()) + " per request";
    if (!Partner)
      Partner = &O;
  }
  const uint64_t SectorsBefore = globalSectors(C.K, Base),
                 SectorsAfter = globalSectors(C.K, S);
  if (Dearer.empty()) {
    D.Fix = CheckedFix{How, "re-simulated " + resimScope(L) + ": " + Gain +
                                "; no other access gets more costly" +
                                durationChange(C, Base, S)};
    return;
  }
  // A transpose: a load and a store that each want the other order.
  // Staged through a shared tile, each keeps the order it wants: this
  // access costs what it costs swapped, its partner what it costs now.
  const Access &O = *Partner;
  const bool Pair = O.Sp == Space::Global && A.Kind != O.Kind &&
                    A.Kind != AccessKind::Atomic &&
                    O.Kind != AccessKind::Atomic && O.Size == A.Size;
  std::optional<TileCost> T;
  if (Pair)
    T = tileCost(C, A.Size, /*CurrentStores=*/O.Kind == AccessKind::Load);
  const uint64_t TileSectors = SectorsBefore - Old.Units + New.Units;
  // The swap is the fix where the kernel's global sectors fall by a tenth
  // or more (a naive SGEMM: a row walk becomes a broadcast, a broadcast a
  // coalesced row) and no tile does better.
  const bool SwapGains = 10 * SectorsAfter <= 9 * SectorsBefore;
  if (SwapGains && (!T || SectorsAfter <= TileSectors)) {
    D.Fix = CheckedFix{
        How, "re-simulated " + resimScope(L) + ": " + Gain + "; " + Dearer +
                 "; the kernel's global sectors go from " +
                 std::to_string(SectorsBefore) + " to " +
                 std::to_string(SectorsAfter) + durationChange(C, Base, S)};
    return;
  }
  D.Notes.push_back(
      {A.Loc, "checked by re-simulation " + resimScope(L) +
                  ": with the roles of x and y swapped, " + Gain + ", but " +
                  Dearer +
                  (SwapGains ? ": the kernel's global sectors go from " +
                                   std::to_string(SectorsBefore) + " to " +
                                   std::to_string(SectorsAfter) +
                                   ", a shared tile does better"
                             : ", so the swap alone only moves the cost")});
  if (!T)
    return;
  const std::string Rows = std::to_string(L.Block.Y),
                    Cols = std::to_string(L.Block.X + T->Pad);
  const Access &Ld = A.Kind == AccessKind::Load ? A : O;
  const Access &St = A.Kind == AccessKind::Load ? O : A;
  const bool LoadSwapped = &Ld == &A;
  auto Order = [](bool Swapped) {
    return Swapped ? "with threadIdx.x and threadIdx.y swapped"
                   : "in the current thread order";
  };
  // The tiled launch, for its duration: this access at its swapped cost,
  // its partner's as now, and the tile's shared accesses, one request per
  // global request of the side it serves (the partner keeps the current
  // order, this access the swapped one).
  Kernel TK = C.K;
  LaunchResult Tiled = Base;
  Tiled.K = &TK;
  Tiled.PerAccess[A.Id] = New;
  auto AddTile = [&](bool Store, uint64_t Requests, double PerRequest) {
    Access X;
    X.Id = int(TK.Accesses.size());
    X.Sp = Space::Shared;
    X.Kind = Store ? AccessKind::Store : AccessKind::Load;
    X.Size = A.Size;
    X.Array = "tile";
    TK.Accesses.push_back(X);
    AccessStats S;
    S.Requests = Requests;
    S.Units = uint64_t(std::llround(PerRequest * double(Requests)));
    Tiled.PerAccess.push_back(S);
  };
  const bool CurrentStores = O.Kind == AccessKind::Load;
  AddTile(CurrentStores, Base.PerAccess[O.Id].Requests, T->Current);
  AddTile(!CurrentStores, New.Requests, T->Swapped);
  // In a loop each iteration moves one element per thread: the tile is
  // staged once per iteration, and its requests are those of one pass.
  const bool Looping =
      innermostLoop(C.K.Body, A.Id) || innermostLoop(C.K.Body, O.Id);
  D.Fix = CheckedFix{
      std::string(Looping ? "in each iteration of the loop, stage" : "stage") +
          " each block's elements through a shared tile of " +
          std::to_string(A.Size) + "-byte elements, __shared__ tile[" + Rows +
          "][" + Cols + "]" +
          (T->Pad ? " (rows padded by " + std::to_string(T->Pad) + ")"
                  : std::string()) +
          ": load '" + Ld.Array + "' " + Order(LoadSwapped) +
          " into it, __syncthreads(), then store '" + St.Array + "' " +
          Order(!LoadSwapped) +
          " from it (the swapped threads address it as "
          "tile[threadIdx.x][threadIdx.y])" +
          (Looping ? ", and __syncthreads() again before the next iteration "
                     "writes the tile (every thread of a block must run the "
                     "same iterations)"
                   : ""),
      "re-simulated " + resimScope(L) + ": " + Gain + ", the " + opText(O) +
          " of '" + O.Array + "' stays at " +
          figure(Base.PerAccess[O.Id].perRequest()) +
          " per request, the kernel's global sectors go from " +
          std::to_string(SectorsBefore) + " to " + std::to_string(TileSectors) +
          "; the tile's shared accesses take " + figure(T->Current) +
          " (current order) and " + figure(T->Swapped) +
          " (swapped order) wavefronts per request" +
          (Looping ? " in every iteration" : "") +
          durationChange(C, Base, Tiled)};
}

/// Structure of arrays: a member of an array of structures read or
/// written across the warp (lanes a structure's size apart) becomes an
/// array of its own, lanes one element apart. Checked on a copy whose
/// accesses to the array have the structure's size as element size and no
/// member offset.
static void trySoA(const RuleContext &C, const Access &A, Diagnostic &D) {
  const AccessStats &S = C.R.PerAccess[A.Id];
  const int64_t Stride = S.Stride;
  if (!S.HasStride || Stride <= int64_t(A.Size) || Stride % A.Size ||
      Stride > 1024 ||
      (A.Text.find('.') == std::string::npos &&
       A.Text.find("->") == std::string::npos))
    return;
  bool Found = false;
  std::function<ExprPtr(const Expr &)> ToField =
      [&](const Expr &E) -> ExprPtr {
    if (E.Ops.size() != 2 || (E.Kind != Op::Mul && E.Kind != Op::Add))
      return nullptr;
    for (int I = 0; I < 2; ++I) {
      const Expr &K = *E.Ops[I];
      if (K.Kind != Op::Const)
        continue;
      if (E.Kind == Op::Mul && K.Value == Stride) {
        Found = true;
        auto M = std::make_shared<Expr>(E);
        M->Ops[I] = makeConst(A.Size, K.Type);
        return M;
      }
      // The member's offset in the structure: none in its own array.
      if (E.Kind == Op::Add && K.Value > 0 && K.Value < Stride)
        return rewriteExpr(E.Ops[1 - I], ToField);
    }
    return nullptr;
  };
  Kernel Copy = C.K;
  for (Access &X : Copy.Accesses)
    if (X.Array == A.Array && X.Sp == A.Sp)
      X.Address = rewriteExpr(X.Address, ToField);
  if (!Found)
    return;
  LaunchResult Storage, After = resimulate(Copy, C.R.L, C);
  const LaunchResult &Base = unchanged(C, Storage);
  if (!reproduces(C, Base, A))
    return;
  const AccessStats &Old = Base.PerAccess[A.Id], &New = After.PerAccess[A.Id];
  if (New.UnknownRequests || New.perRequest() >= Old.perRequest())
    return;
  D.Fix = CheckedFix{
      "store each member of the structures in '" + A.Array +
          "' as an array of its own (structure of arrays), so that "
          "neighbouring lanes are " +
          std::to_string(A.Size) + " bytes apart, not " +
          std::to_string(Stride),
      "re-simulated " + resimScope(C.R.L) + ": this " + opText(A) + " takes " +
          figure(New.perRequest()) + " sectors per request (from " +
          figure(Old.perRequest()) + ")" + durationChange(C, Base, After)};
}

/// A row walk: each thread runs a loop along its own row (a[r * cols + j],
/// j the loop's), so the lanes are a row apart and the loop moves one
/// element. Exchanging the roles of the two indices (as storing the array
/// transposed does) puts consecutive lanes on consecutive elements. Checked
/// by re-simulating the access with the two slots exchanged in its address.
static void tryLoopRoles(const RuleContext &C, const Access &A, Diagnostic &D) {
  const Stmt *Loop = innermostLoop(C.K.Body, A.Id);
  if (!Loop)
    return;
  const int V = inductionSlot(*Loop);
  if (V < 0 || !readsSlot(*A.Address, V))
    return;
  std::set<int> InLoop;
  assignedSlots(Loop->Body, InLoop);
  assignedSlots(Loop->CondPre, InLoop);
  assignedSlots(Loop->Step, InLoop);
  std::set<int> Candidates;
  rewriteExpr(A.Address, [&](const Expr &E) -> ExprPtr {
    if (E.Kind == Op::Var && E.Index != V && !InLoop.count(E.Index))
      Candidates.insert(E.Index);
    return nullptr;
  });
  LaunchResult Storage;
  const LaunchResult &Base = unchanged(C, Storage);
  if (!reproduces(C, Base, A))
    return;
  const AccessStats &Old = Base.PerAccess[A.Id];
  for (int W : Candidates) {
    auto Exchange = [&](const Expr &E) -> ExprPtr {
      if (E.Kind != Op::Var || (E.Index != V && E.Index != W))
        return nullptr;
      const int To = E.Index == V ? W : V;
      return makeCast(makeVar(To, C.K.Slots[To].Type), E.Type);
    };
    Kernel Copy = C.K;
    Copy.Accesses[A.Id].Address = rewriteExpr(A.Address, Exchange);
    LaunchResult After = resimulate(Copy, C.R.L, C);
    const AccessStats &New = After.PerAccess[A.Id];
    if (New.UnknownRequests || 2 * New.perRequest() > Old.perRequest())
      continue; // Not at least twice cheaper: not a row walk.
    const std::string &Own = C.K.Slots[W].Name, &Walk = C.K.Slots[V].Name;
    D.Fix = CheckedFix{
        "store '" + A.Array + "' transposed (its element [" + Own + "][" +
            Walk + "] at [" + Walk + "][" + Own + "]), so that '" + Own +
            "' (one per thread) moves one element and '" + Walk +
            "' (the loop's) one row: consecutive lanes then read consecutive "
            "elements (or give each row to a warp whose lanes take "
            "consecutive '" +
            Walk + "' and combine their partial results with shuffles)",
        "re-simulated " + resimScope(C.R.L) + " with '" + Own + "' and '" +
            Walk + "' exchanged in this address: this " + opText(A) +
            " takes " + figure(New.perRequest()) +
            " sectors per request (from " + figure(Old.perRequest()) + ")" +
            durationChange(C, Base, After)};
    return;
  }
}

void checkUncoalesced(const RuleContext &C, std::vector<Diagnostic> &Out,
                      AccessKind Kind, const char *Rule) {
  for (const Access &A : C.K.Accesses) {
    const AccessStats &S = C.R.PerAccess[A.Id];
    if (A.Sp != Space::Global || A.Kind != Kind || !S.Requests ||
        S.UnknownRequests)
      continue;
    double Eff = S.efficiencyPct(C.Arch.unitBytes(A));
    bool Excess =
        double(S.Units) > C.Policy.ExcessFactor * double(S.IdealUnits);
    bool Policy = C.Policy.MinEfficiencyPct && Eff < *C.Policy.MinEfficiencyPct;
    if (!Excess && !Policy)
      continue;
    Diagnostic D = accessDiagnostic(
        C, A, Rule, Policy ? Severity::Error : Severity::Warning);
    double Ideal = double(S.IdealUnits) / double(S.Requests);
    D.Message = std::string(Excess ? "uncoalesced" : "inefficient") +
                " global " + opText(A) +
                ofArray(A, Kind == AccessKind::Load ? " from " : " to ") +
                ": " + figure(S.perRequest()) + " sectors per request, ideal " +
                figure(Ideal) + " (" + figure(Eff) + "% efficiency)";
    if (Policy)
      D.Message += ", below --min-efficiency " +
                   figure(*C.Policy.MinEfficiencyPct) + "%";
    D.Message += " in " + C.K.Name;
    std::string Why = explainCause(A, S);
    if (!Why.empty())
      D.Notes.push_back({A.Loc, Why});
    if (Excess)
      trySwap(C, A, D);
    if (Excess && !D.Fix)
      trySoA(C, A, D);
    if (Excess && !D.Fix)
      tryLoopRoles(C, A, D);
    Out.push_back(std::move(D));
  }
}

} // namespace gmem
