//===- kernel_signature.cpp - Kernel names and arguments from a symbol ----===//
#include "kernel_signature.h"
#include "device_name.h"
#include "importers.h"

#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <regex>

namespace gmem {
namespace cupti {

static std::string trim(const std::string &S) {
  size_t B = S.find_first_not_of(' ');
  if (B == std::string::npos)
    return "";
  size_t E = S.find_last_not_of(' ');
  return S.substr(B, E - B + 1);
}

/// Index of the '(' that opens the parameter list closing at the end of
/// \p S, or npos when \p S does not end in a parenthesised list.
static size_t paramListStart(const std::string &S) {
  if (S.empty() || S.back() != ')')
    return std::string::npos;
  int Depth = 0;
  for (size_t I = S.size(); I-- > 0;) {
    if (S[I] == ')')
      ++Depth;
    else if (S[I] == '(' && --Depth == 0)
      return I;
  }
  return std::string::npos;
}

/// Splits at commas outside <>, () and [].
static std::vector<std::string> splitTopLevel(const std::string &S) {
  std::vector<std::string> Parts;
  int Depth = 0;
  std::string Cur;
  for (char C : S) {
    if (C == '<' || C == '(' || C == '[')
      ++Depth;
    else if (C == '>' || C == ')' || C == ']')
      --Depth;
    if (C == ',' && Depth == 0) {
      Parts.push_back(trim(Cur));
      Cur.clear();
      continue;
    }
    Cur += C;
  }
  if (!trim(Cur).empty())
    Parts.push_back(trim(Cur));
  return Parts;
}

KernelSignature parseDemangled(const std::string &Demangled) {
  KernelSignature Sig;
  Sig.Demangled = Demangled;
  Sig.Demangles = true;
  size_t Open = paramListStart(Demangled);
  std::string Head =
      Open == std::string::npos ? Demangled : Demangled.substr(0, Open);
  if (Open != std::string::npos) {
    std::string Params =
        Demangled.substr(Open + 1, Demangled.size() - Open - 2);
    if (trim(Params) != "void")
      Sig.ParamTypes = splitTopLevel(Params);
  }
  // One spelling of kernel names for every source of measurements.
  Sig.Kernel = kernelBaseName(Demangled);
  return Sig;
}

KernelSignature parseKernelSymbol(const std::string &Raw) {
  // A static kernel under -rdc=true: the name is the part after nvcc's
  // prefix (Mangled keeps the whole symbol).
  const std::string Symbol = withoutStaticPrefix(Raw);
  int Status = 0;
  char *Out = abi::__cxa_demangle(Symbol.c_str(), nullptr, nullptr, &Status);
  if (Status != 0 || !Out) {
    std::free(Out);
    KernelSignature Sig;
    Sig.Kernel = Symbol;
    Sig.Demangled = Symbol;
    return Sig;
  }
  std::string Demangled(Out);
  std::free(Out);
  return parseDemangled(Demangled);
}

ArgKind classifyType(const std::string &Type) {
  std::string T = trim(Type);
  if (!T.empty() && (T.back() == '*' || T.find("__restrict__") != T.npos))
    return ArgKind::Pointer;
  // Top-level const does not survive mangling, but be lenient.
  if (T.rfind("const ", 0) == 0)
    T = T.substr(6);
  if (T.size() > 6 && T.compare(T.size() - 6, 6, " const") == 0)
    T = T.substr(0, T.size() - 6);
  if (T == "bool")
    return ArgKind::Bool;
  if (T == "float" || T == "double")
    return ArgKind::Float;
  static const char *Unsigned[] = {
      "unsigned int",       "unsigned",       "unsigned long",
      "unsigned long long", "unsigned short", "unsigned char",
      "char16_t",           "char32_t",       "unsigned __int128"};
  for (const char *U : Unsigned)
    if (T == U)
      return ArgKind::Unsigned;
  static const char *Signed[] = {"int",     "long",    "long long",
                                 "short",   "char",    "signed char",
                                 "wchar_t", "__int128"};
  for (const char *S : Signed)
    if (T == S)
      return ArgKind::Signed;
  return ArgKind::Unknown;
}

unsigned naturalSize(const std::string &Type) {
  std::string T = trim(Type);
  switch (classifyType(T)) {
  case ArgKind::Pointer:
    return 8;
  case ArgKind::Bool:
    return 1;
  case ArgKind::Float:
    return T.find("double") != T.npos ? 8 : 4;
  case ArgKind::Signed:
  case ArgKind::Unsigned:
    if (T.find("__int128") != T.npos)
      return 16;
    if (T.find("long") != T.npos)
      return 8;
    if (T.find("short") != T.npos || T.find("char16_t") != T.npos)
      return 2;
    if (T.find("char32_t") != T.npos || T.find("wchar_t") != T.npos)
      return 4;
    if (T.find("char") != T.npos)
      return 1;
    return 4;
  case ArgKind::Unknown:
    return 0;
  }
  return 0;
}

std::string normalizeType(const std::string &Type) {
  std::string T = trim(Type);
  static const std::regex ConstPointee("^([A-Za-z_][A-Za-z0-9_: ]*) const\\*$");
  std::smatch M;
  if (std::regex_match(T, M, ConstPointee))
    return "const " + M[1].str() + "*";
  return T;
}

MeasuredArg decodeArg(const std::string &Type, const void *Value,
                      unsigned Size) {
  MeasuredArg Arg;
  Arg.Type = normalizeType(Type);
  Arg.Size = Size;
  if (!Value || Size == 0 || Size > 8)
    return Arg;
  uint64_t Raw = 0;
  std::memcpy(&Raw, Value, Size); // Little-endian: the low bytes first.
  switch (classifyType(Type)) {
  case ArgKind::Pointer:
    Arg.AlignOffset = Raw % 256;
    break;
  case ArgKind::Bool:
    Arg.Value = Raw != 0;
    break;
  case ArgKind::Unsigned:
    Arg.Value = static_cast<int64_t>(Raw);
    break;
  case ArgKind::Signed: {
    unsigned Shift = 64 - 8 * Size;
    Arg.Value = static_cast<int64_t>(Raw << Shift) >> Shift;
    break;
  }
  case ArgKind::Float:
    if (Size == 4) {
      float F;
      std::memcpy(&F, Value, 4);
      Arg.FloatValue = F;
    } else if (Size == 8) {
      double D;
      std::memcpy(&D, Value, 8);
      Arg.FloatValue = D;
    }
    break;
  case ArgKind::Unknown:
    break;
  }
  return Arg;
}

} // namespace cupti
} // namespace gmem
