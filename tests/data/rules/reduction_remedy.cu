// gmem-bank-conflict's remedy for a tree reduction (rules/bank_conflict.cpp):
// interleaved addressing, index = 2 * s * tid, puts lanes 2s words apart,
// and no padding of a one-dimensional array spreads them. With 256 threads
// (8 warps) the loop runs 8 steps, s = 1 to 128, in which the threads below
// 128 / s work: 4 warps, 2, then 1 in the 6 last steps (12 requests of each
// access per block). A request's lanes are 2s words apart: 32 / 2s of them
// share a bank, at most as many as work, so 2, 4, 8, 8, 8, 4, 2, 1
// wavefronts per step, (4 x 2 + 2 x 4 + 8 + 8 + 8 + 4 + 2 + 1) = 47 per
// access and block, 3.917 per request, 141 for the 3 accesses. Sequential
// addressing (tid < s, s = 128 down to 1) has 4 + 2 + 1 + 5 = 12 requests of
// each access too, each one wavefront: 36 per block. The twin uses it and
// stays silent. The launch's duration with the new loop (its wavefronts in
// every block) stays the launch's fixed cost plus its DRAM time on the
// H100: 2.3 us either way (simulator/launch_time.h does not model the
// barriers' latency, where this change saves time on a GPU).
#include <cuda_runtime.h>

__global__ void reduceInterleaved(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s]; // expected-warning{{up to 8-way bank conflict in shared load of 'sdata': 3.917 wavefronts per request, ideal 1 in reduceInterleaved}} expected-warning{{up to 8-way bank conflict in shared load of 'sdata': 3.917 wavefronts per request, ideal 1 in reduceInterleaved}} expected-warning{{up to 8-way bank conflict in shared store of 'sdata': 3.917 wavefronts per request, ideal 1 in reduceInterleaved}} expected-note{{use sequential addressing}} expected-note{{the loop's shared accesses take 36 wavefronts per block (from 141), each request 1 wavefront, no bank conflict; the launch's predicted duration on the NVIDIA H100 80GB HBM3 goes from 2.6 us to 2.5 us}}
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void reduceSequential(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 64 * 256 * sizeof(float));
  cudaMalloc(&out, 64 * sizeof(float));
  reduceInterleaved<<<64, 256>>>(in, out);
  reduceSequential<<<64, 256>>>(in, out);
  return 0;
}
