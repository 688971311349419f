//===- seeds_translation_test.cpp - Every seed kernel translates cleanly --===//
//
// examples/seeds_gt.cu holds the 30 kernels of the five seed
// documents plus the template sgemm_coalescing, launched at <32>: every one
// must translate with every access's address fully modelled, in both header
// modes.
//
//===----------------------------------------------------------------------===//
#include "test_util.h"
#include "thread_interp.h"

#include <gtest/gtest.h>
#include <set>

namespace gmem::test {
namespace {

std::string seedsPath() {
  return std::string(GMEM_SOURCE_DIR) + "/examples/seeds_gt.cu";
}

class SeedsTranslation : public BothHeaders {};

TEST_P(SeedsTranslation, EveryKernelWithoutUnknowns) {
  Translated T = translateFile(seedsPath(), GetParam());
  std::set<std::string> Names;
  for (const Kernel &K : T.Kernels)
    Names.insert(K.Name);
  // 30 plain kernels, plus the template sgemm_coalescing instantiated at 32.
  EXPECT_EQ(T.Kernels.size(), 31u);
  EXPECT_EQ(Names.size(), 31u);
  EXPECT_TRUE(Names.count("sgemm_coalescing<32>"));
  EXPECT_TRUE(Names.count("naiveGmem"));
  EXPECT_TRUE(Names.count("setRowReadColRectDynPad"));
  for (const Kernel &K : T.Kernels) {
    SCOPED_TRACE(dump(K));
    EXPECT_TRUE(K.Warnings.empty());
    EXPECT_FALSE(K.Accesses.empty());
    for (const Access &A : K.Accesses) {
      EXPECT_FALSE(A.UnknownReason) << A.Text;
      EXPECT_EQ(toString(*A.Address, &K).find("unknown("), std::string::npos)
          << A.Text;
      EXPECT_EQ(A.Loc.File, seedsPath());
      EXPECT_GT(A.Loc.Line, 0u);
      EXPECT_FALSE(A.Text.empty());
    }
    EXPECT_EQ(accessOrder(K).size(), K.Accesses.size());
    EXPECT_EQ(typeErrors(K), std::vector<std::string>{});
  }
}

// Spot checks against the seed's own numbers: tile shapes, the folded
// template argument, addresses of one thread.
TEST_P(SeedsTranslation, SharedTilesAndFoldedTemplate) {
  Translated T = translateFile(seedsPath(), GetParam());
  const Kernel &Smem = T.kernel("transposeSmem");
  ASSERT_EQ(Smem.Shared.size(), 1u);
  EXPECT_EQ(Smem.Shared[0].Dims, (std::vector<uint64_t>{16, 32}));
  EXPECT_EQ(Smem.Shared[0].Bytes, 2048u);
  const Kernel &Pad = T.kernel("transposeSmemPad");
  ASSERT_EQ(Pad.Shared.size(), 1u);
  EXPECT_EQ(Pad.Shared[0].Dims, (std::vector<uint64_t>{16, 34}));
  EXPECT_EQ(Pad.Shared[0].Bytes, 2176u);
  const Kernel &Dyn = T.kernel("setRowReadColDynIpad");
  ASSERT_EQ(Dyn.Shared.size(), 1u);
  EXPECT_TRUE(Dyn.Shared[0].Dynamic);

  // sgemm_coalescing<32>, block (1, 2), thread 37: x = 1 * 32 + 37 / 32,
  // y = 2 * 32 + 37 % 32; K = 3 keeps the loop short.
  const Kernel &Sg = T.kernel("sgemm_coalescing<32>");
  ThreadEnv Env;
  Env.Thread = {37, 0, 0};
  Env.Block = {1, 2, 0};
  Env.BlockDim = {1024, 1, 1};
  Env.Params = {{"M", 1024},     {"N", 1024},     {"K", 3},
                {"A", 0x100000}, {"B", 0x200000}, {"C", 0x300000}};
  ThreadRun R = runThread(Sg, Env);
  const uint64_t X = 33, Y = 69;
  EXPECT_EQ(
      R.addresses("A[x * K + i]"),
      (std::vector<uint64_t>{0x100000 + X * 3 * 4, 0x100000 + (X * 3 + 1) * 4,
                             0x100000 + (X * 3 + 2) * 4}));
  EXPECT_EQ(R.addresses("B[i * N + y]"),
            (std::vector<uint64_t>{0x200000 + Y * 4, 0x200000 + (1024 + Y) * 4,
                                   0x200000 + (2048 + Y) * 4}));
  EXPECT_EQ(R.addresses("C[x * N + y]"),
            (std::vector<uint64_t>{0x300000 + (X * 1024 + Y) * 4,
                                   0x300000 + (X * 1024 + Y) * 4}));
}

GMEM_BOTH_HEADERS(SeedsTranslation);

} // namespace
} // namespace gmem::test
