//===- l2_flush.cpp - Emptying the L2 of the program's data before a launch
//===//
#include "l2_flush.h"
#include "cupti_status.h"

namespace gmem {
namespace cupti {

namespace {

/// Each thread loads one word of every 32-byte sector it strides to and
/// folds them together; the fold is stored only when it equals a constant,
/// so that the loads stay without writing anything that stays in the L2.
const char *const FlushPtx = R"(.version 6.0
.target sm_50
.address_size 64
.visible .entry gmem_l2_flush_read(.param .u64 buf, .param .u64 sectors,
                                   .param .u64 sink)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [buf];
  ld.param.u64 %rd2, [sectors];
  ld.param.u64 %rd3, [sink];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd3, %rd3;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %nctaid.x;
  mad.lo.u32 %r5, %r1, %r2, %r3;
  cvt.u64.u32 %rd4, %r5;
  mul.wide.u32 %rd5, %r4, %r2;
  mov.u32 %r6, 0;
  setp.ge.u64 %p1, %rd4, %rd2;
  @%p1 bra DONE;
LOOP:
  shl.b64 %rd6, %rd4, 5;
  add.s64 %rd7, %rd1, %rd6;
  ld.global.u32 %r7, [%rd7];
  xor.b32 %r6, %r6, %r7;
  add.s64 %rd4, %rd4, %rd5;
  setp.lt.u64 %p2, %rd4, %rd2;
  @%p2 bra LOOP;
DONE:
  setp.eq.u32 %p1, %r6, 0x9e3779b9;
  @%p1 st.global.u32 [%rd3], %r6;
  ret;
}
)";

} // namespace

bool L2Flush::setUp(Scratch &S, std::string &Error) {
  CUdevice Dev = 0;
  int L2 = 0;
  CUresult R = cuCtxGetDevice(&Dev);
  if (!R)
    R = cuDeviceGetAttribute(&L2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, Dev);
  if (!R)
    R = cuDeviceGetAttribute(&S.SMs, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                             Dev);
  if (R) {
    Error = driverMessage("reading the L2's size", R);
    return false;
  }
  S.Bytes = 2 * static_cast<size_t>(L2);
  R = cuModuleLoadData(&S.Module, FlushPtx);
  if (!R)
    R = cuModuleGetFunction(&S.Read, S.Module, "gmem_l2_flush_read");
  if (!R)
    R = cuMemAlloc(&S.Area, S.Bytes);
  if (!R)
    R = cuMemAlloc(&S.Sink, sizeof(unsigned));
  if (R) {
    Error = driverMessage("setting up the L2 flush", R);
    return false;
  }
  return true;
}

bool L2Flush::flush(CUcontext Ctx, std::string &Error) {
  auto It = ByContext.find(Ctx);
  if (It == ByContext.end()) {
    Scratch S;
    if (!setUp(S, Error))
      return false; // What was allocated goes with the context.
    It = ByContext.emplace(Ctx, S).first;
  }
  Scratch &S = It->second;
  unsigned long long Sectors = S.Bytes / 32;
  void *Args[] = {&S.Area, &Sectors, &S.Sink};
  CUresult R = cuCtxSynchronize();
  if (!R)
    R = cuLaunchKernel(S.Read, static_cast<unsigned>(S.SMs) * 8, 1, 1, 256, 1,
                       1, 0, nullptr, Args, nullptr);
  if (!R)
    R = cuCtxSynchronize();
  if (R) {
    Error = driverMessage("flushing the L2", R);
    return false;
  }
  return true;
}

// The context's destruction frees its module and allocations; the context
// need not be current here.
void L2Flush::release(CUcontext Ctx) { ByContext.erase(Ctx); }

} // namespace cupti
} // namespace gmem
