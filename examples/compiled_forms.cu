// Small kernels whose compiled form differs from the source: nvcc (ptxas)
// merges, reuses or hoists memory accesses, so the GPU issues other
// instructions than the source shows. gmem reads the SASS (nvdisasm -g) to
// count the instructions really emitted; see analyzer/compiled/.
//
// - rowSumUnrolled: a shared tile read along a row by a loop that unrolls;
//   four consecutive floats become one LDS.128.
// - copyFloat2 / copyFloat4: vector types through reinterpret_cast; one
//   LDG.E.64 / LDG.E.128 per lane as the source says.
// - loadUsedTwice: in[i] written twice in one expression; one LDG.
// - hoistedLoad: a loop-invariant load; loaded once before the loop.
// - sumFourShared: four neighbouring shared floats written as four
//   accesses; one LDS.128.
//
// Build: nvcc -arch=sm_90 -lineinfo -o compiled_forms compiled_forms.cu
// Analyze: gmem-analyze compiled_forms.cu
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

#define TILE 32

// Each thread sums the row of the tile its threadIdx.y selects: a warp reads
// one row, the same word on every lane.
__global__ void rowSumUnrolled(const float *in, float *out) {
  __shared__ float tile[TILE][TILE];
  int x = threadIdx.x, y = threadIdx.y;
  int base = blockIdx.x * TILE * TILE;
  tile[y][x] = in[base + y * TILE + x];
  __syncthreads();
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < TILE; ++k)
    sum += tile[y][k];
  out[base + y * TILE + x] = sum;
}

// Each thread sums its own row: lanes are a row (32 words) apart.
__global__ void rowSumConflicts(const float *in, float *out) {
  __shared__ float tile[TILE][TILE];
  int x = threadIdx.x, y = threadIdx.y;
  int base = blockIdx.x * TILE * TILE;
  tile[y][x] = in[base + y * TILE + x];
  __syncthreads();
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < TILE; ++k)
    sum += tile[x][k];
  out[base + y * TILE + x] = sum;
}

__global__ void copyFloat2(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 2)
    reinterpret_cast<float2 *>(out)[i] =
        reinterpret_cast<const float2 *>(in)[i];
}

__global__ void copyFloat4(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n / 4)
    reinterpret_cast<float4 *>(out)[i] =
        reinterpret_cast<const float4 *>(in)[i];
}

__global__ void loadUsedTwice(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * in[i];
}

__global__ void hoistedLoad(const float *in, const float *scale, float *out,
                            int n, int reps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float acc = 0.0f;
  for (int r = 0; r < reps; ++r)
    acc += in[i] * scale[0] + r;
  out[i] = acc;
}

// Four neighbouring floats of a shared array written as four accesses:
// the compiler loads them with one LDS.128 (the array is 16-byte aligned).
__global__ void sumFourShared(const float *in, float *out) {
  __shared__ float buf[4 * 256];
  int x = threadIdx.x;
  for (int j = 0; j < 4; ++j)
    buf[j * 256 + x] = in[blockIdx.x * 1024 + j * 256 + x];
  __syncthreads();
  out[blockIdx.x * 256 + x] =
      buf[4 * x] + buf[4 * x + 1] + buf[4 * x + 2] + buf[4 * x + 3];
}

int main() {
  const int n = 1 << 16;
  const size_t bytes = n * sizeof(float);
  float *h = (float *)malloc(bytes);
  for (int i = 0; i < n; ++i)
    h[i] = (float)(i % 7);
  float *dIn, *dOut, *dScale;
  CHECK(cudaMalloc((void **)&dIn, bytes));
  CHECK(cudaMalloc((void **)&dOut, bytes));
  CHECK(cudaMalloc((void **)&dScale, sizeof(float)));
  CHECK(cudaMemcpy(dIn, h, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dScale, h + 1, sizeof(float), cudaMemcpyHostToDevice));

  dim3 tileBlock(TILE, 8);
  rowSumUnrolled<<<n / (TILE * TILE), tileBlock>>>(dIn, dOut);
  CHECK(cudaGetLastError());
  rowSumConflicts<<<n / (TILE * TILE), dim3(TILE, TILE)>>>(dIn, dOut);
  CHECK(cudaGetLastError());
  copyFloat2<<<n / 2 / 256, 256>>>(dIn, dOut, n);
  CHECK(cudaGetLastError());
  copyFloat4<<<n / 4 / 256, 256>>>(dIn, dOut, n);
  CHECK(cudaGetLastError());
  loadUsedTwice<<<n / 256, 256>>>(dIn, dOut, n);
  CHECK(cudaGetLastError());
  hoistedLoad<<<n / 256, 256>>>(dIn, dScale, dOut, n, 8);
  CHECK(cudaGetLastError());
  sumFourShared<<<n / 1024, 256>>>(dIn, dOut);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h, dOut, bytes, cudaMemcpyDeviceToHost));
  printf("out[5] = %f\n", h[5]);

  CHECK(cudaFree(dIn));
  CHECK(cudaFree(dOut));
  CHECK(cudaFree(dScale));
  free(h);
  return 0;
}
