//===- checks.cpp - Glob lists and NOLINT comments ------------------------===//
#include "checks.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>

namespace gmem {

static std::string trim(const std::string &S) {
  size_t B = S.find_first_not_of(" \t\n");
  if (B == std::string::npos)
    return "";
  return S.substr(B, S.find_last_not_of(" \t\n") - B + 1);
}

bool globMatch(const std::string &P, const std::string &N) {
  // Iterative wildcard match with backtracking to the last '*'.
  size_t I = 0, J = 0, Star = std::string::npos, Mark = 0;
  while (J < N.size()) {
    if (I < P.size() && P[I] == '*') {
      Star = I++;
      Mark = J;
    } else if (I < P.size() && P[I] == N[J]) {
      ++I;
      ++J;
    } else if (Star != std::string::npos) {
      I = Star + 1;
      J = ++Mark;
    } else {
      return false;
    }
  }
  while (I < P.size() && P[I] == '*')
    ++I;
  return I == P.size();
}

GlobList::GlobList(const std::string &Globs) {
  size_t Pos = 0;
  while (Pos <= Globs.size()) {
    size_t End = Globs.find(',', Pos);
    if (End == std::string::npos)
      End = Globs.size();
    std::string G = trim(Globs.substr(Pos, End - Pos));
    Pos = End + 1;
    if (G.empty())
      continue;
    bool Positive = G[0] != '-';
    if (!Positive)
      G = trim(G.substr(1));
    Items.push_back({Positive, G});
  }
}

bool GlobList::contains(const std::string &Name) const {
  bool In = false;
  for (const Item &I : Items)
    if (globMatch(I.Pattern, Name))
      In = I.Positive;
  return In;
}

std::vector<std::string> nolintLists(const std::string &Line,
                                     const std::string &Marker) {
  std::vector<std::string> Lists;
  size_t Pos = 0;
  while ((Pos = Line.find(Marker, Pos)) != std::string::npos) {
    size_t After = Pos + Marker.size();
    Pos = After;
    // "NOLINT" must not be the prefix of "NOLINTNEXTLINE" or "NOLINTBEGIN".
    if (After < Line.size() && std::isalpha((unsigned char)Line[After]))
      continue;
    size_t Close = After < Line.size() && Line[After] == '('
                       ? Line.find(')', After)
                       : std::string::npos;
    // A bare marker, or an unclosed list (clang-tidy takes it as "all").
    Lists.push_back(Close == std::string::npos
                        ? std::string()
                        : Line.substr(After + 1, Close - After - 1));
  }
  return Lists;
}

static bool names(const std::string &List, const std::string &Rule) {
  return List.empty() || GlobList(List).contains(Rule);
}

bool nolintSuppresses(const std::string &Line, const std::string &Marker,
                      const std::string &Rule) {
  for (const std::string &List : nolintLists(Line, Marker))
    if (names(List, Rule))
      return true;
  return false;
}

const std::vector<std::string> &NolintFilter::lines(const std::string &File) {
  auto [It, New] = Files.try_emplace(File);
  if (New) {
    std::ifstream In(File);
    std::string L;
    while (std::getline(In, L))
      It->second.push_back(L);
  }
  return It->second;
}

bool NolintFilter::suppressed(const Diagnostic &D) {
  if (!D.Loc.Line || D.Loc.File.empty())
    return false;
  const std::vector<std::string> &Ls = lines(D.Loc.File);
  if (D.Loc.Line <= Ls.size() &&
      nolintSuppresses(Ls[D.Loc.Line - 1], "NOLINT", D.Rule))
    return true;
  if (D.Loc.Line >= 2 && D.Loc.Line - 1 <= Ls.size() &&
      nolintSuppresses(Ls[D.Loc.Line - 2], "NOLINTNEXTLINE", D.Rule))
    return true;
  // The blocks open at the finding's line: BEGINs up to it, ENDs before it.
  std::vector<std::string> Open;
  for (size_t I = 0; I < D.Loc.Line && I < Ls.size(); ++I) {
    for (std::string &L : nolintLists(Ls[I], "NOLINTBEGIN"))
      Open.push_back(std::move(L));
    if (I + 1 < D.Loc.Line)
      for (const std::string &L : nolintLists(Ls[I], "NOLINTEND")) {
        auto It = std::find(Open.rbegin(), Open.rend(), L);
        if (It != Open.rend())
          Open.erase(std::next(It).base());
      }
  }
  for (const std::string &L : Open)
    if (names(L, D.Rule))
      return true;
  return false;
}

} // namespace gmem
