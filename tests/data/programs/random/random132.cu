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
  acc += atomicAdd(&c[t * 32 + blockIdx.x], 1);
  atomicAdd(&a[i * 33], acc);
  atomicAdd(&a[i], acc);
  out[i] = acc;
}
__global__ void k1(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += atomicAdd(&c[i / 2], 1);
  acc += atomicAdd(&c[t * 32 + blockIdx.x], 1);
  h[(i * 7) & 1023] = __float2half(acc) * h[blockIdx.x];
  acc += __half2float(h[i]);
  {
    float4 q = v[i * 33];
    acc += q.x + q.w;
  }
  __pipeline_memcpy_async(&s[t % 512], &b[i + 1], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  out[i] = acc;
}
__global__ void k2(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  h[t % 8 + blockIdx.x * 32] = __float2half(acc) * h[i / 2];
  acc += __half2float(h[i]);
  acc += getter(b, i);
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  out[i] = acc;
}
__global__ void k3(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += farGetter(b, n - i - 1);
  acc = pick(acc, b[i / 2]);
  a[i] = acc;
  for (int j = 0; j < 4; ++j)
    acc += b[i + k + j * 14];
  atomicAdd(&a[i + 1], acc);
  out[i] = acc;
}
__global__ void k4(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += b[2 * i];
  {
    float4 q = v[n - i - 1];
    acc += q.x + q.w;
  }
  acc += b[2 * i];
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 13) % 512];
  if (t % 29 < 15)
    acc += b[t * 32 + blockIdx.x];
  else
    acc += a[(i * 7) & 1023];
  out[i] = acc;
}
__global__ void k5(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  {
    float4 q = v[t * 32 + blockIdx.x];
    acc += q.x + q.w;
  }
  acc += atomicAdd(&c[(t ^ 1) + blockIdx.x * blockDim.x], 1);
  h[i] = __float2half(acc) * h[(i * 7) & 1023];
  acc += __half2float(h[i]);
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 17) % 512];
  atomicAdd(&c[i * 33], 1);
  acc += getter(b, (t ^ 1) + blockIdx.x * blockDim.x);
  out[i] = acc;
}
__global__ void k6(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  {
    float4 q = v[n - i - 1];
    acc += q.x + q.w;
  }
  acc += getter(b, (t ^ 1) + blockIdx.x * blockDim.x);
  out[i] = acc;
}
__global__ void k7(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  {
    float4 q = v[t * 32 + blockIdx.x];
    acc += q.x + q.w;
  }
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
__global__ void k8(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  {
    float4 q = v[t % 8 + blockIdx.x * 32];
    acc += q.x + q.w;
  }
  switch (t % 3) {
  case 0:
    acc += b[t * 32 + blockIdx.x];
    break;
  case 1:
    acc += a[t % 8 + blockIdx.x * 32];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  {
    float4 q = v[i * 33];
    acc += q.x + q.w;
  }
  acc += atomicAdd(&c[2 * i], 1);
  out[i] = acc;
}
__global__ void k9(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  h[(t ^ 1) + blockIdx.x * blockDim.x] = __float2half(acc) * h[t % 8 + blockIdx.x * 32];
  acc += __half2float(h[i]);
  a[i * 33] = acc;
  h[i] = __float2half(acc) * h[2 * i];
  acc += __half2float(h[i]);
  {
    float4 q = v[t * 32 + blockIdx.x];
    acc += q.x + q.w;
  }
  out[i] = acc;
}
__global__ void k10(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
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
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 31) % 512];
  h[(t ^ 1) + blockIdx.x * blockDim.x] = __float2half(acc) * h[2 * i];
  acc += __half2float(h[i]);
  if (t % 10 < 13)
    acc += b[i / 2];
  else
    acc += a[(t ^ 1) + blockIdx.x * blockDim.x];
  out[i] = acc;
}
__global__ void k11(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  {
    float4 q = v[2 * i];
    acc += q.x + q.w;
  }
  a[i / 2] = acc;
  if (t % 25 < 6)
    acc += b[n - i - 1];
  else
    acc += a[t % 8 + blockIdx.x * 32];
  out[i] = acc;
}
__global__ void k12(float *a, const float *b, int *c, __half *h, const float4 *v,
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
    acc += a[i + 1];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  a[i + k] = acc;
  atomicAdd(&a[2 * i], acc);
  acc += b[i * 33];
  for (int j = 0; j < 4; ++j)
    acc += b[blockIdx.x + j * 11];
  atomicAdd(&a[i / 2], acc);
  out[i] = acc;
}
__global__ void k13(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  for (int j = 0; j < k; ++j)
    acc += b[i / 2 + j * 2];
  switch (t % 3) {
  case 0:
    acc += b[n - i - 1];
    break;
  case 1:
    acc += a[t * 32 + blockIdx.x];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  atomicAdd(&c[(t ^ 1) + blockIdx.x * blockDim.x], 1);
  out[i] = acc;
}
__global__ void k14(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 17) % 512];
  __pipeline_memcpy_async(&s[t % 512], &b[i + k], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  __pipeline_memcpy_async(&s[t % 512], &b[t % 8 + blockIdx.x * 32], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  h[i + k] = __float2half(acc) * h[n - i - 1];
  acc += __half2float(h[i]);
  for (int j = 0; j < k; ++j)
    acc += b[(t ^ 1) + blockIdx.x * blockDim.x + j * 17];
  out[i] = acc;
}
__global__ void k15(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  {
    float4 q = v[t % 8 + blockIdx.x * 32];
    acc += q.x + q.w;
  }
  atomicAdd(&a[(t ^ 1) + blockIdx.x * blockDim.x], acc);
  acc = pick(acc, b[i + 1]);
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  out[i] = acc;
}
__global__ void k16(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  atomicAdd(&c[i], 1);
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 4) % 512];
  out[i] = acc;
}
__global__ void k17(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
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
  __pipeline_memcpy_async(&s[t % 512], &b[(i * 7) & 1023], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  atomicAdd(&a[i], acc);
  acc = pick(acc, b[(i * 7) & 1023]);
  __pipeline_memcpy_async(&s[t % 512], &b[blockIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  out[i] = acc;
}
__global__ void k18(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  if (t % 3 < 15)
    acc += b[t % 8 + blockIdx.x * 32];
  else
    acc += a[(i * 7) & 1023];
  a[n - i - 1] = acc;
  out[i] = acc;
}
__global__ void k19(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += atomicAdd(&c[t * 32 + blockIdx.x], 1);
  {
    float4 q = v[(t ^ 1) + blockIdx.x * blockDim.x];
    acc += q.x + q.w;
  }
  switch (t % 3) {
  case 0:
    acc += b[i / 2];
    break;
  case 1:
    acc += a[i + 1];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  for (int j = 0; j < k; ++j)
    acc += b[i + j * 64];
  {
    float4 q = v[i / 2];
    acc += q.x + q.w;
  }
  if (t % 11 < 14)
    acc += b[t % 8 + blockIdx.x * 32];
  else
    acc += a[(t ^ 1) + blockIdx.x * blockDim.x];
  out[i] = acc;
}
__global__ void k20(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc = pick(acc, b[t * 32 + blockIdx.x]);
  {
    float4 q = v[(i * 7) & 1023];
    acc += q.x + q.w;
  }
  a[i + k] = acc;
  a[blockIdx.x] = acc;
  switch (t % 3) {
  case 0:
    acc += b[n - i - 1];
    break;
  case 1:
    acc += a[i + k];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  out[i] = acc;
}
__global__ void k21(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  switch (t % 3) {
  case 0:
    acc += b[(t ^ 1) + blockIdx.x * blockDim.x];
    break;
  case 1:
    acc += a[n - i - 1];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  acc = pick(acc, b[n - i - 1]);
  h[i + k] = __float2half(acc) * h[t % 8 + blockIdx.x * 32];
  acc += __half2float(h[i]);
  out[i] = acc;
}
__global__ void k22(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  {
    float4 q = v[i / 2];
    acc += q.x + q.w;
  }
  acc += b[i + k];
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  atomicAdd(&a[i / 2], acc);
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  out[i] = acc;
}
__global__ void k23(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  if (t % 14 < 2)
    acc += b[i + k];
  else
    acc += a[blockIdx.x];
  h[i] = __float2half(acc) * h[i / 2];
  acc += __half2float(h[i]);
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  atomicAdd(&c[i / 2], 1);
  acc += farGetter(b, i);
  a[i + k] = acc;
  out[i] = acc;
}
__global__ void k24(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  for (int j = 0; j < k; ++j)
    acc += b[i + k + j * 50];
  a[(t ^ 1) + blockIdx.x * blockDim.x] = acc;
  atomicAdd(&a[t * 32 + blockIdx.x], acc);
  acc += getter(b, 2 * i);
  atomicAdd(&a[(i * 7) & 1023], acc);
  out[i] = acc;
}
__global__ void k25(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  a[i] = acc;
  if (t % 9 < 14)
    acc += b[t % 8 + blockIdx.x * 32];
  else
    acc += a[i * 33];
  out[i] = acc;
}
__global__ void k26(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += farGetter(b, i + k);
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  out[i] = acc;
}
__global__ void k27(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  switch (t % 3) {
  case 0:
    acc += b[(i * 7) & 1023];
    break;
  case 1:
    acc += a[(i * 7) & 1023];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  {
    float4 q = v[n - i - 1];
    acc += q.x + q.w;
  }
  atomicAdd(&a[i / 2], acc);
  atomicAdd(&c[t * 32 + blockIdx.x], 1);
  if (t % 19 < 16)
    acc += b[blockIdx.x];
  else
    acc += a[i / 2];
  acc += atomicAdd(&c[i + k], 1);
  out[i] = acc;
}
__global__ void k28(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  {
    float4 q = v[2 * i];
    acc += q.x + q.w;
  }
  atomicAdd(&c[t * 32 + blockIdx.x], 1);
  switch (t % 3) {
  case 0:
    acc += b[t * 32 + blockIdx.x];
    break;
  case 1:
    acc += a[(t ^ 1) + blockIdx.x * blockDim.x];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  a[i * 33] = acc;
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 22) % 512];
  out[i] = acc;
}
__global__ void k29(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  h[2 * i] = __float2half(acc) * h[i + k];
  acc += __half2float(h[i]);
  if (t % 2 < 2)
    acc += b[blockIdx.x];
  else
    acc += a[t % 8 + blockIdx.x * 32];
  out[i] = acc;
}
__global__ void k30(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  __pipeline_memcpy_async(&s[t % 512], &b[(i * 7) & 1023], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  atomicAdd(&a[i / 2], acc);
  out[i] = acc;
}
__global__ void k31(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += atomicAdd(&c[i], 1);
  acc = pick(acc, b[t * 32 + blockIdx.x]);
  acc += getter(b, i * 33);
  acc += getter(b, t * 32 + blockIdx.x);
  atomicAdd(&a[(i * 7) & 1023], acc);
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 32) % 512];
  out[i] = acc;
}
__global__ void k32(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  {
    float4 q = v[2 * i];
    acc += q.x + q.w;
  }
  for (int j = 0; j < k; ++j)
    acc += b[i / 2 + j * 2];
  acc += getter(b, t * 32 + blockIdx.x);
  if (t % 22 < 3)
    acc += b[i * 33];
  else
    acc += a[n - i - 1];
  {
    float4 q = v[i + k];
    acc += q.x + q.w;
  }
  {
    float4 q = v[i];
    acc += q.x + q.w;
  }
  out[i] = acc;
}
__global__ void k33(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  h[(t ^ 1) + blockIdx.x * blockDim.x] = __float2half(acc) * h[n - i - 1];
  acc += __half2float(h[i]);
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
  switch (t % 3) {
  case 0:
    acc += b[i + 1];
    break;
  case 1:
    acc += a[t % 8 + blockIdx.x * 32];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  if (t % 10 < 3)
    acc += b[t * 32 + blockIdx.x];
  else
    acc += a[(t ^ 1) + blockIdx.x * blockDim.x];
  __pipeline_memcpy_async(&s[t % 512], &b[i + 1], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  acc += atomicAdd(&c[(i * 7) & 1023], 1);
  a[(i * 7) & 1023] = acc;
  out[i] = acc;
}
__global__ void k35(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += b[2 * i];
  {
    float4 q = v[t % 8 + blockIdx.x * 32];
    acc += q.x + q.w;
  }
  acc += getter(b, (i * 7) & 1023);
  acc += getter(b, i);
  out[i] = acc;
}
__global__ void k36(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  acc += atomicAdd(&c[t * 32 + blockIdx.x], 1);
  a[t * 32 + blockIdx.x] = acc;
  {
    float4 q = v[t % 8 + blockIdx.x * 32];
    acc += q.x + q.w;
  }
  out[i] = acc;
}
__global__ void k37(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  __pipeline_memcpy_async(&s[t % 512], &b[n - i - 1], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  a[t % 8 + blockIdx.x * 32] = acc;
  out[i] = acc;
}
__global__ void k38(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  switch (t % 3) {
  case 0:
    acc += b[t * 32 + blockIdx.x];
    break;
  case 1:
    acc += a[n - i - 1];
    break;
  default:
    acc += b[i + 5];
    break;
  }
  s[t % 512] = acc;
  __syncthreads();
  acc += s[(t * 8) % 512];
  if (t % 2 < 10)
    acc += b[n - i - 1];
  else
    acc += a[i + k];
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
  a[blockIdx.x] = acc;
  h[n - i - 1] = __float2half(acc) * h[t % 8 + blockIdx.x * 32];
  acc += __half2float(h[i]);
  out[i] = acc;
}
__global__ void k39(float *a, const float *b, int *c, __half *h, const float4 *v,
    float *out, int n, int k) {
  __shared__ float s[512];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float acc = 0.0f;
  atomicAdd(&a[(t ^ 1) + blockIdx.x * blockDim.x], acc);
  __pipeline_memcpy_async(&s[t % 512], &b[t % 8 + blockIdx.x * 32], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  acc += s[t % 512];
  atomicAdd(&a[t % 8 + blockIdx.x * 32], acc);
  atomicAdd(&a[2 * i], acc);
  {
    float l[16];
    for (int j = 0; j < 16; ++j)
      l[(j * k) & 15] = b[i + j];
    acc += l[(t + k) & 15];
  }
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
  k0<<<4, dim3(1024, 1)>>>(a, b, c, h, v, out, 4096, 2);
  k1<<<15, dim3(512, 1)>>>(a, b, c, h, v, out, 7680, 3);
  k2<<<4, dim3(160, 1)>>>(a, b, c, h, v, out, 640, 1);
  k3<<<3, dim3(64, 1)>>>(a, b, c, h, v, out, 192, 4);
  k4<<<7, dim3(256, 1)>>>(a, b, c, h, v, out, 1792, 4);
  k5<<<15, dim3(32, 1)>>>(a, b, c, h, v, out, 480, 1);
  k6<<<2, dim3(64, 1)>>>(a, b, c, h, v, out, 128, 2);
  k7<<<10, dim3(1024, 1)>>>(a, b, c, h, v, out, 10240, 4);
  k8<<<1, dim3(256, 1)>>>(a, b, c, h, v, out, 256, 1);
  k9<<<4, dim3(512, 1)>>>(a, b, c, h, v, out, 2048, 2);
  k10<<<14, dim3(1024, 1)>>>(a, b, c, h, v, out, 14336, 3);
  k11<<<12, dim3(128, 1)>>>(a, b, c, h, v, out, 1536, 2);
  k12<<<8, dim3(96, 1)>>>(a, b, c, h, v, out, 768, 2);
  k13<<<12, dim3(160, 1)>>>(a, b, c, h, v, out, 1920, 3);
  k14<<<2, dim3(1024, 1)>>>(a, b, c, h, v, out, 2048, 3);
  k15<<<16, dim3(32, 1)>>>(a, b, c, h, v, out, 512, 3);
  k16<<<8, dim3(128, 1)>>>(a, b, c, h, v, out, 1024, 4);
  k17<<<16, dim3(256, 1)>>>(a, b, c, h, v, out, 4096, 4);
  k18<<<1, dim3(96, 1)>>>(a, b, c, h, v, out, 96, 4);
  k19<<<13, dim3(64, 1)>>>(a, b, c, h, v, out, 832, 3);
  k20<<<7, dim3(64, 2)>>>(a, b, c, h, v, out, 448, 4);
  k21<<<7, dim3(64, 1)>>>(a, b, c, h, v, out, 448, 1);
  k22<<<8, dim3(64, 2)>>>(a, b, c, h, v, out, 512, 2);
  k23<<<5, dim3(32, 2)>>>(a, b, c, h, v, out, 160, 4);
  k24<<<1, dim3(1024, 1)>>>(a, b, c, h, v, out, 1024, 4);
  k25<<<12, dim3(32, 1)>>>(a, b, c, h, v, out, 384, 1);
  k26<<<12, dim3(96, 2)>>>(a, b, c, h, v, out, 1152, 2);
  k27<<<2, dim3(96, 1)>>>(a, b, c, h, v, out, 192, 2);
  k28<<<2, dim3(96, 1)>>>(a, b, c, h, v, out, 192, 3);
  k29<<<10, dim3(128, 1)>>>(a, b, c, h, v, out, 1280, 2);
  k30<<<3, dim3(32, 1)>>>(a, b, c, h, v, out, 96, 1);
  k31<<<4, dim3(512, 1)>>>(a, b, c, h, v, out, 2048, 4);
  k32<<<3, dim3(128, 2)>>>(a, b, c, h, v, out, 384, 3);
  k33<<<12, dim3(32, 1)>>>(a, b, c, h, v, out, 384, 2);
  k34<<<14, dim3(256, 1)>>>(a, b, c, h, v, out, 3584, 1);
  k35<<<8, dim3(256, 2)>>>(a, b, c, h, v, out, 2048, 1);
  k36<<<1, dim3(64, 1)>>>(a, b, c, h, v, out, 64, 1);
  k37<<<14, dim3(32, 1)>>>(a, b, c, h, v, out, 448, 4);
  k38<<<16, dim3(512, 1)>>>(a, b, c, h, v, out, 8192, 3);
  k39<<<11, dim3(1024, 1)>>>(a, b, c, h, v, out, 11264, 4);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
