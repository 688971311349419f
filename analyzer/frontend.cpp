//===- frontend.cpp - Parse a .cu file with Clang 19 ----------------------===//
//
// One device-side parse (--cuda-device-only): kernels and device functions get
// their device semantics, and host code, main() included, is still in the
// AST for the launch finder.
//
//===----------------------------------------------------------------------===//
#include "frontend.h"
#include "install_paths.h"
#include "launch_chevrons.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <cstdlib>
#include <functional>
#include <map>

#ifndef GMEM_CLANG_RESOURCE_DIR
#error "GMEM_CLANG_RESOURCE_DIR must name Clang 19's resource directory"
#endif

namespace gmem {

namespace {

/// Where the CUDA headers come from: an installation, or our stand-ins.
/// The toolkit's CUDART_VERSION (13000 for 13.0), 0 when not found.
static unsigned runtimeVersion(const std::string &Cuda) {
  auto Header =
      llvm::MemoryBuffer::getFile(Cuda + "/include/cuda_runtime_api.h");
  if (!Header)
    return 0;
  llvm::StringRef Text = (*Header)->getBuffer();
  const size_t At = Text.find("#define CUDART_VERSION");
  if (At == llvm::StringRef::npos)
    return 0;
  unsigned V = 0;
  Text.substr(At + 22).ltrim().consumeInteger(10, V);
  return V;
}

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

/// The CCCL headers (cuda/std, thrust, cub) of an installation, if any.
std::string findCccl() {
  std::vector<std::string> Roots;
  if (const char *Env = std::getenv("CUDA_PATH"))
    Roots.push_back(Env);
  Roots.push_back("/usr/local/cuda");
  for (const std::string &R : Roots)
    if (llvm::sys::fs::exists(R + "/include/cccl/cuda/std/type_traits"))
      return R + "/include/cccl";
  return "";
}

/// The host compiler's own headers (omp.h): nvcc's host compiler finds
/// them, Clang does not. Empty when there is no g++.
const std::string &hostCompilerIncludeDir() {
  static const std::string Dir = [] {
    auto Gxx = llvm::sys::findProgramByName("g++");
    llvm::SmallString<128> Out;
    if (!Gxx || llvm::sys::fs::createTemporaryFile("gmem-gxx", "txt", Out))
      return std::string();
    std::optional<llvm::StringRef> Redirects[] = {
        std::nullopt, llvm::StringRef(Out), llvm::StringRef("")};
    int RC = llvm::sys::ExecuteAndWait(*Gxx, {*Gxx, "-print-file-name=include"},
                                       std::nullopt, Redirects, 10);
    auto Text = llvm::MemoryBuffer::getFile(Out);
    llvm::sys::fs::remove(Out);
    if (RC != 0 || !Text)
      return std::string();
    std::string D = (*Text)->getBuffer().trim().str();
    return llvm::sys::fs::exists(D + "/omp.h") ? D : std::string();
  }();
  return Dir;
}

/// A C file (nvcc builds .c files as host C): parsed as C, with the CUDA
/// runtime's headers and the removed calls' compatibility header. Old C
/// that GCC 12, nvcc's host compiler here, accepts with a warning (implicit
/// int, undeclared functions, int/pointer conversions: Rodinia's backprop)
/// is accepted too; Clang 19 makes those errors.
std::vector<std::string> cArgs(const FrontendOptions &Opts,
                               const std::string &Cuda) {
  std::vector<std::string> Args = {"-x",
                                   "c",
                                   "-std=gnu11",
                                   "-resource-dir",
                                   GMEM_CLANG_RESOURCE_DIR,
                                   "-w",
                                   "-Wno-error=implicit-int",
                                   "-Wno-error=implicit-function-declaration",
                                   "-Wno-error=int-conversion",
                                   "-Wno-error=incompatible-pointer-types",
                                   "-Wno-error=return-type"};
  if (!Cuda.empty())
    Args.insert(Args.end(),
                {"-isystem", Cuda + "/include", "-isystem",
                 cudaStubDir() + "/compat", "-include", "gmem_removed_apis.h"});
  if (!hostCompilerIncludeDir().empty())
    Args.insert(Args.end(), {"-idirafter", hostCompilerIncludeDir()});
  // A C++ standard given for the program's .cu files is not C's.
  for (const std::string &A : Opts.ExtraArgs)
    if (!llvm::StringRef(A).starts_with("-std="))
      Args.push_back(A);
  return Args;
}

std::vector<std::string> clangArgs(const FrontendOptions &Opts) {
  std::string Stub = cudaStubDir();
  // Clang 19 knows no architecture past sm_90, and CUDA 13's headers none
  // before sm_50: those parse as sm_90 or sm_50 with their own
  // __CUDA_ARCH__ (the memory rules come from ArchRules). A mode after the
  // name ("sm_35:8") is ArchRules' alone.
  std::string Arch = Opts.Arch.substr(0, Opts.Arch.find(':'));
  unsigned Sm = 0;
  if (Arch.rfind("sm_", 0) == 0)
    Sm = unsigned(std::strtoul(Arch.c_str() + 3, nullptr, 10));
  const bool OwnArch = Sm > 90 || (Sm && Sm < 50);
  std::vector<std::string> Args = {
      "-x", "cuda",
      "--cuda-gpu-arch=" + (Sm > 90   ? "sm_90"
                            : OwnArch ? "sm_50"
                                      : Arch),
      "--cuda-device-only", "-std=c++17", "-resource-dir",
      GMEM_CLANG_RESOURCE_DIR,
      // Only errors matter to the analyzer; warnings would bury them.
      "-w",
      // nvcc's host compiler (GCC) warns about `register` in C++17 and
      // builds the code; Clang makes it an error.
      "-Wno-register"};
  if (OwnArch)
    Args.insert(Args.end(), {"-U__CUDA_ARCH__",
                             "-D__CUDA_ARCH__=" + std::to_string(Sm * 10)});
  // nvcc defines the list of architectures it compiles for; CUB names its
  // namespace after it (CUB_300001_SM_900), so kernels' mangled names
  // match nvcc's only with it.
  if (Sm)
    Args.push_back("-D__CUDA_ARCH_LIST__=" + std::to_string(Sm * 10));
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
                 "-include", "gmem_cache_hints.h", "-include",
                 "gmem_surface_functions.h",
                 // Runtime calls CUDA 13 removed, as the nvcc build gets them.
                 "-include", "gmem_removed_apis.h",
                 // nvcc defines __NVCC__, on which CUDA 13's headers make
                 // cooperative_groups::cluster_group; Clang does not.
                 "-D_CG_CLUSTER_INTRINSICS_AVAILABLE"});
    // nvcc's version, which code tests to choose between APIs (thrust's
    // iterators where CUDA 13 removed CUB's); Clang does not define it.
    if (unsigned V = runtimeVersion(Cuda))
      Args.insert(Args.end(),
                  {"-D__CUDACC_VER_MAJOR__=" + std::to_string(V / 1000),
                   "-D__CUDACC_VER_MINOR__=" + std::to_string(V % 1000 / 10)});
  } else {
    Args.insert(Args.end(), {"-nocudainc", "-nocudalib", "-isystem", Stub,
                             "-include", "cuda_runtime.h"});
    // <cuda/std/...>, thrust and cub come from an installation's CCCL when
    // there is one; the stand-ins cover the rest of what they need.
    std::string Cccl = findCccl();
    if (!Cccl.empty())
      Args.insert(Args.end(), {"-isystem", Cccl,
                               // The stand-ins have no half types.
                               "-DCCCL_DISABLE_FP16_SUPPORT"});
  }
  // Host min/max as nvcc declares them.
  Args.insert(Args.end(), {"-include", Stub + "/compat/gmem_host_math.h"});
  // Headers of the host compiler's own (omp.h), after Clang's.
  if (!hostCompilerIncludeDir().empty())
    Args.insert(Args.end(), {"-idirafter", hostCompilerIncludeDir()});
  Args.insert(Args.end(), Opts.ExtraArgs.begin(), Opts.ExtraArgs.end());
  return Args;
}

