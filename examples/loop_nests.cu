// Loop nests of numerical codes: a column covariance whose lanes start at
// different rows of a triangle, row sums, a triangular nest whose inner loop
// starts at the outer index, a Jacobi smoother that keeps a block's tile in
// shared memory for many time steps, two buffers used in turn, column sums
// accumulated in global memory, and column norms that read each element
// twice.
//
// gmem counts each loop by its periods (simulator/loop_skip.h) instead of
// running every iteration: `--every-iteration` runs them all and gives the
// same counts. Sizes: -DNEST_N=2048 -DNEST_STEPS=500 for the benchmark of
// docs/PERFORMANCE.md.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#ifndef NEST_N
#define NEST_N 256
#endif
#ifndef NEST_STEPS
#define NEST_STEPS 50
#endif
#define TILE 16

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                       \
              cudaGetErrorString(err_));                                       \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

// cov[j1][j2] for j2 >= j1, one thread per column j1; every lane starts its
// own row of the triangle and leaves when it reaches the last column.
__global__ void covariance(const float *data, float *cov, int rows, int cols) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (j1 >= cols)
    return;
  for (int j2 = j1; j2 < cols; ++j2) {
    float s = 0.0f;
    for (int i = 0; i < rows; ++i)
      s += data[i * cols + j1] * data[i * cols + j2];
    cov[j1 * cols + j2] = s / (rows - 1);
    cov[j2 * cols + j1] = s / (rows - 1);
  }
}

// One thread per row: lanes are a row apart, every load its own sector.
__global__ void rowSums(const float *a, float *sums, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.0f;
  for (int j = 0; j < cols; ++j)
    s += a[r * cols + j];
  sums[r] = s;
}

// suffix[i][col] = sum of a[k][col] for k >= i: the inner loop starts where
// the outer one is.
__global__ void suffixSums(const float *a, float *suffix, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= n)
    return;
  for (int i = 0; i < n; ++i) {
    float s = 0.0f;
    for (int k = i; k < n; ++k)
      s += a[k * n + col];
    suffix[i * n + col] = s;
  }
}

// Column sums accumulated in global memory, as PolyBench writes them: nvcc
// keeps the running value in a register, so sums[col] is stored in every
// iteration but never loaded.
__global__ void columnSumsInPlace(const float *a, float *sums, int rows,
                                  int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= cols)
    return;
  sums[col] = 0.0f;
  for (int i = 0; i < rows; ++i)
    sums[col] += a[i * cols + col];
}

// The same with a copy written in the loop through another pointer, which
// may alias sums: the running value is loaded again in every iteration.
__global__ void columnSumsAndCopy(const float *a, float *sums, float *copy,
                                  int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= cols)
    return;
  sums[col] = 0.0f;
  for (int i = 0; i < rows; ++i) {
    sums[col] += a[i * cols + col];
    copy[i * cols + col] = a[i * cols + col];
  }
}

// Squared column norms: a[i * cols + col] is read twice in every
// iteration, and loaded once.
__global__ void columnNorms(const float *a, float *norms, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col >= cols)
    return;
  float s = 0.0f;
  for (int i = 0; i < rows; ++i)
    s += a[i * cols + col] * a[i * cols + col];
  norms[col] = s;
}

// steps Jacobi sweeps over each block's tile, its halo held fixed.
__global__ void tileJacobi(const float *in, float *out, int n, int steps) {
  __shared__ float buf[2][TILE + 2][TILE + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
  buf[0][ty + 1][tx + 1] = in[y * n + x];
  buf[1][ty + 1][tx + 1] = in[y * n + x];
  if (tx == 0) {
    float l = x > 0 ? in[y * n + x - 1] : 0.0f;
    float r = x + TILE < n ? in[y * n + x + TILE] : 0.0f;
    buf[0][ty + 1][0] = l;
    buf[1][ty + 1][0] = l;
    buf[0][ty + 1][TILE + 1] = r;
    buf[1][ty + 1][TILE + 1] = r;
  }
  if (ty == 0) {
    float u = y > 0 ? in[(y - 1) * n + x] : 0.0f;
    float d = y + TILE < n ? in[(y + TILE) * n + x] : 0.0f;
    buf[0][0][tx + 1] = u;
    buf[1][0][tx + 1] = u;
    buf[0][TILE + 1][tx + 1] = d;
    buf[1][TILE + 1][tx + 1] = d;
  }
  __syncthreads();
  int cur = 0;
  for (int t = 0; t < steps; ++t) {
    buf[1 - cur][ty + 1][tx + 1] =
        0.25f * (buf[cur][ty][tx + 1] + buf[cur][ty + 2][tx + 1] +
                 buf[cur][ty + 1][tx] + buf[cur][ty + 1][tx + 2]);
    __syncthreads();
    cur = 1 - cur;
  }
  out[y * n + x] = buf[cur][ty + 1][tx + 1];
}

int main() {
  const int n = NEST_N;
  const size_t bytes = size_t(n) * n * sizeof(float);
  std::vector<float> host(size_t(n) * n);
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = float(i % 17) / 16.0f;
  float *a, *b, *sums;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMalloc(&sums, n * sizeof(float)));
  CHECK(cudaMemcpy(a, host.data(), bytes, cudaMemcpyHostToDevice));

  covariance<<<(n + 127) / 128, 128>>>(a, b, n, n);
  CHECK(cudaGetLastError());
  rowSums<<<(n + 127) / 128, 128>>>(a, sums, n, n);
  CHECK(cudaGetLastError());
  suffixSums<<<(n + 127) / 128, 128>>>(a, b, n);
  CHECK(cudaGetLastError());
  tileJacobi<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(a, b, n,
                                                             NEST_STEPS);
  CHECK(cudaGetLastError());
  columnSumsInPlace<<<(n + 127) / 128, 128>>>(a, b, n, n);
  CHECK(cudaGetLastError());
  columnSumsAndCopy<<<(n + 127) / 128, 128>>>(a, b, b + n, n - 1, n);
  CHECK(cudaGetLastError());
  columnNorms<<<(n + 127) / 128, 128>>>(a, b, n, n);
  CHECK(cudaGetLastError());

  // The first row's sum, as the CPU has it.
  std::vector<float> sum0(1);
  CHECK(cudaMemcpy(sum0.data(), sums, sizeof(float), cudaMemcpyDeviceToHost));
  float want = 0.0f;
  for (int j = 0; j < n; ++j)
    want += host[j];
  if (std::fabs(sum0[0] - want) > 1e-3f * std::fabs(want) + 1e-3f) {
    fprintf(stderr, "rowSums: got %f, expected %f\n", sum0[0], want);
    return 1;
  }
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(sums));
  printf("loop_nests: n=%d, %d Jacobi steps\n", n, NEST_STEPS);
  return 0;
}
