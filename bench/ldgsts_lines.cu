// Measures what the per-line (SASS) counters see of async copies: the
// instructions and global sectors Nsight Compute's source view and
// gmem-verify's line table give an LDGSTS, beside the kernel's L1 counts.
// Each launch copies with one lane layout of ldgsts_layouts.h, through L1
// (.ca, 4 and 16 bytes) or bypassing it (.cg, 16 bytes), without an L2
// prefetch hint and with .L2::128B (how CUTLASS-style GEMMs write it) or
// .L2::256B.
//
// Measured with gmem-verify as docs/programs/issue30_ldgsts_lines.txt says
// (tests/data/measured/ldgsts/lines.json).
//
// Build: nvcc -arch=sm_90 -lineinfo -o ldgsts_lines ldgsts_lines.cu
#include <cstdio>
#include <cuda_runtime.h>

#include "ldgsts_layouts.h"

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

// Hint: 0 none, else the L2 prefetch size in bytes.
template <int Size, bool Bypass, int Hint>
__device__ void copyOne(unsigned Dst, const char *Src) {
  if constexpr (Bypass && Hint == 0)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(Dst),
                 "l"(Src));
  else if constexpr (Bypass && Hint == 128)
    asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;\n" ::"r"(
                     Dst),
                 "l"(Src));
  else if constexpr (Bypass)
    asm volatile("cp.async.cg.shared.global.L2::256B [%0], [%1], 16;\n" ::"r"(
                     Dst),
                 "l"(Src));
  else if constexpr (Hint == 0)
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(Dst),
                 "l"(Src), "n"(Size));
  else
    asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], %2;\n" ::"r"(
                     Dst),
                 "l"(Src), "n"(Size));
}

template <int Size, bool Bypass, int Hint>
__global__ void copyLines(const char *In, int Reps) {
  __shared__ __align__(128) char Buf[8 * 4096];
  const unsigned Lane = threadIdx.x % 32, Warp = threadIdx.x / 32;
  for (int R = 0; R < Reps; ++R) {
    const char *Src = In + ((size_t)(blockIdx.x * Reps + R) * 8 + Warp) * 8192 +
                      GlobalOffset[Lane];
    const unsigned Dst = (unsigned)__cvta_generic_to_shared(Buf + Warp * 4096 +
                                                            SharedOffset[Lane]);
    copyOne<Size, Bypass, Hint>(Dst, Src);
    asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::);
  }
}

int main() {
  const int Blocks = 64, Reps = 4;
  const size_t Bytes = (size_t)Blocks * Reps * 8 * 8192 + 8192;
  char *In;
  CHECK(cudaMalloc(&In, Bytes));
  CHECK(cudaMemset(In, 1, Bytes));
  // Launch order: layout, then 4 bytes through L1 (no hint, 128B), 16
  // bytes through L1 (no hint, 128B), 16 bytes bypassing (no hint, 128B,
  // 256B).
  for (int P = 0; P < Layouts; ++P)
    for (unsigned Size : {4u, 16u}) {
      unsigned G[32], S[32];
      if (!layoutLanes(P, Size, G, S))
        continue;
      CHECK(cudaMemcpyToSymbol(GlobalOffset, G, sizeof G));
      CHECK(cudaMemcpyToSymbol(SharedOffset, S, sizeof S));
      if (Size == 4) {
        copyLines<4, false, 0><<<Blocks, 256>>>(In, Reps);
        copyLines<4, false, 128><<<Blocks, 256>>>(In, Reps);
      } else {
        copyLines<16, false, 0><<<Blocks, 256>>>(In, Reps);
        copyLines<16, false, 128><<<Blocks, 256>>>(In, Reps);
        copyLines<16, true, 0><<<Blocks, 256>>>(In, Reps);
        copyLines<16, true, 128><<<Blocks, 256>>>(In, Reps);
        copyLines<16, true, 256><<<Blocks, 256>>>(In, Reps);
      }
      CHECK(cudaGetLastError());
    }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(In));
  printf("done\n");
  return 0;
}
