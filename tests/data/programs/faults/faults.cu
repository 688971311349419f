// Kernels that fault on the GPU, and what the program sees afterwards:
// which call first returns the error, which ones return it after, and what
// the device prints. Run as `faults KIND FIRST`: KIND picks the fault,
// FIRST the call made first after the faulting launch (sync or memcpy).
// checkRange's assert fails for element 261, set by the host, and for
// 1000..1023, which fill() wrote.
#include <cassert>
#include <cstdio>
#include <cstring>

__global__ void fill(int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = i;
}

__global__ void checkRange(const int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    assert(v[i] < 1000);
}

__global__ void trapAt(int *v, int n, int at) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == at)
    __trap();
  if (i < n)
    v[i] += 1;
}

__global__ void storeThrough(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    p[i] = 1.0f;
}

__global__ void sharedBeyond(int *v, int n, int stride) {
  extern __shared__ int s[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x * stride] = i;
  __syncthreads();
  if (i < n)
    v[i] = s[(blockDim.x - 1 - threadIdx.x) * stride];
}

__global__ void storeStrided(int *v, long stride) {
  long i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i * stride] = int(i);
}

// (New kernels go here: the measured assert messages name the lines
// above.) A grid-stride copy unrolled by 4 that leaves the tail to a
// guarded pass, as the CUDA Handbook's globalCopy: its bound, n - Step,
// wraps in size_t once the grid covers more than n elements, and the
// lanes walk on through the address space until an access faults.
__global__ void copyUnrolled(int *out, const int *in, size_t n) {
  const size_t Step = 4 * size_t(blockDim.x) * gridDim.x;
  size_t i = 4 * size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i < n - Step; i += Step)
    for (int j = 0; j < 4; ++j)
      out[i + j * blockDim.x] = in[i + j * blockDim.x];
  for (int j = 0; j < 4; ++j)
    if (i + j * blockDim.x < n)
      out[i + j * blockDim.x] = in[i + j * blockDim.x];
}

static void report(const char *What, cudaError_t E) {
  std::printf("%s: %s (%d)\n", What, cudaGetErrorName(E), int(E));
}

int main(int argc, char **argv) {
  const char *Kind = argc > 1 ? argv[1] : "assert";
  const bool MemcpyFirst = argc > 2 && !std::strcmp(argv[2], "memcpy");
  const int N = 1024;
  int *D = nullptr, H[N];
  report("malloc", cudaMalloc(&D, N * sizeof(int)));
  fill<<<N / 256, 256>>>(D, N);
  report("fill", cudaDeviceSynchronize());
  if (!std::strcmp(Kind, "assert")) {
    int Big = 5000;
    cudaMemcpy(D + 261, &Big, sizeof Big, cudaMemcpyHostToDevice);
    checkRange<<<N / 256, 256>>>(D, N);
  } else if (!std::strcmp(Kind, "trap")) {
    trapAt<<<N / 256, 256>>>(D, N, 300);
  } else if (!std::strcmp(Kind, "misaligned")) {
    storeThrough<<<N / 256, 256>>>(
        reinterpret_cast<float *>(reinterpret_cast<char *>(D) + 2), N / 2);
  } else if (!std::strcmp(Kind, "shared")) {
    sharedBeyond<<<N / 256, 256, 256 * sizeof(int)>>>(D, N, 4096);
  } else if (!std::strcmp(Kind, "far")) {
    storeStrided<<<N / 256, 256>>>(D, 1L << 22);
  } else if (!std::strcmp(Kind, "near")) {
    storeStrided<<<N / 256 + 1, 256>>>(D, 1);
  } else if (!std::strcmp(Kind, "runaway")) {
    copyUnrolled<<<64, 256>>>(D, D, N);
  } else {
    std::printf("unknown kind %s\n", Kind);
    return 2;
  }
  if (MemcpyFirst) {
    report("memcpy", cudaMemcpy(H, D, sizeof H, cudaMemcpyDeviceToHost));
    report("sync", cudaDeviceSynchronize());
  } else {
    report("sync", cudaDeviceSynchronize());
    report("memcpy", cudaMemcpy(H, D, sizeof H, cudaMemcpyDeviceToHost));
  }
  report("last error", cudaGetLastError());
  report("last error again", cudaGetLastError());
  int *E = nullptr;
  report("malloc after", cudaMalloc(&E, 64));
  fill<<<1, 32>>>(D, 32);
  report("launch after", cudaGetLastError());
  report("sync after", cudaDeviceSynchronize());
  report("free", cudaFree(D));
  std::printf("end\n");
  return 0;
}
