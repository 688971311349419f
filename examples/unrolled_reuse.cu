// Kernels whose fully unrolled loops touch the same address more than once:
// nvcc keeps one instruction per distinct address (a load's value is reused
// from a register, an overwritten store is dropped), and loads of a struct's
// members written on different lines become one wide load. The GPU therefore
// issues fewer requests than the source shows; gmem reads the SASS to count
// those it really issues (analyzer/compiled/).
//
// - stencilRows: a 25-tap stencil along a shared row, 4 outputs per thread
//   16 apart; the taps of neighbouring outputs overlap, so 73 distinct
//   addresses are read for 100 taps.
// - stencilColumns: the same along a shared column (a tile stored
//   transposed), 8 apart: 49 distinct addresses for 100 taps, and bank
//   conflicts because lanes are a row of the tile apart.
// - repeatCopy: a loop whose body does not use its counter copies the same
//   element twice; one load and one store are left.
// - lastStore: an unrolled loop storing to one address; only the last
//   store is left.
// - pairMembers: p[i].x and p[i].y read on different lines; one 8-byte
//   load per pair.
// - butterflyShared: a radix-2 butterfly in shared memory (as in the
//   cuda-samples fastWalshTransform): s[2t] and s[2t+1] are read on two
//   lines and written on two lines; nvcc makes one LDS.64 (on the first
//   load's line) and one STS.64 (on the last store's line), each conflict-
//   free: 2 wavefronts per request, the fewest 8 bytes per lane allow.
//
// Build: nvcc -arch=sm_90 -lineinfo -o unrolled_reuse unrolled_reuse.cu
// Analyze: gmem-analyze unrolled_reuse.cu
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  {                                                                            \
    const cudaError_t error = call;                                            \
    if (error != cudaSuccess) {                                                \
      printf("Error: %s:%d, ", __FILE__, __LINE__);                            \
      printf("code:%d, reason: %s\n", error, cudaGetErrorString(error));       \
      exit(1);                                                                 \
    }                                                                          \
  }

#define RADIUS 12
#define OUTPUTS 4
#define BX 16
#define BY 8

// Block BX x BY; each thread writes OUTPUTS results BX apart along its row.
// The tile holds the block's row segment with RADIUS halo on both sides; the
// input rows are padded by RADIUS on both sides (pitch width + 2 RADIUS), so
// no halo element lies outside.
__global__ void stencilRows(const float *in, float *out, int width) {
  __shared__ float row[BY][OUTPUTS * BX + 2 * RADIUS];
  const int x0 = blockIdx.x * OUTPUTS * BX;
  const int y = blockIdx.y * BY + threadIdx.y;
  const int pitch = width + 2 * RADIUS;
  for (int i = threadIdx.x; i < OUTPUTS * BX + 2 * RADIUS; i += BX)
    row[threadIdx.y][i] = in[y * pitch + x0 + i];
  __syncthreads();
#pragma unroll
  for (int r = 0; r < OUTPUTS; ++r) {
    float sum = 0.0f;
#pragma unroll
    for (int j = -RADIUS; j <= RADIUS; ++j)
      sum += row[threadIdx.y][RADIUS + threadIdx.x + r * BX + j];
    out[y * width + x0 + threadIdx.x + r * BX] = sum;
  }
}

// Block BX x BY; each thread writes OUTPUTS results BY apart down its
// column. The tile is stored transposed: col[x][y]. The input has RADIUS
// padding rows above and below.
__global__ void stencilColumns(const float *in, float *out, int width) {
  __shared__ float col[BX][OUTPUTS * BY + 2 * RADIUS + 1];
  const int x = blockIdx.x * BX + threadIdx.x;
  const int y0 = blockIdx.y * OUTPUTS * BY;
  for (int i = threadIdx.y; i < OUTPUTS * BY + 2 * RADIUS; i += BY)
    col[threadIdx.x][i] = in[(y0 + i) * width + x];
  __syncthreads();
#pragma unroll
  for (int r = 0; r < OUTPUTS; ++r) {
    float sum = 0.0f;
#pragma unroll
    for (int j = -RADIUS; j <= RADIUS; ++j)
      sum += col[threadIdx.x][RADIUS + threadIdx.y + r * BY + j];
    out[(y0 + threadIdx.y + r * BY) * width + x] = sum;
  }
}

