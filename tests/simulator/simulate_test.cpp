//===- simulate_test.cpp - Whole launches, metrics and validation ---------===//
#include "build_model.h"
#include "simulate.h"

#include <chrono>
#include <condition_variable>
#include <mutex>

#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::test;

namespace {

/// seed 001's global_add_broadcast: z[n] = x[0] + y[n], <<<128, 32>>>.
Kernel broadcastKernel() {
  Kernel K;
  K.Name = "global_add_broadcast";
  K.Params = {pointerParam("x", 4), pointerParam("y", 4), pointerParam("z", 4)};
  K.Slots = {{"n", I32}};
  auto N = makeVar(0, I32);
  K.Body.push_back(assign(0, cast(add(tx(), mul(bx(), bdx())), I32)));
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Load, 4,
                             elem(0, c(0), 4), "x[0]"));
  K.Body.push_back(
      addAccess(K, Space::Global, AccessKind::Load, 4, elem(1, N, 4), "y[n]"));
  K.Body.push_back(
      addAccess(K, Space::Global, AccessKind::Store, 4, elem(2, N, 4), "z[n]"));
  return K;
}

Launch launch128x32() {
  Launch L;
  L.Kernel = "global_add_broadcast";
  L.Grid = {128, 1, 1};
  L.Block = {32, 1, 1};
  L.Args = {ptrArg("x"), ptrArg("y"), ptrArg("z")};
  return L;
}

TEST(Simulate, BroadcastAggregatesLikeNsightCompute) {
  // groundtruth/README.md: 2.5 sectors per load request, (4 + 128) /
  // (5 x 32) = 82.5 % load efficiency; 256 load requests.
  Kernel K = broadcastKernel();
  LaunchResult R = simulate(K, launch128x32(), {});
  EXPECT_EQ(*R.Metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"].Value,
            256);
  EXPECT_EQ(*R.Metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"].Value,
            640);
  EXPECT_DOUBLE_EQ(*R.Metrics["gld_transactions_per_request"].Value, 2.5);
  EXPECT_DOUBLE_EQ(*R.Metrics["gld_efficiency"].Value, 82.5);
  EXPECT_DOUBLE_EQ(*R.Metrics["gst_efficiency"].Value, 100.0);
  EXPECT_EQ(R.PerAccess[0].Units, 128u); // x[0]: one sector per request.
  EXPECT_EQ(R.Warps, 128u);
}

TEST(Simulate, ThreadCountDoesNotChangeTotals) {
  Kernel K = broadcastKernel();
  SimOptions One, Three;
  One.Threads = 1;
  Three.Threads = 3;
  LaunchResult A = simulate(K, launch128x32(), One);
  LaunchResult B = simulate(K, launch128x32(), Three);
  for (size_t I = 0; I < K.Accesses.size(); ++I) {
    EXPECT_EQ(A.PerAccess[I].Units, B.PerAccess[I].Units);
    EXPECT_EQ(A.PerAccess[I].Requests, B.PerAccess[I].Requests);
    EXPECT_EQ(A.PerAccess[I].DistinctBytes, B.PerAccess[I].DistinctBytes);
  }
}

// A null pointer argument is address 0: `if (p != NULL) p[...] = ...`
// does not run (the CUDA samples' shfl_scan launches its scan kernel once
// with partial_sums = NULL).
TEST(Simulate, NullPointerArgumentIsZero) {
  Kernel K;
  K.Name = "k";
  K.Params = {pointerParam("p", 4)};
  K.Body.push_back(ifStmt(bin(Op::Ne, makeParam(0, U64), c(0, U64)),
                          {addAccess(K, Space::Global, AccessKind::Store, 4,
                                     elem(0, tx(), 4), "p[threadIdx.x]")}));
  Launch L;
  L.Kernel = "k";
  L.Grid = {2, 1, 1};
  L.Block = {32, 1, 1};
  L.Args = {ptrArg(NullPointer)};
  LaunchResult R = simulate(K, L, {});
  EXPECT_EQ(R.PerAccess[0].Requests, 0u);
  L.Args = {ptrArg("buffer")};
  R = simulate(K, L, {});
  EXPECT_EQ(R.PerAccess[0].Requests, 2u);
}

