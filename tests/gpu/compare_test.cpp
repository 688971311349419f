//===- compare_test.cpp - Predictions beside measurements -----------------===//
//
// Hand-built kernel models and measurements. The predicted values follow
// from the hardware rules (DESIGN.md): a warp's 4-byte load of 32
// consecutive, 128-byte aligned floats takes 4 sectors; 32 lanes reading
// words 16 apart in shared memory fall on two banks, 16 words each: 16
// wavefronts. The measured values are what a GPU would report for them,
// altered where a test needs a difference.
//
//===----------------------------------------------------------------------===//
#include "build_model.h"
#include "dram_traffic.h"
#include "importers.h"
#include "l2_traffic.h"
#include "launch_time.h"
#include "metrics.h"
#include "run_comparison.h"
#include "simulate.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace gmem;
using namespace gmem::test;

namespace {

const char *LdReq = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
const char *LdSec = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
const char *StReq = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
const char *StSec = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
const char *LdPct =
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct";
const char *StPct =
    "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct";
const char *ShLdInst = "smsp__sass_inst_executed_op_shared_ld.sum";
const char *ShLdWave = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";

/// copy(float *in, float *out, int n): i = blockIdx.x * blockDim.x +
/// threadIdx.x; if (i < n) out[i] = in[i]; load at test.cu:10, store at 11.
Kernel copyKernel() {
  Kernel K;
  K.Name = "copy";
  K.Params = {pointerParam("in", 4), pointerParam("out", 4), intParam("n")};
  K.Slots = {{"i", I32}};
  auto I = makeVar(0, I32);
  K.Body.push_back(assign(0, cast(add(mul(bx(), bdx()), tx()), I32)));
  std::vector<Stmt> Then;
  Then.push_back(
      addAccess(K, Space::Global, AccessKind::Load, 4, elem(0, I, 4), "in[i]"));
  Then.push_back(addAccess(K, Space::Global, AccessKind::Store, 4,
                           elem(1, I, 4), "out[i]"));
  K.Body.push_back(ifStmt(bin(Op::Lt, I, makeParam(2, I32)), Then));
  return K;
}

Launch hostLaunch(const std::string &Kernel, Dim3 Grid, Dim3 Block,
                  std::vector<ArgValue> Args, unsigned Line = 30) {
  Launch L;
  L.Kernel = Kernel;
  L.Grid = Grid;
  L.Block = Block;
  L.Args = std::move(Args);
  L.Loc = {"test.cu", Line, 3};
  return L;
}

Module copyModule(int64_t N = 256) {
  Module M;
  M.File = "test.cu";
  M.Kernels.push_back(copyKernel());
  M.Launches.push_back(
      hostLaunch("copy", {4, 1, 1}, {64, 1, 1},
                 {ptrArg("d_in"), ptrArg("d_out"), intArg(N)}));
  return M;
}

MeasuredArg pointerArg() {
  MeasuredArg A;
  A.Type = "float*";
  A.Size = 8;
  A.AlignOffset = 0;
  return A;
}

MeasuredArg intValue(int64_t V) {
  MeasuredArg A;
  A.Type = "int";
  A.Size = 4;
  A.Value = V;
  return A;
}

MeasuredLine line(unsigned Number, uint64_t Inst, uint64_t Sectors,
                  uint64_t Wavefronts = 0) {
  MeasuredLine L;
  L.File = "/home/user/src/test.cu"; // Matched by base name.
  L.Line = Number;
  L.InstExecuted = Inst;
  L.Sectors = Sectors;
  L.Wavefronts = Wavefronts;
  return L;
}

/// What gmem-verify measures for copy<<<4, 64>>>(in, out, 256): 8 warps,
/// each a 4-sector load and a 4-sector store.
Measurement copyMeasurement() {
  Measurement Ms;
  Ms.Tool = "gmem-verify";
  Ms.Device = "NVIDIA H200";
  Ms.ComputeCapability = "9.0";
  Ms.DriverVersion = "580.159.04";
  Ms.CudaVersion = "13.0";
  Ms.Date = "2026-11-21T10:00:00Z";
  MeasuredLaunch L;
  L.Index = 0;
  L.Kernel = "copy";
  L.Grid = {4, 1, 1};
  L.Block = {64, 1, 1};
  L.Args = {pointerArg(), pointerArg(), intValue(256)};
  L.Metrics = {{LdReq, 8},    {LdSec, 32},
               {StReq, 8},    {StSec, 32},
               {LdPct, 100},  {StPct, 100},
               {ShLdInst, 0}, {"smsp__sass_inst_executed_op_shared_st.sum", 0}};
  L.Lines = {line(10, 8, 32), line(11, 8, 32)};
  Ms.Launches.push_back(L);
  return Ms;
}

Comparison build(const Module &M, const Measurement &Ms) {
  ComparisonOptions O;
  O.Threads = 1;
  Expected<Comparison> C = buildComparison(M, Ms, "measured.json", O);
  EXPECT_TRUE(C) << C.error();
  return C ? *C : Comparison();
}

/// buildComparison's message; empty when it builds.
std::string buildError(const Module &M, const Measurement &Ms,
                       const std::string &Name) {
  Expected<Comparison> C = buildComparison(M, Ms, Name, {});
  return C ? "" : C.error();
}

const MetricComparison *metric(const Comparison &C, const std::string &Name,
                               size_t Launch = 0) {
  for (const MetricComparison &M : C.Launches.at(Launch).Metrics)
    if (M.Name == Name)
      return &M;
  return nullptr;
}

const LineComparison *lineOf(const Comparison &C, unsigned Line) {
  for (const LineComparison &L : C.Launches.at(0).Lines)
    if (L.Line == Line)
      return &L;
  return nullptr;
}

std::string text(const Comparison &C) {
  std::ostringstream OS;
  printComparisonText(C, OS);
  return OS.str();
}

bool contains(const std::string &S, const std::string &Part) {
  return S.find(Part) != std::string::npos;
}

TEST(Compare, ExactMatchExitsZero) {
  Module M = copyModule();
  Measurement Ms = copyMeasurement();
  Comparison C = build(M, Ms);
  ASSERT_EQ(C.Launches.size(), 1u);
  EXPECT_EQ(C.Arch, "sm_90");
  EXPECT_EQ(C.Launches[0].V, Verdict::Match);
  for (const MetricComparison &R : C.Launches[0].Metrics)
    EXPECT_EQ(R.V, Verdict::Match) << R.Name << ": " << R.Reason;
  const MetricComparison *PerReq = metric(C, "gld_transactions_per_request");
  ASSERT_NE(PerReq, nullptr);
  EXPECT_DOUBLE_EQ(*PerReq->Predicted, 4.0);
  EXPECT_DOUBLE_EQ(PerReq->Measured, 4.0);
  EXPECT_EQ(PerReq->MeasuredFrom, std::string(LdSec) + " / " + LdReq);
  const LineComparison *L10 = lineOf(C, 10);
  ASSERT_NE(L10, nullptr);
  EXPECT_EQ(L10->File, "test.cu");
  EXPECT_EQ(L10->PredictedRequests, 8u);
  EXPECT_EQ(*L10->PredictedSectors, 32u);
  EXPECT_EQ(L10->V, Verdict::Match);
  EXPECT_EQ(comparisonExitCode(C, false), 0);
  EXPECT_EQ(comparisonExitCode(C, true), 0);
  std::string T = text(C);
  EXPECT_TRUE(contains(T, "copy<<<(4,1,1), (64,1,1)>>> at test.cu:30:3")) << T;
  EXPECT_TRUE(contains(T, "NVIDIA H200 (compute capability 9.0), driver "
                          "580.159.04, CUDA 13.0, 2026-11-21T10:00:00Z"))
      << T;
  EXPECT_TRUE(contains(T, "1 launches: 1 match, 0 differ (0 explained, 0 "
                          "unexplained), 0 not compared")) << T;
}

TEST(Compare, CountOffByOneIsAMismatch) {
  Module M = copyModule();
  Measurement Ms = copyMeasurement();
  Ms.Launches[0].Metrics[LdSec] = 33;
  Comparison C = build(M, Ms);
  const MetricComparison *Sectors = metric(C, LdSec);
  ASSERT_NE(Sectors, nullptr);
  EXPECT_EQ(Sectors->V, Verdict::Mismatch);
  EXPECT_DOUBLE_EQ(*Sectors->difference(), 1.0);
  EXPECT_EQ(Sectors->Reason, "no reason established");
  // 33 / 8 = 4.125 sectors per request: the ratio of a wrong count is wrong.
  EXPECT_EQ(metric(C, "gld_transactions_per_request")->V, Verdict::Mismatch);
  EXPECT_EQ(C.Launches[0].V, Verdict::Mismatch);
  EXPECT_EQ(comparisonExitCode(C, false), 1);
}

TEST(Compare, EfficiencyWithinPrintedPrecision) {
  // ncu prints 2 decimals: 80.004 for 80 is equal; 80.01 is not.
  Module M = copyModule();
  Measurement Ms = copyMeasurement();
  Ms.Launches[0].Metrics[LdPct] = 100.004;
  Comparison C = build(M, Ms);
  EXPECT_EQ(metric(C, LdPct)->V, Verdict::Match);
  EXPECT_EQ(comparisonExitCode(C, true), 0);
  Ms.Launches[0].Metrics[LdPct] = 99.99;
  C = build(M, Ms);
  EXPECT_EQ(metric(C, LdPct)->V, Verdict::Mismatch);
}

// A recorded launch's run goes with the measured launch it stands for even
// where the recording kept no memory image for it (a kernel that reads
// __device__ variables and takes no pointer: Learn CUDA Programming's radix
// warp sort was compared with the model's bounds, not its executed run).
TEST(Compare, ARecordedRunGoesWithItsLaunchWithoutAMemoryImage) {
  Module M = copyModule();
  ASSERT_TRUE(M.Launches[0].Memory.empty());
  // Matching only carries the run (the executor is not linked here): any
  // pointer stands for it.
  auto Owner = std::make_shared<int>(0);
  const std::shared_ptr<const ExecutedCounts> Run(
      Owner, reinterpret_cast<const ExecutedCounts *>(Owner.get()));
  M.Launches[0].Executed = Run;
  Expected<LaunchMatching> Matching =
      matchLaunches(M, copyMeasurement(), "measured.json");
  ASSERT_TRUE(Matching) << Matching.error();
  EXPECT_EQ(Matching->Launches.at(0).L.Executed, Run);
}

// gmem-verify --launch-count 1 measures the first launch of each
// configuration: the second measured launch of copy is the recording's
// first of its own grid, not its second launch (PMPP's merge sort: 8 of
// 2048 two-block merges measured, then 8 four-block ones, which had been
// given two-block launches' memory and priced without it).
TEST(Compare, AMeasuredLaunchGoesWithTheRecordedLaunchOfItsShape) {
  Module M = copyModule();
  const Launch Small = M.Launches[0];
  Launch Large = Small;
  Large.Grid = {8, 1, 1};
  M.Launches = {Small, Small, Small, Large, Large};
  Measurement Ms = copyMeasurement();
  MeasuredLaunch Second = Ms.Launches[0];
  Second.Index = 3;
  Second.Grid = {8, 1, 1};
  Ms.Launches.push_back(Second);
  Expected<LaunchMatching> Matching = matchLaunches(M, Ms, "measured.json");
  ASSERT_TRUE(Matching) << Matching.error();
  ASSERT_EQ(Matching->Launches.size(), 2u);
  EXPECT_EQ(Matching->Launches[0].HostLaunch, 0);
  EXPECT_EQ(Matching->Launches[1].HostLaunch, 3);
  EXPECT_EQ(Matching->Launches[1].L.Grid, (Dim3{8, 1, 1}));
}

TEST(Compare, MeasuredArgumentsWinOverTheHostCode) {
  // The host code says n = 256; the GPU ran n = 200: warps 0-5 full, warp
  // 6 has lanes 192..199 (32 bytes, 1 sector), warp 7 none.
  Module M = copyModule(256);
  Measurement Ms = copyMeasurement();
  MeasuredLaunch &L = Ms.Launches[0];
  L.Args[2] = intValue(200);
  L.Metrics[LdReq] = L.Metrics[StReq] = 7;
  L.Metrics[LdSec] = L.Metrics[StSec] = 25;
  L.Lines = {line(10, 7, 25), line(11, 7, 25)};
  Comparison C = build(M, Ms);
  EXPECT_EQ(*metric(C, LdReq)->Predicted, 7);
  EXPECT_EQ(*metric(C, LdSec)->Predicted, 25);
  EXPECT_EQ(comparisonExitCode(C, true), 0);
  EXPECT_TRUE(C.Launches[0].Match.Notes.empty());
}

/// conflict(float *out): reads tile[threadIdx.x * 16] (words 16 apart: a
/// 16-way bank conflict) at test.cu:10.
Module conflictModule(Dim3 Grid, Dim3 Block) {
  Kernel K;
  K.Name = "conflict";
  K.Params = {pointerParam("out", 4)};
  SharedArray A;
  A.Name = "tile";
  A.Bytes = 32 * 16 * 4;
  A.Dims = {32, 16};
  K.Shared.push_back(A);
  auto Tid = add(mul(ty(), bdx()), tx());
  K.Body.push_back(
      addAccess(K, Space::Shared, AccessKind::Load, 4,
                cast(mul(bin(Op::Rem, Tid, c(32, U32)), c(64, U32)), U64),
                "tile[tid % 32][0]", 0));
  Module M;
  M.File = "test.cu";
  M.Kernels.push_back(K);
  M.Launches.push_back(hostLaunch("conflict", Grid, Block, {ptrArg("o")}));
  return M;
}

Measurement conflictMeasurement(Dim3 Grid, Dim3 Block, double Inst,
                                double Wavefronts) {
  Measurement Ms;
  Ms.Tool = "ncu-csv";
  Ms.ComputeCapability = "9.0";
  MeasuredLaunch L;
  L.Kernel = "conflict";
  L.Grid = {Grid.X, Grid.Y, Grid.Z};
  L.Block = {Block.X, Block.Y, Block.Z};
  L.Metrics = {{ShLdInst, Inst}, {ShLdWave, Wavefronts}};
  Ms.Launches.push_back(L);
  return Ms;
}

TEST(Compare, SharedWavefrontsWithinCounterNoise) {
  // 20 blocks of one warp: 20 instructions, 16 x 20 = 320 wavefronts
  // predicted; the H200 reads 16.35 per request on large grids (README).
  Module M = conflictModule({20, 1, 1}, {32, 1, 1});
  Measurement Ms = conflictMeasurement({20, 1, 1}, {32, 1, 1}, 20, 327);
  Comparison C = build(M, Ms);
  const MetricComparison *PerReq =
      metric(C, "shared_load_transactions_per_request");
  ASSERT_NE(PerReq, nullptr);
  EXPECT_DOUBLE_EQ(*PerReq->Predicted, 16.0);
  EXPECT_DOUBLE_EQ(PerReq->Measured, 16.35);
  EXPECT_DOUBLE_EQ(PerReq->Tolerance, 0.48); // 3 % of 16 > 0.15.
  EXPECT_EQ(PerReq->V, Verdict::Match);
  EXPECT_EQ(metric(C, ShLdWave)->V, Verdict::Match);
  EXPECT_EQ(comparisonExitCode(C, false), 0);
  // --strict: any difference beyond equality fails.
  EXPECT_EQ(comparisonExitCode(C, true), 1);
}

TEST(Compare, ContentionBandOnlyForMultiBlockLaunches) {
  // 17.2 per request is 7.5 % above 16: beyond the 0.48 tolerance, inside
  // the 12 % contention band, so explained for 20 blocks ...
  Module M = conflictModule({20, 1, 1}, {32, 1, 1});
  Measurement Ms = conflictMeasurement({20, 1, 1}, {32, 1, 1}, 20, 344);
  Comparison C = build(M, Ms);
  const MetricComparison *PerReq =
      metric(C, "shared_load_transactions_per_request");
  EXPECT_EQ(PerReq->V, Verdict::Explained);
  EXPECT_TRUE(contains(PerReq->Reason, "(d)")) << PerReq->Reason;
  EXPECT_TRUE(contains(PerReq->Reason, "+7.5 %")) << PerReq->Reason;
  EXPECT_EQ(metric(C, ShLdWave)->V, Verdict::Explained);
  EXPECT_EQ(comparisonExitCode(C, false), 0);
  // ... never for one block (single blocks read exact integers) ...
  M = conflictModule({1, 1, 1}, {640, 1, 1});
  Ms = conflictMeasurement({1, 1, 1}, {640, 1, 1}, 20, 344);
  C = build(M, Ms);
  EXPECT_EQ(metric(C, "shared_load_transactions_per_request")->V,
            Verdict::Mismatch);
  EXPECT_EQ(comparisonExitCode(C, false), 1);
  // ... and never below the prediction.
  M = conflictModule({20, 1, 1}, {32, 1, 1});
  Ms = conflictMeasurement({20, 1, 1}, {32, 1, 1}, 20, 300);
  C = build(M, Ms);
  EXPECT_EQ(metric(C, "shared_load_transactions_per_request")->V,
            Verdict::Mismatch);
}

/// pairs(float *in, float *out): out[i] = in[2i] + in[2i+1], both loads on
/// test.cu:10, the store on 12; <<<4, 64>>>. Each load's lanes are 8 bytes
/// apart: 256 bytes, 8 sectors, half of each used.
Module pairsModule() {
  Kernel K;
  K.Name = "pairs";
  K.Params = {pointerParam("in", 4), pointerParam("out", 4)};
  K.Slots = {{"i", I32}};
  auto I = makeVar(0, I32);
  K.Body.push_back(assign(0, cast(add(mul(bx(), bdx()), tx()), I32)));
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Load, 4,
                             elem(0, mul(I, c(2)), 4), "in[2 * i]"));
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Load, 4,
                             elem(0, add(mul(I, c(2)), c(1)), 4),
                             "in[2 * i + 1]"));
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Store, 4,
                             elem(1, I, 4), "out[i]"));
  K.Accesses[1].Loc.Line = 10;
  Module M;
  M.File = "test.cu";
  M.Kernels.push_back(K);
  M.Launches.push_back(hostLaunch("pairs", {4, 1, 1}, {64, 1, 1},
                                  {ptrArg("in"), ptrArg("out")}));
  return M;
}

