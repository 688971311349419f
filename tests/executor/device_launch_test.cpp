//===- device_launch_test.cpp - Kernels that launch kernels ---------------===//
//
// Dynamic parallelism on the executor: the PTX below is nvcc 13's, for
// sm_90 with -rdc=true, of
//
//   __global__ void child(unsigned *out, unsigned base) {
//     out[threadIdx.x] = base * 100 + threadIdx.x;
//   }
//   __global__ void parent(unsigned *out) {
//     if (threadIdx.x < 2) {
//       cudaStream_t s;
//       cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
//       child<<<1, 32, 0, s>>>(out + 32 * threadIdx.x, threadIdx.x + 1);
//       cudaStreamDestroy(s);
//     }
//   }
//
// A GPU runs both children before the parent's launch completes, and
// counts their requests in the parent's counters (cuda-samples'
// cdpSimplePrint on an H200: its 10 blocks' shared stores, the children's
// included, in one launch; tests/data/measured/cs3).
//
//===----------------------------------------------------------------------===//
#include "executed.h"
#include "ptx_parser.h"

#include <cstring>
#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::exec;

namespace {

const char *const Module = R"PTX(
.version 9.0
.target sm_90
.address_size 64
.extern .func  (.param .b32 func_retval0) __cudaCDP2StreamCreateWithFlags
(
	.param .b64 __cudaCDP2StreamCreateWithFlags_param_0,
	.param .b32 __cudaCDP2StreamCreateWithFlags_param_1
)
;
.extern .func  (.param .b32 func_retval0) __cudaCDP2StreamDestroy
(
	.param .b64 __cudaCDP2StreamDestroy_param_0
)
;
.extern .func  (.param .b64 func_retval0) __cudaCDP2GetParameterBufferV2
(
	.param .b64 __cudaCDP2GetParameterBufferV2_param_0,
	.param .align 4 .b8 __cudaCDP2GetParameterBufferV2_param_1[12],
	.param .align 4 .b8 __cudaCDP2GetParameterBufferV2_param_2[12],
	.param .b32 __cudaCDP2GetParameterBufferV2_param_3
)
;
.extern .func  (.param .b32 func_retval0) __cudaCDP2LaunchDeviceV2
(
	.param .b64 __cudaCDP2LaunchDeviceV2_param_0,
	.param .b64 __cudaCDP2LaunchDeviceV2_param_1
)
;
.visible .entry _Z5childPjj(
	.param .u64 _Z5childPjj_param_0,
	.param .u32 _Z5childPjj_param_1
)
{
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<5>;
	ld.param.u64 	%rd1, [_Z5childPjj_param_0];
	ld.param.u32 	%r1, [_Z5childPjj_param_1];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r2, %tid.x;
	mad.lo.s32 	%r3, %r1, 100, %r2;
	mul.wide.u32 	%rd3, %r2, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r3;
	ret;
}
.visible .entry _Z6parentPj(
	.param .u64 _Z6parentPj_param_0
)
{
	.local .align 8 .b8 	__local_depot1[8];
	.reg .b64 	%SP;
	.reg .b64 	%SPL;
	.reg .pred 	%p<3>;
	.reg .b32 	%r<7>;
	.reg .b64 	%rd<11>;
	mov.u64 	%SPL, __local_depot1;
	cvta.local.u64 	%SP, %SPL;
	ld.param.u64 	%rd4, [_Z6parentPj_param_0];
	add.u64 	%rd5, %SP, 0;
	add.u64 	%rd1, %SPL, 0;
	mov.u32 	%r1, %tid.x;
	setp.gt.u32 	%p1, %r1, 1;
	@%p1 bra 	$L__BB1_4;
	{ // callseq 0, 0
	.reg .b32 temp_param_reg;
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd5;
	.param .b32 param1;
	st.param.b32 	[param1+0], 1;
	.param .b32 retval0;
	call.uni (retval0),
	__cudaCDP2StreamCreateWithFlags,
	(
	param0,
	param1
	);
	ld.param.b32 	%r2, [retval0+0];
	} // callseq 0
	ld.local.u64 	%rd2, [%rd1];
	mov.u64 	%rd7, _Z5childPjj;
	{ // callseq 1, 0
	.reg .b32 temp_param_reg;
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd7;
	.param .align 4 .b8 param1[12];
	st.param.b32 	[param1+0], 1;
	st.param.b32 	[param1+4], 1;
	st.param.b32 	[param1+8], 1;
	.param .align 4 .b8 param2[12];
	st.param.b32 	[param2+0], 32;
	st.param.b32 	[param2+4], 1;
	st.param.b32 	[param2+8], 1;
	.param .b32 param3;
	st.param.b32 	[param3+0], 0;
	.param .b64 retval0;
	call.uni (retval0),
	__cudaCDP2GetParameterBufferV2,
	(
	param0,
	param1,
	param2,
	param3
	);
	ld.param.b64 	%rd3, [retval0+0];
	} // callseq 1
	setp.eq.s64 	%p2, %rd3, 0;
	@%p2 bra 	$L__BB1_3;
	shl.b32 	%r3, %r1, 5;
	mul.wide.u32 	%rd8, %r3, 4;
	add.s64 	%rd9, %rd4, %rd8;
	st.u64 	[%rd3], %rd9;
	add.s32 	%r4, %r1, 1;
	st.u32 	[%rd3+8], %r4;
	{ // callseq 2, 0
	.reg .b32 temp_param_reg;
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd3;
	.param .b64 param1;
	st.param.b64 	[param1+0], %rd2;
	.param .b32 retval0;
	call.uni (retval0),
	__cudaCDP2LaunchDeviceV2,
	(
	param0,
	param1
	);
	ld.param.b32 	%r5, [retval0+0];
	} // callseq 2
$L__BB1_3:
	ld.local.u64 	%rd10, [%rd1];
	{ // callseq 3, 0
	.reg .b32 temp_param_reg;
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd10;
	.param .b32 retval0;
	call.uni (retval0),
	__cudaCDP2StreamDestroy,
	(
	param0
	);
	ld.param.b32 	%r6, [retval0+0];
	} // callseq 3
$L__BB1_4:
	ret;
}
)PTX";

