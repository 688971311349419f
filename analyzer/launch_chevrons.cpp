//===- launch_chevrons.cpp - Launch chevrons split by blanks --------------===//
//
// A small scanner over the text: comments, string and character literals
// are skipped; three `<` with only blanks between them open a launch's
// configuration (no C++ expression can start with `<`, so only
// `operator<< <T>` must be told apart), and the first three `>` with only
// blanks between them outside the configuration's brackets close it.
//
//===----------------------------------------------------------------------===//
#include "launch_chevrons.h"

#include <algorithm>
#include <cctype>

namespace gmem {
namespace {

bool blank(char C) { return C == ' ' || C == '\t'; }

/// The end of three Ch at I with blanks only between them, or npos.
size_t threeOf(llvm::StringRef T, size_t I, char Ch) {
  for (unsigned N = 0; N < 3; ++N) {
    if (N)
      while (I < T.size() && blank(T[I]))
        ++I;
    if (I >= T.size() || T[I] != Ch)
      return llvm::StringRef::npos;
    ++I;
  }
  return I;
}

/// Writes three Ch at Out[From, To), blanks after them.
void join(std::string &Out, size_t From, size_t To, char Ch) {
  for (size_t I = From; I < To; ++I)
    Out[I] = I < From + 3 ? Ch : ' ';
}

/// Skips the comment or literal starting at I; returns I where there is
/// none.
size_t skipOpaque(llvm::StringRef T, size_t I) {
  if (T.substr(I).starts_with("//")) {
    const size_t E = T.find('\n', I);
    return E == llvm::StringRef::npos ? T.size() : E;
  }
  if (T.substr(I).starts_with("/*")) {
    const size_t E = T.find("*/", I + 2);
    return E == llvm::StringRef::npos ? T.size() : E + 2;
  }
  if (T[I] == '"' || T[I] == '\'') {
    // A digit separator (1'000) is no literal.
    if (T[I] == '\'' && I && std::isalnum(static_cast<unsigned char>(T[I - 1])))
      return I;
    size_t E = I + 1;
    while (E < T.size() && T[E] != T[I] && T[E] != '\n')
      E += T[E] == '\\' ? 2 : 1;
    return std::min(E + 1, T.size());
  }
  return I;
}

bool afterOperatorKeyword(llvm::StringRef T, size_t I) {
  return T.take_front(I).rtrim(" \t\r\n").ends_with("operator");
}

} // namespace

std::string joinSplitChevrons(llvm::StringRef T) {
  std::string Out;
  for (size_t I = 0; I < T.size();) {
    if (const size_t E = skipOpaque(T, I); E != I) {
      I = E;
      continue;
    }
    const size_t Open = threeOf(T, I, '<');
    if (Open == llvm::StringRef::npos || afterOperatorKeyword(T, I)) {
      ++I;
      continue;
    }
    // The closing chevrons: the first three `>` at the configuration's own
    // bracket depth (a template argument's `>` never makes three); a `;`
    // at that depth, or a bracket it did not open, ends the search.
    int Depth = 0;
    size_t Close = llvm::StringRef::npos, At = Open;
    while (At < T.size()) {
      if (const size_t E = skipOpaque(T, At); E != At) {
        At = E;
        continue;
      }
      const char C = T[At];
      if (C == '(' || C == '[' || C == '{')
        ++Depth;
      else if (C == ')' || C == ']' || C == '}')
        --Depth;
      if (Depth < 0 || (!Depth && C == ';'))
        break;
      if (!Depth && C == '>')
        if ((Close = threeOf(T, At, '>')) != llvm::StringRef::npos)
          break;
      ++At;
    }
    const bool Split =
        Open - I > 3 || (Close != llvm::StringRef::npos && Close - At > 3);
    if (Close != llvm::StringRef::npos && Split) {
      if (Out.empty())
        Out = T.str();
      join(Out, I, Open, '<');
      join(Out, At, Close, '>');
    }
    I = Close == llvm::StringRef::npos ? Open : Close;
  }
  return Out;
}

} // namespace gmem
