//===- host_device.cpp - Host interpreter: what the program asks its GPU --===//
//
// cudaGetDeviceProperties and cudaDeviceGetAttribute answer with the GPU the
// program runs on. What the compute capability fixes (the CUDA C++
// Programming Guide's table of technical specifications per compute
// capability: grid and block limits, threads per block, warp size, shared
// memory per block) is taken from the target architecture (--arch); what
// differs between boards of one architecture (number of SMs, clocks, memory
// size, name) stays Unknown, saying so, unless --sm-count gives the number
// of SMs. The samples' helpers turn the compute capability into cores per SM
// with a local table of structs; such read-only tables are read here from
// their initializers. Calls to user functions that no given file defines are
// reported here too.
//
//===----------------------------------------------------------------------===//
#include "host_interpreter.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace gmem {

namespace {

/// The value of cudaDeviceProp::Field (element Index of an array field, or
/// -1) that the architecture fixes; nullopt for the other fields.
std::optional<int64_t> archProperty(StringRef Field, int Index,
                                    const ArchRules &A) {
  if (Index >= 0) {
    if (Index > 2)
      return std::nullopt;
    if (Field == "maxGridSize")
      return int64_t(A.MaxGridDim[Index]);
    if (Field == "maxThreadsDim")
      return int64_t(A.MaxBlockDim[Index]);
    return std::nullopt;
  }
  return llvm::StringSwitch<std::optional<int64_t>>(Field)
      .Case("warpSize", A.WarpSize)
      .Case("maxThreadsPerBlock", A.MaxThreadsPerBlock)
      .Case("sharedMemPerBlock", int64_t(A.MaxStaticShared))
      .Case("sharedMemPerBlockOptin", int64_t(A.MaxSharedOptIn))
      .Case("major", A.Sm / 10)
      .Case("minor", A.Sm % 10)
      .Default(std::nullopt);
}

/// Fields that boards of one architecture differ in.
bool boardProperty(StringRef Field) {
  return llvm::StringSwitch<bool>(Field)
      .Cases("name", "uuid", "luid", "totalGlobalMem", "multiProcessorCount",
             true)
      .Cases("clockRate", "memoryClockRate", "memoryBusWidth", "l2CacheSize",
             true)
      .Cases("persistingL2CacheMaxSize", "pciBusID", "pciDeviceID",
             "pciDomainID", "integrated", true)
      .Cases("isMultiGpuBoard", "multiGpuBoardGroupID", "ECCEnabled",
             "tccDriver", "kernelExecTimeoutEnabled", true)
      .Cases("computeMode", "asyncEngineCount", true)
      .Default(false);
}

/// The cudaDeviceProp field that a cudaDeviceGetAttribute attribute reads.
struct AttributeField {
  const char *Attr;
  const char *Field;
  int Index;
};
const AttributeField Attributes[] = {
    {"cudaDevAttrMaxThreadsPerBlock", "maxThreadsPerBlock", -1},
    {"cudaDevAttrMaxBlockDimX", "maxThreadsDim", 0},
    {"cudaDevAttrMaxBlockDimY", "maxThreadsDim", 1},
    {"cudaDevAttrMaxBlockDimZ", "maxThreadsDim", 2},
    {"cudaDevAttrMaxGridDimX", "maxGridSize", 0},
    {"cudaDevAttrMaxGridDimY", "maxGridSize", 1},
    {"cudaDevAttrMaxGridDimZ", "maxGridSize", 2},
    {"cudaDevAttrMaxSharedMemoryPerBlock", "sharedMemPerBlock", -1},
    {"cudaDevAttrMaxSharedMemoryPerBlockOptin", "sharedMemPerBlockOptin", -1},
    {"cudaDevAttrWarpSize", "warpSize", -1},
    {"cudaDevAttrComputeCapabilityMajor", "major", -1},
    {"cudaDevAttrComputeCapabilityMinor", "minor", -1},
    {"cudaDevAttrMultiProcessorCount", "multiProcessorCount", -1},
    {"cudaDevAttrClockRate", "clockRate", -1},
    {"cudaDevAttrMemoryClockRate", "memoryClockRate", -1},
    {"cudaDevAttrGlobalMemoryBusWidth", "memoryBusWidth", -1},
    {"cudaDevAttrL2CacheSize", "l2CacheSize", -1},
};

bool isDeviceProp(QualType T) {
  T = T.getNonReferenceType();
  if (T->isPointerType())
    T = T->getPointeeType();
  const auto *RD = T.getCanonicalType()->getAsRecordDecl();
  return RD && RD->getName() == "cudaDeviceProp";
}

} // namespace

