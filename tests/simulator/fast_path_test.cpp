//===- fast_path_test.cpp - Classes of blocks == every warp, on random kernels
//
// The differential test of the fast path: thousands of kernel models drawn
// from a seeded generator (affine and non-affine index expressions, guards,
// nested loops with launch-dependent bounds, break and return, element sizes
// 1 to 16, global and shared accesses, the compiler's hoisted, reused and
// once-per-address forms, 1-, 2- and 3-D blocks of any size,
// grids that do not divide the data) are simulated by classes of alike blocks
// and by the reference that runs every warp; every count must be equal. A
// failure prints the case as a small kernel and its seed.
//
//===----------------------------------------------------------------------===//
#include "arch.h"
#include "build_model.h"
#include "early_exits.h"
#include "fast_path_compare.h"
#include "property_cases.h"
#include "simulate.h"

#include <gtest/gtest.h>
#include <random>
#include <sstream>

using namespace gmem;
using namespace gmem::test;

namespace {

class Generator {
public:
  explicit Generator(uint64_t Seed) : R(Seed) {}

  int pick(int N) { return int(R() % unsigned(N)); }
  bool chance(int Percent) { return pick(100) < Percent; }

  void build(Kernel &K, Launch &L) {
    K.Name = "random";
    Kp = &K;
    static const unsigned Sizes[] = {1, 2, 4, 8, 16};
    ElemA = Sizes[pick(5)];
    ElemB = Sizes[pick(5)];
    K.Params = {pointerParam("a", ElemA), pointerParam("b", ElemB),
                intParam("n"), intParam("m", U32), intParam("off", I64)};
    // Blocks: 1-, 2- or 3-D, sizes not multiples of 32 included.
    int Dims = 1 + pick(3);
    uint64_t BX = 1 + pick(Dims == 1 ? 200 : 48);
    uint64_t BY = Dims >= 2 ? 1 + pick(12) : 1;
    uint64_t BZ = Dims == 3 ? 1 + pick(4) : 1;
    L.Block = {BX, BY, BZ};
    L.Grid = {uint64_t(1 + pick(29)), uint64_t(1 + pick(chance(60) ? 9 : 1)),
              uint64_t(1 + pick(chance(30) ? 3 : 1))};
    int64_t N =
        pick(3) == 0 ? 1 + pick(5000) : int64_t(L.Grid.X * BX - pick(40));
    L.Args = {ptrArg("A", chance(20) ? pick(256) : 0),
              ptrArg(chance(15) ? "A" : "B", chance(20) ? pick(64) : 0),
              intArg(N), intArg(1 + pick(300)), intArg(offset())};
    L.Kernel = K.Name;
    if (chance(50)) {
      SharedArray S;
      S.Name = "tile";
      S.ElemSize = Sizes[pick(5)];
      S.Bytes = S.ElemSize * (32 + pick(1100));
      S.Dims = {S.Bytes / S.ElemSize};
      K.Shared.push_back(S);
    }
    for (int I = 0; I < 4; ++I)
      K.Slots.push_back({"v" + std::to_string(I), pick(2) ? I32 : U32});
    K.Slots.push_back({"i", I32});
    K.Slots.push_back({"j", I32});
    // Some values first, then statements.
    for (int I = 0; I < 2; ++I)
      K.Body.push_back(assign(I, index(2, K.Slots[I].Type)));
    int Count = 2 + pick(4);
    for (int I = 0; I < Count; ++I)
      K.Body.push_back(stmt(0));
  }

private:
  /// Integer leaves: thread and block indices, dims, parameters, slots.
  ExprPtr leaf(IntType T) {
    ExprPtr E;
    switch (pick(12)) {
    case 0:
    case 1:
      E = tx();
      break;
    case 2:
      E = ty();
      break;
    case 3:
      E = makeBuiltin(Builtin::ThreadIdxZ);
      break;
    case 4:
    case 5:
      E = bx();
      break;
    case 6:
      E = by();
      break;
    case 7:
      E = makeBuiltin(Builtin::BlockIdxZ);
      break;
    case 8:
      E = pick(2) ? bdx() : gdx();
      break;
    case 9:
      E = makeParam(pick(2) ? 2 : 3, pick(2) ? I32 : U32);
      break;
    case 10: {
      int S = pick(int(Vars));
      E = makeVar(S, Kp->Slots[S].Type);
    } break;
    default:
      E = c(pick(2) ? pick(70) : 1 << pick(12), T);
      break;
    }
    return E->Type == T ? E : cast(E, T);
  }

