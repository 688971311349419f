//===- model_check.cpp - The kernel model's invariants --------------------===//
#include "model_check.h"

namespace gmem {

unsigned operandCount(Op K) {
  switch (K) {
  case Op::Const:
  case Op::Param:
  case Op::Var:
  case Op::Builtin:
  case Op::Unknown:
    return 0;
  case Op::Cast:
  case Op::Neg:
  case Op::BitNot:
  case Op::LNot:
    return 1;
  case Op::Select:
  case Op::Shfl:
    return 3;
  default:
    return 2;
  }
}

namespace {

/// Bigger than any GPU's shared memory, small enough that offsets and sizes
/// added together cannot wrap.
constexpr uint64_t MaxSharedBytes = uint64_t(1) << 32;

bool validType(IntType T) {
  return T.Bits == 1 || T.Bits == 8 || T.Bits == 16 || T.Bits == 32 ||
         T.Bits == 64;
}

bool validAccessSize(unsigned S) {
  return S == 1 || S == 2 || S == 4 || S == 8 || S == 16;
}

std::string count(size_t N, const std::string &What) {
  const char *Plural = What.back() == 's' ? "es" : "s";
  return std::to_string(N) + " " + What + (N == 1 ? "" : Plural);
}

class Checker {
public:
  explicit Checker(const Kernel &K) : K(K) {}

  std::optional<std::string> run() {
    for (size_t I = 0; I < K.Params.size(); ++I)
      if (!validType(K.Params[I].Type))
        return at("params[" + std::to_string(I) + "]", "invalid integer type");
    for (size_t I = 0; I < K.Shared.size(); ++I) {
      const SharedArray &S = K.Shared[I];
      if (S.Offset >= MaxSharedBytes || S.Bytes >= MaxSharedBytes)
        return at("shared[" + std::to_string(I) + "]",
                  "offset " + std::to_string(S.Offset) + " or size " +
                      std::to_string(S.Bytes) +
                      " is beyond any GPU's shared memory");
    }
    for (size_t I = 0; I < K.Slots.size(); ++I)
      if (!validType(K.Slots[I].Type))
        return at("slots[" + std::to_string(I) + "]", "invalid integer type");
    for (size_t I = 0; I < K.Accesses.size(); ++I) {
      const Access &A = K.Accesses[I];
      std::string Where = "accesses[" + std::to_string(I) + "]";
      if (A.Id != int(I))
        return at(Where, "id " + std::to_string(A.Id) +
                             " differs from its position " + std::to_string(I));
      if (!validAccessSize(A.Size))
        return at(Where, "size " + std::to_string(A.Size) +
                             " is not 1, 2, 4, 8 or 16 bytes");
      if (A.SharedArray < -1 || A.SharedArray >= int(K.Shared.size()) ||
          (A.Sp == Space::Global && A.SharedArray != -1))
        return at(Where, "shared array index " + std::to_string(A.SharedArray) +
                             " is out of range (the kernel has " +
                             count(K.Shared.size(), "shared array") + ")");
      const CompiledForm &C = A.Compiled;
      if (C.State == CompiledForm::Merged &&
          ((C.Width != 8 && C.Width != 16) || C.Width <= A.Size ||
           C.Leader < -1 || C.Leader >= int(K.Accesses.size()) ||
           (C.Leader == -1 && (C.Loop < 0 || C.Loop > 64))))
        return at(Where, "compiled merge (width " + std::to_string(C.Width) +
                             ", leader " + std::to_string(C.Leader) +
                             ", loop " + std::to_string(C.Loop) +
                             ") is not a valid group");
      if (C.State == CompiledForm::Hoisted && (C.Loop < 0 || C.Loop > 64))
        return at(Where, "hoisted out of loop level " + std::to_string(C.Loop) +
                             ", which is not a valid level");
      if (C.State == CompiledForm::OncePerAddress &&
          (C.Loop < 0 || C.Loop > 64))
        return at(Where, "once per address over loop level " +
                             std::to_string(C.Loop) +
                             ", which is not a valid level");
      if (C.State == CompiledForm::Selected &&
          (C.Leader < 0 || C.Leader >= int(K.Accesses.size()) ||
           C.Leader == int(I) ||
           K.Accesses[C.Leader].Compiled.State == CompiledForm::Selected))
        return at(Where, "selected by access " + std::to_string(C.Leader) +
                             ", which is not an access standing for an "
                             "instruction");
      if (C.State == CompiledForm::Split) {
        bool Ok =
            (C.Width == 1 || C.Width == 2 || C.Width == 4 || C.Width == 8) &&
            C.Width < A.Size && !C.Parts.empty() && C.Parts.size() <= 16;
        for (size_t P = 0; Ok && P < C.Parts.size(); ++P)
          Ok = C.Parts[P] % C.Width == 0 && C.Parts[P] + C.Width <= A.Size &&
               (P == 0 || C.Parts[P] > C.Parts[P - 1]);
        if (!Ok)
          return at(Where, "compiled split (width " + std::to_string(C.Width) +
                               ", " + std::to_string(C.Parts.size()) +
                               " parts) does not fit the access of " +
                               std::to_string(A.Size) + " bytes");
      }
      if (C.OneLane && A.Kind != AccessKind::Atomic)
        return at(Where, "one elected lane issues only atomics");
      if (A.Reduction && A.Kind != AccessKind::Atomic)
        return at(Where, "a reduction must be an atomic");
      if (A.AsyncPartner != -1) {
        const int P = A.AsyncPartner;
        if (P < 0 || P >= int(K.Accesses.size()) || P == int(I) ||
            K.Accesses[P].AsyncPartner != int(I) || K.Accesses[P].Sp == A.Sp ||
            (A.Sp == Space::Global) != (A.Kind == AccessKind::Load) ||
            K.Accesses[P].Size != A.Size)
          return at(Where, "async copy partner " + std::to_string(P) +
                               " is not a shared store (or global load) of "
                               "the same size naming this access back");
      }
      if (!A.Address)
        return at(Where, "has no address");
      if (auto E = expr(*A.Address, Where + ".address", 1))
        return E;
    }
    return stmts(K.Body, "body", 1);
  }

private:
  static std::string at(const std::string &Where, const std::string &What) {
    return Where + ": " + What;
  }

