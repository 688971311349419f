//===- launch_test.cpp - Running hand-written PTX warp by warp
//-------------===//
//
// Each kernel below is PTX as nvcc writes it (ptxas accepts the module for
// sm_90). The expected values follow from the PTX ISA's semantics and the
// memory rules of DESIGN.md: a warp's 32 four-byte stores to consecutive
// words touch 4 sectors; 32 words read from banks 2t mod 32 take two
// shared wavefronts (a 2-way conflict).
//
//===----------------------------------------------------------------------===//
#include "executed.h"
#include "run_with_output.h"

#include <cmath>
#include <cstring>
#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::exec;

namespace {

const char *const Kernels = R"PTX(
.version 8.0
.target sm_90
.address_size 64

.visible .entry notpred(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  setp.lt.u32 %p1, %r1, 5;
  xor.pred %p2, %p1, -1;
  vote.sync.ballot.b32 %r2, %p2, -1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r2;
  ret;
}

.visible .entry branchy(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.eq.s32 %p1, %r2, 0;
  @%p1 bra $L_even;
  mul.lo.s32 %r3, %r1, 3;
  bra.uni $L_join;
$L_even:
  shl.b32 %r3, %r1, 1;
$L_join:
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r3;
  ret;
}

.visible .entry orstore(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 3;
  setp.eq.s32 %p1, %r2, 0;
  @%p1 bra $L_store;
  setp.ne.s32 %p2, %r2, 1;
  @%p2 bra $L_end;
$L_store:
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r1;
$L_end:
  ret;
}

.visible .entry loopret(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<5>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  mov.u32 %r2, 0;
  mov.u32 %r3, 0;
$L_loop:
  and.b32 %r4, %r1, 1;
  setp.eq.s32 %p1, %r4, 0;
  @%p1 bra $L_even;
  add.s32 %r3, %r3, 3;
  bra.uni $L_join;
$L_even:
  add.s32 %r3, %r3, 2;
$L_join:
  st.global.u32 [%rd4], %r3;
  add.s32 %r2, %r2, 1;
  setp.lt.u32 %p2, %r2, 4;
  @%p2 bra $L_loop;
  ret;
}

.visible .entry skipper(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r3, 0;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra $L_skip;
  mul.lo.s32 %r3, %r1, 3;
  add.s32 %r3, %r3, 1;
$L_skip:
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r3;
  ret;
}

.visible .entry reverse(.param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<5>;
  .shared .align 4 .b8 buf[512];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, buf;
  add.s32 %r4, %r3, %r2;
  st.shared.u32 [%r4], %r1;
  bar.sync 0;
  mov.u32 %r5, 127;
  sub.s32 %r6, %r5, %r1;
  shl.b32 %r7, %r6, 2;
  add.s32 %r8, %r3, %r7;
  ld.shared.u32 %r9, [%r8];
  shl.b32 %r10, %r1, 3;
  and.b32 %r10, %r10, 511;
  add.s32 %r10, %r3, %r10;
  ld.shared.u32 %r11, [%r10];
  add.s32 %r9, %r9, %r11;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r9;
  ret;
}

// out[t] = w[t] through a 32-bit pointer stepped below w and back by the
// instruction's offset, as nvcc strength-reduces a loop over a tile
// (HeCBench's convolution1D: `[%r56+8]` with %r56 = w - 8 for lane 0).
.visible .entry wrap32(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<5>;
  .shared .align 4 .b8 w[128];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, w;
  add.s32 %r4, %r3, %r2;
  st.shared.u32 [%r4], %r1;
  bar.sync 0;
  add.s32 %r5, %r4, -8;
  ld.shared.u32 %r6, [%r5+8];
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r6;
  ret;
}

// Dynamic shared memory after 80 bytes of static: nvcc takes the extern
// array's .align for granted (pranjalssh/fast.cu's __align__(128) buffer
// after its barriers, whose wgmma descriptors mask the low 7 bits).
.extern .shared .align 128 .b8 dynbuf[];
.visible .entry dynalign(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  .shared .align 8 .b8 bars[80];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, dynbuf;
  mov.u32 %r2, bars;
  st.global.u32 [%rd2], %r1;
  st.global.u32 [%rd2+4], %r2;
  mov.u64 %rd3, %clock64;
  st.global.u64 [%rd2+8], %rd3;
  ret;
}

// `v = t < 8 ? s[t] : own;` where own is a local copy: nvcc selects between
// a shared and a local address and loads through the generic one
// (HeCBench's rowwiseMoments, utils.h:53).
.visible .entry selected(.param .u64 out)
{
  .local .align 4 .b8 __local_depot0[4];
  .reg .b64 %SP;
  .reg .b64 %SPL;
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<10>;
  .shared .align 4 .b8 s[128];
  mov.u64 %SPL, __local_depot0;
  cvta.local.u64 %SP, %SPL;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  shl.b32 %r3, %r2, 2;
  mov.u32 %r4, s;
  add.s32 %r5, %r4, %r3;
  st.shared.u32 [%r5], %r2;
  mov.u32 %r6, 7;
  st.local.u32 [%SPL], %r6;
  bar.sync 0;
  cvt.u64.u32 %rd3, %r5;
  cvta.shared.u64 %rd4, %rd3;
  setp.lt.u32 %p1, %r1, 8;
  selp.b64 %rd5, %rd4, %SP, %p1;
  ld.u32 %r7, [%rd5];
  mul.wide.u32 %rd6, %r1, 4;
  add.s64 %rd7, %rd2, %rd6;
  st.global.u32 [%rd7], %r7;
  ret;
}

.visible .entry shuffle(.param .u64 in, .param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4];
  shfl.sync.down.b32 %r3|%p1, %r2, 1, 31, -1;
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r3;
  and.b32 %r4, %r2, 1023;
  mul.wide.u32 %rd6, %r4, 4;
  add.s64 %rd7, %rd1, %rd6;
  ld.global.u32 %r5, [%rd7];
  st.global.u32 [%rd5+4096], %r5;
  ret;
}

.visible .entry spin()
{
$L_top:
  bra.uni $L_top;
}

.visible .entry stray(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4+1048576], %r1;
  ret;
}

.visible .entry dependent(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<5>;
  griddepcontrol.wait;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r1;
  griddepcontrol.launch_dependents;
  ret;
}

