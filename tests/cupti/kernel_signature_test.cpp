//===- kernel_signature_test.cpp - Names and arguments from symbols -------===//
//
// Expected names follow the analyzer's kernelDisplayName() and the kernel
// names ncu prints for the ground truth (h200_summary.txt:
// "void sgemm_coalescing<32>"); symbols are what nvcc emits for the seeds.
//
//===----------------------------------------------------------------------===//
#include "importers.h"
#include "kernel_signature.h"

#include <cstring>
#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::cupti;

TEST(CuptiKernelSignature, TemplateKernelDropsReturnTypeAndSuffix) {
  KernelSignature S =
      parseKernelSymbol("_Z16sgemm_coalescingILj32EEviiifPKfS1_fPf");
  ASSERT_TRUE(S.Demangles);
  EXPECT_EQ(S.Kernel, "sgemm_coalescing<32>");
  EXPECT_EQ(S.Demangled, "void sgemm_coalescing<32u>(int, int, int, float, "
                         "float const*, float const*, float, float*)");
  std::vector<std::string> Want = {"int",   "int",          "int",
                                   "float", "float const*", "float const*",
                                   "float", "float*"};
  EXPECT_EQ(S.ParamTypes, Want);
}

TEST(CuptiKernelSignature, PlainKernel) {
  KernelSignature S = parseKernelSymbol("_Z9naiveGmemPfS_ii");
  EXPECT_EQ(S.Kernel, "naiveGmem");
  std::vector<std::string> Want = {"float*", "float*", "int", "int"};
  EXPECT_EQ(S.ParamTypes, Want);
}

TEST(CuptiKernelSignature, StaticKernelOfSeparateCompilation) {
  // nvcc 13 -rdc=true names a static kernel with a prefix of its own (the
  // symbol gmem-verify saw for cuda-samples' jacobiCudaGraphs on the H200).
  KernelSignature S = parseKernelSymbol(
      "__nv_static_30__00cde091_9_jacobi_cu_3dc991e0__Z10finalErrorPdS_");
  EXPECT_EQ(S.Kernel, "finalError");
  std::vector<std::string> Want = {"double*", "double*"};
  EXPECT_EQ(S.ParamTypes, Want);
}

TEST(CuptiKernelSignature, NamespaceAndTypeTemplateArguments) {
  KernelSignature S = parseKernelSymbol("_ZN2ns1kIfLi4EEEvPT_");
  EXPECT_EQ(S.Kernel, "ns::k<float, 4>");
  EXPECT_EQ(S.ParamTypes, std::vector<std::string>{"float*"});
}

TEST(CuptiKernelSignature, NoParameters) {
  KernelSignature S = parseKernelSymbol("_Z6kernelv");
  EXPECT_EQ(S.Kernel, "kernel");
  EXPECT_TRUE(S.ParamTypes.empty());
}

TEST(CuptiKernelSignature, ExternCNameIsKeptWithUnknownParameters) {
  KernelSignature S = parseKernelSymbol("copy_kernel");
  EXPECT_FALSE(S.Demangles);
  EXPECT_EQ(S.Kernel, "copy_kernel");
  EXPECT_EQ(S.Demangled, "copy_kernel");
  EXPECT_TRUE(S.ParamTypes.empty());
}

TEST(CuptiKernelSignature, LiteralSuffixesOnlyOutsideIdentifiers) {
  EXPECT_EQ(parseDemangled("void k<32u, 4ul, -1l, 7ull>(int)").Kernel,
            "k<32, 4, -1, 7>");
  EXPECT_EQ(parseDemangled("void x2u<1u>(int)").Kernel, "x2u<1>");
  EXPECT_EQ(parseDemangled("void tile_16l<true>(int)").Kernel,
            "tile_16l<true>");
}

