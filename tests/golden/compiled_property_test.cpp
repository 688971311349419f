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
#include "random_kernels.h"
#include "sass.h"
#include "toolkit.h"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <iostream>
#include <sstream>

using namespace gmem;
using namespace gmem::test;

namespace {

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
