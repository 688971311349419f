// Kernels for the benchmark's growth figures (scripts/bench.sh): the same
// launches at SCALE = 1, 4 and 64 times the elements, compiled with
// -DSCALE=N. Each launch covers its data with a grid derived from the sizes,
// so the grid grows with the elements.
#include <cuda_runtime.h>

#ifndef SCALE
#define SCALE 1
#endif

#define TILE 32

// A transpose through a padded shared tile (blocks of 32 x 8).
__global__ void transposeTile(float *out, const float *in, int nx, int ny) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    if (x < nx && y + j < ny)
      tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * nx + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8)
    if (x < ny && y + j < nx)
      out[(y + j) * ny + x] = tile[threadIdx.x][threadIdx.y + j];
}

// A copy from an offset that breaks sector alignment.
__global__ void copyOffset(float *out, const float *in, int n, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + offset < n)
    out[i] = in[i + offset];
}

// A 5-point stencil with the borders left out.
__global__ void stencil5(float *out, const float *in, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > 0 && y > 0 && x < nx - 1 && y < ny - 1)
    out[y * nx + x] = in[y * nx + x] + in[y * nx + x - 1] +
                      in[y * nx + x + 1] + in[(y - 1) * nx + x] +
                      in[(y + 1) * nx + x];
}

// C = A * B through 32 x 32 shared tiles (M x K times K x N).
__global__ void sgemmTiled(int M, int N, int K, const float *A, const float *B,
                           float *C) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[threadIdx.y][threadIdx.x] =
        row < M && k0 + threadIdx.x < K ? A[row * K + k0 + threadIdx.x] : 0;
    Bs[threadIdx.y][threadIdx.x] =
        col < N && k0 + threadIdx.y < K ? B[(k0 + threadIdx.y) * N + col] : 0;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = acc;
}

int main() {
  // Square sides grow with the square root of SCALE (1, 2, 8).
  const int side = SCALE == 64 ? 8 : SCALE == 4 ? 2 : 1;
  const int nx = 1000 * side, ny = 1000 * side; // Not multiples of the tile.
  const int n = (1 << 22) * SCALE;
  float *a, *b, *c;
  cudaMalloc((void **)&a, sizeof(float) * n + 1024);
  cudaMalloc((void **)&b, sizeof(float) * n + 1024);
  cudaMalloc((void **)&c, sizeof(float) * n + 1024);

  dim3 tBlock(TILE, 8);
  dim3 tGrid((nx + TILE - 1) / TILE, (ny + TILE - 1) / TILE);
  transposeTile<<<tGrid, tBlock>>>(b, a, nx, ny);

  copyOffset<<<(n + 255) / 256, 256>>>(b, a, n, 3);

  dim3 sBlock(32, 4);
  dim3 sGrid((nx + 31) / 32, (ny + 3) / 4);
  stencil5<<<sGrid, sBlock>>>(b, a, nx, ny);

  // M and N grow with the elements of C; K stays 512.
  const int M = 500 * side, N = 500 * side, K = 512;
  dim3 gBlock(TILE, TILE);
  dim3 gGrid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  sgemmTiled<<<gGrid, gBlock>>>(M, N, K, a, b, c);
  cudaDeviceSynchronize();
  return 0;
}
