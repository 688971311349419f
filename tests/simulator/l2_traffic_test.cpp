//===- l2_traffic_test.cpp - The sectors L1 asks of L2, by hand -----------===//
//
// simulator/l2_traffic.h: a block's warps that load sectors another warp
// of the block loaded hit L1; L2 sees each block's distinct sectors.
// Worked out by hand for hand-built kernels, on an unsplit L2 and on the
// H200's split one (half the sectors counted again, and 980 of its own).
//
//===----------------------------------------------------------------------===//
#include "build_model.h"
#include "l2_traffic.h"
#include "simulate.h"

#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::test;

namespace {

/// in[(blockIdx.x * R + threadIdx.x % 32)]: every warp of a block reads the
/// same 32 floats; R = 32 gives blocks their own, R = 0 shares one row.
Kernel rowReader(int64_t R) {
  Kernel K;
  K.Name = "rowReader";
  K.Params = {pointerParam("in", 4), pointerParam("out", 4)};
  auto Lane = bin(Op::Rem, tx(), c(32));
  auto Index = add(mul(bx(), c(R)), Lane);
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Load, 4,
                             elem(0, Index, 4), "in[...]"));
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Store, 4,
                             elem(1, add(mul(bx(), bdx()), tx()), 4),
                             "out[i]"));
  return K;
}

L2Traffic run(const Kernel &K, Dim3 Grid, Dim3 Block, bool Split) {
  Launch L;
  L.Kernel = K.Name;
  L.Grid = Grid;
  L.Block = Block;
  L.Args = {ptrArg("in"), ptrArg("out")};
  SimOptions O;
  O.Threads = 1;
  const ArchRules &A = *findArch("sm_90");
  O.Arch = &A;
  LaunchResult R = simulate(K, L, O);
  return predictL2(K, L, A, R, Split);
}

TEST(L2Traffic, WarpsOfABlockShareTheirSectorsInL1) {
  // 8 blocks of 4 warps: 16 L1 load sectors per block (4 per warp), 4
  // distinct; stores 16 sectors per block, each to L2.
  L2Traffic T = run(rowReader(32), {8, 1, 1}, {128, 1, 1}, false);
  ASSERT_TRUE(T.Known) << T.Why;
  EXPECT_EQ(T.SampledBlocks, 8u);
  EXPECT_EQ(T.MissSectors, 8u * 4);
  EXPECT_EQ(T.StoreSectors, 8u * 16);
  EXPECT_EQ(T.ReadSectors, 32u + LaunchL2ReadSectors);
  EXPECT_EQ(T.WriteSectors, 128u);
  // The H200's split L2 counts half of them again.
  L2Traffic S = run(rowReader(32), {8, 1, 1}, {128, 1, 1}, true);
  EXPECT_EQ(S.ReadSectors, 48u + LaunchL2ReadSectors);
  EXPECT_EQ(S.WriteSectors, 192u);
}

TEST(L2Traffic, BlocksMissOnEachOthersSectors) {
  // Every block reads the same row: L1s are per SM, so each block misses
  // on its 4 sectors again (what one SM's blocks share is left out). The
  // launch is small, so every block runs, and the whole launch touches the
  // row's two 64-byte blocks once: what DRAM serves.
  L2Traffic T = run(rowReader(0), {64, 1, 1}, {64, 1, 1}, false);
  ASSERT_TRUE(T.Known) << T.Why;
  EXPECT_EQ(T.SampledBlocks, 64u);
  EXPECT_EQ(T.MissSectors, 64u * 4);
  ASSERT_TRUE(T.LaunchLoadBlocks);
  EXPECT_EQ(*T.LaunchLoadBlocks, 2u);
  // 8 blocks reading 8 rows of 128 bytes: 16 blocks of 64 bytes.
  L2Traffic Rows = run(rowReader(32), {8, 1, 1}, {128, 1, 1}, false);
  ASSERT_TRUE(Rows.LaunchLoadBlocks);
  EXPECT_EQ(*Rows.LaunchLoadBlocks, 16u);
}