/// nvcc merges the two loads into one 8-byte LDG.E.64 per warp: 8
/// instructions of 8 sectors each (256 contiguous bytes), all bytes used.
Measurement pairsMeasurement() {
  Measurement Ms = copyMeasurement();
  MeasuredLaunch &L = Ms.Launches[0];
  L.Kernel = "pairs";
  L.Args = {pointerArg(), pointerArg()};
  L.Metrics = {{LdReq, 8},  {LdSec, 64},  {StReq, 8},
               {StSec, 32}, {LdPct, 100}, {StPct, 100}};
  MeasuredLine Ld = line(10, 8, 64);
  Ld.SectorsIdeal = 64;
  MeasuredLine St = line(12, 8, 32);
  St.SectorsIdeal = 32;
  L.Lines = {Ld, St};
  return Ms;
}

TEST(Compare, MergedAccessesAreExplainedByTheLine) {
  Module M = pairsModule();
  Measurement Ms = pairsMeasurement();
  Comparison C = build(M, Ms);
  const LineComparison *L10 = lineOf(C, 10);
  ASSERT_NE(L10, nullptr);
  EXPECT_EQ(L10->PredictedRequests, 16u);
  EXPECT_EQ(*L10->PredictedSectors, 128u);
  EXPECT_EQ(L10->PredictedSectorsIdeal, 64u);
  EXPECT_EQ(L10->Kind, "merged");
  EXPECT_EQ(L10->V, Verdict::Explained);
  EXPECT_TRUE(contains(L10->Reason, "(a)")) << L10->Reason;
  EXPECT_TRUE(contains(L10->Reason, "2x fewer")) << L10->Reason;

  const MetricComparison *Req = metric(C, LdReq);
  EXPECT_EQ(*Req->Predicted, 16);
  EXPECT_EQ(Req->V, Verdict::Explained);
  EXPECT_TRUE(contains(Req->Reason, "test.cu:10 (16 -> 8 instructions)"))
      << Req->Reason;
  EXPECT_EQ(metric(C, LdSec)->V, Verdict::Explained);
  // 8 sectors per request either way.
  EXPECT_EQ(metric(C, "gld_transactions_per_request")->V, Verdict::Match);
  // 50 % predicted, 100 % measured: fewer sectors for the same bytes.
  const MetricComparison *Eff = metric(C, LdPct);
  EXPECT_DOUBLE_EQ(*Eff->Predicted, 50.0);
  EXPECT_EQ(Eff->V, Verdict::Explained);
  EXPECT_TRUE(contains(Eff->Reason, "follows from")) << Eff->Reason;
  EXPECT_EQ(lineOf(C, 12)->V, Verdict::Match);
  EXPECT_EQ(comparisonExitCode(C, false), 0);
  EXPECT_EQ(comparisonExitCode(C, true), 1);
}

