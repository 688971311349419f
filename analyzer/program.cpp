//===- program.cpp - One program from several translation units -----------===//
#include "program.h"
#include "kernel_names.h"
#include "clang/AST/ASTImporter.h"
#include "clang/AST/ASTImporterSharedState.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"
#include <map>
#include <set>

using namespace clang;

namespace gmem {

namespace {

/// Functions declared or defined in the user's files of Ctx (not in system
/// headers), at namespace scope.
void userFunctions(const DeclContext *DC, const SourceManager &SM,
                   std::vector<const FunctionDecl *> &Out) {
  for (const Decl *D : DC->decls()) {
    if (const auto *NS = dyn_cast<NamespaceDecl>(D)) {
      userFunctions(NS, SM, Out);
    } else if (const auto *LS = dyn_cast<LinkageSpecDecl>(D)) {
      userFunctions(LS, SM, Out);
    } else if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (!SM.isInSystemHeader(FD->getLocation()) && !FD->isDependentContext())
        Out.push_back(FD);
    } else if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D)) {
      // A template's instances are not among DC's declarations: those this
      // file calls (reduce<int>, declared only) and those it instantiates
      // (template void reduce<int>(...);). Taken once, from the first
      // declaration of the template.
      if (FT->isCanonicalDecl() && !SM.isInSystemHeader(FT->getLocation()))
        for (const FunctionDecl *Spec : FT->specializations())
          Out.push_back(Spec);
    }
  }
}

/// Takes the bodies off device code while host code is imported: only the
/// kernels' declarations are needed there (their models are made in their
/// own unit), and the importer cannot copy device built-ins (threadIdx.x).
class DeviceBodies : public RecursiveASTVisitor<DeviceBodies> {
public:
  std::vector<std::pair<FunctionDecl *, clang::Stmt *>> Taken;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    bool Device =
        FD->hasAttr<CUDAGlobalAttr>() ||
        (FD->hasAttr<CUDADeviceAttr>() && !FD->hasAttr<CUDAHostAttr>());
    if (Device && FD->doesThisDeclarationHaveABody() && FD->getBody()) {
      Taken.emplace_back(FD, FD->getBody());
      FD->setBody(nullptr);
    }
    return true;
  }
  ~DeviceBodies() {
    for (auto &[FD, Body] : Taken)
      FD->setBody(Body);
  }
};

/// The importer turns kernel<<<config>>>(args) into a plain call: put the
/// launch back, with its configuration imported too, where the call landed.
void replaceChild(clang::Stmt *Parent, clang::Stmt *Old, clang::Stmt *New) {
  for (clang::Stmt *&C : Parent->children()) {
    if (C == Old)
      C = New;
    else if (C)
      replaceChild(C, Old, New);
  }
}

void restoreLaunches(ASTImporter &Imp, const clang::Stmt *From,
                     FunctionDecl *ToFD, std::set<const FunctionDecl *> &Done);

/// Restores the launches of FromFD's imported copy and of the functions it
/// calls that came with it (a static helper, a template instance), each once.
void restoreLaunchesOf(ASTImporter &Imp, const FunctionDecl *FromFD,
                       std::set<const FunctionDecl *> &Done) {
  const FunctionDecl *Def = nullptr;
  if (!FromFD->hasBody(Def) || !Done.insert(Def).second)
    return;
  auto *ToFD =
      dyn_cast_or_null<FunctionDecl>(Imp.GetAlreadyImportedOrNull(Def));
  if (ToFD && ToFD->getBody())
    restoreLaunches(Imp, Def->getBody(), ToFD, Done);
}

void restoreLaunches(ASTImporter &Imp, const clang::Stmt *From,
                     FunctionDecl *ToFD, std::set<const FunctionDecl *> &Done) {
  if (!From)
    return;
  if (const auto *KC = dyn_cast<CUDAKernelCallExpr>(From)) {
    auto Plain = Imp.Import(const_cast<CUDAKernelCallExpr *>(KC));
    auto Config = Imp.Import(const_cast<CallExpr *>(KC->getConfig()));
    if (Plain && Config && isa<CallExpr>(*Plain) && isa<CallExpr>(*Config) &&
        !isa<CUDAKernelCallExpr>(*Plain)) {
      auto *Call = cast<CallExpr>(*Plain);
      std::vector<clang::Expr *> Args(Call->arg_begin(), Call->arg_end());
      auto *Launch = CUDAKernelCallExpr::Create(
          ToFD->getASTContext(), Call->getCallee(), cast<CallExpr>(*Config),
          Args, Call->getType(), Call->getValueKind(), Call->getRParenLoc(),
          FPOptionsOverride());
      replaceChild(ToFD->getBody(), Call, Launch);
    } else {
      if (!Plain)
        llvm::consumeError(Plain.takeError());
      if (!Config)
        llvm::consumeError(Config.takeError());
    }
  } else if (const auto *CE = dyn_cast<CallExpr>(From)) {
    if (const FunctionDecl *Callee = CE->getDirectCallee())
      restoreLaunchesOf(Imp, Callee, Done);
  }
  for (const clang::Stmt *C : From->children())
    restoreLaunches(Imp, C, ToFD, Done);
}

