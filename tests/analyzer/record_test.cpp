//===- record_test.cpp - The recording runtime and what gmem makes of it --===//
//
// The programs run here, built by nvcc and run against gmem's recording
// libcudart with no GPU, are tests/data/record/recorded_host.cu (host code
// the interpreter does not follow, so not among the examples, which the
// golden tests read with it; measured on an H100 beside it) and small
// programs written below for one family each. Expected configurations follow
// from the programs' own arithmetic; the board figures (132 SMs for
// h100-sxm, 108 for a100-sxm) from record/runtime/boards.cpp; the pitch of
// a 4000-byte row (4096) was measured on an H100.
//
//===----------------------------------------------------------------------===//
#include "known_memory.h"
#include "record_run.h"
#include "recorded_launches.h"
#include "simulate.h"
#include "test_util.h"
#include "toolkit.h"

#include "llvm/Support/FileSystem.h"
#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

using namespace gmem;
using namespace gmem::test;

namespace {

TEST(RecordLog, ReadsEventsAndDropsALineCutByACrash) {
  auto R = parseRecordLog(
      "{\"ev\":\"alloc\",\"id\":1,\"base\":4096,\"bytes\":100,\"kind\":"
      "\"device\"}\n"
      "{\"ev\":\"launch\",\"n\":0,\"kernel\":\"_Z1kPf\",\"api\":\"<<<>>>\","
      "\"grid\":[2,1,1],\"block\":[64,1,1],\"smem\":0,\"stream\":0,"
      "\"args\":[\"0410000000000000\"]}\n"
      "{\"ev\":\"read\",\"id\":1,\"bytes\":4,\"api\":\"cudaMemcpy\"}\n"
      "{\"ev\":\"missing\",\"api\":\"cudaFoo\"}\n"
      "{\"ev\":\"launch\",\"n\":1,\"ker");
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Launches.size(), 1u);
  EXPECT_EQ(R->Launches[0].Grid.X, 2u);
  EXPECT_EQ(R->Launches[0].Block.X, 64u);
  ASSERT_EQ(R->Launches[0].Args.size(), 1u);
  EXPECT_EQ(R->Launches[0].Args[0]->size(), 8u);
  EXPECT_EQ((*R->Launches[0].Args[0])[1], 0x10);
  ASSERT_EQ(R->Reads.size(), 1u);
  EXPECT_EQ(R->Reads[0].LaunchesBefore, 1u);
  EXPECT_EQ(R->Missing, std::vector<std::string>{"cudaFoo"});
  // A bad line before the end is an error, not skipped.
  EXPECT_FALSE(bool(parseRecordLog("{\"ev\":1}\nnot json\n{}\n")));
}

Kernel kernelWith(std::vector<Param> Ps) {
  Kernel K;
  K.Name = "k";
  K.MangledName = "_Z1k";
  K.Params = std::move(Ps);
  return K;
}

Param param(ParamKind Kind, IntType T, unsigned Bytes) {
  Param P;
  P.Name = "p";
  P.Kind = Kind;
  P.Type = T;
  P.Bytes = Bytes;
  P.TypeName = "S";
  return P;
}

std::vector<uint8_t> bytesOf(uint64_t V, unsigned N) {
  std::vector<uint8_t> B(N);
  for (unsigned I = 0; I < N && I < 8; ++I) // Wider arguments end in zeros.
    B[I] = uint8_t(V >> (8 * I));
  return B;
}

TEST(RecordedLaunches, ArgumentsDecodeByParameterType) {
  std::vector<Kernel> Ks = {
      kernelWith({param(ParamKind::Pointer, {64, false}, 8),
                  param(ParamKind::Pointer, {64, false}, 8),
                  param(ParamKind::Int, {32, true}, 4),
                  param(ParamKind::Int, {16, false}, 2),
                  param(ParamKind::Float, {32, true}, 4),
                  param(ParamKind::Other, {32, true}, 12)})};
  RecordedRun Run;
  Run.Allocs.push_back({1, 0x10000, 4000, 0, "device"});
  RecordedLaunch L;
  L.Mangled = "_Z1k";
  L.Grid = {3, 1, 1};
  L.Block = {128, 1, 1};
  L.ArgsKnown = true;
  float F = 2.5f;
  uint32_t FBits;
  std::memcpy(&FBits, &F, 4);
  L.Args = {bytesOf(0x10000 + 1000, 8), bytesOf(0, 8),
            bytesOf(uint32_t(-7), 4),   bytesOf(0xfffe, 2),
            bytesOf(FBits, 4),          bytesOf(0, 12)};
  Run.Launches.push_back(L);
  RecordedLaunches Out = launchesFromRecording(Run, Ks);
  ASSERT_EQ(Out.Launches.size(), 1u);
  const Launch &G = Out.Launches[0];
  EXPECT_EQ(G.Grid.X, 3u);
  EXPECT_EQ(G.Args[0].Allocation, "cudaMalloc #1");
  EXPECT_EQ(G.Args[0].AlignOffset, 1000u); // Exact, not modulo 256.
  EXPECT_EQ(G.Args[1].Allocation, NullPointer);
  EXPECT_EQ(G.Args[2].IntValue, -7);
  EXPECT_EQ(G.Args[3].IntValue, 0xfffe);
  EXPECT_EQ(G.Args[4].Kind, ArgValue::Float);
  EXPECT_EQ(G.Args[4].FloatValue, 2.5);
  EXPECT_EQ(G.Args[5].Kind, ArgValue::Unknown);
  EXPECT_TRUE(Out.Warnings.empty());
}

