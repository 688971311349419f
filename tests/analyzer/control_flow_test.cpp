//===- control_flow_test.cpp - Loops, guards, returns, switch, slots ------===//
//
// Each kernel's model is run for single threads and the sequence of
// addresses compared with the same control flow executed natively here.
//
//===----------------------------------------------------------------------===//
#include "test_util.h"
#include "thread_interp.h"

#include <gtest/gtest.h>

namespace gmem::test {
namespace {

class ControlFlow : public BothHeaders {};

std::vector<uint64_t> allAddresses(const ThreadRun &R) {
  std::vector<uint64_t> A;
  for (const Event &E : R.Events)
    A.push_back(E.Addr.value_or(~uint64_t(0)));
  return A;
}

// The lecture's gTranspose0 (seeds_gt.cu): nested grid-stride loops.
TEST_P(ControlFlow, GridStrideLoopsOfGTranspose0) {
  Translated T = translate(R"(
__global__ void gTranspose0(float *storage_d, float *storage_d_t, int N) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int j = threadIdx.y + blockIdx.y * blockDim.y;
  for (int iy = j; iy < N; iy += gridDim.y * blockDim.y)
    for (int ix = i; ix < N; ix += gridDim.x * blockDim.x)
      storage_d_t[iy + ix * N] = storage_d[ix + iy * N];
}
)");
  const Kernel &K = T.kernel("gTranspose0");
  SCOPED_TRACE(dump(K));
  EXPECT_TRUE(K.Warnings.empty());
  // i, j, iy = j, then the outer loop; its body starts the inner loop.
  ASSERT_EQ(K.Body.size(), 4u);
  const Stmt &Outer = K.Body[3];
  ASSERT_EQ(Outer.Kind, StmtKind::Loop);
  EXPECT_TRUE(Outer.TestFirst);
  EXPECT_EQ(toString(*Outer.Cond, &K), "(iy < N)");
  ASSERT_EQ(Outer.Step.size(), 1u);
  EXPECT_EQ(toString(*Outer.Step[0].Value, &K),
            "(i32)((u32)iy + (gridDim.y * blockDim.y))");
  ASSERT_EQ(Outer.Body.size(), 2u);
  const Stmt &Inner = Outer.Body[1];
  ASSERT_EQ(Inner.Kind, StmtKind::Loop);
  ASSERT_EQ(Inner.Body.size(), 2u);
  EXPECT_EQ(Inner.Body[0].Kind, StmtKind::Access);
  EXPECT_EQ(K.Accesses[Inner.Body[0].AccessId].Text, "storage_d[ix + iy * N]");
  EXPECT_EQ(K.Accesses[Inner.Body[1].AccessId].Text,
            "storage_d_t[iy + ix * N]");

  const int N = 13;
  Dim3 Bd{4, 4, 1}, Gd{2, 3, 1};
  for (Dim3 Th : {Dim3{1, 2, 0}, Dim3{3, 3, 0}})
    for (Dim3 Bl : {Dim3{1, 0, 0}, Dim3{0, 2, 0}}) {
      ThreadEnv Env{
          Th,
          Bl,
          Bd,
          Gd,
          {{"storage_d", 0x10000}, {"storage_d_t", 0x20000}, {"N", N}}};
      std::vector<uint64_t> Want;
      int I = Th.X + Bl.X * Bd.X, J = Th.Y + Bl.Y * Bd.Y;
      for (int Iy = J; Iy < N; Iy += Gd.Y * Bd.Y)
        for (int Ix = I; Ix < N; Ix += Gd.X * Bd.X) {
          Want.push_back(0x10000 + (Ix + Iy * N) * 4);
          Want.push_back(0x20000 + (Iy + Ix * N) * 4);
        }
      EXPECT_EQ(allAddresses(runThread(K, Env)), Want);
    }
}

// Tree reductions: s >>= 1 and s *= 2 steps, guards inside the loops.
TEST_P(ControlFlow, ReductionLoops) {
  Translated T = translate(R"(
__global__ void reduce(int *g, int n) {
  extern __shared__ int sdata[];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  sdata[tid] = (i < n ? g[i] : 0) + (i + blockDim.x < n ? g[i + blockDim.x] : 0);
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
  }
  if (tid == 0) g[blockIdx.x] = sdata[0];
}
)");
  const Kernel &K = T.kernel("reduce");
  SCOPED_TRACE(dump(K));
  EXPECT_EQ(typeErrors(K), std::vector<std::string>{});
  EXPECT_TRUE(K.Warnings.empty());
  const unsigned Bd = 256;
  for (unsigned Tid : {0u, 3u, 40u, 200u}) {
    ThreadEnv Env;
    Env.Thread = {Tid, 0, 0};
    Env.Block = {1, 0, 0};
    Env.BlockDim = {Bd, 1, 1};
    Env.Params = {{"g", 0x8000}, {"n", 700}};
    std::vector<uint64_t> Want;
    unsigned I = 1 * Bd * 2 + Tid;
    if (I < 700)
      Want.push_back(0x8000 + I * 4);
    if (I + Bd < 700)
      Want.push_back(0x8000 + (I + Bd) * 4);
    Want.push_back(Tid * 4);
    for (unsigned S = Bd / 2; S > 32; S >>= 1)
      if (Tid < S) {
        // C++17: the right operand of += is evaluated first.
        Want.push_back((Tid + S) * 4);
        Want.push_back(Tid * 4);
        Want.push_back(Tid * 4);
      }
    for (unsigned S = 1; S < Bd; S *= 2) {
      int Index = 2 * S * Tid;
      if (static_cast<unsigned>(Index) < Bd) {
        Want.push_back((Index + S) * 4);
        Want.push_back(Index * 4);
        Want.push_back(Index * 4);
      }
    }
    if (Tid == 0) {
      Want.push_back(0);
      Want.push_back(0x8000 + 4);
    }
    EXPECT_EQ(allAddresses(runThread(K, Env)), Want) << "tid " << Tid;
  }
}

