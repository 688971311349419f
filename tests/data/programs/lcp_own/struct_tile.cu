// A 12-byte struct's fields read from a shared tile along a loop, as n-body
// codes read their bodies: nvcc unrolls the loop, and ptxas loads the tile
// in aligned 16-byte windows, each on the line of the field its window
// starts with (LDS.128 on each of the three lines).
#include <cstdio>

#define TILE 128

__global__ void potentials(const float4 *p, float *out) {
  __shared__ float3 tile[TILE];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float f = 0;
  for (int t = 0; t < gridDim.x; ++t) {
    const float4 q = p[t * TILE + threadIdx.x];
    tile[threadIdx.x] = make_float3(q.x, q.y, q.z);
    __syncthreads();
    for (int j = 0; j < TILE; ++j) {
      const float dx = tile[j].x - p[i].x;
      const float dy = tile[j].y - p[i].y;
      const float dz = tile[j].z - p[i].z;
      f += rsqrtf(dx * dx + dy * dy + dz * dz + 1e-3f);
    }
    __syncthreads();
  }
  out[i] = f;
}

int main() {
  const int n = 4 * TILE;
  float4 *p;
  float *out;
  cudaMallocManaged(&p, n * sizeof(float4));
  cudaMallocManaged(&out, n * sizeof(float));
  for (int i = 0; i < n; ++i)
    p[i] = make_float4(i % 7, i % 11, i % 13, 0);
  potentials<<<n / TILE, TILE>>>(p, out);
  cudaDeviceSynchronize();
  printf("%.3f\n", out[0]);
  return 0;
}