// CUB's example example_device_decoupled_look_back.cu: Clang mangles
// decoupled_look_back_kernel<int>(cub::ScanTileState<int>) with the
// template argument `detail::is_primitive<T>::value` as written, nvcc with
// the inline namespace it lies in, so the recorded name matches no kernel.
// Found by its demangled name, the launch decodes its argument; a kernel of
// another name, or of more parameters, is not taken.
TEST(RecordedLaunches, AKernelClangManglesApartIsFoundByItsDemangledName) {
  const std::string Clang =
      "_Z26decoupled_look_back_kernelIiEvN3cub17CUB_300001"
      "_SM_90013ScanTileStateIT_Xsr6detail12is_"
      "primitiveIS3_EE5valueEEE";
  const std::string Nvcc = "_Z26decoupled_look_back_kernelIiEvN3cub17CUB_"
                           "300001_SM_90013ScanTileStateIT_Xsr3cub17CUB_"
                           "300001_SM_9006detail12is_primitiveIS3_EE5valueEEE";
  Kernel K = kernelWith({param(ParamKind::Other, {32, true}, 8)});
  K.Name = "decoupled_look_back_kernel<int>";
  K.MangledName = Clang;
  for (unsigned Args : {1u, 2u}) {
    RecordedRun Run;
    RecordedLaunch L;
    L.Mangled = Nvcc;
    L.Grid = {14, 1, 1};
    L.Block = {256, 1, 1};
    L.ArgsKnown = true;
    for (unsigned A = 0; A < Args; ++A)
      L.Args.push_back(bytesOf(0x1234, 8));
    Run.Launches.push_back(L);
    RecordedLaunches Out = launchesFromRecording(Run, {K});
    if (Args == 1) {
      ASSERT_EQ(Out.Launches.size(), 1u);
      EXPECT_EQ(Out.Launches[0].Kernel, K.Name);
      ASSERT_EQ(Out.Launches[0].Args.size(), 1u);
      EXPECT_EQ(Out.Launches[0].ArgBytes[0], bytesOf(0x1234, 8));
      EXPECT_EQ(Out.Renamed.at(Clang), Nvcc);
    } else {
      EXPECT_TRUE(Out.Launches.empty());
      EXPECT_TRUE(Out.Renamed.empty());
    }
  }
}

// Which bytes a launch may read: a kernel's writes make an allocation
// unknown until the host rewrites all of it; a device-to-device copy is as
// known as its source; a kernel never trusts what it may write itself.
/// p[threadIdx.x] = ... for the pointer parameter P.
Access storeThrough(int P) {
  Access St;
  St.Id = 0;
  St.Kind = AccessKind::Store;
  St.Address = makePointerArith(
      Op::Add, makeParam(P, {64, false}),
      makePointerArith(Op::Mul,
                       makeCast(makeBuiltin(Builtin::ThreadIdxX), {64, false}),
                       makeConst(4, {64, false})));
  return St;
}

TEST(RecordedLaunches, KernelWritesHideBytesUntilTheHostRewritesThem) {
  Kernel Scatter = kernelWith({param(ParamKind::Pointer, {64, false}, 8),
                               param(ParamKind::Pointer, {64, false}, 8)});
  Scatter.Accesses.push_back(storeThrough(0)); // Reads the second only.
  KernelWrites W = kernelWrites(Scatter);
  EXPECT_EQ(W.Params, (std::vector<bool>{true, false}));
  EXPECT_FALSE(W.Any);

  RecordedRun Run;
  Run.Allocs = {{1, 0x10000, 256, 0, "device"},
                {2, 0x20000, 256, 0, "device"},
                {3, 0x30000, 256, 0, "device"}};
  Run.Images["a"] = std::make_shared<const std::string>(256, '\1');
  RecordedLaunch R;
  R.Mangled = "_Z1k";
  R.Block = {32, 1, 1};
  R.ArgsKnown = true;
  R.Images = {{1, "a"}, {2, "a"}};
  auto At = [&](uint64_t N, uint64_t A, uint64_t B) {
    RecordedLaunch X = R;
    X.N = N;
    X.Args = {bytesOf(A, 8), bytesOf(B, 8)};
    return X;
  };
  // k(#1, #2); k(#2, #1); host rewrites #1 in full, #2 in part;
  // k(#1, #2); copy #2 -> #1; k(#2, #1).
  Run.Launches = {At(0, 0x10000, 0x20000), At(1, 0x20000, 0x10000),
                  At(2, 0x10000, 0x20000), At(3, 0x20000, 0x10000)};
  // Before launch 1: #1 filled in one copy, #2 in two halves, #3 never.
  Run.Writes = {
      {1, 0, 256, 0, "cudaMemcpy", 0}, {2, 128, 128, 0, "cudaMemcpy", 0},
      {2, 0, 128, 0, "cudaMemset", 0}, {1, 0, 256, 0, "cudaMemcpy", 2},
      {2, 0, 128, 0, "cudaMemcpy", 2}, {1, 0, 256, 2, "cudaMemcpy", 3}};
  RecordedLaunches Out = launchesFromRecording(Run, {Scatter});
  ASSERT_EQ(Out.Launches.size(), 4u);
  auto Known = [&](size_t I, const char *Name) {
    return bool(Out.Launches[I].Memory.at(Name).Data);
  };
  EXPECT_FALSE(Known(0, "cudaMalloc #1")); // Launch 1 writes it.
  EXPECT_TRUE(Known(0, "cudaMalloc #2"));  // Both halves filled.
  // cudaMalloc does not clear memory: #3's bytes are no GPU's.
  EXPECT_NE(Out.Launches[0]
                .Memory.at("cudaMalloc #3")
                .Unknown.find("nothing has written all of it yet"),
            std::string::npos);
  EXPECT_FALSE(Known(1, "cudaMalloc #1")); // Launch 1 wrote it.
  EXPECT_FALSE(Known(1, "cudaMalloc #2")); // Launch 2 writes it.
  // #1 rewritten in full: only launch 3's own writes hide it now.
  EXPECT_FALSE(Known(2, "cudaMalloc #1"));
  EXPECT_NE(Out.Launches[2]
                .Memory.at("cudaMalloc #1")
                .Unknown.find("this launch may write it"),
            std::string::npos);
  EXPECT_FALSE(Known(2, "cudaMalloc #2")); // Rewritten in part only.
  EXPECT_NE(Out.Launches[2]
                .Memory.at("cudaMalloc #2")
                .Unknown.find("launch 2 (k) may have written it"),
            std::string::npos);
  // #1 copied from #2, which launch 2 wrote.
  EXPECT_NE(Out.Launches[3]
                .Memory.at("cudaMalloc #1")
                .Unknown.find("copied (cudaMemcpy) from cudaMalloc #2"),
            std::string::npos)
      << Out.Launches[3].Memory.at("cudaMalloc #1").Unknown;
}

