//===- host_interpreter.cpp - Slots, allocations, names, entry point ------===//
#include "host_interpreter.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace gmem {

HostInterpreter::HostInterpreter(ASTContext &Ctx, HostInterpreterLimits Limits)
    : Ctx(Ctx), Limits(Limits), Arch(findArch("sm_90")) {}

void HostInterpreter::overrideVariables(std::set<const VarDecl *> Vars,
                                        Dim3 Value) {
  OverriddenVars = std::move(Vars);
  OverrideValue = Value;
}

void HostInterpreter::setCommandLine(std::vector<std::string> Argv) {
  if (!Argv.empty())
    CommandLine = std::move(Argv);
}

void HostInterpreter::run(
    const FunctionDecl *MainFD,
    const std::function<void(const HostLaunch &)> &Callback) {
  OnLaunch = Callback;
  Main = MainFD->getDefinition() ? MainFD->getDefinition() : MainFD;
  Frames.clear();
  Frames.push_back(Frame());
  Frames.back().Id = NextFrameId++;
  Frames.back().FD = Main;
  initGlobals();
  // int main(int argc, char **argv): the command line the run is for; argv
  // ends with a null pointer, as the C runtime passes it.
  if (Main->getNumParams() >= 2 &&
      intTypeOf(Main->getParamDecl(0)->getType())) {
    const ParmVarDecl *Argc = Main->getParamDecl(0),
                      *Argv = Main->getParamDecl(1);
    int Slot = newSlot(Argc, Argc->getType());
    Frames.back().Vars[Argc] = Slot;
    write(LRef{Slot, -1}, HostValue::integer(int64_t(CommandLine.size()),
                                             *intTypeOf(Argc->getType())));
    HostValue V;
    V.Kind = HostValue::Array;
    for (const std::string &A : CommandLine)
      V.Elems.push_back(HostValue::string(A));
    V.Elems.push_back(HostValue::pointer(NullAllocation, 0));
    Slot = newSlot(Argv, Argv->getType());
    Frames.back().Vars[Argv] = Slot;
    write(LRef{Slot, -1}, std::move(V));
  }
  exec(Main->getBody());
  if (UnwindTo) // Cannot happen: quiet loops catch their own unwinding.
    UnwindTo = nullptr;
}

SourceLoc HostInterpreter::sourceLoc(SourceLocation L) const {
  SourceLoc Out;
  const SourceManager &SM = Ctx.getSourceManager();
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(L));
  if (P.isInvalid())
    return Out;
  Out.File = P.getFilename();
  Out.Line = P.getLine();
  Out.Col = P.getColumn();
  return Out;
}

std::string HostInterpreter::where(SourceLocation L) const {
  SourceLoc S = sourceLoc(L);
  if (S.File.empty())
    return "<unknown location>";
  return llvm::sys::path::filename(S.File).str() + ":" + std::to_string(S.Line);
}

std::string HostInterpreter::text(const clang::Expr *E) const {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = SM.getExpansionRange(E->getSourceRange());
  StringRef T = Lexer::getSourceText(R, SM, Ctx.getLangOpts());
  // Collapse runs of white space so that messages stay on one line.
  std::string Out;
  bool Space = false;
  for (char C : T) {
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r') {
      Space = !Out.empty();
      continue;
    }
    if (Space)
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out.empty() ? "<expression>" : Out;
}

void HostInterpreter::warn(SourceLocation L, const std::string &Msg) {
  std::string W = where(L) + ": " + Msg;
  if (WarnedOnce.insert(W).second)
    Warnings.push_back(W);
}

bool HostInterpreter::isDim3(QualType T) const {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *RT = T->getAs<RecordType>();
  return RT && RT->getDecl()->getName() == "dim3";
}

std::optional<IntType> HostInterpreter::intTypeOf(QualType T) const {
  const clang::Type *Key = T.getTypePtrOrNull();
  auto It = IntTypes.find(Key);
  if (It != IntTypes.end())
    return It->second;
  std::optional<IntType> R = computeIntType(T);
  IntTypes[Key] = R;
  return R;
}

std::optional<IntType> HostInterpreter::computeIntType(QualType T) const {
  T = T.getNonReferenceType().getCanonicalType();
  if (T->isBooleanType())
    return IntType{1, false};
  if (const auto *ET = T->getAs<EnumType>()) {
    QualType U = ET->getDecl()->getIntegerType();
    T = U.isNull() ? Ctx.IntTy : U.getCanonicalType();
  }
  if (!T->isIntegerType())
    return std::nullopt;
  uint64_t Bits = Ctx.getTypeSize(T);
  if (Bits != 8 && Bits != 16 && Bits != 32 && Bits != 64)
    return std::nullopt;
  return IntType{uint8_t(Bits), T->isSignedIntegerType()};
}

int HostInterpreter::newSlot(const VarDecl *VD, QualType Ty) {
  SlotInfo SI;
  SI.Var = VD;
  SI.Ty = Ty;
  SI.FrameId = (VD && VD->hasGlobalStorage()) ? -1 : Frames.back().Id;
  Slots.push_back(SI);
  return int(Slots.size()) - 1;
}

