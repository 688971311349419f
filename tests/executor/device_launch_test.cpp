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
//   __global__ void copier(const unsigned *a, unsigned *b) {
//     if (threadIdx.x == 0) {
//       cudaStream_t s;
//       cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
//       cudaMemcpyAsync(b, a, 64 * sizeof(unsigned),
//                       cudaMemcpyDeviceToDevice, s);
//       cudaMemsetAsync(b + 64, 0xab, 16, s);
//       cudaStreamDestroy(s);
//     }
//   }
//   __global__ void leaf(unsigned *out) { out[threadIdx.x] = threadIdx.x; }
//   __global__ void guarded(const unsigned *flag, unsigned *out) {
//     if (flag[threadIdx.x] == 7)
//       leaf<<<1, 32>>>(out);
//   }
//
// A GPU runs both children before the parent's launch completes, and
// counts their requests in the parent's counters (cuda-samples'
// cdpSimplePrint on an H200: its 10 blocks' shared stores, the children's
// included, in one launch; tests/data/measured/cs3).
//
//===----------------------------------------------------------------------===//
#include "executed.h"
#include "run_with_output.h"

#include <cstring>
#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::exec;

namespace {

const char *const Module = R"PTX(
.version 9.0
.target sm_90
.address_size 64

	// .globl	_Z5childPjj
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
.extern .func  (.param .b32 func_retval0) __cudaCDP2MemcpyAsync
(
	.param .b64 __cudaCDP2MemcpyAsync_param_0,
	.param .b64 __cudaCDP2MemcpyAsync_param_1,
	.param .b64 __cudaCDP2MemcpyAsync_param_2,
	.param .b32 __cudaCDP2MemcpyAsync_param_3,
	.param .b64 __cudaCDP2MemcpyAsync_param_4
)
;
.extern .func  (.param .b32 func_retval0) __cudaCDP2MemsetAsync
(
	.param .b64 __cudaCDP2MemsetAsync_param_0,
	.param .b32 __cudaCDP2MemsetAsync_param_1,
	.param .b64 __cudaCDP2MemsetAsync_param_2,
	.param .b64 __cudaCDP2MemsetAsync_param_3
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
	// .globl	_Z6parentPj
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
	// .globl	_Z6copierPKjPj
.visible .entry _Z6copierPKjPj(
	.param .u64 _Z6copierPKjPj_param_0,
	.param .u64 _Z6copierPKjPj_param_1
)
{
	.local .align 8 .b8 	__local_depot2[8];
	.reg .b64 	%SP;
	.reg .b64 	%SPL;
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .b64 	%rd<9>;


	mov.u64 	%SPL, __local_depot2;
	cvta.local.u64 	%SP, %SPL;
	ld.param.u64 	%rd1, [_Z6copierPKjPj_param_0];
	ld.param.u64 	%rd2, [_Z6copierPKjPj_param_1];
	mov.u32 	%r1, %tid.x;
	setp.ne.s32 	%p1, %r1, 0;
	@%p1 bra 	$L__BB2_2;

	add.u64 	%rd3, %SP, 0;
	add.u64 	%rd4, %SPL, 0;
	{ // callseq 4, 0
	.reg .b32 temp_param_reg;
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd3;
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
	} // callseq 4
	ld.local.u64 	%rd5, [%rd4];
	{ // callseq 5, 0
	.reg .b32 temp_param_reg;
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd2;
	.param .b64 param1;
	st.param.b64 	[param1+0], %rd1;
	.param .b64 param2;
	st.param.b64 	[param2+0], 256;
	.param .b32 param3;
	st.param.b32 	[param3+0], 3;
	.param .b64 param4;
	st.param.b64 	[param4+0], %rd5;
	.param .b32 retval0;
	call.uni (retval0), 
	__cudaCDP2MemcpyAsync, 
	(
	param0, 
	param1, 
	param2, 
	param3, 
	param4
	);
	ld.param.b32 	%r3, [retval0+0];
	} // callseq 5
	add.s64 	%rd6, %rd2, 256;
	ld.local.u64 	%rd7, [%rd4];
	{ // callseq 6, 0
	.reg .b32 temp_param_reg;
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd6;
	.param .b32 param1;
	st.param.b32 	[param1+0], 171;
	.param .b64 param2;
	st.param.b64 	[param2+0], 16;
	.param .b64 param3;
	st.param.b64 	[param3+0], %rd7;
	.param .b32 retval0;
	call.uni (retval0), 
	__cudaCDP2MemsetAsync, 
	(
	param0, 
	param1, 
	param2, 
	param3
	);
	ld.param.b32 	%r4, [retval0+0];
	} // callseq 6
	ld.local.u64 	%rd8, [%rd4];
	{ // callseq 7, 0
	.reg .b32 temp_param_reg;
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd8;
	.param .b32 retval0;
	call.uni (retval0), 
	__cudaCDP2StreamDestroy, 
	(
	param0
	);
	ld.param.b32 	%r5, [retval0+0];
	} // callseq 7

$L__BB2_2:
	ret;

}
	// .globl	_Z4leafPj
.visible .entry _Z4leafPj(
	.param .u64 _Z4leafPj_param_0
)
{
	.reg .b32 	%r<2>;
	.reg .b64 	%rd<5>;


	ld.param.u64 	%rd1, [_Z4leafPj_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	st.global.u32 	[%rd4], %r1;
	ret;

}
	// .globl	_Z7guardedPKjPj
.visible .entry _Z7guardedPKjPj(
	.param .u64 _Z7guardedPKjPj_param_0,
	.param .u64 _Z7guardedPKjPj_param_1
)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<4>;
	.reg .b64 	%rd<8>;


	ld.param.u64 	%rd3, [_Z7guardedPKjPj_param_0];
	ld.param.u64 	%rd2, [_Z7guardedPKjPj_param_1];
	cvta.to.global.u64 	%rd4, %rd3;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd4, %rd5;
	ld.global.u32 	%r2, [%rd6];
	setp.ne.s32 	%p1, %r2, 7;
	@%p1 bra 	$L__BB4_3;

	mov.u64 	%rd7, _Z4leafPj;
	{ // callseq 8, 0
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
	ld.param.b64 	%rd1, [retval0+0];
	} // callseq 8
	setp.eq.s64 	%p2, %rd1, 0;
	@%p2 bra 	$L__BB4_3;

	st.u64 	[%rd1], %rd2;
	{ // callseq 9, 0
	.reg .b32 temp_param_reg;
	.param .b64 param0;
	st.param.b64 	[param0+0], %rd1;
	.param .b64 param1;
	st.param.b64 	[param1+0], 0;
	.param .b32 retval0;
	call.uni (retval0), 
	__cudaCDP2LaunchDeviceV2, 
	(
	param0, 
	param1
	);
	ld.param.b32 	%r3, [retval0+0];
	} // callseq 9

$L__BB4_3:
	ret;

}


)PTX";

constexpr uint64_t InBase = 0x8000, OutBase = 0x10000;

/// The module linked into Mem, and a launch of one warp of its kernel Name
/// with pointer parameters Params.
struct Fixture {
  GlobalMemory Mem;
  std::unique_ptr<Program> P;
  const XFunction *K = nullptr;

