//===- constructs_test.cpp - What real kernels use, counted as nvcc emits --===//
//
// The examples written for issue 14 (16-bit floats, async copies, atomics,
// loads of exclusive branches, local and constant memory, device functions
// and cooperative groups), analysed with the sm_90 SASS nvcc 13.0 emitted
// for them (tests/data/sass). Expected figures are worked out from the
// hardware rules (DESIGN.md) and the rules measured for atomics and async
// copies; the comments give the derivation. tests/data/measured holds the
// H100 measurements of the same launches, which
// CompareGroundTruth.RecordedExampleMeasurementsAgree compares in full.
//
//===----------------------------------------------------------------------===//
#include "analysis.h"

#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::test;

namespace {

const Analysis &example(const std::string &Name) {
  return analyze(sourceDir() + "/examples/" + Name + ".cu");
}

const Access *access(const LaunchResult &R, const std::string &Text,
                     AccessKind Kind = AccessKind::Load) {
  for (const Access &A : R.K->Accesses)
    if (A.Text == Text && A.Kind == Kind)
      return &A;
  ADD_FAILURE() << "no access " << Text;
  return nullptr;
}

double metric(const LaunchResult &R, const char *Name) {
  const Metric &M = R.Metrics.at(Name);
  EXPECT_TRUE(M.Value.has_value()) << Name << ": " << M.UnknownReason;
  return M.Value.value_or(-1);
}

const char *const LdReq = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
const char *const LdSec = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
const char *const StReq = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
const char *const StSec = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
const char *const RedReq = "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum";
const char *const RedSec = "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum";
const char *const AtomReq = "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum";
const char *const AtomSec = "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum";

// __half and __nv_bfloat16 load and store through operators that CUDA's
// headers define: 2 bytes per lane, 64 bytes per warp, 2 sectors.
// 2^20 elements, 256 threads per block: 32768 warps.
TEST(Constructs, HalfAndBf16LoadsThroughTheirOperators) {
  const Analysis &A = example("half_precision");
  const LaunchResult *S = launchOf(A, "halfScale");
  ASSERT_NE(S, nullptr);
  EXPECT_EQ(metric(*S, LdReq), 32768);
  EXPECT_EQ(metric(*S, LdSec), 65536);
  EXPECT_EQ(metric(*S, StSec), 65536);
  const LaunchResult *R = launchOf(A, "bf16Residual");
  ASSERT_NE(R, nullptr);
  EXPECT_EQ(metric(*R, LdReq), 2 * 32768); // a[i] and b[i]
  EXPECT_EQ(metric(*R, "gld_transactions_per_request"), 2);
  EXPECT_EQ(metric(*R, "gld_efficiency"), 100);
  // __half2: 4 bytes per lane; y[i] is read and written (2^19 pairs).
  const LaunchResult *H2 = launchOf(A, "half2Axpy");
  ASSERT_NE(H2, nullptr);
  EXPECT_EQ(metric(*H2, LdReq), 2 * 16384);
  EXPECT_EQ(metric(*H2, StReq), 16384);
  EXPECT_EQ(metric(*H2, "gst_transactions_per_request"), 4);
}

// Eight bf16 as one 16-byte access: 512 bytes per warp, 16 sectors; 2^17
// threads of 128 per block: 4096 warps.
TEST(Constructs, EightBf16AsOneVector) {
  const LaunchResult *R = launchOf(example("half_precision"), "bf16Pack8");
  ASSERT_NE(R, nullptr);
  EXPECT_EQ(metric(*R, LdReq), 4096);
  EXPECT_EQ(metric(*R, "gld_transactions_per_request"), 16);
  EXPECT_EQ(metric(*R, StSec), 4096 * 16);
}

// One warp per row of 768 bf16: 24 strided steps of 32 lanes x 2 bytes
// (2 sectors each); 1024 rows. Lane 0 stores a float: 1 sector of 4 bytes
// used out of 32 (12.5 %).
TEST(Constructs, Bf16RowReduction) {
  const LaunchResult *R = launchOf(example("half_precision"), "bf16RowSum");
  ASSERT_NE(R, nullptr);
  EXPECT_EQ(metric(*R, LdReq), 1024 * 24);
  EXPECT_EQ(metric(*R, LdSec), 1024 * 24 * 2);
  EXPECT_EQ(metric(*R, StReq), 1024);
  EXPECT_EQ(metric(*R, "gst_efficiency"), 12.5);
}

// Double buffering: per warp one copy before the loop and one in each of
// the 7 iterations that have a next tile; 256 blocks x 8 warps. L1 counts
// the copies among the global loads (4 sectors each); the SASS instruction
// counter of global loads does not (there is no LDG at all, so the load
// efficiency, over LDG only, is 0); the shared efficiency takes in the
// copies' shared side, which is not modelled.
TEST(Constructs, AsyncCopiesAreL1GlobalLoads) {
  const LaunchResult *R = launchOf(example("async_copy"), "pipelineScale");
  ASSERT_NE(R, nullptr);
  const double Copies = 2048 * 8;
  EXPECT_EQ(metric(*R, LdReq), Copies);
  EXPECT_EQ(metric(*R, LdSec), 4 * Copies);
  EXPECT_EQ(metric(*R, "smsp__sass_inst_executed_op_ldgsts.sum"), Copies);
  EXPECT_EQ(metric(*R, "gld_efficiency"), 0);
  EXPECT_FALSE(R->Metrics.at("shared_efficiency").Value.has_value());
  // The shared side is in no shared store figure; the tile reads are.
  EXPECT_EQ(metric(*R, "smsp__sass_inst_executed_op_shared_st.sum"), 0);
  EXPECT_EQ(metric(*R, "smsp__sass_inst_executed_op_shared_ld.sum"), Copies);
  const Access *G =
      access(*R, "in[base + (t + 1) * TILE + threadIdx.x]", AccessKind::Load);
  ASSERT_NE(G, nullptr);
  ASSERT_GE(G->AsyncPartner, 0);
  EXPECT_EQ(R->K->Accesses[G->AsyncPartner].Sp, Space::Shared);
  EXPECT_EQ(G->Compiled.Instruction, "LDGSTS.E");
}

// A 4-float stride: 32 lanes x 16 bytes apart = 512 bytes, 16 sectors per
// copy, 4 bytes of 32 used (25 %). 2^19 threads: 16384 warps.
TEST(Constructs, StridedAsyncCopy) {
  const LaunchResult *R = launchOf(example("async_copy"), "pipelineGather");
  ASSERT_NE(R, nullptr);
  EXPECT_EQ(metric(*R, LdReq), 16384);
  EXPECT_EQ(metric(*R, "gld_transactions_per_request"), 16);
  const Access *G = access(*R, "in[4 * i]");
  ASSERT_NE(G, nullptr);
  const AccessStats &S = R->PerAccess[G->Id];
  EXPECT_EQ(100.0 * S.DistinctBytes / (32.0 * S.Units), 25.0);
}

// Atomic sectors, per request: for each sector touched, the most lanes on
// one of its addresses (measured on an H100 for ATOMG and REDG alike).
TEST(Constructs, AtomicSectorsCountLanesOnOneAddress) {
  const Analysis &A = example("atomics");
  struct {
    const char *Kernel;
    double Sectors;
  } Cases[] = {
      {"atomRed<0>", 4},   // 32 words, 4 sectors, 1 lane each
      {"atomRed<1>", 32},  // one word, 32 lanes
      {"atomRed<2>", 4},   // 16 words in 2 sectors, 2 lanes each
      {"atomRed<3>", 4},   // 8 words in 1 sector, 4 lanes each
      {"atomRed<4>", 18},  // word 0: 16 lanes; 16 words in 2 sectors
      {"atomRed<6>", 32},  // a sector per lane
      {"atomRed<7>", 32},  // two sectors with 16 lanes on one word each
      {"atomRed<9>", 22},  // sector 0: 1; sector 1: 21 lanes on word 11
      {"atomRed<11>", 1},  // 8 active lanes, 8 words, one sector
  };
  for (const auto &C : Cases) {
    SCOPED_TRACE(C.Kernel);
    const LaunchResult *R = launchOf(A, C.Kernel);
    ASSERT_NE(R, nullptr);
    EXPECT_EQ(metric(*R, RedReq), 1);
    EXPECT_EQ(metric(*R, RedSec), C.Sectors);
    EXPECT_EQ(metric(*R, AtomReq), 0);
  }
  // The same with the old value used: ATOMG, and its store.
  const LaunchResult *U = launchOf(A, "atomUse<4>");
  ASSERT_NE(U, nullptr);
  EXPECT_EQ(metric(*U, AtomReq), 1);
  EXPECT_EQ(metric(*U, AtomSec), 18);
  EXPECT_EQ(metric(*U, RedReq), 0);
  EXPECT_EQ(metric(*U, StSec), 4);
}

// An integer add every lane of a warp makes to one address: nvcc elects one
// lane to add the warp's count, so one request of one lane per warp (256
// blocks x 8 warps), one sector each.
TEST(Constructs, WarpAggregatedAtomic) {
  const LaunchResult *R = launchOf(example("atomics"), "countPerBlock");
  ASSERT_NE(R, nullptr);
  EXPECT_EQ(metric(*R, RedReq), 2048);
  EXPECT_EQ(metric(*R, RedSec), 2048);
  EXPECT_EQ(R->PerAccess[0].ActiveLanes, 2048u);
  EXPECT_TRUE(R->K->Accesses[0].Compiled.OneLane);
}

// switch (threadIdx.x % 3) over three arrays: one LDG of a selected address
// per warp. Each array's lanes (every third) span 128 bytes: 3 x 4 sectors.
TEST(Constructs, LoadsOfASwitchAreOneSelectedLoad) {
  const Analysis &A = example("selected_loads");
  for (const char *K : {"switchArrays", "switchRows"}) {
    SCOPED_TRACE(K);
    const LaunchResult *R = launchOf(A, K);
    ASSERT_NE(R, nullptr);
    EXPECT_EQ(metric(*R, LdReq), 32768);
    EXPECT_EQ(metric(*R, "gld_transactions_per_request"), 12);
    unsigned Selected = 0, Branches = 0;
    for (const Access &X : R->K->Accesses) {
      Selected += X.Compiled.State == CompiledForm::Selected;
      Branches += X.Compiled.Branches;
    }
    EXPECT_EQ(Selected, 3u);
    EXPECT_EQ(Branches, 3u);
  }
  // Half-warps on two arrays: 2 + 2 sectors, every byte used.
  const LaunchResult *H = launchOf(A, "pickHalf");
  ASSERT_NE(H, nullptr);
  EXPECT_EQ(metric(*H, "gld_transactions_per_request"), 4);
  EXPECT_EQ(metric(*H, "gld_efficiency"), 100);
}

// Local arrays and constant tables are outside the global figures: 64
// coalesced loads per warp (the local array's writes are STL) and one
// store; the SASS's 64 STL and 1 LDL are counted as local.
TEST(Constructs, LocalAndConstantMemoryAreNotGlobal) {
  const Analysis &A = example("local_constant");
  for (const char *K : {"localUniform", "localPerLane"}) {
    SCOPED_TRACE(K);
    const LaunchResult *R = launchOf(A, K);
    ASSERT_NE(R, nullptr);
    EXPECT_EQ(metric(*R, LdReq), 512 * 64);
    EXPECT_EQ(metric(*R, StReq), 512);
    EXPECT_EQ(R->K->Sass.Local, 65u);
    EXPECT_TRUE(R->K->Sass.Unclaimed.empty());
  }
  const LaunchResult *C = launchOf(A, "constPerLane");
  ASSERT_NE(C, nullptr);
  EXPECT_EQ(metric(*C, LdReq), 512); // in[i] only: coef[] is constant.
  EXPECT_EQ(C->K->Accesses.size(), 2u);
}

// maximum() returns from an if/else on loaded data: its lanes return from
// the function, so everything after the call is known.
TEST(Constructs, EarlyReturnsEndWithTheirFunction) {
  const LaunchResult *R = launchOf(example("device_calls"), "bestOfThree");
  ASSERT_NE(R, nullptr);
  for (const Access &A : R->K->Accesses)
    EXPECT_EQ(R->PerAccess[A.Id].UnknownRequests, 0u) << A.Text;
  EXPECT_EQ(metric(*R, "shared_store_transactions_per_request"), 1);
}

// storeScaled is a subroutine called twice: one STG per call.
TEST(Constructs, NoinlineFunctionCalledTwice) {
  const LaunchResult *R = launchOf(example("device_calls"), "storeTwice");
  ASSERT_NE(R, nullptr);
  EXPECT_EQ(metric(*R, StReq), 2 * 4096);
  EXPECT_EQ(R->K->Sass.Instructions, 4u);
  EXPECT_EQ(R->K->Sass.Claimed, 4u);
}

// thread_block_tile<32> made from tiled_partition<32>(block): its
// meta_group_size() is 256 / 32 = 8 rows per block, 128 blocks, 1024 rows
// of 512 floats: 16 coalesced loads per row.
TEST(Constructs, TileQueriesOfCooperativeGroups) {
  const Analysis &A = example("device_calls");
  const LaunchResult *R = launchOf(A, "tileRowSums");
  ASSERT_NE(R, nullptr);
  EXPECT_EQ(metric(*R, LdReq), 1024 * 16);
  EXPECT_EQ(metric(*R, "gld_transactions_per_request"), 4);
  EXPECT_EQ(metric(*R, StReq), 1024);
  // Tiles of 16: two 64-byte runs 128 bytes apart per warp, 4 sectors.
  const LaunchResult *T = launchOf(A, "tile16Copy");
  ASSERT_NE(T, nullptr);
  EXPECT_EQ(metric(*T, "gld_transactions_per_request"), 4);
  EXPECT_EQ(metric(*T, "gld_efficiency"), 100);
}

} // namespace
