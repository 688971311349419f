//===- place_match.cpp - PTX shared accesses matched to SASS by address ---===//
#include "place_match.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace gmem {

namespace {

/// What an assignment makes of each part: its instruction's line and width
/// and the parts made with it. Two assignments alike in this count alike.
using Outcome =
    std::vector<std::tuple<unsigned, unsigned, std::vector<size_t>>>;

class Search {
public:
  Search(const std::vector<PlacedPart> &Parts,
         const std::vector<PlacedInstr> &Instrs, int64_t Shift)
      : Parts(Parts), Instrs(Instrs), Shift(Shift), Owner(Parts.size(), -1),
        Made(Instrs.size()) {}

  /// False where the search grew too large or found two outcomes.
  bool run() {
    step(0);
    return !TooLarge && !Ambiguous;
  }

  std::optional<Outcome> Found;
  std::vector<std::vector<size_t>> FoundMade;
  bool TooLarge = false, Ambiguous = false;

private:
  /// Part P's bytes lie in instruction J's window, aligned to their size.
  bool fits(size_t J, size_t P) const {
    const PlacedInstr &I = Instrs[J];
    const PlacedPart &A = Parts[P];
    const int64_t D = A.Place + Shift - I.Addr;
    return A.Size <= I.Width && D >= 0 && D + int64_t(A.Size) <= I.Width &&
           D % A.Size == 0;
  }

  void step(size_t J) {
    if (TooLarge || Ambiguous || ++Nodes > 200000) {
      TooLarge = Nodes > 200000;
      return;
    }
    // Every part left must still be reachable by an instruction to come.
    for (size_t P = 0; P < Parts.size(); ++P)
      if (Owner[P] < 0) {
        bool Reach = false;
        for (size_t K = J; K < Instrs.size() && !Reach; ++K)
          Reach = fits(K, P);
        if (!Reach)
          return;
      }
    if (J == Instrs.size())
      return record();
    std::set<uint32_t> Blocks;
    for (size_t P = 0; P < Parts.size(); ++P)
      if (Owner[P] < 0 && fits(J, P))
        Blocks.insert(Parts[P].Block);
    for (uint32_t B : Blocks) {
      std::vector<size_t> In;
      for (size_t P = 0; P < Parts.size(); ++P)
        if (Owner[P] < 0 && fits(J, P) && Parts[P].Block == B)
          In.push_back(P);
      if (In.size() > 16) {
        TooLarge = true;
        return;
      }
      for (uint32_t Pick = 1; Pick < (1u << In.size()); ++Pick)
        choose(J, In, Pick);
    }
  }

  /// Instruction J makes the parts of In that Pick selects, if their bytes
  /// are apart.
  void choose(size_t J, const std::vector<size_t> &In, uint32_t Pick) {
    uint64_t Bytes = 0;
    std::vector<size_t> G;
    for (size_t K = 0; K < In.size(); ++K) {
      if (!(Pick >> K & 1))
        continue;
      const PlacedPart &A = Parts[In[K]];
      const int64_t D = A.Place + Shift - Instrs[J].Addr;
      const uint64_t Mine = ((uint64_t(1) << A.Size) - 1) << D;
      if (Bytes & Mine)
        return;
      Bytes |= Mine;
      G.push_back(In[K]);
    }
    for (size_t P : G)
      Owner[P] = int(J);
    Made[J] = G;
    step(J + 1);
    for (size_t P : G)
      Owner[P] = -1;
    Made[J].clear();
  }

  void record() {
    Outcome O(Parts.size());
    for (size_t J = 0; J < Instrs.size(); ++J)
      for (size_t P : Made[J])
        O[P] = {Instrs[J].Line, Instrs[J].Width, Made[J]};
    if (!Found) {
      Found = std::move(O);
      FoundMade = Made;
    } else if (*Found != O) {
      Ambiguous = true;
    }
  }

  const std::vector<PlacedPart> &Parts;
  const std::vector<PlacedInstr> &Instrs;
  const int64_t Shift;
  std::vector<int> Owner;
  std::vector<std::vector<size_t>> Made;
  unsigned Nodes = 0;
};

} // namespace

std::optional<std::vector<std::vector<size_t>>>
matchByPlace(const std::vector<PlacedPart> &Parts,
             const std::vector<PlacedInstr> &Instrs) {
  if (Parts.empty() || Instrs.empty() || Parts.size() > 64 ||
      Instrs.size() > 64)
    return std::nullopt;
  for (const PlacedPart &P : Parts)
    if (!P.Size || P.Size > 16 || P.Size & (P.Size - 1))
      return std::nullopt;
  for (const PlacedInstr &I : Instrs)
    if (!I.Width || I.Width > 16 || I.Width & (I.Width - 1))
      return std::nullopt;
  // The shift is the one of some instruction that makes one part alone.
  std::set<int64_t> Shifts;
  for (const PlacedInstr &I : Instrs)
    for (const PlacedPart &P : Parts)
      if (I.Width == P.Size)
        Shifts.insert(I.Addr - P.Place);
  std::optional<Outcome> One;
  std::vector<std::vector<size_t>> Made;
  for (int64_t Shift : Shifts) {
    Search S(Parts, Instrs, Shift);
    if (!S.run())
      return std::nullopt;
    if (!S.Found)
      continue;
    if (One && *One != *S.Found)
      return std::nullopt;
    One = S.Found;
    Made = S.FoundMade;
  }
  if (!One)
    return std::nullopt;
  return Made;
}

} // namespace gmem