TEST(RecordedLaunches, WhatTheRecordingCannotVouchForIsSaid) {
  std::vector<Kernel> Ks = {
      kernelWith({param(ParamKind::Pointer, {64, false}, 8)})};
  Ks[0].Accesses.push_back(storeThrough(0));
  RecordedRun Run;
  Run.Allocs.push_back({1, 0x10000, 256, 0, "device"});
  RecordedLaunch L;
  L.Mangled = "_Z1k";
  L.Grid = {1, 1, 1};
  L.Block = {32, 1, 1};
  L.ArgsKnown = true;
  L.Args = {bytesOf(0x10000, 8)};
  Run.Launches = {L, L, L};
  Run.Launches[1].Error = "cudaErrorInvalidConfiguration";
  Run.Launches[2].N = 2;
  Run.Reads.push_back({1, 4, "cudaMemcpy", 2}); // After launches 1 and 2.
  Run.Missing = {"cudaGraphAddEmptyNode"};
  Run.Stopped = "exited with 1";
  RecordedLaunches Out = launchesFromRecording(Run, Ks);
  EXPECT_EQ(Out.Launches.size(), 2u); // The refused one is not simulated.
  ASSERT_EQ(Out.Warnings.size(), 4u);
  EXPECT_NE(Out.Warnings[0].find("refused"), std::string::npos);
  EXPECT_NE(Out.Warnings[1].find("launches from 3 on were made after the "
                                 "host read (cudaMemcpy) cudaMalloc #1, "
                                 "which launch 1 (k) may have written it"),
            std::string::npos)
      << Out.Warnings[1];
  EXPECT_NE(Out.Warnings[2].find("cudaGraphAddEmptyNode"), std::string::npos);
  EXPECT_NE(Out.Warnings[3].find("exited with 1 after 3 launches"),
            std::string::npos);
  // Each launch after the read says so itself.
  EXPECT_EQ(Out.Launches[0].Caveat, "");
  EXPECT_NE(Out.Launches[1].Caveat.find("made after the host read"),
            std::string::npos);
}

/// Builds and runs Path (or Code written to a file) against the recorder.
class RecordRun : public ::testing::Test {
protected:
  void SetUp() override {
    if (!*GMEM_RECORD_RUNTIME_DIR)
      GTEST_SKIP() << "gmem was built without the recording runtime";
    auto T = findToolkit("");
    if (!T)
      GTEST_SKIP() << llvm::toString(T.takeError());
    Tk = *T;
  }
  RecordedRun run(const std::string &Path, std::vector<std::string> Args,
                  const std::string &Board = "h100-sxm",
                  unsigned TimeLimit = 60) {
    Translated Tr = translateFile(Path, Headers::Cuda);
    Kernels = Tr.Kernels;
    RecordRequest R = request(Path);
    R.Board = Board;
    R.RunArgs = std::move(Args);
    R.TimeLimit = TimeLimit;
    R.LaunchCount = LaunchCount;
    R.Flags = Flags;
    R.Kernels = &Kernels;
    auto Run = recordProgram(R);
    if (!Run) {
      ADD_FAILURE() << llvm::toString(Run.takeError());
      return {};
    }
    return *Run;
  }
  /// Building Path for an H100 against the recording runtime.
  RecordRequest request(const std::string &Path) const {
    RecordRequest R;
    R.Nvcc = Tk.Nvcc;
    R.NvccVersion = Tk.Version;
    R.Files = {Path};
    R.Board = "h100-sxm";
    R.RuntimeDir = GMEM_RECORD_RUNTIME_DIR;
    return R;
  }
  std::string write(const std::string &Code) {
    llvm::SmallString<128> P;
    llvm::sys::fs::createTemporaryFile("record-test", "cu", P);
    std::ofstream(std::string(P)) << Code;
    Files.push_back(std::string(P));
    return std::string(P);
  }
  void TearDown() override {
    for (const std::string &F : Files)
      llvm::sys::fs::remove(F);
  }
  Toolkit Tk;
  uint64_t LaunchCount = 0;
  std::vector<std::string> Flags;
  std::vector<Kernel> Kernels;
  std::vector<std::string> Files;
};

