#include <cuda_fp16.h>
#include <cuda_pipeline.h>
__device__ float getter(const float *p, int x) { return p[x]; }
__device__ __noinline__ float farGetter(const float *p, int x) {
  return p[x] * 2.0f;
}
__device__ float pick(float a, float b) {
  if (a < b)
    return b;
  else
    return a;
}
__global__ void k0(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  {
    float4 q = v[i + k];
    acc += q.x + q.w;
  }
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  __pipeline_memcpy_async(&s[t % 512], &b[(t ^ 1) + blockIdx.x * blockDim.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  acc += b[n - i - 1];
  acc += farGetter(b, t * 32 + blockIdx.x);
  out[i] = acc;
}
__global__ void k1(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  atomicAdd(&a[i + k], acc);
  atomicAdd(&a[i + 1], acc);
  if (t % 22 < 6)
    acc += b[i + k];
  else
    acc += a[2 * i];
  acc = pick(acc, b[(i * 7) & 1023]);
  out[i] = acc;
}
__global__ void k2(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  switch (t % 3) {
  case 0:
    acc += b[i * 33];
    break;
  case 1:
    acc += a[i * 33];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  h[(t ^ 1) + blockIdx.x * blockDim.x] = __float2half(acc) * h[i];
  acc += __half2float(h[i]);
  out[i] = acc;
}
__global__ void k3(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  a[2 * i] = acc;
  acc += farGetter(b, i / 2);
  acc = pick(acc, b[i + 1]);
  out[i] = acc;
}
__global__ void k4(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 15) % 512];
  atomicAdd(&a[blockIdx.x], acc);
  acc = pick(acc, b[blockIdx.x]);
  if (t % 28 < 16)
    acc += b[i];
  else
    acc += a[i + 1];
  out[i] = acc;
}
__global__ void k5(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += farGetter(b, i * 33);
  a[blockIdx.x] = acc;
  {
    float4 q = v[t * 32 + blockIdx.x];
    acc += q.x + q.w;
  }
  out[i] = acc;
}
__global__ void k6(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += b[i];
  acc = pick(acc, b[i + k]);
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  out[i] = acc;
}
__global__ void k7(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  switch (t % 3) {
  case 0:
    acc += b[i];
    break;
  case 1:
    acc += a[t * 32 + blockIdx.x];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  if (t % 21 < 5)
    acc += b[i * 33];
  else
    acc += a[t * 32 + blockIdx.x];
  out[i] = acc;
}
__global__ void k8(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += atomicAdd(&c[i / 2], 1);
  __pipeline_memcpy_async(&s[t % 512], &b[blockIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  {
    float4 q = v[t % 8 + blockIdx.x * 32];
    acc += q.x + q.w;
  }
  switch (t % 3) {
  case 0:
    acc += b[i + 1];
    break;
  case 1:
    acc += a[blockIdx.x];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  a[i] = acc;
  out[i] = acc;
}
__global__ void k9(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  for (int j = 0; j < 4; ++j)
    acc += b[(i * 7) & 1023 + j * 25];
  if (t % 13 < 9)
    acc += b[i * 33];
  else
    acc += a[(t ^ 1) + blockIdx.x * blockDim.x];
  out[i] = acc;
}
__global__ void k10(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += b[t * 32 + blockIdx.x];
  if (t % 7 < 1)
    acc += b[(t ^ 1) + blockIdx.x * blockDim.x];
  else
    acc += a[t % 8 + blockIdx.x * 32];
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  out[i] = acc;
}
__global__ void k11(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += getter(b, t * 32 + blockIdx.x);
  acc = pick(acc, b[n - i - 1]);
  a[i] = acc;
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 26) % 512];
  switch (t % 3) {
  case 0:
    acc += b[i + k];
    break;
  case 1:
    acc += a[t % 8 + blockIdx.x * 32];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  atomicAdd(&c[n - i - 1], 1);
  out[i] = acc;
}
__global__ void k12(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += b[i * 33];
  acc += b[(t ^ 1) + blockIdx.x * blockDim.x];
  atomicAdd(&a[i * 33], acc);
  acc += getter(b, t * 32 + blockIdx.x);
  out[i] = acc;
}
__global__ void k13(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  acc += b[blockIdx.x];
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 3) % 512];
  out[i] = acc;
}
__global__ void k14(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  for (int j = 0; j < k; ++j)
    acc += b[t * 32 + blockIdx.x + j * 23];
  a[t * 32 + blockIdx.x] = acc;
  out[i] = acc;
}
__global__ void k15(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  for (int j = 0; j < k; ++j)
    acc += b[t * 32 + blockIdx.x + j * 35];
  a[i * 33] = acc;
  h[t % 8 + blockIdx.x * 32] = __float2half(acc) * h[(t ^ 1) + blockIdx.x * blockDim.x];
  acc += __half2float(h[i]);
  acc += atomicAdd(&c[i], 1);
  out[i] = acc;
}
__global__ void k16(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += b[2 * i];
  for (int j = 0; j < 4; ++j)
    acc += b[blockIdx.x + j * 35];
  if (t % 7 < 10)
    acc += b[i];
  else
    acc += a[t % 8 + blockIdx.x * 32];
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  out[i] = acc;
}
__global__ void k17(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  atomicAdd(&c[(t ^ 1) + blockIdx.x * blockDim.x], 1);
  acc += farGetter(b, i / 2);
  for (int j = 0; j < k; ++j)
    acc += b[(t ^ 1) + blockIdx.x * blockDim.x + j * 8];
  if (t % 30 < 16)
    acc += b[t % 8 + blockIdx.x * 32];
  else
    acc += a[(t ^ 1) + blockIdx.x * blockDim.x];
  out[i] = acc;
}
__global__ void k18(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 33) % 512];
  atomicAdd(&a[i / 2], acc);
  out[i] = acc;
}
__global__ void k19(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  if (t % 26 < 2)
    acc += b[t % 8 + blockIdx.x * 32];
  else
    acc += a[i + k];
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 11) % 512];
  for (int j = 0; j < 4; ++j)
    acc += b[i / 2 + j * 28];
  {
    float4 q = v[i + k];
    acc += q.x + q.w;
  }
  switch (t % 3) {
  case 0:
    acc += b[(i * 7) & 1023];
    break;
  case 1:
    acc += a[i / 2];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  __pipeline_memcpy_async(&s[t % 512], &b[n - i - 1], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  out[i] = acc;
}
__global__ void k20(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += farGetter(b, (t ^ 1) + blockIdx.x * blockDim.x);
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 15) % 512];
  if (t % 6 < 1)
    acc += b[(t ^ 1) + blockIdx.x * blockDim.x];
  else
    acc += a[(i * 7) & 1023];
  __pipeline_memcpy_async(&s[t % 512], &b[i + k], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  a[2 * i] = acc;
  out[i] = acc;
}
__global__ void k21(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  h[i / 2] = __float2half(acc) * h[t % 8 + blockIdx.x * 32];
  acc += __half2float(h[i]);
  switch (t % 3) {
  case 0:
    acc += b[2 * i];
    break;
  case 1:
    acc += a[blockIdx.x];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  switch (t % 3) {
  case 0:
    acc += b[i + 1];
    break;
  case 1:
    acc += a[i + k];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  a[t * 32 + blockIdx.x] = acc;
  switch (t % 3) {
  case 0:
    acc += b[i * 33];
    break;
  case 1:
    acc += a[blockIdx.x];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  out[i] = acc;
}
__global__ void k22(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  h[i * 33] = __float2half(acc) * h[2 * i];
  acc += __half2float(h[i]);
  acc += b[2 * i];
  a[i] = acc;
  atomicAdd(&c[(i * 7) & 1023], 1);
  out[i] = acc;
}
__global__ void k23(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  for (int j = 0; j < k; ++j)
    acc += b[(i * 7) & 1023 + j * 7];
  acc += farGetter(b, (t ^ 1) + blockIdx.x * blockDim.x);
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  {
    float4 q = v[blockIdx.x];
    acc += q.x + q.w;
  }
  out[i] = acc;
}
__global__ void k24(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 31) % 512];
  acc += atomicAdd(&c[(t ^ 1) + blockIdx.x * blockDim.x], 1);
  acc = pick(acc, b[i + k]);
  out[i] = acc;
}
__global__ void k25(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  switch (t % 3) {
  case 0:
    acc += b[t % 8 + blockIdx.x * 32];
    break;
  case 1:
    acc += a[i + k];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  atomicAdd(&c[i + k], 1);
  atomicAdd(&c[i + k], 1);
  out[i] = acc;
}
__global__ void k26(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  atomicAdd(&c[(t ^ 1) + blockIdx.x * blockDim.x], 1);
  a[blockIdx.x] = acc;
  atomicAdd(&c[(t ^ 1) + blockIdx.x * blockDim.x], 1);
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 26) % 512];
  a[2 * i] = acc;
  atomicAdd(&a[2 * i], acc);
  out[i] = acc;
}
__global__ void k27(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  atomicAdd(&a[(t ^ 1) + blockIdx.x * blockDim.x], acc);
  h[i * 33] = __float2half(acc) * h[n - i - 1];
  acc += __half2float(h[i]);
  out[i] = acc;
}
__global__ void k28(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  if (t % 6 < 7)
    acc += b[blockIdx.x];
  else
    acc += a[i / 2];
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 30) % 512];
  acc = pick(acc, b[i + k]);
  out[i] = acc;
}
__global__ void k29(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  a[(i * 7) & 1023] = acc;
  a[t * 32 + blockIdx.x] = acc;
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  out[i] = acc;
}
__global__ void k30(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc = pick(acc, b[i]);
  __pipeline_memcpy_async(&s[t % 512], &b[n - i - 1], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 12) % 512];
  a[i / 2] = acc;
  out[i] = acc;
}
__global__ void k31(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  switch (t % 3) {
  case 0:
    acc += b[i + k];
    break;
  case 1:
    acc += a[(t ^ 1) + blockIdx.x * blockDim.x];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  h[t % 8 + blockIdx.x * 32] = __float2half(acc) * h[2 * i];
  acc += __half2float(h[i]);
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 19) % 512];
  out[i] = acc;
}
__global__ void k32(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += getter(b, (i * 7) & 1023);
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 10) % 512];
  a[t % 8 + blockIdx.x * 32] = acc;
  out[i] = acc;
}
__global__ void k33(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += atomicAdd(&c[blockIdx.x], 1);
  atomicAdd(&c[n - i - 1], 1);
  h[i] = __float2half(acc) * h[t % 8 + blockIdx.x * 32];
  acc += __half2float(h[i]);
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  {
    float4 q = v[i];
    acc += q.x + q.w;
  }
  out[i] = acc;
}
__global__ void k34(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  h[n - i - 1] = __float2half(acc) * h[i / 2];
  acc += __half2float(h[i]);
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 25) % 512];
  acc += atomicAdd(&c[i + 1], 1);
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  out[i] = acc;
}
__global__ void k35(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  atomicAdd(&c[i * 33], 1);
  if (t % 28 < 8)
    acc += b[i + k];
  else
    acc += a[i * 33];
  __pipeline_memcpy_async(&s[t % 512], &b[i + k], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  {
    float4 q = v[i + k];
    acc += q.x + q.w;
  }
  acc += getter(b, 2 * i);
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  out[i] = acc;
}
__global__ void k36(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += farGetter(b, blockIdx.x);
  __pipeline_memcpy_async(&s[t % 512], &b[(t ^ 1) + blockIdx.x * blockDim.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  {
    float4 q = v[blockIdx.x];
    acc += q.x + q.w;
  }
  h[2 * i] = __float2half(acc) * h[i * 33];
  acc += __half2float(h[i]);
  out[i] = acc;
}
__global__ void k37(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  {
    float4 q = v[i + k];
    acc += q.x + q.w;
  }
  acc += b[(i * 7) & 1023];
  {
    float4 q = v[i];
    acc += q.x + q.w;
  }
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  out[i] = acc;
}
__global__ void k38(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += atomicAdd(&c[blockIdx.x], 1);
  acc += b[t % 8 + blockIdx.x * 32];
  out[i] = acc;
}
__global__ void k39(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += b[i + k];
  for (int j = 0; j < 4; ++j)
    acc += b[t * 32 + blockIdx.x + j * 39];
  out[i] = acc;
}
int main() {
  const size_t E = 491520;
  float *a, *b, *out;
  int *c;
  __half *h;
  float4 *v;
  cudaMalloc(&a, E * sizeof(float));
  cudaMalloc(&b, E * sizeof(float));
  cudaMalloc(&out, E * sizeof(float));
  cudaMalloc(&c, E * sizeof(int));
  cudaMalloc(&h, E * sizeof(__half));
  cudaMalloc(&v, E * sizeof(float4));
  cudaMemset(a, 0, E * sizeof(float));
  cudaMemset(b, 0, E * sizeof(float));
  cudaMemset(c, 0, E * sizeof(int));
  cudaMemset(h, 0, E * sizeof(__half));
  cudaMemset(v, 0, E * sizeof(float4));
  k0<<<2, dim3(128, 1)>>>(a, b, c, h, v, out, 256, 4);
  k1<<<12, dim3(96, 1)>>>(a, b, c, h, v, out, 1152, 4);
  k2<<<6, dim3(128, 2)>>>(a, b, c, h, v, out, 768, 2);
  k3<<<5, dim3(160, 1)>>>(a, b, c, h, v, out, 800, 1);
  k4<<<14, dim3(1024, 1)>>>(a, b, c, h, v, out, 14336, 3);
  k5<<<7, dim3(64, 1)>>>(a, b, c, h, v, out, 448, 2);
  k6<<<10, dim3(96, 2)>>>(a, b, c, h, v, out, 960, 1);
  k7<<<1, dim3(512, 1)>>>(a, b, c, h, v, out, 512, 4);
  k8<<<13, dim3(512, 1)>>>(a, b, c, h, v, out, 6656, 1);
  k9<<<9, dim3(64, 1)>>>(a, b, c, h, v, out, 576, 2);
  k10<<<8, dim3(32, 2)>>>(a, b, c, h, v, out, 256, 1);
  k11<<<8, dim3(128, 1)>>>(a, b, c, h, v, out, 1024, 1);
  k12<<<11, dim3(32, 1)>>>(a, b, c, h, v, out, 352, 2);
  k13<<<6, dim3(64, 1)>>>(a, b, c, h, v, out, 384, 4);
  k14<<<9, dim3(256, 1)>>>(a, b, c, h, v, out, 2304, 2);
  k15<<<1, dim3(96, 1)>>>(a, b, c, h, v, out, 96, 1);
  k16<<<4, dim3(512, 1)>>>(a, b, c, h, v, out, 2048, 1);
  k17<<<9, dim3(128, 1)>>>(a, b, c, h, v, out, 1152, 3);
  k18<<<14, dim3(96, 2)>>>(a, b, c, h, v, out, 1344, 4);
  k19<<<14, dim3(32, 2)>>>(a, b, c, h, v, out, 448, 2);
  k20<<<13, dim3(256, 1)>>>(a, b, c, h, v, out, 3328, 4);
  k21<<<9, dim3(64, 1)>>>(a, b, c, h, v, out, 576, 4);
  k22<<<3, dim3(256, 1)>>>(a, b, c, h, v, out, 768, 3);
  k23<<<8, dim3(128, 2)>>>(a, b, c, h, v, out, 1024, 1);
  k24<<<16, dim3(256, 1)>>>(a, b, c, h, v, out, 4096, 3);
  k25<<<4, dim3(160, 2)>>>(a, b, c, h, v, out, 640, 3);
  k26<<<14, dim3(64, 1)>>>(a, b, c, h, v, out, 896, 4);
  k27<<<3, dim3(1024, 1)>>>(a, b, c, h, v, out, 3072, 2);
  k28<<<2, dim3(512, 1)>>>(a, b, c, h, v, out, 1024, 3);
  k29<<<1, dim3(256, 1)>>>(a, b, c, h, v, out, 256, 3);
  k30<<<6, dim3(32, 1)>>>(a, b, c, h, v, out, 192, 1);
  k31<<<5, dim3(96, 1)>>>(a, b, c, h, v, out, 480, 3);
  k32<<<14, dim3(1024, 1)>>>(a, b, c, h, v, out, 14336, 3);
  k33<<<9, dim3(96, 2)>>>(a, b, c, h, v, out, 864, 1);
  k34<<<12, dim3(128, 2)>>>(a, b, c, h, v, out, 1536, 3);
  k35<<<16, dim3(512, 1)>>>(a, b, c, h, v, out, 8192, 4);
  k36<<<11, dim3(96, 2)>>>(a, b, c, h, v, out, 1056, 2);
  k37<<<5, dim3(96, 1)>>>(a, b, c, h, v, out, 480, 4);
  k38<<<8, dim3(1024, 1)>>>(a, b, c, h, v, out, 8192, 4);
  k39<<<13, dim3(96, 1)>>>(a, b, c, h, v, out, 1248, 1);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