TEST(Compare, MergedWithTheSameSectorsIsExplained) {
  // Fewer instructions with the very same sectors (each access had its own
  // sectors) is merging too; without ideal counts the bounds alone decide.
  Module M = pairsModule();
  Measurement Ms = pairsMeasurement();
  MeasuredLaunch &L = Ms.Launches[0];
  L.Metrics[LdSec] = 128;
  L.Metrics[LdPct] = 50;
  L.Lines[0] = line(10, 8, 128);
  Comparison C = build(M, Ms);
  EXPECT_EQ(lineOf(C, 10)->Kind, "merged");
  EXPECT_EQ(metric(C, LdReq)->V, Verdict::Explained);
  EXPECT_EQ(metric(C, LdSec)->V, Verdict::Match);
  EXPECT_EQ(metric(C, "gld_transactions_per_request")->V, Verdict::Explained);
  EXPECT_EQ(comparisonExitCode(C, false), 0);
}

TEST(Compare, HalfTheWarpsMissingIsNotMerging) {
  // Half the instructions and half the sectors, but also half the bytes
  // (ideal sectors 32 of 64): warps missing, not wider instructions.
  Module M = pairsModule();
  Measurement Ms = pairsMeasurement();
  Ms.Launches[0].Lines[0] = line(10, 8, 64);
  Ms.Launches[0].Lines[0].SectorsIdeal = 32;
  Comparison C = build(M, Ms);
  EXPECT_EQ(lineOf(C, 10)->V, Verdict::Mismatch);
  EXPECT_TRUE(contains(lineOf(C, 10)->Reason, "no reason established"));
  EXPECT_EQ(metric(C, LdReq)->V, Verdict::Mismatch);
  EXPECT_EQ(comparisonExitCode(C, false), 1);
}

TEST(Compare, ExactDivisorOfInstructionsIsCompilerMerging) {
  // 16 requests predicted, exactly 8 instructions measured with the bytes
  // kept (ideal 64 sectors), but more sectors than merging two accesses
  // gives: still one wider instruction per two accesses, not "no reason".
  Module M = pairsModule();
  Measurement Ms = pairsMeasurement();
  Ms.Launches[0].Lines[0] = line(10, 8, 160);
  Ms.Launches[0].Lines[0].SectorsIdeal = 64;
  Comparison C = build(M, Ms);
  const LineComparison *L10 = lineOf(C, 10);
  EXPECT_EQ(L10->Kind, "merged");
  EXPECT_EQ(L10->V, Verdict::Explained);
  EXPECT_TRUE(contains(L10->Reason, "exactly 2x fewer")) << L10->Reason;
  EXPECT_TRUE(contains(L10->Reason, "merged by the compiler")) << L10->Reason;
}

TEST(Compare, MergedSeenInKernelTotalsWithoutLines) {
  Module M = pairsModule();
  Measurement Ms = pairsMeasurement();
  Ms.Launches[0].Lines.clear();
  Comparison C = build(M, Ms);
  const MetricComparison *Req = metric(C, LdReq);
  EXPECT_EQ(Req->V, Verdict::Explained);
  EXPECT_TRUE(contains(Req->Reason, "kernel totals")) << Req->Reason;
  EXPECT_EQ(metric(C, LdSec)->V, Verdict::Explained);
  EXPECT_EQ(comparisonExitCode(C, false), 0);
  // 4-byte accesses merge at most 4 into one 16-byte instruction: 16
  // requests cannot become 3.
  Ms.Launches[0].Metrics[LdReq] = 3;
  Ms.Launches[0].Metrics[LdSec] = 64;
  C = build(M, Ms);
  EXPECT_EQ(metric(C, LdReq)->V, Verdict::Mismatch);
}