TEST(L2Traffic, LargeLaunchesAreSampled) {
  // 16384 blocks of 32 warps, a request each: beyond the launches run in
  // full, so 16 blocks are, and the whole launch's blocks are not counted.
  L2Traffic T = run(rowReader(0), {16384, 1, 1}, {1024, 1, 1}, false);
  ASSERT_TRUE(T.Known) << T.Why;
  EXPECT_EQ(T.SampledBlocks, L2SampleBlocks);
  EXPECT_EQ(T.MissSectors, 16384u * 4);
  EXPECT_FALSE(T.LaunchLoadBlocks);
}

TEST(L2Traffic, ExecutedLaunchesCountEveryBlock) {
  Kernel K = rowReader(32);
  Launch L;
  L.Kernel = K.Name;
  L.Grid = {1, 1, 1};
  L.Block = {32, 1, 1};
  L.Args = {ptrArg("in"), ptrArg("out")};
  SimOptions O;
  LaunchResult R = simulate(K, L, O);
  R.Path = "executed";
  L2Traffic T = predictL2(K, L, *findArch("sm_90"), R, true);
  EXPECT_FALSE(T.Known);
  EXPECT_NE(T.Why.find("executed"), std::string::npos);
  // With every block's first touches counted (the executor's), those.
  R.L1MissSectors = 3;
  T = predictL2(K, L, *findArch("sm_90"), R, false);
  ASSERT_TRUE(T.Known) << T.Why;
  EXPECT_TRUE(T.EveryBlock);
  EXPECT_EQ(T.MissSectors, 3u);
  EXPECT_EQ(T.ReadSectors, 3u + LaunchL2ReadSectors);
}

} // namespace

// SectorSet (the executor's count of a block's distinct sectors) counts
// what sorting every sector and dropping repeats counts, over requests of
// random addresses, sizes and masks, of three accesses, priced or not,
// equally spaced or not, across clears (a block's end).
TEST(L2Traffic, SectorSetCountsWhatSortingCounts) {
  uint64_t Seed = 12345;
  auto Next = [&] {
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    return Seed >> 33;
  };
  SectorSet Set;
  const Access Accesses[3];
  for (int Block = 0; Block < 200; ++Block) {
    std::vector<uint64_t> All;
    const unsigned Requests = 1 + Next() % 400;
    const uint64_t Span = 64 << (Next() % 14); // Bytes the block reads in.
    for (unsigned R = 0; R < Requests; ++R) {
      uint64_t Addr[32];
      for (uint64_t &A : Addr)
        A = 0x7f0000000000ull + Next() % Span;
      const unsigned Shape = Next() % 6;
      if (Shape == 0) // A walk: lanes read what they read last, on.
        for (unsigned L = 0; L < 32; ++L)
          Addr[L] = 0x7f0000000000ull + L * 4096 + R * 4;
      if (Shape == 1) { // Equally spaced: broadcast, strided, a stretch.
        static const uint64_t Strides[] = {0,  1,  2,  4,  8,  12,
                                           16, 32, 36, 64, 96, 4096};
        const uint64_t D = Strides[Next() % 12];
        const uint64_t A0 = 0x7f0000000000ull + (Next() % Span) / 4 * 4;
        for (unsigned L = 0; L < 32; ++L)
          Addr[L] = A0 + L * D;
      }
      if (Shape == 2) // The same walk, one step on every second request.
        for (unsigned L = 0; L < 32; ++L)
          Addr[L] = 0x7f0000000000ull + L * 4096 + R / 2 * 4;
      RequestEvent E;
      E.Addr = Addr;
      E.Size = 1u << (Next() % 5);
      E.Mask = Next() % 4 ? ~0u : uint32_t(Next());
      E.A = &Accesses[Next() % 3];
      const RequestCost Cost = globalRequest(32, Addr, E.Mask, E.Size);
      Set.add(E, Next() % 4 ? &Cost : nullptr);
      appendSectors(E, All);
    }
    EXPECT_EQ(Set.size(), distinctSectors(All)) << "block " << Block;
    Set.clear();
    EXPECT_EQ(Set.size(), 0u);
  }
}
