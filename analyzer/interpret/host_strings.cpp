//===- host_strings.cpp - Host interpreter: the C library on strings ------===//
//
// Programs read their sizes from argv: atoi(argv[1]), strtol, std::stoi,
// sscanf(argv[i], "%d", &n), strcmp(argv[i], "-n"). With the command line
// known (--run-args, or none), these are computed as the C library would.
//
//===----------------------------------------------------------------------===//
#include "host_interpreter.h"
#include "clang/AST/DeclCXX.h"
#include "llvm/ADT/StringSwitch.h"
#include <cerrno>
#include <cstdlib>
#include <cstring>

using namespace clang;

namespace gmem {

namespace {

enum StrFn {
  None,
  ToInt,   ///< atoi, strtol, std::stoi, ...: (string[, end[, base]]).
  ToFloat, ///< atof, strtod, std::stof, ...
  Compare, ///< strcmp, strncmp.
  Length,  ///< strlen.
  Scan,    ///< sscanf with one conversion.
};

StrFn strFn(StringRef Name, bool Std) {
  if (Std)
    return llvm::StringSwitch<StrFn>(Name)
        .Cases("stoi", "stol", "stoll", "stoul", "stoull", ToInt)
        .Cases("stof", "stod", "stold", ToFloat)
        .Cases("atoi", "atol", "atoll", "strtol", "strtoll", ToInt)
        .Cases("strtoul", "strtoull", ToInt)
        .Cases("atof", "strtod", "strtof", ToFloat)
        .Cases("strcmp", "strncmp", Compare)
        .Case("strlen", Length)
        .Case("sscanf", Scan)
        .Default(None);
  return llvm::StringSwitch<StrFn>(Name)
      .Cases("atoi", "atol", "atoll", "strtol", "strtoll", ToInt)
      .Cases("strtoul", "strtoull", ToInt)
      .Cases("atof", "strtod", "strtof", ToFloat)
      .Cases("strcmp", "strncmp", Compare)
      .Case("strlen", Length)
      .Case("sscanf", Scan)
      .Default(None);
}

} // namespace

HostValue HostInterpreter::evalStringCall(const FunctionDecl *FD,
                                          const CallExpr *CE, bool &Handled) {
  Handled = false;
  bool Std = FD->getDeclContext()->getRedeclContext()->isStdNamespace();
  StrFn K = strFn(FD->getName(), Std);
  if (K == None || CE->getNumArgs() == 0)
    return HostValue();
  // Only calls whose strings are known are computed; the rest are opaque
  // (what they write through &var and return is unknown), and a reason
  // from the command line carries over.
  Handled = true;
  std::vector<HostValue> A;
  for (const clang::Expr *E : CE->arguments())
    A.push_back(eval(E));
  if (stopped())
    return HostValue::unknown("not reached");
  std::string At = " at " + where(CE->getExprLoc());
  StringRef Name = FD->getName();
  auto Opaque = [&](const HostValue *Why) {
    for (const HostValue &V : A)
      if (V.Kind == HostValue::AddrOf)
        write(LRef{V.Alloc, -1},
              Why ? *Why
                  : HostValue::unknown("set by " + Name.str() + "()" + At));
    return Why ? *Why
               : HostValue::unknown("returned by " + Name.str() + "()" + At);
  };
  unsigned Strings = K == Compare ? 2 : 1;
  for (unsigned I = 0; I < Strings && I < A.size(); ++I)
    if (A[I].Kind != HostValue::String)
      return Opaque(A[I].isUnknown() && A[I].FromInput ? &A[I] : nullptr);
  const std::string S = A[0].Str.substr(A[0].I);
  QualType RT = CE->getType();
  std::optional<IntType> IT = intTypeOf(RT);
  switch (K) {
  case ToInt: {
    int Base = 10;
    if (!Std && Name.starts_with("strto") && A.size() > 2) {
      if (!A[2].isInt())
        return HostValue::unknown("the base of " + Name.str() + "()" + At);
      Base = int(A[2].I);
    } else if (Std && A.size() > 2 && A[2].isInt()) {
      Base = int(A[2].I);
    }
    char *End = nullptr;
    errno = 0;
    bool Unsigned = Name.contains("ul");
    int64_t V = Unsigned ? int64_t(std::strtoull(S.c_str(), &End, Base))
                         : int64_t(std::strtoll(S.c_str(), &End, Base));
    if (Std && End == S.c_str())
      return HostValue::unknown("std::" + Name.str() + "(\"" + S +
                                    "\") throws invalid_argument" + At,
                                true);
    // strtol(s, &end, 10) tells where the number ended.
    if (!Std && Name.starts_with("strto") && A.size() > 1 &&
        A[1].Kind == HostValue::AddrOf) {
      HostValue EndV = A[0];
      EndV.I += End - S.c_str();
      write(LRef{A[1].Alloc, -1}, EndV);
    }
    if (!IT)
      return HostValue::unknown("returned by " + Name.str() + "()" + At);
    return HostValue::integer(V, *IT);
  }
  case ToFloat: {
    char *End = nullptr;
    double V = std::strtod(S.c_str(), &End);
    if (Std && End == S.c_str())
      return HostValue::unknown("std::" + Name.str() + "(\"" + S +
                                    "\") throws invalid_argument" + At,
                                true);
    if (!Std && Name.starts_with("strto") && A.size() > 1 &&
        A[1].Kind == HostValue::AddrOf) {
      HostValue EndV = A[0];
      EndV.I += End - S.c_str();
      write(LRef{A[1].Alloc, -1}, EndV);
    }
    return convert(HostValue::floating(V), RT, RT, CE);
  }
  case Compare: {
    const std::string T = A[1].Str.substr(A[1].I);
    int R;
    if (Name == "strncmp") {
      if (A.size() < 3 || !A[2].isInt())
        return HostValue::unknown("the length given to strncmp()" + At);
      R = std::strncmp(S.c_str(), T.c_str(), size_t(A[2].I));
    } else {
      R = std::strcmp(S.c_str(), T.c_str());
    }
    return HostValue::integer(R < 0 ? -1 : R > 0, IT.value_or(IntType{}));
  }
  case Length:
    return HostValue::integer(int64_t(std::strlen(S.c_str())),
                              IT.value_or(IntType{64, false}));
  case Scan: {
    // sscanf(s, "%d", &n): one conversion into a tracked variable.
    if (A.size() != 3 || A[1].Kind != HostValue::String ||
        A[2].Kind != HostValue::AddrOf)
      break;
    const std::string F = A[1].Str.substr(A[1].I);
    QualType T = Slots[A[2].Alloc].Ty.getNonReferenceType();
    size_t Pct = F.find('%');
    if (Pct == std::string::npos || F.find('%', Pct + 1) != std::string::npos)
      break;
    int Got = 0;
    if (std::optional<IntType> VT = intTypeOf(T)) {
      if (!StringRef(F).drop_front(Pct + 1).ltrim("hlzjt").starts_with("d") &&
          !StringRef(F).drop_front(Pct + 1).ltrim("hlzjt").starts_with("i") &&
          !StringRef(F).drop_front(Pct + 1).ltrim("hlzjt").starts_with("u"))
        break;
      // Read through the widest type, then truncate as a store would.
      std::string Wide =
          F.substr(0, Pct) + "%lld" + F.substr(F.find_first_of("diu", Pct) + 1);
      long long V = 0;
      Got = std::sscanf(S.c_str(), Wide.c_str(), &V);
      if (Got == 1)
        write(LRef{A[2].Alloc, -1}, HostValue::integer(int64_t(V), *VT));
    } else if (T->isRealFloatingType()) {
      size_t Conv = F.find_first_of("fgeFGE", Pct);
      if (Conv == std::string::npos)
        break;
      std::string Wide = F.substr(0, Pct) + "%lf" + F.substr(Conv + 1);
      double V = 0;
      Got = std::sscanf(S.c_str(), Wide.c_str(), &V);
      if (Got == 1)
        write(LRef{A[2].Alloc, -1},
              convert(HostValue::floating(V), T, T, nullptr));
    } else {
      break;
    }
    return HostValue::integer(Got, IT.value_or(IntType{}));
  }
  case None:
    break;
  }
  return Opaque(nullptr); // A form not computed here.
}

} // namespace gmem
