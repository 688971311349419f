//===- memory_access_test.cpp - Which accesses, in which order, where -----===//
#include "test_util.h"
#include "thread_interp.h"

#include <gtest/gtest.h>

#include <functional>

namespace gmem::test {
namespace {

class Accesses : public BothHeaders {};

std::vector<AccessKind> kinds(const ThreadRun &R) {
  std::vector<AccessKind> K;
  for (const Event &E : R.Events)
    K.push_back(E.Kind);
  return K;
}

std::vector<std::string> texts(const ThreadRun &R) {
  std::vector<std::string> T;
  for (const Event &E : R.Events)
    T.push_back(E.Text);
  return T;
}

// seeds_gt.cu's naiveGmem: the load of in[] executes before the store.
TEST_P(Accesses, NaiveGmemLoadThenStore) {
  std::string Code = R"(
__global__ void naiveGmem(float *out, float *in, const int nx, const int ny) {
  unsigned int ix = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned int iy = blockIdx.x * blockDim.x + threadIdx.x;
  if (ix < nx && iy < ny) out[ix * ny + iy] = in[iy * nx + ix];
}
)";
  Translated T = translate(Code, "naive.cu");
  const Kernel &K = T.kernel("naiveGmem");
  ASSERT_EQ(K.Accesses.size(), 2u);
  const Access &Ld = K.Accesses[0], &St = K.Accesses[1];
  EXPECT_EQ(accessOrder(K), (std::vector<int>{0, 1}));
  EXPECT_EQ(Ld.Kind, AccessKind::Load);
  EXPECT_EQ(St.Kind, AccessKind::Store);
  EXPECT_EQ(Ld.Sp, Space::Global);
  EXPECT_EQ(Ld.Size, 4u);
  EXPECT_EQ(St.Size, 4u);
  EXPECT_EQ(Ld.Array, "in");
  EXPECT_EQ(St.Array, "out");
  EXPECT_EQ(Ld.Text, "in[iy * nx + ix]");
  EXPECT_EQ(St.Text, "out[ix * ny + iy]");
  unsigned Line = lineOf(Code, "if (ix < nx");
  EXPECT_EQ(Ld.Loc.Line, Line);
  EXPECT_EQ(Ld.Loc.Col, 47u);
  EXPECT_EQ(St.Loc.Col, 27u);
  EXPECT_NE(Ld.Loc.File.find("naive.cu"), std::string::npos);
  // Block (2,1) of 32x16, thread (3,4), nx = ny = 4096.
  ThreadEnv Env;
  Env.Thread = {3, 4, 0};
  Env.Block = {2, 1, 0};
  Env.BlockDim = {32, 16, 1};
  Env.Params = {{"out", 0x10000}, {"in", 0x20000}, {"nx", 4096}, {"ny", 4096}};
  ThreadRun R = runThread(K, Env);
  uint64_t Ix = 1 * 16 + 4, Iy = 2 * 32 + 3;
  EXPECT_EQ(R.addresses("in[iy * nx + ix]"),
            std::vector<uint64_t>{0x20000 + (Iy * 4096 + Ix) * 4});
  EXPECT_EQ(R.addresses("out[ix * ny + iy]"),
            std::vector<uint64_t>{0x10000 + (Ix * 4096 + Iy) * 4});
}

// Text and line of an access inside a macro are those of the kernel's line.
TEST_P(Accesses, MacrosKeepTheKernelLine) {
  std::string Code = R"(
#define INDEX(ROW, COL, INNER) ((ROW) * (INNER) + (COL))
#define LOAD(p, i) (p)[i]
__global__ void copyGmem(float *out, float *in, const int nrows, const int ncols) {
  unsigned int row = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned int col = blockIdx.x * blockDim.x + threadIdx.x;
  out[INDEX(col, row, nrows)] = LOAD(in, INDEX(row, col, ncols));
}
)";
  Translated T = translate(Code);
  const Kernel &K = T.kernel("copyGmem");
  ASSERT_EQ(K.Accesses.size(), 2u);
  unsigned Line = lineOf(Code, "out[INDEX");
  EXPECT_EQ(K.Accesses[0].Text, "LOAD(in, INDEX(row, col, ncols))");
  EXPECT_EQ(K.Accesses[0].Loc.Line, Line);
  EXPECT_EQ(K.Accesses[1].Text, "out[INDEX(col, row, nrows)]");
  EXPECT_EQ(K.Accesses[1].Loc.Line, Line);
  EXPECT_EQ(K.Accesses[1].Loc.Col, 3u);
}