TEST_P(ControlFlow, WhileDoBreakContinueReturn) {
  Translated T = translate(R"(
__global__ void k(int *p, int n) {
  int t = threadIdx.x;
  if (t >= n) return;
  int i = 0;
  while (true) {
    if (i > 6) break;
    ++i;
    if (i % 3 == 0) continue;
    p[t * 100 + i] = 0;
  }
  int k = 5;
  do { p[k] = 1; k -= 2; } while (k > 0);
  for (int a = 0, b = 10; a < b; a += 3, --b) {
    if (a == 6 && t == 1) return;
    p[a * 10 + b] = 2;
  }
  p[999] = 3;
}
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  EXPECT_TRUE(K.Warnings.empty());
  for (int Tid : {0, 1, 4}) {
    ThreadEnv Env;
    Env.Thread = {static_cast<uint64_t>(Tid), 0, 0};
    Env.Params = {{"p", 0}, {"n", 3}};
    std::vector<uint64_t> Want;
    [&] {
      if (Tid >= 3)
        return;
      int I = 0;
      while (true) {
        if (I > 6)
          break;
        ++I;
        if (I % 3 == 0)
          continue;
        Want.push_back((Tid * 100 + I) * 4);
      }
      int Kk = 5;
      do {
        Want.push_back(Kk * 4);
        Kk -= 2;
      } while (Kk > 0);
      for (int A = 0, B = 10; A < B; A += 3, --B) {
        if (A == 6 && Tid == 1)
          return;
        Want.push_back((A * 10 + B) * 4);
      }
      Want.push_back(999 * 4);
    }();
    EXPECT_EQ(allAddresses(runThread(K, Env)), Want) << "tid " << Tid;
  }
  EXPECT_EQ(countStmts(K, StmtKind::Return), 2u);
  EXPECT_EQ(countStmts(K, StmtKind::Break), 1u);
  EXPECT_EQ(countStmts(K, StmtKind::Continue), 1u);
}

// One slot per declaration; post-increments keep the old value.
TEST_P(ControlFlow, ShadowingAndIncrements) {
  Translated T = translate(R"(
__global__ void k(int *p) {
  int x = threadIdx.x;
  { int x = 7; p[x] = 0; }
  p[x] = 1;
  for (int x = 20; x < 22; ++x) p[x] = 2;
  p[x++] = 3;
  p[x] = 4;
  p[++x] = 5;
  int y = x-- + x;
  p[y] = 6;
}
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  std::vector<std::string> Names;
  for (const Slot &S : K.Slots)
    if (S.Name.rfind("x", 0) == 0)
      Names.push_back(S.Name);
  EXPECT_EQ(Names, (std::vector<std::string>{"x", "x.2", "x.3"}));
  ThreadEnv Env;
  Env.Thread = {10, 0, 0};
  Env.Params = {{"p", 0}};
  // x = 10: 7, 10, 20, 21, 10 (x -> 11), 11, 12 (x = 12), y = 12 + 11.
  EXPECT_EQ(allAddresses(runThread(K, Env)),
            (std::vector<uint64_t>{28, 40, 80, 84, 40, 44, 48, 92}));
}

TEST_P(ControlFlow, SwitchBecomesIfChain) {
  Translated T = translate(R"(
__global__ void k(int *p) {
  int t = threadIdx.x;
  switch (t % 4) {
  case 0:
    p[0] = 0;
    break;
  case 1:
  case 2: {
    p[t] = 1;
    break;
  }
  default:
    p[2] = 2;
  }
  p[3] = 3;
}
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  EXPECT_TRUE(K.Warnings.empty());
  for (uint64_t Tid : {0, 1, 2, 3, 5}) {
    ThreadEnv Env;
    Env.Thread = {Tid, 0, 0};
    Env.Params = {{"p", 0}};
    uint64_t First = Tid % 4 == 0 ? 0 : Tid % 4 == 3 ? 8 : Tid * 4;
    EXPECT_EQ(allAddresses(runThread(K, Env)),
              (std::vector<uint64_t>{First, 12}))
        << Tid;
  }
}

TEST_P(ControlFlow, FallThroughSwitchIsReported) {
  std::string Code = R"(
__global__ void k(int *p) {
  switch (threadIdx.x) {
  case 0:
    p[10] = 0;
  case 1:
    p[11] = 1;
    break;
  }
}
)";
  Translated T = translate(Code);
  const Kernel &K = T.kernel("k");
  ASSERT_EQ(K.Warnings.size(), 1u) << dump(K);
  EXPECT_NE(K.Warnings[0].find(":" + std::to_string(lineOf(Code, "switch")) +
                               ": switch with fall-through"),
            std::string::npos);
  // Both stores are still there, under an unknown condition.
  EXPECT_EQ(K.Accesses.size(), 2u);
  EXPECT_EQ(countStmts(K, StmtKind::Break), 0u);
}

// A loop condition that reads memory: the read is in CondPre, every
// iteration; the condition itself depends on the data.
TEST_P(ControlFlow, ConditionReadingMemory) {
  Translated T = translate(R"(
__global__ void k(const int *p, int *q) {
  int i = threadIdx.x;
  while (p[i] != 0)
    i += 32;
  q[i] = 1;
}
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  const Stmt *Loop = nullptr;
  for (const Stmt &S : K.Body)
    if (S.Kind == StmtKind::Loop)
      Loop = &S;
  ASSERT_NE(Loop, nullptr);
  ASSERT_EQ(Loop->CondPre.size(), 1u);
  EXPECT_EQ(K.Accesses[Loop->CondPre[0].AccessId].Text, "p[i]");
  // p[i] != 0 over the loaded value, which keeps its address (a recorded
  // run may know the bytes there).
  ASSERT_EQ(Loop->Cond->Kind, Op::Ne);
  EXPECT_EQ(Loop->Cond->Ops[0]->Kind, Op::Unknown);
  ASSERT_EQ(Loop->Cond->Ops[0]->Ops.size(), 1u);
  EXPECT_EQ(toString(*Loop->Cond->Ops[0]->Ops[0], &K), "(p + ((u64)i * 4))");
  ASSERT_EQ(K.Warnings.size(), 1u);
  EXPECT_NE(K.Warnings[0].find("loop condition 'p[i] != 0' is not modelled: "
                               "depends on data loaded by p[i]"),
            std::string::npos);
  // q[i] after the loop: i is computable (it starts known), so no reason.
  EXPECT_FALSE(accessesByText(K, "q[i]").at(0)->UnknownReason);
}

// Conditions fixed at compile time keep only the branch taken.
TEST_P(ControlFlow, CompileTimeConditions) {
  Translated T = translate(R"(
template <int B> __global__ void k(float *p) {
  if constexpr (B > 16)
    p[threadIdx.x] = 0;
  else
    p[threadIdx.x * 2] = 0;
  if (B % 2)
    p[1] = 1;
}
template __global__ void k<32>(float *);
template __global__ void k<7>(float *);
)");
  const Kernel &Big = T.kernel("k<32>"), &Small = T.kernel("k<7>");
  ASSERT_EQ(Big.Accesses.size(), 1u);
  EXPECT_EQ(Big.Accesses[0].Text, "p[threadIdx.x]");
  EXPECT_EQ(countStmts(Big, StmtKind::If), 0u);
  ASSERT_EQ(Small.Accesses.size(), 2u);
  EXPECT_EQ(Small.Accesses[0].Text, "p[threadIdx.x * 2]");
  EXPECT_EQ(Small.Accesses[1].Text, "p[1]");
}

// 64-bit grid-stride loops with a parameter bound.
TEST_P(ControlFlow, SizeTGridStride) {
  Translated T = translate(R"(
__global__ void saxpy(size_t n, float a, const float *x, float *y) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}
)");
  const Kernel &K = T.kernel("saxpy");
  SCOPED_TRACE(dump(K));
  EXPECT_TRUE(K.Warnings.empty());
  ThreadEnv Env;
  Env.Thread = {5, 0, 0};
  Env.Block = {1, 0, 0};
  Env.BlockDim = {64, 1, 1};
  Env.GridDim = {2, 1, 1};
  Env.Params = {{"n", 300}, {"x", 0x1000}, {"y", 0x9000}};
  std::vector<uint64_t> Want;
  for (uint64_t I = 69; I < 300; I += 128) {
    Want.push_back(0x1000 + I * 4);
    Want.push_back(0x9000 + I * 4);
    Want.push_back(0x9000 + I * 4);
  }
  EXPECT_EQ(allAddresses(runThread(K, Env)), Want);
}

GMEM_BOTH_HEADERS(ControlFlow);

} // namespace
} // namespace gmem::test
