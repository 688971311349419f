// Seed 000 ("5.4 Coalesced global memory access", the book's
// transposeRectangle program): a 4096 x 4096 float matrix transposed by
// global-memory-only kernels and by kernels that stage a tile in shared
// memory, launched with BDIMX x BDIMY = 32 x 16 blocks.
//
// Build: nvcc -arch=sm_90 -lineinfo -o transpose transpose.cu
// Analyze: gmem-analyze transpose.cu [--block 32,16]
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

#define BDIMX 32
#define BDIMY 16
// Seed 5.4.3: the padding "depends on the card, try 1 or 2".
#define IPAD 2

#define INDEX(ROW, COL, INNER) ((ROW) * (INNER) + (COL))

// Seed 5.4.1, as printed: ix follows threadIdx.y, so the read is strided and
// the write coalesced (the seed's nvprof table describes the opposite).
__global__ void naiveGmem(float *out, float *in, const int nx, const int ny)
{
    // matrix coordinate (ix,iy)
    unsigned int ix = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int iy = blockIdx.x * blockDim.x + threadIdx.x;

    // transpose with boundary test
    if (ix < nx && iy < ny)
    {
        out[ix*ny+iy] = in[iy*nx+ix];
    }
}

// Seed 5.4.1: called a copy (the upper bound), but as its own note says it
// is a transpose: coalesced read, strided write.
__global__ void copyGmem(float *out, float *in, const int nrows, const int ncols)
{
    // matrix coordinate (ix,iy)
    unsigned int row = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int col = blockIdx.x * blockDim.x + threadIdx.x;

    // transpose with boundary test
    if (row < nrows && col < ncols)
    {
        // NOTE this is a transpose, not a copy
        out[INDEX(col, row, nrows)] = in[INDEX(row, col, ncols)];
    }
}

// The book's true copy kernel (the bound the seed means): both sides
// coalesced.
__global__ void copyRow(float *out, float *in, const int nrows, const int ncols)
{
    unsigned int row = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int col = blockIdx.x * blockDim.x + threadIdx.x;

    if (row < nrows && col < ncols)
    {
        out[INDEX(row, col, ncols)] = in[INDEX(row, col, ncols)];
    }
}

// Seed 5.4.2: transpose through a 2-D shared tile; the column read of the
// unpadded tile conflicts (16 ways for a 32 x 16 block).
__global__ void transposeSmem(float *out, float *in, int nrows, int ncols)
{
    // static shared memory
    __shared__ float tile[BDIMY][BDIMX];

    // coordinate in original matrix
    unsigned int row = blockDim.y * blockIdx.y + threadIdx.y;
    unsigned int col = blockDim.x * blockIdx.x + threadIdx.x;

    // linear global memory index for original matrix
    unsigned int offset = INDEX(row, col, ncols);

    if (row < nrows && col < ncols)
    {
      // load data from global memory to shared memory
      tile[threadIdx.y][threadIdx.x] = in[offset];
    }

    // thread index in transposed block
    unsigned int bidx, irow, icol;
    bidx = threadIdx.y * blockDim.x + threadIdx.x;
    irow = bidx / blockDim.y;
    icol = bidx % blockDim.y;

    // NOTE - need to transpose row and col on block and thread-block level:
    // 1. swap blocks x-y
    // 2. swap thread x-y assignment (irow and icol calculations above)
    // note col still has continuous threadIdx.x -> coalesced gst
    col = blockIdx.y * blockDim.y + icol;
    row = blockIdx.x * blockDim.x + irow;

    // linear global memory index for transposed matrix
    // NOTE nrows is stride of result, row and col are transposed
    unsigned int transposed_offset = INDEX(row, col, nrows);
    // thread synchronization
    __syncthreads();

    // NOTE invert sizes for write check
    if (row < ncols && col < nrows)
    {
        // store data to global memory from shared memory
        out[transposed_offset] = tile[icol][irow]; // NOTE icol,irow not irow,icol
    }
}

// Seed 5.4.3: transposeSmem with IPAD padding columns in the tile, which
// removes the bank conflicts of the column read.
__global__ void transposeSmemPad(float *out, float *in, int nrows, int ncols)
{
    // static shared memory with padding
    __shared__ float tile[BDIMY][BDIMX + IPAD];

    // coordinate in original matrix
    unsigned int row = blockDim.y * blockIdx.y + threadIdx.y;
    unsigned int col = blockDim.x * blockIdx.x + threadIdx.x;

    // linear global memory index for original matrix
    unsigned int offset = INDEX(row, col, ncols);

    if (row < nrows && col < ncols)
    {
      // load data from global memory to shared memory
      tile[threadIdx.y][threadIdx.x] = in[offset];
    }

    // thread index in transposed block
    unsigned int bidx, irow, icol;
    bidx = threadIdx.y * blockDim.x + threadIdx.x;
    irow = bidx / blockDim.y;
    icol = bidx % blockDim.y;

    col = blockIdx.y * blockDim.y + icol;
    row = blockIdx.x * blockDim.x + irow;

    // linear global memory index for transposed matrix
    unsigned int transposed_offset = INDEX(row, col, nrows);
    // thread synchronization
    __syncthreads();

    if (row < ncols && col < nrows)
    {
        // store data to global memory from shared memory
        out[transposed_offset] = tile[icol][irow];
    }
}

