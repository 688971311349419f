//===- pointer_arith_test.cpp - Pointer arithmetic leaving 64 bits --------===//
//
// `a[off + threadIdx.x]` on floats is a + (off + tx) * 4 in 64 bits. The
// expected values below are worked out from the launch: pointer arguments
// sit at 2^36 (simulate.cpp), so an index of 2^61 floats is an offset of
// 2^63 bytes (more than any allocation), 2^62 floats wrap back onto a, and
// an index below -2^34 floats lies below address 0.
//
//===----------------------------------------------------------------------===//
#include "build_model.h"
#include "fast_path_compare.h"
#include "pointer_arith.h"
#include "simulate.h"

#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::test;

namespace {

constexpr int64_t Base = int64_t(1) << 36;

/// One store of Size bytes to a[Index] (a as pointer arithmetic); params
/// a and off (i64).
Kernel storeAt(ExprPtr Index, unsigned Size) {
  Kernel K;
  K.Name = "k";
  K.Params = {pointerParam("a", Size), intParam("off", I64)};
  K.Body = {addAccess(K, Space::Global, AccessKind::Store, Size,
                      elem(0, Index, Size), "a[off + threadIdx.x]")};
  return K;
}

ExprPtr offPlusTx() { return add(makeParam(1, I64), cast(tx(), I64)); }

Launch oneWarp(int64_t Off, Dim3 Grid = {1, 1, 1}) {
  return launchOf("k", Grid, {32, 1, 1}, {ptrArg("a"), intArg(Off)});
}

bool overflowDiagnostic(const LaunchResult &R) {
  return R.Diagnostics.size() == 1 &&
         R.Diagnostics[0].find("test.cu:10:1: a[off + threadIdx.x]: pointer "
                               "arithmetic leaves the address space in ") !=
             std::string::npos;
}

TEST(PointerArith, IndexThatWrapsOntoTheAllocationIsUnknown) {
  // 2^62 floats: the 64-bit sum is a + 4 tx again, the device's wrap.
  Kernel K = storeAt(offPlusTx(), 4);
  Launch L = oneWarp(int64_t(1) << 62);
  LaunchResult R = simulate(K, L, SimOptions());
  EXPECT_EQ(R.PerAccess[0].Requests, 1u);
  EXPECT_EQ(R.PerAccess[0].UnknownRequests, 1u);
  EXPECT_EQ(R.PerAccess[0].OverflowRequests, 1u);
  EXPECT_EQ(R.PerAccess[0].Units, 0u);
  EXPECT_EQ(R.PerAccess[0].ReasonCause, UnknownCause::PointerOverflow);
  // A wrapped address is no address: no cost range is given for it.
  EXPECT_EQ(R.PerAccess[0].BoundedRequests, 0u);
  EXPECT_TRUE(overflowDiagnostic(R)) << ::testing::PrintToString(R.Diagnostics);
  EXPECT_EQ(compareFastPath(K, L), "");
}

TEST(PointerArith, IndexJustInsideIsPriced) {
  // Offsets up to 2^63 - 4 bytes and down to address 0 are computed.
  Kernel K = storeAt(offPlusTx(), 4);
  for (int64_t Off : {(int64_t(1) << 61) - 32, -(Base / 4)}) {
    LaunchResult R = simulate(K, oneWarp(Off), SimOptions());
    EXPECT_EQ(R.PerAccess[0].UnknownRequests, 0u) << Off;
    EXPECT_EQ(R.PerAccess[0].Units, 4u) << Off; // 128 aligned bytes.
    EXPECT_TRUE(R.Diagnostics.empty()) << Off;
  }
}

TEST(PointerArith, LanesPastTheEdgeMakeTheRequestUnknown) {
  // Lanes 16-31 of 2^61 - 16 + tx reach an offset of 2^63 bytes; with
  // -2^34 - 1 lane 0 lies 4 bytes below address 0.
  Kernel K = storeAt(offPlusTx(), 4);
  for (int64_t Off : {(int64_t(1) << 61) - 16, -(Base / 4) - 1}) {
    LaunchResult R = simulate(K, oneWarp(Off), SimOptions());
    EXPECT_EQ(R.PerAccess[0].OverflowRequests, 1u) << Off;
    EXPECT_TRUE(overflowDiagnostic(R)) << Off;
  }
}

TEST(PointerArith, BlocksOnBothSidesAreSplitOnTheFastPath) {
  // Index off + 32 bx + tx over 64 blocks: 2^61 - 32 * 40 reaches 2^61
  // in block 40, so blocks 40-63 overflow and 0-39 are priced.
  Kernel K = storeAt(add(offPlusTx(), mul(cast(bx(), I64), c(32, I64))), 4);
  Launch L = oneWarp((int64_t(1) << 61) - 32 * 40, {64, 1, 1});
  LaunchResult R;
  EXPECT_EQ(compareFastPath(K, L, &R), "");
  EXPECT_EQ(R.PerAccess[0].Requests, 64u);
  EXPECT_EQ(R.PerAccess[0].OverflowRequests, 24u);
  EXPECT_EQ(R.PerAccess[0].Units, 40u * 4);
  EXPECT_GT(R.WarpsDerived, 0u);
}

TEST(PointerArith, UnsignedIndexReadsAsUnsigned) {
  // (size_t)-1 is 2^64 - 1 elements, not -1: out of the address space.
  Kernel K = storeAt(add(cast(tx(), U64), makeParam(1, U64)), 4);
  K.Params[1].Type = U64;
  LaunchResult R = simulate(K, oneWarp(-1), SimOptions());
  EXPECT_EQ(R.PerAccess[0].OverflowRequests, 1u);
  // The same bits as a signed index are a[-1 + tx]: priced.
  K = storeAt(offPlusTx(), 4);
  R = simulate(K, oneWarp(-1), SimOptions());
  EXPECT_EQ(R.PerAccess[0].OverflowRequests, 0u);
  EXPECT_EQ(R.PerAccess[0].Units, 5u);
}

TEST(PointerArith, PointerVariableCarriesTheOverflow) {
  // float *q = a + off; q[tx] = ...: the wrap is in the assignment.
  Kernel K;
  K.Name = "k";
  K.Params = {pointerParam("a", 4), intParam("off", I64)};
  K.Slots = {{"q", U64}};
  K.Body = {assign(
      0,
      makePointerArith(
          Op::Add, makeParam(0, U64),
          makePointerArith(Op::Mul, cast(makeParam(1, I64), U64), c(4, U64))))};
  ExprPtr Q = makeVar(0, U64);
  K.Body.push_back(addAccess(
      K, Space::Global, AccessKind::Store, 4,
      makePointerArith(Op::Add, Q,
                       makePointerArith(Op::Mul, cast(tx(), U64), c(4, U64))),
      "q[threadIdx.x]"));
  Launch L = oneWarp(int64_t(1) << 62);
  LaunchResult R;
  EXPECT_EQ(compareFastPath(K, L, &R), "");
  EXPECT_EQ(R.PerAccess[0].OverflowRequests, 1u);
  // Carried through the variable q.
  EXPECT_EQ(R.PerAccess[0].ReasonCause, UnknownCause::PointerOverflow);
  L.Args[1] = intArg(1 << 20);
  R = simulate(K, L, SimOptions());
  EXPECT_EQ(R.PerAccess[0].UnknownRequests, 0u);
  EXPECT_EQ(R.PerAccess[0].Units, 4u);
}

TEST(PointerArith, ByteOffsetsBelowZeroLeave) {
  // char *: no multiply; a + (off + tx) below address 0 for lanes < 1.
  Kernel K;
  K.Name = "k";
  K.Params = {pointerParam("a", 1), intParam("off", I64)};
  K.Body = {addAccess(
      K, Space::Global, AccessKind::Store, 1,
      makePointerArith(Op::Add, makeParam(0, U64), cast(offPlusTx(), U64)),
      "a[off + threadIdx.x]")};
  LaunchResult R = simulate(K, oneWarp(-Base - 1), SimOptions());
  EXPECT_EQ(R.PerAccess[0].OverflowRequests, 1u);
  R = simulate(K, oneWarp(-Base), SimOptions());
  EXPECT_EQ(R.PerAccess[0].OverflowRequests, 0u);
  EXPECT_EQ(R.PerAccess[0].Units, 1u); // Bytes 0-31: one sector.
}

// Only the access whose own address left is blamed: one under a guard that
// compares such a pointer is unknown for that reason, not reported.
TEST(PointerArith, GuardOnAnOverflowedPointerIsNotBlamed) {
  Kernel K;
  K.Name = "k";
  K.Params = {pointerParam("a", 4), intParam("off", I64)};
  K.Slots = {{"q", U64}};
  ExprPtr Four = c(4, U64), Q = makeVar(0, U64);
  K.Body = {assign(
      0, makePointerArith(
             Op::Add, makeParam(0, U64),
             makePointerArith(Op::Mul, cast(makeParam(1, I64), U64), Four)))};
  K.Body.push_back(
      ifStmt(bin(Op::Gt, Q, makeParam(0, U64)),
             {addAccess(K, Space::Global, AccessKind::Store, 4,
                        elem(0, cast(tx(), I64), 4), "a[threadIdx.x]")}));
  LaunchResult R = simulate(K, oneWarp(int64_t(1) << 62), SimOptions());
  EXPECT_EQ(R.PerAccess[0].UnknownRequests, 1u);
  EXPECT_EQ(R.PerAccess[0].OverflowRequests, 0u);
  // The guard's overflow is not the access's own: no typed cause either.
  EXPECT_EQ(R.PerAccess[0].ReasonCause, UnknownCause::Unmodelled);
  EXPECT_TRUE(R.Diagnostics.empty()) << R.Diagnostics[0];
}

} // namespace
