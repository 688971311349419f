// The shared side of async copies (simulator/async_copy_units.h) against
// what an H200 measured for 88 lane layouts (bench/ldgsts_layouts.cu;
// tests/data/measured/ldgsts/README.md): each launch's LDGSTS wavefronts,
// its shared bytes over the shared efficiency (no other shared access
// runs), per request.
#include "arch.h"
#include "async_copy_units.h"

#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace gmem;

namespace {

const ArchRules &sm90() { return *findArch("sm_90"); }

// bench/ldgsts_layouts.cu's layouts, as that file defines them.
bool layoutOf(int P, unsigned Size, unsigned L, uint64_t &G, uint64_t &S) {
  const unsigned Row = L / 4, Col = L % 4;
  switch (P) {
  case 0:
    G = L * Size;
    S = L * Size;
    return true;
  case 1:
    G = L * Size;
    S = (L ^ 1) * Size;
    return true;
  case 2:
    G = L * Size;
    S = (L ^ 8) * Size;
    return true;
  case 3:
    G = L * Size;
    S = (31 - L) * Size;
    return true;
  case 4:
    G = Row * 512 + Col * 16;
    S = Row * 64 + ((Col + (Row % 8) / 2) % 4) * 16;
    return Size == 16;
  case 5:
    G = Row * 512 + Col * 16;
    S = Row * 64 + Col * 16;
    return Size == 16;
  case 6:
    G = 16 + L * Size;
    S = L * Size;
    return true;
  case 7:
    G = L * 2 * Size;
    S = ((L / 2) + (L % 2) * 32) * Size;
    return true;
  case 8:
    G = L * Size;
    S = (L / 2) * 4 * Size + (L % 2) * Size;
    return true;
  case 9:
    G = L * Size;
    S = L * Size + (L * Size / 128) * 16;
    return true;
  case 10:
    G = (31 - L) * Size;
    S = L * Size;
    return true;
  case 11:
    G = L * Size;
    S = (L ^ 4) * Size;
    return true;
  case 12:
    G = L * Size;
    S = (L ^ 2) * Size;
    return true;
  case 13:
    G = L * Size;
    S = L * Size + 2048 * (L % 2);
    return true;
  case 14:
    G = L * 2 * Size;
    S = L * 2 * Size;
    return true;
  case 15:
    G = L * Size;
    S = L * 128;
    return true;
  case 16:
    G = L * 128;
    S = L * Size;
    return true;
  case 17:
    G = (L % 16) * Size;
    S = L * Size;
    return true;
  case 18:
    G = L * Size;
    S = (L * Size) ^ 64;
    return true;
  case 19:
    G = L * Size;
    S = L * Size + (Size == 16 ? 16 : 0);
    return true;
  case 20:
    G = L * 2 * Size;
    S = L * Size;
    return true;
  case 21:
    G = L * 4 * Size;
    S = L * Size;
    return true;
  case 22:
    G = L * Size;
    S = L * 2 * Size;
    return true;
  }
  return false;
}

struct MeasuredLaunch {
  int Layout = 0;
  unsigned Size = 0;
  bool Bypass = false;
  std::map<std::string, double> Metrics;
};

std::vector<std::string> csvFields(const std::string &Line) {
  std::vector<std::string> Out;
  std::string F;
  bool Quoted = false;
  for (char C : Line) {
    if (C == '"')
      Quoted = !Quoted;
    else if (C == ',' && !Quoted)
      Out.push_back(F), F.clear();
    else if (C != ',' || Quoted)
      F += C;
  }
  Out.push_back(F);
  return Out;
}

// The measured launches, in the program's launch order.
std::vector<MeasuredLaunch> measured() {
  std::vector<MeasuredLaunch> Out;
  for (int P = 0; P < 23; ++P)
    for (unsigned Size : {4u, 8u, 16u}) {
      uint64_t G, S;
      if (!layoutOf(P, Size, 0, G, S))
        continue;
      Out.push_back({P, Size, false, {}});
      if (Size == 16)
        Out.push_back({P, Size, true, {}});
    }
  std::ifstream In(std::string(GMEM_SOURCE_DIR) +
                   "/tests/data/measured/ldgsts/layouts.csv");
  std::string Line;
  while (std::getline(In, Line)) {
    const std::vector<std::string> F = csvFields(Line);
    if (F.size() < 15 || F[0].empty() || !isdigit(F[0][0]))
      continue;
    std::string V;
    for (char C : F[14])
      if (C != ',')
        V += C;
    const size_t Id = std::stoul(F[0]);
    if (Id < Out.size())
      Out[Id].Metrics[F[12]] = std::stod(V);
  }
  return Out;
}

} // namespace

