//===- expr_semantics_test.cpp - C++ integer semantics in the model -------===//
//
// Each expression below is compiled twice: by Clang as CUDA (then translated
// and run with the test interpreter for many threads), and by the host
// compiler here. CUDA integers are C++ integers, so the two must agree to
// the bit: wrap-around, truncation, sign extension, division, shifts.
//
//===----------------------------------------------------------------------===//
#include "test_util.h"
#include "thread_interp.h"

#include <gtest/gtest.h>

namespace gmem::test {
namespace {

// CUDA's integer min/max overloads, for the host side of the comparison.
int min(int A, int B) { return A < B ? A : B; }
int max(int A, int B) { return A > B ? A : B; }
unsigned min(unsigned A, unsigned B) { return A < B ? A : B; }
unsigned umin(unsigned A, unsigned B) { return A < B ? A : B; }
long long llmax(long long A, long long B) { return A > B ? A : B; }
constexpr int warpSize = 32;

// TX is threadIdx.x (unsigned int); N and U are kernel parameters.
#define SEMANTICS(X)                                                           \
  X(TX - 5u)                                                                   \
  X((int)TX - 5)                                                               \
  X((short)(TX * 4000))                                                        \
  X((unsigned char)(TX + 250))                                                 \
  X((signed char)(TX * 9))                                                     \
  X((long long)((int)TX - 20) * 100000)                                        \
  X(((int)TX - 20) / 3)                                                        \
  X(((int)TX - 20) % 3)                                                        \
  X(U / (TX + 1))                                                              \
  X(U % (TX + 1))                                                              \
  X(U >> 3)                                                                    \
  X(((int)TX - 20) >> 1)                                                       \
  X((TX << 28) >> 28)                                                          \
  X((int)(TX << 28) >> 28)                                                     \
  X(((int)TX ^ 0x55) & ~7 | 3)                                                 \
  X(min((int)TX - 20, N))                                                      \
  X(max((int)TX - 20, 2))                                                      \
  X(umin(TX, U))                                                               \
  X(min(TX, 7u))                                                               \
  X(llmax((long long)N * 1000000000, (long long)TX))                           \
  X(((int)TX - 20) < 0 ? -((int)TX - 20) : ((int)TX - 20))                     \
  X(!((int)TX > 2) && (int)TX != 1 || N == 0)                                  \
  X((TX > 3) + (TX >= 3) * 2 + (TX < 3) * 4 + (TX <= 3) * 8 + (TX == 3) * 16 + \
    (TX != 3) * 32)                                                            \
  X(-TX)                                                                       \
  X(~TX)                                                                       \
  X(-(int)TX)                                                                  \
  X((unsigned long long)TX << 40)                                              \
  X(N *(int)TX - U)                                                            \
  X(N *(long)TX - U)                                                           \
  X(warpSize * 2 + TX % warpSize)                                              \
  X(TX > 5 && N > 0 ? 1 : 2)                                                   \
  X((bool)(TX & 2))                                                            \
  X((int)(short)-TX)                                                           \
  X((unsigned short)(N - (int)TX) * 3)                                         \
  X((TX & 1 ? U : (unsigned)N) + 1)

#define STR2(...) #__VA_ARGS__
#define AS_STORE(...) "  p[(long long)(" STR2(__VA_ARGS__) ")] = 0;\n"
#define AS_VALUE(...) static_cast<uint64_t>((long long)(__VA_ARGS__)),

class IntegerSemantics : public BothHeaders {};

TEST_P(IntegerSemantics, MatchesTheHostCompiler) {
  std::string Code =
      "#define TX threadIdx.x\n"
      "__global__ void k(char *p, int N, unsigned U) {\n" SEMANTICS(
          AS_STORE) "}\n";
  Translated T = translate(Code);
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  ASSERT_TRUE(K.Warnings.empty());
  EXPECT_EQ(typeErrors(K), std::vector<std::string>{});
  const uint64_t Base = 0x7f0000001000;
  for (int N : {5, -3, 0})
    for (unsigned U : {7u, 0xFFFFFFF0u})
      for (unsigned TX = 0; TX < 48; ++TX) {
        ThreadEnv Env;
        Env.Thread = {TX, 0, 0};
        Env.BlockDim = {64, 1, 1};
        Env.Params = {{"p", static_cast<int64_t>(Base)}, {"N", N}, {"U", U}};
        std::vector<uint64_t> Want = {SEMANTICS(AS_VALUE)};
        ThreadRun R = runThread(K, Env);
        ASSERT_EQ(R.Events.size(), Want.size());
        for (size_t I = 0; I < Want.size(); ++I) {
          ASSERT_TRUE(R.Events[I].Addr) << R.Events[I].Text;
          EXPECT_EQ(*R.Events[I].Addr, Base + Want[I])
              << R.Events[I].Text << " TX=" << TX << " N=" << N << " U=" << U;
        }
      }
}

// Compile-time constants become constants in the model: #define, constexpr,
// enumerators, sizeof, template parameters.
TEST_P(IntegerSemantics, ConstantsAreFolded) {
  Translated T = translate(R"(
#define W 3
constexpr int H = 5;
enum { E = 7 };
template <int B> __global__ void k(float *p) {
  p[W * H + E + sizeof(double) + B] = 0;
}
template __global__ void k<100>(float *);
)");
  const Kernel &K = T.kernel("k<100>");
  ASSERT_EQ(K.Accesses.size(), 1u);
  const Expr &A = *K.Accesses[0].Address;
  // p + (15 + 7 + 8 + 100) * 4 with the index folded to one constant.
  ASSERT_EQ(A.Kind, Op::Add);
  EXPECT_EQ(A.Ops[0]->Kind, Op::Param);
  ASSERT_EQ(A.Ops[1]->Kind, Op::Const);
  EXPECT_EQ(A.Ops[1]->Value, 130 * 4);
}

// threadIdx/blockIdx/blockDim/gridDim are unsigned int; warpSize is int.
TEST_P(IntegerSemantics, BuiltinVariables) {
  Translated T = translate(R"(
__global__ void k(char *p) {
  p[threadIdx.x + 10 * threadIdx.y + 100 * threadIdx.z] = 0;
  p[blockIdx.x + 10 * blockIdx.y + 100 * blockIdx.z] = 0;
  p[blockDim.x + 10 * blockDim.y + 100 * blockDim.z] = 0;
  p[gridDim.x + 10 * gridDim.y + 100 * gridDim.z] = 0;
  p[warpSize - 33] = 0;
}
)");
  const Kernel &K = T.kernel("k");
  ThreadEnv Env;
  Env.Thread = {1, 2, 3};
  Env.Block = {4, 5, 6};
  Env.BlockDim = {7, 8, 9};
  Env.GridDim = {1, 2, 3};
  Env.Params["p"] = 0;
  ThreadRun R = runThread(K, Env);
  ASSERT_EQ(R.Events.size(), 5u);
  EXPECT_EQ(*R.Events[0].Addr, 321u);
  EXPECT_EQ(*R.Events[1].Addr, 654u);
  EXPECT_EQ(*R.Events[2].Addr, 987u);
  EXPECT_EQ(*R.Events[3].Addr, 321u);
  EXPECT_EQ(*R.Events[4].Addr, ~uint64_t(0)); // int -1, sign-extended.
  // warpSize stays symbolic (a Builtin), not the constant 32.
  EXPECT_NE(toString(*K.Accesses[4].Address, &K).find("warpSize"),
            std::string::npos);
}

// std::min/std::max (references to their arguments) and CUDA's __mul24.
TEST_P(IntegerSemantics, LibraryMinMaxAndMul24) {
  Translated T = translate(R"(
#include <algorithm>
__global__ void k(char *p, int n) {
  int t = threadIdx.x;
  p[std::min(t, n)] = 0;
  p[std::max<long>(t - 40, -2)] = 0;
  p[__mul24(t - 10, n)] = 0;
  p[__umul24(threadIdx.x + 0x1000000u, 3u)] = 0;
}
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  EXPECT_TRUE(K.Warnings.empty());
  for (int TX : {0, 5, 31}) {
    ThreadEnv Env;
    Env.Thread = {static_cast<uint64_t>(TX), 0, 0};
    Env.Params = {{"p", 0}, {"n", 9}};
    ThreadRun R = runThread(K, Env);
    ASSERT_EQ(R.Events.size(), 4u);
    EXPECT_EQ(*R.Events[0].Addr, uint64_t(std::min(TX, 9)));
    EXPECT_EQ(*R.Events[1].Addr, uint64_t(std::max<long>(TX - 40, -2)));
    EXPECT_EQ(*R.Events[2].Addr, uint64_t(int64_t((TX - 10) * 9)));
    EXPECT_EQ(*R.Events[3].Addr, uint64_t(TX * 3));
  }
}

GMEM_BOTH_HEADERS(IntegerSemantics);

} // namespace
} // namespace gmem::test
