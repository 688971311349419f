// Seed 003 ("5.2 Shared memory data layout", the book's
// 24_shared_memory_read_data): one block writes its thread indices to a
// shared tile and reads them back, by row or by column, from square
// (32 x 32 block) and rectangular (32 x 16 block) tiles, static and dynamic
// (extern __shared__), with and without padding. The seed's nvprof shows
// 1 shared transaction per request by row and 32 by column (square), 16 by
// column (rectangle), 2 with one padding column and 1 with two.
//
// Build: nvcc -arch=sm_90 -lineinfo -o smem_layout smem_layout.cu
// Analyze: gmem-analyze smem_layout.cu
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

// Square tile ("Square shared memory").
#define BDIMX 32
#define BDIMY 32
// Rectangular tile ("Rectangular shared memory").
#define BDIMX_RECT 32
#define BDIMY_RECT 16
#define IPAD 1

// Row-major write and read: no bank conflict.
__global__ void setRowReadRow(int * out)
{
    __shared__ int tile[BDIMY][BDIMX];
    unsigned int idx=threadIdx.y*blockDim.x+threadIdx.x;

    tile[threadIdx.y][threadIdx.x]=idx;
    __syncthreads();
    out[idx]=tile[threadIdx.y][threadIdx.x];
}

// Column-major write and read: 32-way conflicts on both.
__global__ void setColReadCol(int * out)
{
    __shared__ int tile[BDIMY][BDIMX];
    unsigned int idx=threadIdx.y*blockDim.x+threadIdx.x;

    tile[threadIdx.x][threadIdx.y]=idx;
    __syncthreads();
    out[idx]=tile[threadIdx.x][threadIdx.y];
}

// "Write by row, read by column" (the seed shows only its two changed lines).
__global__ void setRowReadCol(int * out)
{
    __shared__ int tile[BDIMY][BDIMX];
    unsigned int idx=threadIdx.y*blockDim.x+threadIdx.x;

    tile[threadIdx.y][threadIdx.x]=idx;
    __syncthreads();
    out[idx]=tile[threadIdx.x][threadIdx.y];
}

// "Dynamic shared memory": the same with a 1-D extern tile.
__global__ void setRowReadColDyn(int * out)
{
    extern __shared__ int tile[];
    unsigned int row_idx=threadIdx.y*blockDim.x+threadIdx.x;
    unsigned int col_idx=threadIdx.x*blockDim.y+threadIdx.y;
    tile[row_idx]=row_idx;
    __syncthreads();
    out[row_idx]=tile[col_idx];
}

// "Padding statically declared shared memory".
__global__ void setRowReadColIpad(int * out)
{
    __shared__ int tile[BDIMY][BDIMX+IPAD];
    unsigned int idx=threadIdx.y*blockDim.x+threadIdx.x;

    tile[threadIdx.y][threadIdx.x]=idx;
    __syncthreads();
    out[idx]=tile[threadIdx.x][threadIdx.y];
}

// "Padding dynamically declared shared memory". out is indexed by the padded
// row_idx, so it needs (BDIMX + 1) * BDIMY elements.
__global__ void setRowReadColDynIpad(int * out)
{
    extern __shared__ int tile[];
    unsigned int row_idx=threadIdx.y*(blockDim.x+1)+threadIdx.x;
    unsigned int col_idx=threadIdx.x*(blockDim.x+1)+threadIdx.y;
    tile[row_idx]=row_idx;
    __syncthreads();
    out[row_idx]=tile[col_idx];
}

// "Rectangular shared memory, row-major write and column-major read".
__global__ void setRowReadColRect(int * out)
{
    __shared__ int tile[BDIMY_RECT][BDIMX_RECT];
    unsigned int idx=threadIdx.y*blockDim.x+threadIdx.x;
    unsigned int icol=idx%blockDim.y;
    unsigned int irow=idx/blockDim.y;
    tile[threadIdx.y][threadIdx.x]=idx;
    __syncthreads();
    out[idx]=tile[icol][irow];
}

// Rectangular, dynamically declared.
__global__ void setRowReadColRectDyn(int * out)
{
    extern __shared__ int tile[];
    unsigned int idx=threadIdx.y*blockDim.x+threadIdx.x;
    unsigned int icol=idx%blockDim.y;
    unsigned int irow=idx/blockDim.y;
    unsigned int col_idx=icol*blockDim.x+irow;
    tile[idx]=idx;
    __syncthreads();
    out[idx]=tile[col_idx];
}

// Rectangular, statically padded by one column (the seed's
// setRowReadColRectPad with IPAD): 2-way conflicts.
__global__ void setRowReadColRectPad1(int * out)
{
    __shared__ int tile[BDIMY_RECT][BDIMX_RECT+IPAD];
    unsigned int idx=threadIdx.y*blockDim.x+threadIdx.x;
    unsigned int icol=idx%blockDim.y;
    unsigned int irow=idx/blockDim.y;
    tile[threadIdx.y][threadIdx.x]=idx;
    __syncthreads();
    out[idx]=tile[icol][irow];
}

// The seed's second setRowReadColRectPad, padded by IPAD*2 columns: no
// conflict.
__global__ void setRowReadColRectPad2(int * out)
{
    __shared__ int tile[BDIMY_RECT][BDIMX_RECT+IPAD*2];
    unsigned int idx=threadIdx.y*blockDim.x+threadIdx.x;
    unsigned int icol=idx%blockDim.y;
    unsigned int irow=idx/blockDim.y;
    tile[threadIdx.y][threadIdx.x]=idx;
    __syncthreads();
    out[idx]=tile[icol][irow];
}

