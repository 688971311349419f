//===- random_kernels.h - Random CUDA kernels and programs for tests ------===//
//
// Kernels nobody wrote by hand, in the manner of real code: loads and
// stores through varied index forms, shared memory, branches and switches
// of loads, loops, atomics used and unused, 16-bit floats, float4,
// cp.async, local arrays, inlined and __noinline__ functions. Every loaded
// value flows into a store, so that nvcc keeps the loads. Every address
// depends only on the launch (never on loaded data), so that the kernel
// model and an execution of nvcc's PTX must price them alike.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_TESTS_COMMON_RANDOM_KERNELS_H
#define GMEM_TESTS_COMMON_RANDOM_KERNELS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <random>
#include <sstream>
#include <string>

namespace gmem::test {

/// Writes random kernels in the manner of real code; every loaded value
/// flows into a store, so that nvcc keeps the loads.
class KernelWriter {
public:
  explicit KernelWriter(uint64_t Seed) : Rng(Seed) {}

  std::string file(unsigned Kernels) {
    std::ostringstream OS;
    OS << "#include <cuda_fp16.h>\n#include <cuda_pipeline.h>\n"
       << "__device__ float getter(const float *p, int x) { return p[x]; }\n"
       << "__device__ __noinline__ float farGetter(const float *p, int x) {\n"
       << "  return p[x] * 2.0f;\n}\n"
       << "__device__ float pick(float a, float b) {\n"
       << "  if (a < b)\n    return b;\n  else\n    return a;\n}\n";
    for (unsigned K = 0; K < Kernels; ++K)
      kernel(OS, K);
    return OS.str();
  }

  /// file(Kernels) and a main() that launches each kernel once with a
  /// random grid and block, on buffers large enough for every index form.
  std::string program(unsigned Kernels) {
    std::ostringstream OS;
    OS << file(Kernels) << "int main() {\n";
    std::ostringstream Launches;
    unsigned MaxThreads = 0;
    for (unsigned K = 0; K < Kernels; ++K) {
      static const unsigned Xs[] = {32, 64, 96, 128, 160, 256, 512, 1024};
      const unsigned Bx = Xs[pick(std::size(Xs))];
      const unsigned By = Bx <= 256 && pick(4) == 0 ? 2 : 1;
      const unsigned G = 1 + pick(16);
      MaxThreads = std::max(MaxThreads, G * Bx);
      Launches << "  k" << K << "<<<" << G << ", dim3(" << Bx << ", " << By
               << ")>>>(a, b, c, h, v, out, " << G * Bx << ", " << 1 + pick(4)
               << ");\n";
    }
    // i * 33 is the largest index form; loops add at most 4 * 65.
    OS << "  const size_t E = " << 34 * size_t(MaxThreads) + 4096 << ";\n"
       << "  float *a, *b, *out;\n  int *c;\n  __half *h;\n  float4 *v;\n"
       << "  cudaMalloc(&a, E * sizeof(float));\n"
       << "  cudaMalloc(&b, E * sizeof(float));\n"
       << "  cudaMalloc(&out, E * sizeof(float));\n"
       << "  cudaMalloc(&c, E * sizeof(int));\n"
       << "  cudaMalloc(&h, E * sizeof(__half));\n"
       << "  cudaMalloc(&v, E * sizeof(float4));\n"
       << "  cudaMemset(a, 0, E * sizeof(float));\n"
       << "  cudaMemset(b, 0, E * sizeof(float));\n"
       << "  cudaMemset(c, 0, E * sizeof(int));\n"
       << "  cudaMemset(h, 0, E * sizeof(__half));\n"
       << "  cudaMemset(v, 0, E * sizeof(float4));\n"
       << Launches.str()
       << "  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;\n}\n";
    return OS.str();
  }

private:
  unsigned pick(unsigned N) { return unsigned(Rng() % N); }

  std::string index() {
    static const char *const Forms[] = {
        "i",         "i + 1",          "2 * i",
        "i * 33",    "(i * 7) & 1023", "t % 8 + blockIdx.x * 32",
        "n - i - 1", "i / 2",          "t * 32 + blockIdx.x",
        "i + k",     "blockIdx.x",     "(t ^ 1) + blockIdx.x * blockDim.x"};
    return Forms[pick(std::size(Forms))];
  }

  void stmt(std::ostringstream &OS) {
    std::string I = index(), J = index();
    switch (pick(14)) {
    case 0:
      OS << "  acc += b[" << I << "];\n";
      break;
    case 1:
      OS << "  a[" << I << "] = acc;\n";
      break;
    case 2:
      OS << "  s[t % 512] = acc;\n  __syncthreads();\n  acc += s[(t * "
         << 1 + pick(33) << ") % 512];\n";
      break;
    case 3:
      OS << "  if (t % " << 2 + pick(31) << " < " << 1 + pick(16)
         << ")\n    acc += b[" << I << "];\n  else\n    acc += a[" << J
         << "];\n";
      break;
    case 4:
      OS << "  switch (t % 3) {\n  case 0:\n    acc += b[" << I
         << "];\n    break;\n  case 1:\n    acc += a[" << J
         << "];\n    break;\n  default:\n    acc += b[i + 5];\n    break;\n  "
            "}\n";
      break;
    case 5:
      OS << "  for (int j = 0; j < " << (pick(2) ? "4" : "k")
         << "; ++j)\n    acc += b[" << I << " + j * " << 1 + pick(64) << "];\n";
      break;
    case 6:
      OS << (pick(2) ? "  atomicAdd(&c[" : "  acc += atomicAdd(&c[") << I
         << "], 1);\n";
      break;
    case 7:
      OS << "  atomicAdd(&a[" << I << "], acc);\n";
      break;
    case 8:
      OS << "  h[" << I << "] = __float2half(acc) * h[" << J << "];\n";
      OS << "  acc += __half2float(h[i]);\n";
      break;
    case 9:
      OS << "  {\n    float4 q = v[" << I << "];\n    acc += q.x + q.w;\n  }\n";
      break;
    case 10:
      OS << "  __pipeline_memcpy_async(&s[t % 512], &b[" << I
         << "], sizeof(float));\n  __pipeline_commit();\n"
            "  __pipeline_wait_prior(0);\n  acc += s[t % 512];\n";
      break;
    case 11:
      OS << "  {\n    float l[16];\n    for (int j = 0; j < 16; ++j)\n"
            "      l[(j * k) & 15] = b[i + j];\n    acc += l[(t + k) & 15];\n"
            "  }\n";
      break;
    case 12:
      OS << "  acc += " << (pick(2) ? "getter" : "farGetter") << "(b, " << I
         << ");\n";
      break;
    default:
      OS << "  acc = pick(acc, b[" << I << "]);\n";
      break;
    }
  }

  void kernel(std::ostringstream &OS, unsigned N) {
    OS << "__global__ void k" << N
       << "(float *a, const float *b, int *c, __half *h, const float4 *v,\n"
          "    float *out, int n, int k) {\n"
          "  __shared__ float s[512];\n"
          "  int t = threadIdx.x;\n"
          "  int i = blockIdx.x * blockDim.x + t;\n"
          "  float acc = 0.0f;\n";
    for (unsigned S = 0, Count = 2 + pick(5); S < Count; ++S)
      stmt(OS);
    OS << "  out[i] = acc;\n}\n";
  }

  std::mt19937_64 Rng;
};

} // namespace gmem::test

#endif
