//===- unfollowed_control_test.cpp - Constructs the model does not follow -===//
//
// Control flow the translator does not follow (deep recursion, goto) and
// memory traffic no access stands for (printf, shared atomics) must not yield
// confident figures: the snippets are translated and simulated for whole
// launches, and the metrics must be unknown exactly when some lane runs the
// part that is not followed, and exact (worked out below by hand) when none
// does.
//
//===----------------------------------------------------------------------===//
#include "simulate.h"
#include "test_util.h"

#include <gtest/gtest.h>

namespace gmem::test {
namespace {

class Unfollowed : public BothHeaders {};

/// One block of Threads lanes, every parameter a pointer to its own
/// cudaMalloc allocation except the integers in Ints (in order).
LaunchResult run(const Kernel &K, unsigned Threads,
                 std::vector<int64_t> Ints = {}) {
  Launch L;
  L.Kernel = K.Name;
  L.Grid = {1, 1, 1};
  L.Block = {Threads, 1, 1};
  size_t NextInt = 0;
  for (const Param &P : K.Params) {
    ArgValue A;
    if (P.Kind == ParamKind::Pointer) {
      A.Kind = ArgValue::Pointer;
      A.Allocation = P.Name;
    } else {
      A.Kind = ArgValue::Int;
      A.IntValue = Ints.at(NextInt++);
    }
    L.Args.push_back(A);
  }
  return simulate(K, L, SimOptions{});
}

const Metric &metric(const LaunchResult &R, const std::string &Name) {
  return R.Metrics.at(Name);
}

const char *Depth = R"(
__device__ int depth(int *p, int n) {
  p[n] = 0;
  return n == 0 ? 0 : 1 + depth(p, n - 1);
}
__global__ void k(int *p) { p[depth(p, threadIdx.x)] = 1; }
)";

// Lane n makes n + 1 nested calls of depth(); eight are inlined.
TEST_P(Unfollowed, RecursionWithinTheDepthIsExact) {
  Translated T = translate(Depth);
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  // Eight lanes: call level j (1..8) stores p[0..8-j] for lanes j-1..7,
  // 4 * (9 - j) bytes in one aligned sector; then the kernel's p[lane], 32
  // bytes in one sector. 9 requests, 9 sectors, 4 * 36 + 32 = 176 bytes.
  LaunchResult R = run(K, 8);
  const Metric &Tr = metric(R, "gst_transactions_per_request");
  ASSERT_TRUE(Tr.Value) << Tr.UnknownReason;
  EXPECT_DOUBLE_EQ(*Tr.Value, 1.0);
  const Metric &Eff = metric(R, "gst_efficiency");
  ASSERT_TRUE(Eff.Value) << Eff.UnknownReason;
  EXPECT_DOUBLE_EQ(*Eff.Value, 100.0 * 176 / (9 * 32));
}

TEST_P(Unfollowed, RecursionPastTheDepthIsUnknown) {
  Translated T = translate(Depth);
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  // Lane 8 makes a ninth nested call.
  LaunchResult R = run(K, 9);
  for (const char *Name : {"gst_transactions_per_request", "gst_efficiency"}) {
    const Metric &M = metric(R, Name);
    EXPECT_FALSE(M.Value) << Name;
    EXPECT_NE(
        M.UnknownReason.find("recursion deeper than 8 calls is not modelled"),
        std::string::npos)
        << M.UnknownReason;
  }
  // The value the refused call returns is unknown too: the kernel's own
  // store, for lane 8, has no address.
  const Access *Last = accessesByText(K, "p[depth(p, threadIdx.x)]").at(0);
  const AccessStats &S = R.PerAccess.at(Last->Id);
  EXPECT_EQ(S.UnknownRequests, 1u);
  EXPECT_NE(S.UnknownReason.find("recursion deeper than 8 calls"),
            std::string::npos)
      << S.UnknownReason;
}

// The refused call touches no memory itself, but writes its caller's
// variable through a reference: that variable is unknown afterwards for the
// lanes that got that deep, and only for them.
TEST_P(Unfollowed, WritesOfARefusedCallAreUnknown) {
  Translated T = translate(R"(
__device__ void down(int &i, int n) {
  i += 1;
  if (n > 0)
    down(i, n - 1);
}
__global__ void k(float *a) {
  int i = threadIdx.x;
  down(i, threadIdx.x);
  a[i] = 0;
}
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  const Access *Store = accessesByText(K, "a[i]").at(0);
  EXPECT_FALSE(Store->UnknownReason);
  // Lanes 0..7 (n + 1 <= 8 calls): i = 2 * lane + 1, a[1], a[3], .., a[15]: 32
  // bytes over 64, two sectors.
  LaunchResult R = run(K, 8);
  const Metric &Eff = metric(R, "gst_efficiency");
  ASSERT_TRUE(Eff.Value) << Eff.UnknownReason;
  EXPECT_DOUBLE_EQ(*Eff.Value, 50.0);
  const Metric &Tr = metric(R, "gst_transactions_per_request");
  ASSERT_TRUE(Tr.Value) << Tr.UnknownReason;
  EXPECT_DOUBLE_EQ(*Tr.Value, 2.0);
  // Lanes 8..31 recurse deeper: i is unknown for them.
  R = run(K, 32);
  EXPECT_FALSE(metric(R, "gst_efficiency").Value);
  EXPECT_EQ(R.PerAccess.at(Store->Id).UnknownRequests, 1u);
  EXPECT_NE(R.PerAccess.at(Store->Id).UnknownReason.find(
                "recursion deeper than 8 calls is not modelled"),
            std::string::npos)
      << R.PerAccess.at(Store->Id).UnknownReason;
}

// Mutual recursion whose memory access sits in the other function: the
// refused call's body still carries it.
TEST_P(Unfollowed, MutualRecursionKeepsTheOtherFunctionsAccess) {
  Translated T = translate(R"(
__device__ void ping(float *a, int n);
__device__ void pong(float *a, int n) {
  a[n] = 1;
  if (n > 0)
    ping(a, n - 1);
}
__device__ void ping(float *a, int n) { pong(a, n); }
__global__ void k(float *a) { ping(a, threadIdx.x); }
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  // ping and pong alternate, so lane n nests 2 * (n + 1) calls: lanes 0..3
  // stay within eight. Level j stores a[0..3-j] for lanes j..3.
  LaunchResult R = run(K, 4);
  const Metric &Tr = metric(R, "gst_transactions_per_request");
  ASSERT_TRUE(Tr.Value) << Tr.UnknownReason;
  EXPECT_DOUBLE_EQ(*Tr.Value, 1.0);
  R = run(K, 5);
  const Metric &M = metric(R, "gst_transactions_per_request");
  EXPECT_FALSE(M.Value);
  EXPECT_NE(M.UnknownReason.find("recursion deeper than 8 calls"),
            std::string::npos)
      << M.UnknownReason;
}

// The reviewer's loop built from labels: 4 iterations (i = lane, lane + 32,
// .., while i < 100 for lanes 0..3), which straight-line code would count as
// one store.
TEST_P(Unfollowed, GotoLoopIsUnknown) {
  Translated T = translate(R"(
__global__ void k(float *a, int n) {
  int i = threadIdx.x;
again:
  if (i >= n) goto done;
  a[i] = 0;
  i += 32;
  goto again;
done:
  return;
}
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  ASSERT_EQ(K.Warnings.size(), 2u);
  EXPECT_NE(K.Warnings[0].find("goto is not modelled"), std::string::npos);
  for (const Access &A : K.Accesses)
    EXPECT_EQ(A.UnknownReason.value_or(""),
              "the function uses goto, which the model does not follow");
  LaunchResult R = run(K, 32, {100});
  for (const char *Name : {"gst_transactions_per_request", "gst_efficiency",
                           "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"}) {
    const Metric &M = metric(R, Name);
    EXPECT_FALSE(M.Value) << Name;
    EXPECT_NE(M.UnknownReason.find("uses goto"), std::string::npos)
        << M.UnknownReason;
  }
}

// A goto in a __device__ function taints that function and what it calls,
// not the caller, and only for lanes that call it.
TEST_P(Unfollowed, GotoInADeviceFunctionTaintsOnlyItsCalls) {
  Translated T = translate(R"(
__device__ void put(float *a, int i) { a[i] = 2; }
__device__ void fill(float *a, int i) {
  if (i < 0) goto out;
  put(a, i);
out:
  return;
}
__global__ void k(float *a, const float *b) {
  int i = threadIdx.x;
  a[i] = b[i];
  if (i >= 64)
    fill(a, i);
}
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  EXPECT_FALSE(accessesByText(K, "a[i]").at(0)->UnknownReason);
  EXPECT_FALSE(accessesByText(K, "b[i]").at(0)->UnknownReason);
  const Access *InPut = accessesByText(K, "a[i]").at(1);
  EXPECT_EQ(InPut->UnknownReason.value_or(""),
            "the function uses goto, which the model does not follow");
  // 32 lanes never call fill(): one aligned 128-byte store, 4 sectors.
  LaunchResult R = run(K, 32);
  const Metric &Tr = metric(R, "gst_transactions_per_request");
  ASSERT_TRUE(Tr.Value) << Tr.UnknownReason;
  EXPECT_DOUBLE_EQ(*Tr.Value, 4.0);
  EXPECT_DOUBLE_EQ(metric(R, "gst_efficiency").Value.value_or(-1), 100.0);
  // With 96 lanes the third warp calls it.
  R = run(K, 96);
  EXPECT_FALSE(metric(R, "gst_transactions_per_request").Value);
  EXPECT_TRUE(metric(R, "gld_transactions_per_request").Value);
}

// printf writes its arguments to the printf buffer in global memory, traffic
// that no access of the model stands for: L1's counters count it among the
// global stores (and loads), so those figures cannot be exact. It is the
// driver's code, which the SASS counters behind the efficiencies do not see
// (tests/data/measured/runtime_own): those stay exact.
TEST_P(Unfollowed, PrintfMakesGlobalFiguresUnknown) {
  Translated T = translate(R"(
#include <cstdio>
__global__ void k(float *a) {
  a[threadIdx.x] = 1.0f;
  if (threadIdx.x == 0)
    printf("%f\n", a[0]);
}
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  EXPECT_NE(K.UnmodelledGlobal.find("printf at "), std::string::npos)
      << K.UnmodelledGlobal;
  LaunchResult R = run(K, 32);
  for (const char *Name : {"gst_transactions_per_request",
                           "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
                           "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"}) {
    const Metric &M = metric(R, Name);
    EXPECT_FALSE(M.Value) << Name;
    EXPECT_TRUE(M.ExcludesRuntime) << Name;
    EXPECT_NE(M.UnknownReason.find("printf buffer"), std::string::npos)
        << Name << ": " << M.UnknownReason;
  }
  // One warp stores 32 consecutive floats: 4 sectors, all bytes used.
  EXPECT_EQ(metric(R, "gst_efficiency").Value, 100.0);
}

// A shared atomic moves bytes through the banks, which the GPU's shared
// efficiency counts; atomics are not modelled, so that ratio is unknown while
// the shared loads' own figures stay exact.
TEST_P(Unfollowed, SharedAtomicsMakeSharedEfficiencyUnknown) {
  Translated T = translate(R"(
__global__ void k(int *out) {
  __shared__ int s[32];
  s[threadIdx.x] = 0;
  atomicAdd(&s[threadIdx.x % 4], 1);
  out[threadIdx.x] = s[threadIdx.x];
}
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  LaunchResult R = run(K, 32);
  EXPECT_FALSE(metric(R, "shared_efficiency").Value);
  // The load s[lane]: 32 lanes over 32 banks, one wavefront.
  const Metric &Ld = metric(R, "shared_load_transactions_per_request");
  ASSERT_TRUE(Ld.Value) << Ld.UnknownReason;
  EXPECT_DOUBLE_EQ(*Ld.Value, 1.0);
}

// How often a loop whose bound is loaded data runs is not known: the count
// of its stores is unknown, not 0 (found on the CUDA samples' cooperative
// groups reduction, whose loop count the model could not compute).
TEST_P(Unfollowed, AccessesOfAnUncomputableLoopHaveNoRequestCount) {
  Translated T = translate(R"(
__global__ void k(float *a, const int *n) {
  for (int i = 0; i < n[0]; ++i)
    a[threadIdx.x * 2] = 0;
}
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  LaunchResult R = run(K, 32);
  const Metric &St =
      metric(R, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum");
  EXPECT_FALSE(St.Value) << *St.Value;
  EXPECT_NE(St.UnknownReason.find("condition cannot be computed"),
            std::string::npos)
      << St.UnknownReason;
  // The load of n[0] runs once per warp whatever the data.
  const Metric &Ld =
      metric(R, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
  ASSERT_TRUE(Ld.Value) << Ld.UnknownReason;
  EXPECT_DOUBLE_EQ(*Ld.Value, 1.0);
}

GMEM_BOTH_HEADERS(Unfollowed);

} // namespace
} // namespace gmem::test
