// Shared-memory atomics under lane patterns that tell apart how the GPU
// counts the wavefronts of an ATOMS request when lanes share a word or a
// bank. Each launch is one warp of one block, so the per-line counters read
// exact integers. Kernels (the line of the atomic is what is compared):
//   addUsed    old = atomicAdd(&s[pick], lane + 1), the old value stored
//   addUnused  atomicAdd(&s[pick], lane + 1), the result ignored
//   increment  atomicAdd(&s[pick], 1), the result ignored (a histogram's)
//   maxUsed    old = atomicMax(&s[pick], lane)
//   casUsed    old = atomicCAS(&s[pick], 0, lane + 1)
//   addFloat   atomicAdd(&f[pick], 1.0f), the result ignored
//   addDouble  atomicAdd(&d[pick], 1.0), the result ignored (8-byte words)
// P, in words (ROW = 1024 words: the same bank):
//   0 lane                  distinct words, distinct banks
//   1 0                     one word for the whole warp
//   2 lane / 2              pairs of lanes share a word
//   3 lane % 8              8 words, 4 lanes each
//   4 lane < 16 ? 0 : lane  16 lanes on word 0, then distinct
//   5 2 * lane              every other word: 2 lanes a bank
//   6 8 * lane              8 lanes a bank, distinct words
//   7 (lane % 2) * ROW      two words of one bank, 16 lanes each
//   8 (lane / 16) * ROW + lane % 4   two rows, 4 words each, 4 lanes each
//   9 min(lane, 11)         distinct, then 21 lanes on word 11
//  10 lane % 16             the two half-warps on the same words
//  11 32 * lane             32 words of one bank
//  12 lane, lanes below 8 only   a partial warp
//
// Build: nvcc -arch=sm_90 -lineinfo -o shared_contention shared_contention.cu
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  {                                                                            \
    const cudaError_t error = call;                                            \
    if (error != cudaSuccess) {                                                \
      printf("Error: %s:%d, %s\n", __FILE__, __LINE__,                         \
             cudaGetErrorString(error));                                       \
      exit(1);                                                                 \
    }                                                                          \
  }

#define ROW 1024
#define WORDS (2 * ROW)
#define PATTERNS 13

__host__ __device__ __forceinline__ int pick(int p, int lane) {
  switch (p) {
  case 0:
    return lane;
  case 1:
    return 0;
  case 2:
    return lane / 2;
  case 3:
    return lane % 8;
  case 4:
    return lane < 16 ? 0 : lane;
  case 5:
    return 2 * lane;
  case 6:
    return 8 * lane;
  case 7:
    return (lane % 2) * ROW;
  case 8:
    return (lane / 16) * ROW + lane % 4;
  case 9:
    return min(lane, 11);
  case 10:
    return lane % 16;
  case 11:
    return 32 * lane;
  default:
    return lane;
  }
}

// Every lane clears its share of the words, so the atomics see zeros (a
// loop of constant trips: nvcc unrolls it whole, no lane predicated off).
template <class T> __device__ void clear(T *s) {
  for (int k = 0; k < WORDS / 32; ++k)
    s[k * 32 + threadIdx.x] = 0;
  __syncthreads();
}

__global__ void addUsed(int p, int *old) {
  __shared__ int s[WORDS];
  clear(s);
  const int lane = threadIdx.x;
  if (p == 12 && lane >= 8)
    return;
  old[lane] = atomicAdd(&s[pick(p, lane)], lane + 1);
}

__global__ void addUnused(int p, int *sum) {
  __shared__ int s[WORDS];
  clear(s);
  const int lane = threadIdx.x;
  if (p != 12 || lane < 8)
    atomicAdd(&s[pick(p, lane)], lane + 1);
  __syncthreads();
  sum[lane] = s[pick(p, lane)];
}

__global__ void increment(int p, int *count) {
  __shared__ int s[WORDS];
  clear(s);
  const int lane = threadIdx.x;
  if (p != 12 || lane < 8)
    atomicAdd(&s[pick(p, lane)], 1);
  __syncthreads();
  count[lane] = s[pick(p, lane)];
}

__global__ void maxUsed(int p, int *old) {
  __shared__ int s[WORDS];
  clear(s);
  const int lane = threadIdx.x;
  if (p == 12 && lane >= 8)
    return;
  old[lane] = atomicMax(&s[pick(p, lane)], lane);
}

__global__ void casUsed(int p, int *old) {
  __shared__ int s[WORDS];
  clear(s);
  const int lane = threadIdx.x;
  if (p == 12 && lane >= 8)
    return;
  old[lane] = atomicCAS(&s[pick(p, lane)], 0, lane + 1);
}

__global__ void addFloat(int p, float *sum) {
  __shared__ float f[WORDS];
  clear(f);
  const int lane = threadIdx.x;
  if (p != 12 || lane < 8)
    atomicAdd(&f[pick(p, lane)], 1.0f);
  __syncthreads();
  sum[lane] = f[pick(p, lane)];
}

__global__ void addDouble(int p, double *sum) {
  __shared__ double d[WORDS];
  clear(d);
  const int lane = threadIdx.x;
  if (p != 12 || lane < 8)
    atomicAdd(&d[pick(p, lane)], 1.0);
  __syncthreads();
  sum[lane] = d[pick(p, lane)];
}

int main() {
  int *d;
  CHECK(cudaMalloc(&d, 32 * sizeof(double)));
  int h[32];
  // Checks what every pattern must give: the sum of the lanes on a word.
  for (int p = 0; p < PATTERNS; ++p) {
    addUsed<<<1, 32>>>(p, d);
    addUnused<<<1, 32>>>(p, d);
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int lane = 0; lane < (p == 12 ? 8 : 32); ++lane) {
      int want = 0;
      for (int other = 0; other < (p == 12 ? 8 : 32); ++other)
        want += pick(p, other) == pick(p, lane) ? other + 1 : 0;
      if (h[lane] != want) {
        printf("addUnused pattern %d lane %d: %d, not %d\n", p, lane, h[lane],
               want);
        return 1;
      }
    }
    increment<<<1, 32>>>(p, d);
    maxUsed<<<1, 32>>>(p, d);
    casUsed<<<1, 32>>>(p, d);
    addFloat<<<1, 32>>>(p, reinterpret_cast<float *>(d));
    addDouble<<<1, 32>>>(p, reinterpret_cast<double *>(d));
  }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(d));
  printf("shared_contention: %d patterns checked\n", PATTERNS);
  return 0;
}