TEST(Simulate, UnknownAddressMakesTheMetricUnknown) {
  Kernel K = broadcastKernel();
  K.Accesses[1].UnknownReason = "depends on data loaded by idx[n]";
  LaunchResult R = simulate(K, launch128x32(), {});
  EXPECT_FALSE(R.Metrics["gld_transactions_per_request"].Value.has_value());
  EXPECT_NE(R.Metrics["gld_efficiency"].UnknownReason.find("idx[n]"),
            std::string::npos);
  // Requests do not depend on addresses; stores are unaffected.
  EXPECT_EQ(*R.Metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"].Value,
            256);
  EXPECT_DOUBLE_EQ(*R.Metrics["gst_transactions_per_request"].Value, 4.0);
}

TEST(Simulate, SharedOutOfBoundsIsReported) {
  // tile[16][32] read at tile[irow][icol] with irow = tid / 16 up to 31.
  Kernel K;
  K.Name = "oob";
  SharedArray A;
  A.Name = "tile";
  A.Bytes = 16 * 32 * 4;
  A.Dims = {16, 32};
  K.Shared.push_back(A);
  auto Tid = add(mul(ty(), bdx()), tx());
  auto Addr = mul(add(mul(bin(Op::Div, Tid, c(16, U32)), c(32, U32)),
                      bin(Op::Rem, Tid, c(16, U32))),
                  c(4, U32));
  K.Body.push_back(addAccess(K, Space::Shared, AccessKind::Load, 4,
                             cast(Addr, U64), "tile[irow][icol]", 0));
  Launch L;
  L.Grid = {1, 1, 1};
  L.Block = {32, 16, 1};
  LaunchResult R = simulate(K, L, {});
  // Threads 256..511 have irow >= 16: 256 lanes out of bounds.
  EXPECT_EQ(R.PerAccess[0].OutOfBoundsLanes, 256u);
  ASSERT_EQ(R.Diagnostics.size(), 1u);
  EXPECT_NE(R.Diagnostics[0].find("out of bounds"), std::string::npos);
  EXPECT_NE(R.Diagnostics[0].find("thread 256"), std::string::npos);
}

// The example lane came from whichever thread was listed first, so with
// blocks dealt round-robin to 3 threads the report named block 3 (thread
// 0's) instead of block 1. fuzz/simulator_fuzzer checks that diagnostics
// do not depend on the thread count.
TEST(Simulate, OutOfBoundsExampleIsTheFirstInLaunchOrder) {
  Kernel K;
  K.Name = "oob";
  SharedArray A;
  A.Name = "tile";
  A.Bytes = 128;
  K.Shared.push_back(A);
  // tile[tx] for blocks 0 and 2; tile[tx + 32] (past the end) otherwise.
  auto Odd = bin(Op::Ne, bin(Op::Rem, bx(), c(2, U32)), c(0, U32));
  auto Index = add(tx(), makeSelect(Odd, c(32, U32), c(0, U32), U32));
  K.Body.push_back(addAccess(K, Space::Shared, AccessKind::Load, 4,
                             cast(mul(Index, c(4, U32)), U64), "tile[i]", 0));
  Launch L;
  L.Grid = {4, 1, 1};
  L.Block = {32, 1, 1};
  for (unsigned Threads : {1u, 2u, 3u}) {
    SimOptions O;
    O.Threads = Threads;
    LaunchResult R = simulate(K, L, O);
    EXPECT_EQ(R.PerAccess[0].OutOfBoundsLanes, 64u); // Blocks 1 and 3.
    ASSERT_EQ(R.Diagnostics.size(), 1u);
    EXPECT_NE(R.Diagnostics[0].find("block (1,0,0), thread 0,"),
              std::string::npos)
        << Threads << ": " << R.Diagnostics[0];
  }
}

