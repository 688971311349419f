//===- model.cpp - Kernel model constructors and printing -----------------===//
#include "model.h"

namespace gmem {

std::string locText(const SourceLoc &L) {
  return L.File + ":" + std::to_string(L.Line) +
         (L.Col ? ":" + std::to_string(L.Col) : "");
}

static std::shared_ptr<Expr> make(Op K, IntType T,
                                  std::vector<ExprPtr> Ops = {}) {
  auto E = std::make_shared<Expr>();
  E->Kind = K;
  E->Type = T;
  E->Ops = std::move(Ops);
  return E;
}

ExprPtr makeConst(int64_t V, IntType T) {
  auto E = make(Op::Const, T);
  // Stored as the device holds it, so that comparisons see the same bits.
  E->Value = normalize(uint64_t(V), T);
  return E;
}

ExprPtr makeParam(int Index, IntType T) {
  auto E = make(Op::Param, T);
  E->Index = Index;
  return E;
}

ExprPtr makeVar(int Index, IntType T) {
  auto E = make(Op::Var, T);
  E->Index = Index;
  return E;
}

ExprPtr makeBuiltin(Builtin B) {
  // threadIdx & co. are unsigned int in CUDA; warpSize is int.
  auto E = make(Op::Builtin, B == Builtin::WarpSize ? IntType{32, true}
                                                    : IntType{32, false});
  E->Index = static_cast<int>(B);
  return E;
}

ExprPtr makeUnknown(std::string Reason, IntType T, UnknownCause C) {
  auto E = make(Op::Unknown, T);
  E->Reason = std::move(Reason);
  E->Cause = C;
  return E;
}

ExprPtr makeUnknown(const Why &W, IntType T) {
  return makeUnknown(W.Text, T, W.Cause);
}

const char *causeName(UnknownCause C) {
  switch (C) {
  case UnknownCause::LoadedData:
    return "loaded_data";
  case UnknownCause::PointerOverflow:
    return "pointer_overflow";
  case UnknownCause::Timing:
    return "timing";
  default:
    return "unmodelled";
  }
}

std::optional<UnknownCause> causeNamed(const std::string &Name) {
  for (UnknownCause C : {UnknownCause::Unmodelled, UnknownCause::LoadedData,
                         UnknownCause::PointerOverflow, UnknownCause::Timing})
    if (Name == causeName(C))
      return C;
  return std::nullopt;
}

ExprPtr makeLoaded(std::string Reason, ExprPtr Addr, IntType T, bool Pointer) {
  auto E = make(Op::Unknown, T, {std::move(Addr)});
  E->Reason = std::move(Reason);
  E->Cause = UnknownCause::LoadedData;
  E->Index = Pointer ? 1 : -1;
  return E;
}

ExprPtr makeCast(ExprPtr E, IntType T) { return make(Op::Cast, T, {E}); }

std::string recordedWarning(const Kernel &K, const std::string &W) {
  for (const Access &A : K.Accesses) {
    const std::string Is = "address of '" + A.Text + "' is not modelled: ";
    const size_t At = W.find(Is);
    if (A.DataDependent && At != std::string::npos)
      return W.substr(0, At) + "address of '" + A.Text + "' " +
             W.substr(At + Is.size()) +
             "; the recorded launches read those values where the host "
             "wrote them (see each access)";
  }
  return W;
}
ExprPtr makeUnary(Op K, ExprPtr E, IntType T) { return make(K, T, {E}); }
ExprPtr makeBinary(Op K, ExprPtr L, ExprPtr R, IntType T) {
  return make(K, T, {L, R});
}
ExprPtr makePointerArith(Op K, ExprPtr L, ExprPtr R) {
  auto E = make(K, IntType{64, false}, {L, R});
  E->PointerArith = true;
  return E;
}
ExprPtr makeSelect(ExprPtr C, ExprPtr T, ExprPtr F, IntType Ty) {
  return make(Op::Select, Ty, {C, T, F});
}

ExprPtr makeShuffle(ShuffleMode M, ExprPtr V, ExprPtr B, ExprPtr Width) {
  IntType T = V->Type;
  auto E = make(Op::Shfl, T, {V, B, Width});
  E->Index = static_cast<int>(M);
  return E;
}

// PTX shfl.sync: a segment of Width lanes; Idx reads lane B mod Width of
// it, Up lane - B and Down lane + B when inside it, Xor lane ^ B when not
// in a later segment; otherwise the lane keeps its own value.
int shuffleSource(ShuffleMode M, unsigned Lane, int64_t B, int64_t Width) {
  if (Width < 1 || Width > 32 || (Width & (Width - 1)))
    return -1;
  int64_t First = Lane & ~(Width - 1), Last = First + Width - 1;
  int64_t S = Lane;
  switch (M) {
  case ShuffleMode::Idx:
    S = First + (B & (Width - 1));
    break;
  case ShuffleMode::Up:
    S = int64_t(Lane) - (B & 31); // The hardware uses the low 5 bits.
    break;
  case ShuffleMode::Down:
    S = int64_t(Lane) + (B & 31);
    break;
  case ShuffleMode::Xor:
    S = int64_t(Lane) ^ (B & 31);
    if (S < First) // An earlier segment: allowed.
      return static_cast<int>(S);
    break;
  }
  return S < First || S > Last ? static_cast<int>(Lane) : static_cast<int>(S);
}

static const char *builtinName(int B) {
  static const char *Names[] = {
      "threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x", "blockIdx.y",
      "blockIdx.z",  "blockDim.x",  "blockDim.y",  "blockDim.z", "gridDim.x",
      "gridDim.y",   "gridDim.z",   "warpSize"};
  return B >= 0 && B <= static_cast<int>(Builtin::WarpSize) ? Names[B] : "?";
}

static const char *binarySpelling(Op K) {
  switch (K) {
  case Op::Add:
    return "+";
  case Op::Sub:
    return "-";
  case Op::Mul:
    return "*";
  case Op::Div:
    return "/";
  case Op::Rem:
    return "%";
  case Op::Shl:
    return "<<";
  case Op::Shr:
    return ">>";
  case Op::And:
    return "&";
  case Op::Or:
    return "|";
  case Op::Xor:
    return "^";
  case Op::Lt:
    return "<";
  case Op::Le:
    return "<=";
  case Op::Gt:
    return ">";
  case Op::Ge:
    return ">=";
  case Op::Eq:
    return "==";
  case Op::Ne:
    return "!=";
  case Op::LAnd:
    return "&&";
  case Op::LOr:
    return "||";
  default:
    return nullptr;
  }
}

static void markParams(const Expr *E, std::vector<bool> &Read) {
  if (!E)
    return;
  if (E->Kind == Op::Param && E->Index >= 0 && size_t(E->Index) < Read.size())
    Read[size_t(E->Index)] = true;
  for (const ExprPtr &O : E->Ops)
    markParams(O.get(), Read);
}

static void markParams(const std::vector<Stmt> &L, std::vector<bool> &Read) {
  for (const Stmt &S : L) {
    markParams(S.Value.get(), Read);
    markParams(S.Cond.get(), Read);
    for (const std::vector<Stmt> *Sub :
         {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      markParams(*Sub, Read);
  }
}

std::vector<bool> Kernel::paramsRead() const {
  std::vector<bool> Read(Params.size(), false);
  markParams(Body, Read);
  for (const Access &A : Accesses)
    markParams(A.Address.get(), Read);
  return Read;
}

std::string toString(const Expr &E, const Kernel *K) {
  auto Sub = [&](int I) { return toString(*E.Ops[I], K); };
  switch (E.Kind) {
  case Op::Const:
    return std::to_string(E.Value);
  case Op::Param:
    if (K && E.Index >= 0 && E.Index < (int)K->Params.size())
      return K->Params[E.Index].Name;
    return "param" + std::to_string(E.Index);
  case Op::Var:
    if (K && E.Index >= 0 && E.Index < (int)K->Slots.size())
      return K->Slots[E.Index].Name;
    return "v" + std::to_string(E.Index);
  case Op::Builtin:
    return builtinName(E.Index);
  case Op::Unknown:
    return "unknown(" + E.Reason + ")";
  case Op::Cast:
    return std::string("(") + (E.Type.Signed ? "i" : "u") +
           std::to_string(E.Type.Bits) + ")" + Sub(0);
  case Op::Neg:
    return "-" + Sub(0);
  case Op::BitNot:
    return "~" + Sub(0);
  case Op::LNot:
    return "!" + Sub(0);
  case Op::Min:
    return "min(" + Sub(0) + ", " + Sub(1) + ")";
  case Op::Max:
    return "max(" + Sub(0) + ", " + Sub(1) + ")";
  case Op::Select:
    return "(" + Sub(0) + " ? " + Sub(1) + " : " + Sub(2) + ")";
  case Op::Shfl: {
    static const char *Names[] = {"shfl", "shfl_up", "shfl_down", "shfl_xor"};
    return std::string(Names[E.Index & 3]) + "(" + Sub(0) + ", " + Sub(1) +
           ", " + Sub(2) + ")";
  }
  default:
    if (const char *S = binarySpelling(E.Kind))
      return "(" + Sub(0) + " " + S + " " + Sub(1) + ")";
    return "?";
  }
}

int Kernel::paramIndex(const std::string &N) const {
  for (size_t I = 0; I < Params.size(); ++I)
    if (Params[I].Name == N)
      return static_cast<int>(I);
  return -1;
}

const Kernel *Module::findKernel(const std::string &N) const {
  for (const Kernel &K : Kernels)
    if (K.Name == N)
      return &K;
  return nullptr;
}

} // namespace gmem
