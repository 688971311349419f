//===- translate.h - Kernel bodies and host launches to the kernel model --===//
#ifndef GMEM_ANALYZER_TRANSLATE_H
#define GMEM_ANALYZER_TRANSLATE_H

#include "model.h"
#include "clang/AST/ASTContext.h"
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace gmem {

/// Every __global__ kernel of the translation unit, template specialisations
/// included (named "name<args>"), each turned into the kernel model, but
/// those in Skip (code Clang could not parse). Implemented in
/// kernel_translator.cpp.
std::vector<Kernel>
translateKernels(clang::ASTContext &Ctx,
                 const std::set<const clang::FunctionDecl *> &Skip = {});

/// What the command line says about launches.
struct LaunchOverrides {
  std::optional<Dim3> Block; ///< Replaces the block of every host launch,
                             ///< before host code derives grids from it.
  std::optional<Dim3> Grid;
  std::optional<uint64_t> DynamicSmem;
  std::map<std::string, std::string> Args; ///< --arg NAME=VALUE.
  /// --run-args: main() runs as if given these arguments (none by default;
  /// argv[0] is the program's name, the stem of main's file).
  std::vector<std::string> RunArgs;
  /// --sm-count: the number of SMs cudaGetDeviceProperties reports (boards
  /// of one architecture differ; unknown without it).
  std::optional<unsigned> SmCount;
};

} // namespace gmem

#endif // GMEM_ANALYZER_TRANSLATE_H