/// Calls, in the user's code, of the runtime functions CUDA 13 removed.
class RemovedCalls : public RecursiveASTVisitor<RemovedCalls> {
public:
  std::set<std::string> &Found;
  explicit RemovedCalls(std::set<std::string> &Found) : Found(Found) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    static const std::set<std::string> Removed = {
        "cudaThreadSynchronize",    "cudaThreadExit",
        "cudaThreadSetLimit",       "cudaThreadGetLimit",
        "cudaThreadGetCacheConfig", "cudaThreadSetCacheConfig"};
    const auto *FD = dyn_cast<FunctionDecl>(E->getDecl());
    if (!FD || !FD->getIdentifier())
      return true;
    if (Removed.count(FD->getName().str()))
      Found.insert(FD->getName().str());
    // CUDA 12's forms that took a device number, which CUDA 13's take as
    // a cudaMemLocation: the header's overloads.
    const SourceManager &SM = FD->getASTContext().getSourceManager();
    if (llvm::sys::path::filename(SM.getFilename(
            SM.getSpellingLoc(FD->getLocation()))) == "gmem_removed_apis.h" &&
        FD->getName().starts_with("cudaMem"))
      Found.insert(FD->getName().split("_ptsz").first.str() +
                   " with a device number");
    return true;
  }
};

/// What the unit needs of the build beyond its files: the removed runtime
/// calls it makes (gmem_removed_apis.h defines them), and OpenMP.
void noteBuildNeeds(ASTContext &Ctx, Program &P) {
  const SourceManager &SM = Ctx.getSourceManager();
  RemovedCalls V(P.RemovedApis);
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (!SM.isInSystemHeader(D->getLocation()))
      V.TraverseDecl(D);
  for (auto It = SM.fileinfo_begin(); It != SM.fileinfo_end(); ++It)
    if (llvm::sys::path::filename(It->first.getName()) == "omp.h")
      P.UsesOpenMp = true;
}

const FunctionDecl *mainOf(ASTContext &Ctx) {
  std::vector<const FunctionDecl *> Fns;
  userFunctions(Ctx.getTranslationUnitDecl(), Ctx.getSourceManager(), Fns);
  for (const FunctionDecl *FD : Fns)
    if (FD->isMain() && FD->doesThisDeclarationHaveABody())
      return FD;
  return nullptr;
}

} // namespace

llvm::Expected<Program> analyzeProgram(const std::vector<std::string> &Files,
                                       const FrontendOptions &Opts,
                                       const LaunchOverrides &Overrides,
                                       bool FindLaunches) {
  Program P;
  P.M.File = Files.empty() ? "" : Files.front();
  std::vector<size_t> Mains;
  std::set<std::string> KernelNames;
  for (const std::string &F : Files) {
    std::vector<std::string> HostErrors;
    DeviceErrors Device;
    auto AST =
        parseCudaFile(F, Opts, &HostErrors, FindLaunches ? nullptr : &Device);
    if (!AST && !FindLaunches && Files.size() > P.Unparsed.size() + 1) {
      P.Unparsed.emplace_back(F, llvm::toString(AST.takeError()));
      continue;
    }
    if (!AST)
      return AST.takeError();
    P.HostErrors.insert(P.HostErrors.end(), HostErrors.begin(),
                        HostErrors.end());
    ASTContext &Ctx = (*AST)->getASTContext();
    if (mainOf(Ctx))
      Mains.push_back(P.Units.size());
    // Kernels whose code Clang rejects: no model (the recording prices
    // the launches it runs by their PTX).
    std::set<const FunctionDecl *> Skip;
    if (!Device.Errors.empty()) {
      Skip = kernelsReaching(Ctx, Device);
      Program::DeviceCodeErrors E;
      E.File = F;
      for (const auto &[Loc, Message] : Device.Errors)
        E.Errors.push_back(Message);
      E.Printed = Device.Printed;
      E.Failure = Device.Failure;
      std::set<std::string> Names;
      for (const FunctionDecl *K : Skip)
        if (Names.insert(kernelDisplayName(K)).second)
          E.Kernels.push_back(kernelDisplayName(K));
      P.DeviceErrors.push_back(std::move(E));
    }
    // A kernel in a header that several files include is translated once.
    P.UnitKernels.emplace_back();
    for (Kernel &K : translateKernels(Ctx, Skip))
      if (KernelNames.insert(K.Name).second) {
        P.UnitKernels.back().push_back(K.Name);
        P.M.Kernels.push_back(std::move(K));
      }
    // The printer the parse reported to is gone; the importer may still
    // report (unsupported nodes), into the void: failures come back as
    // errors.
    (*AST)->getDiagnostics().setClient(new IgnoringDiagConsumer(),
                                       /*ShouldOwnClient=*/true);
    noteBuildNeeds(Ctx, P);
    P.Units.push_back(std::move(*AST));
    P.UnitFiles.push_back(F);
  }
  if (Mains.size() > 1)
    return llvm::createStringError(
        std::errc::invalid_argument,
        "%s and %s both define main(); give the files of one program",
        P.UnitFiles[Mains[0]].c_str(), P.UnitFiles[Mains[1]].c_str());
  P.MainUnit = Mains.empty() ? 0 : Mains.front();
  P.HasMain = !Mains.empty();
  P.M.File = P.UnitFiles[P.MainUnit];
  if (FindLaunches)
    interpretLaunches(P, Files, Opts, Overrides);
  return std::move(P);
}

