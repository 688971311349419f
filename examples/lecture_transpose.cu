// Seed 002 (Lecture 4, "matrix transpose: coalescing and shared memory"):
// gInitializeStorage fills an N x N matrix, gTranspose0 transposes it through
// global memory only, gTranspose1 through a 32 x 32 shared buffer read by
// column (bank conflicts: the seed's nvprof shows a shared efficiency of
// 6.06 %), gTranspose2 through a buffer padded to 33 columns (100 %). Every
// kernel walks the matrix with grid-stride loops. Launch configuration as the
// lecture's main(): 32 x 32 threads, min(ceil(N / 32), 1024) blocks per side.
//
// The lecture reads N from argv[1] ("./tran_matr 8192"); N defaults to 8192
// here, and `gmem-analyze lecture_transpose.cu --run-args 4096` follows N=4096.
//
// Build: nvcc -arch=sm_90 -lineinfo -o lecture_transpose lecture_transpose.cu
// Analyze: gmem-analyze lecture_transpose.cu
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  {                                                                            \
    cudaError_t err = call;                                                    \
    if (err != cudaSuccess) {                                                  \
      fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err),     \
              __FILE__, __LINE__);                                             \
      exit(1);                                                                 \
    }                                                                          \
  }

#define SH_DIM 32

__global__ void gInitializeStorage(float* storage_d, int N){
      int i=threadIdx.x+blockIdx.x*blockDim.x;
      int j=threadIdx.y+blockIdx.y*blockDim.y;
      // the loops allow any N, smaller than a block or larger than the grid
      for(int iy=j; iy<N;iy+=gridDim.y*blockDim.y)
        for(int ix=i; ix<N; ix+=gridDim.x*blockDim.x)
                      storage_d[ix+iy*N]=ix+iy*N;
}

// Simple transpose: coalesced read, strided write.
__global__ void gTranspose0(float* storage_d,float* storage_d_t, int N){
      int i=threadIdx.x+blockIdx.x*blockDim.x;
      int j=threadIdx.y+blockIdx.y*blockDim.y;
      for(int iy=j; iy<N;iy+=gridDim.y*blockDim.y)
             for(int ix=i; ix<N; ix+=gridDim.x*blockDim.x)
                    storage_d_t[iy+ix*N]=storage_d[ix+iy*N];
      __syncthreads();
}

// Shared memory with bank conflicts: the buffer is read by column.
__global__ void gTranspose1(float* storage_d,float* storage_d_t, int N){
    __shared__ float buffer[SH_DIM][SH_DIM];
    int i=threadIdx.x+blockIdx.x*blockDim.x;
    int j=threadIdx.y+blockIdx.y*blockDim.y;
    for(int iy=j; iy<N;iy+=gridDim.y*blockDim.y)
           for(int ix=i; ix<N; ix+=gridDim.x*blockDim.x)
                  buffer[threadIdx.y][threadIdx.x]=storage_d[ix+iy*N];
    __syncthreads();
    i=threadIdx.x+blockIdx.y*blockDim.x;
    j=threadIdx.y+blockIdx.x*blockDim.y;
    for(int iy=j; iy<N;iy+=gridDim.y*blockDim.y)
           for(int ix=i; ix<N; ix+=gridDim.x*blockDim.x)
                  storage_d_t[ix+iy*N]=buffer[threadIdx.x][threadIdx.y];
    __syncthreads();
}

// Shared memory without bank conflicts: one padding column.
__global__ void gTranspose2(float* storage_d,float* storage_d_t, int N){
    __shared__ float buffer[SH_DIM][SH_DIM+1];
    int i=threadIdx.x+blockIdx.x*blockDim.x;
    int j=threadIdx.y+blockIdx.y*blockDim.y;
    for(int iy=j; iy<N;iy+=gridDim.y*blockDim.y)
           for(int ix=i; ix<N; ix+=gridDim.x*blockDim.x)
                  buffer[threadIdx.y][threadIdx.x]=storage_d[ix+iy*N];
    __syncthreads();
    i=threadIdx.x+blockIdx.y*blockDim.x;
    j=threadIdx.y+blockIdx.x*blockDim.y;
    for(int iy=j; iy<N;iy+=gridDim.y*blockDim.y)
           for(int ix=i; ix<N; ix+=gridDim.x*blockDim.x)
                  storage_d_t[ix+iy*N]=buffer[threadIdx.x][threadIdx.y];
    __syncthreads();
}

void Output(float* a, int N){
  for(int i=0;i<N;i+=N/4){
    for(int j=0;j<N;j+=N/4)
      printf("%10.0f\t", a[j+i*N]);
    printf("\n");
  }
}

int main(int argc, char* argv[]){
      int N=argc>1?atoi(argv[1]):8192;
      const int max_size=1024;
      int size=N/32+(N%32>0);
      int dim_of_blocks=(size>max_size)?max_size:size;
      int dim_of_threads=32;
      float *storage_d, *storage_d_t, *storage_h;
      CHECK(cudaMalloc((void**)&storage_d, N*N*sizeof(float)));
      CHECK(cudaMalloc((void**)&storage_d_t, N*N*sizeof(float)));
      storage_h=(float*)calloc(N*N, sizeof(float));
      gInitializeStorage<<<dim3(dim_of_blocks, dim_of_blocks),dim3(dim_of_threads,dim_of_threads)>>>(storage_d,N);
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaMemcpy(storage_h, storage_d, N*N*sizeof(float), cudaMemcpyDeviceToHost));
      Output(storage_h, N);

      cudaEvent_t start, stop;
      float ms;
      CHECK(cudaEventCreate(&start));
      CHECK(cudaEventCreate(&stop));

      CHECK(cudaEventRecord(start));
      gTranspose0<<<dim3(dim_of_blocks, dim_of_blocks),dim3(dim_of_threads,dim_of_threads)>>>(storage_d,storage_d_t,N);
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(stop));
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      printf("gTranspose0 %.3f ms\n", ms);

      CHECK(cudaEventRecord(start));
      gTranspose1<<<dim3(dim_of_blocks, dim_of_blocks),dim3(dim_of_threads,dim_of_threads)>>>(storage_d,storage_d_t,N);
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(stop));
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      printf("gTranspose1 %.3f ms\n", ms);

      CHECK(cudaEventRecord(start));
      gTranspose2<<<dim3(dim_of_blocks, dim_of_blocks),dim3(dim_of_threads,dim_of_threads)>>>(storage_d,storage_d_t,N);
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(stop));
      CHECK(cudaDeviceSynchronize());
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      printf("gTranspose2 %.3f ms\n", ms);

      CHECK(cudaMemcpy(storage_h, storage_d_t, N*N*sizeof(float), cudaMemcpyDeviceToHost));
      Output(storage_h, N);

      CHECK(cudaEventDestroy(start));
      CHECK(cudaEventDestroy(stop));
      CHECK(cudaFree(storage_d));
      CHECK(cudaFree(storage_d_t));
      free(storage_h);
      return 0;
}
