//===- int_semantics_test.cpp - C++ integer operators, written once -------===//
//
// Expected values are C++'s, worked out by hand; the evaluators, the host
// interpreter and the matcher all compute through intBinary.
//
//===----------------------------------------------------------------------===//
#include "build_model.h"
#include "fast_path_compare.h"
#include "int_semantics.h"
#include "simulate.h"

#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::test;

namespace {

int64_t value(Op K, IntType T, int64_t A, int64_t B, bool AmountSigned = true) {
  int64_t Out = 99;
  EXPECT_EQ(intBinary(K, T, A, B, Out, AmountSigned), IntFault::None);
  return Out;
}

IntFault fault(Op K, IntType T, int64_t A, int64_t B) {
  int64_t Out = 99;
  IntFault F = intBinary(K, T, A, B, Out, true);
  EXPECT_EQ(Out, 0);
  return F;
}

TEST(IntSemantics, WrapTruncateAndCompareAsCpp) {
  // unsigned 0u - 1u == 4294967295; int 7 / -2 == -3, 7 % -2 == 1.
  EXPECT_EQ(value(Op::Sub, U32, 0, 1), 4294967295);
  EXPECT_EQ(value(Op::Div, I32, 7, -2), -3);
  EXPECT_EQ(value(Op::Rem, I32, 7, -2), 1);
  EXPECT_EQ(value(Op::Rem, I32, -7, 2), -1);
  // INT_MAX + 1 wraps to INT_MIN (what the device computes).
  EXPECT_EQ(value(Op::Add, I32, 2147483647, 1), -2147483648);
  // -1 >> 1 stays -1 for int; 0xffffffffu >> 1 == 0x7fffffff.
  EXPECT_EQ(value(Op::Shr, I32, -1, 1), -1);
  EXPECT_EQ(value(Op::Shr, U32, 4294967295, 1), 2147483647);
  EXPECT_EQ(value(Op::Shl, U32, 1, 31), 2147483648);
  // Unsigned comparisons: 4294967295u > 1u; signed -1 < 1.
  EXPECT_EQ(value(Op::Gt, U32, 4294967295, 1), 1);
  EXPECT_EQ(value(Op::Lt, I32, -1, 1), 1);
  EXPECT_EQ(value(Op::Min, U32, 4294967295, 1), 1);
  EXPECT_EQ(value(Op::Max, I32, -5, 3), 3);
}

TEST(IntSemantics, UndefinedOperatorsHaveNoValue) {
  EXPECT_EQ(fault(Op::Div, I32, 1, 0), IntFault::DivisionByZero);
  EXPECT_EQ(fault(Op::Rem, U64, 1, 0), IntFault::DivisionByZero);
  // INT_MIN / -1 at 32 bits, not only at 64.
  EXPECT_EQ(fault(Op::Div, I32, -2147483648, -1), IntFault::DivisionOverflow);
  EXPECT_EQ(fault(Op::Rem, I64, INT64_MIN, -1), IntFault::DivisionOverflow);
  EXPECT_EQ(value(Op::Div, U32, 2147483648, 4294967295), 0);
  EXPECT_EQ(fault(Op::Shl, I32, 1, 32), IntFault::ShiftOutOfRange);
  EXPECT_EQ(fault(Op::Shr, U64, 1, -1), IntFault::ShiftOutOfRange);
  // An unsigned amount is never negative: 2^64 - 1 is out of range too.
  int64_t Out;
  EXPECT_EQ(intBinary(Op::Shl, U64, 1, -1, Out, false),
            IntFault::ShiftOutOfRange);
}

TEST(IntSemantics, BothWarpSourcesFaultOnTheSameBlocks) {
  // v = INT_MIN + blockIdx.x; a[threadIdx.x + (v / -1) * 0]: undefined in
  // block 0 only, so 1 of 4 blocks' requests is unknown; the fast path must
  // cut its box there (box_eval.cpp) and agree with every warp.
  Kernel K;
  K.Name = "k";
  K.Params = {pointerParam("a", 4)};
  ExprPtr V = add(c(-2147483648LL), cast(bx(), I32));
  ExprPtr Q = mul(bin(Op::Div, V, c(-1)), c(0));
  K.Body = {addAccess(K, Space::Global, AccessKind::Load, 4,
                      elem(0, add(cast(tx(), I32), Q), 4), "a[...]")};
  const Launch L = launchOf("k", {4, 1, 1}, {32, 1, 1}, {ptrArg("a")});
  LaunchResult R;
  EXPECT_EQ(compareFastPath(K, L, &R), "");
  EXPECT_EQ(R.PerAccess[0].Requests, 4u);
  EXPECT_EQ(R.PerAccess[0].UnknownRequests, 1u);
  EXPECT_EQ(R.PerAccess[0].Units, 12u); // 3 blocks x 4 sectors.
  EXPECT_NE(R.PerAccess[0].UnknownReason.find("division overflows"),
            std::string::npos)
      << R.PerAccess[0].UnknownReason;
}

} // namespace
