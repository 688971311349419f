// Texture and surface objects of every kind a kernel samples through, each
// fetched at coordinates that sweep between texels, against the rules of
// the CUDA Programming Guide's "Texture Fetching" appendix worked out on
// the host: point and linear filtering, clamp, border, wrap and mirror
// addressing, normalized coordinates, 8-bit channels read as normalized
// floats, layered and 3-D arrays, cube maps, pitched memory, tex1Dfetch on
// linear memory, gathers (tld4), and surface reads and writes with their
// boundary modes. Where the Guide leaves the arithmetic open, the rules are
// what an H200 did (a first run's dump): coordinates rounded to 8
// fractional bits, each corner's weight the product of its axes' weights
// rounded to a 256th, the weighed sum rounded once; missing channels 0;
// cube map ties go to z, then y.
//
// It prints, per case, how many fetches differ from the rule at all and
// how many by more than the case allows (nothing for point sampling,
// gathers and surfaces; a few 256ths of the largest texel where weights
// are rounded), and exits 1 if any is beyond. `sampling DUMP` also writes every
// fetched value (raw bits) to DUMP.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                    \
    if (err_ != cudaSuccess) {                                                  \
      printf("%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_));     \
      exit(2);                                                                 \
    }                                                                          \
  } while (0)

const int N = 1024; // Coordinates per case.

// Coordinate k of a sweep over [Lo, Hi): steps of 1/64 texel plus an odd
// fraction, so that every weight's rounding shows.
__host__ __device__ float sweep(int k, float Lo, float Hi) {
  return Lo + (Hi - Lo) * (float(k) + 0.37f) / float(N);
}

__global__ void fetch1D(float4 *out, cudaTextureObject_t t, float lo, float hi) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  out[k] = tex1D<float4>(t, sweep(k, lo, hi));
}

__global__ void fetch2D(float4 *out, cudaTextureObject_t t, float lo, float hi) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  float x = sweep(k, lo, hi), y = sweep((k * 37) % N, lo, hi);
  out[k] = tex2D<float4>(t, x, y);
}

__global__ void fetch2DInt(int4 *out, cudaTextureObject_t t, float lo,
                           float hi) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  float x = sweep(k, lo, hi), y = sweep((k * 37) % N, lo, hi);
  out[k] = tex2D<int4>(t, x, y);
}

__global__ void fetchLayered(float4 *out, cudaTextureObject_t t, float lo,
                             float hi) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  float x = sweep(k, lo, hi), y = sweep((k * 37) % N, lo, hi);
  out[k] = tex2DLayered<float4>(t, x, y, k % 4);
}

__global__ void fetch3D(float4 *out, cudaTextureObject_t t, float lo, float hi) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  float x = sweep(k, lo, hi), y = sweep((k * 37) % N, lo, hi),
        z = sweep((k * 101) % N, lo, hi);
  out[k] = tex3D<float4>(t, x, y, z);
}

__global__ void fetchCube(float4 *out, cudaTextureObject_t t) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  float x = sweep(k, -1, 1), y = sweep((k * 37) % N, -1, 1),
        z = sweep((k * 101) % N, -1, 1);
  out[k] = texCubemap<float4>(t, x, y, z);
}

__global__ void fetchLinear(float4 *out, cudaTextureObject_t t) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  out[k] = tex1Dfetch<float4>(t, k - 8); // 8 before and after the buffer.
}

__global__ void gather(float4 *out, cudaTextureObject_t t, float lo, float hi) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  float x = sweep(k, lo, hi), y = sweep((k * 37) % N, lo, hi);
  switch (k % 4) {
  case 0: out[k] = tex2Dgather<float4>(t, x, y, 0); break;
  case 1: out[k] = tex2Dgather<float4>(t, x, y, 1); break;
  case 2: out[k] = tex2Dgather<float4>(t, x, y, 2); break;
  default: out[k] = tex2Dgather<float4>(t, x, y, 3); break;
  }
}

