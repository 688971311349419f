// Measures the shared side of async copies (cp.async, LDGSTS) for lane
// layouts chosen to tell rules apart: each launch copies with one layout
// (lane L reads global byte offset G(L) and writes shared byte offset S(L)
// of its warp's region), 4, 8 or 16 bytes a lane, through L1 (.ca) and,
// for 16 bytes, bypassing it (.cg). No shared load follows, so the GPU's
// shared efficiency is the copies' bytes over their wavefronts.
//
// Measured as tests/data/measured/ldgsts/README.md says; the layouts are
// re-created in tests/simulator/async_copy_units_test.cpp (layoutOf).
//
// Build: nvcc -arch=sm_90 -lineinfo -o ldgsts_layouts ldgsts_layouts.cu
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t E = (call);                                                    \
    if (E != cudaSuccess) {                                                    \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(E));                                          \
      return 1;                                                                \
    }                                                                          \
  } while (0)

__constant__ unsigned GlobalOffset[32], SharedOffset[32];

constexpr int Layouts = 23;

// The layouts: byte offsets of lane L for Size-byte copies; false where a
// layout is not defined for that size.
__host__ __device__ bool layoutOf(int P, unsigned Size, unsigned L, unsigned &G,
                                  unsigned &S) {
  const unsigned Row = L / 4, Col = L % 4;
  switch (P) {
  case 0:
    G = L * Size;
    S = L * Size;
    return true; // in order
  case 1:
    G = L * Size;
    S = (L ^ 1) * Size;
    return true; // neighbours swapped
  case 2:
    G = L * Size;
    S = (L ^ 8) * Size;
    return true;
  case 3:
    G = L * Size;
    S = (31 - L) * Size;
    return true; // reversed
  case 4:        // rows of 64 bytes 512 apart, chunks rotated per row pair
    G = Row * 512 + Col * 16;
    S = Row * 64 + ((Col + (Row % 8) / 2) % 4) * 16;
    return Size == 16;
  case 5:
    G = Row * 512 + Col * 16;
    S = Row * 64 + Col * 16;
    return Size == 16;
  case 6:
    G = 16 + L * Size;
    S = L * Size;
    return true; // global misaligned
  case 7:
    G = L * 2 * Size;
    S = ((L / 2) + (L % 2) * 32) * Size;
    return true;
  case 8:
    G = L * Size;
    S = (L / 2) * 4 * Size + (L % 2) * Size;
    return true;
  case 9:
    G = L * Size;
    S = L * Size + (L * Size / 128) * 16;
    return true;
  case 10:
    G = (31 - L) * Size;
    S = L * Size;
    return true;
  case 11:
    G = L * Size;
    S = (L ^ 4) * Size;
    return true;
  case 12:
    G = L * Size;
    S = (L ^ 2) * Size;
    return true;
  case 13:
    G = L * Size;
    S = L * Size + 2048 * (L % 2);
    return true;
  case 14:
    G = L * 2 * Size;
    S = L * 2 * Size;
    return true;
  case 15:
    G = L * Size;
    S = L * 128;
    return true; // one bank
  case 16:
    G = L * 128;
    S = L * Size;
    return true; // one line each
  case 17:
    G = (L % 16) * Size;
    S = L * Size;
    return true; // read twice
  case 18:
    G = L * Size;
    S = (L * Size) ^ 64;
    return true;
  case 19:
    G = L * Size;
    S = L * Size + (Size == 16 ? 16 : 0);
    return true;
  case 20:
    G = L * 2 * Size;
    S = L * Size;
    return true;
  case 21:
    G = L * 4 * Size;
    S = L * Size;
    return true;
  case 22:
    G = L * Size;
    S = L * 2 * Size;
    return true;
  }
  return false;
}

template <int Size, bool Bypass>
__global__ void copyLayout(const char *In, int Reps) {
  __shared__ __align__(128) char Buf[8 * 4096];
  const unsigned Lane = threadIdx.x % 32, Warp = threadIdx.x / 32;
  for (int R = 0; R < Reps; ++R) {
    const char *Src = In + ((size_t)(blockIdx.x * Reps + R) * 8 + Warp) * 8192 +
                      GlobalOffset[Lane];
    const unsigned Dst = (unsigned)__cvta_generic_to_shared(Buf + Warp * 4096 +
                                                            SharedOffset[Lane]);
    if (Bypass)
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(Dst),
                   "l"(Src));
    else if (Size == 16)
      asm volatile("cp.async.ca.shared.global [%0], [%1], 16;\n" ::"r"(Dst),
                   "l"(Src));
    else if (Size == 8)
      asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\n" ::"r"(Dst),
                   "l"(Src));
    else
      asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(Dst),
                   "l"(Src));
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::);
  }
}

int main() {
  const int Blocks = 64, Reps = 4;
  const size_t Bytes = (size_t)Blocks * Reps * 8 * 8192 + 8192;
  char *In;
  CHECK(cudaMalloc(&In, Bytes));
  CHECK(cudaMemset(In, 1, Bytes));
  // Launch order: layout, then size 4, 8, 16 (through L1, then bypassing).
  for (int P = 0; P < Layouts; ++P)
    for (unsigned Size : {4u, 8u, 16u}) {
      unsigned G[32], S[32];
      bool Defined = true;
      for (unsigned L = 0; L < 32; ++L)
        Defined = layoutOf(P, Size, L, G[L], S[L]) && Defined;
      if (!Defined)
        continue;
      CHECK(cudaMemcpyToSymbol(GlobalOffset, G, sizeof G));
      CHECK(cudaMemcpyToSymbol(SharedOffset, S, sizeof S));
      if (Size == 4)
        copyLayout<4, false><<<Blocks, 256>>>(In, Reps);
      if (Size == 8)
        copyLayout<8, false><<<Blocks, 256>>>(In, Reps);
      if (Size == 16) {
        copyLayout<16, false><<<Blocks, 256>>>(In, Reps);
        copyLayout<16, true><<<Blocks, 256>>>(In, Reps);
      }
      CHECK(cudaGetLastError());
    }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(In));
  printf("done\n");
  return 0;
}
