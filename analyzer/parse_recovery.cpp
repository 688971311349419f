//===- parse_recovery.cpp - What a file with errors still lets us analyse -===//
#include "parse_recovery.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

namespace gmem {

namespace {

struct Ranges : clang::RecursiveASTVisitor<Ranges> {
  const clang::SourceManager &SM;
  std::vector<std::pair<std::string, std::pair<unsigned, unsigned>>> Kernels;
  std::pair<unsigned, unsigned> Main{0, 0};
  explicit Ranges(const clang::SourceManager &SM) : SM(SM) {}
  bool VisitFunctionDecl(clang::FunctionDecl *FD) {
    if (!FD->doesThisDeclarationHaveABody() ||
        !SM.isWrittenInMainFile(SM.getExpansionLoc(FD->getBeginLoc())))
      return true;
    std::pair<unsigned, unsigned> R{
        SM.getExpansionLineNumber(FD->getBeginLoc()),
        SM.getExpansionLineNumber(FD->getEndLoc())};
    if (FD->hasAttr<clang::CUDAGlobalAttr>())
      Kernels.push_back({FD->getNameAsString(), R});
    else if (FD->isMain())
      Main = R;
    return true;
  }
};

bool inside(unsigned Line, std::pair<unsigned, unsigned> R) {
  return R.first && Line >= R.first && Line <= R.second;
}

} // namespace

std::optional<Recovery> recoverFromErrors(clang::ASTContext &Ctx,
                                          const std::vector<unsigned> &Lines) {
  Ranges V(Ctx.getSourceManager());
  V.TraverseDecl(Ctx.getTranslationUnitDecl());
  Recovery R;
  for (unsigned Line : Lines) {
    bool Placed = false;
    for (const auto &[Name, Range] : V.Kernels)
      if (inside(Line, Range)) {
        R.BrokenKernels.insert(Name);
        Placed = true;
      }
    if (inside(Line, V.Main)) {
      R.BrokenMain = true;
      Placed = true;
    }
    // An error elsewhere (a device function, a type) may change any kernel.
    if (!Placed)
      return std::nullopt;
  }
  return R;
}

} // namespace gmem
