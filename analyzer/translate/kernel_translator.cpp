//===- kernel_translator.cpp - __global__ functions to the kernel model ---===//
//
// Finds every kernel with a body (template instantiations included), and for
// each one records its parameters, lays out its shared memory, and hands the
// body to BodyTranslator.
//
//===----------------------------------------------------------------------===//
#include "body_translator.h"
#include "kernel_names.h"
#include "translate.h"

#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/MathExtras.h"

namespace gmem {

using namespace clang;

namespace {

class KernelFinder : public RecursiveASTVisitor<KernelFinder> {
public:
  std::vector<const FunctionDecl *> Kernels;
  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    // The template pattern itself is skipped: its instantiations are kernels.
    if (FD->hasAttr<CUDAGlobalAttr>() && FD->doesThisDeclarationHaveABody() &&
        !FD->isDependentContext() && Seen.insert(FD).second)
      Kernels.push_back(FD);
    return true;
  }

private:
  std::set<const FunctionDecl *> Seen;
};

/// The __shared__ variables a kernel uses, in declaration order, including
/// those of the __device__ functions it calls.
class SharedFinder : public RecursiveASTVisitor<SharedFinder> {
public:
  explicit SharedFinder(const SourceManager &SM) : SM(SM) {}
  std::vector<const VarDecl *> Vars;

  bool VisitVarDecl(VarDecl *VD) {
    note(VD);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      note(VD);
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *Def = nullptr;
    if (const FunctionDecl *FD = CE->getDirectCallee())
      if (FD->hasBody(Def) && Def && !SM.isInSystemHeader(Def->getLocation()) &&
          Visited.insert(Def).second)
        TraverseStmt(Def->getBody());
    return true;
  }
  void start(const FunctionDecl *FD) {
    Visited.insert(FD);
    TraverseStmt(FD->getBody());
  }

private:
  void note(const VarDecl *VD) {
    if (VD->hasAttr<CUDASharedAttr>() && Seen.insert(VD).second)
      Vars.push_back(VD);
  }
  const SourceManager &SM;
  std::set<const VarDecl *> Seen;
  std::set<const FunctionDecl *> Visited;
};

SourceLoc sourceLoc(const SourceManager &SM, SourceLocation L) {
  SourceLoc R;
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(L));
  if (P.isValid()) {
    R.File = P.getFilename();
    R.Line = P.getLine();
    R.Col = P.getColumn();
  }
  return R;
}

Param translateParam(ASTContext &Ctx, const ParmVarDecl *P, unsigned I) {
  Param R;
  R.Name =
      P->getName().empty() ? "arg" + std::to_string(I) : P->getNameAsString();
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressTagKeyword = true;
  R.TypeName = P->getType().getAsString(Policy);
  QualType T = P->getType().getCanonicalType();
  if (!T->isIncompleteType() && !T->isDependentType())
    R.Bytes = unsigned(Ctx.getTypeSizeInChars(T).getQuantity());
  if (T->isPointerType()) {
    R.Kind = ParamKind::Pointer;
    R.Type = {64, false};
    QualType E = T->getPointeeType();
    R.PointeeSize =
        E->isVoidType() || E->isFunctionType() ? 1
        : E->isIncompleteType()
            ? 0
            : static_cast<unsigned>(Ctx.getTypeSizeInChars(E).getQuantity());
  } else if (T->isIntegralOrEnumerationType() &&
             (!T->getAs<EnumType>() ||
              T->getAs<EnumType>()->getDecl()->isComplete())) {
    R.Kind = ParamKind::Int;
    uint64_t Bits = Ctx.getIntWidth(T);
    R.Type = {static_cast<uint8_t>(Bits),
              T->isSignedIntegerOrEnumerationType()};
    if (Bits != 1 && Bits != 8 && Bits != 16 && Bits != 32 && Bits != 64)
      R.Kind = ParamKind::Other;
  } else if (T->isRealFloatingType()) {
    R.Kind = ParamKind::Float;
    R.Type = {static_cast<uint8_t>(Ctx.getTypeSize(T)), true};
  } else {
    R.Kind = ParamKind::Other;
  }
  return R;
}

/// Static arrays in declaration order, each at its alignment; every extern
/// (dynamic) array starts where the static ones end, aligned to 16.
void layoutShared(ASTContext &Ctx, const std::vector<const VarDecl *> &Vars,
                  Kernel &K, std::map<const VarDecl *, int> &Index) {
  const SourceManager &SM = Ctx.getSourceManager();
  uint64_t End = 0;
  std::vector<int> Dynamic;
  for (const VarDecl *VD : Vars) {
    SharedArray SA;
    SA.Name = VD->getNameAsString();
    SA.Loc = sourceLoc(SM, VD->getLocation());
    QualType T = VD->getType();
    if (const IncompleteArrayType *IAT = Ctx.getAsIncompleteArrayType(T)) {
      SA.Dynamic = true;
      SA.Dims.push_back(0); // Extent given by the launch.
      T = IAT->getElementType();
    }
    while (const ConstantArrayType *CAT = Ctx.getAsConstantArrayType(T)) {
      SA.Dims.push_back(CAT->getSize().getZExtValue());
      T = CAT->getElementType();
    }
    SA.ElemSize =
        T->isIncompleteType()
            ? 0
            : static_cast<unsigned>(Ctx.getTypeSizeInChars(T).getQuantity());
    SA.Dynamic = SA.Dynamic || VD->hasExternalStorage();
    uint64_t Align = Ctx.getDeclAlign(VD).getQuantity();
    int Idx = static_cast<int>(K.Shared.size());
    Index[VD] = Idx;
    if (SA.Dynamic) {
      Dynamic.push_back(Idx);
      SA.Offset = Align; // Remembered here until the static end is known.
    } else {
      SA.Bytes = Ctx.getTypeSizeInChars(VD->getType()).getQuantity();
      SA.Offset = llvm::alignTo(End, std::max<uint64_t>(Align, 1));
      End = SA.Offset + SA.Bytes;
    }
    K.Shared.push_back(std::move(SA));
  }
  for (int I : Dynamic) {
    uint64_t Align = std::max<uint64_t>(16, K.Shared[I].Offset);
    K.Shared[I].Offset = llvm::alignTo(End, Align);
  }
}

} // namespace

std::vector<Kernel>
translateKernels(ASTContext &Ctx, const std::set<const FunctionDecl *> &Skip) {
  KernelFinder Finder;
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Kernel> Out;
  for (const FunctionDecl *FD : Finder.Kernels) {
    if (Skip.count(FD))
      continue;
    Kernel K;
    K.Name = kernelDisplayName(FD);
    K.MangledName = kernelMangledName(FD);
    K.Loc = sourceLoc(SM, FD->getLocation());
    for (unsigned I = 0; I < FD->getNumParams(); ++I)
      K.Params.push_back(translateParam(Ctx, FD->getParamDecl(I), I));
    SharedFinder SF(SM);
    SF.start(FD);
    std::map<const VarDecl *, int> SharedIdx;
    layoutShared(Ctx, SF.Vars, K, SharedIdx);
    BodyTranslator BT(Ctx, K, SharedIdx);
    BT.translateKernel(FD);
    Out.push_back(std::move(K));
  }
  return Out;
}

} // namespace gmem
