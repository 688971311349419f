//===- ptx_parser_test.cpp - nvcc's PTX read, linked and run ---------------===//
//
// tests/data/executor/inline_call.ptx is nvcc's PTX of inline_call.cu: a
// module variable initialised with another's address, an inlined function
// (a .loc with inlined_at and its name in the debug strings), a call to a
// non-inlined one through a .param block, and inline assembly declaring a
// register in a nested scope. The expected values are the kernel's
// arithmetic; the lines are the .cu file's.
//
//===----------------------------------------------------------------------===//
#include "executed.h"
#include "ptx_parser.h"
#include "run_with_output.h"

#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace gmem;
using namespace gmem::exec;

namespace {

std::string readData(const std::string &Name) {
  std::ifstream In(std::string(GMEM_SOURCE_DIR) + "/tests/data/executor/" +
                   Name);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

const char *const Kernel = "_Z1kPKiPi";

TEST(PtxParser, ReadsWhatNvccWrites) {
  auto M = ptx::parseModule(readData("inline_call.ptx"), "inline_call.ptx");
  ASSERT_TRUE(bool(M)) << M.error();
  EXPECT_EQ(M->Target, "sm_90");
  ASSERT_NE(M->global("table"), nullptr);
  EXPECT_EQ(M->global("table")->Bytes, 16u);
  ASSERT_NE(M->global("tp"), nullptr);
  EXPECT_EQ(M->global("tp")->InitSymbols.at(0).first, "table");
  const ptx::Function *K = M->function(Kernel);
  ASSERT_NE(K, nullptr);
  EXPECT_TRUE(K->Entry);
  ASSERT_EQ(K->Params.size(), 2u);
  EXPECT_EQ(K->Params[0].Bytes, 8u);
  const ptx::Function *F = M->function("_Z6thricei");
  ASSERT_NE(F, nullptr);
  EXPECT_FALSE(F->Entry);
  EXPECT_EQ(F->Returns.size(), 1u);
  // The global load of twice()'s body: at line 6, inlined at line 12, in
  // a function the debug strings name.
  const ptx::Instr *Ld = nullptr;
  for (const ptx::Instr &I : K->Body)
    if (I.Op == "ld" && I.has("global") && I.has("u32"))
      Ld = &I;
  ASSERT_NE(Ld, nullptr);
  ASSERT_GE(Ld->Pos, 0);
  const ptx::SourcePos &P = M->Positions[size_t(Ld->Pos)];
  EXPECT_EQ(M->Files.at(P.File), "inline_call.cu");
  EXPECT_EQ(P.Line, 6u);
  EXPECT_EQ(P.Col, 71u);
  EXPECT_EQ(P.Function, "_Z5twicePKii");
  ASSERT_GE(P.InlinedAt, 0);
  EXPECT_EQ(M->Positions[size_t(P.InlinedAt)].Line, 12u);
  // The inline assembly's `tmp` is a register of its own.
  bool Tmp = false;
  for (const ptx::Register &R : K->Regs)
    Tmp |= R.Name.find("tmp") != std::string::npos;
  EXPECT_TRUE(Tmp);
}

TEST(PtxParser, RunsTheModuleAsTheGpuWould) {
  GlobalMemory Mem;
  std::string Error;
  std::unique_ptr<Program> P = test::linkAlone(readData("inline_call.ptx"),
                                               "inline_call.ptx", Mem, Error);
  ASSERT_NE(P, nullptr) << Error;
  const XFunction *K = P->kernel(Kernel);
  ASSERT_NE(K, nullptr);
  ASSERT_EQ(K->DecodeError, "");
  constexpr uint64_t In = uint64_t(1) << 40, Out = uint64_t(2) << 40;
  Region &RIn = Mem.addOwned(In, 256, "in", true);
  Region &ROut = Mem.addOwned(Out, 256, "out", true);
  for (int32_t I = 0; I < 64; ++I)
    std::memcpy(RIn.Data + 4 * I, &I, 4);
  LaunchConfig C;
  C.Block[0] = 64;
  C.Params.resize(16);
  std::memcpy(&C.Params[0], &In, 8);
  std::memcpy(&C.Params[8], &Out, 8);
  ExecutedKernel EK = executedKernel(*K);
  ExecutedCounts R =
      executeLaunch(*P, *K, EK, Mem, C, archOrDefault("sm_90"), 1);
  ASSERT_TRUE(R.Out.Finished) << R.Out.Error;
  for (int32_t T = 0; T < 64; ++T) {
    int32_t V;
    std::memcpy(&V, ROut.Data + 4 * T, 4);
    EXPECT_EQ(V, 2 * T + 3 * (T + 1) + (T & 3) + 1) << T;
  }
  // Accesses: in[t] (line 6 inlined at 12), the load of tp, the generic
  // load through it (resolved to global: its shared side unused), out[t].
  // The table's 16 bytes are one sector per warp; in and out are 4 sectors
  // per warp.
  ASSERT_EQ(EK.K.Accesses.size(), 5u);
  EXPECT_EQ(EK.K.Accesses[0].Loc.Line, 6u);
  EXPECT_EQ(R.Stats[0].Units, 8u);
  EXPECT_EQ(R.Stats[1].Units, 2u);
  EXPECT_EQ(R.Stats[2].Units, 2u);
  EXPECT_TRUE(EK.sharedSideOfGeneric(3));
  EXPECT_EQ(R.Stats[3].Requests, 0u);
  EXPECT_EQ(R.Stats[4].Units, 8u);
}

TEST(PtxParser, MalformedTextIsRefusedNamingTheLine) {
  std::string Text = readData("inline_call.ptx");
  const size_t At = Text.find(".reg .b64");
  ASSERT_NE(At, std::string::npos);
  Text.replace(At, 9, ".reg .b64 %rd<;\n\t.reg .b64");
  auto M = ptx::parseModule(Text, "broken.ptx");
  ASSERT_FALSE(bool(M));
  EXPECT_NE(M.error().find("broken.ptx:"), std::string::npos) << M.error();
}

TEST(PtxParser, ReadsADirectiveWrittenWithoutASpace) {
  // cuda_fp16.hpp's hexp() writes its inline PTX `{.reg.b32 f, C, nZ; ...}`
  // with registers named without %: HeCBench's crossEntropy stopped here.
  // 1.5f + 1.5f in the scope's registers is 3.0f (0x40400000).
  const char *const Ptx = R"PTX(
.version 8.0
.target sm_90
.address_size 64

.visible .entry scoped(.param .u64 out)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd2, %rd1;
  {.reg.b32         f, C;
  mov.b32         C, 0x3fc00000U;
  add.f32         f, C, C;
  mov.b32         %r1, f;
  }
  st.global.u32 [%rd2], %r1;
  ret;
}
)PTX";
  const test::Output O = test::runWithOutput(Ptx, "scoped", 4);
  ASSERT_EQ(O.Error, "");
  uint32_t V;
  std::memcpy(&V, O.Bytes.data(), 4);
  EXPECT_EQ(V, 0x40400000u);
}

