//===- kernel_names.cpp - How kernels are named in the model --------------===//
#include "kernel_names.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/GlobalDecl.h"
#include "clang/AST/Mangle.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>

namespace gmem {

namespace {

void printArg(const clang::TemplateArgument &A,
              const clang::PrintingPolicy &Policy, llvm::raw_ostream &OS) {
  switch (A.getKind()) {
  case clang::TemplateArgument::Integral:
    if (A.getIntegralType()->isBooleanType())
      OS << (A.getAsIntegral().getBoolValue() ? "true" : "false");
    else
      OS << llvm::toString(A.getAsIntegral(), 10);
    return;
  case clang::TemplateArgument::Type:
    OS << A.getAsType().getAsString(Policy);
    return;
  case clang::TemplateArgument::Pack: {
    bool First = true;
    for (const clang::TemplateArgument &P : A.pack_elements()) {
      if (!First)
        OS << ", ";
      First = false;
      printArg(P, Policy, OS);
    }
    return;
  }
  default:
    A.print(Policy, OS, /*IncludeType=*/false);
    return;
  }
}

} // namespace

std::string kernelDisplayName(const clang::FunctionDecl *FD) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  // Named enclosing namespaces and classes; anonymous ones are left out as
  // a user cannot spell them.
  llvm::SmallVector<std::string, 4> Scopes;
  for (const clang::DeclContext *DC = FD->getDeclContext(); DC;
       DC = DC->getParent())
    if (const auto *ND = llvm::dyn_cast<clang::NamedDecl>(DC))
      if (ND->getDeclName().isIdentifier() && !ND->getName().empty())
        Scopes.push_back(ND->getNameAsString());
  for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It)
    OS << *It << "::";
  OS << FD->getNameAsString();
  if (const clang::TemplateArgumentList *Args =
          FD->getTemplateSpecializationArgs()) {
    clang::PrintingPolicy Policy(FD->getASTContext().getLangOpts());
    Policy.SuppressTagKeyword = true;
    OS << '<';
    for (unsigned I = 0; I < Args->size(); ++I) {
      if (I)
        OS << ", ";
      printArg(Args->get(I), Policy, OS);
    }
    OS << '>';
  }
  return Name;
}

std::string kernelMangledName(const clang::FunctionDecl *FD) {
  clang::ASTContext &Ctx = FD->getASTContext();
  std::unique_ptr<clang::MangleContext> MC(Ctx.createMangleContext());
  if (!MC->shouldMangleDeclName(FD))
    return FD->getNameAsString();
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  MC->mangleName(clang::GlobalDecl(FD), OS);
  return Out;
}

} // namespace gmem
