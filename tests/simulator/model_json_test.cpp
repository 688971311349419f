//===- model_json_test.cpp - The model survives a JSON round trip ---------===//
#include "build_model.h"
#include "model_json.h"

#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::test;

TEST(ModelJson, RoundTripKeepsEverything) {
  Module M;
  M.File = "t.cu";
  Kernel K;
  K.Name = "k<32>";
  K.Params = {pointerParam("a", 8), intParam("n", U32)};
  K.Slots = {{"i", I64}};
  SharedArray S;
  S.Name = "tile";
  S.Dims = {16, 33};
  S.Bytes = 16 * 33 * 4;
  K.Shared.push_back(S);
  auto I = makeVar(0, I64);
  Stmt Acc =
      addAccess(K, Space::Global, AccessKind::Atomic, 8, elem(0, I, 8), "a[i]");
  K.Accesses[0].UnknownReason = "why not";
  Stmt L = loop(bin(Op::Lt, I, cast(makeParam(1, U32), I64)), {Acc},
                {assign(0, add(I, c(-3, I64)))});
  L.CondPre.push_back(simple(StmtKind::Break));
  K.Body = {assign(0, c(0, I64)),
            ifStmt(c(1, Bool), {L}, {simple(StmtKind::Return)})};
  M.Kernels.push_back(K);
  Launch La;
  La.Kernel = K.Name;
  La.Grid = {2, 3, 4};
  La.Args = {ptrArg("buf", 4), intArg(-7)};
  M.Launches.push_back(La);

  nlohmann::json J = toJson(M);
  Expected<Module> Read = fromJson(J);
  ASSERT_TRUE(Read) << Read.error();
  const Module &Back = *Read;
  EXPECT_EQ(toJson(Back), J);
  EXPECT_EQ(Back.Kernels[0].Accesses[0].Kind, AccessKind::Atomic);
  EXPECT_EQ(*Back.Kernels[0].Accesses[0].UnknownReason, "why not");
  EXPECT_TRUE(Back.Kernels[0].Accesses[0].Address->PointerArith);
  EXPECT_FALSE(Back.Kernels[0].Body[1].Then[0].Cond->PointerArith);
  EXPECT_EQ(Back.Launches[0].Args[1].IntValue, -7);
  EXPECT_EQ(toString(*Back.Kernels[0].Body[1].Then[0].Cond, &Back.Kernels[0]),
            "(i < (i64)n)");
}

TEST(ModelJson, RejectsOtherSchemasAndGarbage) {
  Expected<Module> Other = fromJson({{"schema", 99}});
  ASSERT_FALSE(Other);
  EXPECT_NE(Other.error().find("schema 99"), std::string::npos);
  Expected<Module> Garbage =
      fromJson({{"schema", ModelSchemaVersion}, {"kernels", 3}});
  ASSERT_FALSE(Garbage);
  EXPECT_NE(Garbage.error().find("malformed"), std::string::npos);
}

TEST(ModelJson, CompiledFormAndCompilerRoundTrip) {
  Module M;
  M.File = "k.cu";
  M.Compiler.Used = "nvcc";
  M.Compiler.Version = "13.0.88";
  M.Compiler.Arch = "sm_90";
  Kernel K;
  K.Name = "k";
  Access A;
  A.Id = 0;
  A.Address = makeConst(0, {64, false});
  A.Compiled.State = CompiledForm::Merged;
  A.Compiled.Width = 16;
  A.Compiled.Loop = 1;
  A.Compiled.Instruction = "LDS.128";
  K.Accesses.push_back(A);
  M.Kernels.push_back(K);
  Expected<Module> Read = fromJson(toJson(M));
  ASSERT_TRUE(Read) << Read.error();
  const Module &Back = *Read;
  EXPECT_EQ(Back.Compiler.Used, "nvcc");
  EXPECT_EQ(Back.Compiler.Version, "13.0.88");
  const CompiledForm &C = Back.Kernels[0].Accesses[0].Compiled;
  EXPECT_EQ(C.State, CompiledForm::Merged);
  EXPECT_EQ(C.Width, 16u);
  EXPECT_EQ(C.Loop, 1);
  EXPECT_EQ(C.Instruction, "LDS.128");
  EXPECT_EQ(toJson(M)["compiler"]["merging_checked"], true);
}