.visible .entry tiles(.param .u64 out)
{
  .reg .b32 %r<32>;
  .reg .b64 %rd<4>;
  .shared .align 16 .b8 tile[1024];
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r3, tile;
  shl.b32 %r2, %r1, 5;
  add.s32 %r4, %r3, %r2;
  shl.b32 %r5, %r1, 4;
  mul.lo.s32 %r6, %r5, 65537;
  add.s32 %r6, %r6, 65536;
  add.s32 %r7, %r6, 131074;
  add.s32 %r8, %r7, 131074;
  add.s32 %r9, %r8, 131074;
  st.shared.v4.u32 [%r4], {%r6, %r7, %r8, %r9};
  add.s32 %r10, %r9, 131074;
  add.s32 %r11, %r10, 131074;
  add.s32 %r12, %r11, 131074;
  add.s32 %r13, %r12, 131074;
  st.shared.v4.u32 [%r4+16], {%r10, %r11, %r12, %r13};
  bar.sync 0;
  shl.b32 %r14, %r1, 4;
  add.s32 %r15, %r3, %r14;
  ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r16, %r17, %r18, %r19}, [%r15];
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd3, %rd2, %rd3;
  st.global.v4.u32 [%rd3], {%r16, %r17, %r18, %r19};
  ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r20, %r21, %r22, %r23}, [%r4];
  st.global.v4.u32 [%rd3+512], {%r20, %r21, %r22, %r23};
  ret;
}

.visible .entry product(.param .u64 out)
{
  .reg .b16 %h<2>;
  .reg .b32 %r<12>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  shr.u32 %r2, %r1, 2;
  cvt.rn.f16.u32 %h1, %r2;
  mov.b32 %r3, {%h1, %h1};
  mov.b32 %r4, 0x3C003C00;
  mov.b32 %r5, 0x40004000;
  mov.f32 %f1, 0f00000000;
  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f2, %f3, %f4, %f5}, {%r4, %r4, %r5, %r5}, {%r3, %r3}, {%f1, %f1, %f1, %f1};
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd3, %rd2, %rd3;
  st.global.v4.f32 [%rd3], {%f2, %f3, %f4, %f5};
  ret;
}

.global .texref tex;

.visible .entry query(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  txq.width.b32 %r1, [tex];
  st.global.u32 [%rd2], %r1;
  ret;
}
.visible .entry decided(.param .u64 in, .param .u64 out)
{
  .reg .pred %p<8>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd3, %rd5;
  ld.global.u32 %r2, [%rd6];
  add.s64 %rd7, %rd4, %rd5;
  setp.ge.u32 %p1, %r1, 16;
  and.b32 %r3, %r2, 3;
  setp.ne.s32 %p2, %r3, 0;
  or.pred %p3, %p2, %p1;
  selp.u32 %r4, 1, 0, %p3;
  st.global.u32 [%rd7], %r4;
  not.pred %p4, %p1;
  and.pred %p5, %p2, %p4;
  selp.u32 %r5, 1, 0, %p5;
  st.global.u32 [%rd7+128], %r5;
  setp.ne.and.s32 %p6, %r2, 0, %p4;
  selp.u32 %r6, 1, 0, %p6;
  st.global.u32 [%rd7+256], %r6;
  selp.b32 %r7, -1, 0, %p4;
  and.b32 %r8, %r2, %r7;
  st.global.u32 [%rd7+384], %r8;
  selp.u32 %r9, 5, 5, %p2;
  st.global.u32 [%rd7+512], %r9;
  ret;
}

.visible .entry cursor(.param .u64 in, .param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd3, %rd5;
  ld.global.u32 %r2, [%rd6];
  add.s64 %rd7, %rd4, %rd5;
  and.b32 %r3, %r1, 1;
  add.s32 %r4, %r3, 3;
  mov.u32 %r5, 7;
  mov.u32 %r9, 1048576;
  setp.lt.s32 %p1, %r2, 1016;
  @%p1 bra $L_skip;
  add.s32 %r4, %r4, 1;
  ld.shared.u32 %r6, [%r9];
  mov.u32 %r5, 7;
$L_skip:
  setp.lt.s32 %p2, %r4, 4;
  selp.u32 %r7, 1, 0, %p2;
  st.global.u32 [%rd7], %r7;
  setp.lt.s32 %p3, %r4, 8;
  selp.u32 %r8, 1, 0, %p3;
  st.global.u32 [%rd7+128], %r8;
  st.global.u32 [%rd7+256], %r5;
  st.global.u32 [%rd7+384], %r4;
  ret;
}

.visible .entry guarded(.param .u64 in, .param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<7>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd3, %rd5;
  ld.global.u32 %r2, [%rd6];
  add.s64 %rd7, %rd4, %rd5;
  and.b32 %r3, %r1, 1;
  add.s32 %r4, %r3, 3;
  mov.u32 %r5, 9;
  setp.lt.s32 %p1, %r2, 0;
  @%p1 mov.u32 %r5, 0;
  @%p1 add.s32 %r4, %r4, 1;
  setp.lt.s32 %p2, %r4, 4;
  selp.u32 %r6, 1, 0, %p2;
  st.global.u32 [%rd7], %r5;
  st.global.u32 [%rd7+128], %r6;
  ret;
}

.visible .entry swap(.param .u64 out, .param .u32 sync)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<5>;
  .shared .align 4 .b8 buf[256];
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r6, [sync];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, buf;
  add.s32 %r4, %r3, %r2;
  st.shared.u32 [%r4], %r1;
  setp.eq.s32 %p1, %r6, 0;
  @%p1 bra $L_read;
  bar.sync 0;
$L_read:
  xor.b32 %r5, %r2, 128;
  add.s32 %r5, %r3, %r5;
  ld.shared.u32 %r7, [%r5];
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r7;
  ret;
}

.visible .entry nullstore(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}

