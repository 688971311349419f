//===- unknown_bounds_test.cpp - Data-dependent accesses get bounds -------===//
//
// Expected values from DESIGN.md's rules: a 4-byte gather of 32 lanes takes
// between 1 sector (all lanes in one) and 32 (each in its own); an index
// known to lie in [0, 15] reaches 64 bytes from a 256-byte aligned base,
// 2 sectors; a shared int array indexed in [0, 63] holds 2 words per bank.
//
//===----------------------------------------------------------------------===//
#include "analysis.h"

#include <fstream>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace gmem::test;

namespace {

const char *Source = R"(
struct P { int a; int b; };
__global__ void gather(const float *src, const int *idx, const P *ps,
                       float *dst) {
  __shared__ int hist[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  hist[threadIdx.x % 64] = 0;
  float s = src[idx[i]];
  s += src[idx[i] & 15];
  s += src[min(max(idx[i], 0), 3)];
  P p = ps[i];
  s += hist[p.b & 63];
  atomicAdd(&hist[p.a & 63], 1);
  dst[i] = s;
}
)";

nlohmann::json access(const nlohmann::json &L, const std::string &Text) {
  for (const nlohmann::json &A : L["accesses"])
    if (A["text"] == Text && A["op"] != "store")
      return A;
  ADD_FAILURE() << "no access " << Text;
  return {};
}

TEST(UnknownBounds, GatherBoundsInTextAndJson) {
  std::string Path = ::testing::TempDir() + "/gather_bounds.cu";
  std::ofstream(Path) << Source;
  // Counted as the source is written: nvcc merges the two 4-byte members of
  // ps[i] into one 8-byte load, which compiled_examples_test covers.
  std::string Args =
      Path + " --kernel gather --grid 2 --block 64 --compiler source";
  ToolRun R = runTool(Args + " --format json");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  nlohmann::json L = nlohmann::json::parse(R.Out)["launches"][0];
  // 2 blocks x 2 warps = 4 requests per access.
  nlohmann::json Any = access(L, "src[idx[i]]");
  EXPECT_EQ(Any["requests"], 4);
  EXPECT_EQ(Any["unknown_requests"], 4);
  EXPECT_EQ(Any["sectors"], (nlohmann::json{{"min", 4}, {"max", 128}}));
  EXPECT_EQ(Any["per_request"], (nlohmann::json{{"min", 1.0}, {"max", 32.0}}));
  EXPECT_EQ(access(L, "src[idx[i] & 15]")["sectors"],
            (nlohmann::json{{"min", 4}, {"max", 8}}));
  // The clamp to [0, 3]: 16 bytes in one sector, as good as known.
  EXPECT_EQ(access(L, "src[min(max(idx[i], 0), 3)]")["sectors"],
            (nlohmann::json{{"min", 4}, {"max", 4}}));
  // A member of a struct copied from memory: the reason names the load.
  nlohmann::json H = access(L, "hist[p.b & 63]");
  EXPECT_EQ(H["wavefronts"], (nlohmann::json{{"min", 4}, {"max", 8}}));
  std::string Why = H["unknown_reason"];
  EXPECT_NE(Why.find("depends on data loaded by ps[i]"), std::string::npos)
      << Why;
  nlohmann::json Atom = access(L, "atomicAdd(&hist[p.a & 63], 1)");
  EXPECT_TRUE(Atom["wavefronts"].is_null());
  EXPECT_EQ(std::string(Atom["unknown_reason"])
                .find("depends on data loaded by ps[i]"),
            0u)
      << Atom["unknown_reason"];

  // Kernel totals: global loads are idx[i] x 3 (4 sectors each, 4 requests
  // each, all known), ps[i] (8 bytes apart: 8 sectors, as two 4-byte
  // members: 2 x 4 x 8) and the three gathers (bounded).
  const nlohmann::json &B =
      L["metric_bounds"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"];
  double Known = 3 * 4 * 4 + 2 * 4 * 8;
  EXPECT_EQ(B["known_part"], Known);
  EXPECT_EQ(B["excluded_requests"], 12);
  EXPECT_EQ(B["min"], Known + 4 + 4 + 4);
  EXPECT_EQ(B["max"], Known + 128 + 8 + 4);
  EXPECT_TRUE(L["metrics"]["gld_transactions_per_request"].is_null());
  const nlohmann::json &PerReq =
      L["metric_bounds"]["gld_transactions_per_request"];
  // Requests: idx[i] 12, ps[i] 8, the gathers 12.
  EXPECT_DOUBLE_EQ(PerReq["min"], (Known + 12) / 32);
  EXPECT_DOUBLE_EQ(PerReq["max"], (Known + 140) / 32);

  ToolRun T = runTool(Args);
  ASSERT_EQ(T.Exit, 0) << T.Err;
  EXPECT_NE(T.Out.find("[4, 128]  [1.00, 32.00]"), std::string::npos) << T.Out;
  EXPECT_NE(T.Out.find("known part"), std::string::npos) << T.Out;
}

} // namespace
