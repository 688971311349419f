//===- host_value.cpp - Values of the host-code interpreter ---------------===//
#include "host_value.h"
#include <algorithm>

namespace gmem {

HostValue HostValue::unknown(std::string Reason, bool FromInput) {
  HostValue V;
  V.Kind = Unknown;
  V.Reason = std::move(Reason);
  V.FromInput = FromInput;
  return V;
}

HostValue HostValue::integer(int64_t Val, IntType T) {
  HostValue V;
  V.Kind = Int;
  V.Ty = T;
  V.I = normalize(uint64_t(Val), T);
  return V;
}

HostValue HostValue::floating(double Val) {
  HostValue V;
  V.Kind = Float;
  V.F = Val;
  return V;
}

HostValue HostValue::pointer(int Alloc, int64_t ByteOffset) {
  HostValue V;
  V.Kind = Pointer;
  V.Alloc = Alloc;
  V.I = ByteOffset;
  return V;
}

HostValue HostValue::dim3(uint64_t X, uint64_t Y, uint64_t Z) {
  HostValue V;
  V.Kind = Dim3;
  const IntType U32{32, false};
  V.Elems = {integer(X, U32), integer(Y, U32), integer(Z, U32)};
  return V;
}

HostValue HostValue::string(std::string S) {
  HostValue V;
  V.Kind = String;
  V.Str = std::move(S);
  return V;
}

bool sameValue(const HostValue &A, const HostValue &B) {
  if (A.Kind != B.Kind)
    return false;
  switch (A.Kind) {
  case HostValue::Unknown:
    return A.Reason == B.Reason && A.FromInput == B.FromInput;
  case HostValue::Int:
    return A.I == B.I && A.Ty == B.Ty;
  case HostValue::Float:
    return A.F == B.F;
  case HostValue::Pointer:
    return A.Alloc == B.Alloc && A.I == B.I && A.Reason == B.Reason;
  case HostValue::AddrOf:
    return A.Alloc == B.Alloc;
  case HostValue::String:
    return A.Str == B.Str && A.I == B.I;
  case HostValue::Function:
    return A.Fns == B.Fns;
  case HostValue::Dim3:
  case HostValue::Array:
    if (A.Elems.size() != B.Elems.size())
      return false;
    for (size_t I = 0; I < A.Elems.size(); ++I)
      if (!sameValue(A.Elems[I], B.Elems[I]))
        return false;
    return true;
  }
  return false;
}

HostValue mergeValues(const HostValue &A, const HostValue &B,
                      const std::string &WhyDiffer, bool DifferFromInput) {
  if (sameValue(A, B))
    return A;
  // A kernel pointer that one path leaves unset is taken to be set: calling
  // through it there would be undefined anyway.
  if (A.Kind == HostValue::Function || B.Kind == HostValue::Function) {
    if (A.Kind != HostValue::Function)
      return B.Kind == HostValue::Function && A.isUnknown() ? B : A;
    if (B.Kind != HostValue::Function)
      return B.isUnknown() ? A : B;
    HostValue R = A;
    for (const clang::FunctionDecl *F : B.Fns)
      if (std::find(R.Fns.begin(), R.Fns.end(), F) == R.Fns.end())
        R.Fns.push_back(F);
    return R;
  }
  if (A.isUnknown() || B.isUnknown()) {
    // Prefer the reason that points at the command line or input.
    if (A.isUnknown() && B.isUnknown())
      return (B.FromInput && !A.FromInput) ? B : A;
    return A.isUnknown() ? A : B;
  }
  if (A.Kind == B.Kind &&
      (A.Kind == HostValue::Dim3 || A.Kind == HostValue::Array) &&
      A.Elems.size() == B.Elems.size()) {
    HostValue R = A;
    for (size_t I = 0; I < A.Elems.size(); ++I)
      R.Elems[I] =
          mergeValues(A.Elems[I], B.Elems[I], WhyDiffer, DifferFromInput);
    return R;
  }
  if (A.Kind == HostValue::Pointer && B.Kind == HostValue::Pointer &&
      A.Alloc == B.Alloc) {
    HostValue R = A;
    R.Reason = A.isVaguePointer()   ? A.Reason
               : B.isVaguePointer() ? B.Reason
                                    : WhyDiffer;
    return R;
  }
  return HostValue::unknown(WhyDiffer, DifferFromInput);
}

} // namespace gmem
