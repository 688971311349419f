//===- block_classes.h - The two warp sources behind simulate() -----------===//
//
// Exhaustive: every warp of every block through WarpEvaluator (the
// reference). Classes: BoxEvaluator over boxes of blocks that behave alike,
// cutting boxes where they do not, and every warp one by one only where no
// affine description exists. Both fill the same Collected, so simulate()
// turns either into a LaunchResult the same way.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_SIMULATOR_BLOCK_CLASSES_H
#define GMEM_SIMULATOR_BLOCK_CLASSES_H

#include "box_eval.h"
#include "progress.h"
#include "simulate.h"

#include <chrono>

namespace gmem {

struct Collected {
  std::vector<AccessStats> Stats;
  /// Per access, the launch's first faulting lane (smallest Order).
  std::vector<OrderedExample> OutOfBounds, Misaligned;
  uint64_t Evaluated = 0; ///< Warps (or box runs) evaluated.
  uint64_t Derived = 0;   ///< Warps counted from a box run of another.
  std::string Incomplete; ///< Why the work stopped early, if it did.

  void init(size_t Accesses);
  void add(const Collected &O);
  void keep(std::vector<OrderedExample> &Into,
            const std::vector<OrderedExample> &From);
};

/// SimOptions::BudgetSeconds from the moment the simulation started.
class Budget {
public:
  explicit Budget(const SimOptions &O);
  bool passed() const;
  /// Why a launch stopped there, having evaluated Done of Total warps.
  std::string why(uint64_t Done, uint64_t Total) const;

private:
  double Seconds;
  std::chrono::steady_clock::time_point Start;
};

/// Runs warp W of every block of Box with E (which counts into Stats) and
/// adds the counts and E's first faults to C.
void runEveryWarp(WarpEvaluator &E, std::vector<AccessStats> &Stats,
                  const BlockBox &Box, unsigned W, Collected &C);

Collected simulateByClasses(const Kernel &K, const ArchRules &A,
                            const LaunchEnv &Env, const SimOptions &O,
                            Progress &P);

} // namespace gmem

#endif // GMEM_SIMULATOR_BLOCK_CLASSES_H
