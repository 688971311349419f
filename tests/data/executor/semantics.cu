// The executor's semantics, checked against a GPU: every kernel writes its
// results to device memory, and main() prints them as hex words. The same
// program run on an H100 (semantics.h100.txt) and under gmem's functional
// recording must print the same lines, bit for bit; the lines under
// "approx" are of the .approx instructions, whose bits the PTX ISA leaves
// within a few ulps, and are compared with that tolerance
// (tests/executor/semantics_test.cpp).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace cg = cooperative_groups;

#define CHECK(x)                                                              \
  do {                                                                        \
    cudaError_t e = (x);                                                      \
    if (e != cudaSuccess) {                                                   \
      printf("error %s at line %d\n", cudaGetErrorString(e), __LINE__);       \
      return 1;                                                               \
    }                                                                         \
  } while (0)

constexpr int N = 256; // Threads of every launch below.

__device__ uint32_t bitsOf(float f) { return __float_as_uint(f); }
__host__ __device__ uint32_t ua(int t) { return uint32_t(t) * 2654435761u; }

// Integers: wrap-around, the high halves of products, division and
// remainder of negative values, bit fields, permutes, funnel shifts.
__global__ void integers(const int32_t *in, uint32_t *out) {
  const int t = threadIdx.x;
  const int32_t a = in[t], b = in[(t * 7 + 3) % N] | 1;
  const uint32_t ua = uint32_t(a), ub = uint32_t(b);
  uint32_t *o = out + t * 16;
  o[0] = ua * ub + 0x9e3779b9u;
  o[1] = __umulhi(ua, ub);
  o[2] = uint32_t(__mulhi(a, b));
  o[3] = uint32_t(a / b);
  o[4] = uint32_t(a % b);
  o[5] = ua / ub;
  o[6] = ua % ub;
  o[7] = __popc(ua) | uint32_t(__clz(ua)) << 8 | uint32_t(__ffs(ua)) << 16;
  o[8] = __brev(ua);
  o[9] = __byte_perm(ua, ub, 0x5140 + t);
  o[10] = __funnelshift_l(ua, ub, t);
  o[11] = __funnelshift_r(ua, ub, t);
  uint32_t bfe, bfi;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(bfe) : "r"(ua), "r"(t % 40), "r"(t % 13));
  asm("bfi.b32 %0, %1, %2, %3, %4;"
      : "=r"(bfi)
      : "r"(ua), "r"(ub), "r"(t % 33), "r"(t % 9));
  o[12] = bfe;
  o[13] = bfi;
  const int64_t wide = int64_t(a) * b - (int64_t(t) << 40);
  o[14] = uint32_t(wide >> 17);
  o[15] = uint32_t(uint64_t(wide) % 1000003u) ^ (ua >> (t % 32)) ^
          uint32_t(a >> (t % 32));
}

// Floating point: IEEE single and double arithmetic, conversions with each
// rounding mode, saturation, halves and bfloat16.
__global__ void floats(const float *in, uint32_t *out) {
  const int t = threadIdx.x;
  const float x = in[t], y = in[(t * 5 + 1) % N];
  uint32_t *o = out + t * 20;
  o[0] = bitsOf(x + y);
  o[1] = bitsOf(x * y);
  o[2] = bitsOf(fmaf(x, y, -x));
  o[3] = bitsOf(x / y);
  o[4] = bitsOf(sqrtf(fabsf(x)));
  o[5] = bitsOf(__fmul_rz(x, y)) ^ bitsOf(__fadd_rd(x, y)) ^
         bitsOf(__fadd_ru(x, y));
  o[6] = uint32_t(__float2int_rn(x * 1000.0f)) ^
         uint32_t(__float2int_rd(x * 1000.0f)) << 1;
  o[7] = uint32_t(__float2int_ru(y * 1000.0f)) ^
         uint32_t(__float2uint_rz(fabsf(y) * 1e9f));
  o[8] = bitsOf(__int2float_rd(int(ua(t)) * 1234567)) ^
         bitsOf(__int2float_ru(int(ua(t)) * 7654321));
  o[9] = bitsOf(__saturatef(x));
  const double d = double(x) * y + 1.0 / (double(y) + 3.0);
  o[10] = uint32_t(__double_as_longlong(d));
  o[11] = uint32_t(__double_as_longlong(d) >> 32);
  o[12] = uint32_t(__double_as_longlong(sqrt(fabs(d)) + fma(d, d, -1.0)));
  o[13] = bitsOf(float(d));
  const __half h = __float2half_rn(x * 300.0f);
  const __half2 h2 = __floats2half2_rn(x, y);
  const __half2 p = __hfma2(h2, h2, __float2half2_rn(0.5f));
  o[14] = uint32_t(__half_as_ushort(h)) |
          uint32_t(__half_as_ushort(__float2half_rz(y * 1e-5f))) << 16;
  o[15] = *reinterpret_cast<const uint32_t *>(&p);
  o[16] = bitsOf(__half2float(__hmul(h, __float2half(0.125f))));
  const __nv_bfloat16 b = __float2bfloat16(x * y);
  o[17] = uint32_t(__bfloat16_as_ushort(b)) |
          uint32_t(__bfloat16_as_ushort(__float2bfloat16_rz(x))) << 16;
  o[18] = uint32_t(__float2ll_rn(x * 1e12f)) ^ uint32_t(__float2ll_rz(y * 1e15f) >> 20);
  o[19] = uint32_t(fminf(x, y) == x) | uint32_t(fmaxf(x, y) == y) << 1 |
          uint32_t(isnan(x / (y - y))) << 2 | uint32_t(signbit(-x * 0.0f)) << 3;
}

