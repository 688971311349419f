//===- host_calls.cpp - Host interpreter: calls and kernel launches -------===//
//
// User functions run in a frame of their own; library calls are opaque
// (what they return and what they write through &var is Unknown), except
// min/max/ceil and friends, which are computed; each <<<>>> is reported.
//
//===----------------------------------------------------------------------===//
#include "host_interpreter.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSwitch.h"
#include <cmath>

using namespace clang;

namespace gmem {

HostValue HostInterpreter::evalCall(const CallExpr *CE) {
  if (const auto *KC = dyn_cast<CUDAKernelCallExpr>(CE))
    return launch(KC);
  if (!step(CE->getBeginLoc()))
    return HostValue::unknown("not reached");
  auto At = [&] { return std::string(" at " + where(CE->getExprLoc())); };
  if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(CE)) {
    // dim3 assignment: block = dim3(16, 16).
    if (OC->getOperator() == OO_Equal && OC->getNumArgs() == 2 &&
        isTracked(OC->getArg(0)->getType())) {
      HostValue V = eval(OC->getArg(1));
      if (std::optional<LRef> R = lvalue(OC->getArg(0))) {
        write(*R, V);
        return read(*R);
      }
      return V;
    }
  }
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD) {
    HostValue C = eval(CE->getCallee());
    if (C.Kind == HostValue::Function && C.Fns.size() == 1 &&
        isUserFunction(C.Fns[0]))
      return callUser(C.Fns[0], CE);
    for (const clang::Expr *A : CE->arguments())
      eval(A);
    return HostValue::unknown("returned by a call through a pointer" + At());
  }
  if (FD->isNoReturn()) {
    for (const clang::Expr *A : CE->arguments())
      eval(A);
    State.Dead = true;
    return HostValue::unknown("does not return");
  }
  if (isUserFunction(FD))
    return callUser(FD, CE);
  bool Handled = false;
  HostValue V = evalKnownLibraryCall(FD, CE, Handled);
  if (!Handled)
    V = evalDeviceQuery(FD, CE, Handled);
  if (Handled)
    return V;
  warnUndefined(FD, CE);
  return opaqueCall(FD, CE);
}

HostValue HostInterpreter::opaqueCall(const FunctionDecl *FD,
                                      const CallExpr *CE) {
  std::string Name = FD->getNameAsString();
  std::string At = " at " + where(CE->getExprLoc());
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    if (MC->getImplicitObjectArgument() &&
        MC->getImplicitObjectArgument()->HasSideEffects(Ctx))
      eval(MC->getImplicitObjectArgument());
  if (llvm::StringSwitch<bool>(Name)
          .Cases("cudaLaunchKernel", "cudaLaunchKernelExC",
                 "cudaLaunchCooperativeKernel", true)
          .Cases("cuLaunchKernel", "cuLaunchKernelEx",
                 "cuLaunchCooperativeKernel", true)
          .Default(false))
    warn(CE->getExprLoc(), "a launch through " + Name +
                               "() is not followed; analyse its kernel with "
                               "--kernel NAME --grid X,Y,Z --block X,Y,Z");
  bool Malloc = StringRef(Name).starts_with("cudaMalloc");
  bool Input = llvm::StringSwitch<bool>(Name)
                   .Cases("scanf", "fscanf", "sscanf", "vscanf", true)
                   .Cases("fgets", "fread", "getline", "gets", "getchar", true)
                   .Cases("fgetc", "getc", "read", "operator>>", true)
                   .Cases("getenv", "strtok", true)
                   .Default(false);
  std::string Effect = (Input ? "read by " : "set by ") + Name + "()" + At;
  unsigned Shift = isa<CXXOperatorCallExpr>(CE) && isa<CXXMethodDecl>(FD);
  HostValue FromInput;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const clang::Expr *A = CE->getArg(I);
    QualType PT;
    if (I >= Shift && I - Shift < FD->getNumParams())
      PT = FD->getParamDecl(I - Shift)->getType();
    if (!PT.isNull() && PT->isLValueReferenceType() &&
        !PT.getNonReferenceType().isConstQualified()) {
      if (std::optional<LRef> R = lvalue(A)) {
        write(*R, HostValue::unknown(Effect, Input));
        continue;
      }
    }
    HostValue V = eval(A);
    if (stopped())
      return HostValue::unknown("not reached");
    if (V.Kind == HostValue::AddrOf) {
      // What the callee may write through &var.
      if (!PT.isNull() && PT->isPointerType() &&
          PT->getPointeeType().isConstQualified())
        continue;
      if (Malloc && I == 0 && Slots[V.Alloc].Ty->isPointerType())
        write(LRef{V.Alloc, -1}, HostValue::pointer(newAllocation(V.Alloc), 0));
      else
        write(LRef{V.Alloc, -1}, HostValue::unknown(Effect, Input));
    } else if (V.isUnknown() && V.FromInput && FromInput.Reason.empty()) {
      FromInput = V;
    }
  }
  if (!FromInput.Reason.empty())
    return HostValue::unknown(FromInput.Reason, true);
  return HostValue::unknown("returned by " + Name + "()" + At, Input);
}