TEST_F(RecordRun, EveryLaunchOfTheExampleInOrderWithItsRealValues) {
  const std::string Ex =
      std::string(GMEM_SOURCE_DIR) + "/tests/data/record/recorded_host.cu";
  RecordedRun Run = run(Ex, {"4096", "8"});
  EXPECT_EQ(Run.Stopped, "") << Run.OutputTail;
  ASSERT_EQ(Run.Launches.size(), 7u) << Run.OutputTail;
  auto Name = [&](size_t I) { return Run.Launches[I].Mangled; };
  EXPECT_EQ(Name(0), "_Z14gatherPermutedPKfPKiPfi");
  EXPECT_EQ(Run.Launches[0].Grid.X, 4096u / 256);
  EXPECT_EQ(Name(1), "_Z9histogramPKjPjij");
  EXPECT_EQ(Run.Launches[1].Grid.X, 132u); // multiProcessorCount.
  EXPECT_EQ(Name(2), "_Z9scaleRowsILi128EEvPfif");
  EXPECT_EQ(Run.Launches[2].Grid.X, (4095u + 127) / 128);
  EXPECT_EQ(Run.Launches[3].Grid.X, 8u); // One block per row.
  EXPECT_EQ(Run.Launches[4].Api, "cudaLaunchKernel");
  EXPECT_EQ(Run.Launches[5].Graph, Run.Launches[6].Graph);
  EXPECT_GE(Run.Launches[5].Graph, 0);
  RecordedLaunches L = launchesFromRecording(Run, Kernels);
  ASSERT_EQ(L.Launches.size(), 7u);
  // scaleRows on dOut + 1: the second allocation, 4 bytes in.
  EXPECT_EQ(L.Launches[2].Args[0].Allocation, "cudaMalloc #2");
  EXPECT_EQ(L.Launches[2].Args[0].AlignOffset, 4u);
  EXPECT_EQ(L.Launches[2].Args[1].IntValue, 4095);
  EXPECT_EQ(L.Launches[2].Args[2].FloatValue, 2.0);
  // copyPitched's pitch: 1000 floats rounded up to 4096 bytes.
  EXPECT_EQ(L.Launches[3].Args[1].IntValue, 4096);
  EXPECT_EQ(L.Launches[3].Args[0].Allocation, "cudaMallocPitch #6");
  EXPECT_EQ(L.Launches[6].Args[2].FloatValue, 1.5);
  // The bins are read after the last launch: nothing to warn about.
  EXPECT_TRUE(L.Warnings.empty()) << L.Warnings.front();

  // --launch-count 3: the program ends at its third launch, as asked.
  LaunchCount = 3;
  RecordedRun Three = run(Ex, {"4096", "8"});
  EXPECT_TRUE(Three.AtLaunchCount);
  EXPECT_EQ(Three.Stopped, "");
  ASSERT_EQ(Three.Launches.size(), 3u);
  EXPECT_EQ(Three.Launches[2].Mangled, "_Z9scaleRowsILi128EEvPfif");
  LaunchCount = 0;

  // Another board, another grid.
  RecordedRun A100 = run(Ex, {"4096", "8"}, "a100-sxm");
  ASSERT_EQ(A100.Launches.size(), 7u);
  EXPECT_EQ(A100.Launches[1].Grid.X, 108u);
}

// The gather's and the histogram's addresses come from rand() on the host.
// The expected figures are worked out here from the hardware rules over the
// same glibc rand() sequence (srand(42), as the program seeds it), not by
// gmem: a load touches the distinct 32-byte sectors of its lanes' bytes; an
// atomic costs, for each sector it touches, as many sectors as the most
// lanes hitting one address in it (measured on an H100, examples/atomics.cu).
TEST_F(RecordRun, HostWrittenIndicesArePricedAtTheirRealAddresses) {
  const std::string Ex =
      std::string(GMEM_SOURCE_DIR) + "/tests/data/record/recorded_host.cu";
  const int N = 4096;
  RecordedRun Run = run(Ex, {std::to_string(N), "8"});
  RecordedLaunches L = launchesFromRecording(Run, Kernels);
  ASSERT_EQ(L.Launches.size(), 7u) << Run.OutputTail;

  std::srand(42);
  std::vector<int> Perm(N);
  std::vector<unsigned> Data(N);
  for (int I = 0; I < N; ++I) {
    Perm[I] = I;
    Data[I] = unsigned(std::rand());
  }
  for (int I = N - 1; I > 0; --I)
    std::swap(Perm[I], Perm[std::rand() % (I + 1)]);
  uint64_t GatherSectors = 0, AtomicSectors = 0;
  for (int W = 0; W < N / 32; ++W) {
    std::set<int> Sectors;
    std::map<int, std::map<int, int>> Hits; // Sector -> bin -> lanes.
    for (int Lane = 0; Lane < 32; ++Lane) {
      Sectors.insert(Perm[W * 32 + Lane] * 4 / 32);
      const int Bin = int(Data[W * 32 + Lane] % 64);
      ++Hits[Bin * 4 / 32][Bin];
    }
    GatherSectors += Sectors.size();
    for (const auto &[Sector, Bins] : Hits) {
      int Most = 0;
      for (const auto &[Bin, Lanes] : Bins)
        Most = std::max(Most, Lanes);
      AtomicSectors += Most;
    }
  }

  SimOptions SO;
  auto Stats = [&](size_t I, const std::string &Text) {
    const gmem::Launch &X = L.Launches[I];
    const Kernel *K = nullptr;
    for (const Kernel &C : Kernels)
      K = C.Name == X.Kernel ? &C : K;
    LaunchResult R = simulate(*K, X, SO);
    for (const Access &A : K->Accesses)
      if (A.Text == Text)
        return R.PerAccess[A.Id];
    ADD_FAILURE() << "no access " << Text;
    return AccessStats();
  };
  AccessStats Gather = Stats(0, "in[perm[i]]");
  EXPECT_EQ(Gather.UnknownRequests, 0u) << Gather.UnknownReason;
  EXPECT_EQ(Gather.Requests, uint64_t(N / 32));
  EXPECT_EQ(Gather.Units, GatherSectors);
  EXPECT_EQ(Gather.DistinctBytes, uint64_t(N) * 4); // A permutation.
  AccessStats Hist = Stats(1, "atomicAdd(&bins[data[i] % nbins], 1u)");
  EXPECT_EQ(Hist.UnknownRequests, 0u) << Hist.UnknownReason;
  EXPECT_EQ(Hist.Requests, uint64_t(N / 32));
  EXPECT_EQ(Hist.Units, AtomicSectors);

  // Launch 3 scales dOut, which launch 1 (the gather) wrote: its bytes are
  // not known, and the report says which launch is to blame.
  const MemoryImage &Out = L.Launches[2].Memory.at("cudaMalloc #2");
  EXPECT_FALSE(Out.Data);
  EXPECT_NE(Out.Unknown.find("launch 1 (gatherPermuted) may have written it"),
            std::string::npos)
      << Out.Unknown;
  // dIn, set by the host, is known to the gather; the graph's replays
  // follow scaleRows launches on it.
  EXPECT_TRUE(L.Launches[0].Memory.at("cudaMalloc #1").Data);
  EXPECT_NE(L.Launches[5]
                .Memory.at("cudaMalloc #1")
                .Unknown.find("launch 5 (scaleRows<128>) may have written it"),
            std::string::npos)
      << L.Launches[5].Memory.at("cudaMalloc #1").Unknown;
  // Not given to the launch: not saved with it.
  EXPECT_NE(
      L.Launches[6].Memory.at("cudaMalloc #3").Unknown.find("were not saved"),
      std::string::npos);
}

