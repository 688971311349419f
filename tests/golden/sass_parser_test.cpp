//===- sass_parser_test.cpp - nvdisasm output read back -------------------===//
//
// The inputs are real `nvdisasm -c -gi` output, captured in tests/data/sass
// from cubins that `nvcc -cubin -arch=sm_90 -lineinfo` (CUDA 13.0) built
// from the repository's examples. Expected values are read off those files.
//
//===----------------------------------------------------------------------===//
#include "analysis.h"
#include "matcher.h"
#include "sass.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace gmem;

namespace {

std::vector<SassFunction> load(const std::string &Name) {
  std::ifstream F(test::sourceDir() + "/tests/data/sass/" + Name);
  std::stringstream S;
  S << F.rdbuf();
  auto R = parseSass(S.str());
  if (!R) {
    ADD_FAILURE() << llvm::toString(R.takeError());
    return {};
  }
  return *R;
}

const SassFunction *find(const std::vector<SassFunction> &Fs,
                         const std::string &Name) {
  for (const SassFunction &F : Fs)
    if (F.Name == Name)
      return &F;
  ADD_FAILURE() << "no function " << Name;
  return nullptr;
}

TEST(SassParser, ClassifiesMemoryOpcodes) {
  SassSpace S;
  SassKind K;
  unsigned W;
  ASSERT_TRUE(classifyMemoryOpcode("LDG.E.64.CONSTANT", S, K, W));
  EXPECT_EQ(S, SassSpace::Global);
  EXPECT_EQ(K, SassKind::Load);
  EXPECT_EQ(W, 8u);
  ASSERT_TRUE(classifyMemoryOpcode("LDS.128", S, K, W));
  EXPECT_EQ(S, SassSpace::Shared);
  EXPECT_EQ(W, 16u);
  ASSERT_TRUE(classifyMemoryOpcode("STS.U8", S, K, W));
  EXPECT_EQ(K, SassKind::Store);
  EXPECT_EQ(W, 1u);
  ASSERT_TRUE(classifyMemoryOpcode("LDS.S16", S, K, W));
  EXPECT_EQ(W, 2u);
  ASSERT_TRUE(classifyMemoryOpcode("ATOMS.ADD", S, K, W));
  EXPECT_EQ(S, SassSpace::Shared);
  EXPECT_EQ(K, SassKind::Atomic);
  // sm_75 to sm_89 reduce through generic addresses, sm_90 through REDG.
  ASSERT_TRUE(classifyMemoryOpcode("RED.E.ADD.F32.FTZ.RN.STRONG.GPU", S, K, W));
  EXPECT_EQ(S, SassSpace::Generic);
  EXPECT_EQ(K, SassKind::Reduction);
  EXPECT_EQ(W, 4u);
  ASSERT_TRUE(classifyMemoryOpcode("REDG.E.ADD.F64.RN.STRONG.GPU", S, K, W));
  EXPECT_EQ(S, SassSpace::Global);
  EXPECT_EQ(K, SassKind::Reduction);
  EXPECT_EQ(W, 8u);
  ASSERT_TRUE(classifyMemoryOpcode("ATOMG.E.ADD.F16x2.RN.STRONG.GPU", S, K, W));
  EXPECT_EQ(K, SassKind::Atomic);
  EXPECT_EQ(W, 4u);
  ASSERT_TRUE(classifyMemoryOpcode("REDG.E.ADD.F32x4.FTZ.RN", S, K, W));
  EXPECT_EQ(W, 16u);
  ASSERT_TRUE(classifyMemoryOpcode("LD.E.128", S, K, W));
  EXPECT_EQ(S, SassSpace::Generic);
  // The async copy: LTC128B is a cache hint, not a width.
  ASSERT_TRUE(classifyMemoryOpcode("LDGSTS.E.BYPASS.LTC128B.128", S, K, W));
  EXPECT_EQ(S, SassSpace::Async);
  EXPECT_EQ(W, 16u);
  ASSERT_TRUE(classifyMemoryOpcode("LDL.64", S, K, W));
  EXPECT_EQ(S, SassSpace::Local);
  EXPECT_EQ(W, 8u);
  ASSERT_TRUE(classifyMemoryOpcode("STL.128", S, K, W));
  EXPECT_EQ(K, SassKind::Store);
  ASSERT_TRUE(classifyMemoryOpcode("LDSM.16.M88.4", S, K, W));
  EXPECT_EQ(S, SassSpace::Shared);
  EXPECT_EQ(W, 16u);
  ASSERT_TRUE(classifyMemoryOpcode("UTMALDG.2D", S, K, W));
  EXPECT_EQ(S, SassSpace::Bulk);
  ASSERT_TRUE(classifyMemoryOpcode("SUST.D.BA.2D.STRONG.SM.TRAP", S, K, W));
  EXPECT_EQ(S, SassSpace::Texture);
  // Constant loads and barriers move no data of the figures.
  EXPECT_FALSE(classifyMemoryOpcode("LDC.64", S, K, W));
  EXPECT_FALSE(classifyMemoryOpcode("ULDC.64", S, K, W));
  EXPECT_FALSE(classifyMemoryOpcode("LDGDEPBAR", S, K, W));
  EXPECT_FALSE(classifyMemoryOpcode("DEPBAR.LE", S, K, W));
}

TEST(SassParser, FunctionsInstructionsAndLines) {
  auto Fs = load("compiled_forms.sass");
  EXPECT_EQ(Fs.size(), 7u); // The seven kernels of compiled_forms.cu.
  const SassFunction *F = find(Fs, "_Z14rowSumUnrolledPKfPf");
  ASSERT_NE(F, nullptr);
  // LDG + STS (line 39), 8 x LDS.128 (line 44), STG (line 45).
  ASSERT_EQ(F->Memory.size(), 11u);
  unsigned Wide = 0;
  for (const SassInstr &I : F->Memory)
    if (I.Opcode == "LDS.128") {
      ++Wide;
      EXPECT_EQ(I.Width, 16u);
      EXPECT_EQ(I.Space, SassSpace::Shared);
      ASSERT_EQ(I.Where.size(), 1u);
      EXPECT_EQ(I.Where[0].Line, 44u);
      EXPECT_NE(I.Where[0].File.find("compiled_forms.cu"), std::string::npos);
    }
  EXPECT_EQ(Wide, 8u);
  EXPECT_TRUE(F->Loops.empty()); // Fully unrolled.
  // hoistedLoad: both loads before the loop, on line 84 (i = ...), outside it.
  const SassFunction *H = find(Fs, "_Z11hoistedLoadPKfS0_Pfii");
  ASSERT_NE(H, nullptr);
  EXPECT_FALSE(H->Loops.empty());
  unsigned Loads = 0;
  for (const SassInstr &I : H->Memory)
    if (I.Kind == SassKind::Load) {
      ++Loads;
      EXPECT_EQ(I.Where.at(0).Line, 84u);
      EXPECT_EQ(H->loopDepth(I.Offset), 0u);
    }
  EXPECT_EQ(Loads, 2u);
}

TEST(SassParser, InlineChainsInnermostFirst) {
  auto Fs = load("sgemm_tiled.sass");
  const SassFunction *F =
      find(Fs, "_Z14sgemm2DTileVecILi64ELi64ELi8ELi4ELi4EEviiiPKfS1_Pf");
  ASSERT_NE(F, nullptr);
  // The shared reads of sgemm2DTileVecBody (line 151), inlined at the
  // kernel's call (line 169).
  bool Seen = false;
  for (const SassInstr &I : F->Memory)
    if (I.Opcode == "LDS.128" && I.Where.size() == 2 &&
        I.Where[0].Line == 151 && I.Where[1].Line == 169)
      Seen = true;
  EXPECT_TRUE(Seen);
}

// The tiled GEMM's loop over K has its two __syncthreads(): the parser keeps
// where barriers are, as no memory value stays in a register across them.
TEST(SassParser, BarriersAreKeptWithTheirLoop) {
  auto Fs = load("sgemm_tiled.sass");
  const SassFunction *F = find(Fs, "_Z13sgemmShared32iiiPKfS0_Pf");
  ASSERT_NE(F, nullptr);
  ASSERT_EQ(F->Barriers.size(), 2u);
  EXPECT_EQ(F->Barriers[0], 0x280u);
  EXPECT_EQ(F->Barriers[1], 0x6e0u);
  EXPECT_EQ(F->loopDepth(F->Barriers[0]), 1u);
  EXPECT_EQ(F->loopDepth(F->Barriers[1]), 1u);
}

// nvdisasm prints `.sectioninfo` lines for sm_75 to sm_89; they are no
// section header, so the function goes on after them.
TEST(SassParser, SectionInfoDoesNotEndTheFunction) {
  auto Fs = load("arch/sm_80/atomics.sass");
  const SassFunction *F = find(Fs, "_Z13countPerBlockPi");
  ASSERT_NE(F, nullptr);
  // One warp-aggregated reduction: RED (generic) on sm_80.
  ASSERT_EQ(F->Memory.size(), 1u);
  EXPECT_EQ(F->Memory[0].Kind, SassKind::Reduction);
  EXPECT_EQ(F->Memory[0].Space, SassSpace::Generic);
  EXPECT_TRUE(F->Memory[0].OneLane);
}

// countPerBlock's integer add to an address every lane shares: nvcc elects
// one lane (UFLO of VOTEU.ANY compared with SR_LANEID) to issue REDG. The
// float adds of atomRed<1> are not combined.
TEST(SassParser, WarpAggregatedAtomicsIssueFromOneLane) {
  auto Fs = load("atomics.sass");
  const SassFunction *Agg = find(Fs, "_Z13countPerBlockPi");
  ASSERT_NE(Agg, nullptr);
  ASSERT_EQ(Agg->Memory.size(), 1u);
  EXPECT_EQ(Agg->Memory[0].Opcode, "REDG.E.ADD.STRONG.GPU");
  EXPECT_TRUE(Agg->Memory[0].Predicated);
  EXPECT_TRUE(Agg->Memory[0].OneLane);
  const SassFunction *Red = find(Fs, "_Z7atomRedILi1EEvPf");
  ASSERT_NE(Red, nullptr);
  ASSERT_EQ(Red->Memory.size(), 1u);
  EXPECT_EQ(Red->Memory[0].Kind, SassKind::Reduction);
  EXPECT_FALSE(Red->Memory[0].OneLane);
  const SassFunction *Use = find(Fs, "_Z7atomUseILi1EEvPfS0_");
  ASSERT_NE(Use, nullptr);
  EXPECT_EQ(Use->Memory[0].Kind, SassKind::Atomic); // ATOMG, then STG.
}

// storeScaled is __noinline__: its STG lies once in storeTwice's section,
// in a subroutine called from two places.
TEST(SassParser, SubroutineInstructionsRunOncePerCallSite) {
  auto Fs = load("device_calls.sass");
  const SassFunction *F = find(Fs, "_Z10storeTwicePfPKfi");
  ASSERT_NE(F, nullptr);
  unsigned Stores = 0, Loads = 0;
  for (const SassInstr &I : F->Memory) {
    if (I.Kind == SassKind::Store) {
      ++Stores;
      EXPECT_EQ(I.Copies, 2u);
    } else {
      ++Loads;
      EXPECT_EQ(I.Copies, 1u);
    }
  }
  EXPECT_EQ(Stores, 1u);
  EXPECT_EQ(Loads, 2u);
}

// nvcc pads cp.async with `@!PT LDS RZ, [RZ]`, which never runs.
TEST(SassParser, NeverRunInstructionsAreDropped) {
  auto Fs = load("async_copy.sass");
  for (const SassFunction &F : Fs)
    for (const SassInstr &I : F.Memory)
      EXPECT_FALSE(I.Opcode == "LDS" && I.Operands == "RZ, [RZ]") << F.Name;
  const SassFunction *G = find(Fs, "_Z14pipelineGatherPfPKf");
  ASSERT_NE(G, nullptr);
  // LDGSTS, LDS, STG.
  ASSERT_EQ(G->Memory.size(), 3u);
  EXPECT_EQ(G->Memory[0].Space, SassSpace::Async);
}

// The same function with P0 written again between the election and the
// reduction, as a carry-out (second operand) or as a compare's second
// result: the guard no longer elects one lane.
TEST(SassParser, ALeaderPredicateWrittenAgainIsForgotten) {
  std::ifstream In(test::sourceDir() + "/tests/data/sass/atomics.sass");
  std::stringstream Buf;
  Buf << In.rdbuf();
  const std::string Text = Buf.str();
  const std::string Redg = "        /*00a0*/               @P0 REDG";
  ASSERT_NE(Text.find(Redg), std::string::npos);
  for (const char *Clobber :
       {"IADD3 R9, P0, R2, 0x4, RZ ;", "IADD3 R9, P1, P0, R2, 0x4, RZ ;",
        "FSETP.GT.AND P1, P0, R7, RZ, PT ;"}) {
    std::string Edited = Text;
    Edited.insert(Edited.find(Redg),
                  std::string("        /*009f*/                   ") + Clobber +
                      "\n");
    auto R = parseSass(Edited);
    ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
    const SassFunction *F = find(*R, "_Z13countPerBlockPi");
    ASSERT_NE(F, nullptr);
    ASSERT_EQ(F->Memory.size(), 1u);
    EXPECT_FALSE(F->Memory[0].OneLane) << Clobber;
  }
  // A compare whose sources (third operand on) read P0 leaves it alone.
  std::string Edited = Text;
  Edited.insert(Edited.find(Redg),
                "        /*009f*/                   "
                "PLOP3.LUT P1, PT, P0, PT, PT, 0x80, 0x0 ;\n");
  auto R = parseSass(Edited);
  ASSERT_TRUE(bool(R));
  const SassFunction *F = find(*R, "_Z13countPerBlockPi");
  ASSERT_NE(F, nullptr);
  EXPECT_TRUE(F->Memory[0].OneLane);
}

TEST(SassParser, RejectsTextWithoutFunctions) {
  auto R = parseSass("not a disassembly\n");
  ASSERT_FALSE(R);
  EXPECT_NE(llvm::toString(R.takeError()).find("no function"),
            std::string::npos);
}

// CUB's decoupled look-back example: Clang mangles the kernel's
// ScanTileState<T, detail::is_primitive<T>::value> parameter apart from
// nvcc, which names the inline namespace; the one SASS function of the
// same name and template arguments is the kernel's, and becomes its name.
// Two such functions, or other template arguments, match nothing.
TEST(SassParser, AKernelClangManglesApartIsFoundByItsDemangledName) {
  const std::string Clang =
      "_Z26decoupled_look_back_kernelIiEvN3cub17CUB_300001"
      "_SM_90013ScanTileStateIT_Xsr6detail12is_"
      "primitiveIS3_EE5valueEEE";
  const std::string Nvcc = "_Z26decoupled_look_back_kernelIiEvN3cub17CUB_"
                           "300001_SM_90013ScanTileStateIT_Xsr3cub17CUB_"
                           "300001_SM_9006detail12is_primitiveIS3_EE5valueEEE";
  Kernel K;
  K.Name = "decoupled_look_back_kernel<int>";
  K.MangledName = Clang;
  SassFunction Other, Same;
  Other.Name = "_Z26decoupled_look_back_kernelIlEvN3cub17CUB_300001_SM_"
               "90013ScanTileStateIT_Xsr3cub17CUB_300001_SM_9006detail12is_"
               "primitiveIS3_EE5valueEEE"; // <long>
  Same.Name = Nvcc;
  const std::vector<SassFunction> Fs = {Other, Same};
  ASSERT_EQ(findSassFunction(K, Fs), &Fs[1]);
  const std::vector<SassFunction> Twice = {Same, Same};
  EXPECT_EQ(findSassFunction(K, Twice), nullptr);
  const std::vector<SassFunction> None = {Other};
  EXPECT_EQ(findSassFunction(K, None), nullptr);
  Kernel Renamed = K;
  matchCompiled(Renamed, Fs);
  EXPECT_EQ(Renamed.MangledName, Nvcc);
}

} // namespace
