// A TMA box whose innermost coordinate is not at a multiple of 16 bytes:
// element 90 of a row of floats (360 bytes). An H200 stops the launch with
// "an illegal instruction was encountered" (cudaMemcpy after it fails);
// the same box at element 92 (368 bytes) loads. Build:
// nvcc -gencode arch=compute_90a,code=sm_90a tma_unaligned.cu -lcuda
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

__global__ void loadBox(const __grid_constant__ CUtensorMap Map, int X,
                        int Y, float *Out) {
  __shared__ __align__(128) float Box[8 * 8];
  __shared__ uint64_t Bar;
  const uint32_t B = uint32_t(__cvta_generic_to_shared(&Bar));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(B));
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 256;" ::
                     "r"(B)
                 : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile."
                 "mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::
                     "r"(uint32_t(__cvta_generic_to_shared(Box))),
                 "l"(&Map), "r"(X), "r"(Y), "r"(B)
                 : "memory");
  }
  __syncthreads();
  uint32_t Done = 0;
  while (!Done)
    asm volatile("{\n.reg .pred p;\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\n"
                 "selp.u32 %0, 1, 0, p;\n}"
                 : "=r"(Done)
                 : "r"(B)
                 : "memory");
  Out[threadIdx.x] = Box[threadIdx.x];
}

int main() {
  const int W = 100, H = 30;
  std::vector<float> Host(W * H);
  for (int I = 0; I < W * H; ++I)
    Host[I] = float(I);
  float *Src, *Out;
  cudaMalloc(&Src, Host.size() * 4);
  cudaMalloc(&Out, 64 * 4);
  cudaMemcpy(Src, Host.data(), Host.size() * 4, cudaMemcpyHostToDevice);
  CUtensorMap Map;
  cuuint64_t Dims[2] = {W, H}, Strides[1] = {W * 4};
  cuuint32_t Box[2] = {8, 8}, Ones[2] = {1, 1};
  if (cuTensorMapEncodeTiled(&Map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, Src,
                             Dims, Strides, Box, Ones,
                             CU_TENSOR_MAP_INTERLEAVE_NONE,
                             CU_TENSOR_MAP_SWIZZLE_NONE,
                             CU_TENSOR_MAP_L2_PROMOTION_NONE,
                             CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) !=
      CUDA_SUCCESS) {
    printf("cuTensorMapEncodeTiled failed\n");
    return 2;
  }
  loadBox<<<1, 64>>>(Map, 90, 4, Out);
  std::vector<float> Got(64);
  cudaError_t E =
      cudaMemcpy(Got.data(), Out, 64 * 4, cudaMemcpyDeviceToHost);
  printf("%s\n", cudaGetErrorString(E));
  return E == cudaSuccess ? 0 : 1;
}
