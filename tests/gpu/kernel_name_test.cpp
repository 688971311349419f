//===- kernel_name_test.cpp - One spelling of a kernel name ---------------===//
#include "importers.h"

#include <gtest/gtest.h>

using namespace gmem;

namespace {

TEST(KernelBaseName, DropsParametersAndReturnType) {
  // Spellings from tests/data/groundtruth/h200_ncu_seeds.csv and nvprof.
  EXPECT_EQ(kernelBaseName("naiveGmem(float *, float *, int, int)"),
            "naiveGmem");
  EXPECT_EQ(kernelBaseName("naiveGmem(float*, float*, int, int)"), "naiveGmem");
  EXPECT_EQ(kernelBaseName("void sgemm_coalescing<32>(int, int, int, float, "
                           "const float *, const float *, float, float *)"),
            "sgemm_coalescing<32>");
  EXPECT_EQ(kernelBaseName("setRowReadRow(int *)"), "setRowReadRow");
  EXPECT_EQ(kernelBaseName("  gTranspose1  "), "gTranspose1");
  EXPECT_EQ(kernelBaseName("sgemm_coalescing<32>"), "sgemm_coalescing<32>");
}

TEST(KernelBaseName, DropsIntegerLiteralSuffixesInTemplateArguments) {
  EXPECT_EQ(kernelBaseName("void sgemm_coalescing<32u>(int, int, int, float, "
                           "float const*, float const*, float, float*)"),
            "sgemm_coalescing<32>");
  EXPECT_EQ(kernelBaseName("void k<4ul, 8, 16ll>(float*)"), "k<4, 8, 16>");
  // Digits that belong to identifiers stay.
  EXPECT_EQ(kernelBaseName("void k<v2u, float2>(float*)"), "k<v2u, float2>");
  EXPECT_EQ(kernelBaseName("k32u(int)"), "k32u");
}

TEST(KernelBaseName, DemanglesMangledNames) {
  // The mangled names nvcc gives the seeds' kernels (checked with c++filt).
  EXPECT_EQ(kernelBaseName("_Z16sgemm_coalescingILj32EEviiifPKfS1_fPf"),
            "sgemm_coalescing<32>");
  EXPECT_EQ(kernelBaseName("_Z9naiveGmemPfS_ii"), "naiveGmem");
  // Not a valid mangling: left as it is.
  EXPECT_EQ(kernelBaseName("_Zgarbage"), "_Zgarbage");
}

TEST(KernelBaseName, KeepsQualifiersAndBracketedSpaces) {
  EXPECT_EQ(kernelBaseName("void ns::k<float, 2>(float*)"), "ns::k<float, 2>");
  EXPECT_EQ(kernelBaseName("void (anonymous namespace)::k(int)"),
            "(anonymous namespace)::k");
}

} // namespace
