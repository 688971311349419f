//===- launch_columns.cpp - Columns of recorded launches from the AST -----===//
#include "launch_columns.h"
#include "toolkit.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/Support/FileSystem.h"

#include <map>
#include <tuple>

namespace gmem {

using namespace clang;

namespace {

struct Site {
  unsigned Line, Col; ///< The launch's <<< (or its call).
  std::string Callee; ///< The kernel's name; empty for cudaLaunch* calls.
};

class LaunchExprs : public RecursiveASTVisitor<LaunchExprs> {
public:
  explicit LaunchExprs(const SourceManager &SM) : SM(SM) {}
  /// (real path, line) -> the launch expressions there.
  std::map<std::pair<std::string, unsigned>, std::vector<Site>> At;

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *KC) {
    const CallExpr *Config = KC->getConfig();
    const FunctionDecl *FD = KC->getDirectCallee();
    // The line table may give the line where the expression starts (a
    // kernel name on the line above its <<<): both lines lead to it.
    add(Config ? Config->getBeginLoc() : KC->getBeginLoc(), KC->getBeginLoc(),
        FD ? FD->getNameAsString() : "");
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    if (isa<CUDAKernelCallExpr>(CE))
      return true;
    if (const FunctionDecl *FD = CE->getDirectCallee())
      if (FD->getIdentifier() && FD->getName().starts_with("cudaLaunch"))
        add(CE->getBeginLoc(), CE->getBeginLoc(), "");
    return true;
  }

private:
  void add(SourceLocation Loc, SourceLocation Start, std::string Callee) {
    Loc = SM.getExpansionLoc(Loc);
    Start = SM.getExpansionLoc(Start);
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
      return;
    PresumedLoc P = SM.getPresumedLoc(Loc), PS = SM.getPresumedLoc(Start);
    if (P.isInvalid())
      return;
    const std::string File = realPath(P.getFilename());
    for (unsigned Line : {P.getLine(), PS.isInvalid() ? 0 : PS.getLine()}) {
      if (!Line)
        continue;
      std::vector<Site> &S = At[{File, Line}];
      bool Seen = false; // A template's instances: once.
      for (const Site &Old : S)
        Seen |= Old.Line == P.getLine() && Old.Col == P.getColumn();
      if (!Seen)
        S.push_back({P.getLine(), P.getColumn(), Callee});
    }
  }
  const SourceManager &SM;
};

} // namespace

void placeLaunchColumns(
    Module &M, const std::vector<std::unique_ptr<clang::ASTUnit>> &Units) {
  bool Any = false;
  for (const Launch &L : M.Launches)
    Any |= L.Loc.Line && !L.Loc.Col;
  if (!Any)
    return;
  std::map<std::pair<std::string, unsigned>, std::vector<Site>> At;
  for (const auto &U : Units) {
    LaunchExprs V(U->getSourceManager());
    V.TraverseDecl(U->getASTContext().getTranslationUnitDecl());
    for (auto &[Key, Sites] : V.At)
      At[Key].insert(At[Key].end(), Sites.begin(), Sites.end());
  }
  for (Launch &L : M.Launches) {
    if (!L.Loc.Line || L.Loc.Col)
      continue;
    auto It = At.find({realPath(L.Loc.File), L.Loc.Line});
    if (It == At.end())
      continue;
    // The kernel's launches on the line; a line of one launch needs no
    // name (cudaLaunchKernel's callee is a pointer).
    const Kernel *K = M.findKernel(L.Kernel);
    const Site *Only = It->second.size() == 1 ? &It->second.front() : nullptr;
    if (!Only) {
      unsigned Matches = 0;
      for (const Site &S : It->second)
        if (K && !S.Callee.empty() &&
            llvm::StringRef(K->Name).starts_with(S.Callee))
          Only = &S, ++Matches;
      if (Matches != 1)
        continue;
    }
    L.Loc.Line = Only->Line;
    L.Loc.Col = Only->Col;
  }
}

} // namespace gmem