TEST(Simulate, MisalignedWideAccessIsReported) {
  // reinterpret_cast<float4 *>(a + 1)[t]: 16-byte accesses 4 bytes past
  // alignment fault on the GPU.
  Kernel K;
  K.Name = "mis";
  K.Params = {pointerParam("a", 16)};
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Load, 16,
                             add(c(4, U64), elem(0, tx(), 16)), "q[t]"));
  Launch L;
  L.Grid = {2, 1, 1};
  L.Block = {32, 1, 1};
  L.Args = {ptrArg("a")};
  LaunchResult R = simulate(K, L, {});
  EXPECT_EQ(R.PerAccess[0].MisalignedLanes, 64u);
  ASSERT_EQ(R.Diagnostics.size(), 1u);
  EXPECT_NE(R.Diagnostics[0].find("misaligned"), std::string::npos);
  EXPECT_NE(R.Diagnostics[0].find("address % 16 = 4"), std::string::npos);
}

TEST(Simulate, SharedAtomicsAreUnknownNotGuessed) {
  Kernel K;
  K.Name = "hist";
  SharedArray A;
  A.Name = "h";
  A.Bytes = 7 * 4;
  K.Shared.push_back(A);
  K.Body.push_back(addAccess(
      K, Space::Shared, AccessKind::Atomic, 4,
      cast(mul(bin(Op::Rem, tx(), c(7, U32)), c(4, U32)), U64), "h[t % 7]", 0));
  Launch L;
  L.Block = {32, 1, 1};
  LaunchResult R = simulate(K, L, {});
  EXPECT_EQ(R.PerAccess[0].Requests, 1u);
  EXPECT_EQ(R.PerAccess[0].UnknownRequests, 1u);
  EXPECT_NE(R.PerAccess[0].UnknownReason.find("atomics"), std::string::npos);
}

/// in[t] copied to buf[t] asynchronously, then x[t] loaded: one warp.
Kernel asyncKernel() {
  Kernel K;
  K.Name = "async";
  K.Params = {pointerParam("in", 4), pointerParam("x", 4)};
  SharedArray A;
  A.Name = "buf";
  A.Bytes = 32 * 4;
  K.Shared.push_back(A);
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Load, 4,
                             elem(0, mul(tx(), c(2, U32)), 4), "in[2 * t]"));
  K.Body.push_back(addAccess(K, Space::Shared, AccessKind::Store, 4,
                             cast(mul(tx(), c(4, U32)), U64), "buf[t]", 0));
  K.Accesses[0].AsyncPartner = 1;
  K.Accesses[1].AsyncPartner = 0;
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Load, 4,
                             elem(1, tx(), 4), "x[t]"));
  return K;
}

TEST(Simulate, AsyncCopyCountsAsAnL1LoadOnly) {
  // Measured on an H100 (examples/async_copy.cu): L1's load requests and
  // sectors hold LDGSTS; the SASS load counters and the load efficiency
  // (over LDG) do not; the shared side is in no shared load or store figure.
  Launch L;
  L.Block = {32, 1, 1};
  L.Args = {ptrArg("in"), ptrArg("x")};
  LaunchResult R = simulate(asyncKernel(), L, {});
  auto V = [&](const char *N) { return R.Metrics.at(N).Value.value_or(-1); };
  EXPECT_EQ(V("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 2);
  // 8 sectors for the strided copy, 4 for x[t].
  EXPECT_EQ(V("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 12);
  EXPECT_EQ(V("gld_transactions_per_request"), 6);
  EXPECT_EQ(V("smsp__sass_inst_executed_op_ldgsts.sum"), 1);
  EXPECT_EQ(V("gld_efficiency"), 100); // x[t] alone
  EXPECT_EQ(V("smsp__sass_inst_executed_op_shared_st.sum"), 0);
  EXPECT_FALSE(R.Metrics.at("shared_efficiency").Value);
}

TEST(Simulate, ReductionsAndAtomicsAreSeparateFigures) {
  // atomicAdd(&s[0], v) unused (RED) and old = atomicAdd(&c[t], 1) (ATOM).
  Kernel K;
  K.Name = "atoms";
  K.Params = {pointerParam("s", 4), pointerParam("c", 4)};
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Atomic, 4,
                             elem(0, c(0), 4), "s[0]"));
  K.Accesses[0].Reduction = true;
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Atomic, 4,
                             elem(1, tx(), 4), "c[t]"));
  Launch L;
  L.Block = {64, 1, 1};
  L.Args = {ptrArg("s"), ptrArg("c")};
  LaunchResult R = simulate(K, L, {});
  auto V = [&](const char *N) { return R.Metrics.at(N).Value.value_or(-1); };
  EXPECT_EQ(V("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"), 2);
  EXPECT_EQ(V("l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"), 64);
  EXPECT_EQ(V("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"), 2);
  EXPECT_EQ(V("l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"), 8);
  // The same reduction nvcc aggregated: one lane per warp, one sector.
  K.Accesses[0].Compiled.OneLane = true;
  LaunchResult One = simulate(K, L, {});
  EXPECT_EQ(One.Metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum")
                .Value.value_or(-1),
            2);
  EXPECT_EQ(One.PerAccess[0].ActiveLanes, 2u);
}

