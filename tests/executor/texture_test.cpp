//===- texture_test.cpp - tex, tld4, txq, suld and sust on texture objects ===//
//
// Hand-written PTX (as nvcc writes it for tex2D<float4>, tex2Dgather,
// tex1Dfetch and surf2Dread/surf2Dwrite) over texture objects registered as
// the recording runtime registers them. The expected values follow the
// CUDA Programming Guide's "Texture Fetching" rules as an H200 applies them
// (tests/data/programs/textures/sampling.cu measured it): linear filtering
// at x - 0.5 rounded to 256ths, each corner's weight the product of its
// axes' rounded to a 256th; clamp to the edge texels; missing channels 0;
// zeros outside a linear buffer; and the PTX ISA's surface boundary modes.
//
//===----------------------------------------------------------------------===//
#include "executed.h"
#include "run_with_output.h"

#include <cstring>
#include <gtest/gtest.h>

using namespace gmem;
using namespace gmem::exec;

namespace {

const char *const Kernels = R"PTX(
.version 8.0
.target sm_90
.address_size 64

.visible .entry sample(.param .u64 out, .param .u64 tex, .param .u64 xy)
{
  .reg .b32 %r<2>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [tex];
  ld.param.u64 %rd3, [xy];
  cvta.to.global.u64 %rd4, %rd1;
  cvta.to.global.u64 %rd5, %rd3;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd6, %r1, 8;
  add.s64 %rd7, %rd5, %rd6;
  ld.global.v2.f32 {%f1, %f2}, [%rd7];
  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd2, {%f1, %f2}];
  mul.wide.u32 %rd8, %r1, 16;
  add.s64 %rd9, %rd4, %rd8;
  st.global.v4.f32 [%rd9], {%f3, %f4, %f5, %f6};
  ret;
}

.visible .entry gather(.param .u64 out, .param .u64 tex, .param .u64 xy)
{
  .reg .b32 %r<2>;
  .reg .f32 %f<8>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [tex];
  ld.param.u64 %rd3, [xy];
  cvta.to.global.u64 %rd4, %rd1;
  cvta.to.global.u64 %rd5, %rd3;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd6, %r1, 8;
  add.s64 %rd7, %rd5, %rd6;
  ld.global.v2.f32 {%f1, %f2}, [%rd7];
  tld4.r.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd2, {%f1, %f2}];
  mul.wide.u32 %rd8, %r1, 16;
  add.s64 %rd9, %rd4, %rd8;
  st.global.v4.f32 [%rd9], {%f3, %f4, %f5, %f6};
  ret;
}

.visible .entry fetch(.param .u64 out, .param .u64 tex)
{
  .reg .b32 %r<4>;
  .reg .f32 %f<5>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [tex];
  cvta.to.global.u64 %rd3, %rd1;
  mov.u32 %r1, %tid.x;
  add.s32 %r2, %r1, -2;
  tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd2, {%r2}];
  txq.width.b32 %r3, [%rd2];
  mul.wide.u32 %rd4, %r1, 16;
  add.s64 %rd5, %rd3, %rd4;
  st.global.v4.f32 [%rd5], {%f1, %f2, %f3, %r3};
  ret;
}

.visible .entry surface(.param .u64 out, .param .u64 surf, .param .u32 mode)
{
  .reg .pred %p<4>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [surf];
  ld.param.u32 %r9, [mode];
  cvta.to.global.u64 %rd3, %rd1;
  mov.u32 %r1, %tid.x;
  add.s32 %r2, %r1, -1;
  shl.b32 %r3, %r2, 2;
  mov.u32 %r4, 1;
  add.s32 %r5, %r1, 100;
  sust.b.2d.b32.zero [%rd2, {%r3, %r4}], {%r5};
  bar.sync 0;
  setp.eq.s32 %p1, %r9, 0;
  setp.eq.s32 %p2, %r9, 1;
  @%p1 suld.b.2d.b32.zero {%r6}, [%rd2, {%r3, %r4}];
  @%p2 suld.b.2d.b32.clamp {%r6}, [%rd2, {%r3, %r4}];
  or.pred %p3, %p1, %p2;
  @!%p3 bra $L_trap;
  bra.uni $L_store;
$L_trap:
  suld.b.2d.b32.trap {%r6}, [%rd2, {%r3, %r4}];
$L_store:
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd3, %rd4;
  st.global.u32 [%rd5], %r6;
  ret;
}
)PTX";

