//===- warp_intrinsics_test.cpp - Shuffles exact, votes unknown -----------===//
//
// Expected values from CUDA's shuffle semantics (PTX shfl.sync): a lane
// reads the value of its source lane within its width-sized segment, and
// keeps its own value when the source lies outside it (Up/Down) or in a
// later segment (Xor); sectors by DESIGN.md's rules. One warp of 32 lanes,
// t = threadIdx.x, 4-byte floats from a 256-byte aligned base.
//
//===----------------------------------------------------------------------===//
#include "analysis.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace gmem::test;

namespace {

const char *Source = R"(#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(float *a, float *b, float *c, float *d, float *e, int *p) {
  int t = threadIdx.x;
  int s = __shfl_sync(0xffffffff, t, 0);
  a[s] = 1.0f;
  int u = __shfl_down_sync(0xffffffff, t, 1);
  b[u] = 1.0f;
  int x = __shfl_xor_sync(0xffffffff, t * 32, 1, 16);
  c[x] = 1.0f;
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  int y = tile.shfl_up(t, 2);
  d[y * 32] = 1.0f;
  if (t < 16) {
    int z = __shfl_sync(0xffffffff, t, t + 16);
    e[z] = 1.0f;
  }
  unsigned bal = __ballot_sync(0xffffffff, t > 3);
  p[bal & 31] = 1;
}
)";

std::map<std::string, nlohmann::json> byText(const nlohmann::json &L) {
  std::map<std::string, nlohmann::json> M;
  for (const nlohmann::json &A : L["accesses"])
    M[A["text"]] = A;
  return M;
}

void check(const std::string &CudaPath) {
  std::string Path = ::testing::TempDir() + "/warp_shuffles.cu";
  std::ofstream(Path) << Source;
  ToolRun R = runTool(Path + " --kernel k --grid 1 --block 32 --format json" +
                      " --cuda-path " + CudaPath);
  ASSERT_EQ(R.Exit, 0) << R.Err;
  nlohmann::json J = nlohmann::json::parse(R.Out);
  auto A = byText(J["launches"][0]);
  // Every lane reads lane 0's t = 0: one sector.
  EXPECT_EQ(A["a[s]"]["sectors"], 1);
  // Lanes 0-30 read t + 1, lane 31 keeps 31: 1..31 and 31, 4 sectors, 31
  // distinct words of 32.
  EXPECT_EQ(A["b[u]"]["sectors"], 4);
  EXPECT_NEAR(double(A["b[u]"]["efficiency_pct"]), 100.0 * 31 / 32, 1e-9);
  // A permutation of t * 32 within 16-lane segments: 32 sectors.
  EXPECT_EQ(A["c[x]"]["sectors"], 32);
  // Tiles of 8, up by 2: lanes 0, 1 of each tile keep their own value, the
  // others read t - 2: 6 distinct rows per tile, 24 sectors.
  EXPECT_EQ(A["d[y * 32]"]["sectors"], 24);
  // Lanes 0-15 read lanes 16-31, which are not active: undefined.
  std::string Why = A["e[z]"]["unknown_reason"];
  EXPECT_NE(Why.find("which is not active there (undefined)"),
            std::string::npos)
      << Why;
  EXPECT_EQ(A["e[z]"]["sectors"], (nlohmann::json{{"min", 1}, {"max", 16}}));
  if (J["launches"][0]["path"] == "executed") {
    // Run on its PTX, the vote is computed: lanes 4-31 have t > 3, so bal
    // & 31 is 16 on every lane, one sector. The shuffle from inactive lanes
    // stays unknown there too, so e[z] keeps the model's bounds.
    EXPECT_EQ(A["p[bal & 31]"]["sectors"], 1);
    EXPECT_FALSE(A["p[bal & 31]"].contains("unknown_reason"));
  } else {
    // The model leaves a vote unknown, saying so; bal & 31 keeps it within
    // 4 sectors.
    std::string Vote = A["p[bal & 31]"]["unknown_reason"];
    EXPECT_EQ(Vote.find("result of the warp vote __ballot_sync()"), 0u)
        << Vote;
    EXPECT_EQ(A["p[bal & 31]"]["sectors"],
              (nlohmann::json{{"min", 1}, {"max", 4}}));
  }
  // The model's warning belongs to launches the model prices.
  bool Warned = false;
  for (const std::string W : J["warnings"])
    Warned |= W.find("warp vote '__ballot_sync' is not modelled") !=
              std::string::npos;
  EXPECT_EQ(Warned, J["launches"][0]["path"] == "model") << J["warnings"];
}

TEST(WarpIntrinsics, StandInHeaders) { check("none"); }

TEST(WarpIntrinsics, CudaHeaders) {
  if (!std::ifstream("/usr/local/cuda/include/cooperative_groups.h"))
    GTEST_SKIP() << "no CUDA installation at /usr/local/cuda";
  check("/usr/local/cuda");
}

} // namespace