// The same program at its default size, as gmem-verify measured it on an
// H100 (tests/data/record/recorded_host.measured.json: NVIDIA H100 80GB
// HBM3, driver 580.159.04, CUDA 13.0, 2026-11-24; built with nvcc -arch=sm_90
// -lineinfo, run with no arguments). The graph replays are not in it: the
// profiler cannot measure inside a stream capture.
TEST_F(RecordRun, GatherAndHistogramAgreeWithTheGpu) {
  const std::string Dir = std::string(GMEM_SOURCE_DIR) + "/tests/data/record/";
  std::ifstream In(Dir + "recorded_host.measured.json");
  nlohmann::json Ms = nlohmann::json::parse(In);
  RecordedRun Run = run(Dir + "recorded_host.cu", {});
  RecordedLaunches L = launchesFromRecording(Run, Kernels);
  ASSERT_EQ(L.Launches.size(), 7u) << Run.OutputTail;
  auto Sum = [&](size_t I, AccessKind Kind, uint64_t AccessStats::*Field) {
    const Kernel *K = nullptr;
    for (const Kernel &C : Kernels)
      K = C.Name == L.Launches[I].Kernel ? &C : K;
    LaunchResult R = simulate(*K, L.Launches[I], SimOptions());
    uint64_t Total = 0;
    for (const Access &A : K->Accesses)
      if (A.Kind == Kind && A.Sp == Space::Global) {
        EXPECT_EQ(R.PerAccess[A.Id].UnknownRequests, 0u) << A.Text;
        Total += R.PerAccess[A.Id].*Field;
      }
    return Total;
  };
  auto Measured = [&](size_t I, const char *Metric) {
    return Ms["launches"][I]["metrics"][Metric].get<uint64_t>();
  };
  EXPECT_EQ(Sum(0, AccessKind::Load, &AccessStats::Units),
            Measured(0, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"));
  EXPECT_EQ(Sum(0, AccessKind::Load, &AccessStats::Requests),
            Measured(0, "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"));
  EXPECT_EQ(Sum(1, AccessKind::Atomic, &AccessStats::Units),
            Measured(1, "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"));
  EXPECT_EQ(Sum(1, AccessKind::Atomic, &AccessStats::Requests),
            Measured(1, "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"));
}

TEST_F(RecordRun, RefusedLaunchesMissingCallsAndEarlyExits) {
  std::string P = write(R"(
#include <cstdio>
__global__ void k(float *a) { a[threadIdx.x] = 1; }
int main() {
  float *d;
  cudaMalloc(&d, 4096);
  k<<<1, 2048>>>(d);  // More threads than a block may have.
  if (cudaGetLastError() != cudaErrorInvalidConfiguration) return 3;
  k<<<2, 32>>>(d);
  cudaIpcMemHandle_t h;
  if (cudaIpcGetMemHandle(&h, d) != cudaSuccess) {
    std::fprintf(stderr, "no IPC\n");
    return 1;
  }
  k<<<4, 32>>>(d);
  return 0;
}
)");
  RecordedRun Run = run(P, {});
  EXPECT_EQ(Run.Stopped, "exited with 1");
  EXPECT_NE(Run.OutputTail.find("no IPC"), std::string::npos);
  ASSERT_EQ(Run.Launches.size(), 2u);
  EXPECT_EQ(Run.Launches[0].Error, "cudaErrorInvalidConfiguration");
  EXPECT_EQ(Run.Launches[1].Grid.X, 2u);
  EXPECT_EQ(Run.Missing, std::vector<std::string>{"cudaIpcGetMemHandle"});
}

// cuda-samples' matrixMul brackets its launches with the profiler API and
// checks what it returns: a recorded run answers both (they used to be
// missing, and the run stopped before its first launch).
TEST_F(RecordRun, ProfilerRangeMarkersSucceed) {
  std::string P = write(R"(
#include <cuda_profiler_api.h>
__global__ void k(float *a) { a[threadIdx.x] = 1; }
int main() {
  float *d;
  cudaMalloc(&d, 4096);
  if (cudaProfilerStart() != cudaSuccess) return 1;
  k<<<2, 32>>>(d);
  if (cudaProfilerStop() != cudaSuccess) return 2;
  return 0;
}
)");
  RecordedRun Run = run(P, {});
  EXPECT_EQ(Run.Stopped, "");
  ASSERT_EQ(Run.Launches.size(), 1u);
  EXPECT_TRUE(Run.Missing.empty());
}

// Handles, descriptors, a heuristic and GEMMs of cuBLAS and cuBLASLt, as
// llm.c's programs make them: every call succeeds, none runs, and memory a
// GEMM may have written is unknown to the launches after it.
TEST_F(RecordRun, LibraryHandlesAndGemmsSucceedAndAreNamed) {
  std::string P = write(R"(
#include <cstdio>
#include <cublasLt.h>
#include <cublas_v2.h>
__global__ void gather(const float *in, const int *idx, float *out) {
  out[threadIdx.x] = in[idx[threadIdx.x]];
}
#define OK(x) if ((x) != CUBLAS_STATUS_SUCCESS) { std::puts(#x); return 1; }
int main() {
  cublasHandle_t h;
  cublasLtHandle_t lt;
  OK(cublasCreate(&h));
  OK(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH));
  OK(cublasLtCreate(&lt));
  float *a, *c;
  int *idx;
  cudaMalloc(&a, 64 * 64 * 4);
  cudaMalloc(&c, 64 * 64 * 4);
  cudaMalloc(&idx, 32 * 4);
  int host[32];
  for (int i = 0; i < 32; ++i) host[i] = 31 - i;
  cudaMemcpy(idx, host, sizeof host, cudaMemcpyHostToDevice);
  gather<<<1, 32>>>(a, idx, c);
  float one = 1, zero = 0;
  OK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 64, 64, 64, &one, a, 64, a, 64,
                 &zero, c, 64));
  cublasLtMatmulDesc_t d;
  cublasLtMatrixLayout_t l;
  cublasLtMatmulPreference_t p;
  OK(cublasLtMatmulDescCreate(&d, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  OK(cublasLtMatrixLayoutCreate(&l, CUDA_R_32F, 64, 64, 64));
  OK(cublasLtMatmulPreferenceCreate(&p));
  cublasLtMatmulHeuristicResult_t r;
  int n = 0;
  OK(cublasLtMatmulAlgoGetHeuristic(lt, d, l, l, l, l, p, 1, &r, &n));
  if (n != 1 || r.state != CUBLAS_STATUS_SUCCESS) return 2;
  gather<<<1, 32>>>(a, idx, c);
  std::printf("%s\n", cublasGetStatusString(CUBLAS_STATUS_SUCCESS));
  return 0;
}
)");
  Flags = {"-lcublas", "-lcublasLt"};
  RecordedRun Run = run(P, {});
  Flags.clear();
  EXPECT_EQ(Run.Stopped, "") << Run.OutputTail;
  ASSERT_EQ(Run.Launches.size(), 2u) << Run.OutputTail;
  EXPECT_TRUE(Run.Missing.empty());
  RecordedLaunches L = launchesFromRecording(Run, Kernels);
  ASSERT_EQ(L.Launches.size(), 2u);
  ASSERT_EQ(L.Warnings.size(), 1u);
  EXPECT_NE(L.Warnings[0].find("cublasCreate_v2, "), std::string::npos)
      << L.Warnings[0];
  EXPECT_NE(L.Warnings[0].find("cublasSgemm_v2"), std::string::npos);
  EXPECT_NE(L.Warnings[0].find("cublasLtMatmulAlgoGetHeuristic"),
            std::string::npos);
  // The indices were set by the host: known to the first gather only.
  EXPECT_TRUE(L.Launches[0].Memory.at("cudaMalloc #3").Data);
  EXPECT_NE(L.Launches[1]
                .Memory.at("cudaMalloc #3")
                .Unknown.find("the library call cublasSgemm_v2 (not modelled)"),
            std::string::npos)
      << L.Launches[1].Memory.at("cudaMalloc #3").Unknown;
}

TEST_F(RecordRun, CrashesAndHangsStopWithTheLaunchesMadeBefore) {
  std::string P = write(R"(
#include <cstdlib>
#include <csignal>
__global__ void k(int *a) { a[threadIdx.x] = 1; }
int main(int argc, char **argv) {
  int *d;
  cudaMalloc(&d, 1024);
  k<<<1, 64>>>(d);
  if (argc > 1) std::raise(SIGSEGV);
  for (volatile int i = 0;; ) (void)i;
}
)");
  RecordedRun Crash = run(P, {"crash"});
  EXPECT_NE(Crash.Stopped.find("killed"), std::string::npos) << Crash.Stopped;
  EXPECT_EQ(Crash.Launches.size(), 1u);
  // The line the signal came from (before: "killed" and no line).
  EXPECT_EQ(Crash.CrashSite.Line, 9u) << Crash.Stopped;
  EXPECT_EQ(Crash.Stopped.substr(Crash.Stopped.size() - 2), ":9")
      << Crash.Stopped;
  RecordedRun Hang = run(P, {}, "h100-sxm", 1);
  EXPECT_EQ(Hang.Stopped, "stopped after the time limit of 1 s");
  EXPECT_EQ(Hang.Launches.size(), 1u);
}

TEST_F(RecordRun, ALongRunReportsItsLaunchesAsItGoes) {
  // Before, a program looping in its host code showed nothing until the
  // time limit: now the recording calls back each second (a terminal shows
  // "gmem: running the program: N launches, S s").
  std::string P = write(R"(
#include <unistd.h>
__global__ void k(int *a) { a[threadIdx.x] = 1; }
int main() {
  int *d;
  cudaMalloc(&d, 1024);
  k<<<1, 64>>>(d);
  cudaDeviceSynchronize();
  sleep(3);
}
)");
  RecordRequest R = request(P);
  R.Board = "h100-sxm";
  std::vector<std::pair<uint64_t, unsigned>> Seen;
  R.Progress = [&](uint64_t Launches, unsigned Seconds) {
    Seen.push_back({Launches, Seconds});
  };
  auto Run = recordProgram(R);
  ASSERT_TRUE(bool(Run)) << llvm::toString(Run.takeError());
  EXPECT_EQ(Run->Launches.size(), 1u);
  ASSERT_GE(Seen.size(), 2u);
  EXPECT_EQ(Seen.back().first, 1u);
  EXPECT_GE(Seen.back().second, 2u);
}

TEST_F(RecordRun, AProgramNvccRejectsIsAnErrorWithNvccsWords) {
  std::string P = write("int main() { return undeclared; }\n");
  auto Run = recordProgram(request(P));
  ASSERT_FALSE(bool(Run));
  std::string Msg = llvm::toString(Run.takeError());
  EXPECT_NE(Msg.find("nvcc could not build"), std::string::npos);
  EXPECT_NE(Msg.find("undeclared"), std::string::npos) << Msg;
}

} // namespace

