//===- thread_interp.h - Run the model for one thread (tests only) --------===//
//
// A deliberately small reference: one thread, plain C++ integer semantics as
// model.h defines them, so that tests can compare the addresses the model
// yields with the addresses the CUDA code computes for the same thread.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_TESTS_ANALYZER_THREAD_INTERP_H
#define GMEM_TESTS_ANALYZER_THREAD_INTERP_H

#include "model.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gmem::test {

struct ThreadEnv {
  Dim3 Thread, Block, BlockDim{1, 1, 1}, GridDim{1, 1, 1};
  std::map<std::string, int64_t> Params; ///< By name; pointers: address.
};

struct Event {
  int AccessId;
  AccessKind Kind;
  Space Sp;
  std::optional<uint64_t> Addr; ///< Empty when the address is unknown.
  std::string Text;
};

/// Executes K for one thread; Events in execution order. Loops run at most
/// MaxSteps iterations in total (then the run stops with Truncated set).
struct ThreadRun {
  std::vector<Event> Events;
  bool Truncated = false;
  /// Addresses of the accesses whose text is Text, in order.
  std::vector<uint64_t> addresses(const std::string &Text) const;
};
ThreadRun runThread(const Kernel &K, const ThreadEnv &Env,
                    unsigned MaxSteps = 100000);

/// Evaluates E with the given slot values (unknown slots absent).
std::optional<int64_t> evalExpr(const Expr &E, const Kernel &K,
                                const ThreadEnv &Env,
                                const std::map<int, int64_t> &Slots = {});

} // namespace gmem::test

#endif
