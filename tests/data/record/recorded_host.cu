// Host code that gmem's host interpreter does not follow (a grid sized by
// cudaGetDeviceProperties, a launch through std::forward, a pitch from
// cudaMallocPitch, cudaLaunchKernel, graphs), for gmem-analyze --host record: the program is built by nvcc and run against
// gmem's recording CUDA runtime, which logs every launch with its real
// configuration and argument bytes.
//
//   gatherPermuted  out[i] = in[perm[i]], perm shuffled on the host with
//                   rand() (the addresses depend on data the host wrote)
//   histogram       atomicAdd on bins of rand() data
//   scaleRows<B>    launched through a variadic helper that forwards its
//                   arguments (std::forward), on a pointer one float past
//                   an allocation, so every warp straddles a sector
//   copyPitched     a cudaMallocPitch matrix, one row per block
//   scaleRows<B>    again through cudaLaunchKernel, and twice more from a
//                   CUDA graph captured on a stream
//
// Sizes come from the command line and from cudaGetDeviceProperties:
//   recorded_host [N] [ROWS]    (defaults 8192 and 64)
#include <cstdio>
#include <cstdlib>
#include <utility>

#define CHECK(call)                                                           \
  do {                                                                        \
    cudaError_t e_ = (call);                                                  \
    if (e_ != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                 \
                   cudaGetErrorString(e_));                                   \
      std::exit(1);                                                           \
    }                                                                         \
  } while (0)

__global__ void gatherPermuted(const float *in, const int *perm, float *out,
                               int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[perm[i]];
}

__global__ void histogram(const unsigned *data, unsigned *bins, int n,
                          unsigned nbins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&bins[data[i] % nbins], 1u);
}

template <int B> __global__ void scaleRows(float *x, int n, float s) {
  int i = blockIdx.x * B + threadIdx.x;
  if (i < n)
    x[i] *= s;
}

__global__ void copyPitched(const float *src, size_t srcPitch, float *dst,
                            int width) {
  const float *row = (const float *)((const char *)src + blockIdx.x * srcPitch);
  for (int c = threadIdx.x; c < width; c += blockDim.x)
    dst[blockIdx.x * width + c] = row[c];
}

// llm.c's benchmark_kernel does the same: a launch behind perfect forwarding.
template <class Kernel, class... Args>
void launchForwarded(Kernel k, int grid, int block, Args &&...args) {
  k<<<grid, block>>>(std::forward<Args>(args)...);
  CHECK(cudaGetLastError());
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 8192;
  const int rows = argc > 2 ? std::atoi(argv[2]) : 64;
  if (n < 64 || rows < 1) {
    std::fprintf(stderr, "usage: %s [N >= 64] [ROWS >= 1]\n", argv[0]);
    return 2;
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));

  // A random permutation (Fisher-Yates) and random histogram input.
  std::srand(42);
  int *perm = (int *)std::malloc(n * sizeof(int));
  unsigned *data = (unsigned *)std::malloc(n * sizeof(unsigned));
  for (int i = 0; i < n; ++i) {
    perm[i] = i;
    data[i] = (unsigned)std::rand();
  }
  for (int i = n - 1; i > 0; --i) {
    int j = std::rand() % (i + 1);
    int t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }

  float *dIn, *dOut;
  int *dPerm;
  unsigned *dData, *dBins;
  const unsigned nbins = 64;
  CHECK(cudaMalloc(&dIn, n * sizeof(float)));
  CHECK(cudaMalloc(&dOut, n * sizeof(float)));
  CHECK(cudaMalloc(&dPerm, n * sizeof(int)));
  CHECK(cudaMalloc(&dData, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&dBins, nbins * sizeof(unsigned)));
  CHECK(cudaMemcpy(dPerm, perm, n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dData, data, n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dIn, 0, n * sizeof(float)));
  CHECK(cudaMemset(dBins, 0, nbins * sizeof(unsigned)));

  gatherPermuted<<<(n + 255) / 256, 256>>>(dIn, dPerm, dOut, n);
  CHECK(cudaGetLastError());
  // One block per SM, as many programs size grid-stride loops.
  histogram<<<prop.multiProcessorCount, 256>>>(dData, dBins, n, nbins);
  CHECK(cudaGetLastError());
  launchForwarded(scaleRows<128>, (n - 1 + 127) / 128, 128, dOut + 1, n - 1,
                  2.0f);

  // A pitched matrix of rows x 1000 floats, copied out row by row.
  const int width = 1000;
  float *dMat, *dFlat;
  size_t pitch;
  CHECK(cudaMallocPitch((void **)&dMat, &pitch, width * sizeof(float), rows));
  CHECK(cudaMalloc(&dFlat, (size_t)rows * width * sizeof(float)));
  copyPitched<<<rows, 128>>>(dMat, pitch, dFlat, width);
  CHECK(cudaGetLastError());

  // The same kernel through the launch API, then from a graph.
  int count = n;
  float s = 0.5f;
  void *args[] = {&dIn, &count, &s};
  CHECK(cudaLaunchKernel((const void *)scaleRows<128>, dim3(n / 128),
                         dim3(128), args, 0, 0));
  cudaStream_t stream;
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  scaleRows<128><<<n / 128, 128, 0, stream>>>(dIn, n, 1.5f);
  CHECK(cudaStreamEndCapture(stream, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int it = 0; it < 2; ++it)
    CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));

  unsigned bins[nbins];
  CHECK(cudaMemcpy(bins, dBins, sizeof bins, cudaMemcpyDeviceToHost));
  unsigned total = 0;
  for (unsigned b = 0; b < nbins; ++b)
    total += bins[b];
  std::printf("%d elements, %u counted, pitch %zu\n", n, total, pitch);

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(stream));
  cudaFree(dIn);
  cudaFree(dOut);
  cudaFree(dPerm);
  cudaFree(dData);
  cudaFree(dBins);
  cudaFree(dMat);
  cudaFree(dFlat);
  std::free(perm);
  std::free(data);
  return 0;
}
