// One shared load of either of two arrays: nvcc selects the address between
// a and b and makes one ld.shared of it, which names no array, and the
// launch is priced by its executed PTX. Each 32-way conflict is reported;
// none gets a padding checked by re-simulating the model, which does not
// reproduce the executed figures.
#include <cstdio>
__global__ void pick(float *out, int which) {
  __shared__ float a[32][32], b[32][32];
  int t = threadIdx.x;
  a[t][0] = t;
  b[t][0] = 2 * t;
  __syncthreads();
  float v;
  if (which > t)
    v = a[t][0];
  else
    v = b[t][0];
  out[t] = v;
}
int main() {
  float *o;
  cudaMalloc(&o, 32 * sizeof(float));
  pick<<<1, 32>>>(o, 16);
  cudaDeviceSynchronize();
  printf("ok\n");
  return 0;
}