TEST(AsyncCopyUnits, EveryMeasuredLayoutIsPredictedOrBounded) {
  const std::vector<MeasuredLaunch> Launches = measured();
  ASSERT_EQ(Launches.size(), 88u);
  unsigned Exact = 0, Bounded = 0, SectorsExact = 0;
  for (const MeasuredLaunch &M : Launches) {
    SCOPED_TRACE("layout " + std::to_string(M.Layout) + ", " +
                 std::to_string(M.Size) + " bytes" +
                 (M.Bypass ? ", bypassing L1" : ""));
    ASSERT_EQ(M.Metrics.size(), 4u);
    const double Sectors =
        M.Metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
    const double Requests =
        M.Metrics.at("smsp__sass_inst_executed_op_ldgsts.sum");
    const double Bytes = M.Metrics.at("smsp__sass_data_bytes_mem_shared.sum");
    const double Pct = M.Metrics.at(
        "smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct");
    ASSERT_EQ(Requests, 64 * 8 * 4); // 64 blocks of 8 warps, 4 copies each.
    ASSERT_EQ(Bytes, Requests * 32 * M.Size);
    // The efficiency has two decimals: a few wavefronts in 10^4.
    const double Measured = Bytes / (Pct / 100 * 128) / Requests;
    uint64_t G[32], S[32];
    for (unsigned L = 0; L < 32; ++L)
      layoutOf(M.Layout, M.Size, L, G[L], S[L]);
    // Warp w's regions: 8192 bytes apart in global memory, 4096 in shared.
    for (unsigned L = 0; L < 32; ++L)
      G[L] += 3 * 8192, S[L] += 3 * 4096;
    const AsyncCopyCost C =
        asyncCopyRequest(sm90(), G, S, ~0u, M.Size, M.Bypass);
    // Bypassing L1, the global side's sectors as L1 counts them.
    if (M.Bypass && C.GlobalKnown) {
      ++SectorsExact;
      EXPECT_EQ(double(C.GlobalSectors), Sectors / Requests);
    } else if (M.Bypass) {
      EXPECT_LE(double(C.GlobalMin), Sectors / Requests);
      EXPECT_GE(double(C.GlobalMax), Sectors / Requests);
      EXPECT_LT(C.GlobalMin, C.GlobalMax);
    }
    if (C.Known) {
      ++Exact;
      EXPECT_NEAR(double(C.Cost.Units), Measured, 0.02 * Measured);
      EXPECT_EQ(C.Cost.DistinctBytes, 32u * M.Size);
    } else {
      ++Bounded;
      EXPECT_TRUE(M.Bypass) << "only the bypassing path is bounded";
      EXPECT_LE(double(C.Min), Measured + 0.02);
      EXPECT_GE(double(C.Max), Measured - 0.02);
      EXPECT_LT(C.Min, C.Max);
    }
  }
  // What the rule knows: every copy through L1, and the bypassing copies
  // whose quarter warps each read and write one line, or touch a line a
  // lane on one side (layouts 15 and 16).
  EXPECT_EQ(Exact, 76u);
  EXPECT_EQ(Bounded, 12u);
  // The global side's sectors, bypassing L1: known where each quarter
  // warp reads as many sectors as it writes 32-byte chunks (13 of 23).
  EXPECT_EQ(SectorsExact, 13u);
}

// Worked from the rule, one case each (the measured values are the test
// above's): two lines read at the same offsets and a 2-way bank conflict
// on the shared side take three cycles, not two or four.
TEST(AsyncCopyUnits, ReadPassesAndWritesOverlap) {
  uint64_t G[32], S[32];
  for (unsigned L = 0; L < 32; ++L) {
    G[L] = 4096 + L * 8;                 // lanes 16 apart: one offset
    S[L] = ((L / 2) + (L % 2) * 32) * 4; // lanes 2k, 2k+1: one bank
  }
  EXPECT_EQ(asyncCopyRequest(sm90(), G, S, ~0u, 4, false).Cost.Units, 3u);
  // Only the first pass's lanes: one line, two writes.
  EXPECT_EQ(asyncCopyRequest(sm90(), G, S, 0xffffu, 4, false).Cost.Units, 2u);
  // Bypassing L1, one line each side: one a quarter warp, however the
  // chunks are ordered.
  for (unsigned L = 0; L < 32; ++L)
    G[L] = 8192 + (L ^ 5) * 16, S[L] = L * 16;
  const AsyncCopyCost C = asyncCopyRequest(sm90(), G, S, ~0u, 16, true);
  EXPECT_TRUE(C.Known);
  EXPECT_EQ(C.Cost.Units, 4u);
}