// Reads a W x H surface of floats at (x, y) with x and y from -2 to W+1
// (bytes: x * 4), in the zero and clamp modes, and writes each read value
// plus one back in place (zero mode: writes outside are dropped).
__global__ void surfaces(float4 *out, cudaSurfaceObject_t s, int w, int h) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int x = k % (w + 4) - 2, y = (k / (w + 4)) % (h + 4) - 2;
  float z = surf2Dread<float>(s, x * 4, y, cudaBoundaryModeZero);
  float c = surf2Dread<float>(s, x * 4, y, cudaBoundaryModeClamp);
  out[k] = make_float4(z, c, float(x), float(y));
}
__global__ void surfaceWrite(cudaSurfaceObject_t s, int w, int h) {
  int x = threadIdx.x - 2, y = blockIdx.x - 2;
  surf2Dwrite(float(100 * y + x), s, x * 4, y, cudaBoundaryModeZero);
}

// --- The host's rules ------------------------------------------------------

struct Tex {
  int W, H, D;  // Texels; D: slices (layers, faces, depth).
  int Channels; // Of float (or of unsigned char when Bytes).
  bool Bytes = false;
  std::vector<float> F; // W*H*D*Channels.
  std::vector<unsigned char> U;
  cudaTextureAddressMode Mode = cudaAddressModeClamp;
  bool Linear = false, Normalized = false;
};

float channel(const Tex &T, int i, int j, int s, int c) {
  if (c >= T.Channels)
    return 0.0f;
  size_t At = ((size_t(s) * T.H + j) * T.W + i) * T.Channels + c;
  return T.Bytes ? T.U[At] / 255.0f : T.F[At];
}

// Index i of a dimension of n texels by the address mode; -1: border.
int address(int i, int n, cudaTextureAddressMode m, bool normalized) {
  if (i >= 0 && i < n)
    return i;
  if (!normalized && (m == cudaAddressModeWrap || m == cudaAddressModeMirror))
    m = cudaAddressModeClamp;
  switch (m) {
  case cudaAddressModeBorder:
    return -1;
  case cudaAddressModeWrap:
    return ((i % n) + n) % n;
  case cudaAddressModeMirror: {
    int p = ((i % (2 * n)) + 2 * n) % (2 * n);
    return p < n ? p : 2 * n - 1 - p;
  }
  default:
    return i < 0 ? 0 : n - 1;
  }
}

// A coordinate in texels: its texel below and the 8-bit weight (of 256).
void split(float u, bool linear, int &i, int &a) {
  if (!linear) {
    i = int(floorf(u));
    a = 0;
    return;
  }
  long long f = llrint(double(u) * 256) - 128;
  i = int(f >> 8);
  a = int(f & 255);
}

// The weight of a corner: the product of its axes' weights (of 256 each),
// in 256ths, rounded half to even.
double weight(long long product, int dims) {
  return rint(double(product) / double(1LL << (8 * (dims - 1))));
}

float texel(const Tex &T, int i, int j, int s, int c) {
  i = address(i, T.W, T.Mode, T.Normalized);
  j = address(j, T.H, T.Mode, T.Normalized);
  if (i < 0 || j < 0)
    return 0.0f;
  return channel(T, i, j, s, c);
}

float4 sample2(const Tex &T, float x, float y, int s) {
  float u = T.Normalized ? x * T.W : x, v = T.Normalized ? y * T.H : y;
  int i, j, a, b;
  split(u, T.Linear, i, a);
  split(v, T.Linear && T.H > 1, j, b);
  float r[4];
  for (int c = 0; c < 4; ++c) {
    if (!T.Linear) {
      r[c] = texel(T, i, j, s, c);
      continue;
    }
    double t00 = texel(T, i, j, s, c), t10 = texel(T, i + 1, j, s, c);
    double t01 = texel(T, i, j + 1, s, c), t11 = texel(T, i + 1, j + 1, s, c);
    if (T.H == 1) // One axis.
      r[c] = float(((256 - a) * t00 + a * t10) / 256);
    else
      r[c] = float((weight((256 - a) * (256 - b), 2) * t00 +
                    weight(a * (256 - b), 2) * t10 +
                    weight((256 - a) * b, 2) * t01 + weight(a * b, 2) * t11) /
                   256);
  }
  return make_float4(r[0], r[1], r[2], r[3]);
}

