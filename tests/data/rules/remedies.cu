// gmem-uncoalesced-load's checked remedies beyond the swap of thread roles
// (rules/coalescing.cpp), each re-simulated before it is offered.
#include <cuda_runtime.h>

// A member of an array of structures: lanes 12 bytes apart, 12 sectors per
// request where 4 hold the warp's 128 bytes. The fix is a structure of
// arrays: 4 sectors per request.
struct Particle {
  float x, y, z;
};
__global__ void readY(const Particle *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].y; // expected-warning{{uncoalesced global load from 'p': 12 sectors per request, ideal 4 (33.33% efficiency) in readY}} expected-note{{structure of arrays}}
}

// A transpose: swapping the thread roles only moves the cost to the store
// (4 to 32 sectors per request), so the fix is a shared tile through which
// each side keeps its order: 32 rows of 33 elements, 4 sectors per request
// on both sides and one wavefront per shared request (lanes 33 words apart
// fall into 32 different banks). The tiled launch's duration is the
// original's with the load at its swapped cost and the tile's requests
// added (simulator/launch_time.h on the H100 sm_90 describes: 8.0 us, L2
// taking the 32-sector loads, to 4.5 us).
__global__ void transposeNaive(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * n + x] = in[x * n + y]; // expected-warning{{uncoalesced global load from 'in': 32 sectors per request, ideal 4 (12.5% efficiency) in transposeNaive}} expected-note{{__shared__ tile[32][33] (rows padded by 1)}} expected-note{{the tile's shared accesses take 1 (current order) and 1 (swapped order) wavefronts per request; the launch's predicted duration on the NVIDIA H100 80GB HBM3 goes from 8.0 us to 4.5 us}}
}

// The same transpose in a grid-stride loop of 32x8 blocks: the tile is
// staged once per iteration. Its rows take 8 threadIdx.y by 32 threadIdx.x
// elements; read back with the roles swapped (8 lanes along x, 4 along y)
// a lane reads word x * (32 + pad) + y, in bank (x * pad + y) mod 32: pads
// 0 to 3 put 8, 4, 2 and 2 words in one bank, a pad of 4 none. Over the
// 1024x1024 floats each side makes 32768 requests: 32 + 4 sectors per
// request now (1179648), 4 + 8 with the roles swapped (393216: the store
// takes 4 rows of 8 lanes), 4 + 4 through the tile (262144).
__global__ void transposeLoop(const float *in, float *out, int n) {
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < n;
       y += gridDim.y * blockDim.y)
    for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < n;
         x += gridDim.x * blockDim.x)
      out[y * n + x] = in[x * n + y]; // expected-warning{{uncoalesced global load from 'in': 32 sectors per request, ideal 4 (12.5% efficiency) in transposeLoop}} expected-note{{in each iteration of the loop, stage each block's elements through a shared tile of 4-byte elements, __shared__ tile[8][36] (rows padded by 4)}} expected-note{{the kernel's global sectors go from 1179648 to 393216, a shared tile does better}} expected-note{{the kernel's global sectors go from 1179648 to 262144}}
}

// A naive SGEMM (seed 004), n = 256, blocks of 32x32: lanes take x, so
// A[x * n + k] puts each lane 1 KiB apart (32 sectors per request), B is a
// broadcast (1) and C a column (32, load and store). Swapping the roles
// makes A the broadcast (1), B and C rows (4): B gets dearer, but of
// 2048 warps x (256 x (32 + 1)) + 2 x 2048 x 32 = 17432576 sectors
// 2048 x 256 x (1 + 4) + 2 x 2048 x 4 = 2637824 remain. The fix also
// gives the launch's duration before and after by simulator/launch_time.h
// on the board sm_90 describes (an H100): L1-bound, 90.7 and 18.0 us.
__global__ void sgemmNaive(const float *A, const float *B, float *C, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float s = 0.0f;
  for (int k = 0; k < n; ++k)
    s += A[x * n + k] * B[k * n + y]; // expected-warning{{uncoalesced global load from 'A': 32 sectors per request, ideal 4 (12.5% efficiency) in sgemmNaive}} expected-note{{the load of 'B' at tests/data/rules/remedies.cu:59:25 goes from 1 to 4 per request; the kernel's global sectors go from 17432576 to 2637824}} expected-note{{the launch's predicted duration on the NVIDIA H100 80GB HBM3 goes from 90.7 us to 18.0 us}}
  C[x * n + y] = 0.5f * C[x * n + y] + s; // expected-warning{{uncoalesced global load from 'C': 32 sectors per request, ideal 4 (12.5% efficiency) in sgemmNaive}}
}

// One thread per row: lanes a row (1 KiB) apart, 32 sectors per request.
// Stored transposed, the thread's index moves one element and the loop's a
// row: 4 sectors per request. The busiest SM's L1 takes one block's 4
// warps x 256 requests x 32 sectors at 2 per cycle (16384 cycles at 1.59
// GHz, 10.3 us, after a 0.5 us DRAM round trip, + 2 us per launch), then
// 2048 cycles: 12.8 us to 3.8 us.
__global__ void rowSums(const float *a, float *sums, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (int j = 0; j < n; ++j)
    s += a[r * n + j]; // expected-warning{{uncoalesced global load from 'a': 32 sectors per request, ideal 4 (12.5% efficiency) in rowSums}} expected-note{{store 'a' transposed (its element [r][j] at [j][r])}} expected-note{{with 'r' and 'j' exchanged in this address: this load takes 4 sectors per request (from 32)}} expected-note{{goes from 12.8 us to 3.8 us}}
  sums[r] = s;
}

int main() {
  const int n = 1024, m = 256;
  float *in, *out, *c;
  Particle *p;
  cudaMalloc(&in, n * n * sizeof(float));
  cudaMalloc(&out, n * n * sizeof(float));
  cudaMalloc(&c, m * m * sizeof(float));
  cudaMalloc(&p, n * sizeof(Particle));
  readY<<<n / 128, 128>>>(p, out);
  transposeNaive<<<dim3(n / 32, n / 32), dim3(32, 32)>>>(in, out, n);
  transposeLoop<<<dim3(8, 32), dim3(32, 8)>>>(in, out, n);
  sgemmNaive<<<dim3(m / 32, m / 32), dim3(32, 32)>>>(in, out, c, m);
  rowSums<<<m / 128, 128>>>(in, out, m);
  return 0;
}