constexpr uint64_t OutBase = uint64_t(1) << 40, TexBase = uint64_t(2) << 40,
                   XyBase = uint64_t(3) << 40;
constexpr uint64_t TexHandle = 7, SurfHandle = 8;

struct Fixture {
  GlobalMemory Mem;
  std::unique_ptr<Program> Prog;
  Region *Out = nullptr, *Texels = nullptr, *Xy = nullptr;
  ExecutedKernel Kernel_;

  /// A 4 x 2 float texture, rows {0, 10, 20, 30} and {100, 110, 120, 130},
  /// linear filtering, unnormalized, clamp (handle 7); a surface over the
  /// same array (handle 8).
  explicit Fixture(bool TexelsKnown = true) {
    std::string Error;
    Prog = test::linkAlone(Kernels, "texture.ptx", Mem, Error);
    EXPECT_NE(Prog, nullptr) << Error;
    Out = &Mem.addOwned(OutBase, 4096, "out", true);
    Texels = &Mem.addOwned(TexBase, 32, "array", TexelsKnown);
    Xy = &Mem.addOwned(XyBase, 256, "xy", true);
    const float T[8] = {0, 10, 20, 30, 100, 110, 120, 130};
    std::memcpy(Texels->Data, T, sizeof T);
    TextureView V;
    V.Resource = TextureView::Array;
    V.Base = TexBase;
    V.Width = 4;
    V.Height = 2;
    V.Pitch = 16;
    V.SlicePitch = 32;
    V.Bits[0] = 32;
    V.Kind = ChannelKind::Float;
    V.Address[0] = V.Address[1] = AddressMode::Clamp;
    V.LinearFilter = true;
    Mem.Textures[TexHandle] = V;
    V.Surface = true;
    Mem.Textures[SurfHandle] = V;
  }
  void coordinates(const std::vector<std::pair<float, float>> &P) {
    for (size_t K = 0; K < P.size(); ++K) {
      std::memcpy(Xy->Data + 8 * K, &P[K].first, 4);
      std::memcpy(Xy->Data + 8 * K + 4, &P[K].second, 4);
    }
  }
  float out(unsigned Word) const {
    float V;
    std::memcpy(&V, Out->Data + 4 * Word, 4);
    return V;
  }
  uint32_t outBits(unsigned Word) const {
    uint32_t V;
    std::memcpy(&V, Out->Data + 4 * Word, 4);
    return V;
  }
  ExecutedCounts run(const std::string &Name, unsigned Threads,
                     std::vector<uint64_t> Args) {
    const XFunction *K = Prog->kernel(Name);
    EXPECT_NE(K, nullptr) << Name;
    LaunchConfig C;
    C.Block[0] = Threads;
    C.Params.resize(8 * Args.size());
    for (size_t I = 0; I < Args.size(); ++I)
      std::memcpy(&C.Params[8 * I], &Args[I], 8);
    Kernel_ = executedKernel(*K);
    return executeLaunch(*Prog, *K, Kernel_, Mem, C, archOrDefault("sm_90"), 1);
  }
};

