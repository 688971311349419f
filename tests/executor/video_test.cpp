//===- video_test.cpp - SIMD video instructions
//------------------------------===//
//
// vabsdiff4 with .add (stereo matching's sum of absolute differences),
// saturating vadd4 and vsub4, vmax2 on signed halves and vset4, on values
// worked out by hand from the PTX ISA's definitions.
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

.visible .entry video(.param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, 169090600;
  mov.u32 %r2, 252645135;
  mov.u32 %r3, 100;
  vabsdiff4.u32.u32.u32.add %r4, %r1, %r2, %r3;
  mov.u32 %r1, -252645136;
  mov.u32 %r2, 538976288;
  mov.u32 %r3, 0;
  vadd4.u32.u32.u32.sat %r5, %r1, %r2, %r3;
  mov.u32 %r1, -65531;
  mov.u32 %r2, 131075;
  vmax2.s32.s32.s32 %r6, %r1, %r2, %r3;
  mov.u32 %r1, 16909060;
  mov.u32 %r2, 67305985;
  vset4.u32.u32.lt %r7, %r1, %r2, %r3;
  mov.u32 %r1, -2147483648;
  mov.u32 %r2, 16777216;
  vsub4.s32.s32.s32.sat %r8, %r1, %r2, %r3;
  st.global.v4.u32 [%rd2], {%r4, %r5, %r6, %r7};
  st.global.u32 [%rd2+16], %r8;
  ret;
}
)PTX";

TEST(Video, SimdBytesAndHalves) {
  const test::Output Out = test::runWithOutput(Kernel, "video", 64);
  ASSERT_EQ(Out.Error, "");
  uint32_t V[5];
  std::memcpy(V, Out.Bytes.data(), sizeof V);
  // Bytes 40, 30, 20, 10 against 15 each: 25 + 15 + 5 + 5, plus 100.
  EXPECT_EQ(V[0], 150u);
  // 0xf0 + 0x20 saturates to 0xff in every byte.
  EXPECT_EQ(V[1], 0xffffffffu);
  // Halves (5, -1) against (3, 2): (5, 2).
  EXPECT_EQ(V[2], 0x00020005u);
  // Bytes (4, 3, 2, 1) < (1, 2, 3, 4): the two high bytes.
  EXPECT_EQ(V[3], 0x01010000u);
  // -128 - 1 saturates to -128 in the high byte.
  EXPECT_EQ(V[4], 0x80000000u);
  EXPECT_TRUE(Out.known(0, 20));
}

} // namespace

// sm_90's packed 16-bit integer instructions (what __vadd2, __viaddmax_s16x2
// and kin compile to; HeCBench's intrinsics-simd: 23 of its 118 intrinsics
// differed from the H200 before, all 118 agree now), each half on its own,
// by hand: a = (32767, 1), b = (1, 0x8002: -32766 signed, 32770 unsigned).
const char *const Packed = R"PTX(
.version 8.0
.target sm_90
.address_size 64

.visible .entry packed(.param .u64 out)
{
  .reg .b32 %r<16>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.b32 %r1, 0x7FFF0001;
  mov.b32 %r2, 0x00018002;
  add.s16x2 %r3, %r1, %r2;
  sub.s16x2 %r4, %r1, %r2;
  min.s16x2 %r5, %r1, %r2;
  min.u16x2 %r6, %r1, %r2;
  max.s16x2.relu %r7, %r1, %r2;
  min.s16x2.relu %r8, %r1, %r2;
  mov.b32 %r9, -5;
  mov.b32 %r10, -3;
  max.s32.relu %r11, %r9, %r10;
  mov.b32 %r12, 7;
  mov.b32 %r13, 9;
  min.s32.relu %r14, %r12, %r13;
  st.global.v4.u32 [%rd2], {%r3, %r4, %r5, %r6};
  st.global.v4.u32 [%rd2+16], {%r7, %r8, %r11, %r14};
  ret;
}
)PTX";

TEST(Video, PackedHalvesOfSm90) {
  const test::Output Out = test::runWithOutput(Packed, "packed", 32);
  ASSERT_EQ(Out.Error, "");
  uint32_t V[8];
  std::memcpy(V, Out.Bytes.data(), sizeof V);
  EXPECT_EQ(V[0], 0x80008003u); // 32767 + 1 wraps; 1 + 0x8002.
  EXPECT_EQ(V[1], 0x7ffe7fffu); // 32766; 1 - (-32766) = 32767.
  EXPECT_EQ(V[2], 0x00018002u); // Signed: (1, -32766).
  EXPECT_EQ(V[3], 0x00010001u); // Unsigned: (1, 1).
  EXPECT_EQ(V[4], 0x7fff0001u); // max, nothing negative.
  EXPECT_EQ(V[5], 0x00010000u); // min: -32766 becomes 0.
  EXPECT_EQ(V[6], 0u);          // max(-5, -3) = -3 becomes 0.
  EXPECT_EQ(V[7], 7u);
}
