// The lane layouts bench/atomic_mixtures.cu measures, one warp's global
// atomicAdd each: lane L adds to word Word[L] of a 1 KiB table (Inactive:
// the lane does not). Structured mixtures of repeated and single words in
// one or two sectors, in lane orders that tell rules apart; random layouts
// like a byte histogram's (rand() % 256, % 64, % 16); lines without a
// repeated word; the random ones sorted; three of them with one lane left
// out in turn, and cut to their first or last lanes. New layouts go at the
// end (the measured data is by index).
// Read by the bench and by tests/simulator/atomic_mixtures_test.cpp.
#ifndef GMEM_BENCH_ATOMIC_MIXTURES_H
#define GMEM_BENCH_ATOMIC_MIXTURES_H

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

namespace atomic_mixtures {

constexpr unsigned Inactive = ~0u;

struct Layout {
  std::string Name;
  unsigned Word[32];
};

/// Counts (lanes per word) laid out on words 0, 1, ... of sector First, the
/// lanes taking them in order (Grouped: a word's lanes together;
/// otherwise dealt round-robin), from lane Lane on.
inline void place(Layout &L, unsigned &Lane, unsigned First,
                  std::vector<unsigned> Counts, bool Grouped) {
  if (Grouped) {
    for (unsigned W = 0; W < Counts.size(); ++W)
      for (unsigned K = 0; K < Counts[W]; ++K)
        L.Word[Lane++] = First * 8 + W;
    return;
  }
  for (bool Any = true; Any;) {
    Any = false;
    for (unsigned W = 0; W < Counts.size(); ++W)
      if (Counts[W]) {
        --Counts[W];
        L.Word[Lane++] = First * 8 + W;
        Any = true;
      }
  }
}

inline std::vector<Layout> layouts() {
  std::vector<Layout> Out;
  auto Make = [&](std::string Name,
                  std::vector<std::pair<unsigned, std::vector<unsigned>>> S,
                  bool Grouped) {
    Layout L;
    L.Name = std::move(Name);
    for (unsigned &W : L.Word)
      W = Inactive;
    unsigned Lane = 0;
    for (auto &[Sector, Counts] : S)
      place(L, Lane, Sector, Counts, Grouped);
    Out.push_back(L);
  };
  const std::vector<std::vector<unsigned>> Mixes = {
      {2, 1},    {2, 1, 1},    {2, 2},       {2, 2, 1},
      {3, 1},    {3, 2},       {3, 3},       {4, 1},
      {4, 4},    {2, 2, 2, 2}, {5, 1, 1, 1}, {2, 1, 1, 1, 1, 1, 1, 1},
      {3, 2, 1}, {4, 3, 2, 1}, {8, 8},       {6, 6, 6, 6, 6, 2}};
  for (const auto &M : Mixes) {
    std::string Name;
    for (unsigned C : M)
      Name += (Name.empty() ? "" : "+") + std::to_string(C);
    Make("grouped " + Name, {{0, M}}, true);
    Make("dealt " + Name, {{0, M}}, false);
  }
  Make("two sectors 2+1 | 1+1", {{0, {2, 1}}, {1, {1, 1}}}, true);
  Make("two sectors 3 | 2+2", {{0, {3}}, {1, {2, 2}}}, true);
  Make("two sectors 2+1 | 2+1 dealt", {{0, {2, 1}}, {5, {2, 1}}}, false);
  // Random tables, as a histogram of random bytes makes them.
  const size_t FirstRandom = Out.size();
  unsigned Seed = 12345;
  auto Next = [&] {
    Seed = Seed * 1664525u + 1013904223u;
    return Seed >> 8;
  };
  for (unsigned Bins : {256u, 64u, 16u})
    for (unsigned K = 0; K < 16; ++K) {
      Layout L;
      L.Name = "random % " + std::to_string(Bins) + " #" + std::to_string(K);
      for (unsigned &W : L.Word)
        W = Next() % Bins;
      Out.push_back(L);
    }
  // No word twice: N lines (128 bytes apart) of S sectors of W words,
  // lanes in address order or dealt across the lines.
  for (unsigned N : {2u, 3u, 4u, 6u, 8u})
    for (unsigned S = 1; S <= 4; ++S)
      for (unsigned W = 1; W <= 3; ++W) {
        if (N * S * W > 32)
          continue;
        for (bool Dealt : {false, true}) {
          Layout L;
          L.Name = std::to_string(N) + " lines x " + std::to_string(S) +
                   " sectors x " + std::to_string(W) + " words" +
                   (Dealt ? " dealt" : "");
          for (unsigned &X : L.Word)
            X = Inactive;
          const unsigned PerLine = S * W;
          for (unsigned K = 0; K < N * PerLine; ++K) {
            const unsigned Line = Dealt ? K % N : K / PerLine,
                           In = Dealt ? K / N : K % PerLine;
            L.Word[K] = Line * 32 + (In / W) * 8 + In % W;
          }
          Out.push_back(L);
        }
      }
  // The first 16 random layouts again, their lanes in address order.
  for (size_t K = FirstRandom; K < FirstRandom + 16; ++K) {
    Layout L = Out[K];
    L.Name += " sorted";
    std::sort(std::begin(L.Word), std::end(L.Word));
    Out.push_back(L);
  }
  // Three random layouts that cost more than the rule (#0, #2, #13), each
  // with one lane left out in turn: which lanes make the extra sectors.
  for (size_t K : {FirstRandom, FirstRandom + 2, FirstRandom + 13})
    for (unsigned Lane = 0; Lane < 32; ++Lane) {
      Layout L = Out[K];
      L.Name += " without lane " + std::to_string(Lane);
      L.Word[Lane] = Inactive;
      Out.push_back(L);
    }
  // The same three cut to their first K lanes and to their last 32 - K:
  // where in lane order the extra sectors begin.
  for (size_t K : {FirstRandom, FirstRandom + 2, FirstRandom + 13})
    for (unsigned Cut = 1; Cut < 32; ++Cut)
      for (bool Head : {true, false}) {
        Layout L = Out[K];
        L.Name += (Head ? " lanes 0 to " + std::to_string(Cut - 1)
                        : " lanes " + std::to_string(Cut) + " to 31");
        for (unsigned Lane = 0; Lane < 32; ++Lane)
          if ((Lane < Cut) != Head)
            L.Word[Lane] = Inactive;
        Out.push_back(L);
      }
  return Out;
}

} // namespace atomic_mixtures

#endif // GMEM_BENCH_ATOMIC_MIXTURES_H