// Compound assignments read then write; a local accumulator is a register.
TEST_P(Accesses, ReadModifyWrite) {
  Translated T = translate(R"(
__global__ void k(float *p, int *c, const float *q) {
  int i = threadIdx.x;
  float x = 0;
  x += q[i];
  p[i] += x;
  c[i]++;
  --c[i + 1];
  p[i] = p[i] * 2 + q[i];
}
)");
  const Kernel &K = T.kernel("k");
  ThreadEnv Env;
  Env.Thread = {5, 0, 0};
  Env.Params = {{"p", 0x1000}, {"c", 0x2000}, {"q", 0x3000}};
  ThreadRun R = runThread(K, Env);
  using AK = AccessKind;
  EXPECT_EQ(kinds(R), (std::vector<AK>{AK::Load, AK::Load, AK::Store, AK::Load,
                                       AK::Store, AK::Load, AK::Store, AK::Load,
                                       AK::Load, AK::Store}));
  EXPECT_EQ(texts(R), (std::vector<std::string>{"q[i]", "p[i]", "p[i]", "c[i]",
                                                "c[i]", "c[i + 1]", "c[i + 1]",
                                                "p[i]", "q[i]", "p[i]"}));
  EXPECT_EQ(R.addresses("c[i + 1]"), (std::vector<uint64_t>{0x2018, 0x2018}));
}