/// Prints Clang's diagnostics and keeps where each error is.
class ErrorRecorder : public clang::TextDiagnosticPrinter {
public:
  using TextDiagnosticPrinter::TextDiagnosticPrinter;
  std::vector<std::pair<clang::FullSourceLoc, std::string>> Errors;
  void HandleDiagnostic(clang::DiagnosticsEngine::Level L,
                        const clang::Diagnostic &D) override {
    TextDiagnosticPrinter::HandleDiagnostic(L, D);
    if (L < clang::DiagnosticsEngine::Error)
      return;
    llvm::SmallString<128> Text;
    D.FormatDiagnostic(Text);
    clang::FullSourceLoc Loc;
    if (D.hasSourceManager() && D.getLocation().isValid())
      Loc = clang::FullSourceLoc(
          D.getSourceManager().getExpansionLoc(D.getLocation()),
          D.getSourceManager());
    Errors.emplace_back(Loc, Text.str().str());
  }
};

/// Host-only function definitions, with their bodies' ranges.
class HostBodies : public clang::RecursiveASTVisitor<HostBodies> {
public:
  std::vector<clang::SourceRange> Host, Device;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(clang::FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() || !FD->getBody())
      return true;
    bool Device = FD->hasAttr<clang::CUDAGlobalAttr>() ||
                  FD->hasAttr<clang::CUDADeviceAttr>();
    (Device ? this->Device : Host).push_back(FD->getBody()->getSourceRange());
    return true;
  }
};

