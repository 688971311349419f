//===- call_args.h - A call's arguments and result, lane by lane ----------===//
//
// The functions the executor runs itself instead of PTX (printf, malloc,
// the device runtime) read their arguments from the caller's parameter
// area, where nvcc's call sequence stored them, and leave their result
// there, lane by lane.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_EXECUTOR_CALL_ARGS_H
#define GMEM_EXECUTOR_CALL_ARGS_H

#include "machine.h"

#include <algorithm>
#include <cstring>

namespace gmem::exec {

class CallArgs {
public:
  CallArgs(Ctx &C, const CallInfo &CI)
      : C(C), CI(CI), PB(C.Fr->Fn->ParamBytes) {}

  /// Argument K's bytes of lane L into Out (up to N, zeros beyond the
  /// argument); whether they are all known.
  bool bytes(unsigned L, size_t K, void *Out, unsigned N) const {
    std::memset(Out, 0, N);
    if (K >= CI.Args.size())
      return false;
    const auto [Off, Size] = CI.Args[K];
    const size_t At = size_t(L) * PB + Off;
    const unsigned M = std::min(N, Size);
    std::memcpy(Out, &C.Fr->Params[At], M);
    for (unsigned B = 0; B < M; ++B)
      if (!C.Fr->ParamKnown[At + B])
        return false;
    return true;
  }
  /// Argument K of lane L as an integer; Known is cleared where it is not.
  uint64_t value(unsigned L, size_t K, bool &Known) const {
    uint64_t V = 0;
    Known &= bytes(L, K, &V, 8);
    return V;
  }
  uint64_t value(unsigned L, size_t K) const {
    bool Known = true;
    return value(L, K, Known);
  }
  /// Lane L's result; unknown where an unknown value decided that the lane
  /// made the call.
  void ret(unsigned L, uint64_t V) const {
    if (CI.Rets.empty())
      return;
    const auto [Off, Size] = CI.Rets[0];
    const size_t At = size_t(L) * PB + Off;
    const unsigned N = std::min(8u, Size);
    std::memcpy(&C.Fr->Params[At], &V, N);
    std::memset(&C.Fr->ParamKnown[At], !(C.RegTaint >> L & 1), N);
  }

private:
  Ctx &C;
  const CallInfo &CI;
  unsigned PB;
};

} // namespace gmem::exec

#endif // GMEM_EXECUTOR_CALL_ARGS_H