  std::optional<std::string> expr(const Expr &E, const std::string &Where,
                                  unsigned Depth) {
    if (Depth > MaxExprDepth)
      return at(Where, "expression nested deeper than " +
                           std::to_string(MaxExprDepth) + " levels");
    if (!validType(E.Type))
      return at(Where, "invalid integer type");
    unsigned N = operandCount(E.Kind);
    // A loaded value keeps the address it was loaded from (makeLoaded).
    if (E.Kind == Op::Unknown && E.Ops.size() == 1)
      N = 1;
    if (E.Ops.size() != N)
      return at(Where, "operator takes " + count(N, "operand") + ", has " +
                           std::to_string(E.Ops.size()));
    auto Range = [&](size_t Size, const char *What,
                     const char *Of) -> std::optional<std::string> {
      if (E.Index >= 0 && size_t(E.Index) < Size)
        return std::nullopt;
      return at(Where, std::string(What) + " index " + std::to_string(E.Index) +
                           " is out of range (" + Of + count(Size, What) + ")");
    };
    switch (E.Kind) {
    case Op::Const:
      if (E.Value != normalize(uint64_t(E.Value), E.Type))
        return at(Where, "constant " + std::to_string(E.Value) +
                             " does not fit its type");
      return std::nullopt;
    case Op::Param:
      return Range(K.Params.size(), "parameter", "the kernel has ");
    case Op::Var:
      return Range(K.Slots.size(), "slot", "the kernel has ");
    case Op::Builtin:
      return Range(size_t(Builtin::WarpSize) + 1, "built-in", "there are ");
    case Op::Shfl:
      if (auto Err =
              Range(size_t(ShuffleMode::Xor) + 1, "shuffle mode", "there are "))
        return Err;
      break;
    default:
      break;
    }
    if (E.PointerArith &&
        (!(E.Kind == Op::Add || E.Kind == Op::Sub || E.Kind == Op::Mul) ||
         !(E.Type == IntType{64, false})))
      return at(Where, "pointer arithmetic must be an add, subtract or "
                       "multiply of type u64");
    for (size_t I = 0; I < N; ++I) {
      std::string Sub = Where + ".ops[" + std::to_string(I) + "]";
      if (!E.Ops[I])
        return at(Sub, "missing operand");
      if (auto Err = expr(*E.Ops[I], Sub, Depth + 1))
        return Err;
    }
    return std::nullopt;
  }

