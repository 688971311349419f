//===- memory_units_test.cpp - One request under the sm_90 rules ----------===//
//
// Expected values are worked out by hand from DESIGN.md's rules (32-byte
// sectors; 32 banks of 4 bytes; 8-/16-byte shared accesses per half/quarter
// warp) and agree with the Hopper measurements quoted in the comments.
//
//===----------------------------------------------------------------------===//
#include "memory_units.h"

#include <gtest/gtest.h>
#include <random>
#include <set>

using namespace gmem;

namespace {

const ArchRules &sm90() { return *findArch("sm_90"); }

struct Lanes {
  uint64_t A[32];
  template <typename F> explicit Lanes(F Fn) {
    for (unsigned L = 0; L < 32; ++L)
      A[L] = Fn(L);
  }
};

constexpr uint64_t Base = uint64_t(1) << 36; // 256-byte aligned, as cudaMalloc.

TEST(GlobalRule, CoalescedFloatsTakeFourSectors) {
  Lanes L([](unsigned I) { return Base + 4 * I; });
  RequestCost C = globalRequest(32, L.A, ~0u, 4);
  EXPECT_EQ(C.Units, 4u);
  EXPECT_EQ(C.IdealUnits, 4u);
  EXPECT_EQ(C.DistinctBytes, 128u);
}

TEST(GlobalRule, PermutedLanesStillTakeFourSectors) { // seed 001: 4, 100 %
  Lanes L([](unsigned I) { return Base + 4 * (I ^ 1); });
  RequestCost C = globalRequest(32, L.A, ~0u, 4);
  EXPECT_EQ(C.Units, 4u);
  EXPECT_EQ(C.DistinctBytes, 128u);
}

TEST(GlobalRule, OffsetByOneElementTakesFiveSectors) { // seed 001: 5, 80 %
  Lanes L([](unsigned I) { return Base + 4 * (I + 1); });
  RequestCost C = globalRequest(32, L.A, ~0u, 4);
  EXPECT_EQ(C.Units, 5u);
  EXPECT_DOUBLE_EQ(100.0 * C.DistinctBytes / (32.0 * C.Units), 80.0);
}

TEST(GlobalRule, StrideTakesOneSectorPerLane) { // seed 001: 32, 12.5 %
  Lanes L([](unsigned I) { return Base + 4 * 128 * I; });
  RequestCost C = globalRequest(32, L.A, ~0u, 4);
  EXPECT_EQ(C.Units, 32u);
  EXPECT_DOUBLE_EQ(100.0 * C.DistinctBytes / (32.0 * C.Units), 12.5);
}

TEST(GlobalRule, BroadcastCountsItsBytesOnce) { // seed 001: 1, 12.5 %
  Lanes L([](unsigned) { return Base; });
  RequestCost C = globalRequest(32, L.A, ~0u, 4);
  EXPECT_EQ(C.Units, 1u);
  EXPECT_EQ(C.DistinctBytes, 4u);
  EXPECT_EQ(C.IdealUnits, 1u);
}

TEST(GlobalRule, WideAccessesTakeEightAndSixteenSectors) {
  // gpu-metrics.md: fully coalesced 8- and 16-byte accesses read 8.00, 16.00.
  Lanes L8([](unsigned I) { return Base + 8 * I; });
  Lanes L16([](unsigned I) { return Base + 16 * I; });
  EXPECT_EQ(globalRequest(32, L8.A, ~0u, 8).Units, 8u);
  EXPECT_EQ(globalRequest(32, L16.A, ~0u, 16).Units, 16u);
}

TEST(GlobalRule, InactiveLanesTouchNothing) {
  Lanes L([](unsigned I) { return Base + 4 * 128 * I; });
  RequestCost C = globalRequest(32, L.A, 0x0000000fu, 4);
  EXPECT_EQ(C.Units, 4u);
  EXPECT_EQ(C.DistinctBytes, 16u);
  EXPECT_EQ(globalRequest(32, L.A, 0, 4).Units, 0u);
}

TEST(GlobalRule, DoubleColumnReadTouchesOneSectorPerLane) {
  // seed 001 transpose2: A[nx * N + ny] with N = 1024 doubles.
  Lanes L([](unsigned I) { return Base + 8 * 1024 * I; });
  RequestCost C = globalRequest(32, L.A, ~0u, 8);
  EXPECT_EQ(C.Units, 32u);
  EXPECT_DOUBLE_EQ(100.0 * C.DistinctBytes / (32.0 * C.Units), 25.0);
}

TEST(SharedRule, RowAccessIsOneWavefront) {
  Lanes L([](unsigned I) { return 4 * I; });
  RequestCost C = sharedRequest(sm90(), L.A, ~0u, 4, false);
  EXPECT_EQ(C.Units, 1u);
  EXPECT_EQ(C.IdealUnits, 1u);
}

// Global atomics: each sector counts once per lane on its busiest address.
// The patterns and counts of examples/atomics.cu, measured on an H100 for
// REDG and ATOMG alike (tests/data/measured/atomics.json).
TEST(AtomicRule, SectorsCountTheBusiestAddress) {
  struct {
    uint64_t (*Word)(unsigned);
    uint64_t Sectors, Distinct;
  } Cases[] = {
      {[](unsigned L) -> uint64_t { return L; }, 4, 4},
      {[](unsigned) -> uint64_t { return 0; }, 32, 1},
      {[](unsigned L) -> uint64_t { return L / 2; }, 4, 2},
      {[](unsigned L) -> uint64_t { return L % 8; }, 4, 1},
      {[](unsigned L) -> uint64_t { return L < 16 ? 0 : L; }, 18, 3},
      {[](unsigned L) -> uint64_t { return 2 * L; }, 8, 8},
      {[](unsigned L) -> uint64_t { return 8 * L; }, 32, 32},
      {[](unsigned L) -> uint64_t { return (L % 2) * 1024; }, 32, 2},
      {[](unsigned L) -> uint64_t { return (L / 16) * 1024 + L % 4; }, 8, 2},
      {[](unsigned L) -> uint64_t { return L < 11 ? L : 11; }, 22, 2},
      {[](unsigned L) -> uint64_t { return L % 16; }, 4, 2},
  };
  for (const auto &C : Cases) {
    Lanes L([&](unsigned I) { return Base + 4 * C.Word(I); });
    RequestCost R = atomicRequest(sm90(), L.A, ~0u, 4);
    EXPECT_EQ(R.Units, C.Sectors);
    // What the SASS per-instruction counters see: distinct sectors.
    EXPECT_EQ(R.SassUnits, C.Distinct);
  }
  // Eight active lanes on eight words of one sector.
  Lanes P([](unsigned I) { return Base + 4 * I; });
  EXPECT_EQ(atomicRequest(sm90(), P.A, 0xffu, 4).Units, 1u);
}

TEST(SharedRule, ColumnOfA32WideTileIs32Way) { // seed 003 setColReadCol: 32
  Lanes L([](unsigned I) { return 4 * 32 * I; });
  EXPECT_EQ(sharedRequest(sm90(), L.A, ~0u, 4, false).Units, 32u);
}

TEST(SharedRule, PaddingByOneWordRemovesTheConflict) { // seed 003 Ipad: 1
  Lanes L([](unsigned I) { return 4 * 33 * I; });
  EXPECT_EQ(sharedRequest(sm90(), L.A, ~0u, 4, false).Units, 1u);
}

TEST(SharedRule, RectangleColumnReadIs16Way) {
  // seed 003 setRowReadColRect: tile[16][32] read at [idx % 16][idx / 16].
  Lanes L([](unsigned I) { return 4 * ((I % 16) * 32 + I / 16); });
  EXPECT_EQ(sharedRequest(sm90(), L.A, ~0u, 4, false).Units, 16u);
  // ... with one word of padding (tile[16][33]) it is 2-way.
  Lanes P([](unsigned I) { return 4 * ((I % 16) * 33 + I / 16); });
  EXPECT_EQ(sharedRequest(sm90(), P.A, ~0u, 4, false).Units, 2u);
  // ... and with two (tile[16][34]) conflict-free.
  Lanes Q([](unsigned I) { return 4 * ((I % 16) * 34 + I / 16); });
  EXPECT_EQ(sharedRequest(sm90(), Q.A, ~0u, 4, false).Units, 1u);
}

TEST(SharedRule, SameWordIsBroadcast) {
  Lanes L([](unsigned) { return 64; });
  EXPECT_EQ(sharedRequest(sm90(), L.A, ~0u, 4, false).Units, 1u);
  // Two words in the same bank, each read by half the lanes: 2 wavefronts.
  Lanes M([](unsigned I) { return I < 16 ? 0 : 128; });
  EXPECT_EQ(sharedRequest(sm90(), M.A, ~0u, 4, false).Units, 2u);
}

TEST(SharedRule, DoublesAreServedPerHalfWarp) {
  // gpu-metrics.md (seen on GH100): a 32x32 double tile, row store 2.00,
  // column read 32.00.
  Lanes Row([](unsigned I) { return 8 * I; });
  Lanes Col([](unsigned I) { return 8 * 32 * I; });
  RequestCost R = sharedRequest(sm90(), Row.A, ~0u, 8, false);
  EXPECT_EQ(R.Units, 2u);
  EXPECT_EQ(R.IdealUnits, 2u);
  EXPECT_EQ(sharedRequest(sm90(), Col.A, ~0u, 8, false).Units, 32u);
  // Conflict degree: none in the row, 16-way in each half-warp's column.
  EXPECT_EQ(R.Ways, 1u);
  EXPECT_EQ(sharedRequest(sm90(), Col.A, ~0u, 8, false).Ways, 16u);
  // Only the first half warp active: one group, one wavefront.
  EXPECT_EQ(sharedRequest(sm90(), Row.A, 0xffffu, 8, false).Units, 1u);
}

TEST(SharedRule, Float4IsServedPerQuarterWarp) {
  Lanes Row([](unsigned I) { return 16 * I; });
  EXPECT_EQ(sharedRequest(sm90(), Row.A, ~0u, 16, false).Units, 4u);
  EXPECT_EQ(sharedRequest(sm90(), Row.A, ~0u, 16, false).Ways, 1u);
  // Stride of 32 words: all 8 lanes of a quarter hit banks 0-3: 8 per group.
  Lanes Col([](unsigned I) { return 128 * I; });
  EXPECT_EQ(sharedRequest(sm90(), Col.A, ~0u, 16, false).Units, 32u);
}

TEST(Arch, NamesAndAliases) {
  ASSERT_NE(findArch("sm_90"), nullptr);
  EXPECT_EQ(findArch("90"), findArch("sm_90"));
  EXPECT_EQ(findArch("9.0"), findArch("sm_90"));
  EXPECT_EQ(findArch("sm_12"), nullptr);
  EXPECT_EQ(findArch("sm_90")->groupLanes(8), 16u);
  // Blackwell: two-digit majors, the opt-in shared memory of the CUDA
  // Programming Guide's table (232448 and 101376 bytes per block).
  ASSERT_NE(findArch("10.0"), nullptr);
  EXPECT_EQ(findArch("10.0"), findArch("sm_100"));
  EXPECT_EQ(findArch("12.0"), findArch("sm_120"));
  EXPECT_EQ(findArch("sm_100")->MaxSharedOptIn, 232448u);
  EXPECT_EQ(findArch("sm_120")->MaxSharedOptIn, 101376u);
  EXPECT_EQ(findArch("sm_120")->TransactionBytes, 32u);
  EXPECT_EQ(findArch("1.00"), nullptr);
}

} // namespace