TEST(Texture, LinearFilteringWeighsNeighboursIn256ths) {
  Fixture F;
  F.coordinates(
      {{1.5f, 0.5f},    // texel (1, 0) itself
       {2.0f, 1.0f},    // halfway between four: (10+20+110+120)/4
       {2.1f, 0.5f},    // x - 0.5 = 1.6: 409.6/256, weight 154/256 on texel 2
       {5.0f, 0.5f},    // beyond the right edge: clamped to 30
       {-1.0f, 2.5f},   // beyond the corner: texel (0, 1)
       {1.5f, 1.25f}}); // y - 0.5 = 0.75: 192/256 of row 1
  ExecutedCounts C = F.run("sample", 6, {OutBase, TexHandle, XyBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  EXPECT_EQ(F.out(0), 10.0f);
  EXPECT_EQ(F.out(4), 65.0f);
  EXPECT_EQ(F.out(8), (102.0f * 10 + 154.0f * 20) / 256);
  EXPECT_EQ(F.out(12), 30.0f);
  EXPECT_EQ(F.out(16), 100.0f);
  EXPECT_EQ(F.out(20), (64.0f * 10 + 192.0f * 110) / 256);
  // A one-channel texture's missing channels, alpha included, read 0.
  EXPECT_EQ(F.out(1), 0.0f);
  EXPECT_EQ(F.out(2), 0.0f);
  EXPECT_EQ(F.out(3), 0.0f);
  EXPECT_TRUE(F.Out->Known->all(0, 6 * 16));
  // The texture pipe makes no load/store request: the one load of the
  // coordinates and the one store.
  ASSERT_EQ(C.Stats.size(), 2u);
  EXPECT_EQ(C.Stats[0].Requests + C.Stats[1].Requests, 2u);
}

TEST(Texture, GatherReturnsTheFourTexelsOfTheFootprint) {
  Fixture F;
  F.coordinates({{2.0f, 1.0f}});
  ExecutedCounts C = F.run("gather", 1, {OutBase, TexHandle, XyBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  // (i, j+1), (i+1, j+1), (i+1, j), (i, j) with i = 1, j = 0.
  EXPECT_EQ(F.out(0), 110.0f);
  EXPECT_EQ(F.out(1), 120.0f);
  EXPECT_EQ(F.out(2), 20.0f);
  EXPECT_EQ(F.out(3), 10.0f);
}

TEST(Texture, FetchFromLinearMemoryIsZeroOutsideTheBuffer) {
  Fixture F;
  TextureView V = F.Mem.Textures[TexHandle];
  V.Resource = TextureView::Linear;
  V.Width = 8; // The array's 8 floats as one row.
  V.Height = 1;
  V.Pitch = 32;
  V.LinearFilter = false;
  F.Mem.Textures[TexHandle] = V;
  ExecutedCounts C = F.run("fetch", 12, {OutBase, TexHandle});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  const float T[8] = {0, 10, 20, 30, 100, 110, 120, 130};
  for (unsigned L = 0; L < 12; ++L) {
    const int I = int(L) - 2;
    EXPECT_EQ(F.out(4 * L), I >= 0 && I < 8 ? T[I] : 0.0f) << L;
    EXPECT_EQ(F.outBits(4 * L + 3), 8u) << "txq.width";
  }
}

TEST(Texture, UnknownTexelsGiveUnknownValues) {
  Fixture F(/*TexelsKnown=*/false);
  F.coordinates({{1.5f, 0.5f}});
  ExecutedCounts C = F.run("sample", 1, {OutBase, TexHandle, XyBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  EXPECT_FALSE(F.Out->Known->all(0, 4));
  // A handle no object has: unknown as well, nothing made up.
  Fixture G;
  G.coordinates({{1.5f, 0.5f}});
  C = G.run("sample", 1, {OutBase, 99, XyBase});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  EXPECT_FALSE(G.Out->Known->all(0, 4));
}

TEST(Texture, SurfaceBoundaryModes) {
  // Lanes 0-5 write 100 + lane at x = lane - 1 of row 1 (bytes 4x - 4):
  // lane 0 and lane 5 fall outside the 4 texels and are dropped (.zero).
  Fixture F;
  ExecutedCounts C = F.run("surface", 6, {OutBase, SurfHandle, 0});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  const uint32_t Row1[4] = {101, 102, 103, 104};
  EXPECT_EQ(std::memcmp(F.Texels->Data + 16, Row1, 16), 0);
  // .zero reads 0 outside; inside, what was written.
  EXPECT_EQ(F.outBits(0), 0u);
  for (unsigned L = 1; L < 5; ++L)
    EXPECT_EQ(F.outBits(L), 100 + L) << L;
  EXPECT_EQ(F.outBits(5), 0u);
  // .clamp reads the edge texels.
  Fixture G;
  C = G.run("surface", 6, {OutBase, SurfHandle, 1});
  ASSERT_TRUE(C.Out.Finished) << C.Out.Error;
  EXPECT_EQ(G.outBits(0), 101u);
  EXPECT_EQ(G.outBits(5), 104u);
  // .trap faults, naming the instruction.
  Fixture H;
  C = H.run("surface", 6, {OutBase, SurfHandle, 2});
  EXPECT_FALSE(C.Out.Finished);
  EXPECT_NE(C.Out.Error.find("outside its array"), std::string::npos)
      << C.Out.Error;
}

} // namespace
