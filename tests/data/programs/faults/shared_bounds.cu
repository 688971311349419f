// Where a read past a block's shared memory faults. For each case STATIC
// DYN PAST of the command line (STATIC 16 or 4096 bytes of static shared
// memory, DYN bytes of dynamic shared memory after it), one thread reads
// the byte PAST bytes beyond the dynamic array's end; the program prints
// what the copy of the result back returned (the first call that waits for
// the launch). A fault is sticky: put it last.
#include <cstdio>
#include <cstdlib>

template <int Static>
__global__ void readPast(int dyn, long past, int *out) {
  __shared__ char fixed[Static];
  extern __shared__ char s[];
  fixed[threadIdx.x % Static] = 1;
  s[0] = 2;
  __syncthreads();
  volatile char *p = s;
  out[0] = p[dyn + past] + fixed[(threadIdx.x + 1) % Static];
}

int main(int argc, char **argv) {
  int *out;
  cudaMalloc(&out, sizeof(int));
  cudaFuncSetAttribute(readPast<16>,
                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                       200 * 1024);
  cudaFuncSetAttribute(readPast<4096>,
                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                       190 * 1024);
  for (int i = 1; i + 2 < argc; i += 3) {
    const int stat = atoi(argv[i]), dyn = atoi(argv[i + 1]);
    const long past = atol(argv[i + 2]);
    if (stat == 16)
      readPast<16><<<1, 32, dyn>>>(dyn, past, out);
    else
      readPast<4096><<<1, 32, dyn>>>(dyn, past, out);
    int v = 0;
    cudaError_t e = cudaMemcpy(&v, out, sizeof v, cudaMemcpyDeviceToHost);
    printf("static %d dynamic %d past %ld: %s\n", stat, dyn, past,
           cudaGetErrorName(e));
  }
  return 0;
}
