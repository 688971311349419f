//===- sass_arch_test.cpp - Every SASS memory instruction accounted for ---===//
//
// For each architecture gmem accepts, the nvdisasm output of the examples
// written for issue 14 (tests/data/sass, captured by
// scripts/capture_sass.sh: CUDA 13.0 for sm_75 to sm_90, CUDA 11.8 from
// Debian's non-free packages for sm_50 to sm_70, which CUDA 13 no longer
// builds; there Debian's CUDA 11.8 lacks libcu++, so the examples that
// include cuda/pipeline or cooperative_groups are not built, nor the 16-bit
// operators before sm_53) is parsed and matched to the model of the same
// example. Every memory instruction must be found by the parser (counted
// here independently, by opcode, from the text) and then either claimed by
// an access or counted among those outside gmem's figures (local, texture,
// bulk copies); none may be left unclaimed, and no access may be left
// without an instruction.
//
//===----------------------------------------------------------------------===//
#include "analysis.h"
#include "frontend.h"
#include "matcher.h"
#include "sass.h"

#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <regex>
#include <sstream>

using namespace gmem;
using namespace gmem::test;

namespace {

const char *const Examples[] = {"atomics",        "async_copy",
                                "device_calls",   "half_precision",
                                "local_constant", "selected_loads"};
const char *const Archs[] = {"sm_50", "sm_52", "sm_60", "sm_61", "sm_70",
                             "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"};

std::string sassPath(const std::string &Arch, const std::string &Name) {
  return sourceDir() + "/tests/data/sass/" +
         (Arch == "sm_90" ? "" : "arch/" + Arch + "/") + Name + ".sass";
}

std::string slurp(const std::string &Path) {
  std::ifstream F(Path);
  std::stringstream S;
  S << F.rdbuf();
  return S.str();
}

/// Memory instructions per function, counted from the text by opcode alone:
/// the memory opcodes of the SASS reference, guarded or not, but never the
/// `@!PT` ones, which do not run. Subroutine instructions count once here.
std::map<std::string, unsigned> countByText(const std::string &Text) {
  static const std::regex Section(R"(^\s*\.section\s+\.text\.([^,\s]+))");
  static const std::regex Instr(
      R"(^\s*/\*[0-9a-f]+\*/\s+(@!?U?P[T0-9]+\s+)?(LDG|STG|ATOMG|REDG|LD|ST|ATOM|RED|LDS|STS|ATOMS|LDSM|STSM|LDL|STL|LDGSTS|TEX|TLD|TLD4|SULD|SUST|UBLKCP|UTMALDG|UTMASTG)(\.[A-Z0-9_.x]*)?\s)");
  std::map<std::string, unsigned> N;
  std::string Cur;
  std::istringstream In(Text);
  std::string Line;
  std::smatch M;
  while (std::getline(In, Line)) {
    if (std::regex_search(Line, M, Section)) {
      Cur = M[1];
      N[Cur];
    } else if (!Cur.empty() && std::regex_search(Line, M, Instr) &&
               M[1].str().rfind("@!PT", 0) != 0) {
      ++N[Cur];
    }
  }
  return N;
}

struct ArchCase {
  std::string Arch, Example;
};

class SassEveryArch : public ::testing::TestWithParam<ArchCase> {};

TEST_P(SassEveryArch, EveryMemoryInstructionIsAccountedFor) {
  const ArchCase &C = GetParam();
  std::string Text = slurp(sassPath(C.Arch, C.Example));
  ASSERT_FALSE(Text.empty()) << sassPath(C.Arch, C.Example);
  auto Fs = parseSass(Text);
  ASSERT_TRUE(bool(Fs)) << llvm::toString(Fs.takeError());
  // The parser finds every memory instruction the text holds.
  std::map<std::string, unsigned> ByText = countByText(Text);
  for (const SassFunction &F : *Fs)
    EXPECT_EQ(F.Memory.size(), ByText[F.Name]) << F.Name;
  // Every kernel of the example is matched, and everything accounted for.
  std::string Path = sourceDir() + "/examples/" + C.Example + ".cu";
  auto AST = parseCudaFile(Path, FrontendOptions());
  ASSERT_TRUE(bool(AST)) << llvm::toString(AST.takeError());
  std::vector<Kernel> Ks = translateKernels((*AST)->getASTContext());
  ASSERT_FALSE(Ks.empty());
  for (Kernel &K : Ks) {
    SCOPED_TRACE(K.Name);
    std::vector<std::string> Notes = matchCompiled(K, *Fs);
    for (const std::string &N : Notes)
      ADD_FAILURE() << N;
    ASSERT_TRUE(K.Sass.Read);
    EXPECT_GT(K.Sass.Instructions, 0u);
    EXPECT_TRUE(K.Sass.Unclaimed.empty());
    EXPECT_EQ(K.Sass.Claimed + K.Sass.Local + K.Sass.Texture + K.Sass.Bulk,
              K.Sass.Instructions);
    for (const Access &A : K.Accesses) {
      EXPECT_NE(A.Compiled.State, CompiledForm::NoInstruction) << A.Text;
      EXPECT_NE(A.Compiled.State, CompiledForm::Ambiguous) << A.Text;
      EXPECT_NE(A.Compiled.State, CompiledForm::Unchecked) << A.Text;
    }
  }
}

std::vector<ArchCase> cases() {
  std::vector<ArchCase> Out;
  for (const char *A : Archs)
    for (const char *E : Examples) {
      const bool Old = std::string(A) < "sm_75";
      const std::string Name = E;
      if (Old && (Name == "async_copy" || Name == "device_calls"))
        continue; // Need libcu++, which Debian's CUDA 11.8 lacks.
      if ((std::string(A) == "sm_50" || std::string(A) == "sm_52") &&
          Name == "half_precision")
        continue; // 16-bit operators need sm_53.
      Out.push_back({A, E});
    }
  return Out;
}

INSTANTIATE_TEST_SUITE_P(
    Examples, SassEveryArch, ::testing::ValuesIn(cases()),
    [](const ::testing::TestParamInfo<ArchCase> &I) {
      return I.param.Arch + "_" + I.param.Example;
    });

/// What differs between architectures, read off their SASS: cp.async is an
/// LDGSTS from sm_80 on, a plain load and store before; reductions go
/// through generic addresses (RED) up to sm_89 and REDG on sm_90.
Kernel matched(const std::string &Arch, const std::string &Example,
               const std::string &Kernel) {
  auto Fs = parseSass(slurp(sassPath(Arch, Example)));
  EXPECT_TRUE(bool(Fs));
  auto AST = parseCudaFile(sourceDir() + "/examples/" + Example + ".cu",
                           FrontendOptions());
  EXPECT_TRUE(bool(AST));
  for (gmem::Kernel &K : translateKernels((*AST)->getASTContext()))
    if (K.Name == Kernel) {
      matchCompiled(K, *Fs);
      return K;
    }
  ADD_FAILURE() << "no kernel " << Kernel;
  return {};
}

TEST(SassArchitectures, AsyncCopyIsLdgstsFromSm80) {
  Kernel Old = matched("sm_75", "async_copy", "pipelineGather");
  Kernel New = matched("sm_80", "async_copy", "pipelineGather");
  for (const Access &A : Old.Accesses)
    EXPECT_EQ(A.AsyncPartner, -1) << A.Text;
  unsigned Pairs = 0;
  for (const Access &A : New.Accesses)
    Pairs += A.AsyncPartner >= 0;
  EXPECT_EQ(Pairs, 2u);
  EXPECT_EQ(New.Accesses[0].Compiled.Instruction, "LDGSTS.E");
}

TEST(SassArchitectures, ReductionsAndAggregationOnEveryArchitecture) {
  // RED and ATOM, and the integer add aggregated to one elected lane
  // (VOTE.ANY, FLO, ISETP against SR_LANEID), on every architecture.
  for (const char *Arch : Archs) {
    SCOPED_TRACE(Arch);
    Kernel K = matched(Arch, "atomics", "countPerBlock");
    ASSERT_EQ(K.Accesses.size(), 1u);
    EXPECT_TRUE(K.Accesses[0].Reduction);
    EXPECT_TRUE(K.Accesses[0].Compiled.OneLane);
    Kernel U = matched(Arch, "atomics", "atomUse<3>");
    for (const Access &A : U.Accesses)
      if (A.Kind == AccessKind::Atomic) {
        EXPECT_FALSE(A.Reduction);
        EXPECT_FALSE(A.Compiled.OneLane);
      }
  }
}

} // namespace
