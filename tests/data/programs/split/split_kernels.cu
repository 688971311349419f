#include "split.h"

template <class T> __global__ void scale(T *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] *= T(2);
}

__global__ void shift(float *a, int n, int by) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + by < n)
    a[i] = a[i + by];
}

// Launched by no host code: --kernel names it.
__global__ void strided(float *a, int stride) {
  a[(blockIdx.x * blockDim.x + threadIdx.x) * stride] = 0.0f;
}

template <class T> void scaleAll(T *a, int n, int threads) {
  scale<T><<<(n + threads - 1) / threads, threads>>>(a, n);
}

// The only instance: split_main.cpp sees the declaration alone.
template void scaleAll<float>(float *a, int n, int threads);

// Visible in this file only; the launch is here, not in shiftAll.
static void launchShift(float *a, int n, int by) {
  shift<<<n / 128, 128>>>(a, n, by);
}

void shiftAll(float *a, int n) { launchShift(a, n, 3); }
