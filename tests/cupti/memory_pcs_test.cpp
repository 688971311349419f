//===- memory_pcs_test.cpp - Memory instructions read from nvdisasm -------===//
#include "memory_pcs.h"

#include <gtest/gtest.h>

namespace {

using namespace gmem::cupti;

TEST(MemoryPcs, OpcodesOfGlobalGenericAndSharedMemory) {
  for (const char *Op :
       {"LDG.E", "LDG.E.128.CONSTANT", "STG.E", "LDS", "STS.64", "LD.E",
        "ST.E.64", "ATOMG.E.ADD.STRONG.GPU", "ATOMS.POPC.INC", "RED.E.ADD",
        "LDGSTS.E.BYPASS.128", "LDSM.16.M88.4"})
    EXPECT_TRUE(isMemoryOpcode(Op)) << Op;
  // Local memory, constants, textures and the rest are not counted by the
  // global-sector and shared-wavefront metrics.
  for (const char *Op : {"LDL", "STL.64", "LDC", "ULDC.64", "TEX", "LDGDEPBAR",
                         "FFMA", "BRA", "LEA", "LOP3.LUT"})
    EXPECT_FALSE(isMemoryOpcode(Op)) << Op;
}

TEST(MemoryPcs, PredicatedLoadsKeepTheirOffsets) {
  // As nvdisasm -c printed a kernel of tests/data/programs/predicated_own
  // (CUDA 13.0): the last step's two loads are predicated, and the GPU ran
  // them with every lane off.
  const std::string Text =
      "\t.section\t.text._Z11prefetchSumPKfPfi,\"ax\",@progbits\n"
      ".text._Z11prefetchSumPKfPfi:\n"
      "        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
      "        /*0140*/                   LDG.E R26, desc[UR4][R16.64] ;\n"
      "        /*0400*/                   ISETP.GE.AND P1, PT, R0, UR6, PT ;\n"
      "        /*0500*/              @!P1 LDG.E R26, desc[UR4][R22.64] ;\n"
      "        /*0700*/                   STG.E desc[UR4][R4.64], R14 ;\n"
      ".L_x_2:\n"
      "        /*0710*/                   EXIT ;\n"
      ".text._Z7treeSumPKfPf:\n"
      "        /*0110*/               @P0 LDS R2, [R7] ;\n"
      "        /*0140*/               @P0 STS [R7], R2 ;\n";
  const MemoryPcs Pcs = parseMemoryPcs(Text);
  ASSERT_EQ(Pcs.size(), 2u);
  EXPECT_EQ(Pcs.at("_Z11prefetchSumPKfPfi"),
            (std::set<uint32_t>{0x140, 0x500, 0x700}));
  EXPECT_EQ(Pcs.at("_Z7treeSumPKfPf"), (std::set<uint32_t>{0x110, 0x140}));
}

TEST(MemoryPcs, NeverRunPaddingIsNotAMemoryInstruction) {
  // As nvdisasm -c printed examples/async_copy.cu's cudaCopyVec4 (CUDA
  // 13.0), and a predicated load after it: ptxas pads before the copy with
  // shared loads that `@!PT` keeps from ever running; other predicates stay.
  const std::string Text =
      ".text._Z12cudaCopyVec4P6float4PKS_:\n"
      "        /*00f0*/              @!PT LDS RZ, [RZ] ;\n"
      "        /*0100*/              @!PT LDS RZ, [RZ] ;\n"
      "        /*0110*/              @!PT LDS RZ, [RZ] ;\n"
      "        /*0120*/                   LDGSTS.E.BYPASS.128 [R9], "
      "desc[UR6][R2.64] ;\n"
      "        /*0130*/              @!P0 LDS R4, [R9] ;\n";
  EXPECT_EQ(parseMemoryPcs(Text).at("_Z12cudaCopyVec4P6float4PKS_"),
            (std::set<uint32_t>{0x120, 0x130}));
}

} // namespace