// The approximate instructions (sin.approx, ex2.approx, lg2.approx,
// rsqrt.approx, rcp.approx, div.approx, tanh.approx): printed as floats.
__global__ void approx(const float *in, float *out) {
  const int t = threadIdx.x;
  const float x = in[t] * 3.0f;
  float *o = out + t * 7;
  o[0] = __sinf(x);
  o[1] = __cosf(x);
  o[2] = __expf(x * 0.25f);
  o[3] = __logf(fabsf(x) + 0.5f);
  o[4] = rsqrtf(fabsf(x) + 0.25f);
  o[5] = __fdividef(x, 3.0f + x * x);
  float th;
  asm("tanh.approx.f32 %0, %1;" : "=f"(th) : "f"(x));
  o[6] = th;
}

// Warp-wide operations, some under divergence.
__global__ void warps(const int32_t *in, uint32_t *out) {
  const int t = threadIdx.x, lane = t % 32;
  const int v = in[t];
  uint32_t *o = out + t * 12;
  o[0] = uint32_t(__shfl_sync(0xffffffffu, v, (lane * 5) % 32));
  o[1] = uint32_t(__shfl_up_sync(0xffffffffu, v, 3));
  o[2] = uint32_t(__shfl_down_sync(0xffffffffu, v, 5, 16));
  o[3] = uint32_t(__shfl_xor_sync(0xffffffffu, v, 6, 8));
  o[4] = __ballot_sync(0xffffffffu, v & 1);
  o[5] = uint32_t(__any_sync(0xffffffffu, v > 100)) |
         uint32_t(__all_sync(0xffffffffu, v != 0)) << 1;
  o[6] = __match_any_sync(0xffffffffu, v & 3);
  o[7] = uint32_t(__reduce_add_sync(0xffffffffu, uint32_t(v))) ^
         uint32_t(__reduce_max_sync(0xffffffffu, v));
  uint32_t mask = 0;
  if (v & 2)
    mask = __activemask();
  o[8] = mask;
  auto tile = cg::tiled_partition<8>(cg::this_thread_block());
  o[9] = uint32_t(cg::reduce(tile, v, cg::plus<int>()));
  o[10] = uint32_t(tile.shfl_down(v, 1)) + tile.meta_group_rank();
  int pred = 0;
  o[11] = __match_all_sync(0xffffffffu, v >> 30, &pred) ^ uint32_t(pred) << 5;
}

// Control flow: early returns, loops with break and continue, a switch.
__global__ void control(const int32_t *in, uint32_t *out) {
  const int t = threadIdx.x;
  uint32_t *o = out + t * 4;
  o[0] = o[1] = o[2] = o[3] = 0;
  const int v = in[t] & 1023;
  uint32_t acc = 0;
  for (int i = 0; i < v % 50; ++i) {
    if (i % 7 == 3)
      continue;
    acc = acc * 31 + uint32_t(i);
    if (acc % 97 == 5)
      break;
  }
  o[0] = acc;
  switch (v % 5) {
  case 0:
    o[1] = 11;
    break;
  case 1:
    o[1] = uint32_t(v) * 3;
    break;
  case 3:
    o[1] = acc ^ 0x55;
    return;
  default:
    o[1] = 7;
  }
  int k = 0;
  while (v > k * k)
    ++k;
  o[2] = uint32_t(k);
  if (t % 3 == 0)
    return;
  o[3] = uint32_t(v * k);
}

// Shared memory and barriers: a block reduction, and the counting barriers.
__global__ void blocks(const int32_t *in, uint32_t *out) {
  __shared__ int s[N];
  const int t = threadIdx.x;
  s[t] = in[t] & 0xffff;
  __syncthreads();
  for (int stride = N / 2; stride > 0; stride /= 2) {
    if (t < stride)
      s[t] += s[t + stride];
    __syncthreads();
  }
  const int c = __syncthreads_count(in[t] & 4);
  const int any = __syncthreads_or(in[t] == 12345);
  const int all = __syncthreads_and(in[t] != 0);
  if (t == 0) {
    out[0] = uint32_t(s[0]);
    out[1] = uint32_t(c) | uint32_t(any) << 16 | uint32_t(all) << 17;
  }
}

