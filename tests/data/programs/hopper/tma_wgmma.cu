// Hopper's tensor memory accelerator (TMA) and warpgroup matrix multiply
// (wgmma), checked against layouts worked out on the host:
//
// - tensor maps made with cuTensorMapEncodeTiled, boxes loaded into shared
//   memory (cp.async.bulk.tensor, 2-D and 3-D, 1-, 2- and 4-byte elements,
//   no swizzle and the 32-, 64- and 128-byte swizzles, boxes partly or
//   wholly outside the tensor) and stored back from it;
// - wgmma.mma_async with shared-memory operands described by matrix
//   descriptors (K-major and MN-major, every swizzle), A from registers,
//   f16/bf16/tf32/e4m3/s8 inputs, f32/f16/s32 accumulators, scale-d off
//   and a negated A, N from 8 to 64;
// - a small GEMM made of both, as Hopper GEMMs are.
//
// The rules: a box's innermost coordinate must lie at a multiple of 16
// bytes (an H200 stops the launch with an illegal instruction otherwise:
// 7 of 7 such boxes tried); it is stored densely, innermost dimension first, elements
// outside the tensor as zeros; a swizzle XORs the 16-byte chunk bits (4..6
// for 128 bytes, 4..5 for 64, 4 for 32) of each shared address with bits
// 7..9 (7..8, 7). A descriptor's canonical layouts are CUTLASS's
// (cute/arch/mma_sm90_desc.hpp): K-major, 8-row core matrices whose rows
// are 16 bytes apart without swizzle (LBO between K chunks, SBO between
// row groups) or a swizzle's width apart (SBO between row groups);
// MN-major, 8 K-rows of 16 bytes without swizzle (SBO between MN chunks,
// LBO between K groups) or of the swizzle's width (LBO between MN atoms,
// SBO between K groups). Fragments follow the PTX ISA's wgmma figures.
//
// Each case prints "ok" or what differs; the program exits 1 if any case
// differs. Build: nvcc -arch=sm_90a -lineinfo tma_wgmma.cu -lcuda
#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t Err = (call);                                                  \
    if (Err != cudaSuccess) {                                                  \
      printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(Err));      \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

static int Failures = 0;
// `tma_wgmma N` runs case N alone (a fault stops the whole process).
static int Only = -1, Next = 0;
static bool selected() { return Only < 0 || Next++ == Only; }

static void report(const char *Name, int Bad, int Total) {
  if (Bad)
    printf("%-44s %d of %d differ\n", Name, Bad, Total);
  else
    printf("%-44s ok (%d)\n", Name, Total);
  Failures += Bad != 0;
}

__device__ inline uint32_t smem(const void *P) {
  return uint32_t(__cvta_generic_to_shared(P));
}

__device__ inline void waitParity(uint32_t Bar, uint32_t Parity) {
  uint32_t Done = 0;
  while (!Done)
    asm volatile("{\n.reg .pred p;\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 "selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(Done)
                 : "r"(Bar), "r"(Parity)
                 : "memory");
}

// Shared memory: boxes and operands at 1024-byte boundaries (the 128-byte
// swizzle repeats every 1024 bytes), the mbarrier at the end.
constexpr unsigned SmemBytes = 32768;

// ---------------------------------------------------------------- TMA ----

// Loads the box of Map at (X, Y, Z) and copies its Bytes out.
__global__ void tmaLoad(const __grid_constant__ CUtensorMap Map, int Rank,
                        int X, int Y, int Z, unsigned Bytes, uint8_t *Out) {
  extern __shared__ __align__(1024) uint8_t Smem[];
  const uint32_t Bar = smem(Smem + SmemBytes), Dst = smem(Smem);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(Bar));
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                     Bar),
                 "r"(Bytes)
                 : "memory");
    if (Rank == 2)
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
                   "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::
                       "r"(Dst),
                   "l"(&Map), "r"(X), "r"(Y), "r"(Bar)
                   : "memory");
    else
      asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile."
                   "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], "
                   "[%5];" ::"r"(Dst),
                   "l"(&Map), "r"(X), "r"(Y), "r"(Z), "r"(Bar)
                   : "memory");
  }
  __syncthreads();
  waitParity(Bar, 0);
  for (unsigned I = threadIdx.x; I < Bytes; I += blockDim.x)
    Out[I] = Smem[I];
}