namespace {

/// Brute force from the rule's wording: the set of touched sectors, the set
/// of touched bytes, and per bank the set of distinct words.
RequestCost bruteGlobal(const uint64_t *A, uint32_t Mask, unsigned Size) {
  std::set<uint64_t> Sectors, Bytes;
  for (unsigned L = 0; L < 32; ++L)
    if (Mask >> L & 1)
      for (uint64_t B = A[L]; B < A[L] + Size; ++B) {
        Bytes.insert(B);
        Sectors.insert(B / 32);
      }
  RequestCost C;
  C.Units = Sectors.size();
  C.DistinctBytes = Bytes.size();
  C.IdealUnits = (Bytes.size() + 31) / 32;
  return C;
}

TEST(GlobalRuleProperty, FastPathsAgreeWithBruteForce) {
  std::mt19937_64 R(7);
  const unsigned Sizes[] = {1, 2, 4, 8, 16};
  for (int I = 0; I < 20000; ++I) {
    unsigned Size = Sizes[R() % 5];
    uint64_t A[32];
    uint64_t Start = Base + (R() % 512) * Size;
    int64_t Stride =
        int64_t(R() % 5 == 0 ? R() % 4096 : R() % 40) * (R() % 4 == 0 ? -1 : 1);
    bool Random = R() % 3 == 0;
    for (unsigned L = 0; L < 32; ++L)
      A[L] = Random ? Base + (R() % 256) * Size
                    : uint64_t(int64_t(Start + 65536) + Stride * int64_t(L));
    uint32_t Mask = R() % 2 ? ~0u : uint32_t(R());
    RequestCost Got = globalRequest(32, A, Mask, Size);
    RequestCost Want = bruteGlobal(A, Mask, Size);
    ASSERT_EQ(Got.Units, Want.Units) << "stride " << Stride << " size " << Size;
    ASSERT_EQ(Got.DistinctBytes, Want.DistinctBytes);
    ASSERT_EQ(Got.IdealUnits, Want.IdealUnits);
  }
}

/// The shared rule for accesses of up to 4 bytes, as DESIGN.md states it:
/// one group of 32 lanes; a bank serves one distinct 4-byte word per
/// wavefront, a word read by several lanes is broadcast.
RequestCost bruteShared(const uint64_t *A, uint32_t Mask, unsigned Size) {
  std::set<uint64_t> Words, Bytes;
  for (unsigned L = 0; L < 32; ++L)
    if (Mask >> L & 1)
      for (unsigned B = 0; B < Size; ++B) {
        Words.insert((A[L] + B) / 4);
        Bytes.insert(A[L] + B);
      }
  unsigned PerBank[32] = {0}, Max = 0;
  for (uint64_t W : Words)
    Max = std::max(Max, ++PerBank[W % 32]);
  RequestCost C;
  C.Units = Max;
  C.Ways = Max;
  C.DistinctBytes = Bytes.size();
  return C;
}

// Shared requests of 1-, 2- and 4-byte lanes (equally spaced, data-indexed,
// misaligned, with lanes off): what every path of sharedRequest gives is
// the rule's brute-force count.
TEST(SharedRuleProperty, PathsAgreeWithBruteForce) {
  std::mt19937_64 R(11);
  const unsigned Sizes[] = {1, 2, 4};
  for (int I = 0; I < 20000; ++I) {
    const unsigned Size = Sizes[R() % 3];
    const uint64_t Start = (R() % 512) * (R() % 4 ? Size : 1);
    const uint64_t Stride = (R() % 40) * (R() % 3 ? 4 : 1);
    const uint64_t Span = 8u << (R() % 10);
    const bool Random = R() % 2;
    uint64_t A[32];
    for (unsigned L = 0; L < 32; ++L)
      A[L] = Random ? (R() % Span) / Size * Size : Start + Stride * L;
    const uint32_t Mask = R() % 2 ? ~0u : uint32_t(R()) | 1u;
    const RequestCost Got = sharedRequest(sm90(), A, Mask, Size, false);
    const RequestCost Want = bruteShared(A, Mask, Size);
    ASSERT_EQ(Got.Units, Want.Units) << "case " << I << " size " << Size;
    ASSERT_EQ(Got.Ways, Want.Ways) << "case " << I;
    ASSERT_EQ(Got.DistinctBytes, Want.DistinctBytes) << "case " << I;
  }
}

// examples/shared_wide.cu measured by gmem-verify on an H100 (driver 580,
// CUDA 13.0; tests/data/measured/shared_wide.json): one warp reads or writes
// element pick(P, lane) of float2 and float4 arrays; wavefronts per request.
TEST(SharedRule, WideAccessesAsMeasuredOnH100) {
  auto Pick = [](int P, unsigned L) -> uint64_t {
    switch (P) {
    case 0:
      return L;
    case 1:
      return 0;
    case 2:
      return L / 2;
    case 3:
      return L / 16;
    case 4:
      return L % 16;
    case 5:
      return L / 8;
    case 6:
      return L % 8;
    case 7:
      return L * 2;
    case 8:
      return L * 8;
    case 9:
      return (L % 8) * 8;
    case 10:
      return L % 2;
    default:
      return L ^ 16;
    }
  };
  const uint64_t Load8[] = {2, 1, 1, 1, 2, 1, 2, 4, 16, 8, 1, 2};
  const uint64_t Store8[] = {2, 2, 2, 2, 2, 2, 2, 4, 16, 8, 2, 2};
  const uint64_t Load16[] = {4, 2, 2, 2, 4, 2, 4, 8, 32, 32, 2, 4};
  const uint64_t Store16[] = {4, 4, 4, 4, 4, 4, 4, 8, 32, 32, 4, 4};
  for (int P = 0; P < 12; ++P) {
    Lanes L8([&](unsigned I) { return 8 * Pick(P, I); });
    Lanes L16([&](unsigned I) { return 16 * Pick(P, I); });
    EXPECT_EQ(sharedRequest(sm90(), L8.A, ~0u, 8, true).Units, Load8[P])
        << "pattern " << P;
    EXPECT_EQ(sharedRequest(sm90(), L8.A, ~0u, 8, false).Units, Store8[P])
        << "pattern " << P;
    EXPECT_EQ(sharedRequest(sm90(), L16.A, ~0u, 16, true).Units, Load16[P])
        << "pattern " << P;
    EXPECT_EQ(sharedRequest(sm90(), L16.A, ~0u, 16, false).Units, Store16[P])
        << "pattern " << P;
  }
}

} // namespace