namespace {

// CUDA arrays hold real bytes (a round trip through one returns them),
// texture and surface objects are handles, and each launch knows its line:
// a <<<>>> by the configuration push, cudaLaunchKernel by its caller.
TEST_F(RecordRun, ArraysTexturesAndLaunchSites) {
  std::string P = write(R"(#include <cstdio>
__global__ void k(cudaTextureObject_t t, float *out) {
  out[threadIdx.x] = tex1Dfetch<float>(t, threadIdx.x);
}
int main() {
  float *d, host[64], back[64];
  for (int i = 0; i < 64; ++i) host[i] = i;
  cudaMalloc(&d, sizeof host);
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  if (cudaMallocArray(&a, &f, 16, 4) != cudaSuccess) return 3;
  cudaMemcpy2DToArray(a, 0, 0, host, 64, 64, 4, cudaMemcpyHostToDevice);
  cudaMemcpy2DFromArray(back, 64, a, 0, 0, 64, 4, cudaMemcpyDeviceToHost);
  if (back[63] != 63) return 4;
  cudaResourceDesc r = {};
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaTextureDesc td = {};
  cudaTextureObject_t t;
  cudaSurfaceObject_t s;
  if (cudaCreateTextureObject(&t, &r, &td, nullptr) != cudaSuccess ||
      cudaCreateSurfaceObject(&s, &r) != cudaSuccess || !t || t == s)
    return 5;
  k<<<1, 64>>>(t, d);
  void *args[] = {&t, &d};
  cudaLaunchKernel((const void *)k, dim3(1), dim3(32), args, 0, 0);
  cudaArray_t b; // Rows 1..3 of a from texel 2 on, then a's row 0 flat.
  if (cudaMallocArray(&b, &f, 16, 4) != cudaSuccess ||
      cudaMemcpy2DArrayToArray(b, 0, 0, a, 8, 1, 56, 3) != cudaSuccess ||
      cudaMemcpyArrayToArray(b, 0, 3, a, 0, 0, 64) != cudaSuccess ||
      cudaMemcpy2DArrayToArray(b, 8, 0, a, 0, 0, 64, 1) == cudaSuccess)
    return 6;
  cudaMemcpy2DFromArray(back, 64, b, 0, 0, 64, 4, cudaMemcpyDeviceToHost);
  if (back[0] != 18 || back[13] != 31 || back[32] != 50 || back[53] != 5)
    return 7;
  cudaDestroyTextureObject(t);
  cudaDestroySurfaceObject(s);
  cudaFreeArray(a);
  return 0;
}
)");
  RecordRequest R = request(P);
  R.Nvdisasm = Tk.Nvdisasm;
  Translated Tr = translateFile(P, Headers::Cuda);
  R.Kernels = &Tr.Kernels;
  auto Built = buildProgram(R);
  ASSERT_TRUE(bool(Built)) << llvm::toString(Built.takeError());
  // The build kept the disassembly of its own cubin for the SASS step.
  ASSERT_EQ(Built->Sass.count(P), 1u);
  EXPECT_NE(Built->Sass.at(P).find("_Z1ky"), std::string::npos);
  auto Run = runRecorded(R, *Built);
  ASSERT_TRUE(bool(Run)) << llvm::toString(Run.takeError());
  EXPECT_EQ(Run->Stopped, "") << Run->OutputTail;
  EXPECT_TRUE(Run->Missing.empty());
  ASSERT_EQ(Run->Launches.size(), 2u);
  EXPECT_EQ(Run->Launches[0].Site.File, P);
  EXPECT_EQ(Run->Launches[0].Site.Line, 24u);
  EXPECT_EQ(Run->Launches[1].Api, "cudaLaunchKernel");
  EXPECT_EQ(Run->Launches[1].Site.Line, 26u);
}

} // namespace

