__global__ void total(const float *in, float *out) {
  __shared__ float s[32];
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0)
    s[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.0f;
    for (int i = 0; i < int(blockDim.x / 32); i++)
      t += s[i];
    out[blockIdx.x] = t;
  }
}
int main() {
  float *in, *out, h[4];
  cudaMalloc(&in, 4 * 256 * sizeof(float));
  cudaMalloc(&out, 4 * sizeof(float));
  cudaMemset(in, 0, 4 * 256 * sizeof(float));
  total<<<4, 256>>>(in, out);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  return h[0] != 0.0f;
}
