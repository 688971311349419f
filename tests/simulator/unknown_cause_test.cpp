//===- unknown_cause_test.cpp - Why an access is unknown, typed -----------===//
//
// Rules tell an address that depends on loaded data, or whose pointer
// arithmetic leaves the address space, from the cause the evaluators carry
// (UnknownCause), never from the sentence. These kernels reach each cause
// the ways a real kernel does: directly, through a local variable, and
// under a condition; both warp sources must agree.
//
//===----------------------------------------------------------------------===//
#include "build_model.h"
#include "fast_path_compare.h"
#include "model_json.h"
#include "simulate.h"

#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::test;

namespace {

/// idx[tx], as the analyzer writes a loaded int (makeLoaded).
ExprPtr loadedIndex() {
  return makeLoaded("depends on data loaded by idx[threadIdx.x] at k.cu:3",
                    elem(0, tx(), 4), I32, false);
}

/// Params idx (int *) and a (float *); slot j.
Kernel withSlot() {
  Kernel K;
  K.Name = "k";
  K.Params = {pointerParam("idx", 4), pointerParam("a", 4)};
  K.Slots = {{"j", I32}};
  return K;
}

Launch twoBlocks() {
  return launchOf("k", {2, 1, 1}, {64, 1, 1}, {ptrArg("idx"), ptrArg("a")});
}

UnknownCause causeOf(const Kernel &K) {
  LaunchResult R;
  EXPECT_EQ(compareFastPath(K, twoBlocks(), &R), "");
  const AccessStats &S = R.PerAccess.back();
  EXPECT_EQ(S.UnknownRequests, 4u); // 2 blocks x 2 warps.
  return S.ReasonCause;
}

TEST(UnknownCause, LoadedIndexThroughALocalVariable) {
  // int j = idx[tx]; a[j] = ...
  Kernel K = withSlot();
  K.Body = {assign(0, loadedIndex())};
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Store, 4,
                             elem(1, makeVar(0, I32), 4), "a[j]"));
  EXPECT_EQ(causeOf(K), UnknownCause::LoadedData);
}

TEST(UnknownCause, LoadedDataDecidesTheCondition) {
  // if (idx[tx] > 0) a[tx] = ...: the condition's cause is the access's.
  Kernel K = withSlot();
  K.Body = {ifStmt(bin(Op::Gt, loadedIndex(), c(0)),
                   {addAccess(K, Space::Global, AccessKind::Store, 4,
                              elem(1, tx(), 4), "a[tx]")})};
  EXPECT_EQ(causeOf(K), UnknownCause::LoadedData);
}

TEST(UnknownCause, AnythingElseIsUnmodelled) {
  // j = <inline asm>; a[j]: not modelled, and not data.
  Kernel K = withSlot();
  K.Body = {assign(0, makeUnknown("value set by inline asm", I32))};
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Store, 4,
                             elem(1, makeVar(0, I32), 4), "a[j]"));
  EXPECT_EQ(causeOf(K), UnknownCause::Unmodelled);
}

TEST(UnknownCause, AnalyzersCauseOfAnAccessIsKept) {
  // An address the analyzer already found unknown, with its cause.
  Kernel K = withSlot();
  K.Body = {addAccess(K, Space::Global, AccessKind::Store, 4, elem(1, tx(), 4),
                      "a[p]")};
  K.Accesses[0].UnknownReason = "pointer arithmetic leaves the address space";
  K.Accesses[0].ReasonCause = UnknownCause::PointerOverflow;
  EXPECT_EQ(causeOf(K), UnknownCause::PointerOverflow);
  LaunchResult R = simulate(K, twoBlocks(), SimOptions());
  EXPECT_EQ(R.PerAccess[0].OverflowRequests, 4u);
}

TEST(UnknownCause, CausesRoundTripThroughJson) {
  Module M;
  M.File = "k.cu";
  Kernel K = withSlot();
  K.Body = {assign(0, loadedIndex())};
  K.Body.push_back(addAccess(K, Space::Global, AccessKind::Store, 4,
                             elem(1, makeVar(0, I32), 4), "a[j]"));
  K.Accesses[0].UnknownReason = "depends on data loaded by idx[threadIdx.x]";
  K.Accesses[0].ReasonCause = UnknownCause::LoadedData;
  M.Kernels.push_back(K);
  nlohmann::json J = toJson(M);
  Expected<Module> Back = fromJson(J);
  ASSERT_TRUE(Back) << Back.error();
  EXPECT_EQ(Back->Kernels[0].Body[0].Value->Cause, UnknownCause::LoadedData);
  EXPECT_EQ(Back->Kernels[0].Accesses[0].ReasonCause, UnknownCause::LoadedData);
  // A cause gmem does not know is an error naming the field.
  J["kernels"][0]["accesses"][0]["unknown_cause"] = "cosmic_rays";
  Expected<Module> Bad = fromJson(J);
  ASSERT_FALSE(Bad);
  EXPECT_NE(Bad.error().find("unknown_cause"), std::string::npos)
      << Bad.error();
  EXPECT_NE(Bad.error().find("loaded_data"), std::string::npos) << Bad.error();
}

} // namespace
