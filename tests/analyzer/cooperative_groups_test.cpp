//===- cooperative_groups_test.cpp - Group queries become built-ins -------===//
//
// Expected addresses from the CUDA Programming Guide's definitions:
// thread_block::thread_rank() is the linear thread id x + y Dx + z Dx Dy,
// group_index()/thread_index()/dim_threads() are blockIdx/threadIdx/blockDim,
// grid_group::thread_rank() is block rank * block threads + thread rank, and
// a thread_block_tile<N> of the block has thread_rank() = rank % N and
// meta_group_rank() = rank / N.
//
//===----------------------------------------------------------------------===//
#include "test_util.h"
#include "thread_interp.h"

using namespace gmem;
using namespace gmem::test;

namespace {

class CooperativeGroups : public BothHeaders {};

const char *Code = R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float *a, float *b, float *c, float *d, float *e) {
  cg::thread_block block = cg::this_thread_block();
  a[block.thread_rank()] = 1.0f;
  b[block.group_index().x * block.size() + block.thread_rank()] = 2.0f;
  c[cg::this_grid().thread_rank()] = 3.0f;
  auto tile = cg::tiled_partition<32>(block);
  d[tile.thread_rank() * 64 + tile.meta_group_rank()] = 4.0f;
  e[block.thread_index().z * block.dim_threads().y + block.thread_index().y +
    cg::this_grid().block_rank() * tile.num_threads()] = 5.0f;
}
)";

TEST_P(CooperativeGroups, QueriesAreExactAndQuiet) {
  Translated T = translate(Code, "cg.cu");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  EXPECT_TRUE(K.Warnings.empty()) << K.Warnings.front();
  for (const Access &A : K.Accesses)
    EXPECT_FALSE(A.UnknownReason) << A.Text << ": " << *A.UnknownReason;
  // Thread (5, 3, 1) of an 8 x 4 x 2 block, block (2, 1, 0) of a 3 x 2 grid.
  ThreadEnv Env;
  Env.Thread = {5, 3, 1};
  Env.Block = {2, 1, 0};
  Env.BlockDim = {8, 4, 2};
  Env.GridDim = {3, 2, 1};
  for (const char *P : {"a", "b", "c", "d", "e"})
    Env.Params[P] = 0;
  ThreadRun R = runThread(K, Env);
  const uint64_t Rank = 5 + 3 * 8 + 1 * 32; // 61
  const uint64_t BlockRank = 2 + 1 * 3;     // 5
  auto At = [&](const char *Text) { return R.addresses(Text).at(0) / 4; };
  EXPECT_EQ(At("a[block.thread_rank()]"), Rank);
  EXPECT_EQ(At("b[block.group_index().x * block.size() + "
               "block.thread_rank()]"),
            2 * 64 + Rank);
  EXPECT_EQ(At("c[cg::this_grid().thread_rank()]"), BlockRank * 64 + Rank);
  EXPECT_EQ(At("d[tile.thread_rank() * 64 + tile.meta_group_rank()]"),
            (Rank % 32) * 64 + Rank / 32);
  EXPECT_EQ(R.Events.back().Addr.value() / 4, 1 * 4 + 3 + BlockRank * 32);
}

// A function taking the type-erased thread_group answers as the group each
// call passes: the block (rank 61 of 64 threads) and a tile of 16 (rank 61 %
// 16 = 13, size 16). The Programming Guide's example reduction has this shape.
const char *Erased = R"(
#include <cooperative_groups.h>
using namespace cooperative_groups;
__device__ void put(thread_group g, float *x) {
  x[g.thread_rank() * 100 + g.size()] = 1.0f;
}
__global__ void k(float *a, float *b, float *c) {
  thread_block block = this_thread_block();
  put(block, a);
  thread_block_tile<16> tile = tiled_partition<16>(block);
  put(tile, b);
  thread_group any = block;
  c[any.thread_rank()] = 2.0f;
}
)";

// thread_block_tile<32> (no parent type) made from tiled_partition<32>
// through the tile's conversion operator is still a tile of the block:
// meta_group_size() = ceil(64 / 32) = 2 for an 8 x 4 x 2 block.
TEST_P(CooperativeGroups, ConvertedTileKeepsItsBlock) {
  Translated T = translate(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float *a) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  a[blockIdx.x * warp.meta_group_size() + warp.meta_group_rank()] = 1.0f;
}
)",
                           "tile.cu");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  ASSERT_EQ(K.Accesses.size(), 1u);
  EXPECT_FALSE(K.Accesses[0].UnknownReason);
  ThreadEnv Env;
  Env.Thread = {5, 3, 1}; // rank 61: tile 1
  Env.Block = {2, 0, 0};
  Env.BlockDim = {8, 4, 2};
  Env.Params["a"] = 0;
  ThreadRun R = runThread(K, Env);
  EXPECT_EQ(R.Events.back().Addr.value() / 4, 2 * 2 + 1u);
}

TEST_P(CooperativeGroups, ThreadGroupAnswersAsTheGroupItWasMadeFrom) {
  Translated T = translate(Erased, "erased.cu");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  for (const Access &A : K.Accesses)
    EXPECT_FALSE(A.UnknownReason) << A.Text << ": " << *A.UnknownReason;
  ThreadEnv Env;
  Env.Thread = {5, 3, 1};
  Env.BlockDim = {8, 4, 2};
  for (const char *P : {"a", "b", "c"})
    Env.Params[P] = 0;
  ThreadRun R = runThread(K, Env);
  ASSERT_EQ(R.Events.size(), 3u);
  EXPECT_EQ(R.Events[0].Addr.value() / 4, 61u * 100 + 64);
  EXPECT_EQ(R.Events[1].Addr.value() / 4, 13u * 100 + 16);
  EXPECT_EQ(R.Events[2].Addr.value() / 4, 61u);
}

GMEM_BOTH_HEADERS(CooperativeGroups);

} // namespace