float4 sample3(const Tex &T, float x, float y, float z) {
  float u = T.Normalized ? x * T.W : x, v = T.Normalized ? y * T.H : y,
        w = T.Normalized ? z * T.D : z;
  int i, j, k, a, b, g;
  split(u, T.Linear, i, a);
  split(v, T.Linear, j, b);
  split(w, T.Linear, k, g);
  float r[4];
  for (int c = 0; c < 4; ++c) {
    double acc = 0;
    for (int dk = 0; dk < (T.Linear ? 2 : 1); ++dk)
      for (int dj = 0; dj < (T.Linear ? 2 : 1); ++dj)
        for (int di = 0; di < (T.Linear ? 2 : 1); ++di) {
          long long p = (long long)(di ? a : 256 - a) * (dj ? b : 256 - b) *
                        (dk ? g : 256 - g);
          int kk = address(k + dk, T.D, T.Mode, T.Normalized);
          double t = kk < 0 ? 0.0 : texel(T, i + di, j + dj, kk, c);
          acc += (T.Linear ? weight(p, 3) : 256) * t;
        }
    r[c] = float(acc / 256);
  }
  return make_float4(r[0], r[1], r[2], r[3]);
}

// The face and its (s, t) in [0, 1] of a direction (the Guide's table).
float4 sampleCube(const Tex &T, float x, float y, float z) {
  float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), m, s, t;
  int face;
  if (az >= ax && az >= ay) {
    m = az, face = z >= 0 ? 4 : 5, s = z >= 0 ? x : -x, t = -y;
  } else if (ay >= ax) {
    m = ay, face = y >= 0 ? 2 : 3, s = x, t = y >= 0 ? z : -z;
  } else {
    m = ax, face = x >= 0 ? 0 : 1, s = x >= 0 ? -z : z, t = -y;
  }
  return sample2(T, (s / m + 1) * 0.5f, (t / m + 1) * 0.5f, face);
}

// --- Cases -------------------------------------------------------------------

cudaTextureObject_t makeTexture(Tex &T, unsigned flags,
                                cudaArray_t *keep) {
  cudaChannelFormatDesc d =
      T.Bytes ? cudaCreateChannelDesc(8, T.Channels > 1 ? 8 : 0,
                                      T.Channels > 2 ? 8 : 0,
                                      T.Channels > 3 ? 8 : 0,
                                      cudaChannelFormatKindUnsigned)
              : cudaCreateChannelDesc(32, T.Channels > 1 ? 32 : 0,
                                      T.Channels > 2 ? 32 : 0,
                                      T.Channels > 3 ? 32 : 0,
                                      cudaChannelFormatKindFloat);
  size_t elem = (T.Bytes ? 1 : 4) * T.Channels;
  cudaArray_t a;
  cudaExtent e = make_cudaExtent(T.W, T.H > 1 || T.D > 1 ? T.H : 0,
                                 T.D > 1 ? T.D : 0);
  CHECK(cudaMalloc3DArray(&a, &d, e, flags));
  cudaMemcpy3DParms p = {};
  const void *src = T.Bytes ? (const void *)T.U.data() : T.F.data();
  p.srcPtr = make_cudaPitchedPtr((void *)src, T.W * elem, T.W, T.H);
  p.dstArray = a;
  p.extent = make_cudaExtent(T.W, T.H, T.D);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureDesc td = {};
  for (int k = 0; k < 3; ++k)
    td.addressMode[k] = T.Mode;
  td.filterMode = T.Linear ? cudaFilterModeLinear : cudaFilterModePoint;
  td.readMode = T.Bytes ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
  td.normalizedCoords = T.Normalized;
  cudaTextureObject_t t;
  CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
  *keep = a;
  return t;
}

void fill(Tex &T, unsigned seed) {
  size_t n = size_t(T.W) * T.H * T.D * T.Channels;
  T.F.resize(n);
  T.U.resize(n);
  for (size_t k = 0; k < n; ++k) {
    seed = seed * 1103515245u + 12345u;
    T.F[k] = float(int(seed >> 16) % 2000 - 1000) / 7.0f;
    T.U[k] = (unsigned char)(seed >> 20);
  }
}

// Two 256ths of the largest texel fill() makes: one weight's rounding at a
// tie, either way (four for 3-D, whose rounding of weights was not found).
const float Filtered = 2.0f * (1000.0f / 7) / 256;

FILE *dump = nullptr;
int failures = 0;

