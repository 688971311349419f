// Written here in the layout of a typical SDK sample: flag helpers that scan
// argv, a device picker, a template tiled kernel launched in a timing loop.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
static bool hasFlag(int argc, const char **argv, const char *name) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    while (*a == '-') a++;
    if (strncmp(a, name, strlen(name)) == 0) return true;
  }
  return false;
}
static int intFlag(int argc, const char **argv, const char *name) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    while (*a == '-') a++;
    size_t n = strlen(name);
    if (strncmp(a, name, n) == 0 && a[n] == '=') return atoi(a + n + 1);
  }
  return 0;
}
static int pickDevice() {
  int count = 0, best = 0;
  cudaGetDeviceCount(&count);
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, d);
    if (p.major >= 7) best = d;
  }
  cudaSetDevice(best);
  return best;
}
template <int BLOCK>
__global__ void matMul(float *C, const float *A, const float *B, int wA, int wB) {
  __shared__ float As[BLOCK][BLOCK];
  __shared__ float Bs[BLOCK][BLOCK];
  int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
  float sum = 0;
  for (int a = wA * BLOCK * by, b = BLOCK * bx; a <= wA * BLOCK * by + wA - 1;
       a += BLOCK, b += BLOCK * wB) {
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
    for (int k = 0; k < BLOCK; ++k) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[wB * BLOCK * by + BLOCK * bx + wB * ty + tx] = sum;
}
static int run(int block, const dim3 &dA, const dim3 &dB) {
  float *A, *B, *C;
  cudaMalloc(&A, dA.x * dA.y * 4);
  cudaMalloc(&B, dB.x * dB.y * 4);
  cudaMalloc(&C, dB.x * dA.y * 4);
  dim3 threads(block, block);
  dim3 grid(dB.x / threads.x, dA.y / threads.y);
  const int iters = 300;
  for (int j = 0; j < iters; j++) {
    if (block == 16)
      matMul<16><<<grid, threads>>>(C, A, B, dA.x, dB.x);
    else
      matMul<32><<<grid, threads>>>(C, A, B, dA.x, dB.x);
  }
  cudaDeviceSynchronize();
  return 0;
}
int main(int argc, char **argv) {
  if (hasFlag(argc, (const char **)argv, "help")) {
    printf("usage\n");
    return 0;
  }
  pickDevice();
  int block = 32;
  dim3 dA(5 * 2 * block, 5 * 2 * block, 1), dB(5 * 4 * block, 5 * 2 * block, 1);
  if (hasFlag(argc, (const char **)argv, "wA")) dA.x = intFlag(argc, (const char **)argv, "wA");
  if (hasFlag(argc, (const char **)argv, "hA")) dA.y = intFlag(argc, (const char **)argv, "hA");
  if (hasFlag(argc, (const char **)argv, "wB")) dB.x = intFlag(argc, (const char **)argv, "wB");
  dB.y = dA.x;
  printf("MatrixA(%d,%d), MatrixB(%d,%d)\n", dA.x, dA.y, dB.x, dB.y);
  return run(block, dA, dB);
}