HostValue HostInterpreter::evalKnownLibraryCall(const FunctionDecl *FD,
                                                const CallExpr *CE,
                                                bool &Handled) {
  Handled = false;
  if (!FD->getIdentifier() || isa<CXXMethodDecl>(FD))
    return HostValue();
  const DeclContext *DC = FD->getDeclContext()->getRedeclContext();
  if (!DC->isTranslationUnit() && !DC->isStdNamespace())
    return HostValue();
  HostValue S = evalStringCall(FD, CE, Handled);
  if (Handled)
    return S;
  enum Fn { None, Min, Max, Abs, Ceil, Floor, Sqrt, Round, Trunc, Log2, Pow };
  Fn K = llvm::StringSwitch<Fn>(FD->getName())
             .Cases("min", "fmin", "fminf", "umin", "llmin", Min)
             .Cases("max", "fmax", "fmaxf", "umax", "llmax", Max)
             .Cases("abs", "labs", "llabs", "fabs", "fabsf", Abs)
             .Cases("ceil", "ceilf", Ceil)
             .Cases("floor", "floorf", Floor)
             .Cases("sqrt", "sqrtf", Sqrt)
             .Cases("round", "roundf", Round)
             .Cases("trunc", "truncf", Trunc)
             .Cases("log2", "log2f", Log2)
             .Cases("pow", "powf", Pow)
             .Default(None);
  unsigned Arity = (K == Min || K == Max || K == Pow) ? 2 : 1;
  if (K == None || CE->getNumArgs() != Arity)
    return HostValue();
  Handled = true;
  QualType RT = CE->getType();
  std::vector<HostValue> A;
  for (const clang::Expr *E : CE->arguments()) {
    A.push_back(eval(E));
    if (A.back().isUnknown())
      return A.back();
    A.back() = convert(A.back(), E->getType(), RT, E);
    if (A.back().isUnknown())
      return A.back();
  }
  if (std::optional<IntType> IT = intTypeOf(RT)) {
    auto Less = [&](const HostValue &X, const HostValue &Y) {
      return IT->Signed ? X.I < Y.I : uint64_t(X.I) < uint64_t(Y.I);
    };
    switch (K) {
    case Min:
      return Less(A[1], A[0]) ? A[1] : A[0];
    case Max:
      return Less(A[0], A[1]) ? A[1] : A[0];
    case Abs:
      return HostValue::integer(
          A[0].I < 0 ? int64_t(0 - uint64_t(A[0].I)) : A[0].I, *IT);
    default:
      Handled = false;
      return HostValue();
    }
  }
  if (!RT->isRealFloatingType() || A[0].Kind != HostValue::Float) {
    Handled = false;
    return HostValue();
  }
  double X = A[0].F, Y = Arity == 2 ? A[1].F : 0, Z = 0;
  switch (K) {
  case Min:
    Z = std::fmin(X, Y);
    break;
  case Max:
    Z = std::fmax(X, Y);
    break;
  case Abs:
    Z = std::fabs(X);
    break;
  case Ceil:
    Z = std::ceil(X);
    break;
  case Floor:
    Z = std::floor(X);
    break;
  case Sqrt:
    Z = std::sqrt(X);
    break;
  case Round:
    Z = std::round(X);
    break;
  case Trunc:
    Z = std::trunc(X);
    break;
  case Log2:
    Z = std::log2(X);
    break;
  case Pow:
    Z = std::pow(X, Y);
    break;
  case None:
    break;
  }
  return convert(HostValue::floating(Z), RT, RT, CE);
}

