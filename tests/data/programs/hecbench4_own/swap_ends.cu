// Reverses a byte array 16 bytes at a time: each thread loads a chunk from
// the front and one from the back through one inlined helper (__ldg of a
// uint4) and stores them swapped. nvcc's line table gives both loads to the
// helper's first call site ("line 131 of sm_32_intrinsics.hpp inlined at
// line 14, inlined at line 27"), and the GPU counts both on the header's
// line, as it counted HeCBench reverse2D's (docs/PUBLIC_PROGRAMS.md,
// session 36).
#include <cstdio>
#include <cuda_runtime.h>

struct Chunk {
  uint4 V;
  __device__ __forceinline__ void load(const unsigned char *P, int I) {
    V = __ldg(reinterpret_cast<const uint4 *>(P + I));
  }
  __device__ __forceinline__ void store(unsigned char *P, int I) const {
    *reinterpret_cast<uint4 *>(P + I) = V;
  }
};

__global__ void swapEnds(unsigned char *Out, const unsigned char *In, int N) {
  int T = blockIdx.x * blockDim.x + threadIdx.x;
  int Front = T * 16, Back = N - 16 - T * 16;
  if (Front >= N / 2)
    return;
  Chunk A, B;
  A.load(In, Front);
  B.load(In, Back);
  A.store(Out, Back);
  B.store(Out, Front);
}

int main() {
  const int N = 1 << 20;
  unsigned char *In, *Out;
  cudaMalloc(&In, N);
  cudaMalloc(&Out, N);
  unsigned char *H = new unsigned char[N];
  for (int I = 0; I < N; ++I)
    H[I] = static_cast<unsigned char>(I * 7);
  cudaMemcpy(In, H, N, cudaMemcpyHostToDevice);
  swapEnds<<<N / 32 / 256, 256>>>(Out, In, N);
  cudaMemcpy(H, Out, N, cudaMemcpyDeviceToHost);
  int Bad = 0;
  for (int I = 0; I < N; ++I)
    Bad += H[I] !=
           static_cast<unsigned char>((N - 1 - I) / 16 * 16 * 7 + I % 16 * 7);
  std::printf("%s\n", Bad ? "FAIL" : "PASS");
  cudaFree(In);
  cudaFree(Out);
  delete[] H;
  return Bad != 0;
}
