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
  acc += farGetter(b, n - i - 1);
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  acc += getter(b, t * 32 + blockIdx.x);
  acc += b[t % 8 + blockIdx.x * 32];
  __pipeline_memcpy_async(&s[t % 512], &b[i + k], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  out[i] = acc;
}
__global__ void k1(float *a, const float *b, int *c, __half *h, const float4 *v,
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
  if (t % 12 < 12)
    acc += b[t * 32 + blockIdx.x];
  else
    acc += a[i * 33];
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 10) % 512];
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
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 4) % 512];
  out[i] = acc;
}
__global__ void k2(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += farGetter(b, (i * 7) & 1023);
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 10) % 512];
  acc += b[i * 33];
  __pipeline_memcpy_async(&s[t % 512], &b[i * 33], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  acc = pick(acc, b[t % 8 + blockIdx.x * 32]);
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 14) % 512];
  out[i] = acc;
}
__global__ void k3(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += getter(b, i / 2);
  acc = pick(acc, b[t % 8 + blockIdx.x * 32]);
  acc += farGetter(b, 2 * i);
  acc = pick(acc, b[n - i - 1]);
  out[i] = acc;
}
__global__ void k4(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc = pick(acc, b[t % 8 + blockIdx.x * 32]);
  if (t % 28 < 2)
    acc += b[i + k];
  else
    acc += a[2 * i];
  acc += b[blockIdx.x];
  __pipeline_memcpy_async(&s[t % 512], &b[2 * i], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  acc += farGetter(b, i * 33);
  acc += atomicAdd(&c[(t ^ 1) + blockIdx.x * blockDim.x], 1);
  out[i] = acc;
}
__global__ void k5(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  for (int j = 0; j < k; ++j)
    acc += b[(t ^ 1) + blockIdx.x * blockDim.x + j * 13];
  acc += b[(t ^ 1) + blockIdx.x * blockDim.x];
  acc += b[2 * i];
  acc = pick(acc, b[i + 1]);
  if (t % 4 < 4)
    acc += b[i / 2];
  else
    acc += a[t * 32 + blockIdx.x];
  out[i] = acc;
}
__global__ void k6(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  atomicAdd(&a[i + k], acc);
  acc += b[i + 1];
  if (t % 17 < 14)
    acc += b[i * 33];
  else
    acc += a[blockIdx.x];
  out[i] = acc;
}
__global__ void k7(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  __pipeline_memcpy_async(&s[t % 512], &b[i / 2], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  __pipeline_memcpy_async(&s[t % 512], &b[blockIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  acc += b[t % 8 + blockIdx.x * 32];
  out[i] = acc;
}
__global__ void k8(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  atomicAdd(&c[i + k], 1);
  __pipeline_memcpy_async(&s[t % 512], &b[(t ^ 1) + blockIdx.x * blockDim.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  out[i] = acc;
}
__global__ void k9(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  __pipeline_memcpy_async(&s[t % 512], &b[i * 33], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  __pipeline_memcpy_async(&s[t % 512], &b[(i * 7) & 1023], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  for (int j = 0; j < k; ++j)
    acc += b[(t ^ 1) + blockIdx.x * blockDim.x + j * 11];
  acc += b[t % 8 + blockIdx.x * 32];
  switch (t % 3) {
  case 0:
    acc += b[(i * 7) & 1023];
    break;
  case 1:
    acc += a[i * 33];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  out[i] = acc;
}
__global__ void k10(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  atomicAdd(&c[i / 2], 1);
  acc += atomicAdd(&c[i + k], 1);
  a[i / 2] = acc;
  __pipeline_memcpy_async(&s[t % 512], &b[blockIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  acc += atomicAdd(&c[(i * 7) & 1023], 1);
  out[i] = acc;
}
__global__ void k11(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += atomicAdd(&c[i * 33], 1);
  acc += b[t % 8 + blockIdx.x * 32];
  out[i] = acc;
}
__global__ void k12(float *a, const float *b, int *c, __half *h, const float4 *v,
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
  acc += farGetter(b, blockIdx.x);
  atomicAdd(&c[i + k], 1);
  acc += farGetter(b, i);
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 25) % 512];
  atomicAdd(&c[n - i - 1], 1);
  out[i] = acc;
}
__global__ void k13(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 1) % 512];
  __pipeline_memcpy_async(&s[t % 512], &b[n - i - 1], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  atomicAdd(&a[n - i - 1], acc);
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  if (t % 22 < 13)
    acc += b[(i * 7) & 1023];
  else
    acc += a[t * 32 + blockIdx.x];
  out[i] = acc;
}
__global__ void k14(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  if (t % 26 < 6)
    acc += b[i / 2];
  else
    acc += a[i + k];
  a[n - i - 1] = acc;
  acc += b[i + 1];
  for (int j = 0; j < 4; ++j)
    acc += b[i + j * 53];
  h[t % 8 + blockIdx.x * 32] = __float2half(acc) * h[i / 2];
  acc += __half2float(h[i]);
  a[i] = acc;
  out[i] = acc;
}
__global__ void k15(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  __pipeline_memcpy_async(&s[t % 512], &b[i / 2], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  if (t % 20 < 9)
    acc += b[i + 1];
  else
    acc += a[i / 2];
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 8) % 512];
  if (t % 19 < 10)
    acc += b[2 * i];
  else
    acc += a[t % 8 + blockIdx.x * 32];
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 22) % 512];
  out[i] = acc;
}
__global__ void k16(float *a, const float *b, int *c, __half *h, const float4 *v,
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
  a[n - i - 1] = acc;
  acc += farGetter(b, (i * 7) & 1023);
  switch (t % 3) {
  case 0:
    acc += b[(t ^ 1) + blockIdx.x * blockDim.x];
    break;
  case 1:
    acc += a[2 * i];
    break;
  default:
    acc += b[i + 5];
    break;
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
  if (t % 10 < 5)
    acc += b[(t ^ 1) + blockIdx.x * blockDim.x];
  else
    acc += a[(i * 7) & 1023];
  atomicAdd(&c[(i * 7) & 1023], 1);
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 9) % 512];
  out[i] = acc;
}
__global__ void k18(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  atomicAdd(&c[i / 2], 1);
  __pipeline_memcpy_async(&s[t % 512], &b[(i * 7) & 1023], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  acc = pick(acc, b[(i * 7) & 1023]);
  acc += b[i];
  h[n - i - 1] = __float2half(acc) * h[2 * i];
  acc += __half2float(h[i]);
  out[i] = acc;
}
__global__ void k19(float *a, const float *b, int *c, __half *h, const float4 *v,
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
  atomicAdd(&a[2 * i], acc);
  atomicAdd(&a[i], acc);
  acc += b[(i * 7) & 1023];
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
__global__ void k20(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  h[i] = __float2half(acc) * h[i / 2];
  acc += __half2float(h[i]);
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  a[i / 2] = acc;
  atomicAdd(&c[blockIdx.x], 1);
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
__global__ void k21(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  if (t % 9 < 5)
    acc += b[i / 2];
  else
    acc += a[(i * 7) & 1023];
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 30) % 512];
  acc += b[blockIdx.x];
  out[i] = acc;
}
__global__ void k22(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  a[i / 2] = acc;
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  acc = pick(acc, b[i * 33]);
  acc += atomicAdd(&c[i / 2], 1);
  out[i] = acc;
}
__global__ void k23(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  a[i / 2] = acc;
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 28) % 512];
  {
    float4 q = v[2 * i];
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
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  acc += b[i + 1];
  if (t % 24 < 11)
    acc += b[t % 8 + blockIdx.x * 32];
  else
    acc += a[t * 32 + blockIdx.x];
  out[i] = acc;
}
__global__ void k25(float *a, const float *b, int *c, __half *h, const float4 *v,
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
  atomicAdd(&a[i * 33], acc);
  a[t * 32 + blockIdx.x] = acc;
  acc = pick(acc, b[i + k]);
  acc += b[n - i - 1];
  {
    float4 q = v[i];
    acc += q.x + q.w;
  }
  out[i] = acc;
}
__global__ void k26(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  a[i] = acc;
  h[i / 2] = __float2half(acc) * h[i / 2];
  acc += __half2float(h[i]);
  acc += atomicAdd(&c[i * 33], 1);
  if (t % 17 < 1)
    acc += b[(t ^ 1) + blockIdx.x * blockDim.x];
  else
    acc += a[2 * i];
  out[i] = acc;
}
__global__ void k27(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 20) % 512];
  acc += getter(b, t * 32 + blockIdx.x);
  atomicAdd(&a[t * 32 + blockIdx.x], acc);
  {
    float4 q = v[(i * 7) & 1023];
    acc += q.x + q.w;
  }
  out[i] = acc;
}
__global__ void k28(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc = pick(acc, b[(i * 7) & 1023]);
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  h[2 * i] = __float2half(acc) * h[(t ^ 1) + blockIdx.x * blockDim.x];
  acc += __half2float(h[i]);
  out[i] = acc;
}
__global__ void k29(float *a, const float *b, int *c, __half *h, const float4 *v,
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
  atomicAdd(&a[(t ^ 1) + blockIdx.x * blockDim.x], acc);
  __pipeline_memcpy_async(&s[t % 512], &b[(t ^ 1) + blockIdx.x * blockDim.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  out[i] = acc;
}
__global__ void k30(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc = pick(acc, b[i * 33]);
  acc += atomicAdd(&c[t * 32 + blockIdx.x], 1);
  a[i + 1] = acc;
  atomicAdd(&a[i * 33], acc);
  acc += b[n - i - 1];
  out[i] = acc;
}
__global__ void k31(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += farGetter(b, i);
  switch (t % 3) {
  case 0:
    acc += b[2 * i];
    break;
  case 1:
    acc += a[(i * 7) & 1023];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  atomicAdd(&a[blockIdx.x], acc);
  out[i] = acc;
}
__global__ void k32(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  if (t % 24 < 5)
    acc += b[(t ^ 1) + blockIdx.x * blockDim.x];
  else
    acc += a[i / 2];
  acc += farGetter(b, n - i - 1);
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  atomicAdd(&a[i / 2], acc);
  out[i] = acc;
}
__global__ void k33(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  for (int j = 0; j < k; ++j)
    acc += b[2 * i + j * 37];
  __pipeline_memcpy_async(&s[t % 512], &b[t * 32 + blockIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  out[i] = acc;
}
__global__ void k34(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  atomicAdd(&a[t * 32 + blockIdx.x], acc);
  acc = pick(acc, b[i]);
  out[i] = acc;
}
__global__ void k35(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  for (int j = 0; j < k; ++j)
    acc += b[i * 33 + j * 25];
  atomicAdd(&a[n - i - 1], acc);
  atomicAdd(&a[t * 32 + blockIdx.x], acc);
  out[i] = acc;
}
__global__ void k36(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  for (int j = 0; j < 4; ++j)
    acc += b[i * 33 + j * 38];
  {
    float4 q = v[i + k];
    acc += q.x + q.w;
  }
  atomicAdd(&a[(i * 7) & 1023], acc);
  switch (t % 3) {
  case 0:
    acc += b[i + k];
    break;
  case 1:
    acc += a[blockIdx.x];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  out[i] = acc;
}
__global__ void k37(float *a, const float *b, int *c, __half *h, const float4 *v,
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
    acc += a[i * 33];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  acc += b[(i * 7) & 1023];
  atomicAdd(&a[i], acc);
  out[i] = acc;
}
__global__ void k38(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  h[i / 2] = __float2half(acc) * h[i * 33];
  acc += __half2float(h[i]);
  acc += farGetter(b, (t ^ 1) + blockIdx.x * blockDim.x);
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  a[i + k] = acc;
  acc = pick(acc, b[i * 33]);
  {
    float4 q = v[i + 1];
    acc += q.x + q.w;
  }
  out[i] = acc;
}
__global__ void k39(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  switch (t % 3) {
  case 0:
    acc += b[blockIdx.x];
    break;
  case 1:
    acc += a[(i * 7) & 1023];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  if (t % 29 < 15)
    acc += b[n - i - 1];
  else
    acc += a[blockIdx.x];
  a[n - i - 1] = acc;
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  out[i] = acc;
}
int main() {
  const size_t E = 526336;
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
  k0<<<14, dim3(256, 2)>>>(a, b, c, h, v, out, 3584, 3);
  k1<<<15, dim3(1024, 1)>>>(a, b, c, h, v, out, 15360, 1);
  k2<<<10, dim3(256, 1)>>>(a, b, c, h, v, out, 2560, 1);
  k3<<<9, dim3(512, 1)>>>(a, b, c, h, v, out, 4608, 1);
  k4<<<11, dim3(96, 2)>>>(a, b, c, h, v, out, 1056, 1);
  k5<<<11, dim3(96, 1)>>>(a, b, c, h, v, out, 1056, 2);
  k6<<<3, dim3(128, 1)>>>(a, b, c, h, v, out, 384, 1);
  k7<<<14, dim3(32, 1)>>>(a, b, c, h, v, out, 448, 4);
  k8<<<10, dim3(32, 1)>>>(a, b, c, h, v, out, 320, 4);
  k9<<<15, dim3(128, 2)>>>(a, b, c, h, v, out, 1920, 3);
  k10<<<8, dim3(256, 1)>>>(a, b, c, h, v, out, 2048, 2);
  k11<<<15, dim3(512, 1)>>>(a, b, c, h, v, out, 7680, 4);
  k12<<<6, dim3(32, 2)>>>(a, b, c, h, v, out, 192, 1);
  k13<<<15, dim3(256, 1)>>>(a, b, c, h, v, out, 3840, 3);
  k14<<<8, dim3(96, 1)>>>(a, b, c, h, v, out, 768, 4);
  k15<<<1, dim3(96, 1)>>>(a, b, c, h, v, out, 96, 2);
  k16<<<3, dim3(256, 1)>>>(a, b, c, h, v, out, 768, 1);
  k17<<<6, dim3(256, 1)>>>(a, b, c, h, v, out, 1536, 3);
  k18<<<11, dim3(160, 1)>>>(a, b, c, h, v, out, 1760, 2);
  k19<<<2, dim3(64, 1)>>>(a, b, c, h, v, out, 128, 4);
  k20<<<10, dim3(256, 1)>>>(a, b, c, h, v, out, 2560, 1);
  k21<<<5, dim3(32, 1)>>>(a, b, c, h, v, out, 160, 1);
  k22<<<7, dim3(64, 1)>>>(a, b, c, h, v, out, 448, 2);
  k23<<<3, dim3(160, 1)>>>(a, b, c, h, v, out, 480, 4);
  k24<<<14, dim3(128, 2)>>>(a, b, c, h, v, out, 1792, 3);
  k25<<<9, dim3(128, 2)>>>(a, b, c, h, v, out, 1152, 3);
  k26<<<2, dim3(1024, 1)>>>(a, b, c, h, v, out, 2048, 1);
  k27<<<10, dim3(512, 1)>>>(a, b, c, h, v, out, 5120, 2);
  k28<<<7, dim3(1024, 1)>>>(a, b, c, h, v, out, 7168, 1);
  k29<<<7, dim3(64, 1)>>>(a, b, c, h, v, out, 448, 4);
  k30<<<6, dim3(64, 1)>>>(a, b, c, h, v, out, 384, 1);
  k31<<<15, dim3(32, 2)>>>(a, b, c, h, v, out, 480, 2);
  k32<<<13, dim3(128, 1)>>>(a, b, c, h, v, out, 1664, 2);
  k33<<<11, dim3(32, 1)>>>(a, b, c, h, v, out, 352, 4);
  k34<<<13, dim3(96, 1)>>>(a, b, c, h, v, out, 1248, 1);
  k35<<<15, dim3(64, 2)>>>(a, b, c, h, v, out, 960, 3);
  k36<<<4, dim3(512, 1)>>>(a, b, c, h, v, out, 2048, 2);
  k37<<<13, dim3(96, 1)>>>(a, b, c, h, v, out, 1248, 3);
  k38<<<15, dim3(160, 1)>>>(a, b, c, h, v, out, 2400, 3);
  k39<<<14, dim3(160, 2)>>>(a, b, c, h, v, out, 2240, 4);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
