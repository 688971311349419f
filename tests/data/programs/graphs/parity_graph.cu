// Built with -rdc=true, as cuda-samples build binaryPartitionCG. Counts
// odd and even values with cooperative groups' binary partition and
// warp-aggregated atomics, launched once directly, then twice through a
// CUDA graph captured from a stream, then directly again. Written for gmem:
// with -rdc=true the PTX keeps each atomicAdd an atom with a result, which
// ptxas makes an ATOMG by one elected lane, and the line table gives the
// first atomic's instruction to the second's line; gmem-verify measures
// the direct launches only (tests/data/measured/graphs).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cstdio>
#include <cstdlib>

namespace cg = cooperative_groups;

__global__ void countParity(const int *In, int *Odds, int *Sums, unsigned N) {
  cg::thread_block_tile<32> Tile =
      cg::tiled_partition<32>(cg::this_thread_block());
  for (unsigned I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += gridDim.x * blockDim.x) {
    int V = In[I];
    auto Part = cg::binary_partition(Tile, V & 1);
    if (V & 1) {
      int Sum = cg::reduce(Part, V, cg::plus<int>());
      if (Part.thread_rank() == 0) {
        atomicAdd(Odds, Part.size());
        atomicAdd(&Sums[0], Sum);
      }
    } else {
      int Sum = cg::reduce(Part, V, cg::plus<int>());
      if (Part.thread_rank() == 0)
        atomicAdd(&Sums[1], Sum);
    }
    cg::sync(Tile);
  }
}

__global__ void clearCounts(int *Odds, int *Sums) {
  if (threadIdx.x == 0) {
    *Odds = 0;
    Sums[0] = Sums[1] = 0;
  }
}

static void check(cudaError_t E, const char *What) {
  if (E != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", What, cudaGetErrorString(E));
    std::exit(1);
  }
}

int main() {
  const unsigned N = 1 << 16;
  int *Host = new int[N];
  long Odd = 0, Sum = 0;
  for (unsigned I = 0; I < N; ++I) {
    Host[I] = int((I * 2654435761u) >> 7) % 50;
    Odd += Host[I] & 1;
    Sum += Host[I];
  }
  int *In, *Odds, *Sums;
  check(cudaMalloc(&In, N * sizeof(int)), "cudaMalloc");
  check(cudaMalloc(&Odds, sizeof(int)), "cudaMalloc");
  check(cudaMalloc(&Sums, 2 * sizeof(int)), "cudaMalloc");
  check(cudaMemcpy(In, Host, N * sizeof(int), cudaMemcpyHostToDevice),
        "cudaMemcpy");

  cudaStream_t S;
  check(cudaStreamCreate(&S), "cudaStreamCreate");
  clearCounts<<<1, 32, 0, S>>>(Odds, Sums);
  countParity<<<64, 256, 0, S>>>(In, Odds, Sums, N);

  cudaGraph_t G;
  cudaGraphExec_t Exec;
  check(cudaStreamBeginCapture(S, cudaStreamCaptureModeGlobal), "capture");
  clearCounts<<<1, 32, 0, S>>>(Odds, Sums);
  countParity<<<32, 128, 0, S>>>(In, Odds, Sums, N);
  check(cudaStreamEndCapture(S, &G), "cudaStreamEndCapture");
  check(cudaGraphInstantiate(&Exec, G, 0), "cudaGraphInstantiate");
  for (int R = 0; R < 2; ++R)
    check(cudaGraphLaunch(Exec, S), "cudaGraphLaunch");

  clearCounts<<<1, 32, 0, S>>>(Odds, Sums);
  countParity<<<16, 512, 0, S>>>(In, Odds, Sums, N);
  int Got[3];
  check(cudaMemcpyAsync(Got, Odds, sizeof(int), cudaMemcpyDeviceToHost, S),
        "cudaMemcpyAsync");
  check(cudaMemcpyAsync(Got + 1, Sums, 2 * sizeof(int), cudaMemcpyDeviceToHost,
                        S),
        "cudaMemcpyAsync");
  check(cudaStreamSynchronize(S), "cudaStreamSynchronize");
  const bool Ok = Got[0] == Odd && long(Got[1]) + Got[2] == Sum;
  std::printf("odd %d of %u, sum %d + %d: %s\n", Got[0], N, Got[1], Got[2],
              Ok ? "PASSED" : "FAILED");
  check(cudaGraphExecDestroy(Exec), "cudaGraphExecDestroy");
  check(cudaGraphDestroy(G), "cudaGraphDestroy");
  cudaFree(In);
  cudaFree(Odds);
  cudaFree(Sums);
  delete[] Host;
  return Ok ? 0 : 1;
}