// The loop counter is not in the body: both iterations copy in[i] to out[i]
// through the same shared word.
__global__ void repeatCopy(const float *in, float *out, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 2; ++k) {
    if (i < n)
      tile[threadIdx.x] = in[i];
  }
  __syncthreads();
  for (int k = 0; k < 2; ++k) {
    if (i < n)
      out[i] = tile[threadIdx.x];
  }
}

// Four stores to out[i]; the value of the last one stays.
__global__ void lastStore(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = in[i];
#pragma unroll
  for (int k = 0; k < 4; ++k)
    out[i] = v * (k + 1);
}

// The members of one float2 read on two lines.
__global__ void pairMembers(const float2 *__restrict__ a,
                            const float2 *__restrict__ b,
                            float2 *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float lo = a[i].x * b[i].x;
    float hi = a[i].y * b[i].y;
    out[i] = make_float2(lo + hi, lo - hi);
  }
}

// A radix-2 butterfly over a shared row of 512 floats, 256 threads.
__global__ void butterflyShared(float *data) {
  __shared__ float s[512];
  const int t = threadIdx.x;
  float *d = data + blockIdx.x * 512;
  s[t] = d[t];
  s[t + 256] = d[t + 256];
  __syncthreads();
  const int i0 = t << 1, i1 = i0 + 1;
  const float d0 = s[i0];
  const float d1 = s[i1];
  s[i0] = d0 + d1;
  s[i1] = d0 - d1;
  __syncthreads();
  d[t] = s[t];
  d[t + 256] = s[t + 256];
}

int main() {
  const int width = 1024, height = 512;
  const int n = width * height;
  const size_t bytes = n * sizeof(float);
  // Room for the padded inputs of the stencils.
  const int padded = (width + 2 * RADIUS) * (height + 2 * RADIUS);
  const size_t inBytes = padded * sizeof(float);
  float *h = (float *)malloc(inBytes);
  for (int i = 0; i < padded; ++i)
    h[i] = (float)(i % 13);
  float *dIn, *dOut;
  CHECK(cudaMalloc((void **)&dIn, inBytes));
  CHECK(cudaMalloc((void **)&dOut, bytes));
  CHECK(cudaMemcpy(dIn, h, inBytes, cudaMemcpyHostToDevice));

  dim3 block(BX, BY);
  stencilRows<<<dim3(width / (OUTPUTS * BX), height / BY), block>>>(dIn, dOut,
                                                                    width);
  CHECK(cudaGetLastError());
  stencilColumns<<<dim3(width / BX, height / (OUTPUTS * BY)), block>>>(
      dIn, dOut, width);
  CHECK(cudaGetLastError());
  repeatCopy<<<(n + 255) / 256, 256>>>(dIn, dOut, n);
  CHECK(cudaGetLastError());
  lastStore<<<(n + 255) / 256, 256>>>(dIn, dOut, n);
  CHECK(cudaGetLastError());
  const int pairs = n / 4;
  pairMembers<<<(pairs + 127) / 128, 128>>>(
      (const float2 *)dIn, (const float2 *)dIn + pairs, (float2 *)dOut, pairs);
  CHECK(cudaGetLastError());
  butterflyShared<<<n / 512, 256>>>(dOut);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, dOut, bytes, cudaMemcpyDeviceToHost));
  printf("out[5] = %f\n", h[5]);

  CHECK(cudaFree(dIn));
  CHECK(cudaFree(dOut));
  free(h);
  return 0;
}
