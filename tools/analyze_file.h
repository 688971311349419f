//===- analyze_file.h - One translation unit, source to results -----------===//
//
// The per-file steps gmem-analyze runs: parse and translate (loadModule),
// then check and simulate the launches (simulateLaunches). The single-file
// command and the gate's loop over files (gate_driver.cpp) both call them.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_TOOLS_ANALYZE_FILE_H
#define GMEM_TOOLS_ANALYZE_FILE_H

#include "arch.h"
#include "options.h"
#include "views.h"

#include "llvm/Support/Error.h"
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace gmem {

/// Parses File (with O's Clang arguments) and fills M with its kernels and
/// the launches its host code makes; Warnings gets what the host code's
/// interpreter could not follow. An error (one line) on failure.
llvm::Error loadModule(const Options &O, const std::string &File,
                       const ArchRules &Arch, Module &M,
                       std::vector<std::string> &Warnings);
/// The same for the files of one program (program.h): main() in one of
/// them, launch wrappers and kernels in the others.
llvm::Error loadModule(const Options &O, const std::vector<std::string> &Files,
                       const ArchRules &Arch, Module &M,
                       std::vector<std::string> &Warnings);

/// The recording runtime's folder: installed beside the binary, else in the
/// build tree (install_paths.h); empty when gmem was built without one.
std::string recordRuntimeDir();

/// What gmem reports for a launch of M: the kernel model simulated, or the
/// launch run on its PTX (--path, analyze_file.cpp's executedPath), with one
/// parsed PTX program kept for every launch.
class Predictor {
public:
  Predictor(const Module &M, const Options &O);
  ~Predictor();
  LaunchResult predict(const Kernel &K, const Launch &L, const ArchRules &A);

private:
  const Module &M;
  const Options &O;
  std::unique_ptr<class ExecutedProgram> Exec;
  std::set<std::string> Noted; ///< Kernels whose ModelNotes were shown.
};

/// Checks and simulates Launches of M into Rep (which must not outlive M:
/// results point at its kernels). A launch repeated with the same
/// configuration is simulated once. An error on a bad launch.
llvm::Error simulateLaunches(const Module &M,
                             const std::vector<Launch> &Launches,
                             const Options &O, const ArchRules &Arch,
                             Report &Rep);

} // namespace gmem

#endif // GMEM_TOOLS_ANALYZE_FILE_H
