//===- guarded.h - Accesses ptxas predicated instead of branching ---------===//
//
// ptxas turns a short branch over plain code into predicated instructions
// (@P0 LDS ...). A warp none of whose lanes would run that code then still
// executes each of them, with no request: the GPU's per-line instruction
// counts include these executions (a tree reduction's `if (tid % (2 * s)
// == 0)`: 6684672 of the 25165824 shared instructions of one line on an
// H200), its request counters do not. An access is Guarded
// (CompiledForm::Guarded) when every SASS instruction of its line and class
// carries a guard; the warp sources count the executions
// (AccessStats::PredicatedOff).
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_COMPILED_GUARDED_H
#define GMEM_ANALYZER_COMPILED_GUARDED_H

#include "model.h"
#include "sass.h"

#include <map>
#include <string>
#include <tuple>

namespace gmem {

/// Per source line (file name, line) and class (space, kind) of F's memory
/// instructions: whether every one is predicated.
class GuardedLines {
public:
  explicit GuardedLines(const SassFunction &F);
  /// Marks A Guarded when its instructions, which the line table puts at
  /// File:Line, are all predicated; only an access that is one instruction
  /// of its own (as written, split, or a merged group's leader).
  void mark(Access &A, const std::string &File, unsigned Line) const;

private:
  using Key = std::tuple<std::string, unsigned, bool, int>;
  std::map<Key, bool> All;
};

} // namespace gmem

#endif // GMEM_ANALYZER_COMPILED_GUARDED_H
