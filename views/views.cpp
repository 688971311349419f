//===- views.cpp - The table of views -------------------------------------===//
#include "views.h"

namespace gmem {

namespace {
struct Entry {
  const char *Format;
  ViewFn Print;
};
const Entry Views[] = {
    {"text", printTableView},
    {"json", printJsonView},
    {"html", printHtmlView},
    {"svg", printSvgView},
};
} // namespace

ViewFn findView(const std::string &Format) {
  for (const Entry &E : Views)
    if (Format == E.Format)
      return E.Print;
  return nullptr;
}

std::vector<std::string> viewNames() {
  std::vector<std::string> N;
  for (const Entry &E : Views)
    N.push_back(E.Format);
  return N;
}

std::string dimText(const Dim3 &D) {
  return "(" + std::to_string(D.X) + "," + std::to_string(D.Y) + "," +
         std::to_string(D.Z) + ")";
}

const char *opWord(const Access &A) {
  return A.Kind == AccessKind::Load    ? "load"
         : A.Kind == AccessKind::Store ? "store"
                                       : "atomic";
}

std::string xmlEscaped(const std::string &S) {
  std::string R;
  for (char C : S)
    R += C == '<'   ? "&lt;"
         : C == '>' ? "&gt;"
         : C == '&' ? "&amp;"
         : C == '"' ? "&quot;"
                    : std::string(1, C);
  return R;
}

} // namespace gmem