// Tol: how far a float result may be from the rule (0: not at all).
template <class V>
void report(const char *name, const std::vector<V> &got,
            const std::vector<V> &want, float tol = 0) {
  int differ = 0, bad = 0, first = -1;
  for (int k = 0; k < N; ++k) {
    if (memcmp(&got[k], &want[k], sizeof(V)) == 0)
      continue;
    ++differ;
    const float *g = (const float *)&got[k], *w = (const float *)&want[k];
    bool beyond = tol == 0;
    for (int c = 0; c < 4 && !beyond; ++c)
      beyond = !(fabsf(g[c] - w[c]) <= tol);
    if (beyond) {
      ++bad;
      if (first < 0)
        first = k;
    }
  }
  printf("%-22s %4d of %d differ from the rule, %d beyond %g", name, differ,
         N, bad, tol);
  if (first >= 0) {
    const float *g = (const float *)&got[first], *w = (const float *)&want[first];
    printf(" (first at %d: %.9g %.9g %.9g %.9g, rule %.9g %.9g %.9g %.9g)",
           first, g[0], g[1], g[2], g[3], w[0], w[1], w[2], w[3]);
  }
  printf("\n");
  failures += bad != 0;
  if (dump) {
    fprintf(dump, "%s %zu\n", name, sizeof(V));
    fwrite(got.data(), sizeof(V), N, dump);
    fprintf(dump, "\n");
  }
}

template <class V> std::vector<V> back(V *d) {
  std::vector<V> h(N);
  CHECK(cudaMemcpy(h.data(), d, N * sizeof(V), cudaMemcpyDeviceToHost));
  return h;
}