// Vector types move whole (8 or 16 bytes); members are 4-byte accesses at
// their offset; other structs move in pieces of their alignment.
TEST_P(Accesses, SizesAndMemberOffsets) {
  Translated T = translate(R"(
struct P3 { float x, y, z; };
struct Mixed { char tag; double v; short s; };
__global__ void k(float *A, float2 *f2, float4 *f4, double *d, char *c,
                  short *s, P3 *p3, Mixed *m, double2 *d2) {
  int i = threadIdx.x;
  float4 v = reinterpret_cast<float4 *>(&A[4 * i])[0];
  f4[i] = v;
  float y = f2[i].y;
  d[i] = m[i].v + m[i].s + c[i] + s[i];
  P3 t = p3[i];
  double2 w = d2[i];
  f2[i] = make_float2(y, t.x + (float)w.x);
}
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  EXPECT_TRUE(K.Warnings.empty());
  EXPECT_EQ(typeErrors(K), std::vector<std::string>{});
  ThreadEnv Env;
  Env.Thread = {2, 0, 0};
  Env.Params = {{"A", 0x1000},  {"f2", 0x2000}, {"f4", 0x3000},
                {"d", 0x4000},  {"c", 0x5000},  {"s", 0x6000},
                {"p3", 0x7000}, {"m", 0x8000},  {"d2", 0x9000}};
  ThreadRun R = runThread(K, Env);
  struct Want {
    std::string Text;
    AccessKind Kind;
    unsigned Size;
    uint64_t Addr;
  };
  using AK = AccessKind;
  std::vector<Want> W = {
      {"reinterpret_cast<float4 *>(&A[4 * i])[0]", AK::Load, 16, 0x1000 + 32},
      {"f4[i]", AK::Store, 16, 0x3000 + 32},
      {"f2[i].y", AK::Load, 4, 0x2000 + 16 + 4},
      {"m[i].v", AK::Load, 8, 0x8000 + 2 * 24 + 8},
      {"m[i].s", AK::Load, 2, 0x8000 + 2 * 24 + 16},
      {"c[i]", AK::Load, 1, 0x5002},
      {"s[i]", AK::Load, 2, 0x6004},
      {"d[i]", AK::Store, 8, 0x4010},
      {"p3[i]", AK::Load, 4, 0x7000 + 24},
      {"p3[i]", AK::Load, 4, 0x7000 + 28},
      {"p3[i]", AK::Load, 4, 0x7000 + 32},
      {"d2[i]", AK::Load, 16, 0x9000 + 32},
      {"f2[i]", AK::Store, 8, 0x2000 + 16},
  };
  ASSERT_EQ(R.Events.size(), W.size());
  for (size_t I = 0; I < W.size(); ++I) {
    SCOPED_TRACE(W[I].Text);
    const Event &E = R.Events[I];
    EXPECT_EQ(E.Text, W[I].Text);
    EXPECT_EQ(E.Kind, W[I].Kind);
    EXPECT_EQ(K.Accesses[E.AccessId].Size, W[I].Size);
    ASSERT_TRUE(E.Addr);
    EXPECT_EQ(*E.Addr, W[I].Addr);
  }
}

// Pointers moved by arithmetic keep pointing into their allocation.
TEST_P(Accesses, PointerArithmetic) {
  Translated T = translate(R"(
#define BS 32
__global__ void k(const float *A, float *B, float *C, int K, int off) {
  A += blockIdx.x * BS * K;
  float *p = B + off;
  float *q = &C[threadIdx.x];
  float acc = 0;
  for (int j = 0; j < 2; ++j) {
    acc += A[threadIdx.x * K + j];
    A += BS;
  }
  p[threadIdx.x] = *(q + 1) + *q++;
  q[0] = acc;
  float *r = q - 2;
  *r = 1;
}
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  EXPECT_TRUE(K.Warnings.empty());
  ThreadEnv Env;
  Env.Thread = {3, 0, 0};
  Env.Block = {2, 0, 0};
  Env.Params = {{"A", 0x100000},
                {"B", 0x200000},
                {"C", 0x300000},
                {"K", 10},
                {"off", -4}};
  ThreadRun R = runThread(K, Env);
  uint64_t A0 = 0x100000 + 2 * 32 * 10 * 4;
  EXPECT_EQ(R.addresses("A[threadIdx.x * K + j]"),
            (std::vector<uint64_t>{A0 + (3 * 10 + 0) * 4,
                                   A0 + 32 * 4 + (3 * 10 + 1) * 4}));
  EXPECT_EQ(R.addresses("*(q + 1)"), std::vector<uint64_t>{0x300000 + 16});
  EXPECT_EQ(R.addresses("*q++"), std::vector<uint64_t>{0x300000 + 12});
  EXPECT_EQ(R.addresses("p[threadIdx.x]"),
            std::vector<uint64_t>{0x200000 - 16 + 12});
  EXPECT_EQ(R.addresses("q[0]"), std::vector<uint64_t>{0x300000 + 16});
  EXPECT_EQ(R.addresses("*r"), std::vector<uint64_t>{0x300000 + 8});
  for (const Access &A : K.Accesses)
    EXPECT_EQ(A.Sp, Space::Global) << A.Text;
  EXPECT_EQ(accessesByText(K, "*r")[0]->Array, "C");
  EXPECT_EQ(accessesByText(K, "p[threadIdx.x]")[0]->Array, "B");
}

// Shared memory through pointers: the space comes from where the pointer
// points, not from its type.
TEST_P(Accesses, SharedThroughPointers) {
  Translated T = translate(R"(
__global__ void k(float *out) {
  __shared__ float tile[4][32];
  extern __shared__ char smem[];
  float *row = tile[threadIdx.y];
  float *dyn = reinterpret_cast<float *>(smem) + 8;
  row[threadIdx.x] = out[threadIdx.x];
  dyn[threadIdx.x] = row[31 - threadIdx.x];
  out[threadIdx.x] = ((float4 *)smem)[threadIdx.x].z;
}
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  ThreadEnv Env;
  Env.Thread = {5, 2, 0};
  Env.Params = {{"out", 0x1000}};
  ThreadRun R = runThread(K, Env);
  EXPECT_EQ(R.addresses("row[threadIdx.x]"),
            std::vector<uint64_t>{2 * 128 + 5 * 4});
  EXPECT_EQ(R.addresses("row[31 - threadIdx.x]"),
            std::vector<uint64_t>{2 * 128 + 26 * 4});
  // smem starts after the 512-byte tile.
  EXPECT_EQ(R.addresses("dyn[threadIdx.x]"),
            std::vector<uint64_t>{512 + 32 + 20});
  EXPECT_EQ(R.addresses("((float4 *)smem)[threadIdx.x].z"),
            std::vector<uint64_t>{512 + 5 * 16 + 8});
  for (const Access &A : K.Accesses) {
    bool Global = A.Array == "out";
    EXPECT_EQ(A.Sp, Global ? Space::Global : Space::Shared) << A.Text;
    if (!Global)
      EXPECT_EQ(A.SharedArray, A.Array == "tile" ? 0 : 1) << A.Text;
  }
}

// The classic unrolled warp reduction: a volatile pointer into shared
// memory passed to a __device__ function.
TEST_P(Accesses, VolatileSharedPointerInDeviceFunction) {
  Translated T = translate(R"(
__device__ void warpReduce(volatile int *s, int tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
}
__global__ void k(int *g) {
  __shared__ int pad[3];
  __shared__ int sdata[64];
  int tid = threadIdx.x;
  sdata[tid] = g[tid] + pad[0];
  if (tid < 32) warpReduce(sdata, tid);
}
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  EXPECT_TRUE(K.Warnings.empty());
  ThreadEnv Env;
  Env.Thread = {7, 0, 0};
  Env.Params = {{"g", 0x1000}};
  ThreadRun R = runThread(K, Env);
  // sdata starts at 12, after pad[3].
  EXPECT_EQ(R.addresses("s[tid + 32]"), std::vector<uint64_t>{12 + 39 * 4});
  EXPECT_EQ(R.addresses("s[tid]"),
            (std::vector<uint64_t>{12 + 28, 12 + 28, 12 + 28, 12 + 28}));
  for (const Access &A : K.Accesses)
    if (A.Text.rfind("s[", 0) == 0) {
      EXPECT_EQ(A.Sp, Space::Shared);
      EXPECT_EQ(A.Array, "sdata");
      EXPECT_EQ(A.SharedArray, 1);
    }
}

// Double buffering: pointers swapped every iteration keep exact addresses
// and their memory space.
TEST_P(Accesses, SwappedPointers) {
  Translated T = translate(R"(
__global__ void k(float *a, float *b, int steps) {
  __shared__ float s0[32], s1[32];
  float *src = a, *dst = b;
  float *cur = s0, *nxt = s1;
  for (int i = 0; i < steps; ++i) {
    nxt[threadIdx.x] = cur[threadIdx.x];
    dst[threadIdx.x] = src[threadIdx.x];
    float *t = src; src = dst; dst = t;
    float *u = cur; cur = nxt; nxt = u;
  }
}
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  EXPECT_TRUE(K.Warnings.empty());
  for (const Access &A : K.Accesses) {
    EXPECT_FALSE(A.UnknownReason) << A.Text;
    bool Shared = A.Text[0] == 'n' || A.Text[0] == 'c';
    EXPECT_EQ(A.Sp, Shared ? Space::Shared : Space::Global) << A.Text;
  }
  ThreadEnv Env;
  Env.Thread = {2, 0, 0};
  Env.Params = {{"a", 0x1000}, {"b", 0x2000}, {"steps", 3}};
  ThreadRun R = runThread(K, Env);
  EXPECT_EQ(R.addresses("cur[threadIdx.x]"),
            (std::vector<uint64_t>{8, 128 + 8, 8}));
  EXPECT_EQ(R.addresses("nxt[threadIdx.x]"),
            (std::vector<uint64_t>{128 + 8, 8, 128 + 8}));
  EXPECT_EQ(R.addresses("src[threadIdx.x]"),
            (std::vector<uint64_t>{0x1008, 0x2008, 0x1008}));
}

TEST_P(Accesses, LdgAtomicsAndCacheHints) {
  Translated T = translate(R"(
__global__ void k(const double *A, int *hist, float *sum, unsigned *u,
                  unsigned long long *w, float *o) {
  __shared__ int local[32];
  int i = threadIdx.x;
  double a = __ldg(&A[i * 2]);
  atomicAdd(&hist[i % 8], 1);
  atomicAdd(sum, (float)a);
  atomicAdd(&local[i], 2);
  int old = atomicCAS(&hist[0], 0, i);
  atomicMax(u + 3, 7u);
  atomicExch(&w[i], 1ull);
  __stcs(&o[i], __ldcg(&o[i + 1]));
}
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  EXPECT_TRUE(K.Warnings.empty());
  ThreadEnv Env;
  Env.Thread = {9, 0, 0};
  Env.Params = {{"A", 0x1000}, {"hist", 0x2000}, {"sum", 0x3000},
                {"u", 0x4000}, {"w", 0x5000},    {"o", 0x6000}};
  ThreadRun R = runThread(K, Env);
  struct Want {
    AccessKind Kind;
    Space Sp;
    unsigned Size;
    uint64_t Addr;
  };
  using AK = AccessKind;
  std::vector<Want> W = {
      {AK::Load, Space::Global, 8, 0x1000 + 18 * 8},
      {AK::Atomic, Space::Global, 4, 0x2000 + 4},
      {AK::Atomic, Space::Global, 4, 0x3000},
      {AK::Atomic, Space::Shared, 4, 9 * 4},
      {AK::Atomic, Space::Global, 4, 0x2000},
      {AK::Atomic, Space::Global, 4, 0x4000 + 12},
      {AK::Atomic, Space::Global, 8, 0x5000 + 72},
      {AK::Load, Space::Global, 4, 0x6000 + 40},
      {AK::Store, Space::Global, 4, 0x6000 + 36},
  };
  ASSERT_EQ(R.Events.size(), W.size());
  for (size_t I = 0; I < W.size(); ++I) {
    SCOPED_TRACE(R.Events[I].Text);
    EXPECT_EQ(R.Events[I].Kind, W[I].Kind);
    EXPECT_EQ(R.Events[I].Sp, W[I].Sp);
    EXPECT_EQ(K.Accesses[R.Events[I].AccessId].Size, W[I].Size);
    EXPECT_EQ(R.Events[I].Addr.value_or(0), W[I].Addr);
  }
  EXPECT_EQ(K.Accesses[0].Text, "__ldg(&A[i * 2])");
}

// An address built from loaded data is unknown with the reason, and the
// load it depends on is still an access of its own.
TEST_P(Accesses, DataDependentAddressIsUnknown) {
  std::string Code = R"(
__global__ void gather(float *dst, const float *src, const int *idx) {
  int i = threadIdx.x;
  dst[i] = src[idx[i]];
  int j = idx[i + 1] * 2;
  dst[j] = 0;
}
)";
  Translated T = translate(Code, "gather.cu");
  const Kernel &K = T.kernel("gather");
  SCOPED_TRACE(dump(K));
  ASSERT_EQ(K.Accesses.size(), 5u);
  const Access &Idx = K.Accesses[0], &Src = K.Accesses[1];
  EXPECT_EQ(Idx.Text, "idx[i]");
  EXPECT_FALSE(Idx.UnknownReason);
  EXPECT_EQ(Src.Text, "src[idx[i]]");
  unsigned L = lineOf(Code, "dst[i] = src");
  std::string Why = "depends on data loaded by idx[i] at " + Idx.Loc.File +
                    ":" + std::to_string(L);
  ASSERT_TRUE(Src.UnknownReason);
  EXPECT_EQ(*Src.UnknownReason, Why);
  EXPECT_EQ(Src.Kind, AccessKind::Load);
  EXPECT_FALSE(K.Accesses[2].UnknownReason); // dst[i]
  const Access &Dj = K.Accesses[4];
  EXPECT_EQ(Dj.Text, "dst[j]");
  ASSERT_TRUE(Dj.UnknownReason);
  EXPECT_EQ(Dj.UnknownReason->find("depends on data loaded by idx[i + 1]"), 0u);
  ASSERT_EQ(K.Warnings.size(), 2u);
  EXPECT_EQ(K.Warnings[0],
            Idx.Loc.File + ":" + std::to_string(L) +
                ": address of 'src[idx[i]]' is not modelled: " + Why);
}

// Loads on the right of && and || and in the arms of ?: run only for the
// lanes that evaluate them.
TEST_P(Accesses, ShortCircuitLoadsAreGuarded) {
  Translated T = translate(R"(
__global__ void k(const int *p, const int *a, const int *b, int *q, int n) {
  int i = threadIdx.x;
  if (i < n && p[i] > 0) q[i] = 1;
  if (i >= n || p[i + 1] < 0) q[i + 1] = 2;
  q[i + 2] = i % 2 ? a[i] : b[i];
}
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  // Lanes below n read p[i] and then meet a data-dependent if (where one
  // thread cannot be followed); lanes at or above n skip both loads of p and
  // take the ?: arm of their parity.
  for (int I : {2, 3, 7, 8}) {
    ThreadEnv Env;
    Env.Thread = {static_cast<uint64_t>(I), 0, 0};
    Env.Params = {
        {"p", 0x1000}, {"a", 0x2000}, {"b", 0x3000}, {"q", 0x4000}, {"n", 5}};
    ThreadRun R = runThread(K, Env);
    if (I < 5)
      EXPECT_EQ(texts(R), std::vector<std::string>{"p[i]"});
    else
      EXPECT_EQ(texts(R),
                (std::vector<std::string>{"q[i + 1]", I % 2 ? "a[i]" : "b[i]",
                                          "q[i + 2]"}));
  }
  // Structure: each guarded load sits in an If on the left operand.
  ASSERT_GE(K.Body.size(), 2u);
  const Stmt *Guard = nullptr;
  for (const Stmt &S : K.Body)
    if (S.Kind == StmtKind::If && !S.Then.empty() &&
        S.Then[0].Kind == StmtKind::Access &&
        K.Accesses[S.Then[0].AccessId].Text == "p[i]") {
      Guard = &S;
      break;
    }
  ASSERT_NE(Guard, nullptr);
  EXPECT_EQ(toString(*Guard->Cond, &K), "(i < n)");
  // The ?: arms: a[i] under the true branch, b[i] under the false one.
  const Stmt &Sel = K.Body[K.Body.size() - 2];
  ASSERT_EQ(Sel.Kind, StmtKind::If);
  ASSERT_EQ(Sel.Then.size(), 2u);
  EXPECT_EQ(K.Accesses[Sel.Then[0].AccessId].Text, "a[i]");
  EXPECT_EQ(K.Accesses[Sel.Else[0].AccessId].Text, "b[i]");
  // The data-dependent conditions are reported.
  EXPECT_EQ(K.Warnings.size(), 2u);
}

TEST_P(Accesses, DeviceFunctionsAreInlined) {
  Translated T = translate(R"(
__device__ int index2(int r, int c, int w) { return r * w + c; }
__device__ void put(float *dst, int i, float v) { dst[i] = v; }
__device__ float &at(float *p, int i) { return p[i + 1]; }
__device__ void bump(int &k) { k += 3; }
__device__ float get(const float &x) { return x; }
__global__ void k(float *A, float *B, int w) {
  int i = index2(threadIdx.y, threadIdx.x, w);
  put(B, i, A[i]);
  at(B, i) = 2;
  int j = i;
  bump(j);
  put(B, j, get(A[j]));
  put(B, index2(1, 2, w), 0);
}
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  EXPECT_TRUE(K.Warnings.empty());
  // index2, put, at, bump, get, put, index2, put.
  EXPECT_EQ(countStmts(K, StmtKind::Call), 8u);
  ThreadEnv Env;
  Env.Thread = {3, 2, 0};
  Env.Params = {{"A", 0x1000}, {"B", 0x2000}, {"w", 10}};
  ThreadRun R = runThread(K, Env);
  uint64_t I = 2 * 10 + 3;
  // The store through at()'s reference is the kernel's assignment.
  std::vector<std::string> WantText = {"A[i]", "dst[i]", "at(B, i)",
                                       "x",    "dst[i]", "dst[i]"};
  EXPECT_EQ(texts(R), WantText);
  std::vector<uint64_t> Addr;
  for (const Event &E : R.Events)
    Addr.push_back(E.Addr.value_or(0));
  EXPECT_EQ(Addr,
            (std::vector<uint64_t>{0x1000 + I * 4, 0x2000 + I * 4,
                                   0x2000 + (I + 1) * 4, 0x1000 + (I + 3) * 4,
                                   0x2000 + (I + 3) * 4, 0x2000 + 12 * 4}));
  EXPECT_EQ(K.Accesses[R.Events[1].AccessId].Array, "B");
}

TEST_P(Accesses, RecursionPastTheInliningDepthIsKeptUnderAnUnknownIf) {
  Translated T = translate(R"(
__device__ int depth(int *p, int n) {
  p[n] = 0;
  return n == 0 ? 0 : 1 + depth(p, n - 1);
}
__global__ void k(int *p) { p[depth(p, threadIdx.x)] = 1; }
)");
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  ASSERT_EQ(K.Warnings.size(), 1u);
  EXPECT_NE(K.Warnings[0].find("call to 'depth' is not inlined: calls nest "
                               "deeper than 8"),
            std::string::npos);
  // Eight nested copies of p[n] = 0, and a ninth under an If whose condition
  // is unknown, so that a lane reaching it makes it unknown. None is unknown
  // by itself: lanes that return within eight calls are exact.
  std::vector<const Access *> Stores = accessesByText(K, "p[n]");
  ASSERT_EQ(Stores.size(), 9u);
  for (const Access *A : Stores)
    EXPECT_FALSE(A->UnknownReason);
  const Access *Last = accessesByText(K, "p[depth(p, threadIdx.x)]").at(0);
  EXPECT_FALSE(Last->UnknownReason);
  std::vector<int> Order = accessOrder(K);
  ASSERT_EQ(Order.size(), 10u);
  // The If around the ninth copy.
  std::function<const Stmt *(const std::vector<Stmt> &)> FindIf =
      [&](const std::vector<Stmt> &L) -> const Stmt * {
    for (const Stmt &S : L) {
      if (S.Kind == StmtKind::If && S.Cond->Kind == Op::Unknown)
        return &S;
      for (const auto *Sub : {&S.Then, &S.Else, &S.Body})
        if (const Stmt *F = FindIf(*Sub))
          return F;
    }
    return nullptr;
  };
  const Stmt *Deep = FindIf(K.Body);
  ASSERT_TRUE(Deep);
  ASSERT_EQ(Deep->Cond->Kind, Op::Unknown);
  EXPECT_EQ(Deep->Cond->Reason,
            "recursion deeper than 8 calls is not modelled");
  ASSERT_FALSE(Deep->Then.empty());
  EXPECT_EQ(Deep->Then[0].Kind, StmtKind::Access);
  EXPECT_EQ(Deep->Then[0].AccessId, Stores[8]->Id);

  ThreadEnv Env;
  Env.Params["p"] = 0x100;
  Env.Thread = {3, 0, 0};
  ThreadRun R = runThread(K, Env);
  EXPECT_EQ(R.addresses("p[n]"),
            (std::vector<uint64_t>{0x10c, 0x108, 0x104, 0x100}));
  EXPECT_EQ(R.addresses("p[depth(p, threadIdx.x)]"),
            std::vector<uint64_t>{0x10c});
  // Thread 12 stores p[12] .. p[5] in the eight inlined calls, then reaches
  // the unknown condition, which a single thread cannot follow.
  Env.Thread = {12, 0, 0};
  R = runThread(K, Env);
  ASSERT_EQ(R.Events.size(), 8u);
  EXPECT_EQ(R.Events[7].Addr, std::optional<uint64_t>(0x100 + 5 * 4));
}

// Constructs the model cannot express stay visible: unknown, with a reason.
TEST_P(Accesses, UnmodelledConstructsAreReported) {
  std::string Code = R"(
__device__ float table[64];
__device__ int external(int);
__global__ void k(float *p, const float *f) {
  int i = threadIdx.x;
  float acc[4] = {0, 0, 0, 0};
  acc[i % 4] = p[i];
  p[(int)(f[i] * 8.0f)] = acc[1];
  p[external(i)] = table[i];
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  p[lane] = 0;
}
)";
  Translated T = translate(Code);
  const Kernel &K = T.kernel("k");
  SCOPED_TRACE(dump(K));
  // The local array is not memory the model counts: p[i] and f[i] loads,
  // then the unknown store, the table load, the stores.
  std::vector<std::string> Want = {
      "p[i]",     "f[i]",           "p[(int)(f[i] * 8.0f)]",
      "table[i]", "p[external(i)]", "p[lane]"};
  std::vector<std::string> Got;
  for (int Id : accessOrder(K))
    Got.push_back(K.Accesses[Id].Text);
  EXPECT_EQ(Got, Want);
  auto Reason = [&](const std::string &Text) {
    const Access *A = accessesByText(K, Text).at(0);
    return A->UnknownReason.value_or("");
  };
  EXPECT_EQ(Reason("p[i]"), "");
  EXPECT_EQ(Reason("p[(int)(f[i] * 8.0f)]"),
            "converted from a floating-point value");
  EXPECT_EQ(Reason("table[i]"),
            "address of __device__ variable 'table' is not modelled");
  EXPECT_EQ(Reason("p[external(i)]").find("result of external() at"), 0u);
  EXPECT_EQ(Reason("p[lane]").find("value set by inline asm at"), 0u);
  std::string All;
  for (const std::string &W : K.Warnings)
    All += W + "\n";
  EXPECT_NE(All.find(":" + std::to_string(lineOf(Code, "p[external")) +
                     ": call to 'external' is not modelled"),
            std::string::npos)
      << All;
  EXPECT_NE(All.find(":" + std::to_string(lineOf(Code, "asm(")) +
                     ": inline asm is not modelled"),
            std::string::npos)
      << All;
}

GMEM_BOTH_HEADERS(Accesses);

} // namespace
} // namespace gmem::test
