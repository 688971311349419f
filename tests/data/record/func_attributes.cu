// What a program asks the runtime about its kernels before it launches them
// (as Thrust and CUB do): each kernel's attributes and the occupancy
// calculator's answers, printed one per line. Run on a GPU, the output is
// the reference (func_attributes.h200.txt); under gmem's recording runtime
// it must be the same, and so must the launch sized from it.
#include <cstdio>

__global__ void plain(float *p) { p[threadIdx.x] = 1.0f; }

__global__ void __launch_bounds__(256) tiled(const float *in, float *out) {
  __shared__ float tile[300];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
}

__global__ void heavy(const double *in, double *out, int n) {
  // Many live values: registers well above the plain kernel's.
  double a[16];
#pragma unroll
  for (int k = 0; k < 16; ++k)
    a[k] = in[threadIdx.x + k * n];
  double s = 0;
#pragma unroll
  for (int k = 0; k < 16; ++k)
    s += a[k] * a[(k * 7) % 16] / (1.0 + a[(k * 3) % 16]);
  out[threadIdx.x] = s;
}

__global__ void dynamicShared(float *p) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

template <class T> void describe(const char *Name, T *Kernel) {
  cudaFuncAttributes A;
  if (cudaFuncGetAttributes(&A, Kernel) != cudaSuccess) {
    std::printf("%s: cudaFuncGetAttributes failed\n", Name);
    return;
  }
  std::printf("%s: regs %d shared %zu local %zu maxThreads %d ptx %d "
              "binary %d maxDynamicShared %d\n",
              Name, A.numRegs, A.sharedSizeBytes, A.localSizeBytes,
              A.maxThreadsPerBlock, A.ptxVersion, A.binaryVersion,
              A.maxDynamicSharedSizeBytes);
  const int Blocks[] = {32, 128, 256, 1024};
  const size_t Smem[] = {0, 16384};
  for (int B : Blocks)
    for (size_t S : Smem) {
      int N = -1;
      cudaError_t E =
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&N, Kernel, B, S);
      std::printf("%s: occupancy block %d smem %zu -> %d (%s)\n", Name, B, S,
                  N, cudaGetErrorName(E));
    }
  int MinGrid = 0, Block = 0;
  cudaError_t E = cudaOccupancyMaxPotentialBlockSize(&MinGrid, &Block, Kernel);
  std::printf("%s: potential block %d min grid %d (%s)\n", Name, Block,
              MinGrid, cudaGetErrorName(E));
}

int main() {
  float *f;
  double *d;
  cudaMalloc(&f, 1 << 20);
  cudaMalloc(&d, 1 << 20);
  describe("plain", plain);
  describe("tiled", tiled);
  describe("heavy", heavy);
  cudaFuncSetAttribute(dynamicShared,
                       cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
  describe("dynamicShared", dynamicShared);
  // A launch sized by the calculator, as CUB sizes its grids.
  int PerSm = 0, Sms = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&PerSm, heavy, 256, 0);
  cudaDeviceGetAttribute(&Sms, cudaDevAttrMultiProcessorCount, 0);
  heavy<<<PerSm * Sms, 256>>>(d, d + 4096, 256);
  std::printf("heavy launched on %d blocks\n", PerSm * Sms);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