namespace {

// Thrust, CUB and hand-written launchers size their launches from the
// kernels' attributes and the occupancy calculator: the recording runtime
// answers them from the build's cubins as the GPU's runtime does. The
// reference is the program's own output on an H200 (132 SMs, the SM limits
// of h100-sxm, the board the recorder describes for sm_90).
TEST_F(RecordRun, KernelAttributesAndOccupancyAreTheGpusAnswers) {
  const std::string Dir = std::string(GMEM_SOURCE_DIR) + "/tests/data/record";
  RecordRequest R = request(Dir + "/func_attributes.cu");
  R.CacheDir = ::testing::TempDir() + "/gmem-attrs-cache";
  llvm::sys::fs::remove_directories(R.CacheDir);
  auto B = buildProgram(R);
  ASSERT_TRUE(bool(B)) << llvm::toString(B.takeError());
  const std::string Attrs = B->Binary + ".attrs";
  ASSERT_TRUE(llvm::sys::fs::exists(Attrs));
  const std::string Cmd =
      "LD_LIBRARY_PATH=" + R.RuntimeDir + " GMEM_RECORD_ATTRS=" + Attrs +
      " GMEM_RECORD_SM=90 GMEM_RECORD_GPU=h100-sxm " + B->Binary;
  FILE *P = popen(Cmd.c_str(), "r");
  ASSERT_NE(P, nullptr);
  std::string Out;
  char Buf[4096];
  for (size_t N; (N = fread(Buf, 1, sizeof Buf, P)) > 0;)
    Out.append(Buf, N);
  EXPECT_EQ(pclose(P), 0) << Out;
  std::ifstream Ref(Dir + "/func_attributes.h200.txt");
  std::string Expected((std::istreambuf_iterator<char>(Ref)),
                       std::istreambuf_iterator<char>());
  EXPECT_EQ(Out, Expected);
}

} // namespace