// Stores In's Bytes, placed in shared memory, as the box of Map at (X, Y).
__global__ void tmaStore(const __grid_constant__ CUtensorMap Map, int X,
                         int Y, unsigned Bytes, const uint8_t *In) {
  extern __shared__ __align__(1024) uint8_t Smem[];
  for (unsigned I = threadIdx.x; I < Bytes; I += blockDim.x)
    Smem[I] = In[I];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group "
                 "[%0, {%1, %2}], [%3];" ::"l"(&Map),
                 "r"(X), "r"(Y), "r"(smem(Smem))
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

struct TmaCase {
  const char *Name;
  CUtensorMapDataType Type;
  unsigned Elem, Rank;
  uint64_t Dims[3];
  uint64_t Pitch; // Bytes between rows (and Pitch * Dims[1] between planes).
  uint32_t Box[3];
  CUtensorMapSwizzle Swizzle;
  int At[3];
};

static unsigned swizzleOf(CUtensorMapSwizzle S) {
  return S == CU_TENSOR_MAP_SWIZZLE_128B  ? 128
         : S == CU_TENSOR_MAP_SWIZZLE_64B ? 64
         : S == CU_TENSOR_MAP_SWIZZLE_32B ? 32
                                          : 0;
}

// Where byte Off of a dense box lies in shared memory (1024-aligned).
static unsigned swizzled(unsigned Off, unsigned Width) {
  const unsigned Mask = Width == 128 ? 7 : Width == 64 ? 3 : Width == 32 ? 1 : 0;
  return Off ^ (((Off >> 7) & Mask) << 4);
}

static CUtensorMap makeMap(const TmaCase &C, void *Base) {
  CUtensorMap Map;
  cuuint64_t Dims[3] = {C.Dims[0], C.Dims[1], C.Dims[2]};
  cuuint64_t Strides[2] = {C.Pitch, C.Pitch * C.Dims[1]};
  cuuint32_t Box[3] = {C.Box[0], C.Box[1], C.Box[2]};
  cuuint32_t Ones[3] = {1, 1, 1};
  CUresult R = cuTensorMapEncodeTiled(
      &Map, C.Type, C.Rank, Base, Dims, Strides, Box, Ones,
      CU_TENSOR_MAP_INTERLEAVE_NONE, C.Swizzle, CU_TENSOR_MAP_L2_PROMOTION_NONE,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (R != CUDA_SUCCESS) {
    printf("%s: cuTensorMapEncodeTiled failed (%d)\n", C.Name, int(R));
    exit(2);
  }
  return Map;
}

static void tmaCases() {
  const TmaCase Cases[] = {
      {"tma 2d bf16 128B swizzle inside", CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2,
       2, {200, 50, 1}, 400, {64, 16, 1}, CU_TENSOR_MAP_SWIZZLE_128B, {64, 8, 0}},
      {"tma 2d bf16 128B swizzle past the end", CU_TENSOR_MAP_DATA_TYPE_BFLOAT16,
       2, 2, {200, 50, 1}, 400, {64, 16, 1}, CU_TENSOR_MAP_SWIZZLE_128B,
       {160, 40, 0}},
      {"tma 2d bf16 128B swizzle before the start",
       CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, 2, {200, 50, 1}, 400, {64, 16, 1},
       CU_TENSOR_MAP_SWIZZLE_128B, {-8, -3, 0}},
      {"tma 2d f32 64B swizzle", CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, 2,
       {100, 30, 1}, 400, {16, 8, 1}, CU_TENSOR_MAP_SWIZZLE_64B, {8, 4, 0}},
      {"tma 2d f32 32B swizzle past the end", CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4,
       2, {100, 30, 1}, 400, {8, 8, 1}, CU_TENSOR_MAP_SWIZZLE_32B, {96, 25, 0}},
      {"tma 2d u8 no swizzle past the end", CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, 2,
       {300, 20, 1}, 320, {48, 5, 1}, CU_TENSOR_MAP_SWIZZLE_NONE, {256, 17, 0}},
      {"tma 2d u8 wholly outside", CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, 2,
       {300, 20, 1}, 320, {48, 5, 1}, CU_TENSOR_MAP_SWIZZLE_NONE, {400, 2, 0}},
      {"tma 3d bf16 64B swizzle", CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, 3,
       {40, 6, 5}, 80, {32, 4, 3}, CU_TENSOR_MAP_SWIZZLE_64B, {24, 3, 3}},
  };
  for (const TmaCase &C : Cases) {
    if (!selected())
      continue;
    const size_t Size = C.Pitch * C.Dims[1] * C.Dims[2];
    std::vector<uint8_t> Src(Size);
    for (size_t I = 0; I < Size; ++I)
      Src[I] = uint8_t(1 + (I * 131 + I / 251) % 251); // Never 0.
    uint8_t *DSrc, *DOut;
    const unsigned Bytes = C.Box[0] * C.Box[1] * C.Box[2] * C.Elem;
    CHECK(cudaMalloc(&DSrc, Size));
    CHECK(cudaMalloc(&DOut, Bytes));
    CHECK(cudaMemcpy(DSrc, Src.data(), Size, cudaMemcpyHostToDevice));
    CUtensorMap Map = makeMap(C, DSrc);
    tmaLoad<<<1, 128, SmemBytes + 8>>>(Map, int(C.Rank), C.At[0], C.At[1],
                                       C.At[2], Bytes, DOut);
    CHECK(cudaGetLastError());
    std::vector<uint8_t> Got(Bytes), Want(Bytes);
    CHECK(cudaMemcpy(Got.data(), DOut, Bytes, cudaMemcpyDeviceToHost));
    const unsigned W = swizzleOf(C.Swizzle);
    for (unsigned Z = 0; Z < C.Box[2]; ++Z)
      for (unsigned Y = 0; Y < C.Box[1]; ++Y)
        for (unsigned X = 0; X < C.Box[0]; ++X) {
          const long GX = C.At[0] + long(X), GY = C.At[1] + long(Y),
                     GZ = C.At[2] + long(Z);
          const bool In = GX >= 0 && GX < long(C.Dims[0]) && GY >= 0 &&
                          GY < long(C.Dims[1]) && GZ >= 0 &&
                          GZ < long(C.Dims[2]);
          const unsigned Off = ((Z * C.Box[1] + Y) * C.Box[0] + X) * C.Elem;
          for (unsigned B = 0; B < C.Elem; ++B)
            Want[swizzled(Off + B, W)] =
                In ? Src[(GZ * C.Dims[1] + GY) * C.Pitch + GX * C.Elem + B] : 0;
        }
    int Bad = 0;
    for (unsigned I = 0; I < Bytes; ++I)
      Bad += Got[I] != Want[I];
    report(C.Name, Bad, int(Bytes));
    CHECK(cudaFree(DSrc));
    CHECK(cudaFree(DOut));
  }

  // A store: the box at (X, Y) written from shared memory, what lies
  // outside the tensor dropped.
  if (!selected())
    return;
  const TmaCase S = {"tma 2d store f32 128B swizzle past the end",
                     CU_TENSOR_MAP_DATA_TYPE_FLOAT32,
                     4,
                     2,
                     {40, 20, 1},
                     160,
                     {32, 8, 1},
                     CU_TENSOR_MAP_SWIZZLE_128B,
                     {24, 16, 0}};
  const size_t Size = S.Pitch * S.Dims[1];
  const unsigned Bytes = S.Box[0] * S.Box[1] * S.Elem;
  std::vector<uint8_t> In(Bytes), Want(Size, 0xee), Got(Size);
  for (unsigned I = 0; I < Bytes; ++I)
    In[I] = uint8_t(I * 7 + 3);
  uint8_t *DDst, *DIn;
  CHECK(cudaMalloc(&DDst, Size));
  CHECK(cudaMalloc(&DIn, Bytes));
  CHECK(cudaMemcpy(DDst, Want.data(), Size, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(DIn, In.data(), Bytes, cudaMemcpyHostToDevice));
  CUtensorMap Map = makeMap(S, DDst);
  tmaStore<<<1, 128, SmemBytes>>>(Map, S.At[0], S.At[1], Bytes, DIn);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(Got.data(), DDst, Size, cudaMemcpyDeviceToHost));
  for (unsigned Y = 0; Y < S.Box[1]; ++Y)
    for (unsigned X = 0; X < S.Box[0]; ++X) {
      const unsigned GX = S.At[0] + X, GY = S.At[1] + Y;
      if (GX >= S.Dims[0] || GY >= S.Dims[1])
        continue;
      for (unsigned B = 0; B < 4; ++B)
        Want[GY * S.Pitch + GX * 4 + B] =
            In[swizzled((Y * S.Box[0] + X) * 4 + B, 128)];
    }
  int Bad = 0;
  for (size_t I = 0; I < Size; ++I)
    Bad += Got[I] != Want[I];
  report(S.Name, Bad, int(Size));
  CHECK(cudaFree(DDst));
  CHECK(cudaFree(DIn));
}

// -------------------------------------------------------------- wgmma ----

// The operands' descriptors: start offset in the shared buffer, leading and
// stride byte offsets, and the swizzle mode (0 none, 1 128B, 2 64B, 3 32B).
struct Desc {
  unsigned Start, Lbo, Sbo, Mode;
};

__device__ inline uint64_t descriptor(uint32_t Base, Desc D) {
  return uint64_t(((Base + D.Start) & 0x3ffff) >> 4) |
         uint64_t(D.Lbo >> 4) << 16 | uint64_t(D.Sbo >> 4) << 32 |
         uint64_t(D.Mode) << 62;
}

#define R4(X, V, I) "+" X(V[I]), "+" X(V[I + 1]), "+" X(V[I + 2]), "+" X(V[I + 3])
#define R8(X, V, I) R4(X, V, I), R4(X, V, I + 4)
#define R16(X, V, I) R8(X, V, I), R8(X, V, I + 8)

// One wgmma of each kind the cases use: Kind picks the instruction. D
// holds the warpgroup's accumulator registers (f32 or s32 as 32-bit words,
// or f16 pairs), Ra the A fragment of the register form.
template <int Kind>
__device__ void mma(uint32_t *D, uint64_t Da, uint64_t Db, const uint32_t *Ra,
                    int ScaleD) {
  float *F = reinterpret_cast<float *>(D);
  if constexpr (Kind == 0) // bf16, N 64, K-major
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, "
                 "%13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, "
                 "%24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, "
                 "0, 0;\n}"
                 : R16("f", F, 0), R16("f", F, 16)
                 : "l"(Da), "l"(Db), "r"(ScaleD));
  if constexpr (Kind == 1) // f16, N 16, K-major
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, 0, 0;\n}"
                 : R8("r", D, 0)
                 : "l"(Da), "l"(Db), "r"(ScaleD));
  if constexpr (Kind == 2) // bf16, N 8
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 "
                 "{%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n}"
                 : R4("r", D, 0)
                 : "l"(Da), "l"(Db), "r"(ScaleD));
  if constexpr (Kind == 3) // f16, N 24, both MN-major
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %14, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n24k16.f32.f16.f16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11}, %12, "
                 "%13, p, 1, 1, 1, 1;\n}"
                 : R8("r", D, 0), R4("r", D, 8)
                 : "l"(Da), "l"(Db), "r"(ScaleD));
  if constexpr (Kind == 4) // bf16, N 16, both MN-major
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1, 1, 1;\n}"
                 : R8("r", D, 0)
                 : "l"(Da), "l"(Db), "r"(ScaleD));
  if constexpr (Kind == 5) // f16 accumulators, N 16
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n16k16.f16.f16.f16 "
                 "{%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n}"
                 : R4("r", D, 0)
                 : "l"(Da), "l"(Db), "r"(ScaleD));
  if constexpr (Kind == 6) // tf32, N 16
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n16k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1;\n}"
                 : R8("r", D, 0)
                 : "l"(Da), "l"(Db), "r"(ScaleD));
  if constexpr (Kind == 7) // e4m3, N 16
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n16k32.f32.e4m3.e4m3 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1;\n}"
                 : R8("r", D, 0)
                 : "l"(Da), "l"(Db), "r"(ScaleD));
  if constexpr (Kind == 8) // s8, N 16
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n16k32.s32.s8.s8 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p;\n}"
                 : R8("r", D, 0)
                 : "l"(Da), "l"(Db), "r"(ScaleD));
  if constexpr (Kind == 9) // A from registers, negated; bf16, N 16
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %13, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9, %10, %11}, %12, "
                 "p, -1, 1, 0;\n}"
                 : R8("r", D, 0)
                 : "r"(Ra[0]), "r"(Ra[1]), "r"(Ra[2]), "r"(Ra[3]), "l"(Db),
                   "r"(ScaleD));
  if constexpr (Kind == 10) // f16, N 32, A K-major, B MN-major
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, "
                 "%13, %14, %15}, %16, %17, p, 1, 1, 0, 1;\n}"
                 : R16("r", D, 0)
                 : "l"(Da), "l"(Db), "r"(ScaleD));
}