/// Where an error lies: outside every function body, in a host-only
/// function's, or in device code.
enum class ErrorPlace { Outside, Host, Device };

std::vector<ErrorPlace> placesOf(
    clang::ASTContext &Ctx,
    const std::vector<std::pair<clang::FullSourceLoc, std::string>> &Errors) {
  HostBodies B;
  B.TraverseDecl(Ctx.getTranslationUnitDecl());
  const clang::SourceManager &SM = Ctx.getSourceManager();
  auto Inside = [&](clang::SourceLocation L, clang::SourceRange R) {
    clang::SourceLocation Begin = SM.getExpansionLoc(R.getBegin());
    clang::SourceLocation End = SM.getExpansionLoc(R.getEnd());
    return SM.isWrittenInSameFile(Begin, L) &&
           !SM.isBeforeInTranslationUnit(L, Begin) &&
           !SM.isBeforeInTranslationUnit(End, L);
  };
  std::vector<ErrorPlace> Out;
  for (const auto &[Loc, Message] : Errors) {
    ErrorPlace P = ErrorPlace::Outside;
    if (Loc.isValid()) {
      for (const clang::SourceRange &R : B.Host)
        if (Inside(Loc, R))
          P = ErrorPlace::Host;
      for (const clang::SourceRange &R : B.Device)
        if (Inside(Loc, R))
          P = ErrorPlace::Device;
    }
    Out.push_back(P);
  }
  return Out;
}

/// Whether every error lies in the body of a host-only function: then the
/// kernels (and the device functions they call) are intact.
bool onlyInHostCode(
    clang::ASTContext &Ctx,
    const std::vector<std::pair<clang::FullSourceLoc, std::string>> &Errors) {
  for (ErrorPlace P : placesOf(Ctx, Errors))
    if (P != ErrorPlace::Host)
      return false;
  return true;
}

} // namespace

/// The first N lines of Text, and how many more there were.
static std::string firstLines(const std::string &Text, size_t N) {
  size_t End = 0; // Just past the N-th line.
  for (size_t I = 0; I < N; ++I) {
    const size_t NL = Text.find('\n', End);
    if (NL == std::string::npos)
      return Text;
    End = NL + 1;
  }
  if (End >= Text.size())
    return Text;
  const auto More = std::count(Text.begin() + long(End), Text.end(), '\n');
  return Text.substr(0, End) + "(" + std::to_string(More) +
         " more lines of Clang's diagnostics)\n";
}

/// Files gmem reads as source: more is surely not a hand-written .cu file.
constexpr uint64_t MaxSourceBytes = uint64_t(64) << 20;

static llvm::Error badFile(const std::string &Path, unsigned Line,
                           const std::string &What) {
  return llvm::createStringError(std::errc::invalid_argument, "%s:%u: %s",
                                 Path.c_str(), Line, What.c_str());
}

