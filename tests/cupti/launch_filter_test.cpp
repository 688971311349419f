//===- launch_filter_test.cpp - --launch-skip/--launch-count/--kernel -----===//
#include "launch_filter.h"

#include <gtest/gtest.h>

using namespace gmem::cupti;

namespace {
const std::array<uint64_t, 3> G1{128, 1, 1}, G2{64, 1, 1}, B{32, 1, 1};

std::unique_ptr<LaunchFilter> make(uint64_t Skip, uint64_t Count,
                                   const std::string &Regex = "") {
  LaunchFilterOptions O;
  O.Skip = Skip;
  O.Count = Count;
  O.KernelRegex = Regex;
  auto F = LaunchFilter::create(O);
  EXPECT_TRUE(F) << F.error();
  return F ? std::move(*F) : nullptr;
}
} // namespace

TEST(CuptiLaunchFilter, EveryLaunchByDefault) {
  auto F = make(0, UINT64_MAX);
  for (int I = 0; I < 5; ++I)
    EXPECT_TRUE(F->select("k", "_Z1kv", G1, B, 0));
}

TEST(CuptiLaunchFilter, SkipThenCountPerKernelAndConfiguration) {
  auto F = make(1, 2);
  // Five launches of one configuration: skip 1, take 2, drop the rest.
  std::vector<bool> Got;
  for (int I = 0; I < 5; ++I)
    Got.push_back(F->select("k", "_Z1kv", G1, B, 0));
  EXPECT_EQ(Got, (std::vector<bool>{false, true, true, false, false}));
  // Another grid, another dynamic shared size, another kernel: own counts.
  EXPECT_FALSE(F->select("k", "_Z1kv", G2, B, 0));
  EXPECT_TRUE(F->select("k", "_Z1kv", G2, B, 0));
  EXPECT_FALSE(F->select("k", "_Z1kv", G1, B, 1024));
  EXPECT_TRUE(F->select("k", "_Z1kv", G1, B, 1024));
  EXPECT_FALSE(F->select("j", "_Z1jv", G1, B, 0));
  EXPECT_TRUE(F->select("j", "_Z1jv", G1, B, 0));
}

TEST(CuptiLaunchFilter, KernelRegexMatchesNameOrMangled) {
  auto F = make(0, UINT64_MAX, "^transpose");
  EXPECT_TRUE(F->select("transposeSmem", "_Z13transposeSmemPfS_ii", G1, B, 0));
  EXPECT_FALSE(F->select("copyRow", "_Z7copyRowPfS_ii", G1, B, 0));
  auto M = make(0, UINT64_MAX, "PfS_ii$");
  EXPECT_TRUE(M->select("copyRow", "_Z7copyRowPfS_ii", G1, B, 0));
}

TEST(CuptiLaunchFilter, NonMatchingLaunchesDoNotCountTowardsSkip) {
  auto F = make(1, 1, "naive");
  EXPECT_FALSE(F->select("copyRow", "_Z7copyRowPfS_ii", G1, B, 0));
  EXPECT_FALSE(F->select("naiveGmem", "_Z9naiveGmemPfS_ii", G1, B, 0));
  EXPECT_TRUE(F->select("naiveGmem", "_Z9naiveGmemPfS_ii", G1, B, 0));
}

TEST(CuptiLaunchFilter, InvalidRegexIsAnError) {
  LaunchFilterOptions O;
  O.KernelRegex = "(";
  auto F = LaunchFilter::create(O);
  ASSERT_FALSE(F);
  EXPECT_NE(F.error().find("invalid --kernel regular expression"),
            std::string::npos);
}

TEST(CuptiLaunchFilter, ParseCount) {
  uint64_t V = 7;
  EXPECT_TRUE(parseCount("0", V));
  EXPECT_EQ(V, 0u);
  EXPECT_TRUE(parseCount("12", V));
  EXPECT_EQ(V, 12u);
  EXPECT_FALSE(parseCount("", V));
  EXPECT_FALSE(parseCount("-1", V));
  EXPECT_FALSE(parseCount("3x", V));
}