// Rectangular, dynamically declared and padded by one column.
__global__ void setRowReadColRectDynPad(int * out)
{
    extern __shared__ int tile[];
    unsigned int idx=threadIdx.y*blockDim.x+threadIdx.x;
    unsigned int icol=idx%blockDim.y;
    unsigned int irow=idx/blockDim.y;
    unsigned int row_idx=threadIdx.y*(IPAD+blockDim.x)+threadIdx.x;
    unsigned int col_idx=icol*(IPAD+blockDim.x)+irow;
    tile[row_idx]=idx;
    __syncthreads();
    out[idx]=tile[col_idx];
}

// Copies out back and prints its first elements, which show the order the
// kernel read the tile in.
void printData(const char *name, int *d_out, int *h_out, int nElem)
{
    CHECK(cudaMemcpy(h_out, d_out, nElem * sizeof(int), cudaMemcpyDeviceToHost));
    printf("%-24s:", name);
    for (int i = 0; i < 8; i++)
        printf(" %4d", h_out[i]);
    printf(" ...\n");
}

int main(int, char **argv)
{
    // set up device
    int dev = 0;
    cudaDeviceProp deviceProp;
    CHECK(cudaGetDeviceProperties(&deviceProp, dev));
    printf("%s at device %d: %s\n", argv[0], dev, deviceProp.name);
    CHECK(cudaSetDevice(dev));

    // out holds one int per thread; the dynamically padded square kernel
    // writes (BDIMX + IPAD) * BDIMY of them.
    int nElem = (BDIMX + IPAD) * BDIMY;
    int nByte = sizeof(int) * nElem;
    int *out;
    CHECK(cudaMalloc((int **)&out, nByte));
    int *h_out = (int *)malloc(nByte);

    // square: one block of 32 x 32 threads
    dim3 block(BDIMX, BDIMY);
    dim3 grid(1, 1);

    CHECK(cudaMemset(out, 0, nByte));
    setRowReadRow<<<grid, block>>>(out);
    CHECK(cudaGetLastError());
    printData("setRowReadRow", out, h_out, nElem);

    CHECK(cudaMemset(out, 0, nByte));
    setColReadCol<<<grid, block>>>(out);
    CHECK(cudaGetLastError());
    printData("setColReadCol", out, h_out, nElem);

    CHECK(cudaMemset(out, 0, nByte));
    setRowReadCol<<<grid, block>>>(out);
    CHECK(cudaGetLastError());
    printData("setRowReadCol", out, h_out, nElem);

    CHECK(cudaMemset(out, 0, nByte));
    setRowReadColDyn<<<grid, block, (BDIMX)*BDIMY*sizeof(int)>>>(out);
    CHECK(cudaGetLastError());
    printData("setRowReadColDyn", out, h_out, nElem);

    CHECK(cudaMemset(out, 0, nByte));
    setRowReadColIpad<<<grid, block>>>(out);
    CHECK(cudaGetLastError());
    printData("setRowReadColIpad", out, h_out, nElem);

    CHECK(cudaMemset(out, 0, nByte));
    setRowReadColDynIpad<<<grid, block, (BDIMX+IPAD)*BDIMY*sizeof(int)>>>(out);
    CHECK(cudaGetLastError());
    printData("setRowReadColDynIpad", out, h_out, nElem);

    // rectangle: one block of 32 x 16 threads
    dim3 block_rect(BDIMX_RECT, BDIMY_RECT);
    dim3 grid_rect(1, 1);

    CHECK(cudaMemset(out, 0, nByte));
    setRowReadColRect<<<grid_rect, block_rect>>>(out);
    CHECK(cudaGetLastError());
    printData("setRowReadColRect", out, h_out, nElem);

    CHECK(cudaMemset(out, 0, nByte));
    setRowReadColRectDyn<<<grid_rect, block_rect, BDIMX_RECT*BDIMY_RECT*sizeof(int)>>>(out);
    CHECK(cudaGetLastError());
    printData("setRowReadColRectDyn", out, h_out, nElem);

    CHECK(cudaMemset(out, 0, nByte));
    setRowReadColRectPad1<<<grid_rect, block_rect>>>(out);
    CHECK(cudaGetLastError());
    printData("setRowReadColRectPad1", out, h_out, nElem);

    CHECK(cudaMemset(out, 0, nByte));
    setRowReadColRectPad2<<<grid_rect, block_rect>>>(out);
    CHECK(cudaGetLastError());
    printData("setRowReadColRectPad2", out, h_out, nElem);

    // the seed passes (BDIMX+1)*BDIMY ints here, more than the 33 x 16 the
    // padded rectangle needs
    CHECK(cudaMemset(out, 0, nByte));
    setRowReadColRectDynPad<<<grid_rect, block_rect, (BDIMX+1)*BDIMY*sizeof(int)>>>(out);
    CHECK(cudaGetLastError());
    printData("setRowReadColRectDynPad", out, h_out, nElem);

    CHECK(cudaDeviceSynchronize());

    // free host and device memory
    CHECK(cudaFree(out));
    free(h_out);

    // reset device
    CHECK(cudaDeviceReset());
    return EXIT_SUCCESS;
}