  explicit Fixture(const char *Name) {
    std::string Error;
    P = test::linkAlone(Module, "cdp.ptx", Mem, Error);
    EXPECT_NE(P, nullptr) << Error;
    if (!P)
      return;
    K = P->kernel(Name);
    EXPECT_NE(K, nullptr) << Name;
  }
  ExecutedCounts run(ExecutedKernel &EK, std::vector<uint64_t> Params) {
    LaunchConfig C;
    C.Block[0] = 32;
    C.Params.resize(8 * Params.size());
    std::memcpy(C.Params.data(), Params.data(), C.Params.size());
    return executeLaunch(*P, *K, EK, Mem, C, archOrDefault("sm_90"), 1);
  }
};

TEST(DeviceLaunch, ChildrenRunBeforeTheLaunchCompletesAndCountInIt) {
  Fixture F("_Z6parentPj");
  ASSERT_NE(F.K, nullptr);
  Region &Out = F.Mem.addOwned(OutBase, 1024, "out", false);
  ExecutedKernel EK = executedKernel(*F.K);
  const ExecutedCounts R = F.run(EK, {OutBase});
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

TEST(DeviceLaunch, DeviceSideCopiesAndSetsMoveKnownBytes) {
  Fixture F("_Z6copierPKjPj");
  ASSERT_NE(F.K, nullptr);
  Region &In = F.Mem.addOwned(InBase, 256, "in", false);
  for (unsigned T = 0; T < 64; ++T) {
    const uint32_t V = 1000 + T;
    std::memcpy(In.Data + 4 * T, &V, 4);
  }
  In.Known->set(0, 128, true); // The first 32 words known, the rest not.
  In.AllKnown = false;
  Region &Out = F.Mem.addOwned(OutBase, 512, "out", false);
  ExecutedKernel EK = executedKernel(*F.K);
  const ExecutedCounts R = F.run(EK, {InBase, OutBase});
  ASSERT_TRUE(R.Out.Finished) << R.Out.Error;
  for (unsigned T = 0; T < 64; ++T) {
    uint32_t V;
    std::memcpy(&V, Out.Data + 4 * T, 4);
    EXPECT_EQ(V, 1000 + T) << T;
    EXPECT_EQ(Out.Known->all(4 * T, 4), T < 32) << T;
  }
  for (unsigned B = 256; B < 272; ++B) {
    EXPECT_EQ(Out.Data[B], 0xab) << B;
    EXPECT_TRUE(Out.Known->all(B, 1)) << B;
  }
  EXPECT_FALSE(Out.Known->all(272, 1));
  // The recording learns from these which allocations the launch changed.
  EXPECT_EQ(R.Out.ReadBases, std::vector<uint64_t>{InBase});
  EXPECT_EQ(R.Out.WrittenBases, std::vector<uint64_t>{OutBase});
}

TEST(DeviceLaunch, ALaunchOnAPathAnUnknownValueDecidedStopsNamed) {
  // flag holds 7s, none of them known: the lanes follow the values they
  // hold to the launch, but whether a GPU's threads get there is not
  // known, so the launch stops rather than run a child that may not run.
  Fixture F("_Z7guardedPKjPj");
  ASSERT_NE(F.K, nullptr);
  Region &Flag = F.Mem.addOwned(InBase, 128, "flag", false);
  for (unsigned T = 0; T < 32; ++T)
    Flag.Data[4 * T] = 7;
  Region &Out = F.Mem.addOwned(OutBase, 128, "out", false);
  ExecutedKernel EK = executedKernel(*F.K);
  const ExecutedCounts R = F.run(EK, {InBase, OutBase});
  EXPECT_FALSE(R.Out.Finished);
  EXPECT_NE(R.Out.Error.find("path is not known"), std::string::npos)
      << R.Out.Error;
  EXPECT_FALSE(Out.Known->all(0, 4));
}

} // namespace