constexpr uint64_t OutBase = 0x10000;

TEST(DeviceLaunch, ChildrenRunBeforeTheLaunchCompletesAndCountInIt) {
  auto M = ptx::parseModule(Module, "cdp.ptx");
  ASSERT_TRUE(bool(M)) << M.error();
  auto Mods = std::make_shared<std::vector<ptx::Module>>();
  Mods->push_back(std::move(*M));
  GlobalMemory Mem;
  auto P = Program::link(Mods, Mem);
  ASSERT_TRUE(bool(P)) << P.error();
  Region &Out = Mem.addOwned(OutBase, 1024, "out", false);
  const XFunction *K = (*P)->kernel("_Z6parentPj");
  ASSERT_NE(K, nullptr);
  LaunchConfig C;
  C.Block[0] = 32;
  C.Params.resize(8);
  std::memcpy(C.Params.data(), &OutBase, 8);
  ExecutedKernel EK = executedKernel(*K);
  const ExecutedCounts R =
      executeLaunch(**P, *K, EK, Mem, C, archOrDefault("sm_90"), 1);
  ASSERT_TRUE(R.Out.Finished) << R.Out.Error;
  // Each child wrote its 32 words, known.
  for (unsigned T = 0; T < 64; ++T) {
    uint32_t V;
    std::memcpy(&V, Out.Data + 4 * T, 4);
    EXPECT_EQ(V, (T / 32 + 1) * 100 + T % 32) << T;
    EXPECT_TRUE(Out.Known->all(4 * T, 4)) << T;
  }
  // The child's store is an access of the parent's launch: one request a
  // child, 32 consecutive words each (4 sectors).
  int ChildStore = -1;
  for (size_t I = 0; I < EK.Where.size(); ++I)
    if (EK.Where[I].first->Name == "_Z5childPjj")
      ChildStore = int(I);
  ASSERT_GE(ChildStore, 0);
  EXPECT_EQ(R.Stats[size_t(ChildStore)].Requests, 2u);
  EXPECT_EQ(R.Stats[size_t(ChildStore)].Units, 8u);
  EXPECT_EQ(R.Stats[size_t(ChildStore)].ActiveLanes, 64u);
  // Two children of 32 threads ran the child's 8 instructions.
  EXPECT_GE(R.Out.ThreadInstructions, 2u * 32 * 8);
  // The device runtime's own requests are not the kernel's.
  EXPECT_NE(EK.K.UnmodelledGlobal.find("dynamic parallelism"),
            std::string::npos)
      << EK.K.UnmodelledGlobal;
}

} // namespace
