// Parsed and run by tests/executor/ptx_parser_test.cpp from inline_call.ptx,
// which is `nvcc -arch=sm_90 -lineinfo -ptx inline_call.cu` (CUDA 13.0) with
// the .file path made relative.
__device__ int table[4] = {1, 2, 3, 4};
__device__ int *tp = table;
__device__ __forceinline__ int twice(const int *p, int i) { return 2 * p[i]; }
__device__ __noinline__ int thrice(int v) { return 3 * v; }
__global__ void k(const int *in, int *out) {
  int t = threadIdx.x;
  int v;
  asm("{ .reg .b32 tmp; add.s32 tmp, %1, 1; mov.b32 %0, tmp; }" : "=r"(v) : "r"(t));
  out[t] = twice(in, t) + thrice(v) + tp[t & 3];
}
