//===- unknowns.h - What an unknown request adds, and why -----------------===//
//
// Both warp sources (every warp, and boxes of alike blocks) make requests
// unknown for the same reasons and count them the same way: here, once.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_UNKNOWNS_H
#define GMEM_SIMULATOR_UNKNOWNS_H

#include "exits.h"
#include "result.h"
#include <string>

namespace gmem {

/// N unknown requests of an access (N alike blocks), W saying why; the
/// first reason seen is kept with where (Order, as StrideOrder) it was.
inline void addUnknownRequests(AccessStats &St, const Why &W, uint64_t N,
                               uint64_t Order) {
  St.UnknownRequests += N;
  if (W.Cause == UnknownCause::PointerOverflow)
    St.OverflowRequests += N;
  if (St.UnknownReason.empty()) {
    St.UnknownReason = W.Text;
    St.ReasonCause = W.Cause;
    St.ReasonOrder = Order;
  }
}

/// A variable assigned by code that some lanes skipped for reason W
/// ("it runs under a condition that ..."): "it is assigned in code that
/// runs under a condition that ...".
inline Why assignedUnder(const Why &W) {
  return {W.Cause, "it is assigned in code that " + W.Text.substr(3)};
}

/// Lanes that cannot tell whether they run code A and B, because a
/// condition is unknown for them (W): every access there is unknown and
/// uncounted for them, every variable assigned there unknown, and where A
/// could return or leave a loop, their path is uncertain from here on. At a
/// loop's condition (InLoop; A its body, B its step) lanes that stop are
/// past the loop when it ends: leaving it does not count.
template <typename Evaluator>
void skipUnknownCode(Evaluator &Ev, uint32_t Lanes, const Why &W,
                     const std::vector<Stmt> &A, const std::vector<Stmt> &B,
                     bool InLoop) {
  Ev.poison(A, W);
  Ev.poison(B, W);
  Ev.forgetAssigned(A, Lanes, W);
  Ev.forgetAssigned(B, Lanes, W);
  Exits E;
  exitsOf(A, E);
  if (InLoop)
    E.Leave = false;
  else
    exitsOf(B, E);
  Ev.Unc.mark(Lanes, E, W);
}

// The evaluators' own reasons.
inline Why unknownParameter() { return unmodelled("unknown parameter"); }
inline Why usedBeforeAssigned(const std::string &Slot) {
  return unmodelled("'" + Slot + "' is used before it is assigned");
}
inline Why unsupportedOperator() {
  return unmodelled("unsupported operator in the kernel model");
}
inline Why endlessLoop() {
  return unmodelled("its loop never ends (the condition is always true and "
                    "nothing leaves the loop)");
}
/// Loops that run longer than this for one warp are reported, not finished.
constexpr uint64_t MaxLoopIterations = uint64_t(1) << 26;
inline Why unfinishedLoop(uint64_t Iterations) {
  return unmodelled("its loop did not finish after " +
                    std::to_string(Iterations) + " iterations for one warp");
}
inline Why pastAddressSpace() {
  return unmodelled("its address runs past the end of the 64-bit address "
                    "space (a negative or out-of-range index)");
}
inline Why sharedAtomics() {
  return unmodelled("shared-memory atomics are not modelled (lanes that hit "
                    "the same word are serialised)");
}

} // namespace gmem

#endif // GMEM_SIMULATOR_UNKNOWNS_H
