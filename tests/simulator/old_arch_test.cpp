//===- old_arch_test.cpp - Fermi's lines and Kepler's 64-bit banks --------===//
//
// Expected values are worked out by hand from the CUDA C Programming
// Guide's rules for compute capabilities 2.x and 3.x (docs/ARCHITECTURES.md;
// no GPU of either was measured): Fermi serves cached global loads in
// 128-byte lines and stores in 32-byte segments; Kepler's 32 banks deliver
// 64 bits, so in the 4-byte mode words i and i + 32 of an aligned 64-word row
// are served together, and in the 8-byte mode 8-byte words map to banks.
//
//===----------------------------------------------------------------------===//
#include "memory_units.h"
#include "result.h"

#include <gtest/gtest.h>

using namespace gmem;

namespace {

constexpr uint64_t Base = uint64_t(1) << 36; // 256-byte aligned.

struct Lanes {
  uint64_t A[32];
  explicit Lanes(uint64_t Stride) {
    for (unsigned L = 0; L < 32; ++L)
      A[L] = Base + Stride * L;
  }
};

Access access(Space Sp, AccessKind Kind) {
  Access X;
  X.Sp = Sp;
  X.Kind = Kind;
  X.Size = 4;
  return X;
}

/// One request's efficiency as the views compute it (AccessStats).
double efficiency(const ArchRules &A, const Access &X, const RequestCost &C) {
  AccessStats S;
  S.Units = C.Units;
  S.DistinctBytes = C.DistinctBytes;
  return S.efficiencyPct(A.unitBytes(X));
}

TEST(OldArch, RowsAndNames) {
  const ArchRules *Fermi = findArch("2.1"), *Kepler = findArch("sm_35");
  const ArchRules *Wide = findArch("sm_35:8");
  ASSERT_TRUE(Fermi && Kepler && Wide);
  EXPECT_EQ(Fermi->Name, "sm_21");
  EXPECT_EQ(Fermi->LoadTransactionBytes, 128u);
  EXPECT_EQ(Fermi->TransactionBytes, 32u);
  EXPECT_EQ(Fermi->MaxGridDim[0], 65535u);
  EXPECT_EQ(Kepler->LoadTransactionBytes, 32u);
  EXPECT_EQ(Kepler->BankBytes, 4u);
  EXPECT_EQ(Wide->BankBytes, 8u);
  EXPECT_EQ(Kepler->BankRowBytes, 256u);
  EXPECT_EQ(findArch("sm_21:8"), nullptr); // Only Kepler has the mode.
  // Loop periods must cover the widest unit: Fermi's line, Kepler's row.
  EXPECT_EQ(Fermi->addressPeriod(), 128u);
  EXPECT_EQ(Kepler->addressPeriod(), 256u);
}

TEST(OldArch, FermiLoadsTakeLinesStoresSegments) {
  const ArchRules &F = *findArch("sm_20");
  Access Ld = access(Space::Global, AccessKind::Load);
  Access St = access(Space::Global, AccessKind::Store);
  // 32 consecutive floats: one 128-byte line, or four 32-byte segments.
  Lanes Coalesced(4);
  RequestCost L = priceRequest(F, Ld, Coalesced.A, ~0u, 4);
  EXPECT_EQ(L.Units, 1u);
  EXPECT_DOUBLE_EQ(100.0 * L.DistinctBytes / (128.0 * L.Units), 100.0);
  EXPECT_EQ(priceRequest(F, St, Coalesced.A, ~0u, 4).Units, 4u);
  // Every other float: two lines, half of each used.
  Lanes Two(8);
  L = priceRequest(F, Ld, Two.A, ~0u, 4);
  EXPECT_EQ(L.Units, 2u);
  EXPECT_EQ(L.IdealUnits, 1u);
  EXPECT_DOUBLE_EQ(efficiency(F, Ld, L), 50.0);
  // A transpose's column: a line per lane, 4 of its 128 bytes used.
  Lanes Column(16384);
  L = priceRequest(F, Ld, Column.A, ~0u, 4);
  EXPECT_EQ(L.Units, 32u);
  EXPECT_DOUBLE_EQ(efficiency(F, Ld, L), 3.125);
}

TEST(OldArch, KeplerBanksDeliverSixtyFourBits) {
  const ArchRules &K = *findArch("sm_35"), &W = *findArch("sm_35:8");
  const ArchRules &H = *findArch("sm_90");
  // Every other word: banks 0, 2, ..., 30 each get words i and i + 32 of
  // one 64-word row. Two wavefronts on Hopper, one on Kepler.
  Lanes Even(8);
  EXPECT_EQ(sharedRequest(H, Even.A, ~0u, 4, false).Units, 2u);
  EXPECT_EQ(sharedRequest(K, Even.A, ~0u, 4, false).Units, 1u);
  EXPECT_EQ(sharedRequest(W, Even.A, ~0u, 4, false).Units, 1u);
  // A 32-word column: words 32L, all in bank 0 in the 4-byte modes. On
  // Kepler a 64-word row holds two of them (lanes 2i and 2i + 1): 16 rows,
  // 16 ways, not 32. The 8-byte mode: 8-byte words 16L on banks 0 (even
  // lanes) and 16 (odd lanes), rows L / 2: 16 ways as well.
  Lanes Column(128);
  EXPECT_EQ(sharedRequest(H, Column.A, ~0u, 4, false).Units, 32u);
  EXPECT_EQ(sharedRequest(K, Column.A, ~0u, 4, false).Units, 16u);
  EXPECT_EQ(sharedRequest(W, Column.A, ~0u, 4, false).Units, 16u);
  // 32 consecutive doubles: 256 bytes, one row, served to the whole warp at
  // once on Kepler; two half warps on Hopper.
  Lanes Doubles(8);
  EXPECT_EQ(sharedRequest(H, Doubles.A, ~0u, 8, false).Units, 2u);
  EXPECT_EQ(sharedRequest(K, Doubles.A, ~0u, 8, false).Units, 1u);
  EXPECT_EQ(sharedRequest(W, Doubles.A, ~0u, 8, false).Units, 1u);
  // Doubles 32 apart: 4-byte mode, words 64L and 64L + 1: every lane its
  // own row of banks 0 and 1, 32 ways; the 8-byte mode, 8-byte words 32L:
  // bank 0, 32 rows, 32 ways too.
  Lanes DoubleColumn(256);
  EXPECT_EQ(sharedRequest(K, DoubleColumn.A, ~0u, 8, false).Units, 32u);
  EXPECT_EQ(sharedRequest(W, DoubleColumn.A, ~0u, 8, false).Units, 32u);
  // Doubles 16 apart (128 bytes): 4-byte mode, words 32L and 32L + 1 on
  // banks 0 and 1, rows L / 2: 16 ways; 8-byte mode, 8-byte words 16L, the
  // even lanes on bank 0 and the odd on bank 16, rows L / 2: 16 ways.
  Lanes HalfRow(128);
  EXPECT_EQ(sharedRequest(K, HalfRow.A, ~0u, 8, false).Units, 16u);
  EXPECT_EQ(sharedRequest(W, HalfRow.A, ~0u, 8, false).Units, 16u);
}

} // namespace
