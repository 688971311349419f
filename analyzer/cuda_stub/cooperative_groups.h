// Stand-in for <cooperative_groups.h> (no CUDA installation): the thread
// block, grid and tile groups with what kernels commonly call, written in
// terms of the built-in thread indices so that the analyzer can follow them.
#ifndef GMEM_STUB_COOPERATIVE_GROUPS_H
#define GMEM_STUB_COOPERATIVE_GROUPS_H

#include "cuda_runtime.h"

// Warp intrinsics the tiles use (Clang's wrapper declares them only with a
// CUDA installation).
__device__ void __syncwarp(unsigned Mask);
template <typename T> __device__ T __shfl_sync(unsigned, T, int, int = 32);
template <typename T>
__device__ T __shfl_down_sync(unsigned, T, unsigned, int = 32);
template <typename T>
__device__ T __shfl_up_sync(unsigned, T, unsigned, int = 32);
template <typename T>
__device__ T __shfl_xor_sync(unsigned, T, int, int = 32);
__device__ int __any_sync(unsigned, int);
__device__ int __all_sync(unsigned, int);
__device__ unsigned __ballot_sync(unsigned, int);

namespace cooperative_groups {

class thread_block {
public:
  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned long long thread_rank() const {
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  }
  __device__ unsigned long long size() const {
    return blockDim.x * blockDim.y * blockDim.z;
  }
  __device__ unsigned long long num_threads() const { return size(); }
  __device__ dim3 group_index() const { return blockIdx; }
  __device__ dim3 thread_index() const { return threadIdx; }
  __device__ dim3 group_dim() const { return blockDim; }
  __device__ dim3 dim_threads() const { return blockDim; }
};

class grid_group {
public:
  __device__ void sync() const;
  __device__ bool is_valid() const { return true; }
  __device__ unsigned long long thread_rank() const {
    unsigned long long Block =
        blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    return Block * (blockDim.x * blockDim.y * blockDim.z) +
           thread_block().thread_rank();
  }
  __device__ unsigned long long size() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z * blockDim.x *
           blockDim.y * blockDim.z;
  }
  __device__ unsigned long long num_threads() const { return size(); }
  __device__ dim3 group_dim() const { return gridDim; }
};

template <unsigned int Size, typename Parent = void> class thread_block_tile {
public:
  __device__ void sync() const { __syncwarp(0xffffffffu); }
  __device__ unsigned long long thread_rank() const {
    return thread_block().thread_rank() % Size;
  }
  __device__ unsigned long long size() const { return Size; }
  __device__ unsigned long long num_threads() const { return Size; }
  __device__ unsigned long long meta_group_rank() const {
    return thread_block().thread_rank() / Size;
  }
  __device__ unsigned long long meta_group_size() const {
    return (thread_block().size() + Size - 1) / Size;
  }
  template <typename T> __device__ T shfl(T V, int Src) const {
    return __shfl_sync(0xffffffffu, V, Src, Size);
  }
  template <typename T> __device__ T shfl_down(T V, unsigned D) const {
    return __shfl_down_sync(0xffffffffu, V, D, Size);
  }
  template <typename T> __device__ T shfl_up(T V, unsigned D) const {
    return __shfl_up_sync(0xffffffffu, V, D, Size);
  }
  template <typename T> __device__ T shfl_xor(T V, unsigned M) const {
    return __shfl_xor_sync(0xffffffffu, V, M, Size);
  }
  __device__ int any(int P) const { return __any_sync(0xffffffffu, P); }
  __device__ int all(int P) const { return __all_sync(0xffffffffu, P); }
  __device__ unsigned ballot(int P) const {
    return __ballot_sync(0xffffffffu, P);
  }
};

__device__ inline thread_block this_thread_block() { return thread_block(); }
__device__ inline grid_group this_grid() { return grid_group(); }

template <unsigned int Size, typename Parent>
__device__ thread_block_tile<Size, Parent> tiled_partition(const Parent &) {
  return thread_block_tile<Size, Parent>();
}

template <typename Group> __device__ void sync(const Group &G) { G.sync(); }

} // namespace cooperative_groups

#endif // GMEM_STUB_COOPERATIVE_GROUPS_H