  /// An index expression of depth up to D: mostly affine, sometimes not.
  ExprPtr index(int D, IntType T) {
    if (D <= 0 || chance(25))
      return leaf(T);
    ExprPtr A = index(D - 1, T);
    switch (pick(14)) {
    case 0:
    case 1:
    case 2:
      return bin(Op::Add, A, index(D - 1, T));
    case 3:
      return bin(Op::Sub, A, index(D - 1, T));
    case 4:
    case 5:
      return bin(Op::Mul, A, c(1 + pick(64), T));
    case 6:
      return bin(Op::Mul, A, index(D - 1, T)); // Often not affine.
    case 7:
      return bin(Op::Div, A, pick(3) ? c(1 + pick(64), T) : leaf(T));
    case 8:
      return bin(Op::Rem, A, pick(3) ? c(1 + pick(64), T) : leaf(T));
    case 9:
      return makeBinary(Op::Shr, A, c(pick(6), I32), T);
    case 10:
      return makeBinary(Op::Shl, A, c(pick(5), I32), T);
    case 11:
      return bin(pick(2) ? Op::And : Op::Xor, A,
                 c(pick(2) ? 31 : pick(300), T));
    case 12:
      return makeBinary(pick(2) ? Op::Min : Op::Max, A, index(D - 1, T), T);
    default:
      return makeSelect(cond(D - 1), A, index(D - 1, T), T);
    }
  }

  ExprPtr cond(int D) {
    IntType T = pick(2) ? I32 : U32;
    static const Op Cmp[] = {Op::Lt, Op::Le, Op::Gt, Op::Ge, Op::Eq, Op::Ne};
    ExprPtr E = bin(Cmp[pick(6)], index(D, T), index(D, T));
    if (chance(15))
      E = bin(pick(2) ? Op::LAnd : Op::LOr, E,
              bin(Op::Lt, index(D, T), makeParam(2, I32)));
    return E;
  }

  Stmt access() {
    Stmt S = sourceAccess();
    // What the compiler may have made of it (CompiledForm): the fast path
    // models these as the reference does.
    Access &X = Kp->Accesses.back();
    CompiledForm &C = X.Compiled;
    // Atomics as reductions, or issued by one elected lane (nvcc's
    // aggregation); the model's other issue forms.
    if (X.Kind == AccessKind::Atomic) {
      X.Reduction = chance(50);
      C.OneLane = chance(30);
    }
    switch (pick(13)) {
    case 10:
      C.State = CompiledForm::NoInstruction;
      return S;
    case 11:
    case 12:
      // A struct copy of which the compiler moves some parts.
      if (X.Size >= 4 && X.Kind != AccessKind::Atomic) {
        C.State = CompiledForm::Split;
        C.Width = X.Size / (chance(50) ? 2 : 4);
        for (unsigned Off = 0; Off < X.Size; Off += C.Width)
          if (chance(60) || Off + C.Width == X.Size)
            C.Parts.push_back(Off);
        C.OneLane = false;
      }
      return S;
    case 0:
      C.State = CompiledForm::Reused;
      break;
    case 1:
      C.State = CompiledForm::Hoisted;
      C.Loop = pick(2);
      break;
    case 2:
    case 3:
      C.State = CompiledForm::OncePerAddress;
      C.Loop = pick(2);
      break;
    case 4:
    case 5: {
      // Merged into an 8- or 16-byte instruction, across iterations of a
      // loop or with the accesses before it (its leader).
      const Access &A = Kp->Accesses.back();
      unsigned Width = A.Size < 8 && chance(50) ? 8 : 16;
      if (A.Size >= Width)
        break;
      C.State = CompiledForm::Merged;
      C.Width = Width;
      if (chance(50)) {
        C.Loop = pick(2);
      } else {
        C.Leader = A.Id;
        for (int B = A.Id - 1; B >= 0 && chance(70); --B)
          if (Kp->Accesses[size_t(B)].Size == A.Size)
            C.Leader = B;
      }
      break;
    }
    default:
      break;
    }
    return S;
  }