void interpretLaunches(Program &P, const std::vector<std::string> &Files,
                       const FrontendOptions &Opts,
                       const LaunchOverrides &Overrides) {
  for (const std::string &E : P.HostErrors)
    P.Warnings.push_back(E + " (host code that Clang rejects; launches "
                             "that depend on it are not inferred)");

  // Definitions elsewhere, by mangled name (external linkage only: a static
  // function of another file is not the one main's file calls).
  std::map<std::string, std::pair<size_t, const FunctionDecl *>> Defs;
  const bool MainIsCxx =
      P.Units[P.MainUnit]->getASTContext().getLangOpts().CPlusPlus;
  for (size_t U = 0; U < P.Units.size(); ++U) {
    if (U == P.MainUnit)
      continue;
    ASTContext &Ctx = P.Units[U]->getASTContext();
    // The importer does not carry code between C and C++: a C main()
    // calling a .cu file's extern "C" function is not followed.
    if (Ctx.getLangOpts().CPlusPlus != MainIsCxx)
      continue;
    ASTNameGenerator Names(Ctx);
    std::vector<const FunctionDecl *> Fns;
    userFunctions(Ctx.getTranslationUnitDecl(), Ctx.getSourceManager(), Fns);
    for (const FunctionDecl *FD : Fns)
      if (FD->doesThisDeclarationHaveABody() && FD->isExternallyVisible() &&
          !FD->isMain())
        Defs.emplace(Names.getName(FD), std::make_pair(U, FD));
  }
  ASTUnit &Main = *P.Units[P.MainUnit];
  ASTContext &To = Main.getASTContext();
  ASTNameGenerator Names(To);
  std::vector<const FunctionDecl *> Fns;
  userFunctions(To.getTranslationUnitDecl(), To.getSourceManager(), Fns);
  std::map<size_t, std::unique_ptr<ASTImporter>> Importers;
  std::map<size_t, std::unique_ptr<DeviceBodies>> Bodies; // Until imported.
  std::map<size_t, std::set<const FunctionDecl *>> Restored;
  auto Shared =
      std::make_shared<ASTImporterSharedState>(*To.getTranslationUnitDecl());
  for (const FunctionDecl *FD : Fns) {
    if (!P.HasMain || FD->isDefined())
      continue;
    auto It = Defs.find(Names.getName(FD));
    if (It == Defs.end())
      continue;
    auto [U, Def] = It->second;
    if (!Bodies.count(U)) {
      Bodies[U] = std::make_unique<DeviceBodies>();
      Bodies[U]->TraverseDecl(
          P.Units[U]->getASTContext().getTranslationUnitDecl());
    }
    std::unique_ptr<ASTImporter> &Imp = Importers[U];
    if (!Imp)
      Imp = std::make_unique<ASTImporter>(
          To, Main.getFileManager(), P.Units[U]->getASTContext(),
          P.Units[U]->getFileManager(), /*MinimalImport=*/false, Shared);
    llvm::Expected<const Decl *> D = Imp->Import(Def);
    if (!D) {
      P.Warnings.push_back(P.UnitFiles[U] + ": " + Def->getNameAsString() +
                           "() could not be brought into " + P.M.File + " (" +
                           llvm::toString(D.takeError()) +
                           "); calls to it are not followed");
      continue;
    }
    restoreLaunchesOf(*Imp, Def, Restored[U]);
  }
  HostLaunches H =
      findHostLaunches(To, P.M.Kernels, Overrides, findArch(Opts.Arch));
  P.M.Launches = std::move(H.Launches);
  P.Warnings.insert(P.Warnings.end(), H.Warnings.begin(), H.Warnings.end());
  if (!P.HostErrors.empty()) {
    // What the rejected host code may have cost: the kernels not launched.
    std::set<std::string> Launched;
    for (const Launch &L : P.M.Launches)
      Launched.insert(L.Kernel);
    for (const Kernel &K : P.M.Kernels)
      if (!Launched.count(K.Name))
        P.Warnings.push_back(K.Name +
                             " is not launched by the host code that parsed; "
                             "analyse it with --kernel '" +
                             K.Name + "' --grid X,Y,Z --block X,Y,Z" +
                             (K.Params.empty()
                                  ? std::string()
                                  : " --arg NAME=VALUE for its parameters"));
  }
}

} // namespace gmem