TEST(Simulate, SassInstructionNoAccessClaimsMakesItsFiguresUnknown) {
  Kernel K = broadcastKernel();
  K.Sass.Read = true;
  SassAccount::UnclaimedInstr U;
  U.Opcode = "LDG.E.128";
  U.Loc = {"b.cu", 7, 0};
  K.Sass.Unclaimed.push_back(U);
  LaunchResult R = simulate(K, launch128x32(), {});
  const Metric &Ld = R.Metrics.at("gld_transactions_per_request");
  EXPECT_FALSE(Ld.Value);
  EXPECT_NE(Ld.UnknownReason.find("LDG.E.128 on b.cu:7"), std::string::npos)
      << Ld.UnknownReason;
  // Not even the request count is known; the stores are.
  EXPECT_FALSE(
      R.Metrics.at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum").Value);
  EXPECT_TRUE(R.Metrics.at("gst_transactions_per_request").Value);
}

TEST(Simulate, AccessesWithoutInstructionIssueNothing) {
  Kernel K = broadcastKernel();
  K.Accesses[0].Compiled.State = CompiledForm::NoInstruction;
  K.Accesses[1].Compiled.State = CompiledForm::Selected;
  K.Accesses[1].Compiled.Leader = 2;
  LaunchResult R = simulate(K, launch128x32(), {});
  EXPECT_EQ(R.PerAccess[0].Requests, 0u);
  EXPECT_EQ(R.PerAccess[1].Requests, 0u);
  EXPECT_EQ(R.PerAccess[2].Requests, 128u);
}

TEST(Simulate, LoopThatNeverEndsIsReportedAtOnce) {
  // while (true) a[t] = 0;  (no break, no return)
  Kernel K;
  K.Name = "spin";
  K.Params = {pointerParam("a", 4)};
  Stmt Acc = addAccess(K, Space::Global, AccessKind::Store, 4, elem(0, tx(), 4),
                       "a[t]");
  K.Body.push_back(loop(c(1, Bool), {Acc}, {}));
  Launch L;
  L.Grid = {100, 1, 1};
  L.Block = {1024, 1, 1};
  L.Args = {ptrArg("a")};
  LaunchResult R = simulate(K, L, {});
  EXPECT_EQ(R.PerAccess[0].Units, 0u);
  EXPECT_GT(R.PerAccess[0].UnknownRequests, 0u);
  EXPECT_NE(R.PerAccess[0].UnknownReason.find("never ends"), std::string::npos);
}

/// validateLaunch's message; empty when the launch is valid.
std::string whyInvalid(const Kernel &K, const Launch &L, const ArchRules &A) {
  Expected<void> Valid = validateLaunch(K, L, A);
  return Valid ? "" : Valid.error();
}

TEST(Validate, RejectsBadBlocksAndMissingValues) {
  Kernel K = broadcastKernel();
  const ArchRules &A = *findArch("sm_90");
  Launch L = launch128x32();
  EXPECT_TRUE(validateLaunch(K, L, A));
  L.Block = {32, 33, 1};
  EXPECT_NE(whyInvalid(K, L, A).find("at most 1024"), std::string::npos);
  L.Block = {32, 0, 1};
  EXPECT_NE(whyInvalid(K, L, A).find("zero y"), std::string::npos);
  L = launch128x32();
  L.Args.pop_back();
  EXPECT_NE(whyInvalid(K, L, A).find("2 arguments for 3"), std::string::npos);
  Kernel K2;
  K2.Name = "k";
  K2.Params = {intParam("nx")};
  Launch L2 = launch128x32();
  L2.Args = {ArgValue()};
  L2.Args[0].Reason = "read from argv at t.cu:9";
  // A value the model never reads is not asked for (a texture object).
  EXPECT_TRUE(validateLaunch(K2, L2, A));
  K2.Slots = {{"x", I32}};
  K2.Body = {assign(0, makeParam(0, I32))};
  EXPECT_EQ(whyInvalid(K2, L2, A),
            "cannot compute argument 'nx' of k (read from argv at t.cu:9); "
            "pass --arg nx=VALUE");
  // Shared memory: 48 KiB static; 227 KiB in all on sm_90 (opt-in).
  Kernel K3;
  K3.Name = "big";
  SharedArray S;
  S.Name = "s";
  S.Bytes = 64 * 1024;
  K3.Shared.push_back(S);
  Launch L3;
  EXPECT_NE(whyInvalid(K3, L3, A).find("65536 bytes of static"),
            std::string::npos);
  K3.Shared[0].Bytes = 16 * 1024;
  L3.DynamicSmem = 220 * 1024;
  EXPECT_NE(whyInvalid(K3, L3, A).find("at most 232448"), std::string::npos);
  L3.DynamicSmem = 200 * 1024;
  EXPECT_TRUE(validateLaunch(K3, L3, A));
}

} // namespace