namespace {

// Graphs built node by node (memset, kernel and host nodes), an
// executable's kernel node changed after instantiation, host functions put
// in a stream (run when issued, or replayed with a captured graph), and the
// capture status queries libraries make: all answered, none named missing.
TEST_F(RecordRun, GraphsBuiltNodeByNodeAndHostFunctionsRun) {
  std::string P = write(R"(#include <cstdio>
__global__ void add(float *a, float v) { a[threadIdx.x] += v; }
static int Calls = 0;
void CUDART_CB count(void *p) { ++*static_cast<int *>(p); }
int main() {
  float *a;
  cudaMalloc(&a, 256 * sizeof(float));
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaLaunchHostFunc(s, count, &Calls);
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphNode_t set, k, h;
  cudaMemsetParams mp = {};
  mp.dst = a;
  mp.elementSize = 4;
  mp.width = 256;
  mp.height = 1;
  cudaGraphAddMemsetNode(&set, g, nullptr, 0, &mp);
  float v = 2;
  void *args[] = {&a, &v};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)add;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(128);
  kp.kernelParams = args;
  cudaGraphAddKernelNode(&k, g, &set, 1, &kp);
  cudaHostNodeParams hp = {count, &Calls};
  cudaGraphAddHostNode(&h, g, &k, 1, &hp);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  cudaGraphLaunch(e, s);
  cudaGraphLaunch(e, s);
  kp.blockDim = dim3(256);
  cudaGraphExecKernelNodeSetParams(e, k, &kp);
  cudaGraphLaunch(e, s);
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaStreamCaptureStatus st;
  unsigned long long id = 0;
  cudaStreamGetCaptureInfo(s, &st, &id);
  if (st != cudaStreamCaptureStatusActive) return 2;
  add<<<1, 64, 0, s>>>(a, 1);
  cudaLaunchHostFunc(s, count, &Calls);
  cudaGraph_t cg;
  cudaStreamEndCapture(s, &cg);
  cudaGraphExec_t ce;
  cudaGraphInstantiate(&ce, cg, 0);
  cudaGraphLaunch(ce, s);
  cudaStreamSynchronize(s);
  std::printf("calls %d\n", Calls);
  return Calls == 5 ? 0 : 1;
}
)");
  RecordedRun Run = run(P, {});
  EXPECT_EQ(Run.Stopped, "") << Run.OutputTail;
  EXPECT_NE(Run.OutputTail.find("calls 5"), std::string::npos)
      << Run.OutputTail;
  EXPECT_TRUE(Run.Missing.empty()) << Run.Missing.front();
  ASSERT_EQ(Run.Launches.size(), 4u);
  const unsigned Blocks[] = {128, 128, 256, 64};
  for (size_t I = 0; I < 4; ++I) {
    EXPECT_EQ(Run.Launches[I].Block.X, Blocks[I]) << I;
    EXPECT_GE(Run.Launches[I].Graph, 0) << I;
  }
  // The memset node wrote every byte before each launch: the arguments'
  // allocation was saved with the launch.
  EXPECT_FALSE(Run.Launches[0].Images.empty());
}

} // namespace

namespace {

// Thrust's sequence, transform, reduce and sort and CUB's DeviceReduce run
// their launches under recording, each with the grid and block the GPU
// gave it (gmem-verify on an H200: thrust_algorithms.measured.json): the
// occupancy calls, function attributes and temporary allocations they
// make are answered as the GPU's runtime answers them.
TEST_F(RecordRun, ThrustAndCubMakeTheLaunchesTheGpuMade) {
  const std::string Dir = std::string(GMEM_SOURCE_DIR) + "/tests/data/record";
  // Only the launches are compared: the kernels' parameter sizes (Clang's
  // parse of Thrust, the slow half of run()) are not needed.
  auto Recorded = recordProgram(request(Dir + "/thrust_algorithms.cu"));
  ASSERT_TRUE(bool(Recorded)) << llvm::toString(Recorded.takeError());
  const RecordedRun &Run = *Recorded;
  EXPECT_EQ(Run.Stopped, "") << Run.OutputTail;
  EXPECT_TRUE(Run.Missing.empty()) << Run.Missing.front();
  std::ifstream In(Dir + "/thrust_algorithms.measured.json");
  const nlohmann::json M = nlohmann::json::parse(In);
  ASSERT_EQ(Run.Launches.size(), M["launches"].size());
  for (size_t I = 0; I < Run.Launches.size(); ++I) {
    const nlohmann::json &L = M["launches"][I];
    const RecordedLaunch &R = Run.Launches[I];
    EXPECT_EQ(R.Mangled, L["mangled"].get<std::string>()) << I;
    EXPECT_EQ(nlohmann::json({R.Grid.X, R.Grid.Y, R.Grid.Z}), L["grid"]) << I;
    EXPECT_EQ(nlohmann::json({R.Block.X, R.Block.Y, R.Block.Z}), L["block"])
        << I;
  }
}

} // namespace
