// gmem-uncoalesced-load's checked remedies beyond the swap of thread roles
// (rules/coalescing.cpp), each re-simulated before it is offered.
#include <cuda_runtime.h>

// A member of an array of structures: lanes 12 bytes apart, 12 sectors per
// request where 4 hold the warp's 128 bytes. The fix is a structure of
// arrays: 4 sectors per request.
struct Particle {
  float x, y, z;
};
__global__ void readY(const Particle *p, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = p[i].y; // expected-warning{{uncoalesced global load from 'p': 12 sectors per request, ideal 4 (33.33% efficiency) in readY}} expected-note{{structure of arrays}}
}

// A transpose: swapping the thread roles only moves the cost to the store
// (4 to 32 sectors per request), so the fix is a shared tile through which
// each side keeps its order: 32 rows of 33 elements, 4 sectors per request
// on both sides and one wavefront per shared request (lanes 33 words apart
// fall into 32 different banks).
__global__ void transposeNaive(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * n + x] = in[x * n + y]; // expected-warning{{uncoalesced global load from 'in': 32 sectors per request, ideal 4 (12.5% efficiency) in transposeNaive}} expected-note{{__shared__ tile[32][33] (rows padded by 1)}} expected-note{{the tile's shared accesses take 1 (current order) and 1 (swapped order) wavefronts per request}}
}

int main() {
  const int n = 1024;
  float *in, *out;
  Particle *p;
  cudaMalloc(&in, n * n * sizeof(float));
  cudaMalloc(&out, n * n * sizeof(float));
  cudaMalloc(&p, n * sizeof(Particle));
  readY<<<n / 128, 128>>>(p, out);
  transposeNaive<<<dim3(n / 32, n / 32), dim3(32, 32)>>>(in, out, n);
  return 0;
}