// One warpgroup: A's and B's bytes into shared memory, D's registers from
// Init, one wgmma, D's registers out (thread T's at T * Regs).
template <int Kind>
__global__ void wgmmaOnce(const uint8_t *A, unsigned ABytes, Desc DA,
                          const uint8_t *B, unsigned BBytes, Desc DB,
                          const uint32_t *Ra, const uint32_t *Init,
                          unsigned Regs, int ScaleD, uint32_t *Out) {
  extern __shared__ __align__(1024) uint8_t Smem[];
  for (unsigned I = threadIdx.x; I < ABytes; I += blockDim.x)
    Smem[I] = A[I];
  for (unsigned I = threadIdx.x; I < BBytes; I += blockDim.x)
    Smem[16384 + I] = B[I];
  uint32_t D[32], RegA[4];
  for (unsigned I = 0; I < Regs; ++I)
    D[I] = Init[threadIdx.x * Regs + I];
  for (unsigned I = 0; I < 4; ++I)
    RegA[I] = Ra[threadIdx.x * 4 + I];
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  const uint32_t Base = smem(Smem);
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
  mma<Kind>(D, descriptor(Base, DA), descriptor(Base + 16384, DB), RegA,
            ScaleD);
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  for (unsigned I = 0; I < Regs; ++I)
    Out[threadIdx.x * Regs + I] = D[I];
}

