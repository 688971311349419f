//===- frontend.cpp - Parse a .cu file with Clang 19 ----------------------===//
//
// One device-side parse (--cuda-device-only): kernels and device functions get
// their device semantics, and host code, main() included, is still in the
// AST for the launch finder.
//
//===----------------------------------------------------------------------===//
#include "frontend.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>

#ifndef GMEM_CLANG_RESOURCE_DIR
#error "GMEM_CLANG_RESOURCE_DIR must name Clang 19's resource directory"
#endif
#ifndef GMEM_CUDA_STUB_DIR
#error "GMEM_CUDA_STUB_DIR must name analyzer/cuda_stub"
#endif

namespace gmem {

namespace {

/// Where the CUDA headers come from: an installation, or our stand-ins.
std::string findCudaPath(const FrontendOptions &Opts) {
  if (Opts.CudaPath == "none")
    return "";
  if (!Opts.CudaPath.empty())
    return Opts.CudaPath;
  if (const char *Env = std::getenv("CUDA_PATH"))
    if (llvm::sys::fs::is_directory(std::string(Env) + "/include"))
      return Env;
  if (llvm::sys::fs::exists("/usr/local/cuda/include/cuda_runtime.h"))
    return "/usr/local/cuda";
  return "";
}

std::vector<std::string> clangArgs(const FrontendOptions &Opts) {
  std::string Stub = GMEM_CUDA_STUB_DIR;
  std::vector<std::string> Args = {
      "-x", "cuda", "--cuda-gpu-arch=" + Opts.Arch, "--cuda-device-only",
      "-std=c++17", "-resource-dir", GMEM_CLANG_RESOURCE_DIR,
      // Only errors matter to the analyzer; warnings would bury them.
      "-w"};
  std::string Cuda = findCudaPath(Opts);
  if (!Cuda.empty()) {
    // CUDA 13 removed texture_fetch_functions.h, which Clang 19's wrapper
    // still includes: compat/ holds an empty one.
    Args.insert(Args.end(),
                {"--cuda-path=" + Cuda, "-Wno-unknown-cuda-version", "-isystem",
                 Cuda + "/include/cccl", "-isystem", Stub + "/compat",
                 // nvcc's headers make host printf visible without <cstdio>.
                 "-include", "stdio.h",
                 // Intrinsics Clang's CUDA wrapper does not declare.
                 "-include", "gmem_cache_hints.h"});
  } else {
    Args.insert(Args.end(), {"-nocudainc", "-nocudalib", "-isystem", Stub,
                             "-include", "cuda_runtime.h"});
  }
  Args.insert(Args.end(), Opts.ExtraArgs.begin(), Opts.ExtraArgs.end());
  return Args;
}

/// Clang's diagnostics, one line each, remembering the lines of the main
/// file that have errors.
class LinePrinter : public clang::TextDiagnosticPrinter {
public:
  using TextDiagnosticPrinter::TextDiagnosticPrinter;
  std::vector<unsigned> ErrorLines;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override {
    TextDiagnosticPrinter::HandleDiagnostic(Level, Info);
    if (Level < clang::DiagnosticsEngine::Error || !Info.hasSourceManager() ||
        Info.getLocation().isInvalid())
      return;
    const clang::SourceManager &SM = Info.getSourceManager();
    clang::SourceLocation L = SM.getExpansionLoc(Info.getLocation());
    llvm::SmallString<128> Text;
    Info.FormatDiagnostic(Text);
    if (Text.str().contains("reference to __global__ function"))
      llvm::errs() << SM.getFilename(L) << ":" << SM.getExpansionLineNumber(L)
                   << ": note: a kernel launched from device code (dynamic "
                      "parallelism) cannot be compiled by Clang's CUDA front "
                      "end: the kernel that launches it is skipped\n";
    if (SM.isWrittenInMainFile(L))
      ErrorLines.push_back(SM.getExpansionLineNumber(L));
  }
};

/// Files gmem reads as source: more is surely not a hand-written .cu file.
constexpr uint64_t MaxSourceBytes = uint64_t(64) << 20;

llvm::Error badFile(const std::string &Path, unsigned Line,
                    const std::string &What) {
  return llvm::createStringError(std::errc::invalid_argument, "%s:%u: %s",
                                 Path.c_str(), Line, What.c_str());
}

/// Input that is not CUDA source text at all: say so before Clang does.
llvm::Error checkSourceText(const std::string &Path, llvm::StringRef Text) {
  if (Text.size() > MaxSourceBytes)
    return badFile(Path, 1,
                   "the file has " + std::to_string(Text.size() >> 20) +
                       " MiB, more than the 64 MiB of source gmem reads; "
                       "give the .cu file that holds the kernels");
  if (Text.find_first_not_of(" \t\r\n\f\v") == llvm::StringRef::npos)
    return badFile(Path, 1,
                   "the file is empty; give the .cu file that holds the "
                   "kernels");
  size_t Nul = Text.find('\0');
  if (Nul != llvm::StringRef::npos)
    return badFile(Path, 1 + Text.take_front(Nul).count('\n'),
                   "binary data (a NUL byte), not CUDA source; give the .cu "
                   "source file, not a compiled or binary one");
  return llvm::Error::success();
}

} // namespace

llvm::Expected<ParsedFile>
parseCudaFileRecovering(const std::string &Path, const FrontendOptions &Opts) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "%s: cannot read: %s",
                                   Path.c_str(),
                                   Buffer.getError().message().c_str());
  if (llvm::Error E = checkSourceText(Path, (*Buffer)->getBuffer()))
    return std::move(E);

  auto DiagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  DiagOpts->ShowColors = false;
  // One line per diagnostic, and not a flood of them.
  DiagOpts->ShowCarets = false;
  DiagOpts->ShowFixits = false;
  DiagOpts->ShowSourceRanges = false;
  DiagOpts->ErrorLimit = 20;
  LinePrinter Printer(llvm::errs(), DiagOpts.get());
  ParsedFile F;
  F.AST = clang::tooling::buildASTFromCodeWithArgs(
      (*Buffer)->getBuffer(), clangArgs(Opts), Path, "gmem-analyze",
      std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(),
      clang::tooling::FileContentMappings(), &Printer);
  F.Errors = Printer.getNumErrors();
  F.ErrorLines = std::move(Printer.ErrorLines);
  bool Fatal = !F.AST || F.AST->getDiagnostics().hasFatalErrorOccurred();
  if (F.AST && F.AST->getDiagnostics().hasErrorOccurred())
    F.Errors = std::max(F.Errors, 1u);
  if (Fatal || (F.Errors && F.ErrorLines.empty())) {
    // After a fatal error (a missing include) Clang stops reporting: no
    // part of the file can be trusted.
    unsigned Line = F.ErrorLines.empty() ? 1 : F.ErrorLines.front();
    return badFile(Path, Line,
                   std::to_string(std::max(F.Errors, 1u)) +
                       " error(s) above; fix them, or pass the include "
                       "paths and flags the file needs after --");
  }
  return std::move(F);
}

llvm::Expected<std::unique_ptr<clang::ASTUnit>>
parseCudaFile(const std::string &Path, const FrontendOptions &Opts) {
  auto F = parseCudaFileRecovering(Path, Opts);
  if (!F)
    return F.takeError();
  if (F->Errors)
    return badFile(Path, F->ErrorLines.front(),
                   std::to_string(F->Errors) +
                       " error(s) above; fix them or pass the flags the "
                       "file needs after --");
  return std::move(F->AST);
}

} // namespace gmem
