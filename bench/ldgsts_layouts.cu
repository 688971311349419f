// Measures the shared side of async copies (cp.async, LDGSTS) for lane
// layouts chosen to tell rules apart: each launch copies with one layout
// (lane L reads global byte offset G(L) and writes shared byte offset S(L)
// of its warp's region), 4, 8 or 16 bytes a lane, through L1 (.ca) and,
// for 16 bytes, bypassing it (.cg). No shared load follows, so the GPU's
// shared efficiency is the copies' bytes over their wavefronts.
//
// Measured as tests/data/measured/ldgsts/README.md says; the layouts are
// in ldgsts_layouts.h, which tests/simulator/async_copy_units_test.cpp
// reads too.
//
// Build: nvcc -arch=sm_90 -lineinfo -o ldgsts_layouts ldgsts_layouts.cu
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
      if (!layoutLanes(P, Size, G, S))
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