TEST(Compare, LineNotExecutedExplainsTheMissingRequests) {
  // The GPU ran no load (say the compiler removed it): line 10 measured
  // nothing; the requests and sectors missing are exactly that line's.
  Module M = copyModule();
  Measurement Ms = copyMeasurement();
  MeasuredLaunch &L = Ms.Launches[0];
  L.Metrics[LdReq] = 0;
  L.Metrics[LdSec] = 0;
  L.Metrics.erase(LdPct);
  L.Lines = {line(11, 8, 32)};
  Comparison C = build(M, Ms);
  const LineComparison *L10 = lineOf(C, 10);
  ASSERT_NE(L10, nullptr);
  EXPECT_FALSE(L10->Measured);
  EXPECT_EQ(L10->Kind, "not executed");
  EXPECT_EQ(L10->V, Verdict::Explained);
  const MetricComparison *Req = metric(C, LdReq);
  EXPECT_EQ(Req->V, Verdict::Explained);
  EXPECT_TRUE(contains(Req->Reason, "(b)")) << Req->Reason;
  EXPECT_TRUE(contains(Req->Reason, "test.cu:10")) << Req->Reason;
  EXPECT_EQ(metric(C, LdSec)->V, Verdict::Explained);
  EXPECT_EQ(comparisonExitCode(C, false), 0);
}

// L1 counts some lane orders of a global atomic up to 3 sectors more than
// the busiest-address rule (tests/data/measured/atomic_mixtures): where
// every line's distinct sectors are as predicted, the extra up to 3 a
// request is that; more is not.
TEST(Compare, AtomicSectorsAboveTheRuleByLaneOrderAreExplained) {
  const char *RedReq = "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum";
  const char *RedSec = "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum";
  Module M = copyModule();
  Access &Out = M.Kernels[0].Accesses[1]; // out[i], line 11: a reduction.
  Out.Kind = AccessKind::Atomic;
  Out.Reduction = true;
  for (uint64_t Extra : {24u, 25u}) {
    Measurement Ms = copyMeasurement();
    MeasuredLaunch &L = Ms.Launches[0];
    L.Metrics.erase(StReq);
    L.Metrics.erase(StSec);
    L.Metrics.erase(StPct);
    // 8 warps of 32 consecutive words: 4 sectors a request by the rule.
    L.Metrics[RedReq] = 8;
    L.Metrics[RedSec] = double(32 + Extra);
    Comparison C = build(M, Ms);
    const MetricComparison *Sec = metric(C, RedSec);
    ASSERT_NE(Sec, nullptr);
    EXPECT_EQ(*Sec->Predicted, 32);
    if (Extra <= 3 * 8) {
      EXPECT_EQ(Sec->V, Verdict::Explained);
      EXPECT_TRUE(contains(Sec->Reason, "(e)")) << Sec->Reason;
    } else {
      EXPECT_EQ(Sec->V, Verdict::Mismatch) << Sec->Reason;
    }
  }
}

TEST(Compare, PredicatedOffWarpsExecuteWithoutRequests) {
  // n = 200: warp 7 has no active lane and makes no request (7 predicted),
  // but a predicated load is still executed by it: 8 instructions per line.
  Module M = copyModule(200);
  Measurement Ms = copyMeasurement();
  MeasuredLaunch &L = Ms.Launches[0];
  L.Args[2] = intValue(200);
  L.Metrics[LdReq] = L.Metrics[StReq] = 7;
  L.Metrics[LdSec] = L.Metrics[StSec] = 25;
  L.Lines = {line(10, 8, 25), line(11, 8, 25)};
  Comparison C = build(M, Ms);
  const LineComparison *L10 = lineOf(C, 10);
  EXPECT_EQ(L10->Kind, "inactive warps");
  EXPECT_EQ(L10->V, Verdict::Explained);
  EXPECT_TRUE(contains(L10->Reason, "1 executions by warps with every lane "
                                    "predicated off"))
      << L10->Reason;
  EXPECT_EQ(metric(C, LdReq)->V, Verdict::Match);
  EXPECT_EQ(comparisonExitCode(C, false), 0);
  // More instructions and more sectors: no reason.
  L.Lines = {line(10, 8, 26), line(11, 7, 25)};
  C = build(M, Ms);
  EXPECT_EQ(lineOf(C, 10)->V, Verdict::Mismatch);
}

TEST(Compare, GenericLoadsToLocalMemoryAreInstructionsWithoutRequests) {
  // HeCBench rowwiseMoments on an H200 (tests/data/measured/hecbench2):
  // utils.h:53's byte loads through a selected shared or local address,
  // 640 executions with shared lanes (640 wavefronts, 5120 bytes) and
  // 2688 with local lanes alone: 3328 instructions on the line, every one
  // with local lanes at one local offset. main.cu:30 loads 65536 bytes in
  // 2048 sectors.
  Kernel K;
  K.Name = "rowwise";
  Access A;
  A.Id = 0;
  A.Sp = Space::Shared;
  A.Size = 1;
  A.Loc = {"utils.h", 53, 3};
  K.Accesses.push_back(A);
  A.Id = 1;
  A.Sp = Space::Global;
  K.Accesses.push_back(A);
  A.Id = 2;
  A.Size = 4;
  A.Loc = {"main.cu", 30, 3};
  K.Accesses.push_back(A);
  LaunchResult R;
  R.K = &K;
  R.Arch = "sm_90";
  R.PerAccess.resize(3);
  AccessStats &Shared = R.PerAccess[0], &Local = R.PerAccess[1],
              &Other = R.PerAccess[2];
  Shared.Requests = 640;
  Shared.Units = Shared.SassUnits = Shared.IdealUnits = 640;
  Shared.ActiveLanes = Shared.DistinctBytes = 5120;
  Shared.GenericElsewhere = 640;
  Local.LocalExecutions = 2688;
  Local.GenericElsewhere = Local.GenericLocalBytes = 3328;
  Other.Requests = 512;
  Other.Units = Other.SassUnits = Other.IdealUnits = 2048;
  Other.DistinctBytes = 65536;
  MeasuredLaunch ML;
  MeasuredLine L;
  L.File = "/src/utils.h";
  L.Line = 53;
  L.InstExecuted = 3328;
  L.Wavefronts = 640;
  ML.Lines = {L};
  std::vector<LineComparison> C = compareLines(R, ML);
  ASSERT_EQ(C.size(), 2u);
  const LineComparison &At53 = C[0].Line == 53 ? C[0] : C[1];
  EXPECT_EQ(At53.Kind, "match");
  EXPECT_TRUE(At53.Exact);
  EXPECT_TRUE(contains(At53.Reason, "2688 executions")) << At53.Reason;
  // One instruction more than that is not explained by them.
  ML.Lines[0].InstExecuted = 3329;
  for (const LineComparison &X : compareLines(R, ML))
    if (X.Line == 53)
      EXPECT_NE(X.Kind, "match");
  // The GPU counts the shared lanes' bytes among the global load bytes
  // too, and one local address's bytes per execution in both: 8448 more
  // bytes in each, as the H200 counted.
  computeMetrics(R);
  EXPECT_EQ(R.Metrics.at("shared_efficiency").Value,
            100.0 * 8448 / (640 * 128));
  EXPECT_EQ(R.Metrics
                .at("smsp__sass_average_data_bytes_per_sector_mem_global_op_"
                    "ld.pct")
                .Value,
            100.0 * 73984 / (2048 * 32));
  EXPECT_EQ(R.Metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")
                .Value,
            640.0);
  // A generic store's bytes were not measured: the efficiencies are
  // unknown, the counts known.
  K.Accesses[1].Kind = AccessKind::Store;
  computeMetrics(R);
  const Metric &Eff = R.Metrics.at("shared_efficiency");
  EXPECT_FALSE(Eff.Value);
  EXPECT_TRUE(contains(Eff.UnknownReason, "generic store"))
      << Eff.UnknownReason;
  EXPECT_EQ(R.Metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")
                .Value,
            640.0);
}

TEST(Compare, MeasuredLineWithoutAccessIsExplainedTheOtherWay) {
  Module M = copyModule();
  Measurement Ms = copyMeasurement();
  MeasuredLaunch &L = Ms.Launches[0];
  L.Metrics[LdReq] = 16;
  L.Metrics[LdSec] = 64;
  L.Lines.push_back(line(20, 8, 32));
  Comparison C = build(M, Ms);
  EXPECT_EQ(lineOf(C, 20)->Kind, "not predicted");
  EXPECT_EQ(metric(C, LdReq)->V, Verdict::Explained);
  EXPECT_EQ(metric(C, LdSec)->V, Verdict::Explained);
  EXPECT_EQ(comparisonExitCode(C, false), 0);
}