TEST(ModelJson, AccountingAndNewFormsRoundTrip) {
  Module M;
  M.File = "k.cu";
  Kernel K;
  K.Name = "k";
  K.Params = {pointerParam("in", 4)};
  SharedArray S;
  S.Name = "buf";
  S.Bytes = 128;
  K.Shared.push_back(S);
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Load, 4,
                             elem(0, tx(), 4), "in[t]"));
  K.Body.push_back(addAccess(K, Space::Shared, AccessKind::Store, 4,
                             cast(mul(tx(), c(4, U32)), U64), "buf[t]", 0));
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Atomic, 4,
                             elem(0, c(0), 4), "in[0]"));
  K.Accesses[0].AsyncPartner = 1;
  K.Accesses[1].AsyncPartner = 0;
  K.Accesses[2].Reduction = true;
  K.Accesses[2].Compiled.State = CompiledForm::AsWritten;
  K.Accesses[2].Compiled.OneLane = true;
  K.Accesses[0].Compiled.State = CompiledForm::Selected;
  K.Accesses[0].Compiled.Leader = 2;
  K.Accesses[2].Compiled.Branches = 3;
  K.Sass.Read = true;
  K.Sass.Instructions = 5;
  K.Sass.Claimed = 3;
  K.Sass.Local = 1;
  SassAccount::UnclaimedInstr U;
  U.Opcode = "LDSM.16.M88.4";
  U.Offset = 0x1a0;
  U.Loc = {"k.cu", 9, 0};
  U.Sp = Space::Shared;
  U.Copies = 2;
  K.Sass.Unclaimed.push_back(U);
  M.Kernels.push_back(K);
  nlohmann::json J = toJson(M);
  Expected<Module> Read = fromJson(J);
  ASSERT_TRUE(Read) << Read.error();
  const Module &Back = *Read;
  EXPECT_EQ(toJson(Back), J);
  const Kernel &B = Back.Kernels[0];
  EXPECT_EQ(B.Accesses[0].AsyncPartner, 1);
  EXPECT_TRUE(B.Accesses[2].Reduction);
  EXPECT_TRUE(B.Accesses[2].Compiled.OneLane);
  EXPECT_EQ(B.Accesses[2].Compiled.Branches, 3u);
  EXPECT_EQ(B.Accesses[0].Compiled.State, CompiledForm::Selected);
  EXPECT_EQ(B.Sass.Instructions, 5u);
  ASSERT_EQ(B.Sass.Unclaimed.size(), 1u);
  EXPECT_EQ(B.Sass.Unclaimed[0].Opcode, "LDSM.16.M88.4");
  EXPECT_EQ(B.Sass.Unclaimed[0].Sp, Space::Shared);
  EXPECT_EQ(B.Sass.Unclaimed[0].Copies, 2u);
  // Every compiled state reads back, the last ones included.
  for (auto St : {CompiledForm::OncePerAddress, CompiledForm::NoInstruction}) {
    M.Kernels[0].Accesses[1].Compiled.State = St;
    M.Kernels[0].Accesses[1].Compiled.Loop = 0;
    Expected<Module> Again = fromJson(toJson(M));
    ASSERT_TRUE(Again) << Again.error();
    EXPECT_EQ(Again->Kernels[0].Accesses[1].Compiled.State, St);
  }
}

TEST(ModelJson, SharedAtomicFormsRoundTrip) {
  // How ptxas serves a shared atomic changes its wavefronts (model.h's
  // SharedAtomicForm): each form survives, and a misspelt one is named.
  Module M;
  M.File = "t.cu";
  Kernel K;
  K.Name = "k";
  K.Slots = {{"i", I64}};
  SharedArray S;
  S.Name = "bins";
  S.Dims = {64};
  S.Bytes = 256;
  K.Shared.push_back(S);
  const SharedAtomicForm Forms[] = {
      SharedAtomicForm::PerLane, SharedAtomicForm::PerWord,
      SharedAtomicForm::PerLanePair, SharedAtomicForm::SpinRound};
  for (SharedAtomicForm F : Forms) {
    K.Body.push_back(addAccess(K, Space::Shared, AccessKind::Atomic, 4,
                               mul(cast(makeVar(0, I64), U64), c(4, U64)),
                               "bins[i]", 0));
    K.Accesses.back().SharedAtomic = F;
  }
  M.Kernels.push_back(K);
  nlohmann::json J = toJson(M);
  Expected<Module> Read = fromJson(J);
  ASSERT_TRUE(Read) << Read.error();
  for (size_t I = 0; I < 4; ++I)
    EXPECT_EQ(Read->Kernels[0].Accesses[I].SharedAtomic, Forms[I]);
  EXPECT_FALSE(J["kernels"][0]["accesses"][0].contains("shared_atomic"));
  J["kernels"][0]["accesses"][1]["shared_atomic"] = "per_bank";
  Expected<Module> Bad = fromJson(J);
  ASSERT_FALSE(Bad);
  EXPECT_NE(Bad.error().find("shared_atomic"), std::string::npos)
      << Bad.error();
  EXPECT_NE(Bad.error().find("\"per_bank\""), std::string::npos) << Bad.error();
}
