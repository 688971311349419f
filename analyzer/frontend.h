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
#include <set>
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

/// Errors Clang found in device code of a file nvcc may still build:
/// where each is, what it says, and Clang's diagnostics as printed.
struct DeviceErrors {
  std::vector<std::pair<clang::SourceLocation, std::string>> Errors;
  std::string Printed; ///< At most its first 40 lines.
  std::string Failure; ///< What the file fails with where nvcc does too.
};

/// Parses Path for the device side (host functions are still in the AST).
/// Fails, after Clang has printed its diagnostics, when the file has errors,
/// except, when HostErrors is given, errors that all lie in the bodies of
/// host-only functions: they are listed there ("file:line: message") and the
/// AST is returned, its kernels intact. With Device given too, errors in
/// device code do not fail either: they are listed there (the kernels they
/// reach have no model; kernelsReaching names them) and nothing is printed.
llvm::Expected<std::unique_ptr<clang::ASTUnit>>
parseCudaFile(const std::string &Path, const FrontendOptions &Opts,
              std::vector<std::string> *HostErrors = nullptr,
              DeviceErrors *Device = nullptr);

/// The kernels whose code (their bodies and the functions they call) holds
/// one of Errors' locations (all of which lie in functions' bodies).
std::set<const clang::FunctionDecl *>
kernelsReaching(clang::ASTContext &Ctx, const DeviceErrors &Errors);

} // namespace gmem

#endif // GMEM_ANALYZER_FRONTEND_H
