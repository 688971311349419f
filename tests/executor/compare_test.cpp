//===- compare_test.cpp - set on halves, and the WARP_SZ constant ---------===//
//
// set with packed halves (HeCBench's relu: __hgt2 is set.gt.f16x2.f16x2)
// and with a half result, and mov of the predefined constant WARP_SZ
// (HeCBench's atomicAggregate), on values worked out by hand from the PTX
// ISA: a true half comparison gives 1.0 (0x3c00) in a half result and
// 0xffff in an integer one, per half; unordered comparisons are true on
// NaN.
//
//===----------------------------------------------------------------------===//
#include "run_with_output.h"

#include <cstring>
#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::exec;

namespace {

const char *const Kernel = R"PTX(
.version 8.0
.target sm_90
.address_size 64

.visible .entry halves(.param .u64 out)
{
  .reg .b16 %rs<2>;
  .reg .b32 %r<8>;
  .reg .f32 %f<3>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.b32 %r1, 0x4000BC00;
  mov.b32 %r2, 0x38003800;
  set.gt.f16x2.f16x2 %r3, %r1, %r2;
  set.lt.u32.f16x2 %r4, %r1, %r2;
  mov.b32 %r5, 0x7E003C00;
  set.gtu.f16x2.f16x2 %r6, %r5, %r2;
  mov.u32 %r7, WARP_SZ;
  mov.f32 %f1, 0f3F800000;
  mov.f32 %f2, 0f40000000;
  set.lt.f16.f32 %rs1, %f1, %f2;
  st.global.v4.u32 [%rd2], {%r3, %r4, %r6, %r7};
  st.global.u16 [%rd2+16], %rs1;
  ret;
}
)PTX";

TEST(Compare, SetOnHalvesAndWarpSize) {
  const test::Output Out = test::runWithOutput(Kernel, "halves", 32);
  ASSERT_EQ(Out.Error, "");
  uint32_t V[4];
  uint16_t H;
  std::memcpy(V, Out.Bytes.data(), sizeof V);
  std::memcpy(&H, Out.Bytes.data() + 16, 2);
  // (2, -1) > (0.5, 0.5): (1.0, 0.0) as halves.
  EXPECT_EQ(V[0], 0x3c000000u);
  // (2, -1) < (0.5, 0.5): (no, yes) as 16-bit masks.
  EXPECT_EQ(V[1], 0x0000ffffu);
  // (NaN, 1) >u (0.5, 0.5): both true.
  EXPECT_EQ(V[2], 0x3c003c00u);
  EXPECT_EQ(V[3], 32u);
  // 1.0f < 2.0f as a half: 1.0.
  EXPECT_EQ(H, 0x3c00u);
}

} // namespace