TEST(Compare, InlinedCodeCountedAtItsOwnLine) {
  // out[i] = __ldg(&in[i]) on one line: -lineinfo puts the load at
  // __ldg's line in sm_32_intrinsics.hpp (examples/coalescing.cu's
  // transpose3 on the H200), the model keeps both accesses at the call.
  Module M = copyModule();
  M.Kernels[0].Accesses[0].Loc.Line = 11;
  Measurement Ms = copyMeasurement();
  MeasuredLine Header = line(135, 8, 32), Call11 = line(11, 8, 32);
  Header.File = "/usr/local/cuda/include/sm_32_intrinsics.hpp";
  Header.SectorsIdeal = Call11.SectorsIdeal = 32;
  Ms.Launches[0].Lines = {Call11, Header};
  Comparison C = build(M, Ms);
  const LineComparison *Call = lineOf(C, 11);
  EXPECT_EQ(Call->Kind, "elsewhere");
  EXPECT_EQ(Call->V, Verdict::Explained);
  EXPECT_TRUE(contains(Call->Reason, "(e) the GPU counted the rest of this "
                                     "line's accesses (8 instructions, 32 "
                                     "sectors) at sm_32_intrinsics.hpp:135"))
      << Call->Reason;
  EXPECT_EQ(lineOf(C, 135)->Kind, "elsewhere");
  EXPECT_EQ(comparisonExitCode(C, false), 0);
  // A remainder that does not add up stays unexplained (and is not
  // merging: half the bytes, ideal sectors 32 of 64, are missing).
  Ms.Launches[0].Lines[1].Sectors = 31;
  C = build(M, Ms);
  EXPECT_EQ(lineOf(C, 11)->V, Verdict::Mismatch);
  EXPECT_EQ(lineOf(C, 135)->Kind, "not predicted");
}

TEST(Compare, UnknownPredictionIsExplained) {
  Module M = copyModule();
  M.Kernels[0].Accesses[0].UnknownReason = "depends on data loaded by idx[i]";
  Measurement Ms = copyMeasurement();
  Comparison C = build(M, Ms);
  const MetricComparison *Sectors = metric(C, LdSec);
  EXPECT_FALSE(Sectors->Predicted.has_value());
  EXPECT_EQ(Sectors->V, Verdict::Explained);
  EXPECT_TRUE(contains(Sectors->Reason, "(c) prediction unknown"))
      << Sectors->Reason;
  EXPECT_TRUE(contains(Sectors->Reason, "idx[i]")) << Sectors->Reason;
  // Requests do not depend on addresses.
  EXPECT_EQ(metric(C, LdReq)->V, Verdict::Match);
  EXPECT_EQ(lineOf(C, 10)->Kind, "unknown");
  EXPECT_EQ(comparisonExitCode(C, false), 0);
  EXPECT_EQ(comparisonExitCode(C, true), 1);
}

/// K's launch L simulated on one thread, as a predictor hook gives it.
LaunchResult simulatedAlone(const Kernel &K, const Launch &L,
                            const ArchRules &A) {
  SimOptions SO;
  SO.Arch = &A;
  SO.Threads = 1;
  return simulate(K, L, SO);
}

/// As build, with copy's load made unknown but bounded, as a load whose
/// address comes from data in a proven range is: its 8 requests take 32 to
/// 64 sectors.
Comparison buildBounded(const Module &M, const Measurement &Ms) {
  ComparisonOptions O;
  O.Threads = 1;
  O.Predict = [](const Kernel &K, const Launch &L, const ArchRules &A) {
    LaunchResult R = simulatedAlone(K, L, A);
    AccessStats &S = R.PerAccess[0];
    S.UnknownRequests = S.BoundedRequests = S.Requests;
    S.Units = S.SassUnits = 0;
    S.MinUnits = 32;
    S.MaxUnits = 64;
    S.UnknownReason = "in[i] reads data loaded by idx[i], in [0, 512)";
    computeMetrics(R);
    return R;
  };
  Expected<Comparison> C = buildComparison(M, Ms, "measured.json", O);
  EXPECT_TRUE(C) << C.error();
  return C ? *C : Comparison();
}

TEST(Compare, BoundedPredictionIsJudgedAgainstItsBounds) {
  Module M = copyModule();
  Measurement Ms = copyMeasurement();
  // 48 sectors lie in [32, 64]: explained by the bound's reason.
  Ms.Launches[0].Metrics[LdSec] = 48;
  Ms.Launches[0].Lines[0].Sectors = 48;
  Comparison C = build(M, Ms); // Plain model: 32 predicted, 48 differs.
  EXPECT_EQ(metric(C, LdSec)->V, Verdict::Mismatch);
  C = buildBounded(M, Ms);
  const MetricComparison *Sectors = metric(C, LdSec);
  ASSERT_TRUE(Sectors->Bounds.has_value());
  EXPECT_FALSE(Sectors->Predicted.has_value());
  EXPECT_EQ(Sectors->Bounds->first, 32);
  EXPECT_EQ(Sectors->Bounds->second, 64);
  EXPECT_EQ(Sectors->V, Verdict::Explained);
  EXPECT_TRUE(contains(Sectors->Reason,
                       "(c) predicted between 32 and 64, measured 48: "))
      << Sectors->Reason;
  // The requests are known; the efficiency has no bounds (the bytes of
  // the unknown requests are not known).
  EXPECT_EQ(metric(C, LdReq)->V, Verdict::Match);
  EXPECT_FALSE(metric(C, LdPct)->Bounds.has_value());
  EXPECT_EQ(metric(C, LdPct)->V, Verdict::Explained);
  // The line: 8 instructions and 32 to 64 sectors predicted, 48 measured.
  EXPECT_EQ(lineOf(C, 10)->Kind, "bounded");
  EXPECT_EQ(comparisonExitCode(C, false), 0);
  EXPECT_TRUE(contains(text(C), "32-64")) << text(C);
  const nlohmann::json J = comparisonJson(C);
  for (const nlohmann::json &R : J["launches"][0]["metrics"])
    if (R["name"] == LdSec) {
      EXPECT_EQ(R["predicted"], nullptr);
      EXPECT_EQ(R["predicted_bounds"],
                nlohmann::json({{"min", 32.0}, {"max", 64.0}}));
    }

  // 65 sectors lie outside: a difference no reason explains, the launch
  // fails; so does a count below the lower bound.
  for (double Outside : {65.0, 31.0}) {
    Ms.Launches[0].Metrics[LdSec] = Outside;
    Ms.Launches[0].Lines[0].Sectors = uint64_t(Outside);
    C = buildBounded(M, Ms);
    Sectors = metric(C, LdSec);
    EXPECT_EQ(Sectors->V, Verdict::Mismatch) << Outside;
    EXPECT_TRUE(contains(Sectors->Reason, "outside the bounds"))
        << Sectors->Reason;
    EXPECT_EQ(lineOf(C, 10)->V, Verdict::Mismatch) << Outside;
    EXPECT_EQ(comparisonExitCode(C, false), 1) << Outside;
  }
}

/// nvprof logs one row per kernel and no configuration (the importer sets
/// grid and block to {0, 0, 0}); per-request ratios under both names.
Measurement nvprofMeasurement() {
  Measurement Ms;
  Ms.Tool = "nvprof-csv";
  Ms.Device = "Quadro P2000";
  MeasuredLaunch L;
  L.Kernel = "copy";
  L.Grid = {0, 0, 0};
  L.Block = {0, 0, 0};
  L.Metrics = {
      {"gld_transactions_per_request", 4},
      {"l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio",
       4},
      {"gld_efficiency", 100},
      {LdPct, 100},
      {"gst_transactions_per_request", 4},
      {"l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio",
       4}};
  Ms.Launches.push_back(L);
  return Ms;
}

TEST(Compare, NvprofLaunchTakesTheHostConfiguration) {
  Module M = copyModule();
  Measurement Ms = nvprofMeasurement();
  Comparison C = build(M, Ms);
  ASSERT_EQ(C.Launches.size(), 1u);
  const Launch &L = C.Launches[0].Predicted.L;
  EXPECT_EQ(L.Grid, (Dim3{4, 1, 1}));
  EXPECT_EQ(L.Block, (Dim3{64, 1, 1}));
  ASSERT_EQ(C.Launches[0].Match.HostLaunch, 0);
  EXPECT_TRUE(contains(C.Launches[0].Match.Notes.at(0),
                       "grid and block from the host launch at test.cu:30:3"));
  // No compute capability in an nvprof log: --arch decides.
  EXPECT_EQ(C.Arch, "sm_90");
  // One row per quantity, whichever name the measurement used.
  unsigned PerRequestRows = 0;
  for (const MetricComparison &R : C.Launches[0].Metrics)
    PerRequestRows += contains(R.Name, "transactions_per_request") ||
                      contains(R.Name, "sectors_per_request");
  EXPECT_EQ(PerRequestRows, 2u);
  EXPECT_EQ(metric(C, "gld_transactions_per_request")->V, Verdict::Match);
  EXPECT_TRUE(metric(C, "gld_transactions_per_request")->MeasuredFrom.empty());
  EXPECT_EQ(comparisonExitCode(C, true), 0);
}

