// Seed 000, section 5.4.4: transposeSmemUnrollPad exactly as the seed prints
// it, launched as transposeRectangle launches it (block 32 x 16, half the
// grid along x).
//
// DO NOT RUN THIS ON A GPU. The kernel reads tile[irow][...] with
// irow = bidx / blockDim.y up to 511 / 16 = 31 on a tile of BDIMY = 16 rows:
// an out-of-bounds shared-memory access that faults on the device (illegal
// address). It is here so that `gmem-analyze transpose_seed_printed.cu`
// shows the analyzer flagging that access; transpose.cu has the book's
// in-bounds version.
//
// Build: nvcc -arch=sm_90 -lineinfo -o transpose_seed_printed transpose_seed_printed.cu
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
#define IPAD 2

#define INDEX(ROW, COL, INNER) ((ROW) * (INNER) + (COL))

__global__ void transposeSmemUnrollPad(float *out, float *in, const int nrows,
                                       const int ncols)
{
    // static 1D shared memory with padding
    __shared__ float tile[BDIMY][BDIMX * 2 + IPAD];

    // coordinate in original matrix
    unsigned int row = blockIdx.y * blockDim.y + threadIdx.y;
    unsigned int col = (2 * blockIdx.x * blockDim.x) + threadIdx.x;

    unsigned int row2 = row;
    unsigned int col2 = col + blockDim.x;

    // linear global memory index for original matrix
    unsigned int offset = INDEX(row, col, ncols);
    unsigned int offset2 = INDEX(row2, col2, ncols);

    // thread index in transposed block
    unsigned int bidx = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned int irow = bidx / blockDim.y;
    unsigned int icol = bidx % blockDim.y;

    // linear global memory index for transposed matrix
    unsigned int transposed_offset = INDEX(col, row, nrows);
    unsigned int transposed_offset2 = INDEX(col2, row2, nrows);

    if (row < nrows && col < ncols)
    {
        tile[threadIdx.y][threadIdx.x] = in[offset];
    }
    if (row2 < nrows && col2 < ncols)
    {
        tile[threadIdx.y][blockDim.x + threadIdx.x] = in[offset2];
    }

    __syncthreads();

    if (row < nrows && col < ncols)
    {
        // out of bounds: irow reaches 31, the tile has BDIMY = 16 rows
        out[transposed_offset] = tile[irow][icol];
    }
    if (row2 < nrows && col2 < ncols)
    {
        // out of bounds as above
        out[transposed_offset2] = tile[irow][blockDim.x + icol];
    }
}

int main()
{
    // set up array size
    int nrows = 1 << 12;
    int ncols = 1 << 12;
    size_t nBytes = (size_t)nrows * ncols * sizeof(float);

    // execution configuration, as transposeRectangle sets it
    dim3 block(BDIMX, BDIMY);
    dim3 grid((ncols + block.x - 1) / block.x, (nrows + block.y - 1) / block.y);
    dim3 grid2((grid.x + 1) / 2, grid.y);

    float *h_A = (float *)malloc(nBytes);
    for (int i = 0; i < nrows * ncols; i++)
        h_A[i] = (float)(rand() & 0xFF) / 10.0f;

    float *d_A, *d_C;
    CHECK(cudaMalloc((float **)&d_A, nBytes));
    CHECK(cudaMalloc((float **)&d_C, nBytes));
    CHECK(cudaMemcpy(d_A, h_A, nBytes, cudaMemcpyHostToDevice));

    // faults on a GPU: see the comment at the top of the file
    transposeSmemUnrollPad<<<grid2, block>>>(d_C, d_A, nrows, ncols);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    printf("transposeSmemUnrollPad (as printed) <<< grid (%d,%d) block "
           "(%d,%d)>>> finished\n",
           grid2.x, grid2.y, block.x, block.y);

    CHECK(cudaFree(d_A));
    CHECK(cudaFree(d_C));
    free(h_A);
    CHECK(cudaDeviceReset());
    return EXIT_SUCCESS;
}
