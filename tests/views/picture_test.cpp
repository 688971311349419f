//===- picture_test.cpp - Pictures of one warp's request ------------------===//
//
// The pictures are drawn from the request the simulator kept for an access
// (AccessStats::Costliest). Worked out by hand for one warp of 32 lanes:
//   - shared tile[lane % 16][lane / 16] of a float[16][32]: lanes 0-15 in
//     bank 0, 16-31 in bank 1, 16 distinct words each: 16 wavefronts, one
//     cell per lane, 16 rows;
//   - global a[lane * 32] of floats: 128 bytes apart, 32 sectors, 4 of
//     their 32 bytes used each (12.5 %).
//
//===----------------------------------------------------------------------===//
#include "build_model.h"
#include "simulate.h"
#include "views.h"

#include <gtest/gtest.h>
#include <regex>
#include <sstream>

using namespace gmem;
using namespace gmem::test;

namespace {

size_t count(const std::string &S, const std::string &Pattern) {
  std::regex R(Pattern);
  return std::distance(std::sregex_iterator(S.begin(), S.end(), R),
                       std::sregex_iterator());
}

Launch oneWarp(std::vector<ArgValue> Args = {}) {
  return launchOf("k", {4, 1, 1}, {32, 1, 1}, std::move(Args));
}

TEST(Picture, TransposedTileIsASixteenWayConflictInTwoBanks) {
  Kernel K;
  K.Name = "k";
  SharedArray S;
  S.Name = "tile";
  S.Bytes = 16 * 32 * 4;
  S.Dims = {16, 32};
  K.Shared.push_back(S);
  ExprPtr Row = bin(Op::Rem, tx(), c(16, U32)),
          Col = bin(Op::Div, tx(), c(16, U32));
  ExprPtr Word = add(mul(Row, c(32, U32)), Col);
  K.Body = {addAccess(K, Space::Shared, AccessKind::Load, 4,
                      cast(mul(Word, c(4, U32)), U64), "tile[icol][irow]", 0)};
  LaunchResult R = simulate(K, oneWarp(), SimOptions());
  const AccessStats &St = R.PerAccess[0];
  ASSERT_TRUE(St.Costliest);
  EXPECT_EQ(St.Costliest->Units, 16u);
  EXPECT_EQ(St.Costliest->Mask, 0xffffffffu);
  std::string Svg =
      requestSvg(K.Accesses[0], *St.Costliest, *findArch("sm_90"), "t");
  EXPECT_EQ(count(Svg, "class=\"word\" data-group=\"0\" data-bank=\"0\""), 16u);
  EXPECT_EQ(count(Svg, "class=\"word\" data-group=\"0\" data-bank=\"1\""), 16u);
  EXPECT_EQ(count(Svg, "class=\"word\""), 32u);
  EXPECT_EQ(count(Svg, "data-row=\"15\""), 2u);
  EXPECT_NE(Svg.find("16 wavefronts (ideal 1): 16-way bank conflict"),
            std::string::npos)
      << Svg;

  // The report draws it, with the same figures as its table.
  Report Rep;
  Rep.File = "test.cu";
  Rep.Launches.push_back(R);
  std::ostringstream Html;
  printHtmlView(Rep, Html);
  EXPECT_EQ(count(Html.str(), "<figure class=\"picture\" id=\"picture-0-0\" "
                              "data-access=\"0\">"),
            1u);
  EXPECT_NE(Html.str().find("data-per-request=\"16.00\""), std::string::npos);
}

TEST(Picture, StridedLanesTakeASectorEach) {
  Kernel K;
  K.Name = "k";
  K.Params = {pointerParam("a", 4)};
  K.Body = {addAccess(K, Space::Global, AccessKind::Load, 4,
                      elem(0, mul(tx(), c(32, U32)), 4), "a[lane * 32]")};
  LaunchResult R = simulate(K, oneWarp({ptrArg("a")}), SimOptions());
  const AccessStats &St = R.PerAccess[0];
  ASSERT_TRUE(St.Costliest);
  EXPECT_EQ(St.Costliest->Units, 32u);
  std::string Svg =
      requestSvg(K.Accesses[0], *St.Costliest, *findArch("sm_90"), "t");
  EXPECT_EQ(count(Svg, "class=\"unit\""), 32u);
  EXPECT_EQ(count(Svg, "<line "), 32u);
  EXPECT_NE(Svg.find("32 sectors of 32 bytes for 32 lanes of 4 bytes (ideal "
                     "4): 12.5% of the bytes moved are used"),
            std::string::npos)
      << Svg;
}

// tile4[lane] of float4: 16 bytes a lane, served 8 lanes (128 bytes) at a
// time, each quarter warp on all 32 banks once: 4 wavefronts, the fewest
// 512 bytes can take. Drawn per quarter warp: 4 groups of one green row.
TEST(Picture, WideSharedAccessesAreDrawnPerGroup) {
  Kernel K;
  K.Name = "k";
  SharedArray S;
  S.Name = "tile4";
  S.Bytes = 32 * 16;
  S.ElemSize = 16;
  S.Dims = {32};
  K.Shared.push_back(S);
  K.Body = {addAccess(K, Space::Shared, AccessKind::Store, 16,
                      cast(mul(tx(), c(16, U32)), U64), "tile4[lane]", 0)};
  LaunchResult R = simulate(K, oneWarp(), SimOptions());
  ASSERT_TRUE(R.PerAccess[0].Costliest);
  EXPECT_EQ(R.PerAccess[0].Costliest->Units, 4u);
  std::string Svg = requestSvg(K.Accesses[0], *R.PerAccess[0].Costliest,
                               *findArch("sm_90"), "t");
  EXPECT_EQ(count(Svg, "class=\"word\""), 128u); // 32 lanes x 4 banks.
  EXPECT_EQ(count(Svg, "data-row=\"1\""), 0u);
  EXPECT_EQ(count(Svg, "data-group=\"3\""), 32u);
  EXPECT_NE(Svg.find("4 wavefronts (ideal 4): no bank conflict; the lanes "
                     "are served 8 at a time"),
            std::string::npos)
      << Svg;
}

// atomicAdd(&a[0], ...) by 32 lanes: one sector, counted once per lane on
// its busiest address (memory_units.h): 32. The caption says why.
TEST(Picture, AtomicsSayTheirLanesAreServedInTurn) {
  Kernel K;
  K.Name = "k";
  K.Params = {pointerParam("a", 4)};
  K.Body = {addAccess(K, Space::Global, AccessKind::Atomic, 4, elem(0, c(0), 4),
                      "atomicAdd(&a[0], v)")};
  LaunchResult R = simulate(K, oneWarp({ptrArg("a")}), SimOptions());
  ASSERT_TRUE(R.PerAccess[0].Costliest);
  EXPECT_EQ(R.PerAccess[0].Costliest->Units, 32u);
  std::string Svg = requestSvg(K.Accesses[0], *R.PerAccess[0].Costliest,
                               *findArch("sm_90"), "t");
  EXPECT_EQ(count(Svg, "class=\"unit\""), 1u);
  EXPECT_NE(Svg.find("32 sectors of 32 bytes for 32 lanes of 4 bytes (ideal "
                     "1): 1 drawn, each counted once per lane on its busiest "
                     "address"),
            std::string::npos)
      << Svg;
}

TEST(Picture, CheapAccessesAreNotDrawn) {
  // a[lane]: 4 sectors, as cheap as its bytes: no picture.
  Kernel K;
  K.Name = "k";
  K.Params = {pointerParam("a", 4)};
  K.Body = {addAccess(K, Space::Global, AccessKind::Load, 4, elem(0, tx(), 4),
                      "a[lane]")};
  Report Rep;
  Rep.Launches.push_back(simulate(K, oneWarp({ptrArg("a")}), SimOptions()));
  std::ostringstream Html;
  printHtmlView(Rep, Html);
  EXPECT_EQ(count(Html.str(), "<svg"), 0u);
  EXPECT_EQ(count(Html.str(), "\" class=\"access good\""), 1u);
}

} // namespace