  /// An index offset near where pointer arithmetic on a leaves the address
  /// space (below 0, or an offset of 2^63 bytes), or 0.
  int64_t offset() {
    const int64_t Size = ElemA, Near = pick(600) - 300;
    switch (pick(4)) {
    case 0: // The index adds up to a few thousand: it crosses 2^63 / Size.
      return INT64_MAX / Size - pick(600);
    case 1: // a is the first allocation, at 2^36.
      return -(int64_t(1) << 36) / Size + Near;
    default:
      return 0;
    }
  }

  Stmt sourceAccess() {
    Kernel &K = *Kp;
    int Kind = pick(3);
    AccessKind AK = Kind == 0   ? AccessKind::Load
                    : Kind == 1 ? AccessKind::Store
                                : AccessKind::Atomic;
    if (!K.Shared.empty() && chance(35)) {
      const SharedArray &S = K.Shared[0];
      ExprPtr I = index(3, U32);
      if (chance(85))
        I = bin(Op::Rem, I, c(int64_t(S.Bytes / S.ElemSize), U32));
      ExprPtr Addr =
          add(c(int64_t(S.Offset), U64), mul(cast(I, U64), c(S.ElemSize, U64)));
      return addAccess(K, Space::Shared,
                       AK == AccessKind::Atomic && chance(70) ? AccessKind::Load
                                                              : AK,
                       S.ElemSize, Addr, "tile[" + toString(*I, &K) + "]", 0);
    }
    int P = pick(2);
    IntType T = pick(4) == 0 ? I64 : pick(2) ? I32 : U32;
    ExprPtr I = index(3, T);
    if (P == 0 && chance(30)) // Far from the allocation: pointer overflow.
      I = add(cast(I, I64), makeParam(4, I64));
    unsigned Size = P ? ElemB : ElemA;
    return addAccess(K, Space::Global, AK, Size, elem(P, I, Size),
                     std::string(P ? "b" : "a") + "[" + toString(*I, &K) + "]");
  }

  Stmt stmt(int Depth) {
    switch (pick(Depth >= 2 ? 4 : 8)) {
    case 0:
    case 1:
      return access();
    case 2: {
      int S = pick(4);
      return assign(S, index(2, Kp->Slots[S].Type));
    }
    case 3:
      if (chance(15))
        return simple(Depth > 0 && chance(60) ? StmtKind::Break
                                              : StmtKind::Return);
      return access();
    case 4:
    case 5: {
      std::vector<Stmt> Then, Else;
      for (int I = 1 + pick(2); I > 0; --I)
        Then.push_back(stmt(Depth + 1));
      if (chance(40))
        Else.push_back(stmt(Depth + 1));
      return ifStmt(cond(2), Then, Else);
    }
    default: {
      // for (i = start; i < bound; i += step), bounds from the launch.
      int Slot = Depth == 0 ? 4 : 5;
      ExprPtr Start =
          chance(50) ? c(0) : makeBinary(Op::Max, index(1, I32), c(-20), I32);
      ExprPtr Bound = pick(3) == 0 ? c(1 + pick(9)) : index(2, I32);
      ExprPtr Step = c(1 + pick(pick(2) ? 3 : 40));
      if (chance(30))
        Bound = bin(Op::Min, Bound, c(3 + pick(20)));
      std::vector<Stmt> Body;
      for (int I = 1 + pick(3); I > 0; --I)
        Body.push_back(stmt(Depth + 1));
      Stmt S;
      S.Kind = StmtKind::Call; // Keep the loop bounded: i runs from Start.
      S.Body = {assign(Slot, Start),
                loop(bin(Op::Lt, makeVar(Slot, I32),
                         bin(Op::Min, Bound, c(8 + pick(24)))),
                     Body, {assign(Slot, add(makeVar(Slot, I32), Step))})};
      if (Vars < 6 && chance(50))
        Vars = 6; // Loop counters may now appear in indices.
      return S;
    }
    }
  }

