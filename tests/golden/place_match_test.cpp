// matchByPlace (analyzer/compiled/place_match.h): which PTX accesses each
// SASS instruction makes, from their places and the instructions'
// addresses. The cases are the shapes of CUB's select sweep
// (tests/data/programs/cub_own/select_sweep.cu, nvcc 13.0, sm_90) and
// variations on them worked out by hand.
#include "place_match.h"

#include <gtest/gtest.h>

namespace gmem {
namespace {

using Made = std::vector<std::vector<size_t>>;

TEST(PlaceMatch, AMovedLoadAndAWidenedPairAreTheOnlyWay) {
  // Path 0: 4 bytes at 68 (line 1325), 4 at 76 (line 1337). Path 1: 8 at
  // 72 (line 1337), 4 at 68 (line 1325). The SASS: LDS at 0x44 and 0x4c on
  // line 1325, LDS.128 at 0x40 on line 1337. Only the 8-byte part can make
  // the LDS.128, which then also makes path 1's 68; path 0's 68 and 76 take
  // the two 4-byte loads.
  const std::vector<PlacedPart> Parts = {
      {0, 68, 4}, {0, 76, 4}, {1, 72, 8}, {1, 68, 4}};
  const std::vector<PlacedInstr> Instrs = {
      {0x44, 4, 1325}, {0x4c, 4, 1325}, {0x40, 16, 1337}};
  const auto M = matchByPlace(Parts, Instrs);
  ASSERT_TRUE(M.has_value());
  EXPECT_EQ(*M, (Made{{0}, {1}, {2, 3}}));
}

TEST(PlaceMatch, OneShiftForEveryInstruction) {
  // The same accesses with the shared window 0x400 further on: the shift
  // is found from the loads that make one access each.
  const std::vector<PlacedPart> Parts = {
      {0, 68, 4}, {0, 76, 4}, {1, 72, 8}, {1, 68, 4}};
  const std::vector<PlacedInstr> Instrs = {
      {0x444, 4, 1}, {0x44c, 4, 1}, {0x440, 16, 2}};
  const auto M = matchByPlace(Parts, Instrs);
  ASSERT_TRUE(M.has_value());
  EXPECT_EQ(*M, (Made{{0}, {1}, {2, 3}}));
}

TEST(PlaceMatch, TwoWaysThatCountDifferentlyAreNone) {
  // Two paths alike, 4 bytes at 68 each, and one 4-byte load on each of two
  // lines: which path's access is on which line is not told.
  const std::vector<PlacedPart> Parts = {{0, 68, 4}, {1, 68, 4}};
  EXPECT_FALSE(matchByPlace(Parts, {{0x44, 4, 1}, {0x44, 4, 2}}).has_value());
  // On one line, the two ways count alike.
  const auto M = matchByPlace(Parts, {{0x44, 4, 1}, {0x44, 4, 1}});
  ASSERT_TRUE(M.has_value());
  EXPECT_EQ(M->size(), 2u);
}

TEST(PlaceMatch, EveryAccessAndEveryInstructionIsUsed) {
  // An access no instruction reaches (ptxas kept the value: a reread),
  // an instruction with nothing to make, a part across a window's edge.
  EXPECT_FALSE(matchByPlace({{0, 68, 4}, {0, 80, 4}}, {{0x44, 4, 1}}));
  EXPECT_FALSE(matchByPlace({{0, 68, 4}}, {{0x44, 4, 1}, {0x48, 4, 1}}));
  EXPECT_FALSE(
      matchByPlace({{0, 68, 4}, {0, 76, 8}}, {{0x44, 4, 1}, {0x40, 16, 1}}));
  // Parts of two blocks cannot make one instruction.
  EXPECT_FALSE(matchByPlace({{0, 68, 4}, {1, 72, 4}, {2, 72, 4}},
                            {{0x40, 16, 1}, {0x48, 4, 1}}));
  // Overlapping parts cannot share one.
  EXPECT_FALSE(matchByPlace({{0, 64, 8}, {0, 68, 4}, {0, 68, 4}},
                            {{0x40, 16, 1}, {0x44, 4, 1}}));
}

TEST(PlaceMatch, MisalignedOrOddSizesAreNone) {
  EXPECT_FALSE(
      matchByPlace({{0, 66, 4}, {0, 68, 4}}, {{0x40, 16, 1}, {0x44, 4, 1}}));
  EXPECT_FALSE(matchByPlace({{0, 68, 3}}, {{0x44, 3, 1}}));
  EXPECT_FALSE(matchByPlace({}, {{0x44, 4, 1}}));
}

} // namespace
} // namespace gmem
