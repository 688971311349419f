// Branches that ptxas turns into predicated instructions: warps none of
// whose lanes take the branch still execute them, which a GPU's per-line
// instruction counts include (tests/golden/build_edges_test.cpp,
// PredicatedOff).
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int Block = 256;

// A tree reduction whose active threads thin out: from s = 32 on, whole
// warps have no thread with tid % (2 s) == 0.
__global__ void treeSum(const float *in, float *out) {
  __shared__ float part[Block];
  const unsigned tid = threadIdx.x;
  part[tid] = in[blockIdx.x * Block + tid];
  __syncthreads();
  for (unsigned s = 1; s < Block; s *= 2) {
    if (tid % (2 * s) == 0)
      part[tid] += part[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = part[0];
}

// A bounds check on two coordinates: the last row of blocks has warps
// entirely below the matrix.
__global__ void scaleTile(const float *in, float *out, int rows, int cols) {
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows && c < cols)
    out[r * cols + c] = 2.0f * in[r * cols + c];
}

// Loads of the next step fetched ahead under a guard, in an unrolled loop:
// every warp skips them on the last step.
__global__ void prefetchSum(const float *in, float *out, int steps) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  const int stride = gridDim.x * blockDim.x;
  float next[2], acc = 0.0f;
#pragma unroll
  for (int i = 0; i < 2; ++i)
    next[i] = in[i * stride + tid];
  for (int t = 0; t < steps; ++t) {
    const float a = next[0], b = next[1];
    if (t + 1 < steps) {
#pragma unroll
      for (int i = 0; i < 2; ++i)
        next[i] = in[((t + 1) * 2 + i) * stride + tid];
    }
    acc += a * b;
  }
  out[tid] = acc;
}

// A reduction written for blocks of up to 512 threads, launched with 128:
// no lane passes `blockDim.x >= 256`, yet ptxas predicates those steps
// instead of branching around them, so every warp executes their shared
// loads and store with no request (as reduceSmem of "Professional CUDA C
// Programming" does).
__global__ void unrolledSteps(const float *in, float *out) {
  __shared__ float s[512];
  const unsigned tid = threadIdx.x;
  s[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  if (blockDim.x >= 512 && tid < 256)
    s[tid] += s[tid + 256];
  __syncthreads();
  if (blockDim.x >= 256 && tid < 128)
    s[tid] += s[tid + 128];
  __syncthreads();
  if (blockDim.x >= 128 && tid < 64)
    s[tid] += s[tid + 64];
  __syncthreads();
  if (tid < 32) {
    float v = s[tid] + s[tid + 32];
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (tid == 0)
      out[blockIdx.x] = v;
  }
}

static int check(const char *What, const std::vector<float> &Got,
                 const std::vector<float> &Want) {
  for (size_t I = 0; I < Got.size(); ++I)
    if (Got[I] != Want[I]) {
      std::printf("%s: element %zu is %g, expected %g\n", What, I, Got[I],
                  Want[I]);
      return 1;
    }
  return 0;
}

int main() {
  const int Blocks = 64, N = Blocks * Block;
  std::vector<float> In(N);
  for (int I = 0; I < N; ++I)
    In[I] = float(I % 7);
  float *DIn, *DOut;
  cudaMalloc(&DIn, N * sizeof(float));
  cudaMalloc(&DOut, N * sizeof(float));
  cudaMemcpy(DIn, In.data(), N * sizeof(float), cudaMemcpyHostToDevice);
  int Failed = 0;

  treeSum<<<Blocks, Block>>>(DIn, DOut);
  std::vector<float> Sums(Blocks), WantSums(Blocks, 0.0f);
  cudaMemcpy(Sums.data(), DOut, Blocks * sizeof(float), cudaMemcpyDeviceToHost);
  for (int I = 0; I < N; ++I)
    WantSums[I / Block] += In[I];
  Failed |= check("treeSum", Sums, WantSums);

  const int Rows = 100, Cols = 96;
  scaleTile<<<dim3(Cols / 32, (Rows + 7) / 8), dim3(32, 8)>>>(DIn, DOut, Rows,
                                                              Cols);
  std::vector<float> Tile(Rows * Cols), WantTile(Rows * Cols);
  cudaMemcpy(Tile.data(), DOut, Tile.size() * sizeof(float),
             cudaMemcpyDeviceToHost);
  for (int I = 0; I < Rows * Cols; ++I)
    WantTile[I] = 2.0f * In[I];
  Failed |= check("scaleTile", Tile, WantTile);

  const int Steps = 4, Threads = N / (2 * Steps);
  prefetchSum<<<Threads / Block, Block>>>(DIn, DOut, Steps);
  std::vector<float> Acc(Threads), WantAcc(Threads, 0.0f);
  cudaMemcpy(Acc.data(), DOut, Threads * sizeof(float), cudaMemcpyDeviceToHost);
  for (int T = 0; T < Threads; ++T)
    for (int S = 0; S < Steps; ++S)
      WantAcc[T] += In[(S * 2) * Threads + T] * In[(S * 2 + 1) * Threads + T];
  Failed |= check("prefetchSum", Acc, WantAcc);

  const int Small = 128;
  unrolledSteps<<<N / Small, Small>>>(DIn, DOut);
  std::vector<float> Part(N / Small), WantPart(N / Small, 0.0f);
  cudaMemcpy(Part.data(), DOut, Part.size() * sizeof(float),
             cudaMemcpyDeviceToHost);
  for (int I = 0; I < N; ++I)
    WantPart[I / Small] += In[I];
  Failed |= check("unrolledSteps", Part, WantPart);

  cudaFree(DIn);
  cudaFree(DOut);
  std::printf(Failed ? "FAILED\n" : "PASSED\n");
  return Failed;
}
