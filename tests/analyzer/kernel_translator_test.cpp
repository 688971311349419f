//===- kernel_translator_test.cpp - Kernels, parameters, shared layout ----===//
#include "test_util.h"
#include "thread_interp.h"

#include <gtest/gtest.h>

namespace gmem::test {
namespace {

class Kernels : public BothHeaders {};

std::vector<std::string> names(const Translated &T) {
  std::vector<std::string> N;
  for (const Kernel &K : T.Kernels)
    N.push_back(K.Name);
  return N;
}

TEST_P(Kernels, FindsKernelsAndTemplateInstancesOnly) {
  std::string Code = R"(
namespace ns { __global__ void inner(int *p) { p[0] = 1; } }
__device__ int helper(int x) { return x + 1; }
__global__ void declaredOnly(int *p);
template <typename T, int N> __global__ void tk(T *p) { p[N] = 0; }
template <const unsigned int B> __global__ void uk(float *p) { p[B] = 0; }
template <bool F, int S> __global__ void bk(float *p) { p[F ? S : 0] = 0; }
template __global__ void tk<int, 2>(int *);
__global__ void plain(float *p) { p[helper(threadIdx.x)] = 0; }
int main() {
  tk<float, 4><<<1, 1>>>(nullptr);
  tk<double, 8><<<1, 1>>>(nullptr);
  uk<32><<<1, 1>>>(nullptr);
  bk<true, -3><<<1, 1>>>(nullptr);
  return 0;
}
)";
  Translated T = translate(Code);
  std::vector<std::string> N = names(T);
  std::sort(N.begin(), N.end());
  EXPECT_EQ(N, (std::vector<std::string>{"bk<true, -3>", "ns::inner", "plain",
                                         "tk<double, 8>", "tk<float, 4>",
                                         "tk<int, 2>", "uk<32>"}));
  // Template arguments are folded into the body: tk<double, 8> stores at
  // p + 8 * sizeof(double).
  const Kernel &K = T.kernel("tk<double, 8>");
  ASSERT_EQ(K.Accesses.size(), 1u);
  EXPECT_EQ(K.Accesses[0].Size, 8u);
  ThreadEnv Env;
  Env.Params["p"] = 0x1000;
  EXPECT_EQ(runThread(K, Env).addresses("p[N]"),
            std::vector<uint64_t>{0x1000 + 64});
  EXPECT_EQ(T.kernel("plain").Loc.Line, lineOf(Code, "void plain"));
}

TEST_P(Kernels, MangledNames) {
  Translated T = translate(R"(
__global__ void naiveGmem(float *out, float *in, const int nx, const int ny) {}
template <const unsigned int B> __global__ void sg(int M, const float *A) {}
template __global__ void sg<32>(int, const float *);
)");
  // As cuobjdump and the CUDA driver name them.
  EXPECT_EQ(T.kernel("naiveGmem").MangledName, "_Z9naiveGmemPfS_ii");
  EXPECT_EQ(T.kernel("sg<32>").MangledName, "_Z2sgILj32EEviPKf");
}

TEST_P(Kernels, ParameterKindsAndTypes) {
  Translated T = translate(R"(
struct S { int a; float b; };
enum E : short { Red, Green };
__global__ void k(const float *a, double *d, int n, unsigned u, long long l,
                  short s, bool b, char c, unsigned char uc, float f, S st,
                  float4 *v, void *p, E e, double (*rows)[3], size_t z) {}
)");
  const Kernel &K = T.kernel("k");
  ASSERT_EQ(K.Params.size(), 16u);
  auto Check = [&](int I, const char *Name, ParamKind Kind, IntType Ty,
                   unsigned Pointee) {
    SCOPED_TRACE(Name);
    const Param &P = K.Params[I];
    EXPECT_EQ(P.Name, Name);
    EXPECT_EQ(P.Kind, Kind);
    if (Kind == ParamKind::Int || Kind == ParamKind::Pointer) {
      EXPECT_EQ(P.Type.Bits, Ty.Bits);
      EXPECT_EQ(P.Type.Signed, Ty.Signed);
    }
    EXPECT_EQ(P.PointeeSize, Pointee);
  };
  const IntType Ptr{64, false};
  Check(0, "a", ParamKind::Pointer, Ptr, 4);
  Check(1, "d", ParamKind::Pointer, Ptr, 8);
  Check(2, "n", ParamKind::Int, {32, true}, 0);
  Check(3, "u", ParamKind::Int, {32, false}, 0);
  Check(4, "l", ParamKind::Int, {64, true}, 0);
  Check(5, "s", ParamKind::Int, {16, true}, 0);
  Check(6, "b", ParamKind::Int, {1, false}, 0);
  Check(7, "c", ParamKind::Int, {8, true}, 0);
  Check(8, "uc", ParamKind::Int, {8, false}, 0);
  Check(9, "f", ParamKind::Float, {}, 0);
  Check(10, "st", ParamKind::Other, {}, 0);
  Check(11, "v", ParamKind::Pointer, Ptr, 16);
  Check(12, "p", ParamKind::Pointer, Ptr, 1);
  Check(13, "e", ParamKind::Int, {16, true}, 0);
  Check(14, "rows", ParamKind::Pointer, Ptr, 24);
  Check(15, "z", ParamKind::Int, {64, false}, 0);
  EXPECT_EQ(K.Params[0].TypeName, "const float *");
  EXPECT_EQ(K.Params[11].TypeName, "float4 *");
}

// Static arrays in declaration order, each at its alignment; dynamic ones
// after them at a 16-byte boundary, all at the same offset.
TEST_P(Kernels, SharedMemoryLayout) {
  Translated T = translate(R"(
#define BDIMX 32
#define BDIMY 16
#define IPAD 2
__global__ void tiles(float *out) {
  __shared__ float tile[BDIMY][BDIMX];
  __shared__ float pad[BDIMY][BDIMX + IPAD];
  __shared__ char c[3];
  __shared__ double d[2][3][4];
  __shared__ int s;
  extern __shared__ float dyn[];
  extern __shared__ int4 dyn4[];
  out[0] = tile[0][0] + pad[1][2] + c[0] + d[1][2][3] + s + dyn[0] + dyn4[0].x;
}
__global__ void onlyDynamic(int *out) {
  extern __shared__ int t[];
  out[threadIdx.x] = t[threadIdx.x];
}
)");
  const Kernel &K = T.kernel("tiles");
  ASSERT_EQ(K.Shared.size(), 7u);
  struct Want {
    const char *Name;
    uint64_t Offset, Bytes;
    unsigned Elem;
    std::vector<uint64_t> Dims;
    bool Dynamic;
  };
  // 2048 + 2176 = 4224; c at 4224 (3 B); d aligned to 8: 4232 (192 B) ->
  // 4424; s at 4424 -> 4428; dynamic at alignTo(4428, 16) = 4432.
  std::vector<Want> W = {{"tile", 0, 2048, 4, {16, 32}, false},
                         {"pad", 2048, 2176, 4, {16, 34}, false},
                         {"c", 4224, 3, 1, {3}, false},
                         {"d", 4232, 192, 8, {2, 3, 4}, false},
                         {"s", 4424, 4, 4, {}, false},
                         {"dyn", 4432, 0, 4, {0}, true},
                         {"dyn4", 4432, 0, 16, {0}, true}};
  for (size_t I = 0; I < W.size(); ++I) {
    SCOPED_TRACE(W[I].Name);
    const SharedArray &S = K.Shared[I];
    EXPECT_EQ(S.Name, W[I].Name);
    EXPECT_EQ(S.Offset, W[I].Offset);
    EXPECT_EQ(S.Bytes, W[I].Bytes);
    EXPECT_EQ(S.ElemSize, W[I].Elem);
    EXPECT_EQ(S.Dims, W[I].Dims);
    EXPECT_EQ(S.Dynamic, W[I].Dynamic);
  }
  // d[1][2][3] is at 4232 + ((1 * 3 + 2) * 4 + 3) * 8.
  ThreadEnv Env;
  Env.Params["out"] = 0;
  ThreadRun R = runThread(K, Env);
  EXPECT_EQ(R.addresses("d[1][2][3]"),
            std::vector<uint64_t>{4232 + (5 * 4 + 3) * 8});
  EXPECT_EQ(R.addresses("pad[1][2]"), std::vector<uint64_t>{2048 + 34 * 4 + 8});
  EXPECT_EQ(R.addresses("s"), std::vector<uint64_t>{4424});
  EXPECT_EQ(R.addresses("dyn4[0].x"), std::vector<uint64_t>{4432});
  const Kernel &D = T.kernel("onlyDynamic");
  ASSERT_EQ(D.Shared.size(), 1u);
  EXPECT_EQ(D.Shared[0].Offset, 0u);
  EXPECT_TRUE(D.Shared[0].Dynamic);
}

// __shared__ arrays of called __device__ functions belong to the kernel.
TEST_P(Kernels, SharedArraysOfCalledFunctions) {
  Translated T = translate(R"(
__device__ float warpSum(float v) {
  __shared__ float partial[32];
  partial[threadIdx.x % 32] = v;
  return partial[0];
}
__global__ void k(float *out) {
  __shared__ double first[4];
  first[0] = 1;
  out[0] = warpSum(first[0]);
}
)");
  const Kernel &K = T.kernel("k");
  ASSERT_EQ(K.Shared.size(), 2u);
  EXPECT_EQ(K.Shared[0].Name, "first");
  EXPECT_EQ(K.Shared[1].Name, "partial");
  EXPECT_EQ(K.Shared[1].Offset, 32u);
  ThreadEnv Env;
  Env.Thread = {37, 0, 0};
  Env.Params["out"] = 0;
  EXPECT_EQ(runThread(K, Env).addresses("partial[threadIdx.x % 32]"),
            std::vector<uint64_t>{32 + 5 * 4});
}

GMEM_BOTH_HEADERS(Kernels);

} // namespace
} // namespace gmem::test