/// copy<<<4, 64>>>(in, out, 256) as nvprof prints its table.
ImportResult nvprofTextTable(bool WithRatios) {
  std::string Text =
      "==1== Metric result:\n"
      "Invocations                               Metric Name                  "
      "      Metric Description         Min         Max         Avg\n"
      "Device \"Tesla V100-SXM2-16GB (0)\"\n"
      "    Kernel: copy(float*, float*, int)\n"
      "          1                      global_load_requests                  "
      "Global Load Requests           8           8           8\n"
      "          1                          gld_transactions                  "
      "Global Load Transactions          32          32          32\n"
      "          1                            gld_efficiency             "
      "Global Memory Load Efficiency     100.00%     100.00%     100.00%\n";
  if (WithRatios)
    Text += "          1              gld_transactions_per_request      Global "
            "Load Transactions Per Request    4.000000    4.000000    "
            "4.000000\n"
            "          1              gst_transactions_per_request     Global "
            "Store Transactions Per Request    4.000000    4.000000    "
            "4.000000\n";
  return parseNvprofText(Text, "copy.log");
}

TEST(Compare, NvprofMeasurementRowsCarryNvprofNames) {
  Module M = copyModule();
  ImportResult Ms = nvprofTextTable(true);
  ASSERT_TRUE(Ms) << Ms.error();
  ASSERT_EQ(rowNamesFor(*Ms), RowNames::Nvprof);
  Comparison C = build(M, *Ms);
  ASSERT_EQ(C.Launches.size(), 1u);
  std::vector<std::string> Names;
  for (const MetricComparison &R : C.Launches[0].Metrics) {
    Names.push_back(R.Name);
    EXPECT_EQ(R.V, Verdict::Match) << R.Name << ": " << R.Reason;
  }
  // In the catalog's order: LDG's efficiency, stores, then the L1 counts.
  EXPECT_EQ(Names, (std::vector<std::string>{
                       "gld_efficiency", "gst_transactions_per_request",
                       "global_load_requests", "gld_transactions",
                       "gld_transactions_per_request"}));
  EXPECT_DOUBLE_EQ(*metric(C, "gld_efficiency")->Predicted, 100.0);
  std::string T = text(C);
  // nvprof on a V100 counted sectors (docs/ARCHITECTURES.md).
  EXPECT_TRUE(contains(T, "by nvprof-text; simulated for sm_70")) << T;
  EXPECT_TRUE(contains(T, "\n  gld_efficiency ")) << T;
  EXPECT_FALSE(contains(T, "smsp__")) << T;
  EXPECT_FALSE(contains(T, "l1tex__")) << T;
  nlohmann::json J = comparisonJson(C);
  EXPECT_EQ(J["measurement"]["tool"], "nvprof-text");
  EXPECT_EQ(J["launches"][0]["metrics"][0]["name"], "gld_efficiency");

  // Computed from nvprof's counts, named by them.
  Ms = nvprofTextTable(false);
  ASSERT_TRUE(Ms) << Ms.error();
  C = build(M, *Ms);
  const MetricComparison *PerReq = metric(C, "gld_transactions_per_request");
  ASSERT_NE(PerReq, nullptr);
  EXPECT_EQ(PerReq->MeasuredFrom, "gld_transactions / global_load_requests");

  // The same values from ncu keep the simulator's names.
  Ms->Tool = "ncu-csv";
  ASSERT_EQ(rowNamesFor(*Ms), RowNames::Predicted);
  C = build(M, *Ms);
  EXPECT_NE(metric(C, LdPct), nullptr);
  EXPECT_NE(metric(C, LdSec), nullptr);
  EXPECT_EQ(metric(C, "gld_efficiency"), nullptr);
  EXPECT_EQ(metric(C, "gld_transactions_per_request")->MeasuredFrom,
            std::string(LdSec) + " / " + LdReq);
}

TEST(Compare, NvprofLaunchWithoutHostLaunchIsAnError) {
  Module M = copyModule();
  M.Launches.clear();
  Measurement Ms = nvprofMeasurement();
  EXPECT_EQ(buildError(M, Ms, "log.csv"),
            "log.csv: launch 0 (copy): the measurement has no grid and block "
            "and test.cu has 0 launch(es) of copy to take them from (this is "
            "the 1st measured); measure with gmem-verify or ncu to record "
            "them");
}

TEST(Compare, NcuLaunchWithoutArgumentValuesNeedsTheHostCode) {
  // ncu exports have no argument values: n comes from the host launch, and
  // when the host code cannot compute it the user is told what to pass.
  Module M = copyModule();
  ArgValue Unknown;
  Unknown.Reason = "read from argv";
  M.Launches[0].Args[2] = Unknown;
  Measurement Ms = copyMeasurement();
  Ms.Tool = "ncu-csv";
  Ms.Launches[0].Args.clear();
  Ms.Launches[0].Lines.clear();
  std::string Error = buildError(M, Ms, "x.csv");
  EXPECT_TRUE(contains(Error, "x.csv: launch 0 (copy): cannot compute "
                              "argument 'n' of copy (read from argv)"))
      << Error;
  M = copyModule(256);
  Expected<Comparison> C = buildComparison(M, Ms, "x.csv", {});
  ASSERT_TRUE(C) << C.error();
  EXPECT_TRUE(contains(C->Launches[0].Match.Notes.at(0),
                       "argument values from the host launch"));
}

TEST(Compare, KernelMissingFromTheSourceIsAnError) {
  Module M = copyModule();
  Measurement Ms = copyMeasurement();
  Ms.Launches[0].Kernel = "scale";
  Ms.Launches[0].Index = 3;
  EXPECT_EQ(buildError(M, Ms, "m.json"),
            "m.json: launch 3 (scale): no kernel of that name in "
            "test.cu (it has copy); compare the measurement of this "
            "program");
}

// A program that checks its kernel against cuBLAS: the GPU ran cuBLAS's
// own kernels too, which the source does not define. With the recorded
// run's library calls known they are set aside with a note; without any,
// a kernel the source lacks is still an error.
TEST(Compare, KernelsOfTheLibrariesTheProgramCalledAreNotCompared) {
  Module M = copyModule();
  M.Compiler.LibraryCalls = {{"cublasGemmEx", 2}};
  Measurement Ms = copyMeasurement();
  MeasuredLaunch Gemm = Ms.Launches[0];
  Gemm.Kernel = "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_cublas";
  Gemm.Index = 0;
  Ms.Launches[0].Index = 1;
  Ms.Launches.insert(Ms.Launches.begin(), Gemm);
  Expected<Comparison> C = buildComparison(M, Ms, "m.json", {});
  ASSERT_TRUE(C) << C.error();
  ASSERT_EQ(C->Launches.size(), 1u);
  EXPECT_EQ(C->Launches[0].Match.K->Name, "copy");
  bool Said = false;
  for (const std::string &N : C->Notes)
    Said |= contains(N, "1 measured launch(es) of kernels that test.cu does "
                        "not define (sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_"
                        "cublas) are taken as those of the NVIDIA library "
                        "calls the program made (cublasGemmEx x2)");
  EXPECT_TRUE(Said);
  // Only the library's kernels measured: nothing to compare.
  Ms.Launches.pop_back();
  EXPECT_TRUE(contains(buildError(M, Ms, "m.json"),
                       "every measured launch is of a kernel the NVIDIA "
                       "libraries the program called run"));
  M.Compiler.LibraryCalls.clear();
  EXPECT_TRUE(contains(buildError(M, Ms, "m.json"),
                       "no kernel of that name in test.cu"));
}

TEST(Compare, ArgumentCountMustMatchTheSource) {
  Module M = copyModule();
  Measurement Ms = copyMeasurement();
  Ms.Launches[0].Args.pop_back();
  std::string Error = buildError(M, Ms, "m.json");
  EXPECT_TRUE(contains(Error, "2 arguments measured, but copy in test.cu has "
                              "3 parameters"))
      << Error;
}