namespace {

TEST(FastPathScale, LargestGridIsExactWithoutRunningEveryWarp) {
  // a[blockIdx.x * blockDim.x + threadIdx.x] = 0 (unsigned, so the index
  // wraps at 2^32) over <<<2147483647, 1024>>>: every full warp stores 32
  // consecutive floats from a 128-byte boundary, 4 sectors, 128 bytes.
  Kernel K;
  K.Name = "fill";
  K.Params = {pointerParam("a", 4)};
  ExprPtr I = add(mul(bx(), bdx()), tx());
  K.Body.push_back(
      addAccess(K, Space::Global, AccessKind::Store, 4, elem(0, I, 4), "a[i]"));
  Launch L;
  L.Kernel = "fill";
  L.Grid = {2147483647, 1, 1};
  L.Block = {1024, 1, 1};
  L.Args = {ptrArg("a")};
  SimOptions O;
  O.MaxWarps = 100000; // Far fewer than the 68.7 billion warps.
  LaunchResult R = simulate(K, L, O);
  const uint64_t Warps = 2147483647ull * 32;
  EXPECT_EQ(R.Incomplete, "");
  EXPECT_EQ(R.Warps, Warps);
  EXPECT_EQ(R.PerAccess[0].Requests, Warps);
  EXPECT_EQ(R.PerAccess[0].Units, 4 * Warps);
  EXPECT_EQ(R.PerAccess[0].DistinctBytes, 128 * Warps);
  EXPECT_LT(R.WarpsEvaluated, 100000u);
  EXPECT_EQ(R.WarpsEvaluated + R.WarpsDerived, Warps);
}

/// a[(blockIdx.x * blockIdx.x) % 1000] over 4096 blocks of one warp: not
/// affine in the block index, so every warp runs one by one.
std::pair<Kernel, Launch> squareIndexLaunch() {
  Kernel K;
  K.Name = "square";
  K.Params = {pointerParam("a", 4)};
  ExprPtr I = bin(Op::Rem, mul(bx(), bx()), c(1000, U32));
  K.Body.push_back(
      addAccess(K, Space::Global, AccessKind::Load, 4, elem(0, I, 4), "a[sq]"));
  Launch L;
  L.Kernel = "square";
  L.Grid = {4096, 1, 1};
  L.Block = {32, 1, 1};
  L.Args = {ptrArg("a")};
  return {std::move(K), std::move(L)};
}

TEST(FastPathScale, WarpsRunOneByOneStopAtTheTimeBudgetAndSaySo) {
  // The same non-affine kernel: with a budget of a nanosecond, the first
  // block's warps outlast it on any machine, and the launch is reported
  // not simulated, with the option that lifts the limit; with none (0), it
  // finishes.
  auto [K, L] = squareIndexLaunch();
  SimOptions O;
  O.Threads = 1;
  O.BudgetSeconds = 1e-9;
  for (bool Exhaustive : {false, true}) {
    O.Exhaustive = Exhaustive;
    LaunchResult R = simulate(K, L, O);
    EXPECT_NE(R.Incomplete.find("--sim-budget"), std::string::npos)
        << R.Incomplete;
    EXPECT_FALSE(R.Metrics.at("gld_transactions_per_request").Value);
    EXPECT_LT(R.WarpsEvaluated, 4096u);
  }
  O.BudgetSeconds = 0;
  LaunchResult R = simulate(K, L, O);
  EXPECT_EQ(R.Incomplete, "");
  EXPECT_EQ(R.PerAccess[0].Requests, 4096u);
}

TEST(FastPathScale, NonAffineLaunchStopsAtMaxWarpsAndSaysSo) {
  // a[(blockIdx.x * blockIdx.x) % 1000]: not affine in the block index, so
  // every warp runs one by one; 4096 of them exceed --max-warps 1000.
  auto [K, L] = squareIndexLaunch();
  SimOptions O;
  O.MaxWarps = 1000;
  LaunchResult R = simulate(K, L, O);
  EXPECT_NE(R.Incomplete.find("--max-warps"), std::string::npos);
  EXPECT_FALSE(R.Metrics.at("gld_transactions_per_request").Value);
  EXPECT_NE(R.Metrics.at("gld_transactions_per_request")
                .UnknownReason.find("--max-warps"),
            std::string::npos);
  EXPECT_EQ(R.PerAccess[0].UnknownRequests, 1u);
  // With room enough, every warp runs: one sector per request (a broadcast).
  O.MaxWarps = 10000;
  R = simulate(K, L, O);
  EXPECT_EQ(R.Incomplete, "");
  EXPECT_EQ(R.PerAccess[0].Requests, 4096u);
  EXPECT_EQ(R.PerAccess[0].Units, 4096u);
  EXPECT_EQ(R.WarpsEvaluated, 4096u);
  // --exhaustive refuses at once beyond the bound.
  O.Exhaustive = true;
  O.MaxWarps = 1000;
  R = simulate(K, L, O);
  EXPECT_NE(R.Incomplete.find("--max-warps 1000"), std::string::npos);
}

} // namespace
namespace compiled_forms {

/// row[tx][k] for k = Start .. Start + 7 over a 32 x 32 float tile: lane tx
/// reads row tx (128-byte pitch), one warp of 32 lanes.
Kernel rowRead(int64_t Start) {
  Kernel K;
  K.Name = "rowRead";
  SharedArray A;
  A.Name = "tile";
  A.Bytes = 32 * 32 * 4;
  A.Dims = {32, 32};
  K.Shared.push_back(A);
  K.Slots = {{"k", I32}};
  auto Kv = makeVar(0, I32);
  auto Addr =
      cast(mul(add(mul(tx(), c(32, U32)), cast(Kv, U32)), c(4, U32)), U64);
  K.Body.push_back(assign(0, c(Start)));
  Stmt Read =
      addAccess(K, Space::Shared, AccessKind::Load, 4, Addr, "tile[tx][k]", 0);
  K.Body.push_back(
      loop(bin(Op::Lt, Kv, c(Start + 8)), {Read}, {assign(0, add(Kv, c(1)))}));
  return K;
}

Launch oneWarp() {
  Launch L;
  L.Grid = {1, 1, 1};
  L.Block = {32, 1, 1};
  return L;
}

TEST(Simulate, MergedAcrossIterationsIsOneWideRequest) {
  // Compiled as LDS.128 over k..k+3: 2 requests instead of 8. A quarter
  // warp's 8 lanes read words 32 tx + k .. + 3: 4 banks, 8 words each: 8
  // wavefronts per quarter, 32 per request.
  Kernel K = rowRead(0);
  K.Accesses[0].Compiled.State = CompiledForm::Merged;
  K.Accesses[0].Compiled.Width = 16;
  K.Accesses[0].Compiled.Loop = 0;
  LaunchResult R = simulate(K, oneWarp(), {});
  EXPECT_EQ(R.PerAccess[0].Requests, 2u);
  EXPECT_EQ(R.PerAccess[0].Units, 64u);
  EXPECT_EQ(R.PerAccess[0].UnmergedGroups, 0u);
  // As written: 8 requests of 32 wavefronts (a 32-way conflict).
  Kernel Src = rowRead(0);
  LaunchResult S = simulate(Src, oneWarp(), {});
  EXPECT_EQ(S.PerAccess[0].Requests, 8u);
  EXPECT_EQ(S.PerAccess[0].Units, 256u);
}

TEST(Simulate, MergedGroupThatIsNotAlignedCountsEachAccess) {
  // Starting at k = 1 the four iterations are not one 16-byte aligned run:
  // the matching cannot hold for this launch; count as written and say so.
  Kernel K = rowRead(1);
  K.Accesses[0].Compiled.State = CompiledForm::Merged;
  K.Accesses[0].Compiled.Width = 16;
  K.Accesses[0].Compiled.Loop = 0;
  LaunchResult R = simulate(K, oneWarp(), {});
  EXPECT_EQ(R.PerAccess[0].Requests, 8u);
  EXPECT_EQ(R.PerAccess[0].Units, 256u);
  EXPECT_EQ(R.PerAccess[0].UnmergedGroups, 2u);
}

TEST(Simulate, HoistedAndReusedAccesses) {
  // Hoisted: once per loop (8 iterations) -> 1 request; reused: none.
  Kernel K = rowRead(0);
  K.Accesses[0].Compiled.State = CompiledForm::Hoisted;
  K.Accesses[0].Compiled.Loop = 0;
  EXPECT_EQ(simulate(K, oneWarp(), {}).PerAccess[0].Requests, 1u);
  K.Accesses[0].Compiled.State = CompiledForm::Reused;
  EXPECT_EQ(simulate(K, oneWarp(), {}).PerAccess[0].Requests, 0u);
}

} // namespace compiled_forms

TEST(Progress, ReportsAfterTheFirstSecondThenOnceWhenFinished) {
  std::mutex M;
  std::condition_variable Cv;
  std::vector<std::pair<uint64_t, bool>> Seen; // Done, Finished.
  auto Record = [&](const ProgressReport &R) {
    EXPECT_EQ(R.Label, "k");
    EXPECT_EQ(R.Total, 10u);
    std::lock_guard<std::mutex> G(M);
    Seen.push_back({R.Done, R.Finished});
    Cv.notify_all();
  };
  {
    Progress P("k", 10, Record);
    P.Done = 4;
    std::unique_lock<std::mutex> G(M);
    ASSERT_TRUE(Cv.wait_for(G, std::chrono::seconds(30),
                            [&] { return !Seen.empty(); }));
    EXPECT_EQ(Seen.front(), std::make_pair(uint64_t(4), false));
    P.Done = 10;
  }
  EXPECT_EQ(Seen.back(), std::make_pair(uint64_t(10), true));
  // Work done within the first second is not reported at all.
  size_t Before = Seen.size();
  { Progress Quick("k", 10, Record); }
  EXPECT_EQ(Seen.size(), Before);
}
