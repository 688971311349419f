// Seed 001 ("Coalesced and uncoalesced global memory access"): five access
// patterns of z[n] = x[n] + y[n], each launched <<<128, 32>>> on float arrays
// from cudaMalloc (256-byte aligned), and the matrix transposes of section
// "Matrix transpose with global memory" (double, N = 1024, 32 x 32 blocks).
//
// Build: nvcc -arch=sm_90 -lineinfo -o coalescing coalescing.cu
// Analyze: gmem-analyze coalescing.cu
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    const cudaError_t error_code = call;                                       \
    if (error_code != cudaSuccess) {                                           \
      printf("CUDA Error:\n");                                                 \
      printf("    File:       %s\n", __FILE__);                                \
      printf("    Line:       %d\n", __LINE__);                                \
      printf("    Error code: %d\n", error_code);                              \
      printf("    Error text: %s\n", cudaGetErrorString(error_code));          \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

const int TILE_DIM = 32;

// Sequential coalesced access: 4 sectors per warp request, 100 %.
__global__ void global_add(float* x, float* y, float* z)
{
    int n = threadIdx.x + blockIdx.x * blockDim.x;
    z[n] = x[n] + y[n];
}

// Permuted coalesced access: the same 128 bytes in another lane order, 100 %.
__global__ void global_add_permuted(float *x, float *y, float *z)
{
    int tid_permuted = threadIdx.x ^ 0x1; // 0x1 is some permutation
    int n = tid_permuted + blockIdx.x * blockDim.x;
    z[n] = x[n] + y[n];
}

// Misaligned uncoalesced access: elements 1..32 span 5 sectors, 80 %.
__global__ void global_add_offset(float *x, float *y, float *z)
{
    int n = threadIdx.x + blockIdx.x * blockDim.x + 1;
    z[n] = x[n] + y[n];
}

// Strided uncoalesced access: 32 sectors per request, 12.5 %.
__global__ void global_add_stride(float *x, float *y, float *z)
{
    int n = blockIdx.x + threadIdx.x * gridDim.x;
    z[n] = x[n] + y[n];
}

// Broadcast: every lane reads x[0], one sector of which 4 bytes are used.
__global__ void global_add_broadcast(float *x, float *y, float *z)
{
    int n = threadIdx.x + blockIdx.x * blockDim.x;
    z[n] = x[0] + y[n];
}

// Coalesced read, strided write.
__global__ void transpose1(const double *A, double *B, const int N)
{
    const int nx = blockIdx.x * blockDim.x + threadIdx.x;
    const int ny = blockIdx.y * blockDim.y + threadIdx.y;
    if (nx < N && ny < N)
    {
        B[nx * N + ny] = A[ny * N + nx];
    }
}

// Strided read (through the read-only cache where the compiler proves A
// read-only), coalesced write.
__global__ void transpose2(const double *A, double *B, const int N)
{
    const int nx = blockIdx.x * blockDim.x + threadIdx.x;
    const int ny = blockIdx.y * blockDim.y + threadIdx.y;
    if (nx < N && ny < N)
    {
        B[ny * N + nx] = A[nx * N + ny];
    }
}

// transpose2 with an explicit __ldg, as Kepler and Maxwell need.
__global__ void transpose3(const double *A, double *B, const int N)
{
    const int nx = blockIdx.x * blockDim.x + threadIdx.x;
    const int ny = blockIdx.y * blockDim.y + threadIdx.y;
    if (nx < N && ny < N)
    {
        B[ny * N + nx] = __ldg(&A[nx * N + ny]);
    }
}

// Checks z[n] = x[n] + y[n] for the N elements an add kernel wrote
// (shifted by one for global_add_offset) and prints its time.
void check_add(const char *name, const float *h_z, const float *h_x,
               const float *h_y, int N, int shift, float ms)
{
    int errors = 0;
    for (int n = shift; n < N + shift; ++n)
    {
        if (h_z[n] != h_x[n] + h_y[n])
            ++errors;
    }
    printf("%-22s <<<128, 32>>> %8.4f ms, %s\n", name, ms,
           errors ? "WRONG" : "ok");
}

void check_transpose(const char *name, const double *h_B, const double *h_A,
                     int N, float ms)
{
    int errors = 0;
    for (int ny = 0; ny < N; ++ny)
        for (int nx = 0; nx < N; ++nx)
            if (h_B[nx * N + ny] != h_A[ny * N + nx])
                ++errors;
    printf("%-22s N = %d, block 32x32: %8.4f ms, %s\n", name, N, ms,
           errors ? "WRONG" : "ok");
}

int main(void)
{
    // The add kernels: 128 blocks of 32 threads, one element per thread.
    // global_add_offset reaches element N: allocate one more.
    const int N = 128 * 32;
    const int M = sizeof(float) * (N + 1);
    float *h_x = (float *)malloc(M);
    float *h_y = (float *)malloc(M);
    float *h_z = (float *)malloc(M);
    for (int n = 0; n < N + 1; ++n)
    {
        h_x[n] = 1.23f + n;
        h_y[n] = 2.34f * n;
    }
    float *x, *y, *z;
    CHECK(cudaMalloc((void **)&x, M));
    CHECK(cudaMalloc((void **)&y, M));
    CHECK(cudaMalloc((void **)&z, M));
    CHECK(cudaMemcpy(x, h_x, M, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(y, h_y, M, cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    float ms;

    CHECK(cudaEventRecord(start));
    global_add<<<128, 32>>>(x, y, z);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(h_z, z, M, cudaMemcpyDeviceToHost));
    check_add("global_add", h_z, h_x, h_y, N, 0, ms);

    CHECK(cudaEventRecord(start));
    global_add_permuted<<<128, 32>>>(x, y, z);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(h_z, z, M, cudaMemcpyDeviceToHost));
    check_add("global_add_permuted", h_z, h_x, h_y, N, 0, ms);

    CHECK(cudaEventRecord(start));
    global_add_offset<<<128, 32>>>(x, y, z);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(h_z, z, M, cudaMemcpyDeviceToHost));
    check_add("global_add_offset", h_z, h_x, h_y, N, 1, ms);

    CHECK(cudaEventRecord(start));
    global_add_stride<<<128, 32>>>(x, y, z);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(h_z, z, M, cudaMemcpyDeviceToHost));
    check_add("global_add_stride", h_z, h_x, h_y, N, 0, ms);

    CHECK(cudaEventRecord(start));
    global_add_broadcast<<<128, 32>>>(x, y, z);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(h_z, z, M, cudaMemcpyDeviceToHost));
    int errors = 0;
    for (int n = 0; n < N; ++n)
        if (h_z[n] != h_x[0] + h_y[n])
            ++errors;
    printf("%-22s <<<128, 32>>> %8.4f ms, %s\n", "global_add_broadcast", ms,
           errors ? "WRONG" : "ok");

    // The transposes: an N x N matrix of doubles, TILE_DIM x TILE_DIM blocks.
    const int NT = 1024;
    const int N2 = NT * NT;
    const int M2 = sizeof(double) * N2;
    double *h_A = (double *)malloc(M2);
    double *h_B = (double *)malloc(M2);
    for (int n = 0; n < N2; ++n)
    {
        h_A[n] = n;
    }
    double *d_A, *d_B;
    CHECK(cudaMalloc(&d_A, M2));
    CHECK(cudaMalloc(&d_B, M2));
    CHECK(cudaMemcpy(d_A, h_A, M2, cudaMemcpyHostToDevice));

    const int grid_size_x = (NT + TILE_DIM - 1) / TILE_DIM;
    const int grid_size_y = grid_size_x;
    const dim3 block_size(TILE_DIM, TILE_DIM);
    const dim3 grid_size(grid_size_x, grid_size_y);

    CHECK(cudaEventRecord(start));
    transpose1<<<grid_size, block_size>>>(d_A, d_B, NT);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(h_B, d_B, M2, cudaMemcpyDeviceToHost));
    check_transpose("transpose1", h_B, h_A, NT, ms);

    CHECK(cudaEventRecord(start));
    transpose2<<<grid_size, block_size>>>(d_A, d_B, NT);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(h_B, d_B, M2, cudaMemcpyDeviceToHost));
    check_transpose("transpose2", h_B, h_A, NT, ms);

    CHECK(cudaEventRecord(start));
    transpose3<<<grid_size, block_size>>>(d_A, d_B, NT);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(h_B, d_B, M2, cudaMemcpyDeviceToHost));
    check_transpose("transpose3", h_B, h_A, NT, ms);

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    free(h_x);
    free(h_y);
    free(h_z);
    free(h_A);
    free(h_B);
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
    CHECK(cudaFree(z));
    CHECK(cudaFree(d_A));
    CHECK(cudaFree(d_B));
    return 0;
}