TEST(Compare, HostLaunchesNeverMeasuredAreListed) {
  Module M = copyModule();
  M.Launches.push_back(hostLaunch("copy", {8, 1, 1}, {32, 1, 1},
                                  {ptrArg("a"), ptrArg("b"), intArg(256)}, 40));
  Measurement Ms = copyMeasurement();
  Comparison C = build(M, Ms);
  ASSERT_EQ(C.Unmeasured.size(), 1u);
  EXPECT_EQ(C.Unmeasured[0].Loc.Line, 40u);
  EXPECT_TRUE(contains(text(C),
                       "host launches not measured (1):\n  "
                       "copy<<<(8,1,1), (32,1,1)>>> at test.cu:40:3\n"));
  // A loop's launches of one configuration are one line with their count.
  Module Loop = M;
  Loop.Launches.push_back(Loop.Launches.back());
  Loop.Launches.push_back(Loop.Launches.back());
  C = build(Loop, Ms);
  ASSERT_EQ(C.Unmeasured.size(), 3u);
  EXPECT_TRUE(contains(text(C), "host launches not measured (3):\n  "
                                "copy<<<(8,1,1), (32,1,1)>>> at test.cu:40:3 "
                                "x 3\n"))
      << text(C);
  // The second measured launch of copy takes the second host launch.
  Measurement Two = nvprofMeasurement();
  Two.Launches.push_back(Two.Launches[0]);
  C = build(M, Two);
  EXPECT_EQ(C.Launches[1].Predicted.L.Grid, (Dim3{8, 1, 1}));
  EXPECT_TRUE(C.Unmeasured.empty());
}

TEST(Compare, DeviceComputeCapabilityDecidesTheArchitecture) {
  Module M = copyModule();
  Measurement Ms = copyMeasurement();
  Ms.ComputeCapability = "8.0";
  Comparison C = build(M, Ms);
  EXPECT_EQ(C.Arch, "sm_80");
  ASSERT_EQ(C.Notes.size(), 1u);
  EXPECT_TRUE(contains(C.Notes[0], "simulated for sm_80"));
}

TEST(Compare, JsonCarriesEveryValue) {
  Module M = pairsModule();
  Measurement Ms = pairsMeasurement();
  Comparison C = build(M, Ms);
  nlohmann::json J = comparisonJson(C);
  EXPECT_EQ(J["measurement"]["device"], "NVIDIA H200");
  EXPECT_EQ(J["measurement"]["driver_version"], "580.159.04");
  EXPECT_EQ(J["measurement"]["date"], "2026-11-21T10:00:00Z");
  EXPECT_EQ(J["verdict"], "explained");
  EXPECT_EQ(J["summary"]["explained"], 1);
  const nlohmann::json &L = J["launches"][0];
  EXPECT_EQ(L["kernel"], "pairs");
  EXPECT_EQ(L["grid"], nlohmann::json::array({4, 1, 1}));
  EXPECT_EQ(L["block"], nlohmann::json::array({64, 1, 1}));
  EXPECT_EQ(L["verdict"], "explained");
  bool Found = false;
  for (const nlohmann::json &R : L["metrics"])
    if (R["name"] == LdReq) {
      Found = true;
      EXPECT_EQ(R["predicted"], 16.0);
      EXPECT_EQ(R["measured"], 8.0);
      EXPECT_EQ(R["difference"], -8.0);
      EXPECT_EQ(R["verdict"], "explained");
      EXPECT_TRUE(contains(R["reason"].get<std::string>(), "(a)"));
    }
  EXPECT_TRUE(Found);
  const nlohmann::json &Line = L["lines"][0];
  EXPECT_EQ(Line["file"], "test.cu");
  EXPECT_EQ(Line["line"], 10);
  EXPECT_EQ(Line["predicted"]["sectors"], 128);
  EXPECT_EQ(Line["measured"]["instructions"], 8);
  EXPECT_EQ(Line["kind"], "merged");
  EXPECT_TRUE(J["unmeasured_launches"].empty());
}

std::string writeTemp(const std::string &Name, const std::string &Text) {
  std::string Path = ::testing::TempDir() + "/" + Name;
  std::ofstream(Path) << Text;
  return Path;
}

TEST(RunComparison, ReadsTheFileAndReturnsTheExitCode) {
  Module M = copyModule();
  std::string Path = writeTemp("copy_measured.json", R"({
    "schema": 1, "tool": "gmem-verify",
    "device": {"name": "NVIDIA H200", "compute_capability": "9.0"},
    "launches": [{"kernel": "copy", "grid": [4, 1, 1], "block": [64, 1, 1],
      "args": [{"type": "float*", "size": 8, "align_offset": 0},
               {"type": "float*", "size": 8, "align_offset": 0},
               {"type": "int", "size": 4, "value": 256}],
      "metrics": {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum": 8,
                  "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 32}}]})");
  std::ostringstream Out, Err;
  ComparisonOptions O;
  EXPECT_EQ(runComparison(M, Path, O, Out, Err), 0) << Err.str();
  EXPECT_TRUE(Err.str().empty());
  O.Format = "json";
  std::ostringstream Json;
  EXPECT_EQ(runComparison(M, Path, O, Json, Err), 0);
  EXPECT_EQ(nlohmann::json::parse(Json.str())["launches"].size(), 1u);

  std::string Off = writeTemp("copy_off.json", R"({
    "schema": 1, "launches": [{"kernel": "copy", "grid": [4, 1, 1],
      "block": [64, 1, 1], "args": [{"align_offset": 0},
      {"align_offset": 0}, {"value": 256}],
      "metrics": {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 31}}]})");
  std::ostringstream Out2;
  EXPECT_EQ(runComparison(M, Off, {}, Out2, Err), 1);
}

TEST(RunComparison, BadInputExitsTwoWithOneLine) {
  Module M = copyModule();
  std::ostringstream Out, Err;
  EXPECT_EQ(runComparison(M, "/nonexistent/m.json", {}, Out, Err), 2);
  std::string E = Err.str();
  EXPECT_EQ(E.rfind("gmem-analyze: error: ", 0), 0u) << E;
  EXPECT_EQ(std::count(E.begin(), E.end(), '\n'), 1) << E;
  EXPECT_TRUE(Out.str().empty());

  std::string Other = writeTemp("other.json", R"({"schema": 1,
    "launches": [{"kernel": "transpose", "grid": [1, 1, 1],
    "block": [32, 1, 1], "metrics": {}}]})");
  std::ostringstream Err2;
  EXPECT_EQ(runComparison(M, Other, {}, Out, Err2), 2);
  EXPECT_TRUE(contains(Err2.str(), "no kernel of that name")) << Err2.str();

  ComparisonOptions O;
  O.Format = "sarif";
  std::ostringstream Err3;
  EXPECT_EQ(runComparison(M, Other, O, Out, Err3), 2);
}

TEST(RunComparison, StrictFailsOnAnyDifference) {
  Module M = conflictModule({20, 1, 1}, {32, 1, 1});
  std::string Path = writeTemp(
      "conflict.csv",
      "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"CC\","
      "\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"0\",\"conflict(float *)\",\"(32, 1, 1)\",\"(20, 1, 1)\",\"9.0\","
      "\"smsp__sass_inst_executed_op_shared_ld.sum\",\"inst\",\"20\"\n"
      "\"0\",\"conflict(float *)\",\"(32, 1, 1)\",\"(20, 1, 1)\",\"9.0\","
      "\"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum\",\"\","
      "\"327\"\n");
  std::ostringstream Out, Err;
  ComparisonOptions O;
  EXPECT_EQ(runComparison(M, Path, O, Out, Err), 0) << Err.str();
  O.Strict = true;
  EXPECT_EQ(runComparison(M, Path, O, Out, Err), 1) << Err.str();
}

} // namespace

//===----------------------------------------------------------------------===//
// Estimates: DRAM bytes and duration beside what the traffic run measured.
//===----------------------------------------------------------------------===//

