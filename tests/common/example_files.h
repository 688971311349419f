//===- example_files.h - The examples, as one test each ---------*- C++ -*-===//
//
// Suites that check every program in examples/ instantiate one test per
// file, so that ctest or GoogleTest's shards spread them over the cores.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_TESTS_COMMON_EXAMPLE_FILES_H
#define GMEM_TESTS_COMMON_EXAMPLE_FILES_H

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

namespace gmem::test {

/// The names of Dir's .cu files, sorted, without Except.
inline std::vector<std::string> cudaFiles(const std::string &Dir,
                                          const std::string &Except = "") {
  std::vector<std::string> Names;
  for (const auto &E : std::filesystem::directory_iterator(Dir))
    if (E.path().extension() == ".cu" && E.path().filename() != Except)
      Names.push_back(E.path().filename().string());
  std::sort(Names.begin(), Names.end());
  return Names;
}

/// A test name for a file: its stem, with '_' for what GoogleTest refuses.
inline std::string testNameOf(const std::string &File) {
  std::string N = std::filesystem::path(File).stem().string();
  for (char &C : N)
    if (!std::isalnum(static_cast<unsigned char>(C)))
      C = '_';
  return N;
}

} // namespace gmem::test

#endif
