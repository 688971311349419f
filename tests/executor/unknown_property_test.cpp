//===- unknown_property_test.cpp - What is known holds for every input ----===//
//
// Random loop-free kernels of one warp over two input words per lane:
// integer operations, comparisons, forward branches (if and if/else) and
// predicated operations on them, selp, and stores of every register and
// predicate. Each kernel runs once with its input unknown, and then with
// the input known, filled several ways (random words, zeros, all ones,
// INT_MIN, small numbers). Whatever the first run says is known, a value
// or that a word was written, must be what every filled run computed: the
// executor's unknown marks, both sides of a branch on an unknown value
// (fork_join.cpp) and the ranges that follow from them (ranges.h) may lose
// knowledge but never invent it.
//
//===----------------------------------------------------------------------===//
#include "../simulator/property_cases.h"
#include "executed.h"
#include "run_with_output.h"

#include <cstring>
#include <functional>
#include <gtest/gtest.h>
#include <iterator>
#include <random>
#include <sstream>

using namespace gmem;
using namespace gmem::exec;

namespace {

constexpr uint64_t OutBase = uint64_t(1) << 40, InBase = uint64_t(2) << 40;
constexpr unsigned Vars = 8, Preds = 6, Words = Vars + Preds;

/// A random kernel: %r1 and %r2 are the lane's input words, %r3 a known
/// cursor (tid & 3), %r4 to %r8 known constants; every step reads and
/// writes them.
std::string randomKernel(std::mt19937 &Rng) {
  auto Pick = [&](unsigned N) { return unsigned(Rng() % N); };
  auto Var = [&] { return "%r" + std::to_string(1 + Pick(Vars)); };
  auto Operand = [&]() -> std::string {
    if (Pick(3) == 0)
      return std::to_string(int(Pick(9)) - 2);
    return Var();
  };
  static const char *Arith[] = {"add.s32", "sub.s32", "xor.b32", "and.b32",
                                "or.b32",  "min.s32", "max.s32", "mul.lo.s32",
                                "min.u32", "max.u32"};
  static const char *Cmp[] = {"lt.s32", "le.s32", "gt.s32", "ge.s32",
                              "eq.s32", "ne.s32", "lt.u32", "ge.u32"};
  std::ostringstream O;
  unsigned Label = 0;
  auto ArithStep = [&](const std::string &Guard) {
    const unsigned K = Pick(std::size(Arith) + 1);
    if (K == std::size(Arith))
      O << "  " << Guard << "mov.u32 " << Var() << ", " << Operand() << ";\n";
    else
      O << "  " << Guard << Arith[K] << " " << Var() << ", " << Var() << ", "
        << Operand() << ";\n";
  };
  auto Setp = [&](unsigned P) {
    O << "  setp." << Cmp[Pick(std::size(Cmp))] << " %p" << P << ", " << Var()
      << ", " << Operand() << ";\n";
  };
  O << ".version 8.0\n.target sm_90\n.address_size 64\n\n"
    << ".visible .entry k(.param .u64 in, .param .u64 out)\n{\n"
    << "  .reg .pred %p<" << Preds + 1 << ">;\n"
    << "  .reg .b32 %r<" << Vars + 2 << ">;\n"
    << "  .reg .b64 %rd<8>;\n"
    << "  ld.param.u64 %rd1, [in];\n  ld.param.u64 %rd2, [out];\n"
    << "  cvta.to.global.u64 %rd3, %rd1;\n"
    << "  cvta.to.global.u64 %rd4, %rd2;\n"
    << "  mov.u32 %r9, %tid.x;\n  mul.wide.u32 %rd5, %r9, 4;\n"
    << "  add.s64 %rd6, %rd3, %rd5;\n  add.s64 %rd7, %rd4, %rd5;\n"
    << "  ld.global.u32 %r1, [%rd6];\n  ld.global.u32 %r2, [%rd6+128];\n"
    << "  and.b32 %r3, %r9, 3;\n";
  for (unsigned V = 4; V <= Vars; ++V)
    O << "  mov.u32 %r" << V << ", " << Pick(7) << ";\n";
  for (unsigned P = 1; P <= Preds; ++P)
    Setp(P);
  const unsigned Steps = 4 + Pick(12);
  for (unsigned S = 0; S < Steps; ++S) {
    switch (Pick(6)) {
    case 0:
    case 1:
      ArithStep("");
      break;
    case 2: { // if: a side of one to three steps.
      const unsigned P = 1 + Pick(Preds), L = Label++;
      Setp(P);
      O << "  @" << (Pick(2) ? "!" : "") << "%p" << P << " bra $L" << L
        << ";\n";
      for (unsigned K = 0, N = 1 + Pick(3); K < N; ++K)
        ArithStep("");
      if (Pick(3) == 0)
        Setp(1 + Pick(Preds));
      O << "$L" << L << ":\n";
      break;
    }
    case 3: { // if/else
      const unsigned P = 1 + Pick(Preds), Else = Label++, End = Label++;
      O << "  @%p" << P << " bra $L" << Else << ";\n";
      for (unsigned K = 0, N = 1 + Pick(2); K < N; ++K)
        ArithStep("");
      O << "  bra.uni $L" << End << ";\n$L" << Else << ":\n";
      for (unsigned K = 0, N = 1 + Pick(2); K < N; ++K)
        ArithStep("");
      O << "$L" << End << ":\n";
      break;
    }
    case 4:
      ArithStep("@" + std::string(Pick(2) ? "!" : "") + "%p" +
                std::to_string(1 + Pick(Preds)) + " ");
      break;
    default:
      if (Pick(2))
        Setp(1 + Pick(Preds));
      else
        O << "  selp.b32 " << Var() << ", " << Var() << ", " << Operand()
          << ", %p" << 1 + Pick(Preds) << ";\n";
    }
  }
  for (unsigned V = 1; V <= Vars; ++V)
    O << "  st.global.u32 [%rd7+" << 128 * (V - 1) << "], %r" << V << ";\n";
  for (unsigned P = 1; P <= Preds; ++P)
    O << "  selp.u32 %r9, 1, 0, %p" << P << ";\n  st.global.u32 [%rd7+"
      << 128 * (Vars + P - 1) << "], %r9;\n";
  O << "  ret;\n}\n";
  return O.str();
}

struct Outcome {
  std::vector<uint32_t> Out;
  std::vector<bool> Known;
  std::string Error;
};

/// Runs kernel k of Text on one warp with the input (64 words) given, known
/// or not.
Outcome runOnce(const std::string &Text, const std::vector<uint32_t> &Input,
                bool Known) {
  Outcome R;
  GlobalMemory Mem;
  std::unique_ptr<Program> P =
      exec::test::linkAlone(Text, "random.ptx", Mem, R.Error);
  if (!P)
    return R;
  Region &Out = Mem.addOwned(OutBase, 4 * 32 * Words, "out", false);
  Region &In = Mem.addOwned(InBase, 4 * Input.size(), "in", Known);
  std::memcpy(In.Data, Input.data(), 4 * Input.size());
  const XFunction *K = P->kernel("k");
  LaunchConfig C;
  C.Block[0] = 32;
  C.Params.resize(16);
  std::memcpy(&C.Params[0], &InBase, 8);
  std::memcpy(&C.Params[8], &OutBase, 8);
  ExecutedKernel EK = executedKernel(*K);
  ExecutedCounts Counts =
      executeLaunch(*P, *K, EK, Mem, C, archOrDefault("sm_90"), 1);
  if (!Counts.Out.Finished) {
    R.Error = Counts.Out.Error;
    return R;
  }
  R.Out.resize(32 * Words);
  std::memcpy(R.Out.data(), Out.Data, 4 * R.Out.size());
  for (unsigned W = 0; W < 32 * Words; ++W)
    R.Known.push_back(Out.Known->all(4 * W, 4));
  return R;
}

TEST(UnknownProperty, WhatAnUnknownInputLeavesKnownIsTheSameForEveryInput) {
  std::mt19937 Rng(20261202);
  const std::vector<std::function<uint32_t(unsigned)>> Fills = {
      [&](unsigned) { return uint32_t(Rng()); },
      [](unsigned) { return 0u; },
      [](unsigned) { return ~0u; },
      [](unsigned) { return 0x80000000u; },
      [&](unsigned) { return uint32_t(Rng() % 9) - 2; },
      [&](unsigned I) { return I % 2 ? uint32_t(Rng()) : 3u; }};
  unsigned KnownUnderUnknown = 0, Total = 0;
  const uint64_t Cases = gmem::test::propertyCases(1000);
  for (unsigned Case = 0; Case < Cases; ++Case) {
    const std::string Text = randomKernel(Rng);
    std::vector<std::vector<uint32_t>> Inputs;
    for (const auto &F : Fills) {
      std::vector<uint32_t> In(64);
      for (unsigned I = 0; I < 64; ++I)
        In[I] = F(I);
      Inputs.push_back(std::move(In));
    }
    const Outcome U = runOnce(Text, Inputs[0], /*Known=*/false);
    ASSERT_TRUE(U.Error.empty()) << U.Error << "\n" << Text;
    for (const std::vector<uint32_t> &In : Inputs) {
      const Outcome K = runOnce(Text, In, /*Known=*/true);
      ASSERT_TRUE(K.Error.empty()) << K.Error << "\n" << Text;
      for (unsigned W = 0; W < 32 * Words; ++W) {
        ASSERT_TRUE(K.Known[W]) << "word " << W << "\n" << Text;
        if (U.Known[W])
          ASSERT_EQ(U.Out[W], K.Out[W])
              << "case " << Case << ": word " << W / 32 << " of lane " << W % 32
              << " is known under an unknown input, but this "
              << "input gives another value\n"
              << Text;
      }
    }
    for (unsigned W = 0; W < 32 * Words; ++W)
      KnownUnderUnknown += U.Known[W];
    Total += 32 * Words;
  }
  // The property is not empty: much stays known without the input.
  EXPECT_GT(KnownUnderUnknown, Total / 4);
}

} // namespace