namespace {

/// The H200 as analyzer/record/runtime/boards.cpp describes it.
MemorySystem h200() {
  MemorySystem M;
  M.Product = "NVIDIA H200";
  M.L2Bytes = 60u << 20;
  M.DramBytesPerSecond = 6016.0 / 8 * 3201e6 * 2;
  M.SMs = 132;
  M.ThreadsPerSM = 2048;
  M.BlocksPerSM = 32;
  M.ClockHz = 1.5e9;
  M.ClockWhy = "its base clock, as Nsight Compute locks it";
  return M;
}

/// Simulated as gmem-analyze's predictor does, with the H200's DRAM bytes
/// and duration.
Comparison buildOnH200(const Module &M, const Measurement &Ms) {
  ComparisonOptions O;
  O.Threads = 1;
  O.Predict = [](const Kernel &K, const Launch &L, const ArchRules &A) {
    LaunchResult R = simulatedAlone(K, L, A);
    R.Dram = predictDram(R, h200(), R.K->Sass);
    R.L2 = predictL2(K, L, A, R, /*SplitL2=*/true);
    R.Time = predictTime(R, h200());
    R.Board = h200();
    return R;
  };
  Expected<Comparison> C = buildComparison(M, Ms, "measured.json", O);
  EXPECT_TRUE(C) << C.error();
  return C ? *C : Comparison();
}

/// copy<<<4, 64>>> over two 1 KiB buffers, their sizes recorded.
Module recordedCopyModule() {
  Module M = copyModule();
  // The buffers the accesses index, as the translator names them.
  M.Kernels[0].Accesses[0].Array = "in";
  M.Kernels[0].Accesses[1].Array = "out";
  M.Launches[0].Memory["d_in"].Bytes = 1024;
  M.Launches[0].Memory["d_out"].Bytes = 1024;
  return M;
}

const EstimateComparison *estimate(const Comparison &C,
                                   const std::string &Name) {
  for (const EstimateComparison &E : C.Launches.at(0).Estimates)
    if (E.Name == Name)
      return &E;
  return nullptr;
}

const char *Clock = "sm__cycles_elapsed.avg.per_second";

TEST(CompareEstimates, DramBytesAndDurationBesideTheCounts) {
  Module M = recordedCopyModule();
  Measurement Ms = copyMeasurement();
  // The DRAM bytes read: the input's 1024 bytes alone, as gmem-verify's
  // flush leaves the launch's code and parameters in L2 (Nsight Compute's
  // would add the launch's own 2816, dram_traffic.h); written: none, 2 KiB
  // stay in the L2. The measured values are a GPU's for such a launch,
  // within the bands.
  Ms.Launches[0].Metrics["dram__bytes_read.sum"] = 4352;
  Ms.Launches[0].Metrics["dram__bytes_write.sum"] = 0;
  Ms.Launches[0].Metrics[Clock] = 1.98e9;
  Ms.Launches[0].Metrics["lts__t_sectors_op_read.sum"] = 1100;
  // The duration: set from the prediction below, 20 % above it.
  Comparison C0 = buildOnH200(M, Ms);
  const EstimateComparison *Read = estimate(C0, "dram__bytes_read.sum");
  ASSERT_NE(Read, nullptr);
  EXPECT_DOUBLE_EQ(*Read->Predicted, 1024);
  EXPECT_TRUE(Read->Within);
  EXPECT_TRUE(contains(Read->Note, "not of its code")) << Read->Note;
  const EstimateComparison *Written = estimate(C0, "dram__bytes_write.sum");
  ASSERT_NE(Written, nullptr);
  EXPECT_DOUBLE_EQ(*Written->Predicted, 0);
  EXPECT_TRUE(Written->Within);
  EXPECT_EQ(estimate(C0, "gpu__time_duration.sum"), nullptr); // Not measured.

  // At the measured clock, not the base one the board's figure assumes.
  LaunchResult R = C0.Launches[0].Predicted;
  MemorySystem Fast = h200();
  Fast.ClockHz = 1.98e9;
  const double AtMeasured = predictTime(R, Fast).Seconds * 1e9;
  ASSERT_TRUE(R.Time && R.Time->Known);
  EXPECT_NE(AtMeasured, R.Time->Seconds * 1e9);
  Ms.Launches[0].Metrics["gpu__time_duration.sum"] = 1.2 * AtMeasured;
  Comparison C = buildOnH200(M, Ms);
  const EstimateComparison *Time = estimate(C, "gpu__time_duration.sum");
  ASSERT_NE(Time, nullptr);
  EXPECT_DOUBLE_EQ(*Time->Predicted, AtMeasured);
  EXPECT_TRUE(Time->Within);
  EXPECT_TRUE(contains(Time->Note, "measured during the launch, 1.98 GHz"));
  // L2 sectors read: each block's two warps load 8 distinct sectors, 32 in
  // the 4 blocks, counted again by half for the H200's split L2, with the
  // launch's own 980 (l2_traffic.h): 1028.
  const EstimateComparison *L2 = estimate(C, "lts__t_sectors_op_read.sum");
  ASSERT_NE(L2, nullptr);
  EXPECT_DOUBLE_EQ(*L2->Predicted, 1028);
  EXPECT_TRUE(L2->Within);
  // The counts decide the verdict; the estimates are counted apart, and the
  // clock they used is not "not compared".
  EXPECT_EQ(C.Launches[0].V, Verdict::Match);
  EXPECT_TRUE(C.Launches[0].Uncompared.empty());
  std::string T = text(C);
  EXPECT_TRUE(contains(T, "DRAM bytes read")) << T;
  EXPECT_TRUE(contains(T, "1024 B")) << T;
  EXPECT_TRUE(contains(T, "estimates (DRAM bytes, L2 sectors, duration): 4 "
                          "of 4 within their bands"))
      << T;
  nlohmann::json J = comparisonJson(C);
  EXPECT_EQ(J["summary"]["estimates"], 4);
  EXPECT_EQ(J["summary"]["estimates_within"], 4);
  EXPECT_EQ(J["launches"][0]["estimates"][0]["name"], "dram__bytes_read.sum");
  EXPECT_EQ(J["launches"][0]["estimates"][0]["predicted"], 1024.0);
  // Nsight Compute flushes the code too: it counts.
  Ms.Tool = "ncu-csv";
  Comparison Ncu = buildOnH200(M, Ms);
  EXPECT_DOUBLE_EQ(*estimate(Ncu, "dram__bytes_read.sum")->Predicted,
                   2816 + 1024);
}

TEST(CompareEstimates, OutsideTheBandShownButCountsDecide) {
  Module M = recordedCopyModule();
  Measurement Ms = copyMeasurement();
  // 1024 predicted: 10 % is 102 bytes, below the 4 KiB floor; 8000 is
  // beyond both.
  Ms.Launches[0].Metrics["dram__bytes_read.sum"] = 8000;
  Comparison C = buildOnH200(M, Ms);
  const EstimateComparison *Read = estimate(C, "dram__bytes_read.sum");
  ASSERT_NE(Read, nullptr);
  EXPECT_FALSE(Read->Within);
  EXPECT_EQ(C.Launches[0].V, Verdict::Match);
  EXPECT_EQ(comparisonExitCode(C, false), 0);
  EXPECT_TRUE(contains(text(C), "outside"));
}

TEST(CompareEstimates, OnlyEstimatesJudgeTheLaunch) {
  Module M = recordedCopyModule();
  Measurement Ms = copyMeasurement();
  Ms.Launches[0].Lines.clear();
  Ms.Launches[0].Metrics = {{"dram__bytes_read.sum", 3900}};
  Comparison Within = buildOnH200(M, Ms);
  ASSERT_TRUE(Within.Launches[0].compared());
  EXPECT_TRUE(Within.Launches[0].onlyEstimates());
  EXPECT_EQ(Within.Launches[0].V, Verdict::Match);
  EXPECT_EQ(comparisonExitCode(Within, false), 0);
  Ms.Launches[0].Metrics["dram__bytes_read.sum"] = 80000;
  Comparison Outside = buildOnH200(M, Ms);
  EXPECT_EQ(Outside.Launches[0].V, Verdict::Mismatch);
  EXPECT_EQ(comparisonExitCode(Outside, false), 1);
}

TEST(CompareEstimates, UnrecordedSizesGiveARange) {
  Module M = copyModule(); // No buffer sizes: DRAM bytes only bounded.
  Measurement Ms = copyMeasurement();
  Ms.Launches[0].Metrics["dram__bytes_read.sum"] = 3900;
  Comparison C = buildOnH200(M, Ms);
  const EstimateComparison *Read = estimate(C, "dram__bytes_read.sum");
  ASSERT_NE(Read, nullptr);
  ASSERT_TRUE(Read->Predicted && Read->PredictedUpper);
  EXPECT_DOUBLE_EQ(*Read->Predicted, 0);
  EXPECT_DOUBLE_EQ(*Read->PredictedUpper, 1024); // gmem-verify: no code.
  EXPECT_TRUE(Read->Within);
}

TEST(CompareEstimates, WithoutABoardTheyAreUnknown) {
  Module M = recordedCopyModule();
  Measurement Ms = copyMeasurement();
  Ms.Launches[0].Metrics["gpu__time_duration.sum"] = 3000;
  Comparison C = build(M, Ms); // Plain simulation: no board.
  const EstimateComparison *Time = estimate(C, "gpu__time_duration.sum");
  ASSERT_NE(Time, nullptr);
  EXPECT_FALSE(Time->Predicted);
  EXPECT_FALSE(Time->Within);
  EXPECT_EQ(C.Launches[0].V, Verdict::Match);
}

} // namespace