HostValue HostInterpreter::callUser(const FunctionDecl *FD,
                                    const CallExpr *CE) {
  const FunctionDecl *Def = nullptr;
  FD->hasBody(Def);
  std::string Name = Def->getNameAsString();
  auto At = [&] { return std::string(" at " + where(CE->getExprLoc())); };
  unsigned Active = 0;
  for (const Frame &F : Frames)
    Active += F.FD == Def;
  // Recursion whose conditions are unknown runs every branch: keep it short.
  if (Frames.size() > Limits.MaxCallDepth ||
      Active >= Limits.MaxRecursionDepth) {
    warn(CE->getExprLoc(),
         "calls nest deeper than " +
             std::to_string(Frames.size() > Limits.MaxCallDepth
                                ? Limits.MaxCallDepth
                                : Limits.MaxRecursionDepth) +
             "; " + Name + "() is not followed");
    for (const clang::Expr *A : CE->arguments())
      eval(A);
    return HostValue::unknown("returned by " + Name + "()" + At() +
                              ", which is not followed (calls nest too deep)");
  }
  struct Bound {
    const ParmVarDecl *P = nullptr;
    int Alias = -1;
    HostValue V;
  };
  std::vector<Bound> Params;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const clang::Expr *A = CE->getArg(I);
    if (I >= Def->getNumParams()) {
      eval(A); // Variadic.
      continue;
    }
    Bound B;
    B.P = Def->getParamDecl(I);
    bindDeviceProp(B.P, A);
    std::optional<LRef> R;
    if (B.P->getType()->isReferenceType())
      R = lvalue(A);
    if (R && R->Slot >= 0 && R->Index < 0)
      B.Alias = R->Slot;
    else if (R)
      B.V = read(*R);
    else
      B.V = eval(A);
    if (stopped())
      return HostValue::unknown("not reached");
    Params.push_back(std::move(B));
  }
  std::string OuterWhy = State.Why;
  bool OuterInput = State.WhyFromInput;
  Frames.emplace_back();
  Frames.back().Id = NextFrameId++;
  Frames.back().FD = Def;
  for (Bound &B : Params) {
    if (B.Alias >= 0) {
      Frames.back().Vars[B.P] = B.Alias;
      continue;
    }
    if (!isTracked(B.P->getType()))
      continue;
    int Slot = newSlot(B.P, B.P->getType().getNonReferenceType());
    Frames.back().Vars[B.P] = Slot;
    write(LRef{Slot, -1}, std::move(B.V));
  }
  exec(Def->getBody());
  Frame Done = std::move(Frames.back());
  Frames.pop_back();
  auto Forget = [&](PathState &S) {
    for (const auto &[VD, Slot] : Done.Vars)
      if (Slots[Slot].FrameId == Done.Id)
        S.Values.erase(Slot);
  };
  if (UnwindTo || Aborted) {
    Forget(State);
    return HostValue::unknown("not reached");
  }
  if (!State.Dead) {
    Done.Returns.push_back(State);
    Done.ReturnValues.push_back(
        HostValue::unknown(Name + "() returns no value"));
  }
  if (Done.Returns.empty())
    return HostValue::unknown(Name + "() does not return"); // Path is dead.
  HostValue RV = Done.ReturnValues[0];
  for (size_t I = 1; I < Done.Returns.size(); ++I) {
    const PathState &P =
        !Done.Returns[I].Why.empty() ? Done.Returns[I] : Done.Returns[0];
    std::string Why = !P.Why.empty() ? P.Why
                                     : "depends on which return of " + Name +
                                           "() runs" + At();
    RV = mergeValues(RV, Done.ReturnValues[I], Why, P.WhyFromInput);
  }
  for (PathState &S : Done.Returns)
    Forget(S);
  join(std::move(Done.Returns), OuterWhy, OuterInput, CE->getExprLoc());
  // An allocation made for the callee's local has, once returned, no name
  // until the caller stores it (float *in = dalloc(n) names it "in").
  if (RV.Kind == HostValue::Pointer && RV.Alloc >= 0 &&
      Allocations[RV.Alloc].FrameId == Done.Id) {
    Allocations[RV.Alloc].Owner = nullptr;
    Allocations[RV.Alloc].FrameId = -1;
    Allocations[RV.Alloc].Text = text(CE);
  }
  return RV;
}

