//===- fast_path_compare.h - Fast path against the every-warp reference ---===//
#ifndef GMEM_TESTS_FAST_PATH_COMPARE_H
#define GMEM_TESTS_FAST_PATH_COMPARE_H

#include "model.h"
#include "result.h"
#include <string>

namespace gmem::test {

/// Simulates L by classes of blocks and by every warp; returns the first
/// difference in any count, example or diagnostic ("" when equal).
/// Fast, when given, gets the fast path's result.
std::string compareFastPath(const Kernel &K, const Launch &L,
                            LaunchResult *Fast = nullptr);

/// The same difference between two results of one launch.
std::string compareResults(const LaunchResult &Fast, const LaunchResult &Ref);

/// K and L as a small CUDA-like kernel, to reproduce a failing case.
std::string kernelText(const Kernel &K, const Launch &L);

} // namespace gmem::test

#endif