// Atomics: an integer histogram, float sums of small integers (exact in any
// order), a compare-and-swap loop, min, max, inc and exchange.
__global__ void atomics(const int32_t *in, uint32_t *hist, float *sums,
                        uint32_t *misc) {
  const int t = threadIdx.x;
  const int v = in[t];
  atomicAdd(&hist[v & 15], 1u);
  atomicAdd(&sums[v & 3], float(v & 7));
  int old = atomicAdd(reinterpret_cast<int *>(&misc[0]), 0);
  while (atomicCAS(reinterpret_cast<int *>(&misc[0]), old, old + (v & 1)) !=
         old)
    old = atomicAdd(reinterpret_cast<int *>(&misc[0]), 0);
  atomicMax(&misc[1], uint32_t(v));
  atomicMin(&misc[2], uint32_t(v) | 1u);
  atomicInc(&misc[3], 40u);
  if (t == 17)
    atomicExch(&misc[4], uint32_t(v));
}

// Local memory (an array indexed at run time), calls that are not inlined,
// and recursion.
__device__ __noinline__ uint32_t mix(uint32_t a, uint32_t b) {
  return (a ^ (b << 5)) * 2654435761u;
}
__device__ __noinline__ uint32_t fact(uint32_t n) {
  return n <= 1 ? 1u : n * fact(n - 1);
}
__global__ void calls(const int32_t *in, uint32_t *out) {
  const int t = threadIdx.x;
  uint32_t local[24];
  for (int i = 0; i < 24; ++i)
    local[i] = mix(uint32_t(in[(t + i) % N]), uint32_t(i));
  uint32_t *o = out + t * 2;
  o[0] = local[in[t] & 15] + local[(uint32_t(in[t]) >> 4) % 24];
  o[1] = fact(uint32_t(t % 13));
}

int main() {
  int32_t hi[N];
  float hf[N];
  for (int i = 0; i < N; ++i) {
    hi[i] = int32_t(ua(i) ^ (ua(i) >> 13)) % 100000 - 5000 * (i % 3);
    hf[i] = float(hi[i]) / 997.0f + (i % 5 == 0 ? 1e-39f : 0.0f);
  }
  hi[5] = 0;
  hi[9] = -2147483647 - 1;
  hf[3] = -0.0f;
  hf[7] = 1e30f;
  int32_t *di;
  float *df;
  uint32_t *dout;
  float *dsums, *dapprox;
  const int Words = N * 20;
  CHECK(cudaMalloc(&di, sizeof hi));
  CHECK(cudaMalloc(&df, sizeof hf));
  CHECK(cudaMalloc(&dout, Words * 4));
  CHECK(cudaMalloc(&dsums, 16));
  CHECK(cudaMalloc(&dapprox, N * 7 * 4));
  CHECK(cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice));
  static uint32_t h[N * 20];
  auto Print = [&](const char *Name, int Count) -> int {
    CHECK(cudaMemcpy(h, dout, Count * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < Count; i += 8) {
      printf("%s %4d:", Name, i);
      for (int j = i; j < i + 8 && j < Count; ++j)
        printf(" %08x", h[j]);
      printf("\n");
    }
    return 0;
  };
  integers<<<1, N>>>(di, dout);
  CHECK(cudaGetLastError());
  if (Print("integers", N * 16))
    return 1;
  floats<<<1, N>>>(df, dout);
  if (Print("floats", N * 20))
    return 1;
  warps<<<1, N>>>(di, dout);
  if (Print("warps", N * 12))
    return 1;
  control<<<1, N>>>(di, dout);
  if (Print("control", N * 4))
    return 1;
  blocks<<<1, N>>>(di, dout);
  if (Print("blocks", 2))
    return 1;
  CHECK(cudaMemset(dout, 0, 64 * 4));
  CHECK(cudaMemset(dsums, 0, 16));
  uint32_t init[5] = {0, 0, 0xffffffffu, 0, 0};
  CHECK(cudaMemcpy(dout + 32, init, sizeof init, cudaMemcpyHostToDevice));
  atomics<<<4, N>>>(di, dout, dsums, dout + 32);
  if (Print("atomics", 40))
    return 1;
  float sums[4];
  CHECK(cudaMemcpy(sums, dsums, 16, cudaMemcpyDeviceToHost));
  printf("sums %08x %08x %08x %08x\n", *(uint32_t *)&sums[0],
         *(uint32_t *)&sums[1], *(uint32_t *)&sums[2], *(uint32_t *)&sums[3]);
  calls<<<1, N>>>(di, dout);
  if (Print("calls", N * 2))
    return 1;
  approx<<<1, N>>>(df, dapprox);
  static float a[N * 7];
  CHECK(cudaMemcpy(a, dapprox, sizeof a, cudaMemcpyDeviceToHost));
  for (int i = 0; i < N * 7; i += 7) {
    printf("approx %4d:", i);
    for (int j = i; j < i + 7; ++j)
      printf(" %.9g", a[j]);
    printf("\n");
  }
  CHECK(cudaFree(di));
  CHECK(cudaFree(df));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(dsums));
  CHECK(cudaFree(dapprox));
  return 0;
}
