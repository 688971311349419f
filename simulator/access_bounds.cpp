//===- access_bounds.cpp - Bounds for requests with unknown addresses -----===//
//
// The warp evaluator's hooks for unknown values: the range each lane's
// unknown slot values are proven to lie in, and, for a request whose address
// depends on them, the fewest and most sectors or wavefronts it can take.
//
//===----------------------------------------------------------------------===//
#include "memory_units.h"
#include "request_bounds.h"
#include "warp_eval.h"

namespace gmem {

namespace {

/// Whether the address starts from a pointer parameter: it then points into
/// global memory whatever its unknown parts are.
bool fromPointerParam(const Expr &E, const Kernel &K) {
  if (E.Kind == Op::Param)
    return E.Index >= 0 && E.Index < (int)K.Params.size() &&
           K.Params[E.Index].Kind == ParamKind::Pointer;
  for (const ExprPtr &O : E.Ops)
    if (fromPointerParam(*O, K))
      return true;
  return false;
}

} // namespace

ValueRange WarpEvaluator::laneRange(const Expr &E, unsigned Lane) {
  return rangeOf(E, [&](const Expr &X) -> ValueRange {
    switch (X.Kind) {
    case Op::Param:
      if (X.Index >= 0 && X.Index < (int)Env.ParamValues.size() &&
          Env.ParamUnknown[X.Index].empty())
        return pointRange(normalize(Env.ParamValues[X.Index], X.Type), X.Type);
      return fullRange(X.Type);
    case Op::Builtin:
      return pointRange(BuiltinVals[X.Index][Lane], X.Type);
    case Op::Var: {
      size_t At = size_t(X.Index) * 32;
      if (SlotUnknown[X.Index] >> Lane & 1)
        return SlotRanged[X.Index] >> Lane & 1 ? SlotRange[At + Lane]
                                               : fullRange(X.Type);
      return pointRange(SlotVals[At + (SlotUniform[X.Index] ? 0 : Lane)],
                        X.Type);
    }
    default:
      return fullRange(X.Type);
    }
  });
}

uint32_t WarpEvaluator::rememberRanges(const Stmt &S, uint32_t Lanes) {
  if (S.Value->Kind == Op::Unknown)
    return 0; // The whole range of the type: the default.
  for (uint32_t M = Lanes; M; M &= M - 1) {
    unsigned L = __builtin_ctz(M);
    SlotRange[size_t(S.Slot) * 32 + L] = laneRange(*S.Value, L);
  }
  return Lanes;
}

void WarpEvaluator::boundRequest(const Access &A, uint32_t Mask,
                                 const int64_t *V, uint32_t U) {
  // Bounds only where the address is right but for values the evaluator
  // could not compute: not for unknown control flow or unknown memory, nor
  // for shared atomics (lanes on one word serialise).
  // The analyzer's reason must be the unknown value the evaluation met.
  if (!U || (A.UnknownReason && *A.UnknownReason != LastUnknownReason.Text))
    return;
  if (A.Sp == Space::Global ? !fromPointerParam(*A.Address, K)
                            : A.Kind == AccessKind::Atomic)
    return;
  if (A.Kind == AccessKind::Atomic) {
    // A global atomic request touches a sector at least, and each issuing
    // lane adds at most one (memory_units.h's rule).
    Requests.bounded(
        {A.Id, 1, uint64_t(__builtin_popcount(issuingLanes(A, Mask)))});
    return;
  }
  uint64_t Lo[32], Hi[32];
  for (uint32_t M = Mask; M; M &= M - 1) {
    unsigned L = __builtin_ctz(M);
    if (!(U >> L & 1)) {
      Lo[L] = Hi[L] = uint64_t(V[L]);
      continue;
    }
    ValueRange R = valueRange(laneRange(*A.Address, L), A.Address->Type);
    Lo[L] = uint64_t(R.Lo);
    Hi[L] = uint64_t(R.Hi);
  }
  UnitBounds B =
      A.Sp == Space::Global
          ? globalBounds(Arch.globalBytes(A.Kind), Lo, Hi, Mask, A.Size)
          : sharedBounds(Arch, Lo, Hi, Mask, A.Size,
                         A.Kind == AccessKind::Load);
  Requests.bounded({A.Id, B.Min, B.Max});
}

} // namespace gmem
