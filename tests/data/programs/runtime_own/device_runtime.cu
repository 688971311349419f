// Kernels that call the device runtime: printf, which writes its arguments
// to the printf buffer in code of the driver's, and malloc/free, whose heap
// the driver's allocator lays out (tests/golden/build_edges_test.cpp,
// DeviceRuntime). The program checks every result.
#include <cstdio>
#include <cstdlib>
#include <vector>

// Loads at a stride of two (half of each sector used), stores in order, and
// a printf from every 64th thread.
__global__ void printEvery(const float *in, float *out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  const float v = in[2 * i];
  out[i] = 2.0f * v;
  if (i % 64 == 0)
    printf("element %d is %.1f\n", i, v);
}

// Each thread allocates a row of its own on the device heap, fills it and
// sums it: every lane of a request is in another allocation.
__global__ void heapRows(const int *in, int *out, int n, int len) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int *row = (int *)malloc(len * sizeof(int));
  if (!row) {
    out[i] = -1;
    return;
  }
  for (int k = 0; k < len; ++k)
    row[k] = in[i] + k;
  int s = 0;
  for (int k = 0; k < len; ++k)
    s += row[k];
  out[i] = s;
  free(row);
}

// One buffer per block on the heap, shared through shared memory: every
// lane indexes the same allocation, whose place in a sector is the
// allocator's.
__global__ void heapBlockBuffer(const float *in, float *out, int n) {
  __shared__ float *buf;
  if (threadIdx.x == 0)
    buf = (float *)malloc(blockDim.x * sizeof(float));
  __syncthreads();
  float *b = buf;
  if (!b)
    return;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  b[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = b[blockDim.x - 1 - threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0)
    free(b);
}

// One thread walks a heap list it builds: one lane per request.
__global__ void heapList(const int *in, int *out, int n) {
  struct Node {
    int value;
    Node *next;
  };
  Node *head = nullptr;
  for (int k = 0; k < n; ++k) {
    Node *node = (Node *)malloc(sizeof(Node));
    if (!node)
      break;
    node->value = in[k];
    node->next = head;
    head = node;
  }
  int s = 0;
  while (head) {
    s += head->value;
    Node *next = head->next;
    free(head);
    head = next;
  }
  *out = s;
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

static int fails = 0;
static void expect(bool ok, const char *what, int at) {
  if (!ok && fails++ < 5)
    std::fprintf(stderr, "%s: wrong result at %d\n", what, at);
}

int main() {
  const int n = 4096, len = 5;
  std::vector<float> hf(2 * n);
  std::vector<int> hi(n);
  for (int k = 0; k < 2 * n; ++k)
    hf[k] = float(k % 97);
  for (int k = 0; k < n; ++k)
    hi[k] = k % 101;
  float *din, *dout;
  int *diin, *diout;
  CHECK(cudaMalloc(&din, 2 * n * sizeof(float)));
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CHECK(cudaMalloc(&diin, n * sizeof(int)));
  CHECK(cudaMalloc(&diout, n * sizeof(int)));
  CHECK(cudaMemcpy(din, hf.data(), 2 * n * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(diin, hi.data(), n * sizeof(int), cudaMemcpyHostToDevice));

  std::vector<float> of(n);
  std::vector<int> oi(n);
  printEvery<<<n / 256, 256>>>(din, dout, n);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(of.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int k = 0; k < n; ++k)
    expect(of[k] == 2.0f * hf[2 * k], "printEvery", k);

  heapRows<<<n / 128, 128>>>(diin, diout, n, len);
  CHECK(cudaMemcpy(oi.data(), diout, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int k = 0; k < n; ++k)
    expect(oi[k] == len * hi[k] + len * (len - 1) / 2, "heapRows", k);

  heapBlockBuffer<<<n / 256, 256>>>(din, dout, n);
  CHECK(cudaMemcpy(of.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int k = 0; k < n; ++k)
    expect(of[k] == hf[k / 256 * 256 + 255 - k % 256], "heapBlockBuffer", k);

  heapList<<<1, 1>>>(diin, diout, 100);
  int sum = 0;
  CHECK(cudaMemcpy(&sum, diout, sizeof(int), cudaMemcpyDeviceToHost));
  int want = 0;
  for (int k = 0; k < 100; ++k)
    want += hi[k];
  expect(sum == want, "heapList", 0);

  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(diin));
  CHECK(cudaFree(diout));
  std::printf(fails ? "FAILED\n" : "PASSED\n");
  return fails ? 1 : 0;
}
