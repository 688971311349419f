//===- frontend.h - Parse a .cu file with Clang 19 ------------------------===//
//
// Parses CUDA as nvcc users write it (host code included), either against a
// CUDA installation or, without one, against the project's stand-in headers
// in analyzer/cuda_stub/. Clang's diagnostics go to stderr.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_FRONTEND_H
#define GMEM_ANALYZER_FRONTEND_H

#include "clang/Frontend/ASTUnit.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <string>
#include <vector>

namespace gmem {

struct FrontendOptions {
  /// Empty: use /usr/local/cuda (or $CUDA_PATH) when it exists, else the
  /// stand-in headers. "none": always the stand-in headers.
  std::string CudaPath;
  std::string Arch = "sm_90";
  std::vector<std::string> ExtraArgs; ///< Passed to Clang after ours.
};

/// Parses Path for the device side (host functions are still in the AST).
/// Fails, after Clang has printed its diagnostics, when the file has errors.
/// The AST, or an error naming the file, the line and what to do; fails on
/// any Clang error.
llvm::Expected<std::unique_ptr<clang::ASTUnit>>
parseCudaFile(const std::string &Path, const FrontendOptions &Opts);

/// What Clang recovered from a file with (non-fatal) errors: the AST and
/// the lines of the main file its errors are on, so that code away from
/// them can still be analysed.
struct ParsedFile {
  std::unique_ptr<clang::ASTUnit> AST;
  unsigned Errors = 0;
  std::vector<unsigned> ErrorLines;
};

/// Like parseCudaFile, but keeps the AST after errors Clang recovers from.
/// Fails on files that are not source text (empty, binary, too large), on
/// fatal errors (a missing include) and when no AST was built.
llvm::Expected<ParsedFile> parseCudaFileRecovering(const std::string &Path,
                                                   const FrontendOptions &Opts);

} // namespace gmem

#endif // GMEM_ANALYZER_FRONTEND_H