  std::mt19937_64 R;
  Kernel *Kp = nullptr;
  unsigned ElemA = 4, ElemB = 4;
  unsigned Vars = 4;
};

TEST(FastPath, EqualsEveryWarpOnRandomKernels) {
  // Seeded: a failure names its seed; GMEM_FAST_PATH_CASES runs more.
  uint64_t Cases = propertyCases(2000);
  if (const char *E = std::getenv("GMEM_FAST_PATH_CASES"))
    Cases = std::strtoull(E, nullptr, 10);
  uint64_t Derived = 0, Warps = 0, Overflowing = 0, PartlyOverflowing = 0;
  for (uint64_t Seed = 1; Seed <= Cases; ++Seed) {
    Generator G(Seed * 0x9E3779B97F4A7C15ull);
    Kernel K;
    Launch L;
    G.build(K, L);
    if (!validateLaunch(K, L, *findArch("sm_90")))
      continue;
    LaunchResult F;
    std::string Diff = compareFastPath(K, L, &F);
    ASSERT_EQ(Diff, "") << "seed " << Seed << "\n" << kernelText(K, L);
    if (::testing::Test::HasFailure())
      return;
    Derived += F.WarpsDerived;
    Warps += L.Grid.count() * ((L.Block.count() + 31) / 32);
    for (const AccessStats &S : F.PerAccess) {
      Overflowing += S.OverflowRequests > 0;
      PartlyOverflowing +=
          S.OverflowRequests > 0 && S.OverflowRequests < S.Requests;
    }
  }
  // The generator must exercise the classes, not only single blocks, and
  // pointer arithmetic that leaves the address space in some blocks only.
  EXPECT_GT(Derived, Warps / 4);
  EXPECT_GT(Overflowing, Cases / 100);
  EXPECT_GT(PartlyOverflowing, Cases / 400);
  std::cout << Overflowing << " accesses left the address space, "
            << PartlyOverflowing << " in some requests only\n";
}

// Two models libFuzzer found (fuzz/simulator_fuzzer, CI of 2026-11-23), each
// a shared access whose address lies just below 2^64.
Kernel sharedNearTop(ExprPtr Index, unsigned Size, Launch &L, int64_t N) {
  Kernel K;
  K.Name = "near_top";
  K.Params = {pointerParam("a", 4), intParam("n")};
  SharedArray Tile;
  Tile.Name = "tile";
  Tile.Bytes = 2960;
  K.Shared = {Tile};
  K.Slots = {{"s", I32}};
  K.Body = {addAccess(K, Space::Shared, AccessKind::Load, Size,
                      cast(Index, U64), "tile[i]", 0)};
  L.Kernel = K.Name;
  L.Block = {35, 3, 2};
  L.Grid = {3, 2, 1};
  L.Args = {ptrArg("a"), intArg(N)};
  return K;
}

TEST(FastPath, AddressPastTwoToTheSixtyFourIsUnknownOnBothPaths) {
  // 8 bytes at n * 8 + 1 = -7: the last bytes wrap past 2^64.
  Launch L;
  Kernel K = sharedNearTop(
      add(mul(cast(makeParam(1, I32), I64), c(8, I64)), c(1, I64)), 8, L, -1);
  EXPECT_EQ(compareFastPath(K, L), "") << kernelText(K, L);
  LaunchResult R = simulate(K, L, SimOptions());
  EXPECT_EQ(R.PerAccess[0].UnknownRequests, R.PerAccess[0].Requests);
}

TEST(FastPath, OneByteBelowTwoToTheSixtyFourIsOutOfBounds) {
  // max(2 * (tx - 3), -3) + 1: lanes tx = 0, 1, 2 read bytes -2, -2 and -1,
  // outside the tile; the every-warp check once let -1 + 1 wrap to 0.
  Launch L;
  Kernel K = sharedNearTop(
      add(bin(Op::Max, mul(c(2), add(cast(tx(), I32), c(-3))), c(-3)), c(1)), 1,
      L, 0);
  EXPECT_EQ(compareFastPath(K, L), "") << kernelText(K, L);
  LaunchResult R = simulate(K, L, SimOptions());
  // 3 lanes in each of the 6 rows of 35 threads, in each of the 6 blocks.
  EXPECT_EQ(R.PerAccess[0].OutOfBoundsLanes, 3u * 6 * 6);
}

// A dot product per thread, as a GEMM computes it: the loaded values go
// into an accumulator that only the final store writes back. They reach no
// address and no condition, so the kernel is priced by classes of blocks
// (once every warp, 100 s for a 1024^3 tiled GEMM); with the loaded value
// in the store's index instead, every warp runs, as its bounds need.
Kernel dotProduct(bool LoadedIndex) {
  Kernel K;
  K.Name = "dot";
  K.Params = {pointerParam("a", 4), pointerParam("c", 4), intParam("n")};
  K.Slots = {{"row", I32}, {"i", I32}, {"acc", I32}};
  ExprPtr Row = makeVar(0, I32), I = makeVar(1, I32), Acc = makeVar(2, I32);
  ExprPtr N = makeParam(2, I32);
  ExprPtr AAt = elem(0, add(mul(Row, N), I), 4);
  Stmt Load = addAccess(K, Space::Global, AccessKind::Load, 4, AAt, "a[..]");
  ExprPtr Loaded = makeLoaded("loaded", AAt, I32, false);
  ExprPtr CAt = elem(1, LoadedIndex ? Acc : Row, 4);
  Stmt Store = addAccess(K, Space::Global, AccessKind::Store, 4, CAt, "c[..]");
  K.Body = {assign(0, add(mul(bx(), bdx()), tx())), assign(2, c(0)),
            assign(1, c(0)),
            loop(bin(Op::Lt, I, N), {Load, assign(2, add(Acc, Loaded))},
                 {assign(1, add(I, c(1)))}),
            Store};
  return K;
}

TEST(FastPath, LoadedValuesThatReachNoAddressKeepTheFastPath) {
  for (bool LoadedIndex : {false, true}) {
    Kernel K = dotProduct(LoadedIndex);
    Launch L = launchOf("dot", {64, 1, 1}, {128, 1, 1},
                        {ptrArg("A"), ptrArg("C"), intArg(16)});
    LaunchResult F;
    EXPECT_EQ(compareFastPath(K, L, &F), "") << kernelText(K, L);
    // 64 blocks of 4 warps: one block's warps run, the rest are derived.
    EXPECT_EQ(F.WarpsDerived, LoadedIndex ? 0u : 63u * 4) << LoadedIndex;
    EXPECT_EQ(F.PerAccess[0].Requests, 64u * 4 * 16);
    EXPECT_EQ(F.PerAccess[1].UnknownRequests, LoadedIndex ? 64u * 4 : 0u);
  }
}

// HeCBench's winograd: `for (j < 4) { if (x >= n) { ...; continue; }
// load }`, unrolled, with the load predicated by ptxas. A warp whose lanes
// all continue still executes the load, with no lane, as the H200 counted
// (tests/data/measured/hecbench4, hec4_winograd.json: 8 to 128 such
// executions a launch). Here 4 blocks of one warp, 2 of them past n: 4
// predicated-off executions each, on both paths. With a loaded value in
// the condition the code after it is left as written (its unknown lanes
// run it as before): no predicated-off count.
TEST(FastPath, CodeAfterAContinueIsTheOtherSideOfItsIf) {
  for (bool LoadedCond : {false, true}) {
    Kernel K;
    K.Name = "tiles";
    K.Params = {pointerParam("a", 4), intParam("n")};
    K.Slots = {{"x", I32}, {"j", I32}};
    ExprPtr X = makeVar(0, I32), J = makeVar(1, I32), N = makeParam(1, I32);
    ExprPtr At = elem(0, add(mul(X, c(4)), J), 4);
    Stmt Load = addAccess(K, Space::Global, AccessKind::Load, 4, At, "a[..]");
    K.Accesses[0].Compiled.Guarded = true;
    ExprPtr Past = bin(Op::Ge, X, N);
    if (LoadedCond)
      Past = bin(Op::LOr, Past,
                 bin(Op::Eq, makeLoaded("loaded", At, I32, false), c(0)));
    K.Body = {assign(0, add(mul(bx(), bdx()), tx())), assign(1, c(0)),
              loop(bin(Op::Lt, J, c(4)),
                   {ifStmt(Past, {simple(StmtKind::Continue)}), Load},
                   {assign(1, add(J, c(1)))})};
    Launch L =
        launchOf("tiles", {4, 1, 1}, {32, 1, 1}, {ptrArg("A"), intArg(64)});
    LaunchResult F;
    EXPECT_EQ(compareFastPath(K, L, &F), "") << kernelText(K, L);
    EXPECT_EQ(F.PerAccess[0].PredicatedOff, LoadedCond ? 0u : 2u * 4)
        << LoadedCond;
    if (!LoadedCond)
      EXPECT_EQ(F.PerAccess[0].Requests, 2u * 4);
  }
}

/// simulate()'s counts of access 0 against every warp of K as written,
/// which the fold must not change; and whether K was folded.
bool foldKeepsCounts(const Kernel &K, const Launch &L, uint64_t &Requests) {
  const ArchRules &Arch = *findArch("sm_90");
  LaunchEnv Env = makeLaunchEnv(K, L);
  std::vector<AccessStats> Ref(K.Accesses.size());
  WarpEvaluator W(K, Arch, Env, Ref);
  const unsigned Warps = unsigned((L.Block.count() + 31) / 32);
  for (uint64_t B = 0; B < L.Grid.X; ++B)
    for (unsigned Wp = 0; Wp < Warps; ++Wp)
      W.runWarp({B, 0, 0}, Wp);
  LaunchResult R = simulate(K, L, SimOptions{});
  const AccessStats &S = R.PerAccess[0];
  EXPECT_EQ(S.Requests, Ref[0].Requests);
  EXPECT_EQ(S.UnknownRequests, Ref[0].UnknownRequests);
  EXPECT_EQ(S.Units, Ref[0].Units);
  Requests = S.Requests;
  return withEarlyExitsFolded(K, Env).has_value();
}

/// `x = blockIdx.x * blockDim.x + threadIdx.x; [y = 0;] for (j = 0; j < 4;
/// ++j) { if (Cond) continue; a[x * 4 + j]; y = x; }` over 2 blocks of 64.
Kernel continueAfter(ExprPtr Cond, bool SetFirst) {
  Kernel K;
  K.Name = "tiles";
  K.Params = {pointerParam("a", 4), intParam("n")};
  K.Slots = {{"x", I32}, {"j", I32}, {"y", I32}};
  ExprPtr X = makeVar(0, I32), J = makeVar(1, I32);
  Stmt Load = addAccess(K, Space::Global, AccessKind::Load, 4,
                        elem(0, add(mul(X, c(4)), J), 4), "a[..]");
  K.Body = {assign(0, add(mul(bx(), bdx()), tx())), assign(1, c(0))};
  if (SetFirst)
    K.Body.push_back(assign(2, c(0)));
  K.Body.push_back(
      loop(bin(Op::Lt, J, c(4)),
           {ifStmt(Cond, {simple(StmtKind::Continue)}), Load, assign(2, X)},
           {assign(1, add(J, c(1)))}));
  return K;
}

// Found by the simulator fuzzer: the evaluator holds a slot unknown until
// it is set, so an if whose condition reads one before is unknown in those
// lanes, and they run the code after it; folded into the else, that code
// was skipped (60 unknown requests where running every warp of the kernel
// as written gave 24).
TEST(FastPath, AnIfThatReadsASlotBeforeItIsSetIsNotFolded) {
  const Launch L =
      launchOf("tiles", {2, 1, 1}, {64, 1, 1}, {ptrArg("A"), intArg(64)});
  for (bool SetFirst : {false, true}) {
    Kernel K = continueAfter(bin(Op::Gt, makeVar(2, I32), c(0)), SetFirst);
    uint64_t Requests = 0;
    EXPECT_EQ(foldKeepsCounts(K, L, Requests), SetFirst);
    // Set first: every lane but x == 0 continues after the first pass (4
    // warps, then lane 0's warp three times more).
    if (SetFirst)
      EXPECT_EQ(Requests, 4u + 3u);
  }
}

// The same for a division by zero in some lanes, which the evaluator makes
// unknown there (found by the fuzzer too): `x / (x % 4)` is not folded;
// `x / n` with n = 64 recorded, and `x / blockDim.x`, are.
TEST(FastPath, AnIfThatMayDivideByZeroIsNotFolded) {
  const Launch L =
      launchOf("tiles", {2, 1, 1}, {64, 1, 1}, {ptrArg("A"), intArg(64)});
  ExprPtr X = makeVar(0, I32), N = makeParam(1, I32);
  const std::pair<ExprPtr, bool> Cases[] = {
      {bin(Op::Div, X, bin(Op::Rem, X, c(4))), false},
      {bin(Op::Div, X, N), true},
      {bin(Op::Div, X, cast(bdx(), I32)), true}};
  for (const auto &[Quotient, Folds] : Cases) {
    Kernel K = continueAfter(bin(Op::Gt, Quotient, c(0)), true);
    uint64_t Requests = 0;
    EXPECT_EQ(foldKeepsCounts(K, L, Requests), Folds);
    // x / 64 > 0 holds in block 1 only: block 0's two warps load in every
    // pass.
    if (Folds)
      EXPECT_EQ(Requests, 2u * 4);
  }
}

} // namespace