HostValue HostInterpreter::deviceProperty(StringRef Field, int Index,
                                          QualType T, const clang::Expr *E) {
  std::string What = "`" + text(E) + "` (" + where(E->getExprLoc()) + ")";
  std::optional<int64_t> V = archProperty(Field, Index, *Arch);
  if (Field == "multiProcessorCount" && SmCount)
    V = *SmCount;
  if (V)
    if (std::optional<IntType> IT = intTypeOf(T))
      return HostValue::integer(*V, *IT);
  // No " at " in these reasons: reads through an unknown input pointer
  // replace what follows it with their own place.
  if (boardProperty(Field))
    return HostValue::unknown(
        What + " depends on the GPU model, not only on " + Arch->Name +
            (Field == "multiProcessorCount" ? " (--sm-count N gives it)" : ""),
        /*FromInput=*/true);
  return HostValue::unknown(What + ": cudaDeviceProp::" + Field.str() +
                            " is not modelled");
}

const VarDecl *HostInterpreter::devicePropVar(const clang::Expr *E) const {
  E = E->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf || UO->getOpcode() == UO_Deref)
      E = UO->getSubExpr()->IgnoreParenImpCasts();
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && DeviceProps.count(VD) ? VD : nullptr;
}

std::optional<HostValue> HostInterpreter::devicePropRead(const clang::Expr *E) {
  int Index = -1;
  const clang::Expr *Field = E;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E))
    Field = AS->getBase()->IgnoreParenImpCasts();
  const auto *ME = dyn_cast<MemberExpr>(Field);
  if (!ME || !isDeviceProp(ME->getBase()->getType()) ||
      !devicePropVar(ME->getBase()))
    return std::nullopt;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    HostValue I = eval(AS->getIdx());
    if (!I.isInt())
      return I.isUnknown() ? I : HostValue::unknown("not computable");
    Index = I.I < 0 || I.I > 2 ? 3 : int(I.I);
  } else if (ME->getType()->isArrayType()) {
    return std::nullopt; // The array itself (a name): not a number.
  }
  return deviceProperty(ME->getMemberDecl()->getName(), Index, E->getType(), E);
}

void HostInterpreter::bindDeviceProp(const ParmVarDecl *P,
                                     const clang::Expr *Arg) {
  if (!isDeviceProp(P->getType()))
    return;
  if (devicePropVar(Arg))
    DeviceProps.insert(P);
  else
    DeviceProps.erase(P);
}

HostValue HostInterpreter::evalDeviceQuery(const FunctionDecl *FD,
                                           const CallExpr *CE, bool &Handled) {
  Handled = false;
  StringRef Name = FD->getName();
  bool Props =
      Name == "cudaGetDeviceProperties" || Name == "cudaGetDeviceProperties_v2";
  if (!(Props && CE->getNumArgs() == 2) &&
      !(Name == "cudaDeviceGetAttribute" && CE->getNumArgs() == 3))
    return HostValue();
  Handled = true;
  HostValue Success = HostValue::integer(
      0, intTypeOf(CE->getType()).value_or(IntType{32, true})); // cudaSuccess
  if (Props) {
    // cudaGetDeviceProperties(&prop, device): prop's fields are read as
    // the target's (devicePropRead).
    eval(CE->getArg(1));
    const clang::Expr *P = CE->getArg(0)->IgnoreParenImpCasts();
    const auto *UO = dyn_cast<UnaryOperator>(P);
    const auto *DRE =
        UO && UO->getOpcode() == UO_AddrOf
            ? dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts())
            : dyn_cast<DeclRefExpr>(P);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (VD && isDeviceProp(VD->getType()))
      DeviceProps.insert(VD);
    else
      warn(CE->getExprLoc(), "the cudaDeviceProp that " + Name.str() +
                                 "() fills here is not followed; its fields "
                                 "are unknown");
    return Success;
  }
  // cudaDeviceGetAttribute(&value, attribute, device).
  HostValue Out = eval(CE->getArg(0));
  HostValue A = eval(CE->getArg(1));
  eval(CE->getArg(2));
  if (stopped())
    return HostValue::unknown("not reached");
  std::string Attr;
  QualType AT = FD->getNumParams() > 1 ? FD->getParamDecl(1)->getType()
                                       : CE->getArg(1)->getType();
  if (const auto *ET = AT.getCanonicalType()->getAs<EnumType>())
    if (A.isInt())
      for (const EnumConstantDecl *EC : ET->getDecl()->enumerators())
        if (EC->getInitVal().getSExtValue() == A.I)
          Attr = EC->getName().str();
  HostValue V = HostValue::unknown("`" + text(CE) + "` (" +
                                   where(CE->getExprLoc()) + "): " +
                                   (Attr.empty() ? "the attribute is not known"
                                                 : Attr + " is not modelled"));
  for (const AttributeField &F : Attributes)
    if (Attr == F.Attr)
      V = deviceProperty(F.Field, F.Index, Ctx.IntTy, CE);
  if (Out.Kind == HostValue::AddrOf)
    write(LRef{Out.Alloc, -1}, V);
  return Success;
}

