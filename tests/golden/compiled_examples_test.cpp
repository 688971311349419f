//===- compiled_examples_test.cpp - Counting what nvcc emitted ------------===//
//
// The examples whose compiled form differs from their source
// (examples/compiled_forms.cu, sgemm_tiled.cu, unrolled_reuse.cu,
// loop_nests.cu's sums kept in a register), matched to
// the SASS nvcc 13.0 emitted for them (captured in tests/data/sass, so no
// toolkit is needed) and simulated. Expected counts are worked out from the
// hardware rules of DESIGN.md for the instructions in that SASS (with the
// packed pair loads measured since, ArchRules::PackedPairLoads); the comments
// give the derivation. tests/data/measured holds their GPU measurements.
//
//===----------------------------------------------------------------------===//
#include "analysis.h"
#include "compiled.h"
#include "frontend.h"
#include "host_launches.h"
#include "matcher.h"
#include "sass.h"
#include "simulate.h"
#include "toolkit.h"

#include "llvm/Support/FileSystem.h"
#include <fstream>
#include <gtest/gtest.h>
#include <optional>
#include <sstream>

using namespace gmem;
using namespace gmem::test;

namespace {

struct Compiled {
  Module M;
  std::vector<LaunchResult> Results;
  std::vector<std::string> Notes;
};

/// Parses examples/NAME.cu, matches tests/data/sass/NAME.sass, simulates
/// every host launch.
const Compiled &compiled(const std::string &Name) {
  static std::map<std::string, std::unique_ptr<Compiled>> Cache;
  auto &Slot = Cache[Name];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<Compiled>();
  std::string Path = sourceDir() + "/examples/" + Name + ".cu";
  auto AST = parseCudaFile(Path, FrontendOptions());
  if (!AST) {
    ADD_FAILURE() << llvm::toString(AST.takeError());
    return *Slot;
  }
  clang::ASTContext &Ctx = (*AST)->getASTContext();
  Slot->M.File = Path;
  Slot->M.Kernels = translateKernels(Ctx);
  Slot->M.Launches = findHostLaunches(Ctx, Slot->M.Kernels, {}).Launches;
  std::ifstream F(sourceDir() + "/tests/data/sass/" + Name + ".sass");
  std::stringstream S;
  S << F.rdbuf();
  auto Fs = parseSass(S.str());
  if (!Fs) {
    ADD_FAILURE() << llvm::toString(Fs.takeError());
    return *Slot;
  }
  for (Kernel &K : Slot->M.Kernels)
    for (std::string &N : matchCompiled(K, *Fs))
      Slot->Notes.push_back(N);
  for (const Launch &L : Slot->M.Launches)
    Slot->Results.push_back(
        simulate(*Slot->M.findKernel(L.Kernel), L, SimOptions()));
  return *Slot;
}

const LaunchResult &launch(const Compiled &C, const std::string &Kernel) {
  for (const LaunchResult &R : C.Results)
    if (R.K->Name == Kernel)
      return R;
  ADD_FAILURE() << "no launch of " << Kernel;
  static LaunchResult None;
  return None;
}

const Access &access(const LaunchResult &R, const std::string &Text,
                     unsigned Col = 0) {
  for (const Access &A : R.K->Accesses)
    if (A.Text == Text && (!Col || A.Loc.Col == Col))
      return A;
  ADD_FAILURE() << "no access " << Text;
  static Access None;
  return None;
}

double metric(const LaunchResult &R, const char *Name) {
  return R.Metrics.at(Name).Value.value_or(-1);
}

TEST(CompiledForms, NoAmbiguousMapping) {
  const Compiled &C = compiled("compiled_forms");
  for (const std::string &N : C.Notes)
    ADD_FAILURE() << N;
}

// tile[y][k] for k = 0..31, fully unrolled: 8 x LDS.128, each the 16 bytes
// of k = 4j..4j+3. Block 32 x 8 = 8 warps of one y each, 64 blocks: 512
// warps x 8 = 4096 requests (the source would be 512 x 32 = 16384). Every
// lane reads the same 16 bytes: lanes equal their partner lane ^ 1, so the
// load is served per half warp (ArchRules::PackedPairLoads), one wavefront
// each: 2 per request, 8192 in all, as gmem-verify measured on an H100.
TEST(CompiledForms, RowReadByUnrolledLoopIsLds128) {
  const LaunchResult &R = launch(compiled("compiled_forms"), "rowSumUnrolled");
  const Access &A = access(R, "tile[y][k]");
  EXPECT_EQ(A.Compiled.State, CompiledForm::Merged);
  EXPECT_EQ(A.Compiled.Width, 16u);
  EXPECT_EQ(A.Compiled.Instruction, "LDS.128");
  EXPECT_EQ(R.PerAccess[A.Id].Requests, 4096u);
  EXPECT_EQ(R.PerAccess[A.Id].Units, 8192u);
  // Shared load instructions: 4096 LDS.128 only.
  EXPECT_EQ(metric(R, "smsp__sass_inst_executed_op_shared_ld.sum"), 4096);
}

// tile[x][k]: lane x reads row x (128-byte pitch). As LDS.128, a quarter
// warp's 8 lanes read words 32x + 4j .. +3: the same 4 banks, 8 distinct
// words each: 8 wavefronts per quarter, 32 per request. 32 x 32 blocks:
// 64 x 32 = 2048 warps x 8 requests = 16384 requests, 524288 wavefronts
// (the source: 65536 requests of 32 wavefronts, 2097152).
TEST(CompiledForms, ConflictingRowReadsAsLds128) {
  const LaunchResult &R = launch(compiled("compiled_forms"), "rowSumConflicts");
  const AccessStats &S = R.PerAccess[access(R, "tile[x][k]").Id];
  EXPECT_EQ(S.Requests, 16384u);
  EXPECT_EQ(S.Units, 524288u);
  EXPECT_EQ(S.MaxWays, 8u);
}

// out[i] = in[i] * in[i]: one LDG. 256 blocks of 256 threads: 2048 warps,
// 2048 requests of 4 sectors; the second in[i] issues nothing.
TEST(CompiledForms, LoadUsedTwiceIsOneRequest) {
  const LaunchResult &R = launch(compiled("compiled_forms"), "loadUsedTwice");
  const Access &Second = access(R, "in[i]", 22);
  EXPECT_EQ(Second.Compiled.State, CompiledForm::Reused);
  EXPECT_EQ(R.PerAccess[Second.Id].Requests, 0u);
  EXPECT_EQ(metric(R, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 2048);
  EXPECT_EQ(metric(R, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 8192);
}

// in[i] and scale[0] loaded once before the loop of reps = 8 iterations:
// 2048 warps x 1 request each (the source: x 8). in[i]: 4 sectors per
// request; scale[0]: a broadcast, 1 sector.
TEST(CompiledForms, HoistedLoadsIssueOncePerLoop) {
  const LaunchResult &R = launch(compiled("compiled_forms"), "hoistedLoad");
  const Access &In = access(R, "in[i]");
  const Access &Scale = access(R, "scale[0]");
  EXPECT_EQ(In.Compiled.State, CompiledForm::Hoisted);
  EXPECT_EQ(Scale.Compiled.State, CompiledForm::Hoisted);
  EXPECT_EQ(R.PerAccess[In.Id].Requests, 2048u);
  EXPECT_EQ(R.PerAccess[In.Id].Units, 8192u);
  EXPECT_EQ(R.PerAccess[Scale.Id].Requests, 2048u);
  EXPECT_EQ(R.PerAccess[Scale.Id].Units, 2048u);
}

// buf[4x] .. buf[4x + 3]: one LDS.128 per lane, lanes 16 bytes apart. A
// quarter warp reads 128 contiguous bytes, all 32 banks once: 1 wavefront,
// 4 per request. 64 blocks x 8 warps = 512 requests, 2048 wavefronts (the
// source: 4 x 512 requests of 4 wavefronts, a 4-way conflict, 8192).
TEST(CompiledForms, FourNeighboursWrittenApartAreOneLds128) {
  const LaunchResult &R = launch(compiled("compiled_forms"), "sumFourShared");
  const Access &Lead = access(R, "buf[4 * x]");
  EXPECT_EQ(Lead.Compiled.State, CompiledForm::Merged);
  EXPECT_EQ(Lead.Compiled.Leader, Lead.Id);
  EXPECT_EQ(R.PerAccess[Lead.Id].Requests, 512u);
  EXPECT_EQ(R.PerAccess[Lead.Id].Units, 2048u);
  EXPECT_EQ(R.PerAccess[Lead.Id].UnmergedGroups, 0u);
  for (const char *T : {"buf[4 * x + 1]", "buf[4 * x + 2]", "buf[4 * x + 3]"})
    EXPECT_EQ(R.PerAccess[access(R, T).Id].Requests, 0u) << T;
}

// float2 / float4 through reinterpret_cast: the source is already 8 and 16
// bytes wide, and so is the SASS (LDG.E.64 / LDG.E.128): as written.
TEST(CompiledForms, VectorTypesAsWritten) {
  const Compiled &C = compiled("compiled_forms");
  for (const char *K : {"copyFloat2", "copyFloat4"}) {
    const LaunchResult &R = launch(C, K);
    for (const Access &A : R.K->Accesses)
      EXPECT_EQ(A.Compiled.State, CompiledForm::AsWritten) << K << A.Text;
  }
}

// The 32 x 32 shared-tile SGEMM: per tile step the SASS has 8 LDS.128
// (As[ty][k], a row) and 32 LDS (Bs[k][tx]), the 40 instructions Nsight
// Compute counts, not the source's 64. 8 x 8 blocks of 32 warps, K / 32 = 8
// steps: As 2048 x 8 x 8 = 131072 requests, a broadcast of 16 bytes served
// per half warp: 2 wavefronts each; Bs 2048 x 8 x 32 = 524288, 1 wavefront
// each (786432 in all, as measured on an H100).
TEST(SgemmTiled, Shared32IsFortyInstructionsPerStep) {
  const Compiled &C = compiled("sgemm_tiled");
  for (const std::string &N : C.Notes)
    ADD_FAILURE() << N;
  const LaunchResult &R = launch(C, "sgemmShared32");
  const AccessStats &As = R.PerAccess[access(R, "As[ty][k]").Id];
  const AccessStats &Bs = R.PerAccess[access(R, "Bs[k][tx]").Id];
  EXPECT_EQ(As.Requests, 131072u);
  EXPECT_EQ(As.Units, 262144u);
  EXPECT_EQ(Bs.Requests, 524288u);
  EXPECT_EQ(Bs.Units, 524288u);
  EXPECT_EQ(metric(R, "smsp__sass_inst_executed_op_shared_ld.sum"),
            131072 + 524288);
}

// Register tiles: the TM (TN) values of a thread are 4 consecutive floats,
// read by one LDS.128 per k (the 2-D tiles, TM = TN = 4) or, for the 1-D
// tile, As[(tRow * TM + i) * BK + k] merged along k (the loop one level
// out). 2-D: 16 blocks x 8 warps x K / BK = 32 steps x BK = 8: 32768
// requests each for As and Bs. 1-D: 16 x 16 warps x 32 steps x 8 values x
// 8 / 4 = 131072 As requests; Bs (one float per k) 16 x 16 x 32 x 8 =
// 65536.
TEST(SgemmTiled, RegisterTilesReadWithLds128) {
  const Compiled &C = compiled("sgemm_tiled");
  const LaunchResult &One = launch(C, "sgemm1DTile<64, 64, 8, 8>");
  EXPECT_EQ(
      One.PerAccess[access(One, "As[(tRow * TM + i) * BK + k]").Id].Requests,
      131072u);
  EXPECT_EQ(One.PerAccess[access(One, "Bs[k * BN + tCol]").Id].Requests,
            65536u);
  for (const char *K :
       {"sgemm2DTile<64, 64, 8, 4, 4>", "sgemm2DTileVec<64, 64, 8, 4, 4>",
        "sgemm2DTilePad<64, 64, 8, 4, 4, 4>"}) {
    const LaunchResult &R = launch(C, K);
    EXPECT_EQ(metric(R, "smsp__sass_inst_executed_op_shared_ld.sum"), 2 * 32768)
        << K;
  }
}

// examples/unrolled_reuse.cu: addresses repeated over fully unrolled loops
// (CompiledForm::OncePerAddress) and float2 members read on two lines.
const Access &loadOf(const LaunchResult &R, const std::string &Text) {
  for (const Access &A : R.K->Accesses)
    if (A.Text == Text && A.Kind == AccessKind::Load)
      return A;
  ADD_FAILURE() << "no load " << Text;
  static Access None;
  return None;
}

// examples/loop_nests.cu, n = 256, 2 blocks of 4 warps. columnSumsInPlace:
// sums[col] = 0, then sums[col] += a[i * 256 + col] for 256 rows. nvcc
// keeps the sum in a register across the (unrolled) iterations, so the
// load of sums[col] is never issued: 8 x 256 = 2048 load requests, a's
// alone; stores 8 + 2048 = 2056. gmem-verify on an H100: 2048 and 2056.
TEST(LoopNests, AccumulatorInMemoryIsNeverLoaded) {
  const LaunchResult &R = launch(compiled("loop_nests"), "columnSumsInPlace");
  const Access &Sum = loadOf(R, "sums[col]");
  EXPECT_EQ(Sum.Compiled.State, CompiledForm::Reused);
  EXPECT_NE(Sum.Compiled.Note.find("in the iteration before"),
            std::string::npos)
      << Sum.Compiled.Note;
  EXPECT_EQ(R.PerAccess[Sum.Id].Requests, 0u);
  EXPECT_EQ(metric(R, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 2048);
  EXPECT_EQ(metric(R, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), 2056);
}

// columnSumsAndCopy: the loop also stores copy[...], which may alias sums,
// so the sum is loaded again in every one of its 255 iterations: 8 x 255 x
// 3 loads (a, sums, a again after the stores) = 6120 requests; stores 8 +
// 8 x 255 x 2 = 4088. gmem-verify on an H100: 6120 and 4088.
TEST(LoopNests, AccumulatorBesideAnotherStoreIsLoadedEachIteration) {
  const LaunchResult &R = launch(compiled("loop_nests"), "columnSumsAndCopy");
  const Access &Sum = loadOf(R, "sums[col]");
  EXPECT_EQ(Sum.Compiled.State, CompiledForm::AsWritten);
  EXPECT_EQ(R.PerAccess[Sum.Id].Requests, 2040u);
  EXPECT_EQ(metric(R, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 6120);
  EXPECT_EQ(metric(R, "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"), 4088);
}

// columnNorms: s += a[i * 256 + col] * a[i * 256 + col] over 256 rows. The
// loop is unrolled, so the line holds as many LDGs as copies of the body,
// not of the accesses; the second read is of the address just loaded in
// the same straight run of code, and nvcc loads it once: 8 warps x 256 =
// 2048 load requests. gmem-verify on an H100: 2048.
TEST(LoopNests, ElementReadTwiceInAnUnrolledLoopIsLoadedOnce) {
  const LaunchResult &R = launch(compiled("loop_nests"), "columnNorms");
  const Access &Second = access(R, "a[i * cols + col]", 30);
  EXPECT_EQ(Second.Compiled.State, CompiledForm::Reused);
  EXPECT_EQ(R.PerAccess[Second.Id].Requests, 0u);
  EXPECT_EQ(metric(R, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 2048);
}

TEST(UnrolledReuse, NoAmbiguousMapping) {
  const Compiled &C = compiled("unrolled_reuse");
  for (const std::string &N : C.Notes)
    ADD_FAILURE() << N;
}

// row[ty][12 + tx + 16 r + j], r = 0..3, j = -12..12: 100 taps, but 16 r + j
// takes the 73 values -12..60; the SASS has 73 LDS. 16 x 64 blocks of 4
// warps: 4096 x 73 = 299008 requests (the source: 409600). A warp is two
// rows of 16 lanes, 88 words apart: banks b..b+15 and b+24..b+39, 8 banks
// in common: 2 wavefronts each, 598016. As measured on an H100.
TEST(UnrolledReuse, StencilLoadsEachAddressOnce) {
  const LaunchResult &R = launch(compiled("unrolled_reuse"), "stencilRows");
  const Access &A =
      access(R, "row[threadIdx.y][RADIUS + threadIdx.x + r * BX + j]");
  EXPECT_EQ(A.Compiled.State, CompiledForm::OncePerAddress);
  EXPECT_EQ(A.Compiled.Loop, 1);
  EXPECT_EQ(R.PerAccess[A.Id].Requests, 299008u);
  EXPECT_EQ(R.PerAccess[A.Id].Units, 598016u);
  // Columns: 8 r + j takes 49 values for 100 taps; 64 x 16 blocks x 4
  // warps x 49 = 200704 requests. Lanes tx are 57 words apart (25 banks
  // mod 32, a permutation of 16 banks); the second row (ty + 1) lands on
  // tx + 9's bank for tx < 7: 2 wavefronts, 401408.
  const LaunchResult &Col =
      launch(compiled("unrolled_reuse"), "stencilColumns");
  const Access &B =
      access(Col, "col[threadIdx.x][RADIUS + threadIdx.y + r * BY + j]");
  EXPECT_EQ(B.Compiled.State, CompiledForm::OncePerAddress);
  EXPECT_EQ(Col.PerAccess[B.Id].Requests, 200704u);
  EXPECT_EQ(Col.PerAccess[B.Id].Units, 401408u);
}

// A loop of 2 iterations that does not use its counter: one LDG, STS, LDS
// and STG per warp, 2048 blocks x 8 warps = 16384 each (the source: 32768);
// an unrolled loop of 4 stores to out[i]: the last one, 16384 STG.
TEST(UnrolledReuse, RepeatedCopiesAndOverwrittenStoresIssueOnce) {
  const Compiled &C = compiled("unrolled_reuse");
  const LaunchResult &R = launch(C, "repeatCopy");
  for (const Access &A : R.K->Accesses) {
    EXPECT_EQ(A.Compiled.State, CompiledForm::OncePerAddress) << A.Text;
    EXPECT_EQ(R.PerAccess[A.Id].Requests, 16384u) << A.Text;
  }
  EXPECT_EQ(metric(R, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 65536);
  const LaunchResult &L = launch(C, "lastStore");
  const Access &Out = access(L, "out[i]");
  EXPECT_EQ(Out.Compiled.State, CompiledForm::OncePerAddress);
  EXPECT_EQ(L.PerAccess[Out.Id].Requests, 16384u);
}

// a[i].x and a[i].y on two lines: one LDG.E.64 on the first line. 1024
// blocks x 4 warps = 4096 requests of 32 lanes x 8 bytes = 8 sectors, for
// a and b each: 8192 requests, 65536 sectors, 100 % efficiency.
TEST(UnrolledReuse, MembersOnTwoLinesAreOneWideLoad) {
  const LaunchResult &R = launch(compiled("unrolled_reuse"), "pairMembers");
  const Access &X = access(R, "a[i].x"), &Y = access(R, "a[i].y");
  EXPECT_EQ(X.Compiled.State, CompiledForm::Merged);
  EXPECT_EQ(X.Compiled.Width, 8u);
  EXPECT_EQ(Y.Compiled.Leader, X.Id);
  EXPECT_EQ(metric(R, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"), 8192);
  EXPECT_EQ(metric(R, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), 65536);
  EXPECT_EQ(metric(R, "gld_efficiency"), 100);
}

// butterflyShared (fastWalshTransform's radix-2 stage): s[i0] and s[i1]
// (i0 = 2t) are loaded on two lines and stored on two lines. nvcc makes one
// LDS.64 on the first load's line and one STS.64 on the last store's line,
// so the store's leader is the second access. 8 bytes per lane are served
// per half warp, 16 lanes x 8 contiguous bytes are 128 bytes: one wavefront
// each, 2 per request, no conflict (stored 4 bytes 2 words apart it would
// read as a 2-way conflict). n / 512 = 1024 blocks of 8 warps: 8192
// requests, 16384 wavefronts, as gmem-verify measured on an H100
// (tests/data/measured/unrolled_reuse.json, line 140: 8192 instructions,
// 16384 wavefronts, 16384 ideal).
TEST(UnrolledReuse, StoresOnTwoLinesAreOneSts64OnTheLast) {
  const LaunchResult &R = launch(compiled("unrolled_reuse"), "butterflyShared");
  const Access &First = access(R, "s[i0]", 3), &Last = access(R, "s[i1]", 3);
  EXPECT_EQ(Last.Compiled.State, CompiledForm::Merged);
  EXPECT_EQ(Last.Compiled.Instruction, "STS.64");
  EXPECT_EQ(Last.Compiled.Leader, Last.Id);
  EXPECT_EQ(First.Compiled.Leader, Last.Id);
  const AccessStats &S = R.PerAccess[Last.Id];
  EXPECT_EQ(S.Requests, 8192u);
  EXPECT_EQ(S.Units, 16384u);
  EXPECT_EQ(S.IdealUnits, 16384u);
  EXPECT_EQ(S.MaxWays, 1u);
  EXPECT_EQ(S.UnmergedGroups, 0u);
  EXPECT_EQ(R.PerAccess[First.Id].Requests, 0u);
  const Access &Load = access(R, "s[i0]", 20);
  EXPECT_EQ(Load.Compiled.Instruction, "LDS.64");
  EXPECT_EQ(R.PerAccess[Load.Id].Units, 16384u);
  // With s[t] and s[t + 256]'s 2 x 8192 stores of one wavefront: 32768,
  // as measured.
  EXPECT_EQ(metric(R, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
            32768);
}

// The whole module as one translation unit, its file.
std::vector<CompiledUnit> oneUnit(const Module &M) {
  CompiledUnit U;
  U.File = M.File;
  for (const Kernel &K : M.Kernels)
    U.Kernels.push_back(K.Name);
  return {U};
}

// With a toolkit: compiling the seeds' program through the nvcc path
// changes none of its results (its SASS has the source's widths; its two
// hoisted shared loads sit in loops that run once per thread).
TEST(CompiledToolkit, SeedsProgramUnchangedWithNvcc) {
  auto T = findToolkit("");
  if (!T)
    GTEST_SKIP() << "no CUDA toolkit: " << llvm::toString(T.takeError());
  const Analysis &Src = analyze(sourceDir() + "/examples/seeds_gt.cu");
  Module M = Src.M;
  CompiledOptions O;
  O.Compiler = "nvcc";
  O.CacheDir = ::testing::TempDir() + "/gmem-cache";
  auto Notes = applyCompiled(M, O, oneUnit(M));
  ASSERT_TRUE(bool(Notes)) << llvm::toString(Notes.takeError());
  EXPECT_EQ(M.Compiler.Used, "nvcc");
  EXPECT_TRUE(Notes->empty()) << Notes->front().Text;
  ASSERT_EQ(M.Launches.size(), Src.Results.size());
  // A kernel whose accesses are all as written runs the simulator's very
  // path of --compiler source; simulate again only the others.
  for (size_t I = 0; I < M.Launches.size(); ++I) {
    const Kernel &K = *M.findKernel(M.Launches[I].Kernel);
    bool Changed = false;
    for (const Access &A : K.Accesses) {
      EXPECT_TRUE(A.Compiled.State == CompiledForm::AsWritten ||
                  A.Compiled.State == CompiledForm::Hoisted)
          << K.Name << " " << A.Text;
      Changed = Changed || A.Compiled.State != CompiledForm::AsWritten;
    }
    if (!Changed)
      continue;
    LaunchResult R = simulate(K, M.Launches[I], SimOptions());
    for (const auto &[Name, V] : Src.Results[I].Metrics)
      EXPECT_EQ(R.Metrics.at(Name).Value, V.Value) << K.Name << " " << Name;
  }
  // A second run takes the disassembly from the cache.
  Module M2 = Src.M;
  ASSERT_TRUE(bool(applyCompiled(M2, O, oneUnit(M2))));
  EXPECT_TRUE(M2.Compiler.FromCache);
}

TEST(CompiledToolkit, SourceCompilerSaysMergingWasNotChecked) {
  Module M;
  CompiledOptions O;
  O.Compiler = "source";
  auto Notes = applyCompiled(M, O, oneUnit(M));
  ASSERT_TRUE(bool(Notes));
  EXPECT_EQ(M.Compiler.Used, "source");
  EXPECT_NE(M.Compiler.NotChecked.find("not checked"), std::string::npos);
}

/// Sets an environment variable for one scope.
class ScopedEnv {
public:
  ScopedEnv(const char *Name, const std::string &Value) : Name(Name) {
    if (const char *Old = std::getenv(Name))
      Saved = Old;
    setenv(Name, Value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (Saved)
      setenv(Name, Saved->c_str(), 1);
    else
      unsetenv(Name);
  }

private:
  const char *Name;
  std::optional<std::string> Saved;
};

// A Python virtual environment (its python3 first on PATH, without PyPI's
// nvdisasm) must not change which nvdisasm is found, and so the counts:
// nothing is asked of python3, and a virtual environment is searched last.
TEST(CompiledToolkit, VirtualEnvironmentDoesNotChangeTheToolkit) {
  auto Before = findToolkit("");
  if (!Before)
    GTEST_SKIP() << "no CUDA toolkit: " << llvm::toString(Before.takeError());
  std::string Venv = ::testing::TempDir() + "/gmem-venv";
  std::string Bin = Venv + "/bin";
  llvm::sys::fs::create_directories(Bin);
  llvm::sys::fs::create_directories(Venv + "/lib/python3.11/site-packages");
  // A python3 that fails: nothing may depend on running it.
  std::ofstream(Bin + "/python3") << "#!/bin/sh\nexit 3\n";
  llvm::sys::fs::setPermissions(Bin + "/python3", llvm::sys::fs::all_exe |
                                                      llvm::sys::fs::owner_all);
  ScopedEnv V("VIRTUAL_ENV", Venv);
  ScopedEnv P("PATH", Bin + ":" + std::string(std::getenv("PATH")));
  auto After = findToolkit("");
  ASSERT_TRUE(bool(After)) << llvm::toString(After.takeError());
  EXPECT_EQ(After->Nvcc, Before->Nvcc);
  EXPECT_EQ(After->Nvdisasm, Before->Nvdisasm);
  EXPECT_EQ(After->Version, Before->Version);
}

TEST(CompiledToolkit, MissingNvccIsAnErrorOnlyWhenAskedFor) {
  Module M;
  CompiledOptions O;
  O.Nvcc = "/nonexistent/nvcc";
  auto Soft = applyCompiled(M, O, oneUnit(M));
  ASSERT_TRUE(bool(Soft));
  EXPECT_NE(M.Compiler.NotChecked.find("/nonexistent/nvcc"), std::string::npos);
  O.Compiler = "nvcc";
  auto Hard = applyCompiled(M, O, oneUnit(M));
  ASSERT_FALSE(bool(Hard));
  EXPECT_NE(llvm::toString(Hard.takeError()).find("--compiler nvcc"),
            std::string::npos);
}

} // namespace