/// Input that is not CUDA source text at all: say so before Clang does.
static llvm::Error checkSourceText(const std::string &Path,
                                   llvm::StringRef Text) {
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

/// What a file that does not parse fails with: its first error's line in
/// the file itself, the count, and what to do.
static std::string
failure(const std::string &Path, clang::ASTUnit *AST,
        const std::vector<std::pair<clang::FullSourceLoc, std::string>> &Errors,
        unsigned Count) {
  std::string Where = Path;
  bool MissingFile = false;
  for (const auto &[Loc, Message] : Errors)
    MissingFile |= llvm::StringRef(Message).contains("file not found");
  for (const auto &[Loc, Message] : Errors)
    if (AST && Loc.isValid() && AST->getSourceManager().isInMainFile(Loc)) {
      Where += ":" + std::to_string(Loc.getSpellingLineNumber());
      break;
    }
  return Where + ": " + std::to_string(Count) + " error(s) above; fix them" +
         (MissingFile ? ", or pass the include paths and flags the file needs"
                      : " or pass the flags the file needs") +
         " after --";
}

llvm::Expected<std::unique_ptr<clang::ASTUnit>>
parseCudaFile(const std::string &Path, const FrontendOptions &Opts,
              std::vector<std::string> *HostErrors, DeviceErrors *Device) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return llvm::createStringError(Buffer.getError(), "%s: cannot read: %s",
                                   Path.c_str(),
                                   Buffer.getError().message().c_str());
  if (llvm::Error E = checkSourceText(Path, (*Buffer)->getBuffer()))
    return std::move(E);

  auto DiagOpts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  DiagOpts->ShowColors = false;
  // One line per diagnostic, and not a flood of them; where device errors
  // may be left to nvcc, every one is kept (Clang stops parsing at the
  // limit) and printed only if the file fails after all.
  DiagOpts->ShowCarets = false;
  DiagOpts->ShowFixits = false;
  DiagOpts->ShowSourceRanges = false;
  DiagOpts->ErrorLimit = Device ? 0 : 20;
  std::string Held;
  llvm::raw_string_ostream HeldOS(Held);
  ErrorRecorder Printer(Device ? static_cast<llvm::raw_ostream &>(HeldOS)
                               : llvm::errs(),
                        DiagOpts.get());
  std::vector<std::string> Args = llvm::sys::path::extension(Path) == ".c"
                                      ? cArgs(Opts, findCudaPath(Opts))
                                      : clangArgs(Opts);
  if (Device)
    Args.push_back("-ferror-limit=0");
  const std::string Joined = joinSplitChevrons((*Buffer)->getBuffer());
  std::unique_ptr<clang::ASTUnit> AST =
      clang::tooling::buildASTFromCodeWithArgs(
          Joined.empty() ? (*Buffer)->getBuffer() : llvm::StringRef(Joined),
          Args, Path, "gmem-analyze",
          std::make_shared<clang::PCHContainerOperations>(),
          clang::tooling::getClangStripDependencyFileAdjuster(),
          clang::tooling::FileContentMappings(), &Printer);

  unsigned Errors = Printer.getNumErrors();
  if (AST && AST->getDiagnostics().hasErrorOccurred())
    Errors = std::max(Errors, 1u);
  auto Where = [&](const clang::FullSourceLoc &Loc) {
    clang::PresumedLoc P = AST->getSourceManager().getPresumedLoc(Loc);
    return std::string(P.getFilename()) + ":" + std::to_string(P.getLine());
  };
  if (AST && Errors && HostErrors &&
      onlyInHostCode(AST->getASTContext(), Printer.Errors)) {
    // The kernels parsed: analyse them; the caller reports what the host
    // code that did not parse costs (launches it would have made).
    for (const auto &[Loc, Message] : Printer.Errors)
      HostErrors->push_back(Where(Loc) + ": " + Message);
    Errors = 0;
  } else if (AST && Errors && HostErrors && Device) {
    // Device code nvcc may accept (inline PTX's %-names, alignas after
    // __shared__, shared objects with constructors): the kernels it
    // reaches lose their model, the rest stand. An error outside every
    // function (a missing header, an unknown type) stops the file.
    const std::vector<ErrorPlace> Places =
        placesOf(AST->getASTContext(), Printer.Errors);
    if (std::none_of(Places.begin(), Places.end(),
                     [](ErrorPlace P) { return P == ErrorPlace::Outside; })) {
      for (size_t I = 0; I < Places.size(); ++I) {
        const auto &[Loc, Message] = Printer.Errors[I];
        if (Places[I] == ErrorPlace::Host)
          HostErrors->push_back(Where(Loc) + ": " + Message);
        else
          Device->Errors.emplace_back(Loc, Where(Loc) + ": " + Message);
      }
      HeldOS.flush();
      Device->Printed = firstLines(Held, 40);
      Device->Failure = failure(Path, AST.get(), Printer.Errors, Errors);
      Errors = 0;
    }
  }
  if (AST) // The printer goes with this frame.
    AST->getDiagnostics().setClient(new clang::IgnoringDiagConsumer(), true);
  // What was held back is printed unless device errors were left to nvcc
  // (their kernels' warnings say so).
  HeldOS.flush();
  if (!Device || Device->Errors.empty())
    llvm::errs() << firstLines(Held, 40);
  if (!AST || Errors) {
    Errors = std::max(Errors, 1u);
    return llvm::createStringError(
        std::make_error_code(std::errc::invalid_argument),
        failure(Path, AST.get(), Printer.Errors, Errors));
  }
  return std::move(AST);
}

