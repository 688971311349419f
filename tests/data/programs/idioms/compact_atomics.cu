// Stream compaction with warp-aggregated atomics, as cuda-samples'
// warpAggregatedAtomicsCG writes it: each warp's first selected lane adds
// the warp's count to a global counter, and the old value, broadcast,
// places the warp's elements. Where several warps race for the counter,
// which one gets which slot is the GPU's timing (two H200 runs of the
// sample's filter_arr stored 1273357 and 1273962 sectors); in a launch of
// one warp it is fixed, and so it is in a launch of many warps of which
// only one has elements to place.
#include <cstdio>
#include <cstdlib>

__device__ int slotFor(int *Counter) {
  const unsigned Active = __activemask();
  const int Leader = __ffs(Active) - 1;
  const int Lane = threadIdx.x % 32;
  int Base = 0;
  if (Lane == Leader)
    Base = atomicAdd(Counter, __popc(Active));
  Base = __shfl_sync(Active, Base, Leader);
  return Base + __popc(Active & ((1u << Lane) - 1));
}

__global__ void compact(const int *In, int *Out, int *Counter, int N) {
  for (int I = blockIdx.x * blockDim.x + threadIdx.x; I < N;
       I += gridDim.x * blockDim.x)
    if (In[I] > 0)
      Out[slotFor(Counter)] = In[I];
}

int main() {
  const int N = 1 << 14;
  int *Host = new int[N], Positive = 0;
  for (int I = 0; I < N; ++I) {
    Host[I] = (I * 7919) % 13 < 5 ? 1 + I % 100 : 0;
    Positive += Host[I] > 0;
  }
  int *In, *Out, *Counter;
  cudaMalloc(&In, N * sizeof(int));
  cudaMalloc(&Out, N * sizeof(int));
  cudaMalloc(&Counter, sizeof(int));
  cudaMemcpy(In, Host, N * sizeof(int), cudaMemcpyHostToDevice);
  int FirstPositive = 0; // Of the first 32 elements.
  for (int I = 0; I < 32; ++I)
    FirstPositive += Host[I] > 0;
  int Got[3];
  for (int Config = 0; Config < 3; ++Config) {
    cudaMemset(Counter, 0, sizeof(int));
    if (Config == 0)
      compact<<<1, 32>>>(In, Out, Counter, N); // One warp: no race.
    else if (Config == 1)
      compact<<<16, 256>>>(In, Out, Counter, N);
    else // 32 warps, of which only the first has elements: no race.
      compact<<<4, 256>>>(In, Out, Counter, 32);
    cudaMemcpy(&Got[Config], Counter, sizeof(int), cudaMemcpyDeviceToHost);
  }
  const bool Ok =
      Got[0] == Positive && Got[1] == Positive && Got[2] == FirstPositive;
  std::printf("%d and %d of %d kept (%d positive), %d of 32 (%d): %s\n",
              Got[0], Got[1], N, Positive, Got[2], FirstPositive,
              Ok ? "PASSED" : "FAILED");
  cudaFree(In);
  cudaFree(Out);
  cudaFree(Counter);
  delete[] Host;
  return Ok ? 0 : 1;
}