int main(int argc, char **argv) {
  if (argc > 1)
    dump = fopen(argv[1], "wb");
  float4 *out;
  int4 *iout;
  CHECK(cudaMalloc(&out, N * sizeof(float4)));
  CHECK(cudaMalloc(&iout, N * sizeof(int4)));
  const int B = 128, G = N / B;
  std::vector<float4> want(N);
  cudaArray_t a;

  // 1-D, linear filtering, unnormalized, clamp: 9 texels, x in [-2, 11).
  {
    Tex T{9, 1, 1, 1};
    T.Linear = true;
    fill(T, 1);
    cudaTextureObject_t t = makeTexture(T, 0, &a);
    fetch1D<<<G, B>>>(out, t, -2, 11);
    for (int k = 0; k < N; ++k)
      want[k] = sample2(T, sweep(k, -2, 11), 0.5f, 0);
    report("1d linear clamp", back(out), want, Filtered);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }
  // 2-D, two channels, linear, normalized, wrap: 5 x 4, coordinates [-1.5, 2.5).
  for (int mode = 0; mode < 4; ++mode) {
    Tex T{5, 4, 1, 2};
    T.Linear = true;
    T.Normalized = true;
    T.Mode = cudaTextureAddressMode(mode);
    fill(T, 2 + mode);
    cudaTextureObject_t t = makeTexture(T, 0, &a);
    fetch2D<<<G, B>>>(out, t, -1.5f, 2.5f);
    for (int k = 0; k < N; ++k)
      want[k] = sample2(T, sweep(k, -1.5f, 2.5f),
                        sweep((k * 37) % N, -1.5f, 2.5f), 0);
    const char *names[] = {"2d linear norm wrap", "2d linear norm clamp",
                           "2d linear norm mirror", "2d linear norm border"};
    report(names[mode], back(out), want, Filtered);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }
  // 2-D point sampling, unnormalized, border: 7 x 3, coordinates [-2, 9).
  {
    Tex T{7, 3, 1, 4};
    T.Mode = cudaAddressModeBorder;
    fill(T, 7);
    cudaTextureObject_t t = makeTexture(T, 0, &a);
    fetch2D<<<G, B>>>(out, t, -2, 9);
    for (int k = 0; k < N; ++k)
      want[k] = sample2(T, sweep(k, -2, 9), sweep((k * 37) % N, -2, 9), 0);
    report("2d point border", back(out), want);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }
  // uchar4 read as normalized floats, linear, clamp: 6 x 5.
  {
    Tex T{6, 5, 1, 4};
    T.Bytes = true;
    T.Linear = true;
    fill(T, 8);
    cudaTextureObject_t t = makeTexture(T, 0, &a);
    fetch2D<<<G, B>>>(out, t, -1, 8);
    for (int k = 0; k < N; ++k)
      want[k] = sample2(T, sweep(k, -1, 8), sweep((k * 37) % N, -1, 8), 0);
    report("2d uchar4 linear", back(out), want, 2.0f / 256);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }
  // A one-channel float texture read as float4 (the missing channels).
  {
    Tex T{4, 4, 1, 1};
    fill(T, 9);
    cudaTextureObject_t t = makeTexture(T, 0, &a);
    fetch2D<<<G, B>>>(out, t, -1, 5);
    for (int k = 0; k < N; ++k)
      want[k] = sample2(T, sweep(k, -1, 5), sweep((k * 37) % N, -1, 5), 0);
    report("2d one channel", back(out), want);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }
  // Layered 2-D (4 layers), linear, clamp.
  {
    Tex T{5, 3, 4, 1};
    T.Linear = true;
    fill(T, 10);
    cudaTextureObject_t t = makeTexture(T, cudaArrayLayered, &a);
    fetchLayered<<<G, B>>>(out, t, -1, 7);
    for (int k = 0; k < N; ++k)
      want[k] = sample2(T, sweep(k, -1, 7), sweep((k * 37) % N, -1, 7), k % 4);
    report("2d layered linear", back(out), want, Filtered);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }
  // 3-D, linear, normalized, wrap: 4 x 3 x 5.
  {
    Tex T{4, 3, 5, 1};
    T.Linear = true;
    T.Normalized = true;
    T.Mode = cudaAddressModeWrap;
    fill(T, 11);
    cudaTextureObject_t t = makeTexture(T, 0, &a);
    fetch3D<<<G, B>>>(out, t, -0.5f, 1.5f);
    for (int k = 0; k < N; ++k)
      want[k] = sample3(T, sweep(k, -0.5f, 1.5f),
                        sweep((k * 37) % N, -0.5f, 1.5f),
                        sweep((k * 101) % N, -0.5f, 1.5f));
    report("3d linear norm wrap", back(out), want, 2 * Filtered);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }
  // A cube map of 4 x 4 faces, point sampling.
  {
    Tex T{4, 4, 6, 1};
    T.Normalized = true;
    fill(T, 12);
    cudaTextureObject_t t = makeTexture(T, cudaArrayCubemap, &a);
    fetchCube<<<G, B>>>(out, t);
    for (int k = 0; k < N; ++k)
      want[k] = sampleCube(T, sweep(k, -1, 1), sweep((k * 37) % N, -1, 1),
                           sweep((k * 101) % N, -1, 1));
    report("cube point", back(out), want);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }
  // tex1Dfetch over linear memory: 1008 float4, read from -8 to 1015.
  {
    Tex T{N - 16, 1, 1, 4};
    fill(T, 13);
    float4 *lin;
    CHECK(cudaMalloc(&lin, T.W * sizeof(float4)));
    CHECK(cudaMemcpy(lin, T.F.data(), T.W * sizeof(float4),
                     cudaMemcpyHostToDevice));
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = lin;
    r.res.linear.desc = cudaCreateChannelDesc<float4>();
    r.res.linear.sizeInBytes = T.W * sizeof(float4);
    cudaTextureDesc td = {};
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    fetchLinear<<<G, B>>>(out, t);
    for (int k = 0; k < N; ++k) {
      int i = k - 8;
      want[k] = i < 0 || i >= T.W ? make_float4(0, 0, 0, 0)
                                  : make_float4(T.F[4 * i], T.F[4 * i + 1],
                                                T.F[4 * i + 2], T.F[4 * i + 3]);
    }
    report("1d fetch linear mem", back(out), want);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(lin));
  }
  // Pitched 2-D memory, 10 x 6 floats, linear, unnormalized, clamp.
  {
    Tex T{10, 6, 1, 1};
    T.Linear = true;
    fill(T, 14);
    float *p;
    size_t pitch;
    CHECK(cudaMallocPitch(&p, &pitch, T.W * 4, T.H));
    CHECK(cudaMemcpy2D(p, pitch, T.F.data(), T.W * 4, T.W * 4, T.H,
                       cudaMemcpyHostToDevice));
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypePitch2D;
    r.res.pitch2D.devPtr = p;
    r.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    r.res.pitch2D.width = T.W;
    r.res.pitch2D.height = T.H;
    r.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc td = {};
    td.filterMode = cudaFilterModeLinear;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    fetch2D<<<G, B>>>(out, t, -1, 12);
    for (int k = 0; k < N; ++k)
      want[k] = sample2(T, sweep(k, -1, 12), sweep((k * 37) % N, -1, 12), 0);
    report("pitch2d linear", back(out), want, Filtered);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFree(p));
  }
  // Gathers (tld4) of each channel of a 4-channel float texture, 5 x 5.
  {
    Tex T{5, 5, 1, 4};
    fill(T, 15);
    cudaTextureObject_t t = makeTexture(T, 0, &a);
    gather<<<G, B>>>(out, t, -1, 7);
    for (int k = 0; k < N; ++k) {
      float u = sweep(k, -1, 7), v = sweep((k * 37) % N, -1, 7);
      int i, j, ai, bj;
      split(u, true, i, ai);
      split(v, true, j, bj);
      int c = k % 4;
      // The Guide: (i, j+1), (i+1, j+1), (i+1, j), (i, j).
      want[k] = make_float4(texel(T, i, j + 1, 0, c), texel(T, i + 1, j + 1, 0, c),
                            texel(T, i + 1, j, 0, c), texel(T, i, j, 0, c));
    }
    report("2d gather", back(out), want);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }
  // Integer texture (int4, element type), point, unnormalized, clamp.
  {
    Tex T{6, 6, 1, 4};
    fill(T, 16);
    cudaChannelFormatDesc d = cudaCreateChannelDesc<int4>();
    CHECK(cudaMallocArray(&a, &d, T.W, T.H));
    std::vector<int> vals(T.F.size());
    for (size_t k = 0; k < vals.size(); ++k)
      vals[k] = int(T.F[k] * 7.0f);
    CHECK(cudaMemcpy2DToArray(a, 0, 0, vals.data(), T.W * 16, T.W * 16, T.H,
                              cudaMemcpyHostToDevice));
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaTextureDesc td = {};
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, nullptr));
    fetch2DInt<<<G, B>>>(iout, t, -1, 8);
    std::vector<int4> iwant(N);
    for (int k = 0; k < N; ++k) {
      int i = address(int(floorf(sweep(k, -1, 8))), T.W, T.Mode, false);
      int j = address(int(floorf(sweep((k * 37) % N, -1, 8))), T.H, T.Mode,
                      false);
      const int *v = &vals[(j * T.W + i) * 4];
      iwant[k] = make_int4(v[0], v[1], v[2], v[3]);
    }
    report("2d int4 point", back(iout), iwant);
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
  }
  // Surfaces: a 6 x 4 float array written in zero mode (from -2 to 7 by -2
  // to 5), then read in zero and clamp modes.
  {
    const int w = 6, h = 4;
    cudaChannelFormatDesc d = cudaCreateChannelDesc<float>();
    CHECK(cudaMallocArray(&a, &d, w, h, cudaArraySurfaceLoadStore));
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &r));
    surfaceWrite<<<h + 4, w + 4>>>(s, w, h);
    surfaces<<<G, B>>>(out, s, w, h);
    for (int k = 0; k < N; ++k) {
      int x = k % (w + 4) - 2, y = (k / (w + 4)) % (h + 4) - 2;
      bool in = x >= 0 && x < w && y >= 0 && y < h;
      int cx = x < 0 ? 0 : x >= w ? w - 1 : x, cy = y < 0 ? 0 : y >= h ? h - 1 : y;
      want[k] = make_float4(in ? float(100 * y + x) : 0.0f,
                            float(100 * cy + cx), float(x), float(y));
    }
    report("surface zero clamp", back(out), want);
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaFreeArray(a));
  }
  CHECK(cudaFree(out));
  CHECK(cudaFree(iout));
  if (dump)
    fclose(dump);
  printf(failures ? "sampling: %d cases differ from the rules\n"
                  : "sampling: every case as the rules say\n",
         failures);
  return failures ? 1 : 0;
}
