//===- test_paths.h - Where the importer tests find their files -----------===//
#ifndef GMEM_TESTS_GPU_TEST_PATHS_H
#define GMEM_TESTS_GPU_TEST_PATHS_H

#include <string>

namespace gmem {
namespace test {

/// A recorded file in tests/data/imports.
inline std::string importFile(const std::string &Name) {
  return std::string(GMEM_IMPORTS_DIR) + "/" + Name;
}

/// The H200 Nsight Compute export of examples/seeds_gt.cu.
inline std::string groundTruthCsv() {
  return std::string(GMEM_SOURCE_DIR) + "/tests/data/groundtruth/h200_ncu_seeds.csv";
}

} // namespace test
} // namespace gmem

#endif // GMEM_TESTS_GPU_TEST_PATHS_H
