// Reads through a texture object and writes through a surface object beside
// plain global loads and stores. Texture fetches (TEX/TLD) and surface
// accesses (SULD/SUST) run on the texture pipeline: gmem-analyze names each
// such call and counts only the load/store unit's global accesses, which
// is what the global load and store metrics count on the GPU.
//
// texScale:  out[i] = 2 * tex1Dfetch(in, i) + bias[i]  (1-D linear texture)
// surfStore: surf2Dwrite(in[y * w + x], surface, 4 x, y) over a w x h array
//
// Build: nvcc -arch=sm_90 -lineinfo -o texture_reads texture_reads.cu
// Analyze: gmem-analyze texture_reads.cu
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

__global__ void texScale(float *out, cudaTextureObject_t in,
                         const float *bias, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * tex1Dfetch<float>(in, i) + bias[i];
}

__global__ void surfStore(const float *in, cudaSurfaceObject_t surface,
                          int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x < w && y < h)
    surf2Dwrite(in[y * w + x], surface, x * (int)sizeof(float), y);
}

int main() {
  const int n = 1 << 16, w = 256, h = 64;
  size_t bytes = n * sizeof(float);
  float *h_in = (float *)malloc(bytes), *h_out = (float *)malloc(bytes);
  for (int i = 0; i < n; i++)
    h_in[i] = (float)(i % 1000);

  float *d_in, *d_bias, *d_out;
  CHECK(cudaMalloc((void **)&d_in, bytes));
  CHECK(cudaMalloc((void **)&d_bias, bytes));
  CHECK(cudaMalloc((void **)&d_out, bytes));
  CHECK(cudaMemcpy(d_in, h_in, bytes, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_bias, 0, bytes));

  // A texture over the linear buffer d_in.
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = d_in;
  res.res.linear.desc = cudaCreateChannelDesc<float>();
  res.res.linear.sizeInBytes = bytes;
  cudaTextureDesc td = {};
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex = 0;
  CHECK(cudaCreateTextureObject(&tex, &res, &td, NULL));

  texScale<<<n / 256, 256>>>(d_out, tex, d_bias, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(h_out, d_out, bytes, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (h_out[i] != 2.0f * h_in[i]) {
      printf("texScale: wrong value at %d\n", i);
      return 1;
    }

  // A w x h float array written through a surface object.
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  CHECK(cudaMallocArray(&array, &cd, w, h, cudaArraySurfaceLoadStore));
  cudaResourceDesc sres = {};
  sres.resType = cudaResourceTypeArray;
  sres.res.array.array = array;
  cudaSurfaceObject_t surface = 0;
  CHECK(cudaCreateSurfaceObject(&surface, &sres));

  surfStore<<<dim3(w / 128, h), 128>>>(d_in, surface, w, h);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy2DFromArray(h_out, w * sizeof(float), array, 0, 0,
                              w * sizeof(float), h, cudaMemcpyDeviceToHost));
  for (int i = 0; i < w * h; i++)
    if (h_out[i] != h_in[i]) {
      printf("surfStore: wrong value at %d\n", i);
      return 1;
    }

  CHECK(cudaDestroySurfaceObject(surface));
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaFreeArray(array));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_bias));
  CHECK(cudaFree(d_out));
  free(h_in);
  free(h_out);
  printf("texture_reads: ok\n");
  return 0;
}