std::optional<int> HostInterpreter::slotOf(const VarDecl *VD) {
  const Frame &F = Frames.back();
  auto It = F.Vars.find(VD);
  if (It != F.Vars.end())
    return It->second;
  auto G = Globals.find(VD->getCanonicalDecl());
  if (G != Globals.end())
    return G->second;
  return std::nullopt;
}

int HostInterpreter::newAllocation(int Slot) {
  Allocation A;
  A.Owner = Slots[Slot].Var;
  A.FrameId = Slots[Slot].FrameId;
  Allocations.push_back(A);
  return int(Allocations.size()) - 1;
}

int HostInterpreter::arrayAllocation(const VarDecl *VD) {
  auto It = ArrayAllocations.find(VD);
  if (It != ArrayAllocations.end())
    return It->second;
  Allocation A;
  A.Owner = VD;
  Allocations.push_back(A);
  int Id = int(Allocations.size()) - 1;
  ArrayAllocations[VD] = Id;
  return Id;
}

std::string HostInterpreter::allocationName(int Alloc) {
  if (Alloc == NullAllocation)
    return NullPointer;
  if (Alloc < 0 || size_t(Alloc) >= Allocations.size())
    return "<unknown>";
  const Allocation &A = Allocations[Alloc];
  if (!A.Owner)
    return A.Text.empty() ? "allocation#" + std::to_string(Alloc) : A.Text;
  auto It = AllocationNames.find(A.Owner);
  if (It != AllocationNames.end())
    return It->second;
  // Equal names alias in the model: variables that share a spelling but
  // are different declarations get a suffix.
  std::string Base = A.Owner->getName().str();
  std::string Name = Base;
  for (int N = 2; UsedAllocationNames.count(Name); ++N)
    Name = Base + "#" + std::to_string(N);
  UsedAllocationNames.insert(Name);
  AllocationNames[A.Owner] = Name;
  return Name;
}

bool HostInterpreter::isTracked(QualType T) const {
  T = T.getNonReferenceType().getCanonicalType();
  if (intTypeOf(T) || T->isRealFloatingType() || T->isPointerType() ||
      isDim3(T))
    return true;
  if (const auto *AT = dyn_cast<ConstantArrayType>(T.getTypePtr())) {
    QualType E = AT->getElementType().getCanonicalType();
    return AT->getSize().getZExtValue() <= 1024 &&
           (intTypeOf(E) || E->isRealFloatingType());
  }
  return false;
}

bool HostInterpreter::isUserFunction(const FunctionDecl *FD) const {
  const FunctionDecl *Def = nullptr;
  if (!FD || !FD->hasBody(Def) || !Def)
    return false;
  if (Ctx.getSourceManager().isInSystemHeader(Def->getLocation()))
    return false;
  if (Def->hasAttr<CUDAGlobalAttr>())
    return false;
  if (Def->hasAttr<CUDADeviceAttr>() && !Def->hasAttr<CUDAHostAttr>())
    return false;
  // Member functions would need an object model; they stay opaque.
  if (isa<CXXMethodDecl>(Def) && !cast<CXXMethodDecl>(Def)->isStatic())
    return false;
  return true;
}

static void collectGlobals(const DeclContext *DC,
                           std::vector<const VarDecl *> &Out) {
  for (const Decl *D : DC->decls()) {
    if (const auto *VD = dyn_cast<VarDecl>(D))
      Out.push_back(VD);
    else if (const auto *NS = dyn_cast<NamespaceDecl>(D))
      collectGlobals(NS, Out);
    else if (const auto *LS = dyn_cast<LinkageSpecDecl>(D))
      collectGlobals(LS, Out);
  }
}

void HostInterpreter::initGlobals() {
  std::vector<const VarDecl *> Vars;
  collectGlobals(Ctx.getTranslationUnitDecl(), Vars);
  const SourceManager &SM = Ctx.getSourceManager();
  for (const VarDecl *VD : Vars) {
    if (!VD->hasGlobalStorage() || VD->isStaticLocal() ||
        SM.isInSystemHeader(VD->getLocation()) ||
        VD->isThisDeclarationADefinition() == VarDecl::DeclarationOnly ||
        VD->hasAttr<CUDADeviceAttr>() || VD->hasAttr<CUDAConstantAttr>() ||
        VD->hasAttr<CUDASharedAttr>() || !isTracked(VD->getType()) ||
        VD->getType()->isReferenceType())
      continue;
    const VarDecl *Canon = VD->getCanonicalDecl();
    if (Globals.count(Canon))
      continue;
    int Slot = newSlot(VD, VD->getType());
    Globals[Canon] = Slot;
    HostValue V = VD->getInit() ? eval(VD->getInit()) : zeroOf(VD->getType());
    write(LRef{Slot, -1}, V);
    if (stopped())
      return;
  }
}

} // namespace gmem
