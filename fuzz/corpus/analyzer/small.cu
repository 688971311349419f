#define N 64
__global__ void tile(const float *in, float *out, int n) {
  __shared__ float t[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  for (int j = 0; j < 32; j += 8)
    if (x < n)
      t[threadIdx.y + j][threadIdx.x] = in[(threadIdx.y + j) * n + x];
  __syncthreads();
  out[x] = t[threadIdx.x][threadIdx.y];
}
int main() {
  float *a, *b;
  cudaMalloc(&a, N * N * 4);
  cudaMalloc(&b, N * N * 4);
  tile<<<dim3(N / 32, N / 32), dim3(32, 8)>>>(a, b, N);
  return 0;
}
