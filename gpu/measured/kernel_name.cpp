//===- kernel_name.cpp - One spelling of a kernel's name for every source -===//
//
// ncu prints "void sgemm_coalescing<32>(int, ...)" or "naiveGmem(float *,
// ...)", nvprof "naiveGmem(float*, ...)", CUPTI the mangled name; the
// analyzer names a template instance "sgemm_coalescing<32>". Matching
// launches by name needs all of them reduced to the last form.
//
//===----------------------------------------------------------------------===//
#include "csv.h"
#include "importers.h"

#include <cstdlib>
#include <cxxabi.h>

namespace gmem {

static std::string demangle(const std::string &Mangled) {
  int Status = 0;
  char *Out = abi::__cxa_demangle(Mangled.c_str(), nullptr, nullptr, &Status);
  if (Status != 0 || !Out)
    return Mangled;
  std::string Result(Out);
  std::free(Out);
  return Result;
}

static bool isIdentChar(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') ||
         (C >= '0' && C <= '9') || C == '_';
}

/// Drops the parameter list: the parenthesised group that ends the name.
static std::string stripParameters(const std::string &Name) {
  if (Name.empty() || Name.back() != ')')
    return Name;
  int Depth = 0;
  for (size_t I = Name.size(); I-- > 0;) {
    if (Name[I] == ')')
      ++Depth;
    else if (Name[I] == '(' && --Depth == 0)
      return std::string(csv::trim(std::string_view(Name).substr(0, I)));
  }
  return Name;
}

/// Drops a return type: whatever precedes the last space outside brackets.
static std::string stripReturnType(const std::string &Name) {
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I < Name.size(); ++I) {
    char C = Name[I];
    if (C == '<' || C == '(' || C == '[')
      ++Depth;
    else if (C == '>' || C == ')' || C == ']')
      --Depth;
    else if (C == ' ' && Depth == 0)
      Start = I + 1;
  }
  return Name.substr(Start);
}

/// "k<32u, 4ul>" -> "k<32, 4>": integer literal suffixes inside template
/// arguments, which the demangler prints and the analyzer does not.
static std::string stripLiteralSuffixes(const std::string &Name) {
  std::string Out;
  int Angle = 0;
  for (size_t I = 0; I < Name.size();) {
    char C = Name[I];
    if (C == '<')
      ++Angle;
    else if (C == '>')
      --Angle;
    bool StartsNumber =
        C >= '0' && C <= '9' && (I == 0 || !isIdentChar(Name[I - 1]));
    if (Angle > 0 && StartsNumber) {
      size_t J = I;
      while (J < Name.size() && Name[J] >= '0' && Name[J] <= '9')
        ++J;
      size_t K = J;
      while (K < Name.size() && (Name[K] == 'u' || Name[K] == 'U' ||
                                 Name[K] == 'l' || Name[K] == 'L'))
        ++K;
      Out.append(Name, I, J - I);
      // Only a suffix when nothing identifier-like follows ("32ul>").
      if (K < Name.size() && isIdentChar(Name[K]))
        Out.append(Name, J, K - J);
      I = K;
      continue;
    }
    Out += C;
    ++I;
  }
  return Out;
}

std::string kernelBaseName(std::string_view Name) {
  std::string S(csv::trim(Name));
  if (S.compare(0, 2, "_Z") == 0)
    S = demangle(S);
  return stripLiteralSuffixes(stripReturnType(stripParameters(S)));
}

} // namespace gmem