// Seed 5.4.4: each thread transposes two elements one block width apart.
// The seed prints a 2-D tile read as tile[irow][icol] with irow up to 31 on
// a tile of BDIMY = 16 rows, which is out of bounds (see
// transpose_seed_printed.cu); this is the book's in-bounds 1-D-tile version,
// the one ../shared/groundtruth/seeds_gt.cu measures.
__global__ void transposeSmemUnrollPad(float *out, float *in, const int nx,
                                       const int ny)
{
    // static 1D shared memory with padding
    __shared__ float tile[BDIMY * (BDIMX * 2 + IPAD)];

    // coordinate in original matrix
    unsigned int ix = 2 * blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int iy = blockIdx.y * blockDim.y + threadIdx.y;

    // linear global memory index for original matrix
    unsigned int ti = iy * nx + ix;

    // thread index in transposed block
    unsigned int bidx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int irow = bidx / blockDim.y;
    unsigned int icol = bidx % blockDim.y;

    // coordinate in transposed matrix
    unsigned int ix2 = blockIdx.y * blockDim.y + icol;
    unsigned int iy2 = 2 * blockIdx.x * blockDim.x + irow;

    // linear global memory index for transposed matrix
    unsigned int to = iy2 * ny + ix2;

    if (ix + blockDim.x < nx && iy < ny)
    {
        // load two rows from global memory to shared memory
        unsigned int row_idx = threadIdx.y * (blockDim.x * 2 + IPAD) + threadIdx.x;
        tile[row_idx] = in[ti];
        tile[row_idx + BDIMX] = in[ti + BDIMX];

        // thread synchronization
        __syncthreads();

        // store two rows to global memory from two columns of shared memory
        unsigned int col_idx = icol * (blockDim.x * 2 + IPAD) + irow;
        out[to] = tile[col_idx];
        out[to + ny * BDIMX] = tile[col_idx + BDIMX];
    }
}

void initialData(float *in, const int size)
{
    for (int i = 0; i < size; i++)
    {
        in[i] = (float)(rand() & 0xFF) / 10.0f;
    }
}

// The transpose of in (nrows x ncols) into out (ncols x nrows).
void transposeHost(float *out, float *in, const int nrows, const int ncols)
{
    for (int iy = 0; iy < nrows; ++iy)
    {
        for (int ix = 0; ix < ncols; ++ix)
        {
            out[INDEX(ix, iy, nrows)] = in[INDEX(iy, ix, ncols)];
        }
    }
}

int checkResult(float *hostRef, float *gpuRef, int size)
{
    for (int i = 0; i < size; i++)
    {
        if (hostRef[i] != gpuRef[i])
        {
            printf("different on index %d: host %5.2f gpu %5.2f\n", i,
                   hostRef[i], gpuRef[i]);
            return 0;
        }
    }
    return 1;
}

