// Objects made with new in one kernel and called through their virtual
// functions in the next (the vtables' entries are functions' addresses),
// and blocks from __nv_aligned_device_malloc (tests/golden/
// build_edges_test.cpp, DeviceRuntime). The program checks every result.
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Op {
  __device__ virtual ~Op() {}
  __device__ virtual float apply(const float *in, int i) const = 0;
};

// Reads in[i]: a warp's 32 floats, 4 sectors.
struct Scale : Op {
  float f;
  __device__ explicit Scale(float f) : f(f) {}
  __device__ float apply(const float *in, int i) const override {
    return f * in[i];
  }
};

// Reads in[2 i] and in[2 i + 1]: 8 sectors each.
struct PairSum : Op {
  __device__ float apply(const float *in, int i) const override {
    return in[2 * i] + in[2 * i + 1];
  }
};

__global__ void makeOps(Op **ops, int n) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < n)
    ops[b] = b % 2 ? static_cast<Op *>(new PairSum())
                   : static_cast<Op *>(new Scale(0.5f * b));
}

// Every block calls its own object's apply: even blocks Scale, odd PairSum.
__global__ void applyOps(Op *const *ops, const float *in, float *out) {
  const Op *op = ops[blockIdx.x];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = op->apply(in, i);
}

__global__ void freeOps(Op **ops, int n) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < n)
    delete ops[b];
}

// A block's buffer aligned on 128 bytes: a warp's 32 floats in it take 4
// sectors wherever the allocator puts it.
__global__ void alignedBuffer(const float *in, float *out) {
  __shared__ float *buf;
  if (threadIdx.x == 0)
    buf = (float *)__nv_aligned_device_malloc(blockDim.x * sizeof(float), 128);
  __syncthreads();
  float *b = buf;
  if (!b)
    return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  b[threadIdx.x] = in[i] + 1.0f;
  __syncthreads();
  out[i] = b[threadIdx.x] * 2.0f;
  __syncthreads();
  if (threadIdx.x == 0)
    free(b);
}

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e = (call);                                                    \
    if (e != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(e));                                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

int main() {
  const int blocks = 16, threads = 256, n = blocks * threads;
  std::vector<float> h(2 * n);
  for (int k = 0; k < 2 * n; ++k)
    h[k] = float(k % 13);
  float *in, *out;
  Op **ops;
  CHECK(cudaMalloc(&in, 2 * n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMalloc(&ops, blocks * sizeof(Op *)));
  CHECK(cudaMemcpy(in, h.data(), 2 * n * sizeof(float),
                   cudaMemcpyHostToDevice));
  int fails = 0;
  std::vector<float> o(n);

  makeOps<<<1, blocks>>>(ops, blocks);
  applyOps<<<blocks, threads>>>(ops, in, out);
  CHECK(cudaMemcpy(o.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    const int b = i / threads;
    const float want = b % 2 ? h[2 * i] + h[2 * i + 1] : 0.5f * b * h[i];
    if (o[i] != want && fails++ < 5)
      std::fprintf(stderr, "applyOps: %d is %f, not %f\n", i, o[i], want);
  }
  freeOps<<<1, blocks>>>(ops, blocks);

  alignedBuffer<<<blocks, threads>>>(in, out);
  CHECK(cudaMemcpy(o.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i)
    if (o[i] != 2.0f * (h[i] + 1.0f) && fails++ < 5)
      std::fprintf(stderr, "alignedBuffer: %d is %f\n", i, o[i]);

  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(ops));
  std::printf(fails ? "FAILED\n" : "PASSED\n");
  return fails ? 1 : 0;
}
