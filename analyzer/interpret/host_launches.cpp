//===- host_launches.cpp - The launches of main(), with the overrides -----===//
//
// Runs main() in the host interpreter and turns what it saw at each <<<>>>
// into the model's Launch, applying the command line's overrides: --block
// replaces the variables that launches take their block from before the
// program derives grids from them; --grid, --dynamic-smem and --arg replace
// a launch's values directly.
//
//===----------------------------------------------------------------------===//
#include "host_launches.h"
#include "host_interpreter.h"
#include "kernel_names.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <set>

using namespace clang;

namespace gmem {

namespace {

/// The variable a block argument is, as in <<<grid, block>>> or
/// <<<blocks, threads>>>; null for an expression (<<<g, dim3(32 * 32)>>>).
const VarDecl *blockVariable(const clang::Expr *E) {
  while (E) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = FC->getSubExpr();
      continue;
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
      unsigned Given = 0;
      for (const clang::Expr *A : CE->arguments())
        Given += !isa<CXXDefaultArgExpr>(A);
      if (CE->getNumArgs() == 0 || Given != 1 ||
          isa<CXXDefaultArgExpr>(CE->getArg(0)))
        return nullptr;
      E = CE->getArg(0);
      continue;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
      return dyn_cast<VarDecl>(DRE->getDecl());
    return nullptr;
  }
  return nullptr;
}

class BlockVariableFinder : public RecursiveASTVisitor<BlockVariableFinder> {
public:
  std::set<const VarDecl *> Vars;
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *KC) {
    const CallExpr *Config = KC->getConfig();
    if (Config && Config->getNumArgs() > 1)
      if (const VarDecl *VD = blockVariable(Config->getArg(1)))
        Vars.insert(VD);
    return true;
  }
};

std::string reasonOf(const HostValue &V) {
  return V.Reason.empty() ? "not computable" : V.Reason;
}

void resolveDim3(const HostValue &V, const std::string &What,
                 const std::string &Flag, Dim3 &Out,
                 std::vector<std::string> &Unresolved) {
  if (V.Kind != HostValue::Dim3 || V.Elems.size() != 3) {
    Unresolved.push_back(What + ": " + reasonOf(V) + "; pass " + Flag);
    return;
  }
  uint64_t *Fields[3] = {&Out.X, &Out.Y, &Out.Z};
  for (int I = 0; I < 3; ++I) {
    const HostValue &C = V.Elems[I];
    if (C.isInt())
      *Fields[I] = uint64_t(C.I);
    else
      Unresolved.push_back(What + "." + "xyz"[I] + ": " + reasonOf(C) +
                           "; pass " + Flag);
  }
}

/// The kind of a kernel parameter, from the translated kernel when there is
/// one, else from its declaration.
void paramKind(ASTContext &Ctx, const ParmVarDecl *P, const Kernel *K,
               unsigned I, ParamKind &Kind, IntType &T) {
  if (K && I < K->Params.size()) {
    Kind = K->Params[I].Kind;
    T = K->Params[I].Type;
    return;
  }
  QualType Ty = P->getType().getNonReferenceType().getCanonicalType();
  if (Ty->isPointerType() || Ty->isArrayType()) {
    Kind = ParamKind::Pointer;
    T = IntType{64, false};
  } else if (Ty->isBooleanType()) {
    Kind = ParamKind::Int;
    T = IntType{1, false};
  } else if (Ty->isIntegralOrEnumerationType()) {
    Kind = ParamKind::Int;
    T = IntType{uint8_t(Ctx.getTypeSize(Ty)),
                Ty->isSignedIntegerOrEnumerationType()};
  } else if (Ty->isRealFloatingType()) {
    Kind = ParamKind::Float;
  } else {
    Kind = ParamKind::Other;
  }
}

} // namespace

ArgValue parseArgOverride(const std::string &Name, const std::string &Text,
                          ParamKind P, IntType T) {
  ArgValue A;
  llvm::StringRef S = llvm::StringRef(Text).trim();
  std::string Flag = "--arg " + Name + "=" + Text;
  auto ParseInt = [&](int64_t &Out) {
    llvm::StringRef D = S;
    bool Neg = D.consume_front("-");
    if (!Neg)
      D.consume_front("+");
    unsigned Radix = 10;
    if (D.starts_with_insensitive("0x")) {
      D = D.drop_front(2);
      Radix = 16;
    }
    uint64_t U;
    if (D.empty() || D.getAsInteger(Radix, U))
      return false;
    Out = Neg ? int64_t(0 - U) : int64_t(U);
    return true;
  };
  int64_t I;
  switch (P) {
  case ParamKind::Int:
    if (!ParseInt(I)) {
      A.Reason = Flag + ": " + Name +
                 " is an integer; give a decimal or 0x hexadecimal integer";
    } else if (normalize(uint64_t(I), T) != I && !(T.Bits == 64 && !T.Signed)) {
      A.Reason = Flag + ": the value does not fit the parameter's " +
                 std::to_string(T.Bits) + "-bit type";
    } else {
      A.Kind = ArgValue::Int;
      A.IntValue = normalize(uint64_t(I), T);
    }
    return A;
  case ParamKind::Float: {
    double D;
    if (S.empty() || S.getAsDouble(D)) {
      A.Reason = Flag + ": " + Name + " is a floating-point number";
    } else {
      A.Kind = ArgValue::Float;
      A.FloatValue = D;
    }
    return A;
  }
  case ParamKind::Pointer:
    if (!ParseInt(I)) {
      A.Reason = Flag + ": for the pointer " + Name +
                 " give its byte offset from a 256-byte boundary";
    } else {
      A.Kind = ArgValue::Pointer;
      A.Allocation = Name;
      A.AlignOffset = uint64_t(((I % 256) + 256) % 256);
    }
    return A;
  case ParamKind::Other:
    break;
  }
  A.Reason = Flag + ": " + Name + " is not a number or pointer";
  return A;
}