TEST(CuptiKernelSignature, ClassifiesAndSizesTypes) {
  EXPECT_EQ(classifyType("float const*"), ArgKind::Pointer);
  EXPECT_EQ(classifyType("int"), ArgKind::Signed);
  EXPECT_EQ(classifyType("unsigned int"), ArgKind::Unsigned);
  EXPECT_EQ(classifyType("unsigned long long"), ArgKind::Unsigned);
  EXPECT_EQ(classifyType("double"), ArgKind::Float);
  EXPECT_EQ(classifyType("bool"), ArgKind::Bool);
  EXPECT_EQ(classifyType("float2"), ArgKind::Unknown);
  EXPECT_EQ(naturalSize("double"), 8u);
  EXPECT_EQ(naturalSize("float"), 4u);
  EXPECT_EQ(naturalSize("short"), 2u);
  EXPECT_EQ(naturalSize("unsigned long"), 8u);
  EXPECT_EQ(naturalSize("char"), 1u);
  EXPECT_EQ(naturalSize("int*"), 8u);
  EXPECT_EQ(naturalSize("dim3"), 0u);
}

TEST(CuptiKernelSignature, NormalizesConstPointee) {
  EXPECT_EQ(normalizeType("float const*"), "const float*");
  EXPECT_EQ(normalizeType("unsigned int const*"), "const unsigned int*");
  EXPECT_EQ(normalizeType("float*"), "float*");
  EXPECT_EQ(normalizeType("int"), "int");
}

TEST(CuptiKernelSignature, DecodesPointerAsAlignmentOffset) {
  uint64_t Ptr = 0x7f0000001010ull; // 0x1010 % 256 = 16
  MeasuredArg A = decodeArg("float const*", &Ptr, 8);
  EXPECT_EQ(A.Type, "const float*");
  EXPECT_EQ(A.Size, 8u);
  ASSERT_TRUE(A.AlignOffset.has_value());
  EXPECT_EQ(*A.AlignOffset, 16u);
  EXPECT_FALSE(A.Value.has_value());
  uint64_t Aligned = 0x7f0000200000ull;
  EXPECT_EQ(*decodeArg("float*", &Aligned, 8).AlignOffset, 0u);
}

TEST(CuptiKernelSignature, DecodesIntegersWithTheirSign) {
  int32_t Neg = -5;
  EXPECT_EQ(*decodeArg("int", &Neg, 4).Value, -5);
  uint32_t Big = 4000000000u;
  EXPECT_EQ(*decodeArg("unsigned int", &Big, 4).Value, 4000000000ll);
  int8_t C = -1;
  EXPECT_EQ(*decodeArg("char", &C, 1).Value, -1);
  int64_t L = -(1ll << 40);
  EXPECT_EQ(*decodeArg("long", &L, 8).Value, -(1ll << 40));
  bool B = true;
  EXPECT_EQ(*decodeArg("bool", &B, 1).Value, 1);
}

TEST(CuptiKernelSignature, DecodesFloatingValues) {
  float F = 1.5f;
  MeasuredArg A = decodeArg("float", &F, 4);
  ASSERT_TRUE(A.FloatValue.has_value());
  EXPECT_DOUBLE_EQ(*A.FloatValue, 1.5);
  EXPECT_FALSE(A.Value.has_value());
  double D = -0.25;
  EXPECT_DOUBLE_EQ(*decodeArg("double", &D, 8).FloatValue, -0.25);
}

TEST(CuptiKernelSignature, UnknownTypesKeepOnlyTheirSize) {
  float Two[2] = {1, 2};
  MeasuredArg A = decodeArg("float2", Two, 8);
  EXPECT_EQ(A.Size, 8u);
  EXPECT_FALSE(A.Value || A.FloatValue || A.AlignOffset);
  MeasuredArg None = decodeArg("int", nullptr, 4);
  EXPECT_FALSE(None.Value.has_value());
}

// gmem-verify's kernel names must be the names the importers give the same
// kernels (kernelBaseName), or the comparison would not pair them.
TEST(CuptiKernelSignature, AgreesWithTheImportersKernelBaseName) {
  for (const char *Symbol :
       {"_Z16sgemm_coalescingILj32EEviiifPKfS1_fPf", "_Z9naiveGmemPfS_ii",
        "_ZN2ns1kIfLi4EEEvPT_", "_Z3fooIjLb1EEvPKjbcsldy", "_Z6kernelv"}) {
    KernelSignature S = parseKernelSymbol(Symbol);
    EXPECT_EQ(S.Kernel, kernelBaseName(S.Demangled)) << Symbol;
    EXPECT_EQ(S.Kernel, kernelBaseName(Symbol)) << Symbol;
  }
}