enum InType { F16, BF16, TF32, E4M3, S8 };

struct MmaCase {
  const char *Name;
  int Kind;
  InType In;
  unsigned N;
  bool AccF16, AccS32;
  bool MnA, MnB;  // MN-major operands (transposed).
  bool RegA;      // A from registers.
  Desc DA, DB;
  int ScaleA, ScaleD;
};

static unsigned inBytes(InType T) {
  return T == TF32 ? 4 : T == E4M3 || T == S8 ? 1 : 2;
}

static uint32_t encode(InType T, int V) {
  switch (T) {
  case F16: {
    __half H = __float2half(float(V));
    uint16_t U;
    memcpy(&U, &H, 2);
    return U;
  }
  case BF16: {
    __nv_bfloat16 H = __float2bfloat16(float(V));
    uint16_t U;
    memcpy(&U, &H, 2);
    return U;
  }
  case TF32: {
    float F = float(V);
    uint32_t U;
    memcpy(&U, &F, 4);
    return U;
  }
  case E4M3: {
    const __nv_fp8_e4m3 H = __nv_fp8_e4m3(float(V));
    uint8_t U;
    memcpy(&U, &H, 1);
    return U;
  }
  default:
    return uint8_t(int8_t(V));
  }
}

// Byte offset (before the swizzle) of element (Row, K) of an operand whose
// rows are M or N, by the canonical layouts above.
static unsigned layoutOffset(bool MnMajor, Desc D, unsigned Elem,
                             unsigned Row, unsigned K) {
  const unsigned W = D.Mode == 1 ? 128 : D.Mode == 2 ? 64 : D.Mode == 3 ? 32 : 0;
  const unsigned T = 16 / Elem;
  if (!MnMajor) {
    if (!W)
      return (Row % 8) * 16 + (Row / 8) * D.Sbo + (K % T) * Elem +
             (K / T) * D.Lbo;
    return (Row % 8) * W + (Row / 8) * D.Sbo + K * Elem;
  }
  if (!W)
    return (Row % T) * Elem + (Row / T) * D.Sbo + (K % 8) * 16 +
           (K / 8) * D.Lbo;
  const unsigned PerAtom = W / Elem;
  return (Row % PerAtom) * Elem + (Row / PerAtom) * D.Lbo + (K % 8) * W +
         (K / 8) * D.Sbo;
}

