//===- robustness_test.cpp - Unusual CUDA never crashes the translator ----===//
//
// Constructs the model does not cover must come out as accesses with unknown
// addresses and warnings, never as a crash or a silently dropped access.
//
//===----------------------------------------------------------------------===//
#include "test_util.h"
#include "thread_interp.h"

#include <gtest/gtest.h>

namespace gmem::test {
namespace {

class Robustness : public BothHeaders {};

const char *Unusual = R"(
__constant__ float coef[16];
__device__ int counter;
struct Vec { float x, y; __device__ float dot(const Vec &o) const { return x * o.x + y * o.y; } };
struct Grid2 {
  float *data; int w;
  __device__ float &operator()(int r, int c) { return data[r * w + c]; }
  __device__ float get(int r, int c) const { return data[r * w + c]; }
};
union U { int i; float f; };
struct Bits { unsigned a : 3; unsigned b : 5; };
template <typename F> __device__ void apply(F f, int i) { f(i); }
__device__ int twice(int x) { return 2 * x; }
__device__ int (*fp)(int) = twice;
class Base { public: int base; };
class Derived : public Base { public: int extra; };

__global__ void weird(float *a, float **pp, Vec *v, Grid2 g, U *u, Bits *b, Derived *d, int n) {
  int t = threadIdx.x;
  auto lam = [=](int i) { a[i] = 1.0f; };
  apply(lam, t);
  float local[4] = {a[0], a[1], a[2], a[3]};
  for (int k = 0; k < 4; ++k) a[t + k] = local[k] * coef[k];
  if (t == 0) goto done;
  a[t] = pp[t][t + 1];
  a[t] += v[t].dot(v[t + 1]);
  g(t, 1) = g.get(1, t);
  u[t].i = (int)u[t + 1].f;
  b[t].a = 3;
  d[t].base = d[t].extra;
  atomicAdd(&counter, 1);
  a[t] = fp(t);
  {
    static int calls = 0;
    calls++;
  }
  a[(t, n)] = __shfl_sync(0xffffffff, a[t], 0);
  a[t > 2 ? (t < 5 ? 1 : 2) : 3] = 0;
  {
    int *q = new int[4];
    q[0] = 1;
    delete[] q;
  }
  printf("%d %f\n", t, a[t]);
done:
  a[n] = 0;
}
__global__ void rangefor(float *a) {
  float local[4] = {a[0], a[1], a[2], a[3]};
  for (float &x : local) a[threadIdx.x] += x;
}
__global__ void empty() {}
__global__ void onlyfloat(float x) { float y = x * 2; (void)y; }
int main() { weird<<<1, 32>>>(0, 0, 0, Grid2{0, 1}, 0, 0, 0, 3); return 0; }
)";

TEST_P(Robustness, UnusualConstructs) {
  Translated T = translate(Unusual);
  ASSERT_EQ(T.Kernels.size(), 4u);
  EXPECT_TRUE(T.kernel("empty").Accesses.empty());
  EXPECT_TRUE(T.kernel("onlyfloat").Accesses.empty());
  EXPECT_TRUE(T.kernel("onlyfloat").Warnings.empty());
  const Kernel &K = T.kernel("weird");
  SCOPED_TRACE(dump(K));
  EXPECT_EQ(typeErrors(K), std::vector<std::string>{});
  for (const Access &A : K.Accesses) {
    EXPECT_GT(A.Loc.Line, 0u);
    EXPECT_FALSE(A.Text.empty());
  }
  EXPECT_EQ(accessesByText(K, "q[0]").at(0)->UnknownReason.value_or(""),
            "pointer from expression of kind CXXNewExpr");
  std::string All;
  for (const std::string &W : K.Warnings)
    All += W + "\n";
  for (const char *Want :
       {"goto is not modelled",
        "address of 'pp[t][t + 1]' is not modelled: depends on data loaded "
        "by pp[t]",
        "bit-field 'b[t].a' is not modelled",
        "address of 'atomicAdd(&counter, 1)' is not modelled: address of "
        "__device__ variable 'counter' is not modelled",
        "static local variable 'calls' is not modelled",
        "expression of kind CXXNewExpr is not modelled",
        "address of 'data[r * w + c]' is not modelled: member of a local "
        "object"})
    EXPECT_NE(All.find(Want), std::string::npos) << Want;

  // What is modelled is exact: the lambda's capture, the member function's
  // object and argument, a base class member.
  ThreadEnv Env;
  Env.Thread = {5, 0, 0};
  Env.Params = {{"a", 0x1000}, {"pp", 0x2000}, {"v", 0x3000}, {"u", 0x4000},
                {"b", 0x5000}, {"d", 0x6000},  {"n", 9}};
  ThreadRun R = runThread(K, Env);
  EXPECT_EQ(R.addresses("a[i]"), std::vector<uint64_t>{0x1000 + 20});
  EXPECT_EQ(R.addresses("x"), std::vector<uint64_t>{0x3000 + 40});
  EXPECT_EQ(R.addresses("o.y"), std::vector<uint64_t>{0x3000 + 48 + 4});
  EXPECT_EQ(R.addresses("d[t].extra"), std::vector<uint64_t>{0x6000 + 44});
  EXPECT_EQ(R.addresses("a[(t, n)]"), std::vector<uint64_t>{0x1000 + 36});
  EXPECT_EQ(R.addresses("a[t > 2 ? (t < 5 ? 1 : 2) : 3]"),
            std::vector<uint64_t>{0x1000 + 8});
  EXPECT_EQ(R.addresses("a[n]"), std::vector<uint64_t>{0x1000 + 36});

  // A range-based for: its body's accesses are kept, under a loop whose
  // trip count is unknown.
  const Kernel &RF = T.kernel("rangefor");
  ASSERT_EQ(RF.Warnings.size(), 1u) << dump(RF);
  EXPECT_NE(RF.Warnings[0].find("range-based for loop is not modelled"),
            std::string::npos);
  EXPECT_EQ(accessesByText(RF, "a[threadIdx.x]").size(), 2u);
}

// The CUDA installation's own device libraries parse and translate.
TEST(RobustnessCuda, CooperativeGroupsAndWarpIntrinsics) {
  if (!cudaInstalled())
    GTEST_SKIP() << "no CUDA installation";
  Translated T = translate(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *p) {
  cg::thread_block block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  int v = p[block.thread_rank()];
  v += tile.shfl_down(v, 16);
  block.sync();
  if (tile.thread_rank() == 0) atomicAdd(&p[1000], v);
  p[threadIdx.x + 32] = __popc(__ballot_sync(0xffffffff, v > 0));
}
)",
                           Headers::Cuda);
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  ASSERT_EQ(K.Accesses.size(), 3u);
  // thread_rank() is the linear thread id (cooperative_groups_test.cpp).
  EXPECT_FALSE(K.Accesses[0].UnknownReason);
  EXPECT_FALSE(K.Accesses[1].UnknownReason);
  EXPECT_EQ(K.Accesses[1].Kind, AccessKind::Atomic);
  EXPECT_FALSE(K.Accesses[2].UnknownReason);
}

GMEM_BOTH_HEADERS(Robustness);

} // namespace
} // namespace gmem::test
