// Stand-in for CUDA's <cooperative_groups.h>: the group types and queries
// the analyzer translates (analyzer/translate/coop_groups.cpp), declarations only.
#ifndef GMEM_STUB_COOPERATIVE_GROUPS_H
#define GMEM_STUB_COOPERATIVE_GROUPS_H

#include "cuda_runtime.h"

namespace cooperative_groups {

// The type-erased group; the analyzer answers its queries as the group it
// was made from.
class thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
};

class thread_block : public thread_group {
public:
  __device__ static void sync();
  __device__ static unsigned int thread_rank();
  __device__ static unsigned int size();
  __device__ static unsigned int num_threads();
  __device__ static dim3 group_index();
  __device__ static dim3 thread_index();
  __device__ static dim3 dim_threads();
  __device__ static dim3 group_dim();
};

class grid_group {
public:
  __device__ static void sync();
  __device__ static unsigned long long thread_rank();
  __device__ static unsigned long long size();
  __device__ static unsigned long long num_threads();
  __device__ static unsigned long long block_rank();
  __device__ static unsigned long long num_blocks();
  __device__ static dim3 block_index();
  __device__ static dim3 dim_blocks();
};

template <unsigned int Size, typename ParentT = void>
class thread_block_tile : public thread_group {
public:
  __device__ thread_block_tile();
  // As in CUDA, a tile of a known parent converts to one of any parent.
  template <typename P>
  __device__ thread_block_tile(const thread_block_tile<Size, P> &Other);
  __device__ void sync() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  template <typename T> __device__ T shfl(T var, int srcRank) const;
  template <typename T> __device__ T shfl_up(T var, unsigned int delta) const;
  template <typename T>
  __device__ T shfl_down(T var, unsigned int delta) const;
  template <typename T> __device__ T shfl_xor(T var, unsigned int mask) const;
};

__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
template <unsigned int Size, typename ParentT>
__device__ thread_block_tile<Size, ParentT>
tiled_partition(const ParentT &Parent);
__device__ thread_group tiled_partition(const thread_group &Parent,
                                        unsigned int TileSize);

} // namespace cooperative_groups

#endif