.visible .entry lookback(.param .u64 flags)
{
  .reg .pred %p<3>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [flags];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %ctaid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  setp.eq.s32 %p1, %r1, 0;
  @%p1 bra $L_publish;
  ld.relaxed.gpu.u32 %r2, [%rd4+-4];
  setp.ne.s32 %p2, %r2, 0;
  @%p2 bra $L_publish;
$L_poll:
  ld.relaxed.gpu.u32 %r2, [%rd4+-4];
  setp.eq.s32 %p2, %r2, 0;
  @%p2 bra $L_poll;
$L_publish:
  mov.u32 %r3, 1;
  st.relaxed.gpu.u32 [%rd4], %r3;
  ret;
}
.visible .entry farith(.param .u64 out, .param .u64 in)
{
  .reg .b32 %r<2>;
  .reg .f32 %f<8>;
  .reg .f64 %fd<5>;
  .reg .b64 %rd<11>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd4, %rd5;
  ld.global.f32 %f1, [%rd6];
  ld.global.f32 %f2, [%rd6+256];
  ld.global.f32 %f3, [%rd6+512];
  add.f32 %f4, %f1, %f2;
  sub.f32 %f5, %f1, %f2;
  mul.f32 %f6, %f1, %f2;
  fma.rn.f32 %f7, %f1, %f2, %f3;
  add.s64 %rd7, %rd3, %rd5;
  st.global.f32 [%rd7], %f4;
  st.global.f32 [%rd7+256], %f5;
  st.global.f32 [%rd7+512], %f6;
  st.global.f32 [%rd7+768], %f7;
  mul.wide.u32 %rd8, %r1, 8;
  add.s64 %rd9, %rd4, %rd8;
  ld.global.f64 %fd1, [%rd9+1024];
  ld.global.f64 %fd2, [%rd9+1536];
  ld.global.f64 %fd3, [%rd9+2048];
  fma.rn.f64 %fd4, %fd1, %fd2, %fd3;
  add.s64 %rd10, %rd3, %rd8;
  st.global.f64 [%rd10+1024], %fd4;
  ret;
}
.visible .entry diamond(.param .u64 out, .param .u64 in)
{
  .reg .pred %p<5>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r1, %tid.x;
  xor.b32 %r2, %r1, 1;
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd4, %rd5;
  mul.wide.u32 %rd7, %r2, 4;
  add.s64 %rd8, %rd4, %rd7;
  ld.global.u32 %r3, [%rd6];
  ld.global.u32 %r4, [%rd8];
  add.s64 %rd9, %rd3, %rd5;
  and.b32 %r5, %r1, 2;
  setp.eq.s32 %p1, %r5, 0;
  @%p1 bra $L_up;
  bra.uni $L_down;
$L_up:
  setp.le.u32 %p2, %r3, %r4;
  @%p2 bra $L_keep;
  bra.uni $L_swap;
$L_down:
  setp.lt.u32 %p3, %r3, %r4;
  @%p3 bra $L_swap;
  bra.uni $L_keep;
$L_swap:
  st.global.u32 [%rd9], %r4;
$L_keep:
  ret;
}
.visible .entry shortjoin(.param .u64 out, .param .u64 in)
{
  .reg .pred %p<3>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd6, %rd4, %rd5;
  add.s64 %rd7, %rd3, %rd5;
  and.b32 %r2, %r1, 1;
  setp.ne.s32 %p1, %r2, 0;
  @%p1 bra $L_else;
  ld.global.u32 %r3, [%rd6];
  setp.gt.u32 %p2, %r3, 1500;
  @%p2 bra $L_then;
  bra.uni $L_else;
$L_then:
  mov.u32 %r4, 1;
  st.global.u32 [%rd7], %r4;
  bra.uni $L_end;
$L_else:
  ld.global.u32 %r5, [%rd6+128];
  st.global.u32 [%rd7], %r5;
$L_end:
  ret;
}
)PTX";

constexpr uint64_t OutBase = uint64_t(1) << 40, InBase = uint64_t(2) << 40;

/// One module, linked over a memory with an output buffer (known zeros)
/// and an input buffer (words i -> 1000 + i, or unknown bytes).
struct Fixture {
  GlobalMemory Mem;
  std::unique_ptr<Program> Prog;
  Region *Out = nullptr, *In = nullptr;

  explicit Fixture(bool InputKnown = true) {
    std::string Error;
    Prog = test::linkAlone(Kernels, "kernels.ptx", Mem, Error);
    EXPECT_NE(Prog, nullptr) << Error;
    Out = &Mem.addOwned(OutBase, 8192, "out", true);
    In = &Mem.addOwned(InBase, 4096, "in", InputKnown);
    for (uint32_t I = 0; I < 1024; ++I) {
      const uint32_t V = 1000 + I;
      std::memcpy(In->Data + 4 * I, &V, 4);
    }
  }
  uint32_t out(unsigned Word) const {
    uint32_t V;
    std::memcpy(&V, Out->Data + 4 * Word, 4);
    return V;
  }
  bool outKnown(unsigned Word) const { return Out->Known->all(4 * Word, 4); }

  /// Runs kernel Name on one block of Threads threads with the given
  /// pointer arguments.
  ExecutedCounts run(const std::string &Name, unsigned Threads,
                     std::vector<uint64_t> Args, uint64_t Budget = 0) {
    const XFunction *K = Prog->kernel(Name);
    EXPECT_NE(K, nullptr) << Name;
    LaunchConfig C;
    C.Block[0] = Threads;
    C.Params.resize(8 * Args.size());
    for (size_t I = 0; I < Args.size(); ++I)
      std::memcpy(&C.Params[8 * I], &Args[I], 8);
    C.MaxWarpInstructions = Budget;
    Kernel_ = executedKernel(*K);
    return executeLaunch(*Prog, *K, Kernel_, Mem, C, archOrDefault("sm_90"), 1);
  }
  ExecutedKernel Kernel_;
};

