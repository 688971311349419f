// Thrust's and CUB's device-wide algorithms, as programs call them: each
// sizes its launches from the kernels' attributes, the occupancy
// calculator and the device's properties, and allocates its temporary
// storage through the runtime. Recorded, every launch must be the one a GPU
// makes (tests/analyzer/record_test.cpp, against thrust_algorithms's
// gmem-verify measurement on an H200).
#include <cub/device/device_reduce.cuh>
#include <thrust/device_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <cstdio>

struct Scramble {
  __host__ __device__ unsigned operator()(unsigned X) const {
    return X * 2654435761u;
  }
};

struct Square {
  __host__ __device__ float operator()(float X) const { return X * X; }
};

int main() {
  const int N = 1 << 20;
  thrust::device_vector<float> V(N);
  thrust::sequence(V.begin(), V.end());
  thrust::transform(V.begin(), V.end(), V.begin(), Square());
  const float Sum = thrust::reduce(V.begin(), V.end());

  thrust::device_vector<unsigned> Keys(N);
  thrust::sequence(Keys.begin(), Keys.end());
  thrust::transform(Keys.begin(), Keys.end(), Keys.begin(), Scramble());
  thrust::sort(Keys.begin(), Keys.end());

  // CUB itself: the temporary storage query, then the reduction.
  float *Out;
  cudaMalloc(&Out, sizeof(float));
  size_t Bytes = 0;
  const float *In = thrust::raw_pointer_cast(V.data());
  cub::DeviceReduce::Sum(nullptr, Bytes, In, Out, N);
  void *Temp;
  cudaMalloc(&Temp, Bytes);
  cub::DeviceReduce::Sum(Temp, Bytes, In, Out, N);
  cudaDeviceSynchronize();
  std::printf("sum %g, %zu bytes of temporary storage\n", Sum, Bytes);
  return 0;
}
