// Bank conflicts under contention: a shared tile read with a stride of
// 1 to 32 words (1- to 32-way conflicts), Reads loads per thread after
// the barrier that follows the fill, the fill from a global buffer or
// from the thread's index. Each kernel runs with one warp per SM, one
// block of 8 warps per SM, 8 such blocks per SM (64 warps) and 4 waves of
// them, so that the wavefronts a conflicting load costs when its warp
// issues it alone can be set beside those it costs when every warp of
// the SM issues it at once, right after the barrier (measured on an H200:
// tests/data/contention).
//
// Build: nvcc -O3 -arch=sm_90 -lineinfo -o bank_contention bank_contention.cu
// Analyze: gmem-analyze bank_contention.cu
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    const cudaError_t Err = (call);                                            \
    if (Err != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(Err));                                   \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

constexpr int TileWords = 1024;
constexpr int SliceCount = 1024; // Blocks read In's slices in turn.

// Lane L of warp W reads word (L * Stride + R * 33 + W) mod 1024 at its
// R-th load: the 32 words are distinct and fall in 32 / gcd(Stride, 32)
// banks, gcd(Stride, 32) lanes to a bank.
__host__ __device__ inline int wordOf(int Lane, int Warp, int R, int Stride) {
  return (Lane * Stride + R * 33 + Warp) & (TileWords - 1);
}

__host__ __device__ inline float fillValue(const float *In, int Block, int I,
                                           bool LoadFirst) {
  return LoadFirst ? In[(Block % SliceCount) * TileWords + I] : float(I);
}

template <int Stride, int Reads, bool LoadFirst>
__global__ void columnReads(const float *In, float *Out) {
  __shared__ float Tile[TileWords];
  for (int I = threadIdx.x; I < TileWords; I += blockDim.x)
    Tile[I] = fillValue(In, blockIdx.x, I, LoadFirst);
  __syncthreads();
  const int Lane = threadIdx.x % 32, Warp = threadIdx.x / 32;
  float Sum = 0;
#pragma unroll
  for (int R = 0; R < Reads; ++R)
    Sum += Tile[wordOf(Lane, Warp, R, Stride)];
  Out[blockIdx.x * blockDim.x + threadIdx.x] = Sum;
}

// The launch configurations: one warp per SM; one block of 8 warps per
// SM; 8 of them per SM (64 warps, as many as an SM of compute capability
// 8.0 or later holds); 4 waves of those.
constexpr int Configs = 4;
inline int blocksOf(int Config, int SMs) {
  return Config < 2 ? SMs : Config == 2 ? SMs * 8 : SMs * 32;
}
inline int threadsOf(int Config) { return Config == 0 ? 32 : 256; }

// Times each configuration of one kernel and prints it.
template <int Stride, int Reads, bool LoadFirst>
void runConfigs(const float *In, float *Out, int SMs, cudaEvent_t Start,
                cudaEvent_t Stop) {
  for (int C = 0; C < Configs; ++C) {
    const int Blocks = blocksOf(C, SMs), Threads = threadsOf(C);
    CHECK(cudaEventRecord(Start));
    columnReads<Stride, Reads, LoadFirst><<<Blocks, Threads>>>(In, Out);
    CHECK(cudaEventRecord(Stop));
    CHECK(cudaGetLastError());
    CHECK(cudaEventSynchronize(Stop));
    float Ms = 0;
    CHECK(cudaEventElapsedTime(&Ms, Start, Stop));
    std::printf("columnReads<%d,%d,%d> %7d %7d %10.1f\n", Stride, Reads,
                int(LoadFirst), Blocks, Threads, Ms * 1e3);
  }
}

// The six strides, 1- to 32-way conflicts.
template <int Reads, bool LoadFirst>
void runStrides(const float *In, float *Out, int SMs, cudaEvent_t Start,
                cudaEvent_t Stop) {
  runConfigs<1, Reads, LoadFirst>(In, Out, SMs, Start, Stop);
  runConfigs<2, Reads, LoadFirst>(In, Out, SMs, Start, Stop);
  runConfigs<4, Reads, LoadFirst>(In, Out, SMs, Start, Stop);
  runConfigs<8, Reads, LoadFirst>(In, Out, SMs, Start, Stop);
  runConfigs<16, Reads, LoadFirst>(In, Out, SMs, Start, Stop);
  runConfigs<32, Reads, LoadFirst>(In, Out, SMs, Start, Stop);
}

int main() {
  int SMs = 0;
  CHECK(cudaDeviceGetAttribute(&SMs, cudaDevAttrMultiProcessorCount, 0));
  const size_t InWords = size_t(SliceCount) * TileWords;
  const size_t OutWords = size_t(SMs) * 32 * 256;
  std::vector<float> HostIn(InWords);
  for (size_t I = 0; I < InWords; ++I)
    HostIn[I] = float(I % 97);
  float *In, *Out;
  CHECK(cudaMalloc(&In, InWords * sizeof(float)));
  CHECK(cudaMalloc(&Out, OutWords * sizeof(float)));
  CHECK(cudaMemcpy(In, HostIn.data(), InWords * sizeof(float),
                   cudaMemcpyHostToDevice));
  cudaEvent_t Start, Stop;
  CHECK(cudaEventCreate(&Start));
  CHECK(cudaEventCreate(&Stop));
  std::printf("%-26s %7s %7s %10s\n", "kernel", "blocks", "threads", "us");
  runStrides<1, false>(In, Out, SMs, Start, Stop);
  runStrides<4, false>(In, Out, SMs, Start, Stop);
  runStrides<16, false>(In, Out, SMs, Start, Stop);
  runStrides<64, false>(In, Out, SMs, Start, Stop);
  runStrides<1, true>(In, Out, SMs, Start, Stop);
  runStrides<4, true>(In, Out, SMs, Start, Stop);
  runStrides<16, true>(In, Out, SMs, Start, Stop);
  runStrides<64, true>(In, Out, SMs, Start, Stop);
  // The last launch, columnReads<32, 64, true> on the last configuration:
  // check its last block.
  std::vector<float> HostOut(OutWords);
  CHECK(cudaMemcpy(HostOut.data(), Out, OutWords * sizeof(float),
                   cudaMemcpyDeviceToHost));
  const int Block = blocksOf(Configs - 1, SMs) - 1;
  const int Threads = threadsOf(Configs - 1);
  for (int T = 0; T < Threads; ++T) {
    const int Lane = T % 32, Warp = T / 32;
    float Want = 0;
    for (int R = 0; R < 64; ++R)
      Want += fillValue(HostIn.data(), Block, wordOf(Lane, Warp, R, 32), true);
    const float Got = HostOut[size_t(Block) * Threads + T];
    if (std::fabs(Got - Want) > 1e-3f * std::fabs(Want) + 1e-3f) {
      std::printf("thread %d of block %d: %f, expected %f\n", T, Block, Got,
                  Want);
      return 1;
    }
  }
  std::printf("checked columnReads<32,64,1>\n");
  CHECK(cudaFree(In));
  CHECK(cudaFree(Out));
  return 0;
}