namespace {

/// The one parent of S (null when there is none or several).
const clang::Stmt *parentOf(ASTContext &Ctx, const clang::Stmt *S) {
  auto Ps = Ctx.getParents(*S);
  return Ps.size() == 1 ? Ps[0].get<clang::Stmt>() : nullptr;
}

/// Whether every use of VD in Body reads `VD[i].field` as a value: then the
/// table holds its initializer's values throughout.
class ReadOnlyTable : public RecursiveASTVisitor<ReadOnlyTable> {
public:
  ReadOnlyTable(ASTContext &Ctx, const VarDecl *VD) : Ctx(Ctx), VD(VD) {}
  bool ReadOnly = true;
  bool VisitDeclRefExpr(DeclRefExpr *DRE) {
    if (DRE->getDecl() != VD)
      return true;
    const clang::Stmt *Decay = parentOf(Ctx, DRE);
    const auto *Sub =
        Decay ? dyn_cast_or_null<ArraySubscriptExpr>(parentOf(Ctx, Decay))
              : nullptr;
    const auto *ME =
        Sub ? dyn_cast_or_null<MemberExpr>(parentOf(Ctx, Sub)) : nullptr;
    const auto *Read =
        ME ? dyn_cast_or_null<ImplicitCastExpr>(parentOf(Ctx, ME)) : nullptr;
    ReadOnly = ReadOnly && Sub && Sub->getBase()->IgnoreImpCasts() == DRE &&
               Read && Read->getCastKind() == CK_LValueToRValue;
    return true;
  }

private:
  ASTContext &Ctx;
  const VarDecl *VD;
};

} // namespace

std::optional<HostValue>
HostInterpreter::tableRead(const clang::MemberExpr *ME) {
  const auto *AS =
      dyn_cast<ArraySubscriptExpr>(ME->getBase()->IgnoreParenImpCasts());
  const auto *DRE =
      AS ? dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts())
         : nullptr;
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  const auto *FD = dyn_cast_or_null<FieldDecl>(ME->getMemberDecl());
  const auto *Init = VD && VD->hasLocalStorage() && FD
                         ? dyn_cast_or_null<InitListExpr>(VD->getInit())
                         : nullptr;
  if (!Init || ME->isArrow())
    return std::nullopt;
  auto &Known = ReadOnlyTables[VD];
  if (!Known) {
    ReadOnlyTable V(Ctx, VD);
    V.TraverseStmt(const_cast<clang::Stmt *>(
        cast<FunctionDecl>(VD->getDeclContext())->getBody()));
    Known = V.ReadOnly ? 1 : 2;
  }
  if (Known != 1)
    return std::nullopt;
  HostValue I = eval(AS->getIdx());
  if (!I.isInt())
    return I.isUnknown() ? I : HostValue::unknown("not computable");
  if (I.I < 0 || uint64_t(I.I) >= Init->getNumInits())
    return HostValue::unknown("`" + text(ME) + "` (" + where(ME->getExprLoc()) +
                              ") reads past the end of its table");
  const auto *Elem = dyn_cast<InitListExpr>(Init->getInit(unsigned(I.I)));
  if (!Elem || FD->getFieldIndex() >= Elem->getNumInits())
    return std::nullopt;
  return eval(Elem->getInit(FD->getFieldIndex()));
}

void HostInterpreter::warnUndefined(const FunctionDecl *FD,
                                    const CallExpr *CE) {
  // A function of the user's files that none of them defines: the linker
  // would take it from elsewhere; what it does is not followed.
  const SourceManager &SM = Ctx.getSourceManager();
  if (FD->hasBody() || FD->getBuiltinID() || isa<CXXMethodDecl>(FD) ||
      SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())) ||
      !UndefinedWarned.insert(FD->getCanonicalDecl()).second)
    return;
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  FD->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/true);
  warn(CE->getExprLoc(),
       Name + "() is declared (" + where(FD->getLocation()) +
           ") but defined in none of the given files: what it does, launches "
           "included, is not followed; give the file that defines it");
}

} // namespace gmem
