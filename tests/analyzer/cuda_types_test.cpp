//===- cuda_types_test.cpp - CUDA's own types and copies as kernels use them
//
// __half, __nv_bfloat16 and their vectors move through operators defined in
// CUDA's headers; atomics whose value is unused are reductions; cp.async is
// a global load and a shared store in one instruction. These need the CUDA
// installation's headers (the stand-ins have no 16-bit types), so they are
// skipped without one. Expected sizes are sizeof of the types, addresses
// element index times size.
//
//===----------------------------------------------------------------------===//
#include "test_util.h"
#include "thread_interp.h"

using namespace gmem;
using namespace gmem::test;

namespace {

class CudaTypes : public ::testing::Test {
protected:
  void SetUp() override {
    if (!cudaInstalled())
      GTEST_SKIP() << "no CUDA installation at /usr/local/cuda";
  }
};

/// Kind, size and address of each access, as "ld 2 in[i]"-like lines.
std::vector<std::string> shape(const Kernel &K) {
  std::vector<std::string> Out;
  for (int Id : accessOrder(K)) {
    const Access &A = K.Accesses[Id];
    const char *Op = A.Kind == AccessKind::Load    ? "ld"
                     : A.Kind == AccessKind::Store ? "st"
                     : A.Reduction                 ? "red"
                                                   : "atom";
    Out.push_back(std::string(Op) + " " + std::to_string(A.Size) + " " +
                  A.Text);
  }
  return Out;
}

using Lines = std::vector<std::string>;

TEST_F(CudaTypes, SixteenBitFloatsMoveThroughTheirOperators) {
  Translated T = translate(R"(
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void k(__half *h, const __half *x, __nv_bfloat16 *b,
                  const __nv_bfloat16 *y, __half2 *h2, const __half2 *x2,
                  float *f, __half s) {
  int i = threadIdx.x;
  h[i] = x[i] * s;
  b[i] += y[i];
  f[i] = (float)y[i] + __bfloat162float(b[i]);
  h2[i] = __hmul2(x2[i], x2[i + 1]);
}
)",
                           Headers::Cuda);
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  // The loads come before the store of each statement; `b[i] += y[i]`
  // reads b[i] (the operator's object) and y[i] (its argument).
  EXPECT_EQ(shape(K), (Lines{"ld 2 x[i]", "st 2 h[i]", "ld 2 b[i]", "ld 2 y[i]",
                             "st 2 b[i]", "ld 2 y[i]", "ld 2 b[i]", "st 4 f[i]",
                             "ld 4 x2[i]", "ld 4 x2[i + 1]", "st 4 h2[i]"}));
  for (const Access &A : K.Accesses)
    EXPECT_FALSE(A.UnknownReason) << A.Text;
  // Addresses: element i of 2- and 4-byte arrays.
  ThreadEnv Env;
  Env.Thread = {5, 0, 0};
  for (const char *P : {"h", "x", "b", "y", "h2", "x2", "f"})
    Env.Params[P] = 0;
  ThreadRun R = runThread(K, Env);
  EXPECT_EQ(R.addresses("x[i]").at(0), 10u);
  EXPECT_EQ(R.addresses("x2[i + 1]").at(0), 24u);
}

TEST_F(CudaTypes, AtomicsWhoseValueIsUnusedAreReductions) {
  Translated T = translate(R"(
__global__ void k(int *c, int *o, float *s) {
  int i = threadIdx.x;
  atomicAdd(&c[i], 1);
  (void)atomicMax(&c[i + 32], i);
  o[i] = atomicAdd(&c[i + 64], 1);
  if (atomicCAS(&c[i + 96], 0, 1) == 0)
    atomicAdd(&s[0], 1.0f);
  for (int k = 0; k < 2; ++k)
    atomicExch(&c[i + 128 + k], k);
}
)",
                           Headers::Cuda);
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  EXPECT_EQ(shape(K),
            (Lines{"red 4 atomicAdd(&c[i], 1)", "red 4 atomicMax(&c[i + 32], i)",
                   "atom 4 atomicAdd(&c[i + 64], 1)", "st 4 o[i]",
                   "atom 4 atomicCAS(&c[i + 96], 0, 1)",
                   "red 4 atomicAdd(&s[0], 1.0f)",
                   "atom 4 atomicExch(&c[i + 128 + k], k)"}));
}

TEST_F(CudaTypes, AsyncCopiesAreALoadAndAStore) {
  Translated T = translate(R"(
#include <cuda_pipeline.h>
#include <cuda/pipeline>
__global__ void k(const float *g, const float4 *g4, float *out) {
  __shared__ float s[64];
  __shared__ float4 s4[32];
  int t = threadIdx.x;
  __pipeline_memcpy_async(&s[t], &g[2 * t], sizeof(float));
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  cuda::memcpy_async(&s4[t], &g4[t], cuda::aligned_size_t<16>(16), pipe);
  __pipeline_memcpy_async(&out[t], &g[t], sizeof(float));
}
)",
                           Headers::Cuda);
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  EXPECT_EQ(shape(K), (Lines{"ld 4 g[2 * t]", "st 4 s[t]", "ld 16 g4[t]",
                             "st 16 s4[t]"}));
  EXPECT_EQ(K.Accesses[0].AsyncPartner, 1);
  EXPECT_EQ(K.Accesses[1].AsyncPartner, 0);
  EXPECT_EQ(K.Accesses[1].Sp, Space::Shared);
  EXPECT_EQ(K.Accesses[2].AsyncPartner, 3);
  // A copy whose destination is not shared memory is named, not counted.
  bool Named = false;
  for (const std::string &W : K.Warnings)
    Named = Named || W.find("async copy") != std::string::npos;
  EXPECT_TRUE(Named);
}

} // namespace
