// Measures how many L1 sectors a warp's global atomicAdd takes when its
// lanes mix repeated and single words within a sector (a histogram of
// random bytes does): one launch of one warp per layout of
// atomic_mixtures.h, first as RED (the result unused), then as ATOM (the
// result stored). gmem-verify's l1tex__t_sectors_pipe_lsu_mem_global_op_red
// and _atom counts of each launch are the layout's sectors.
//
// Measured as tests/data/measured/atomic_mixtures/README.md says.
//
// Build: nvcc -arch=sm_90 -lineinfo -o atomic_mixtures atomic_mixtures.cu
#include <cstdio>
#include <cuda_runtime.h>

#include "atomic_mixtures.h"

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t E = (call);                                                    \
    if (E != cudaSuccess) {                                                    \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(E));                                          \
      return 1;                                                                \
    }                                                                          \
  } while (0)

__global__ void redLayout(unsigned *Table, const unsigned *Words) {
  const unsigned W = Words[threadIdx.x];
  if (W != atomic_mixtures::Inactive)
    atomicAdd(&Table[W], 1u);
}

__global__ void atomLayout(unsigned *Table, const unsigned *Words,
                           unsigned *Old) {
  const unsigned W = Words[threadIdx.x];
  if (W != atomic_mixtures::Inactive)
    Old[threadIdx.x] = atomicAdd(&Table[W], 1u);
}

int main() {
  const std::vector<atomic_mixtures::Layout> Layouts =
      atomic_mixtures::layouts();
  const size_t N = Layouts.size();
  std::vector<unsigned> Words(32 * N);
  for (size_t I = 0; I < N; ++I)
    for (unsigned L = 0; L < 32; ++L)
      Words[32 * I + L] = Layouts[I].Word[L];
  unsigned *Table, *DWords, *Old;
  CHECK(cudaMalloc(&Table, 1024));
  CHECK(cudaMalloc(&DWords, Words.size() * 4));
  CHECK(cudaMalloc(&Old, 128));
  CHECK(cudaMemset(Table, 0, 1024));
  CHECK(cudaMemcpy(DWords, Words.data(), Words.size() * 4,
                   cudaMemcpyHostToDevice));
  for (size_t I = 0; I < N; ++I)
    redLayout<<<1, 32>>>(Table, DWords + 32 * I);
  for (size_t I = 0; I < N; ++I)
    atomLayout<<<1, 32>>>(Table, DWords + 32 * I, Old);
  CHECK(cudaGetLastError());
  // Every lane added 1 twice: the table's sum says every atomic landed.
  unsigned Host[256];
  CHECK(cudaMemcpy(Host, Table, 1024, cudaMemcpyDeviceToHost));
  unsigned long long Sum = 0, Lanes = 0;
  for (unsigned V : Host)
    Sum += V;
  for (unsigned W : Words)
    Lanes += W != atomic_mixtures::Inactive;
  printf("%zu layouts, %llu additions (%s)\n", N, Sum,
         Sum == 2 * Lanes ? "all landed" : "MISSING");
  return Sum == 2 * Lanes ? 0 : 1;
}