  std::optional<std::string> stmts(const std::vector<Stmt> &L,
                                   const std::string &Where, unsigned Depth) {
    if (Depth > MaxStmtDepth)
      return at(Where, "statements nested deeper than " +
                           std::to_string(MaxStmtDepth) + " levels");
    for (size_t I = 0; I < L.size(); ++I)
      if (auto E = stmt(L[I], Where + "[" + std::to_string(I) + "]", Depth))
        return E;
    return std::nullopt;
  }

  std::optional<std::string> needExpr(const ExprPtr &E, const char *Name,
                                      const std::string &Where) {
    if (!E)
      return at(Where, std::string("has no ") + Name);
    return expr(*E, Where + "." + Name, 1);
  }

  std::optional<std::string> stmt(const Stmt &S, const std::string &Where,
                                  unsigned Depth) {
    switch (S.Kind) {
    case StmtKind::Assign:
      if (S.Slot < 0 || size_t(S.Slot) >= K.Slots.size())
        return at(Where, "slot index " + std::to_string(S.Slot) +
                             " is out of range (the kernel has " +
                             count(K.Slots.size(), "slot") + ")");
      return needExpr(S.Value, "value", Where);
    case StmtKind::Access:
      if (S.AccessId < 0 || size_t(S.AccessId) >= K.Accesses.size())
        return at(Where, "access index " + std::to_string(S.AccessId) +
                             " is out of range (the kernel has " +
                             count(K.Accesses.size(), "access") + ")");
      return std::nullopt;
    case StmtKind::If:
      if (auto E = needExpr(S.Cond, "cond", Where))
        return E;
      if (auto E = stmts(S.Then, Where + ".then", Depth + 1))
        return E;
      return stmts(S.Else, Where + ".else", Depth + 1);
    case StmtKind::Loop:
      if (auto E = stmts(S.CondPre, Where + ".cond_pre", Depth + 1))
        return E;
      if (auto E = needExpr(S.Cond, "cond", Where))
        return E;
      if (auto E = stmts(S.Body, Where + ".body", Depth + 1))
        return E;
      return stmts(S.Step, Where + ".step", Depth + 1);
    case StmtKind::Call:
      return stmts(S.Body, Where + ".body", Depth + 1);
    case StmtKind::Return:
    case StmtKind::Break:
    case StmtKind::Continue:
      return std::nullopt;
    }
    return at(Where, "unknown statement kind");
  }

  const Kernel &K;
};

} // namespace

Expected<void> checkKernel(const Kernel &K) {
  if (std::optional<std::string> Broken = Checker(K).run())
    return Failure{*Broken};
  return {};
}

Expected<void> checkModule(const Module &M) {
  for (size_t I = 0; I < M.Kernels.size(); ++I)
    if (Expected<void> E = checkKernel(M.Kernels[I]); !E)
      return Failure{"kernels[" + std::to_string(I) + "]." + E.error()};
  return {};
}

} // namespace gmem