void applyOverrides(Launch &L, const std::vector<Param> &Params,
                    const LaunchOverrides &O) {
  auto Settled = [&](const std::string &Flag) {
    auto &U = L.Unresolved;
    U.erase(std::remove_if(U.begin(), U.end(),
                           [&](const std::string &S) {
                             return llvm::StringRef(S).ends_with(Flag);
                           }),
            U.end());
  };
  if (O.Block) {
    L.Block = *O.Block;
    Settled("--block");
  }
  if (O.Grid) {
    L.Grid = *O.Grid;
    Settled("--grid");
  }
  if (O.DynamicSmem) {
    L.DynamicSmem = *O.DynamicSmem;
    Settled("--dynamic-smem");
  }
  for (size_t I = 0; I < Params.size() && I < L.Args.size(); ++I) {
    auto It = O.Args.find(Params[I].Name);
    if (It == O.Args.end())
      continue;
    ArgValue New =
        parseArgOverride(It->first, It->second, Params[I].Kind, Params[I].Type);
    if (New.Kind == ArgValue::Pointer && L.Args[I].Kind == ArgValue::Pointer)
      New.Allocation = L.Args[I].Allocation;
    L.Args[I] = New;
  }
}

HostLaunches findHostLaunches(ASTContext &Ctx,
                              const std::vector<Kernel> &Kernels,
                              const LaunchOverrides &Overrides,
                              const ArchRules *Arch) {
  HostLaunches R;
  const FunctionDecl *Main = nullptr;
  for (const Decl *D : Ctx.getTranslationUnitDecl()->decls())
    if (const auto *FD = dyn_cast<FunctionDecl>(D))
      if (FD->isMain() && FD->hasBody())
        Main = FD;
  if (!Main) {
    R.Warnings.push_back("no main() with a body: no launches are taken from "
                         "host code");
    return R;
  }
  HostInterpreter Interp(Ctx);
  if (Arch)
    Interp.setArch(*Arch);
  if (Overrides.SmCount)
    Interp.setSmCount(*Overrides.SmCount);
  std::vector<std::string> Argv = {
      llvm::sys::path::stem(Interp.sourceLoc(Main->getLocation()).File).str()};
  Argv.insert(Argv.end(), Overrides.RunArgs.begin(), Overrides.RunArgs.end());
  Interp.setCommandLine(std::move(Argv));
  if (Overrides.Block) {
    BlockVariableFinder F;
    F.TraverseDecl(Ctx.getTranslationUnitDecl());
    Interp.overrideVariables(std::move(F.Vars), *Overrides.Block);
  }
  Interp.run(Main, [&](const HostLaunch &HL) {
    Launch L;
    L.Kernel = kernelDisplayName(HL.Kernel);
    L.Loc = HL.Loc;
    L.Args = HL.Args;
    const Kernel *K = nullptr;
    for (const Kernel &C : Kernels)
      if (C.Name == L.Kernel)
        K = &C;
    if (!K && !Kernels.empty())
      R.Warnings.push_back(Interp.where(HL.Call->getBeginLoc()) +
                           ": the kernel " + L.Kernel +
                           " launched here was not translated");
    resolveDim3(HL.Block, "block", "--block", L.Block, L.Unresolved);
    resolveDim3(HL.Grid, "grid", "--grid", L.Grid, L.Unresolved);
    if (HL.Smem.isInt() && !(HL.Smem.Ty.Signed && HL.Smem.I < 0))
      L.DynamicSmem = uint64_t(HL.Smem.I);
    else
      L.Unresolved.push_back(
          "dynamic shared memory: " +
          (HL.Smem.isInt() ? std::to_string(HL.Smem.I) + " bytes is negative"
                           : reasonOf(HL.Smem)) +
          "; pass --dynamic-smem");
    // A kernel that was not translated: its parameters as Clang reads them.
    std::vector<Param> Params;
    if (K)
      Params = K->Params;
    for (unsigned I = Params.size(); I < HL.Kernel->getNumParams(); ++I) {
      Param P;
      P.Name = HL.Kernel->getParamDecl(I)->getName().str();
      paramKind(Ctx, HL.Kernel->getParamDecl(I), nullptr, I, P.Kind, P.Type);
      Params.push_back(P);
    }
    applyOverrides(L, Params, Overrides);
    R.Launches.push_back(std::move(L));
  });
  for (const std::string &W : Interp.warnings())
    R.Warnings.push_back(W);
  return R;
}

} // namespace gmem