namespace {

/// Functions with bodies, and the functions each calls or constructs with.
class CallGraph : public clang::RecursiveASTVisitor<CallGraph> {
public:
  std::vector<const clang::FunctionDecl *> Kernels;
  std::map<const clang::FunctionDecl *, std::set<const clang::FunctionDecl *>>
      Calls;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }
  bool TraverseFunctionDecl(clang::FunctionDecl *FD) {
    return in(FD,
              [&] { return RecursiveASTVisitor::TraverseFunctionDecl(FD); });
  }
  bool TraverseCXXMethodDecl(clang::CXXMethodDecl *MD) {
    return in(MD,
              [&] { return RecursiveASTVisitor::TraverseCXXMethodDecl(MD); });
  }
  bool TraverseCXXConstructorDecl(clang::CXXConstructorDecl *CD) {
    return in(CD, [&] {
      return RecursiveASTVisitor::TraverseCXXConstructorDecl(CD);
    });
  }
  bool VisitCallExpr(clang::CallExpr *CE) {
    if (Current)
      if (const clang::FunctionDecl *F = CE->getDirectCallee())
        Calls[Current->getCanonicalDecl()].insert(F->getCanonicalDecl());
    return true;
  }
  bool VisitCXXConstructExpr(clang::CXXConstructExpr *CE) {
    if (Current && CE->getConstructor())
      Calls[Current->getCanonicalDecl()].insert(
          CE->getConstructor()->getCanonicalDecl());
    return true;
  }

private:
  const clang::FunctionDecl *Current = nullptr;
  /// Traverses FD's declaration with FD as the caller of what it calls.
  template <class F> bool in(clang::FunctionDecl *FD, F Traverse) {
    const clang::FunctionDecl *Saved = Current;
    if (FD->doesThisDeclarationHaveABody() && FD->getBody()) {
      Current = FD;
      if (FD->hasAttr<clang::CUDAGlobalAttr>())
        Kernels.push_back(FD);
    }
    const bool R = Traverse();
    Current = Saved;
    return R;
  }
};

} // namespace

std::set<const clang::FunctionDecl *>
kernelsReaching(clang::ASTContext &Ctx, const DeviceErrors &Errors) {
  CallGraph G;
  G.TraverseDecl(Ctx.getTranslationUnitDecl());
  const clang::SourceManager &SM = Ctx.getSourceManager();
  auto Inside = [&](clang::SourceLocation L, clang::SourceRange R) {
    L = SM.getExpansionLoc(L);
    clang::SourceLocation Begin = SM.getExpansionLoc(R.getBegin());
    clang::SourceLocation End = SM.getExpansionLoc(R.getEnd());
    return SM.isWrittenInSameFile(Begin, L) &&
           !SM.isBeforeInTranslationUnit(L, Begin) &&
           !SM.isBeforeInTranslationUnit(End, L);
  };
  std::set<const clang::FunctionDecl *> Out;
  // Whether F's code, or code it calls, holds an error (memoized; a cycle
  // of calls holds none that its members do not).
  std::map<const clang::FunctionDecl *, bool> Holds;
  std::function<bool(const clang::FunctionDecl *)> Reaches =
      [&](const clang::FunctionDecl *F) {
        auto [It, New] = Holds.emplace(F, false);
        if (!New)
          return It->second;
        bool H = false;
        if (const clang::Stmt *Body = F->getBody())
          for (const auto &[Loc, Message] : Errors.Errors)
            H |= Inside(Loc, Body->getSourceRange());
        auto C = G.Calls.find(F->getCanonicalDecl());
        if (C != G.Calls.end())
          for (const clang::FunctionDecl *Callee : C->second)
            H = Reaches(Callee) || H;
        return Holds[F] = H;
      };
  for (const clang::FunctionDecl *K : G.Kernels)
    if (Reaches(K))
      Out.insert(K);
  return Out;
}

} // namespace gmem
