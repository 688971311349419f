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
#include <set>
#include <string>
#include <vector>

namespace gmem {

struct Program {
  std::vector<std::unique_ptr<clang::ASTUnit>> Units; ///< One per file.
  std::vector<std::string> UnitFiles; ///< The file of each unit.
  /// Files Clang could not parse, with its error, when launches are to be
  /// recorded (FindLaunches false): nvcc may still build them, and then
  /// only their kernels are missing. Else a parse error fails the call.
  std::vector<std::pair<std::string, std::string>> Unparsed;
  /// Device code Clang rejects in a file it otherwise parsed, when
  /// launches are to be recorded: the kernels it reaches have no model
  /// (nvcc may still build them). Else such an error fails the call.
  struct DeviceCodeErrors {
    std::string File;
    std::vector<std::string> Errors; ///< "file:line: message" each.
    std::string Printed;             ///< Clang's diagnostics, as printed.
    std::string Failure;             ///< The file's error where nvcc fails too.
    std::vector<std::string> Kernels; ///< Without a model, by name.
  };
  std::vector<DeviceCodeErrors> DeviceErrors;
  /// Runtime calls CUDA 13 removed that the program makes (the build maps
  /// them onto their replacements: gmem_removed_apis.h).
  std::set<std::string> RemovedApis;
  bool UsesOpenMp = false; ///< Some unit includes <omp.h>.
  size_t MainUnit = 0; ///< The unit that defines main() (0 if none does).
  bool HasMain = false;
  Module M; ///< Kernels of every unit; launches from main().
  /// Per unit, the names of the kernels of M it defines.
  std::vector<std::vector<std::string>> UnitKernels;
  std::vector<std::string> Warnings;
  /// Host code Clang rejected, per message (nvcc may accept it).
  std::vector<std::string> HostErrors;
};

/// Parses Files (each as CUDA, .c files as C, with Opts) and, unless
/// FindLaunches is false (the launches are recorded instead), interprets
/// the host code for the program's launches. Fails when several files
/// define main(), or when a file does not parse (with FindLaunches false:
/// only when none does; see Program::Unparsed).
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
