//===- program.h - One program from several translation units -------------===//
//
// A program whose main() is in one file (main.cpp) and whose kernels and
// launch wrappers are in others (kernels.cu): every file is parsed, the
// kernels of all of them are translated, and the definitions that the
// file holding main() only declares are imported into it from the others
// (matched by mangled name, as the linker would), so that the host
// interpreter follows main() through the wrappers to their launches.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_PROGRAM_H
#define GMEM_ANALYZER_PROGRAM_H

#include "frontend.h"
#include "host_launches.h"
#include "translate.h"
#include "clang/Frontend/ASTUnit.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace gmem {

struct Program {
  std::vector<std::unique_ptr<clang::ASTUnit>> Units; ///< One per file.
  size_t MainUnit = 0; ///< The unit that defines main() (0 if none does).
  bool HasMain = false;
  Module M; ///< Kernels of every unit; launches from main().
  /// Per unit, the names of the kernels of M it defines.
  std::vector<std::vector<std::string>> UnitKernels;
  std::vector<std::string> Warnings;
  /// Host code Clang rejected, per message (nvcc may accept it).
  std::vector<std::string> HostErrors;
};

/// Parses Files (each as CUDA, with Opts) and, unless FindLaunches is
/// false (the launches are recorded instead), interprets the host code for
/// the program's launches. Fails when a file does not parse, or when
/// several define main().
llvm::Expected<Program> analyzeProgram(const std::vector<std::string> &Files,
                                       const FrontendOptions &Opts,
                                       const LaunchOverrides &Overrides,
                                       bool FindLaunches = true);

/// The second half of analyzeProgram: interprets the host code of a
/// program parsed without FindLaunches, for its launches.
void interpretLaunches(Program &P, const std::vector<std::string> &Files,
                       const FrontendOptions &Opts,
                       const LaunchOverrides &Overrides);

} // namespace gmem

#endif // GMEM_ANALYZER_PROGRAM_H
