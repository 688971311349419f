//===- pointer_arith.cpp - Pointer arithmetic leaving the address space --===//
#include "pointer_arith.h"

namespace gmem {

const char *const PointerOverflowReason =
    "its pointer arithmetic leaves the address space (below 0, past 2^64 or "
    "2^63 bytes or more from the pointer; undefined in C++)";

static bool castFromSigned(const Expr &X) {
  return X.Kind == Op::Cast && X.Ops.size() == 1 && X.Ops[0]->Type.Signed;
}

bool readsSigned(const Expr &E, unsigned Which) {
  const Expr &X = *E.Ops[Which];
  if (E.Kind == Op::Mul)
    return Which == 0 && castFromSigned(X);
  if (Which == 0)
    return false;
  return X.Kind == Op::Const || (X.Kind == Op::Mul && X.PointerArith) ||
         castFromSigned(X);
}

} // namespace gmem
