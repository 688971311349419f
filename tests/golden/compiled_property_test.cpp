//===- compiled_property_test.cpp - Random kernels, every instruction found ===//
//
// A property of the matcher over kernels nobody wrote by hand: random
// kernels (loads and stores through varied index forms, shared memory,
// branches and switches of loads, loops, atomics used and unused, 16-bit
// floats, float4, cp.async, local arrays, inlined and __noinline__
// functions) are compiled by the toolkit's nvcc for sm_90, disassembled,
// and matched to their model. Whatever nvcc made of them, every SASS memory
// instruction must be claimed by an access or counted outside the figures
// (local memory): none may stand for nothing.
//
// Needs a CUDA toolkit with nvdisasm (skipped otherwise). Seeds 1 to 3 run
// here; GMEM_PROPERTY_SEEDS=N runs seeds 1 to N (docs/ROBUSTNESS.md).
//
//===----------------------------------------------------------------------===//
#include "analysis.h"
#include "frontend.h"
#include "matcher.h"
#include "sass.h"
#include "toolkit.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <random>
#include <iostream>
#include <sstream>

using namespace gmem;
using namespace gmem::test;

namespace {

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

private:
  unsigned pick(unsigned N) { return unsigned(Rng() % N); }

  std::string index() {
    static const char *const Forms[] = {
        "i",          "i + 1",           "2 * i",
        "i * 33",     "(i * 7) & 1023",  "t % 8 + blockIdx.x * 32",
        "n - i - 1",  "i / 2",           "t * 32 + blockIdx.x",
        "i + k",      "blockIdx.x",      "(t ^ 1) + blockIdx.x * blockDim.x"};
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
         << "; ++j)\n    acc += b[" << I << " + j * " << 1 + pick(64)
         << "];\n";
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

std::string slurp(const std::string &Path) {
  std::ifstream F(Path);
  std::stringstream S;
  S << F.rdbuf();
  return S.str();
}

class CompiledProperty : public ::testing::TestWithParam<unsigned> {};

TEST_P(CompiledProperty, EverySassMemoryInstructionIsAccountedFor) {
  auto T = findToolkit("");
  if (!T)
    GTEST_SKIP() << llvm::toString(T.takeError());
  const unsigned Seed = GetParam();
  namespace fs = std::filesystem;
  fs::path Dir = fs::path(::testing::TempDir()) /
                 ("gmem_property_" + std::to_string(Seed));
  fs::create_directories(Dir);
  std::string Path = (Dir / "random.cu").string();
  {
    std::ofstream Out(Path);
    Out << KernelWriter(Seed).file(24);
  }
  SCOPED_TRACE(Path);
  SassRequest R;
  R.File = Path;
  auto Text = compileToSass(*T, R);
  ASSERT_TRUE(bool(Text)) << llvm::toString(Text.takeError()) << slurp(Path);
  auto Fs = parseSass(Text->Text);
  ASSERT_TRUE(bool(Fs)) << llvm::toString(Fs.takeError());
  auto AST = parseCudaFile(Path, FrontendOptions());
  ASSERT_TRUE(bool(AST)) << llvm::toString(AST.takeError());
  std::vector<Kernel> Ks = translateKernels((*AST)->getASTContext());
  ASSERT_EQ(Ks.size(), 24u);
  unsigned Instructions = 0, Claimed = 0, Local = 0, Vanished = 0;
  for (Kernel &K : Ks) {
    matchCompiled(K, *Fs);
    ASSERT_TRUE(K.Sass.Read) << K.Name;
    for (const SassAccount::UnclaimedInstr &U : K.Sass.Unclaimed)
      ADD_FAILURE() << K.Name << ": " << U.Opcode << " at line " << U.Loc.Line
                    << " stands for no access";
    EXPECT_EQ(K.Sass.Claimed + K.Sass.Local, K.Sass.Instructions) << K.Name;
    Instructions += K.Sass.Instructions;
    Claimed += K.Sass.Claimed;
    Local += K.Sass.Local;
    for (const Access &A : K.Accesses) {
      Vanished += A.Compiled.State == CompiledForm::NoInstruction;
      if (A.Compiled.State == CompiledForm::NoInstruction &&
          std::getenv("GMEM_PROPERTY_KEEP"))
        std::cerr << K.Name << ": " << A.Loc.Line << " " << A.Text << "\n";
    }
  }
  RecordProperty("instructions", Instructions);
  RecordProperty("claimed", Claimed);
  RecordProperty("local", Local);
  RecordProperty("accesses_without_instruction", Vanished);
  if (HasFailure())
    fs::copy_file(Path, fs::path(::testing::TempDir()) /
                            ("gmem_property_failed_" + std::to_string(Seed) +
                             ".cu"),
                  fs::copy_options::overwrite_existing);
  else if (!std::getenv("GMEM_PROPERTY_KEEP"))
    fs::remove_all(Dir);
}

std::vector<unsigned> seeds() {
  unsigned N = 3;
  if (const char *E = std::getenv("GMEM_PROPERTY_SEEDS"))
    N = unsigned(std::max(1, std::atoi(E)));
  std::vector<unsigned> Out;
  for (unsigned S = 1; S <= N; ++S)
    Out.push_back(S);
  return Out;
}

INSTANTIATE_TEST_SUITE_P(Seeds, CompiledProperty, ::testing::ValuesIn(seeds()));

} // namespace