int main(int, char **argv)
{
    // set up device
    int dev = 0;
    cudaDeviceProp deviceProp;
    CHECK(cudaGetDeviceProperties(&deviceProp, dev));
    CHECK(cudaSetDevice(dev));

    // set up array size
    int nrows = 1 << 12;
    int ncols = 1 << 12;
    printf("%s starting transpose at device %d: %s with matrix nrows %d ncols %d\n",
           argv[0], dev, deviceProp.name, nrows, ncols);
    size_t ncells = (size_t)nrows * ncols;
    size_t nBytes = ncells * sizeof(float);

    // execution configuration
    dim3 block(BDIMX, BDIMY);
    dim3 grid((ncols + block.x - 1) / block.x, (nrows + block.y - 1) / block.y);
    // the unrolled kernel covers two tiles along x per block
    dim3 grid2((grid.x + 1) / 2, grid.y);

    // allocate host memory
    float *h_A = (float *)malloc(nBytes);
    float *hostRef = (float *)malloc(nBytes);
    float *copyRef = (float *)malloc(nBytes);
    float *gpuRef = (float *)malloc(nBytes);

    // initialize host array
    initialData(h_A, nrows * ncols);
    transposeHost(hostRef, h_A, nrows, ncols);
    for (size_t i = 0; i < ncells; i++)
        copyRef[i] = h_A[i];

    // allocate device memory
    float *d_A, *d_C;
    CHECK(cudaMalloc((float **)&d_A, nBytes));
    CHECK(cudaMalloc((float **)&d_C, nBytes));

    // copy data from host to device
    CHECK(cudaMemcpy(d_A, h_A, nBytes, cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    float ms;

    // naiveGmem (nx = ncols, ny = nrows)
    CHECK(cudaMemset(d_C, 0, nBytes));
    CHECK(cudaEventRecord(start));
    naiveGmem<<<grid, block>>>(d_C, d_A, ncols, nrows);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(gpuRef, d_C, nBytes, cudaMemcpyDeviceToHost));
    printf("naiveGmem elapsed %f ms <<< grid (%d,%d) block (%d,%d)>>> "
           "effective bandwidth %f GB/s %s\n",
           ms, grid.x, grid.y, block.x, block.y, 2.0 * nBytes / ms / 1e6,
           checkResult(hostRef, gpuRef, ncells) ? "ok" : "WRONG");

    // copyGmem (a transpose, see its comment)
    CHECK(cudaMemset(d_C, 0, nBytes));
    CHECK(cudaEventRecord(start));
    copyGmem<<<grid, block>>>(d_C, d_A, nrows, ncols);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(gpuRef, d_C, nBytes, cudaMemcpyDeviceToHost));
    printf("copyGmem elapsed %f ms <<< grid (%d,%d) block (%d,%d)>>> "
           "effective bandwidth %f GB/s %s\n",
           ms, grid.x, grid.y, block.x, block.y, 2.0 * nBytes / ms / 1e6,
           checkResult(hostRef, gpuRef, ncells) ? "ok" : "WRONG");

    // copyRow (a copy: checked against the input)
    CHECK(cudaMemset(d_C, 0, nBytes));
    CHECK(cudaEventRecord(start));
    copyRow<<<grid, block>>>(d_C, d_A, nrows, ncols);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(gpuRef, d_C, nBytes, cudaMemcpyDeviceToHost));
    printf("copyRow elapsed %f ms <<< grid (%d,%d) block (%d,%d)>>> "
           "effective bandwidth %f GB/s %s\n",
           ms, grid.x, grid.y, block.x, block.y, 2.0 * nBytes / ms / 1e6,
           checkResult(copyRef, gpuRef, ncells) ? "ok" : "WRONG");

    // transposeSmem
    CHECK(cudaMemset(d_C, 0, nBytes));
    CHECK(cudaEventRecord(start));
    transposeSmem<<<grid, block>>>(d_C, d_A, nrows, ncols);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(gpuRef, d_C, nBytes, cudaMemcpyDeviceToHost));
    printf("transposeSmem elapsed %f ms <<< grid (%d,%d) block (%d,%d)>>> "
           "effective bandwidth %f GB/s %s\n",
           ms, grid.x, grid.y, block.x, block.y, 2.0 * nBytes / ms / 1e6,
           checkResult(hostRef, gpuRef, ncells) ? "ok" : "WRONG");

    // transposeSmemPad
    CHECK(cudaMemset(d_C, 0, nBytes));
    CHECK(cudaEventRecord(start));
    transposeSmemPad<<<grid, block>>>(d_C, d_A, nrows, ncols);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(gpuRef, d_C, nBytes, cudaMemcpyDeviceToHost));
    printf("transposeSmemPad elapsed %f ms <<< grid (%d,%d) block (%d,%d)>>> "
           "effective bandwidth %f GB/s %s\n",
           ms, grid.x, grid.y, block.x, block.y, 2.0 * nBytes / ms / 1e6,
           checkResult(hostRef, gpuRef, ncells) ? "ok" : "WRONG");

    // transposeSmemUnrollPad (nx = ncols, ny = nrows)
    CHECK(cudaMemset(d_C, 0, nBytes));
    CHECK(cudaEventRecord(start));
    transposeSmemUnrollPad<<<grid2, block>>>(d_C, d_A, ncols, nrows);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    CHECK(cudaMemcpy(gpuRef, d_C, nBytes, cudaMemcpyDeviceToHost));
    printf("transposeSmemUnrollPad elapsed %f ms <<< grid (%d,%d) block "
           "(%d,%d)>>> effective bandwidth %f GB/s %s\n",
           ms, grid2.x, grid2.y, block.x, block.y, 2.0 * nBytes / ms / 1e6,
           checkResult(hostRef, gpuRef, ncells) ? "ok" : "WRONG");

    // free host and device memory
    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_A));
    CHECK(cudaFree(d_C));
    free(h_A);
    free(hostRef);
    free(copyRef);
    free(gpuRef);

    // reset device
    CHECK(cudaDeviceReset());
    return EXIT_SUCCESS;
}
