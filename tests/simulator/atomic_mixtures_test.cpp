// Global atomics (simulator/memory_units.h, atomicRequest) against what an
// H200 measured for the 475 one-warp layouts of bench/atomic_mixtures.h,
// RED and ATOM alike (tests/data/measured/atomic_mixtures/README.md).
#include "../../bench/atomic_mixtures.h"
#include "arch.h"
#include "memory_units.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <string>
#include <vector>

using namespace gmem;

namespace {

struct MixtureCounts {
  unsigned RedRequests = 0, RedSectors = 0, AtomRequests = 0, AtomSectors = 0;
};

std::vector<MixtureCounts> measuredMixtures() {
  std::vector<MixtureCounts> Out;
  std::ifstream In(std::string(GMEM_SOURCE_DIR) +
                   "/tests/data/measured/atomic_mixtures/layouts.csv");
  std::string Line;
  while (std::getline(In, Line)) {
    if (Line.empty() || !isdigit(Line[0]))
      continue;
    // The name is quoted and has no comma; the four counts follow it.
    const size_t Q = Line.rfind('"');
    MixtureCounts M;
    if (Q == std::string::npos ||
        std::sscanf(Line.c_str() + Q + 1, ",%u,%u,%u,%u", &M.RedRequests,
                    &M.RedSectors, &M.AtomRequests, &M.AtomSectors) != 4)
      continue;
    Out.push_back(M);
  }
  return Out;
}

/// The rule's sectors for a layout: its active lanes' words of a table at a
/// 1 KiB boundary (cudaMalloc's alignment is larger).
uint64_t ruleSectors(const atomic_mixtures::Layout &L) {
  uint64_t Addr[32];
  uint32_t Mask = 0;
  for (unsigned Lane = 0; Lane < 32; ++Lane) {
    Addr[Lane] = 0x100000 + 4 * uint64_t(L.Word[Lane]);
    if (L.Word[Lane] != atomic_mixtures::Inactive)
      Mask |= 1u << Lane;
  }
  return atomicRequest(*findArch("sm_90"), Addr, Mask, 4).Units;
}

} // namespace

TEST(AtomicMixtures, TheBusiestAddressRuleHoldsButForSomeLaneOrders) {
  const std::vector<atomic_mixtures::Layout> Layouts =
      atomic_mixtures::layouts();
  const std::vector<MixtureCounts> M = measuredMixtures();
  ASSERT_EQ(M.size(), Layouts.size());
  ASSERT_EQ(M.size(), 475u);
  // Found by the measurement: random byte layouts L1 counts more for.
  const std::set<std::string> MoreByOrder = {
      "random % 256 #0", "random % 256 #2",  "random % 256 #5",
      "random % 256 #9", "random % 256 #13", "random % 256 #15"};
  unsigned Exact = 0;
  for (size_t I = 0; I < Layouts.size(); ++I) {
    const atomic_mixtures::Layout &L = Layouts[I];
    SCOPED_TRACE(L.Name);
    if (L.Name.find(" without lane ") != std::string::npos ||
        L.Name.find(" lanes ") != std::string::npos)
      continue; // Below.
    EXPECT_EQ(M[I].RedRequests, 1u);
    EXPECT_EQ(M[I].AtomRequests, 1u);
    EXPECT_EQ(M[I].RedSectors, M[I].AtomSectors); // RED and ATOM alike.
    const uint64_t Rule = ruleSectors(L);
    if (MoreByOrder.count(L.Name)) {
      EXPECT_GT(M[I].RedSectors, Rule);
      EXPECT_LE(M[I].RedSectors, Rule + 2);
      continue;
    }
    EXPECT_EQ(M[I].RedSectors, Rule);
    Exact += M[I].RedSectors == Rule;
  }
  EXPECT_EQ(Exact, 187u);
  // The layouts derived from three of them whose names have Mark: never
  // below the rule, at most 3 above it, and as Check says; how many.
  auto Derived = [&](const char *Mark, auto Check) {
    unsigned N = 0;
    for (size_t I = 0; I < Layouts.size(); ++I) {
      const atomic_mixtures::Layout &L = Layouts[I];
      const size_t At = L.Name.find(Mark);
      if (At == std::string::npos)
        continue;
      SCOPED_TRACE(L.Name);
      ++N;
      const uint64_t Rule = ruleSectors(L);
      EXPECT_EQ(M[I].RedSectors, M[I].AtomSectors);
      EXPECT_GE(M[I].RedSectors, Rule);
      EXPECT_LE(M[I].RedSectors, Rule + 3);
      Check(L.Name, At, M[I].RedSectors - Rule);
    }
    return N;
  };
  // One lane left out in turn (96 layouts): the rule only where #0 loses
  // lane 9 or 28, or #2 lane 1 (#2 without lane 0 costs one more than #2).
  const std::set<std::string> AsTheRule = {"random % 256 #0 without lane 9",
                                           "random % 256 #0 without lane 28",
                                           "random % 256 #2 without lane 1"};
  EXPECT_EQ(Derived(" without lane ",
                    [&](const std::string &Name, size_t, uint64_t Extra) {
                      EXPECT_EQ(Extra == 0, AsTheRule.count(Name) == 1);
                    }),
            96u);
  // Cut to their first or last lanes (186 layouts): #0's extra sector needs
  // lane 28 and a lane before 8.
  EXPECT_EQ(Derived(" lanes ",
                    [](const std::string &Name, size_t At, uint64_t Extra) {
                      if (Name.compare(0, At, "random % 256 #0") != 0)
                        return;
                      unsigned From = 0, To = 0;
                      ASSERT_EQ(std::sscanf(Name.c_str() + At,
                                            " lanes %u to %u", &From, &To),
                                2);
                      EXPECT_EQ(Extra, From <= 7 && To >= 28 ? 1u : 0u);
                    }),
            186u);
  // The same lanes in address order: the rule, for every random layout.
  for (size_t I = 0; I < Layouts.size(); ++I)
    if (Layouts[I].Name.find(" sorted") != std::string::npos) {
      SCOPED_TRACE(Layouts[I].Name);
      EXPECT_EQ(M[I].RedSectors, ruleSectors(Layouts[I]));
    }
}