HostValue HostInterpreter::launch(const CUDAKernelCallExpr *KC) {
  if (!step(KC->getBeginLoc()))
    return HostValue::unknown("not reached");
  const CallExpr *Config = KC->getConfig();
  SourceLocation LaunchLoc = Config ? Config->getBeginLoc() : KC->getBeginLoc();
  HostValue Grid = HostValue::unknown("no grid");
  HostValue Block = HostValue::unknown("no block");
  HostValue Smem = HostValue::integer(0, IntType{64, false});
  if (Config) {
    if (Config->getNumArgs() > 0)
      Grid = eval(Config->getArg(0));
    if (Config->getNumArgs() > 1)
      Block = eval(Config->getArg(1));
    if (Config->getNumArgs() > 2)
      Smem = eval(Config->getArg(2));
    for (unsigned I = 3; I < Config->getNumArgs(); ++I)
      eval(Config->getArg(I));
  }
  std::vector<const FunctionDecl *> Callees;
  if (const FunctionDecl *FD = KC->getDirectCallee()) {
    Callees.push_back(FD);
  } else {
    HostValue C = eval(KC->getCallee());
    if (C.Kind == HostValue::Function)
      Callees = C.Fns;
    else
      warn(LaunchLoc,
           "the kernel launched here is not known (" +
               (C.Reason.empty() ? std::string("not computable") : C.Reason) +
               "); the launch is not reported");
  }
  std::vector<HostValue> Args;
  for (const clang::Expr *A : KC->arguments())
    Args.push_back(eval(A));
  if (stopped())
    return HostValue::unknown("not reached");
  for (const FunctionDecl *FD : Callees) {
    if (Launches >= Limits.MaxLaunches) {
      warn(LaunchLoc, "more than " + std::to_string(Limits.MaxLaunches) +
                          " launches; later launches are not reported");
      Aborted = true;
      break;
    }
    ++Launches;
    HostLaunch L;
    L.Kernel = FD;
    L.Call = KC;
    L.Grid = Grid;
    L.Block = Block;
    L.Smem = Smem;
    L.Loc = sourceLoc(LaunchLoc);
    for (unsigned I = 0; I < FD->getNumParams(); ++I) {
      if (I < Args.size()) {
        L.Args.push_back(
            argValue(Args[I], FD->getParamDecl(I)->getType(), KC->getArg(I)));
      } else {
        ArgValue A;
        A.Reason = "no argument";
        L.Args.push_back(A);
      }
    }
    OnLaunch(L);
  }
  return HostValue::unknown("a launch has no value");
}

ArgValue HostInterpreter::argValue(const HostValue &V, QualType ParamTy,
                                   const clang::Expr *Arg) {
  ArgValue A;
  QualType T = ParamTy.getNonReferenceType().getCanonicalType();
  std::string Why = V.Reason.empty()
                        ? "`" + text(Arg) + "` at " + where(Arg->getExprLoc()) +
                              " is not computable"
                        : V.Reason;
  if (T->isPointerType() || T->isArrayType()) {
    if (V.Kind == HostValue::Pointer && V.isVaguePointer()) {
      A.Reason = "the offset of `" + text(Arg) + "` is not known: " + Why;
      return A;
    }
    A.Kind = ArgValue::Pointer;
    if (V.Kind == HostValue::Pointer) {
      A.Allocation = allocationName(V.Alloc);
      A.AlignOffset = uint64_t(((V.I % 256) + 256) % 256);
    } else if (V.Kind == HostValue::AddrOf && Slots[V.Alloc].Var) {
      A.Allocation = "&" + Slots[V.Alloc].Var->getName().str();
    } else {
      // Not known: taken as an allocation of its own, as cudaMalloc makes.
      A.Allocation = text(Arg);
    }
    return A;
  }
  if (std::optional<IntType> IT = intTypeOf(T)) {
    HostValue C = V.isNumber() ? convert(V, QualType(), T, Arg) : V;
    if (C.isInt()) {
      A.Kind = ArgValue::Int;
      A.IntValue = C.I;
    } else {
      A.Reason = C.Reason.empty() ? Why : C.Reason;
    }
    return A;
  }
  if (T->isRealFloatingType()) {
    HostValue C = V.isNumber() ? convert(V, QualType(), T, Arg) : V;
    if (C.Kind == HostValue::Float) {
      A.Kind = ArgValue::Float;
      A.FloatValue = C.F;
    } else {
      A.Reason = C.Reason.empty() ? Why : C.Reason;
    }
    return A;
  }
  A.Reason =
      "an argument of type " + ParamTy.getAsString() + " is not modelled";
  return A;
}

} // namespace gmem