TEST(PtxParser, SharedVariablesLieWherePtxasPutsThem) {
  // A module variable (CUB's storage, shared by two kernels, as nvcc
  // leaves it) declared first, then the kernel's own two ("demoted"):
  // ptxas puts the kernel's first, in their order, then the module's
  // (HeCBench's accuracy_kernel2: STS.64 at 0 for its two, CUB's warp
  // totals from 8 + 8; its SASS and the H200 agree).
  const char *const Ptx = R"PTX(
.version 8.0
.target sm_90
.address_size 64

.shared .align 4 .b8 storage[44];

.visible .entry twice(.param .u64 out)
{
  .shared .align 4 .f32 pred;
  .shared .align 4 .u32 label;
  .reg .b32 %r<4>;
  mov.u32 %r1, 1;
  st.shared.u32 [label], %r1;
  st.shared.u32 [pred], %r1;
  st.shared.u32 [storage+8], %r1;
  ret;
}
)PTX";
  GlobalMemory Mem;
  std::string Error;
  std::unique_ptr<Program> P = test::linkAlone(Ptx, "twice.ptx", Mem, Error);
  ASSERT_NE(P, nullptr) << Error;
  const XFunction *K = P->kernel("twice");
  ASSERT_NE(K, nullptr);
  const SharedLayout &L = P->layout(*K);
  const int Storage = P->sharedIndex("0:storage"),
            Pred = P->sharedIndex("0:twice/pred"),
            Label = P->sharedIndex("0:twice/label");
  ASSERT_TRUE(Storage >= 0 && Pred >= 0 && Label >= 0);
  EXPECT_EQ(L.Offset[size_t(Pred)], 0u);
  EXPECT_EQ(L.Offset[size_t(Label)], 4u);
  EXPECT_EQ(L.Offset[size_t(Storage)], 8u);
  EXPECT_EQ(L.StaticBytes, 52u);
}

} // namespace