TEST(Launch, DivergentPathsReconvergeBeforeTheStore) {
  Fixture F;
  ExecutedCounts C = F.run("branchy", 64, {OutBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  for (unsigned T = 0; T < 64; ++T)
    EXPECT_EQ(F.out(T), T % 2 ? 3 * T : 2 * T) << T;
  // One store request per warp (the two paths joined again), each of
  // 32 consecutive words: 4 sectors.
  ASSERT_EQ(C.Stats.size(), 1u);
  EXPECT_EQ(C.Stats[0].Requests, 2u);
  EXPECT_EQ(C.Stats[0].Units, 8u);
  EXPECT_EQ(C.Stats[0].ActiveLanes, 64u);
  // Six instructions up to the branch and four after the join for every
  // thread; two on the odd path and one on the even one, for half each.
  EXPECT_EQ(C.Out.ThreadInstructions, 64u * (6 + 4) + 32 * 2 + 32 * 1);
}

TEST(Launch, LanesReachingAStoreByBothSidesOfAnOrStoreTogether) {
  // `if (t % 4 == 0 || t % 4 == 1) out[t] = t;` as nvcc writes a ||: lanes
  // 0 mod 4 branch to the store, lanes 1 mod 4 fall into it, the others
  // branch to the return. ptxas makes that return an EXIT and the GPU
  // stores once per warp (HeCBench's bitonic-sort, measured on an H200:
  // 128 store requests, not 256).
  Fixture F;
  ExecutedCounts C = F.run("orstore", 64, {OutBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  for (unsigned T = 0; T < 64; ++T)
    EXPECT_EQ(F.out(T), T % 4 < 2 ? T : 0u) << T;
  ASSERT_EQ(C.Stats.size(), 1u);
  EXPECT_EQ(C.Stats[0].Requests, 2u);
  EXPECT_EQ(C.Stats[0].ActiveLanes, 32u);
  // Each store spans 128 bytes: 4 sectors.
  EXPECT_EQ(C.Stats[0].Units, 8u);
}

TEST(Launch, LanesOfALoopLeftOnlyByReturningMeetInTheLoop) {
  // The loop's one way out is the return: its lanes still meet after the
  // if inside it (in CUB's radix sort, lanes that never met again ran its
  // warp-wide steps apart and the program's check failed).
  Fixture F;
  ExecutedCounts C = F.run("loopret", 64, {OutBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  for (unsigned T = 0; T < 64; ++T)
    EXPECT_EQ(F.out(T), T % 2 ? 12u : 8u) << T;
  // One store per warp and iteration: 4 x 2.
  ASSERT_EQ(C.Stats.size(), 1u);
  EXPECT_EQ(C.Stats[0].Requests, 8u);
}

TEST(Launch, WarpsBranchingOverAPredicatedBodyIssueItAnyway) {
  Fixture F;
  ExecutedCounts C = F.run("skipper", 64, {OutBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  EXPECT_EQ(F.out(0), 0u);
  EXPECT_EQ(F.out(40), 121u);
  // 12 instructions. Warp 1 runs them all; warp 0 branches over the two of
  // the body, which ptxas predicates: a GPU issues them all the same.
  EXPECT_EQ(C.Out.PtxInstructions, 12u);
  EXPECT_EQ(C.Out.Issued, 24u);
  EXPECT_EQ(C.Out.WarpInstructions, 22u);
  EXPECT_EQ(C.Out.IssuedInLoops, 0u);
  EXPECT_EQ(C.Out.PtxInLoops, 0u);
}

TEST(Launch, BarrierOrdersSharedMemoryAndConflictsAreCounted) {
  Fixture F;
  ExecutedCounts C = F.run("reverse", 128, {OutBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  // out[t] = buf[127 - t] + buf[(2t) mod 128], with buf[i] = i after the
  // barrier.
  for (unsigned T = 0; T < 128; ++T)
    EXPECT_EQ(F.out(T), (127 - T) + (2 * T) % 128) << T;
  // Accesses in PTX order: st.shared, ld.shared (reversed), ld.shared
  // (stride 2), st.global.
  ASSERT_EQ(C.Stats.size(), 4u);
  EXPECT_EQ(C.Stats[0].Requests, 4u);
  EXPECT_EQ(C.Stats[0].Units, 4u);
  EXPECT_EQ(C.Stats[1].Units, 4u);
  EXPECT_EQ(C.Stats[2].Requests, 4u);
  EXPECT_EQ(C.Stats[2].Units, 8u);
  EXPECT_EQ(C.Stats[2].MaxWays, 2u);
  EXPECT_EQ(C.Stats[3].Units, 16u);
}

TEST(Launch, AnAddressInA32BitRegisterWrapsAsOnTheGpu) {
  // Lanes 0 and 1 step below the tile and back: 0xFFFFFFF8 + 8 is 0 in
  // the GPU's 32-bit address arithmetic, not 2^32 (which faulted).
  Fixture F;
  ExecutedCounts C = F.run("wrap32", 32, {OutBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  for (unsigned T = 0; T < 32; ++T)
    EXPECT_EQ(F.out(T), T) << T;
}

TEST(Launch, DynamicSharedMemoryStartsAtItsArraysAlignment) {
  Fixture F;
  ExecutedCounts C = F.run("dynalign", 1, {OutBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  EXPECT_EQ(F.out(1), 0u);   // bars
  EXPECT_EQ(F.out(0), 128u); // dynbuf: 80 rounded up to its 128, not 16.
  // %clock64: the warp's own clock, one tick per instruction run (6
  // before it), known.
  EXPECT_EQ(F.out(2), 6u);
  EXPECT_TRUE(F.outKnown(2));
}

TEST(Launch, AGenericLoadIsPricedWhereEachLanesAddressLies) {
  // A GPU counts a generic load's shared lanes as shared wavefronts and
  // its local lanes in no global or shared figure, but executes the
  // instruction (an H200 on HeCBench's rowwiseMoments: 640 shared
  // wavefronts, 3328 instructions on the line, no global sector).
  Fixture F;
  ExecutedCounts C = F.run("selected", 64, {OutBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  for (unsigned T = 0; T < 64; ++T)
    EXPECT_EQ(F.out(T), T < 8 ? T : 7u) << T;
  // st.shared; the generic ld's global and shared sides; st.global.
  ASSERT_EQ(C.Stats.size(), 4u);
  ASSERT_EQ(F.Kernel_.K.Accesses[1].Sp, Space::Global);
  ASSERT_EQ(F.Kernel_.K.Accesses[2].Sp, Space::Shared);
  EXPECT_TRUE(F.Kernel_.sharedSideOfGeneric(2));
  EXPECT_FALSE(F.Kernel_.sharedSideOfGeneric(0));
  // Warp 0: lanes 0-7 read 32 consecutive bytes of shared memory, one
  // wavefront; lanes 8-31 their own local word.
  EXPECT_EQ(C.Stats[2].Requests, 1u);
  EXPECT_EQ(C.Stats[2].ActiveLanes, 8u);
  EXPECT_EQ(C.Stats[2].Units, 1u);
  EXPECT_EQ(C.Stats[2].GenericElsewhere, 1u);
  // Warp 1: every lane local, no request, one execution. Both warps'
  // local lanes are at one offset: one 4-byte address an execution.
  EXPECT_EQ(C.Stats[1].Requests, 0u);
  EXPECT_EQ(C.Stats[1].Units, 0u);
  EXPECT_EQ(C.Stats[1].LocalExecutions, 1u);
  EXPECT_EQ(C.Stats[1].GenericElsewhere, 2u);
  EXPECT_EQ(C.Stats[1].GenericLocalBytes, 8u);
  EXPECT_EQ(C.Stats[2].LocalExecutions, 0u);
}

TEST(Launch, ShuffleTakesTheNextLanesValue) {
  Fixture F;
  ExecutedCounts C = F.run("shuffle", 32, {InBase, OutBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  // shfl.down by 1 within 32 lanes: lane 31 keeps its own value.
  for (unsigned T = 0; T < 32; ++T)
    EXPECT_EQ(F.out(T), 1000 + std::min(T + 1, 31u)) << T;
  // The gather in[in[t] & 1023]: words 1000..1023 and 0..7, three
  // 128-byte lines' worth of sectors: 1000..1023 span 3 sectors, 0..7 one.
  for (unsigned T = 0; T < 32; ++T)
    EXPECT_EQ(F.out(1024 + T), 1000 + (1000 + T) % 1024) << T;
  ASSERT_EQ(C.Stats.size(), 4u);
  EXPECT_EQ(C.Stats[2].Units, 4u);
  EXPECT_EQ(C.Stats[2].UnknownRequests, 0u);
}

TEST(Launch, UnknownInputGivesUnknownValuesAndAddresses) {
  Fixture F(/*InputKnown=*/false);
  ExecutedCounts C = F.run("shuffle", 32, {InBase, OutBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  // What the input makes is marked unknown, never invented.
  EXPECT_FALSE(F.outKnown(0));
  EXPECT_FALSE(F.outKnown(1024));
  // The coalesced accesses stay exact; the gather is unknown.
  EXPECT_EQ(C.Stats[0].Units, 4u);
  EXPECT_EQ(C.Stats[0].UnknownRequests, 0u);
  EXPECT_EQ(C.Stats[2].UnknownRequests, 1u);
}

// `valid || f(x)`, `!valid && f(x)`, `x & (valid ? ~0 : 0)`: past the end of
// a partial tile (x unknown, valid known false) the known operand decides
// the result alone, as CUB's selection flags are decided for the items
// past the end of DeviceSelect's last tile, and the items the tile selects
// are then stored; an unknown choice between equal values is known too.
TEST(Launch, AKnownOperandThatDecidesALogicOperationKeepsItKnown) {
  Fixture F(/*InputKnown=*/false);
  ExecutedCounts C = F.run("decided", 32, {InBase, OutBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  for (unsigned T = 0; T < 32; ++T) {
    const bool Past = T >= 16;
    for (unsigned Row = 0; Row < 4; ++Row)
      EXPECT_EQ(F.outKnown(32 * Row + T), Past) << Row << " " << T;
    if (Past) {
      EXPECT_EQ(F.out(T), 1u) << T;      // or.pred with a true side
      EXPECT_EQ(F.out(32 + T), 0u) << T; // and.pred with a false side
      EXPECT_EQ(F.out(64 + T), 0u) << T; // setp.ne.and
      EXPECT_EQ(F.out(96 + T), 0u) << T; // and.b32 with 0
    }
    EXPECT_TRUE(F.outKnown(128 + T)) << T;
    EXPECT_EQ(F.out(128 + T), 5u) << T;
  }
}

TEST(Launch, AnImmediatePredicateOperandIsKnown) {
  // nvcc writes !p as `xor.pred q, p, -1` (cuda-samples' cdpAdvancedQuicksort
  // ballots it): the immediate is true on every lane, and known.
  Fixture F;
  ExecutedCounts C = F.run("notpred", 32, {OutBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  for (unsigned T = 0; T < 32; ++T) {
    EXPECT_EQ(F.out(T), 0xffffffe0u) << T;
    EXPECT_TRUE(F.outKnown(T)) << T;
  }
}

// Thrust's set operations compare keys past their tile's end (bytes no
// thread wrote) and advance a cursor on the result: `if (!(k < x)) ++i`.
// Each lane runs both sides of such a branch; where they meet, i is one of
// two values, so `i < end` is decided for a cursor already at its end
// (odd lanes: 4 or 5 against 4) and not for one before it (even lanes: 3
// or 4); a register both sides set alike stays known. The side a lane's
// executed value did not choose reads past the block's shared memory: not
// a fault, as a GPU may never run it, and its instructions are not counted.
TEST(Launch, BothSidesOfABranchOnAnUnknownValueRunAndMeet) {
  Fixture F(/*InputKnown=*/false);
  ExecutedCounts C = F.run("cursor", 32, {InBase, OutBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  for (unsigned T = 0; T < 32; ++T) {
    EXPECT_EQ(F.outKnown(T), T % 2 == 1) << T;
    if (T % 2)
      EXPECT_EQ(F.out(T), 0u) << T;
    EXPECT_TRUE(F.outKnown(32 + T)) << T;
    EXPECT_EQ(F.out(32 + T), 1u) << T;
    EXPECT_TRUE(F.outKnown(64 + T)) << T;
    EXPECT_EQ(F.out(64 + T), 7u) << T;
    EXPECT_FALSE(F.outKnown(96 + T)) << T;
  }
  // 15 instructions to the branch and 9 after the join for every thread;
  // the 3 of the side for the 16 lanes whose input (1000 + t) is not below
  // 1016, once.
  EXPECT_EQ(C.Out.ThreadInstructions, 32u * (15 + 9) + 16 * 3);
  // The side's load may or may not be made; the stores after the join are.
  ASSERT_EQ(C.Stats.size(), 6u);
  EXPECT_GT(C.Stats[1].UnknownRequests, 0u);
  for (size_t A = 2; A < 6; ++A) {
    EXPECT_EQ(C.Stats[A].Requests, 1u) << A;
    EXPECT_EQ(C.Stats[A].UnknownRequests, 0u) << A;
    EXPECT_EQ(C.Stats[A].Units, 4u) << A;
  }
}

// A predicated instruction whose guard is unknown: a GPU may have run it
// on any lane, even where the executed input skips it on every lane (here
// in[t] = 1000 + t is not below 0). r5 is 9 or 0: unknown (it was kept
// known as 9 when no lane ran the instruction). The cursor, 3 or 4 before,
// may have advanced by one: `i < 4` is decided for the odd lanes only.
TEST(Launch, APredicatedInstructionOnAnUnknownGuardMayHaveRun) {
  Fixture F(/*InputKnown=*/false);
  ExecutedCounts C = F.run("guarded", 32, {InBase, OutBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  for (unsigned T = 0; T < 32; ++T) {
    EXPECT_FALSE(F.outKnown(T)) << T;
    EXPECT_EQ(F.outKnown(32 + T), T % 2 == 1) << T;
    if (T % 2)
      EXPECT_EQ(F.out(32 + T), 0u) << T;
  }
}

// Two warps swap their words through shared memory. Without the barrier
// between the store and the load, warp 0 reads warp 1's words before warp
// 1 has written them: a race, reported naming both warps (moderngpu's
// bulk_remove fills shared memory and searches it without one). With it,
// each reads the other's words.
TEST(Launch, AWarpReadingWhatAnotherWritesWithoutABarrierIsARace) {
  for (uint32_t Sync : {0u, 1u}) {
    Fixture F;
    ExecutedCounts C = F.run("swap", 64, {OutBase, uint64_t(Sync)});
    ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
    if (Sync) {
      EXPECT_EQ(C.Out.SharedRaces, 0u) << C.Out.FirstSharedRace;
      for (unsigned T = 0; T < 64; ++T)
        EXPECT_EQ(F.out(T), T ^ 32) << T;
      continue;
    }
    EXPECT_EQ(C.Out.SharedRaces, 32u);
    EXPECT_NE(C.Out.FirstSharedRace.find("warp 0 of block 0 read the shared "
                                         "word at offset 128"),
              std::string::npos)
        << C.Out.FirstSharedRace;
    EXPECT_NE(C.Out.FirstSharedRace.find("that warp 1 wrote later"),
              std::string::npos)
        << C.Out.FirstSharedRace;
    EXPECT_FALSE(F.outKnown(0));
  }
}

TEST(Launch, BudgetStopsAnEndlessLoopNamingTheLine) {
  Fixture F;
  ExecutedCounts C = F.run("spin", 32, {}, /*Budget=*/1000);
  EXPECT_FALSE(C.Out.Finished);
  EXPECT_NE(C.Out.Error.find("execution budget"), std::string::npos)
      << C.Out.Error;
  EXPECT_NE(C.Out.Error.find("of the PTX of spin"), std::string::npos)
      << C.Out.Error;
}

// A null pointer's accesses fault on every GPU (moderngpu's intervalmove
// test passes null arrays: the H200 stopped it with an illegal address);
// elsewhere outside every allocation a GPU may read or write whatever is
// mapped there (below).
TEST(Launch, ANullPointersAccessFaults) {
  Fixture F;
  ExecutedCounts C = F.run("nullstore", 32, {0});
  EXPECT_FALSE(C.Out.Finished);
  EXPECT_EQ(C.Out.Fault, DeviceFault::IllegalAddress);
  EXPECT_NE(C.Out.Error.find("in the first 64 KiB"), std::string::npos)
      << C.Out.Error;
  EXPECT_EQ(C.Out.StrayLanes, 0u);
}

// More than 1 GiB from every allocation a lane faults: nothing of the
// program's is mapped there (faults.cu's runaway loop and its 16 MiB
// strides faulted on the H200). Nearer, it is a stray a GPU may survive.
// Here lane t stores 2^30 - 64 + 4t bytes past the output's end (distance
// 2^30 - 63 + 4t): lanes 0 to 15 stray, lane 16 faults.
TEST(Launch, AnAddressOver1GiBFromEveryAllocationFaults) {
  Fixture F;
  const uint64_t PastEnd = OutBase + 8192 + (uint64_t(1) << 30) - 64;
  ExecutedCounts C = F.run("stray", 32, {PastEnd - (uint64_t(1) << 20)});
  EXPECT_FALSE(C.Out.Finished);
  EXPECT_EQ(C.Out.Fault, DeviceFault::IllegalAddress);
  EXPECT_TRUE(C.Out.Runaway);
  EXPECT_NE(C.Out.Error.find("lane 16 of warp 0 of block 0"), std::string::npos)
      << C.Out.Error;
  EXPECT_NE(C.Out.Error.find("more than 1 GiB from every allocation"),
            std::string::npos)
      << C.Out.Error;
  EXPECT_EQ(C.Out.StrayLanes, 16u);
  // The distance: 0 inside a region, 1 for the byte just outside either
  // end.
  EXPECT_EQ(F.Mem.distance(OutBase + 8191), 0u);
  EXPECT_EQ(F.Mem.distance(OutBase + 8192), 1u);
  EXPECT_EQ(F.Mem.distance(OutBase - 1), 1u);
  EXPECT_EQ(F.Mem.distance(InBase + 4096 + 9), 10u);
}

TEST(Launch, StoresOutsideEveryAllocationAreReportedNotMade) {
  Fixture F;
  ExecutedCounts C = F.run("stray", 32, {OutBase});
  EXPECT_EQ(C.Out.StrayLanes, 32u);
  EXPECT_NE(C.Out.FirstStray.find("writes 0x10000100000"), std::string::npos)
      << C.Out.FirstStray;
  // The request is still counted as the GPU would issue it.
  EXPECT_EQ(C.Stats[0].Units, 4u);
}

// ldmatrix's layout (PTX ISA, "Warp-level matrix load instruction:
// ldmatrix"): lane l gets row l/4, columns 2(l%4) and 2(l%4)+1 of each
// matrix, or with .trans row 2(l%4)+j of column l/4. The tile's half i
// holds i. Each matrix is a quarter warp of 16-byte rows: 16-byte rows
// side by side take one wavefront per matrix, 32 bytes apart two (rows i
// and i+4 share banks).
TEST(Launch, LdmatrixGivesEachLaneItsPartOfTheTiles) {
  Fixture F;
  ExecutedCounts C = F.run("tiles", 32, {OutBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  for (unsigned L = 0; L < 32; ++L)
    for (unsigned M = 0; M < 4; ++M) {
      const uint32_t Lo = (8 * M + L / 4) * 8 + 2 * (L % 4);
      EXPECT_EQ(F.out(4 * L + M), Lo | (Lo + 1) << 16) << L << " " << M;
      const uint32_t T0 = (8 * M + 2 * (L % 4)) * 16 + L / 4,
                     T1 = (8 * M + 2 * (L % 4) + 1) * 16 + L / 4;
      EXPECT_EQ(F.out(128 + 4 * L + M), T0 | T1 << 16) << L << " " << M;
    }
  // Accesses: two shared stores, the two ldmatrix, two global stores.
  ASSERT_EQ(C.Stats.size(), 6u);
  EXPECT_TRUE(F.Kernel_.K.Accesses[2].Matrix);
  EXPECT_EQ(C.Stats[2].Requests, 1u);
  EXPECT_EQ(C.Stats[2].Units, 4u);
  EXPECT_EQ(C.Stats[4].Requests, 1u);
  EXPECT_EQ(C.Stats[4].Units, 8u);
}

// mma.m16n8k16 (PTX ISA, "Matrix fragments for mma.m16n8k16"): A's
// registers 0-3 are rows g, g+8, g, g+8 at columns 2t.. and 2t+8..; B's
// column is g; D's registers are (g, 2t), (g, 2t+1), (g+8, 2t), (g+8,
// 2t+1), with g = lane/4 and t = lane%4. A is 1 in columns 0-7 and 2 in
// 8-15, B(k, n) = n: D(m, n) = 8n + 16n = 24n.
TEST(Launch, MmaComputesTheProductInTheDocumentedLayout) {
  Fixture F;
  ExecutedCounts C = F.run("product", 32, {OutBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  for (unsigned L = 0; L < 32; ++L)
    for (unsigned R = 0; R < 4; ++R) {
      const float Want = 24.0f * float(2 * (L % 4) + R % 2);
      float Got;
      const uint32_t Bits = F.out(4 * L + R);
      std::memcpy(&Got, &Bits, 4);
      EXPECT_EQ(Got, Want) << L << " " << R;
    }
  EXPECT_TRUE(F.outKnown(0));
}

// A decoupled look-back: each block reads its predecessor's flag with an
// ordered load and polls it until set. Run in order, no block polls; on a
// GPU a block may find its predecessor unfinished and poll, which timing
// decides: the poll is counted as made at least 0 times (uncounted), not
// as exactly 0; the first read is exact (one per block but the first).
TEST(Launch, ALookBacksPollsAreAtLeastWhatRanInOrder) {
  Fixture F;
  const XFunction *K = F.Prog->kernel("lookback");
  ASSERT_NE(K, nullptr);
  LaunchConfig C;
  C.Grid[0] = 4;
  C.Block[0] = 1;
  C.Params.resize(8);
  std::memcpy(C.Params.data(), &OutBase, 8);
  F.Kernel_ = executedKernel(*K);
  ExecutedCounts R = executeLaunch(*F.Prog, *K, F.Kernel_, F.Mem, C,
                                   archOrDefault("sm_90"), 1);
  ASSERT_TRUE(R.Out.Finished) << R.Out.Error;
  // First read, poll, publish: generic instructions, each a global side
  // and a shared side (unused here).
  ASSERT_EQ(R.Stats.size(), 6u);
  EXPECT_EQ(R.Stats[0].Requests, 3u);
  EXPECT_EQ(R.Stats[0].UnknownRequests, 0u);
  EXPECT_EQ(R.Stats[2].Requests, 0u);
  EXPECT_EQ(R.Stats[2].UnknownRequests, 3u);
  EXPECT_EQ(R.Stats[2].UncountedRequests, 3u);
  EXPECT_NE(R.Stats[2].UnknownReason.find("decided by timing"),
            std::string::npos)
      << R.Stats[2].UnknownReason;
  EXPECT_EQ(R.Stats[4].Requests, 4u);
  for (size_t Shared : {1, 3, 5})
    EXPECT_EQ(R.Stats[Shared].Requests + R.Stats[Shared].UnknownRequests, 0u);
  // One block alone has no neighbour to wait for: nothing is marked.
  C.Grid[0] = 1;
  R = executeLaunch(*F.Prog, *K, F.Kernel_, F.Mem, C, archOrDefault("sm_90"),
                    1);
  EXPECT_EQ(R.Stats[2].UncountedRequests, 0u);
}

TEST(Launch, ProgrammaticDependentLaunchWaitsForNothingHere) {
  // CUB's sm_90 kernels (Thrust's merge sort) open with griddepcontrol.wait:
  // the launches before have finished when a launch runs here.
  Fixture F;
  ExecutedCounts C = F.run("dependent", 32, {OutBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  for (unsigned T = 0; T < 32; ++T)
    EXPECT_EQ(F.out(T), T);
}

// f32 add, sub, mul and fma and f64 fma rounded to nearest, on a whole warp
// (the host's vector instructions where it has them) and on 8 lanes of a
// second warp (lane by lane): IEEE 754's single rounding either way, and a
// GPU's canonical NaN (0x7fffffff, and its f64 form) for every NaN result.
TEST(Launch, FloatArithmeticRoundsOnceOnWholeAndPartialWarps) {
  for (unsigned Threads : {64u, 40u}) {
    Fixture F;
    uint32_t Bits[192];
    uint64_t Wide[192];
    uint64_t Seed = 88172645463325252ull;
    auto Next = [&Seed] {
      Seed ^= Seed << 13, Seed ^= Seed >> 7, Seed ^= Seed << 17;
      return Seed;
    };
    for (unsigned I = 0; I < 192; ++I) {
      // Random bit patterns (some NaNs, infinities and subnormals among
      // them) and, on half the lanes, values near 1 whose products round.
      const uint64_t R = Next();
      Bits[I] = I % 2 ? uint32_t(R) : 0x3f800000u + uint32_t(R % 4096);
      Wide[I] = I % 2 ? R : 0x3ff0000000000000ull + R % (1ull << 40);
    }
    // A NaN with a payload, inf + -inf, fma's single rounding ((1 + 2^-23)
    // (1 - 2^-23) - 1 is -2^-46, not the 0 of a rounded product), and
    // subnormals kept (no .ftz).
    Bits[0] = 0x7fc01234u;
    Bits[1] = 0x7f800000u, Bits[65] = 0xff800000u;
    Bits[2] = 0x3f800001u, Bits[66] = 0x3f7ffffeu, Bits[130] = 0xbf800000u;
    Bits[35] = 0x00000003u, Bits[99] = 0x00000005u;
    Wide[3] = 0x3ff0000000000001ull, Wide[67] = 0x3feffffffffffffeull,
    Wide[131] = 0xbff0000000000000ull;
    std::memcpy(F.In->Data, Bits, sizeof Bits);
    std::memcpy(F.In->Data + 1024, Wide, sizeof Wide);
    ExecutedCounts C = F.run("farith", Threads, {OutBase, InBase});
    ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
    auto F32 = [](float V) {
      uint32_t B;
      std::memcpy(&B, &V, 4);
      return V != V ? 0x7fffffffu : B;
    };
    auto AsF = [&Bits](unsigned I) {
      float V;
      std::memcpy(&V, &Bits[I], 4);
      return V;
    };
    for (unsigned T = 0; T < Threads; ++T) {
      const float A = AsF(T), B = AsF(T + 64), Cv = AsF(T + 128);
      EXPECT_EQ(F.out(T), F32(A + B)) << T;
      EXPECT_EQ(F.out(64 + T), F32(A - B)) << T;
      EXPECT_EQ(F.out(128 + T), F32(A * B)) << T;
      EXPECT_EQ(F.out(192 + T), F32(std::fma(A, B, Cv))) << T;
      double X, Y, Z;
      std::memcpy(&X, &Wide[T], 8);
      std::memcpy(&Y, &Wide[T + 64], 8);
      std::memcpy(&Z, &Wide[T + 128], 8);
      const double R = std::fma(X, Y, Z);
      uint64_t Want, Got;
      std::memcpy(&Want, &R, 8);
      if (R != R)
        Want = 0x7fffffffffffffffull;
      std::memcpy(&Got, F.Out->Data + 1024 + 8 * T, 8);
      EXPECT_EQ(Got, Want) << T;
    }
    EXPECT_EQ(F.out(0), 0x7fffffffu);
    EXPECT_EQ(F.out(1), 0x7fffffffu);
    EXPECT_EQ(F.out(192 + 2), 0xa8800000u); // -2^-46.
    EXPECT_EQ(F.out(35), 8u);               // 3 + 5 subnormal units.
  }
}

// `if ((up && a > b) || (!up && a < b)) out[t] = b;` as nvcc writes it: a
// branch on `up` whose sides each compare and branch to the store or past
// it. ptxas predicates both sides (PMPP's bitonic sort, measured on an
// H200: docs/PUBLIC_PROGRAMS.md), so a warp whose lanes go both ways on
// `up` stores once, with the lanes of both sides.
TEST(Launch, LanesOfBothSidesOfAPredicatedDiamondStoreTogether) {
  Fixture F;
  // in[t] = 1000 + t (the fixture) except words 4k+1, lowered: lanes with
  // t & 2 == 0 (up) swap where in[t] > in[t ^ 1] (t = 4k + 0), the others
  // where in[t] < in[t ^ 1] (t = 4k + 2).
  for (uint32_t T = 1; T < 64; T += 4) {
    const uint32_t V = 10;
    std::memcpy(F.In->Data + 4 * T, &V, 4);
  }
  ExecutedCounts C = F.run("diamond", 64, {OutBase, InBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  for (unsigned T = 0; T < 64; ++T)
    EXPECT_EQ(F.out(T), T % 4 == 0 ? 10u : T % 4 == 2 ? 1000 + T + 1 : 0) << T;
  // The two loads, then the store: one request a warp, its 16 lanes'
  // words 8 bytes apart in 4 sectors.
  ASSERT_EQ(C.Stats.size(), 3u);
  EXPECT_EQ(C.Stats[2].Requests, 2u);
  EXPECT_EQ(C.Stats[2].ActiveLanes, 32u);
  EXPECT_EQ(C.Stats[2].Units, 8u);
}

TEST(Launch, LanesThatFailEitherTestOfAnAndMeetBeforeTheElse) {
  Fixture F;
  // `if (t % 2 == 0 && in[t] > 1500) out[t] = 1; else out[t] = in[t + 32];`
  // as nvcc writes it, with in[t] = 2000 where t % 4 == 0: per warp, 16 odd
  // lanes fail the first test and 8 lanes the second; ptxas makes them
  // meet before the else, whose load is one request of 24 lanes a warp,
  // not two (PMPP's co-rank search, measured on an H200).
  for (uint32_t T = 0; T < 64; T += 4) {
    const uint32_t V = 2000;
    std::memcpy(F.In->Data + 4 * T, &V, 4);
  }
  ExecutedCounts C = F.run("shortjoin", 64, {OutBase, InBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  for (unsigned T = 0; T < 64; ++T)
    EXPECT_EQ(F.out(T), T % 4 == 0 ? 1u : 1032 + T) << T;
  // The test's load (even lanes), the then side's store, the else side's
  // load and store.
  ASSERT_EQ(C.Stats.size(), 4u);
  EXPECT_EQ(C.Stats[0].Requests, 2u);
  EXPECT_EQ(C.Stats[0].ActiveLanes, 32u);
  for (const size_t Else : {2, 3}) {
    EXPECT_EQ(C.Stats[Else].Requests, 2u) << Else;
    EXPECT_EQ(C.Stats[Else].ActiveLanes, 48u) << Else;
  }
}

TEST(Launch, AnUnimplementedInstructionStopsTheLaunchNamingIt) {
  Fixture F;
  ExecutedCounts C = F.run("query", 32, {OutBase});
  EXPECT_FALSE(C.Out.Finished);
  EXPECT_NE(C.Out.Error.find("txq"), std::string::npos) << C.Out.Error;
  EXPECT_EQ(F.out(0), 0u); // Nothing made up.
}

} // namespace
