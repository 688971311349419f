//===- examples_test.cpp - The examples, end to end -----------------------===//
//
// Expected values are worked out from DESIGN.md's rules for the examples'
// configurations (and agree with seeds_gt.cu's Hopper measurements where the
// same kernel was measured).
//
//===----------------------------------------------------------------------===//
#include "analysis.h"
#include "simulate.h"
#include "warp_eval.h"

#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::test;

namespace {

TEST(Examples, TransposeKernelsWithBlock32x16) {
  LaunchOverrides O;
  O.Block = Dim3{32, 16, 1};
  const Analysis &A = analyze(sourceDir() + "/examples/transpose.cu", O);
  struct Row {
    const char *Kernel;
    double Ld, St, ShLd;
  } Rows[] = {
      {"naiveGmem", 32, 4, 0},       {"copyGmem", 4, 32, 0},
      {"copyRow", 4, 4, 0},          {"transposeSmem", 4, 4, 16},
      {"transposeSmemPad", 4, 4, 1}, {"transposeSmemUnrollPad", 4, 4, 1}};
  for (const Row &Rw : Rows) {
    const LaunchResult *R = launchOf(A, Rw.Kernel);
    ASSERT_NE(R, nullptr) << Rw.Kernel;
    EXPECT_EQ(*R->Metrics.at("gld_transactions_per_request").Value, Rw.Ld)
        << Rw.Kernel;
    EXPECT_EQ(*R->Metrics.at("gst_transactions_per_request").Value, Rw.St)
        << Rw.Kernel;
    EXPECT_EQ(*R->Metrics.at("shared_load_transactions_per_request").Value,
              Rw.ShLd)
        << Rw.Kernel;
  }
}

TEST(Examples, AnalyzedAddressesEqualTheSourceExpression) {
  // Property over every lane of every warp of a launch: the address the
  // simulator computes from the analyzer's model equals the kernel's own
  // index expression evaluated in C++ (naiveGmem: in[iy * nx + ix] and
  // out[ix * ny + iy] with unsigned ix, iy).
  const Analysis &A = analyze(sourceDir() + "/examples/transpose.cu");
  const LaunchResult *R = launchOf(A, "naiveGmem");
  ASSERT_NE(R, nullptr);
  Launch L = R->L;
  L.Grid = {4, 8, 1}; // A corner of the grid keeps the test fast.
  const Kernel &K = *R->K;
  int64_t Nx = L.Args[2].IntValue, Ny = L.Args[3].IntValue;
  LaunchEnv Env = makeLaunchEnv(K, L);
  std::vector<AccessStats> Stats(K.Accesses.size());
  WarpEvaluator W(K, *findArch("sm_90"), Env, Stats);
  Dim3 B;
  unsigned Warp = 0;
  uint64_t Checked = 0;
  W.Requests.observe([&](const RequestEvent &E) {
    const int Id = E.A->Id;
    const uint64_t *Addr = E.Addr;
    const uint32_t Mask = E.Mask;
    for (unsigned Lane = 0; Lane < 32; ++Lane) {
      if (!(Mask >> Lane & 1))
        continue;
      unsigned T = Warp * 32 + Lane;
      unsigned tx = T % L.Block.X, ty = T / L.Block.X;
      unsigned ix = unsigned(B.Y * L.Block.Y + ty);
      unsigned iy = unsigned(B.X * L.Block.X + tx);
      const Access &Acc = K.Accesses[Id];
      int Param = K.paramIndex(Acc.Array);
      ASSERT_GE(Param, 0);
      uint64_t Base = uint64_t(Env.ParamValues[Param]);
      uint64_t Index = Acc.Kind == AccessKind::Load ? iy * unsigned(Nx) + ix
                                                    : ix * unsigned(Ny) + iy;
      ASSERT_EQ(Addr[Lane], Base + 4 * Index) << Acc.Text;
      ++Checked;
    }
  });
  for (B.Y = 0; B.Y < L.Grid.Y; ++B.Y)
    for (B.X = 0; B.X < L.Grid.X; ++B.X)
      for (Warp = 0; Warp * 32 < L.Block.count(); ++Warp)
        W.runWarp(B, Warp);
  EXPECT_EQ(Checked, 2 * L.Grid.count() * L.Block.count());
}

TEST(Examples, SgemmCoalescingTemplateInstance) {
  const Analysis &A = analyze(sourceDir() + "/examples/sgemm.cu");
  const LaunchResult *R = launchOf(A, "sgemm_coalescing<32>");
  ASSERT_NE(R, nullptr);
  // groundtruth (h200_ncu_seeds.csv): 167,903,232 load sectors over
  // 67,141,632 requests (2.50), 82.51 %; stores 4 sectors, 100 %.
  EXPECT_DOUBLE_EQ(*R->Metrics.at("gld_transactions_per_request").Value,
                   167903232.0 / 67141632.0);
  EXPECT_NEAR(*R->Metrics.at("gld_efficiency").Value, 82.51, 0.005);
  EXPECT_DOUBLE_EQ(*R->Metrics.at("gst_transactions_per_request").Value, 4);
}

} // namespace