static unsigned widthOf(Desc D) {
  return D.Mode == 1 ? 128 : D.Mode == 2 ? 64 : D.Mode == 3 ? 32 : 0;
}

template <int Kind> static void runKind(const MmaCase &C);

static void mmaCase(const MmaCase &C) {
  switch (C.Kind) {
  case 0: return runKind<0>(C);
  case 1: return runKind<1>(C);
  case 2: return runKind<2>(C);
  case 3: return runKind<3>(C);
  case 4: return runKind<4>(C);
  case 5: return runKind<5>(C);
  case 6: return runKind<6>(C);
  case 7: return runKind<7>(C);
  case 8: return runKind<8>(C);
  case 9: return runKind<9>(C);
  default: return runKind<10>(C);
  }
}

template <int Kind> static void runKind(const MmaCase &C) {
  const unsigned M = 64, N = C.N, E = inBytes(C.In), K = 32 / E;
  // Small integers: every product and sum is exact in every type.
  std::vector<int> A(M * K), B(K * N);
  for (unsigned I = 0; I < M * K; ++I)
    A[I] = int((I * 7 + I / 13) % 7) - 3;
  for (unsigned I = 0; I < K * N; ++I)
    B[I] = int((I * 5 + I / 11) % 7) - 3;
  std::vector<uint8_t> SA(16384, 0), SB(16384, 0);
  auto place = [&](std::vector<uint8_t> &S, bool Mn, Desc D, unsigned Row,
                   unsigned Kk, int V) {
    const unsigned Off =
        swizzled(D.Start + layoutOffset(Mn, D, E, Row, Kk), widthOf(D));
    const uint32_t Bits = encode(C.In, V);
    memcpy(&S[Off], &Bits, E);
  };
  for (unsigned R = 0; R < M; ++R)
    for (unsigned Kk = 0; Kk < K; ++Kk)
      if (!C.RegA)
        place(SA, C.MnA, C.DA, R, Kk, A[R * K + Kk]);
  for (unsigned R = 0; R < N; ++R)
    for (unsigned Kk = 0; Kk < K; ++Kk)
      place(SB, C.MnB, C.DB, R, Kk, B[Kk * N + R]);
  // Fragments: thread T is lane L of warp W; its register I holds
  // D(16W + L/4 + 8 ((I/2)%2), 8 (I/4) + 2 (L%4) + I%2), two per register
  // for f16; A's register J (a pair) A(16W + L/4 + 8 (J%2), 8 (J/2) + 2 (L%4)).
  const unsigned Elems = N / 2, Regs = C.AccF16 ? Elems / 2 : Elems;
  std::vector<uint32_t> Ra(128 * 4, 0), Init(128 * Regs), Want(128 * Regs);
  for (unsigned T = 0; T < 128; ++T) {
    const unsigned W = T / 32, L = T % 32;
    for (unsigned J = 0; J < 4; ++J) {
      const unsigned Row = 16 * W + L / 4 + 8 * (J % 2),
                     Col = 8 * (J / 2) + 2 * (L % 4);
      Ra[T * 4 + J] = encode(C.In, A[Row * K + Col]) |
                      encode(C.In, A[Row * K + Col + 1]) << 16;
    }
    for (unsigned I = 0; I < Elems; ++I) {
      const unsigned Row = 16 * W + L / 4 + 8 * ((I / 2) % 2),
                     Col = 8 * (I / 4) + 2 * (L % 4) + I % 2;
      const int Start = int((T + 3 * I) % 9) - 4;
      long Sum = 0;
      for (unsigned Kk = 0; Kk < K; ++Kk)
        Sum += long(A[Row * K + Kk]) * B[Kk * N + Col];
      const long Result = C.ScaleA * Sum + (C.ScaleD ? Start : 0);
      uint32_t InitBits, WantBits;
      if (C.AccF16) {
        InitBits = encode(F16, Start);
        WantBits = encode(F16, int(Result));
      } else if (C.AccS32) {
        InitBits = uint32_t(Start);
        WantBits = uint32_t(int32_t(Result));
      } else {
        InitBits = encode(TF32, Start);
        WantBits = encode(TF32, int(Result));
      }
      if (!C.ScaleD)
        InitBits = 0x7fc00000u + I; // Ignored: a NaN that must not show.
      uint32_t &IR = Init[T * Regs + (C.AccF16 ? I / 2 : I)];
      uint32_t &WR = Want[T * Regs + (C.AccF16 ? I / 2 : I)];
      const unsigned Shift = C.AccF16 ? 16 * (I % 2) : 0;
      const uint32_t Mask = C.AccF16 ? 0xffffu : 0xffffffffu;
      IR = (IR & ~(Mask << Shift)) | (InitBits & Mask) << Shift;
      WR = (WR & ~(Mask << Shift)) | (WantBits & Mask) << Shift;
    }
  }
  uint8_t *DA, *DB;
  uint32_t *DRa, *DInit, *DOut;
  CHECK(cudaMalloc(&DA, 16384));
  CHECK(cudaMalloc(&DB, 16384));
  CHECK(cudaMalloc(&DRa, Ra.size() * 4));
  CHECK(cudaMalloc(&DInit, Init.size() * 4));
  CHECK(cudaMalloc(&DOut, Want.size() * 4));
  CHECK(cudaMemcpy(DA, SA.data(), 16384, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(DB, SB.data(), 16384, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(DRa, Ra.data(), Ra.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(DInit, Init.data(), Init.size() * 4,
                   cudaMemcpyHostToDevice));
  CHECK(cudaFuncSetAttribute(wgmmaOnce<Kind>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             SmemBytes));
  wgmmaOnce<Kind><<<1, 128, SmemBytes>>>(DA, C.RegA ? 0 : 16384, C.DA, DB,
                                         16384, C.DB, DRa, DInit, Regs,
                                         C.ScaleD, DOut);
  CHECK(cudaGetLastError());
  std::vector<uint32_t> Got(Want.size());
  CHECK(cudaMemcpy(Got.data(), DOut, Got.size() * 4, cudaMemcpyDeviceToHost));
  int Bad = 0;
  for (size_t I = 0; I < Got.size(); ++I)
    Bad += Got[I] != Want[I];
  report(C.Name, Bad, int(Got.size()));
  CHECK(cudaFree(DA));
  CHECK(cudaFree(DB));
  CHECK(cudaFree(DRa));
  CHECK(cudaFree(DInit));
  CHECK(cudaFree(DOut));
}

static void mmaCases() {
  // Descriptors: Start, LBO, SBO, mode. Without swizzle the K chunks
  // (K-major) or K groups (MN-major) lie LBO apart; with one, LBO is
  // unused for K-major (1, as CUTLASS sets it).
  const MmaCase Cases[] = {
      {"wgmma bf16 n64 K-major 128B swizzle", 0, BF16, 64, false, false,
       false, false, false, {0, 16, 1024, 1}, {0, 16, 1024, 1}, 1, 1},
      {"wgmma bf16 n64 K-major 128B swizzle, k step", 0, BF16, 64, false,
       false, false, false, false, {32, 16, 1024, 1}, {64, 16, 1024, 1}, 1,
       1},
      {"wgmma f16 n16 K-major no swizzle", 1, F16, 16, false, false, false,
       false, false, {0, 128, 256, 0}, {0, 2048, 128, 0}, 1, 1},
      {"wgmma bf16 n8 K-major 32B swizzle", 2, BF16, 8, false, false, false,
       false, false, {0, 16, 256, 3}, {0, 16, 256, 3}, 1, 0},
      {"wgmma f16 n24 MN-major 64B swizzle", 3, F16, 24, false, false, true,
       true, false, {0, 1024, 512, 2}, {0, 1024, 512, 2}, 1, 1},
      {"wgmma bf16 n16 MN-major no swizzle", 4, BF16, 16, false, false, true,
       true, false, {0, 1024, 128, 0}, {0, 256, 128, 0}, 1, 1},
      {"wgmma f16 accumulators n16", 5, F16, 16, true, false, false, false,
       false, {0, 16, 1024, 1}, {0, 16, 512, 2}, 1, 1},
      {"wgmma tf32 n16 K-major 128B swizzle", 6, TF32, 16, false, false,
       false, false, false, {0, 16, 1024, 1}, {0, 16, 1024, 1}, 1, 1},
      {"wgmma e4m3 n16 K-major 64B swizzle", 7, E4M3, 16, false, false, false,
       false, false, {0, 16, 512, 2}, {0, 16, 512, 2}, 1, 1},
      {"wgmma s8 n16 K-major no swizzle", 8, S8, 16, false, true, false, false,
       false, {0, 128, 256, 0}, {0, 128, 256, 0}, 1, 1},
      {"wgmma bf16 A in registers, negated", 9, BF16, 16, false, false, false,
       false, true, {0, 0, 0, 0}, {0, 16, 1024, 1}, -1, 1},
      {"wgmma f16 n32 B MN-major 128B swizzle", 10, F16, 32, false, false,
       false, true, false, {0, 16, 1024, 1}, {0, 2048, 1024, 1}, 1, 0},
  };
  for (const MmaCase &C : Cases)
    if (selected())
      mmaCase(C);
}

// --------------------------------------------------------------- GEMM ----

// C (M x N, f32, row-major) = A (M x K, bf16, row-major) times B, given as
// Bt (N x K, bf16, row-major): each block a 64 x 64 tile of C, one
// warpgroup, K in steps of 64 loaded by TMA with the 128-byte swizzle.
__global__ void gemm(const __grid_constant__ CUtensorMap MapA,
                     const __grid_constant__ CUtensorMap MapB, float *C,
                     int N, int K) {
  extern __shared__ __align__(1024) uint8_t Smem[];
  const uint32_t A = smem(Smem), B = A + 8192, Bar = A + 16384;
  const int Row0 = blockIdx.y * 64, Col0 = blockIdx.x * 64;
  float D[32];
  for (int I = 0; I < 32; ++I)
    D[I] = 0.f;
  if (threadIdx.x == 0)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(Bar));
  __syncthreads();
  for (int K0 = 0, Phase = 0; K0 < K; K0 += 64, Phase ^= 1) {
    if (threadIdx.x == 0) {
      asm volatile(
          "mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 16384;" ::"r"(
              Bar)
          : "memory");
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
                   "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::
                       "r"(A),
                   "l"(&MapA), "r"(K0), "r"(Row0), "r"(Bar)
                   : "memory");
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
                   "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::
                       "r"(B),
                   "l"(&MapB), "r"(K0), "r"(Col0), "r"(Bar)
                   : "memory");
    }
    waitParity(Bar, Phase);
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    for (int S = 0; S < 4; ++S) {
      const uint64_t Da = descriptor(A, {unsigned(32 * S), 16, 1024, 1}),
                     Db = descriptor(B, {unsigned(32 * S), 16, 1024, 1});
      mma<0>(reinterpret_cast<uint32_t *>(D), Da, Db, nullptr, 1);
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    __syncthreads(); // Every warp is done with the tiles before the next.
  }
  const int W = threadIdx.x / 32, L = threadIdx.x % 32;
  for (int I = 0; I < 32; ++I) {
    const int Row = Row0 + 16 * W + L / 4 + 8 * ((I / 2) % 2),
              Col = Col0 + 8 * (I / 4) + 2 * (L % 4) + I % 2;
    C[Row * N + Col] = D[I];
  }
}

static void gemmCase() {
  if (!selected())
    return;
  const int M = 128, N = 192, K = 256;
  std::vector<__nv_bfloat16> A(M * K), Bt(N * K);
  std::vector<int> IA(M * K), IB(N * K);
  for (int I = 0; I < M * K; ++I) {
    IA[I] = (I * 7 + I / 17) % 5 - 2;
    A[I] = __float2bfloat16(float(IA[I]));
  }
  for (int I = 0; I < N * K; ++I) {
    IB[I] = (I * 3 + I / 19) % 5 - 2;
    Bt[I] = __float2bfloat16(float(IB[I]));
  }
  __nv_bfloat16 *DA, *DB;
  float *DC;
  CHECK(cudaMalloc(&DA, A.size() * 2));
  CHECK(cudaMalloc(&DB, Bt.size() * 2));
  CHECK(cudaMalloc(&DC, size_t(M) * N * 4));
  CHECK(cudaMemcpy(DA, A.data(), A.size() * 2, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(DB, Bt.data(), Bt.size() * 2, cudaMemcpyHostToDevice));
  const TmaCase TA = {"A", CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, 2,
                      {uint64_t(K), uint64_t(M), 1}, uint64_t(K) * 2,
                      {64, 64, 1}, CU_TENSOR_MAP_SWIZZLE_128B, {0, 0, 0}};
  const TmaCase TB = {"B", CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, 2,
                      {uint64_t(K), uint64_t(N), 1}, uint64_t(K) * 2,
                      {64, 64, 1}, CU_TENSOR_MAP_SWIZZLE_128B, {0, 0, 0}};
  CUtensorMap MapA = makeMap(TA, DA), MapB = makeMap(TB, DB);
  CHECK(cudaFuncSetAttribute(gemm, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             SmemBytes));
  gemm<<<dim3(N / 64, M / 64), 128, SmemBytes>>>(MapA, MapB, DC, N, K);
  CHECK(cudaGetLastError());
  std::vector<float> C(size_t(M) * N);
  CHECK(cudaMemcpy(C.data(), DC, C.size() * 4, cudaMemcpyDeviceToHost));
  int Bad = 0;
  for (int R = 0; R < M; ++R)
    for (int Col = 0; Col < N; ++Col) {
      long Sum = 0;
      for (int Kk = 0; Kk < K; ++Kk)
        Sum += long(IA[R * K + Kk]) * IB[Col * K + Kk];
      Bad += C[size_t(R) * N + Col] != float(Sum);
    }
  report("gemm 128x192x256 bf16, TMA and wgmma", Bad, M * N);
  CHECK(cudaFree(DA));
  CHECK(cudaFree(DB));
  CHECK(cudaFree(DC));
}

int main(int argc, char **argv) {
  if (argc > 1)
    Only = atoi(argv[1]);
  CHECK(cudaFuncSetAttribute(tmaLoad,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             SmemBytes + 8));
  CHECK(cudaFuncSetAttribute(tmaStore,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             SmemBytes));
  tmaCases();
  mmaCases();
  gemmCase();
  CHECK(cudaDeviceSynchronize());
  printf("%d case(s) differ\n", Failures);
  return Failures ? 1 : 0;
}
