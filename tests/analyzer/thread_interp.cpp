//===- thread_interp.cpp - Run the model for one thread (tests only) ------===//
#include "thread_interp.h"

namespace gmem::test {

namespace {

int64_t norm(uint64_t V, IntType T) {
  switch (T.Bits) {
  case 1:
    return V & 1;
  case 8:
    return T.Signed ? int64_t(int8_t(V)) : int64_t(uint8_t(V));
  case 16:
    return T.Signed ? int64_t(int16_t(V)) : int64_t(uint16_t(V));
  case 32:
    return T.Signed ? int64_t(int32_t(V)) : int64_t(uint32_t(V));
  default:
    return int64_t(V);
  }
}

class Interp {
public:
  Interp(const Kernel &K, const ThreadEnv &Env, unsigned MaxSteps)
      : K(K), Env(Env), StepsLeft(MaxSteps) {}

  std::optional<int64_t> eval(const Expr &E) {
    auto Sub = [&](int I) { return eval(*E.Ops[I]); };
    switch (E.Kind) {
    case Op::Const:
      return norm(E.Value, E.Type);
    case Op::Param: {
      const std::string &N = K.Params[E.Index].Name;
      auto It = Env.Params.find(N);
      if (It == Env.Params.end())
        return std::nullopt;
      return norm(It->second, E.Type);
    }
    case Op::Var: {
      auto It = Slots.find(E.Index);
      if (It == Slots.end())
        return std::nullopt;
      return It->second;
    }
    case Op::Builtin: {
      const Dim3 *D[] = {&Env.Thread, &Env.Block, &Env.BlockDim, &Env.GridDim};
      if (E.Index == static_cast<int>(Builtin::WarpSize))
        return 32;
      const Dim3 &V = *D[E.Index / 3];
      uint64_t C[] = {V.X, V.Y, V.Z};
      return norm(C[E.Index % 3], E.Type);
    }
    case Op::Unknown:
      return std::nullopt;
    case Op::Cast: {
      auto A = Sub(0);
      if (!A)
        return A;
      if (E.Type.Bits == 1)
        return *A != 0;
      return norm(uint64_t(*A), E.Type);
    }
    case Op::Neg: {
      auto A = Sub(0);
      return A ? std::optional(norm(0 - uint64_t(*A), E.Type)) : A;
    }
    case Op::BitNot: {
      auto A = Sub(0);
      return A ? std::optional(norm(~uint64_t(*A), E.Type)) : A;
    }
    case Op::LNot: {
      auto A = Sub(0);
      return A ? std::optional<int64_t>(*A == 0) : A;
    }
    case Op::Select: {
      auto C = Sub(0);
      if (!C)
        return C;
      return *C ? Sub(1) : Sub(2);
    }
    case Op::LAnd: {
      auto A = Sub(0);
      if (A && !*A)
        return 0;
      auto B = Sub(1);
      if (!A || !B)
        return std::nullopt;
      return *B != 0;
    }
    case Op::LOr: {
      auto A = Sub(0);
      if (A && *A)
        return 1;
      auto B = Sub(1);
      if (!A || !B)
        return std::nullopt;
      return *B != 0;
    }
    default:
      break;
    }
    auto A = Sub(0), B = Sub(1);
    if (!A || !B)
      return std::nullopt;
    IntType OT = E.Ops[0]->Type; // Operand type (comparisons).
    uint64_t UA = uint64_t(*A), UB = uint64_t(*B);
    bool S = OT.Signed;
    switch (E.Kind) {
    case Op::Add:
      return norm(UA + UB, E.Type);
    case Op::Sub:
      return norm(UA - UB, E.Type);
    case Op::Mul:
      return norm(UA * UB, E.Type);
    case Op::Div:
    case Op::Rem: {
      if (*B == 0)
        return std::nullopt;
      bool Div = E.Kind == Op::Div;
      if (E.Type.Signed)
        return norm(Div ? uint64_t(*A / *B) : uint64_t(*A % *B), E.Type);
      return norm(Div ? UA / UB : UA % UB, E.Type);
    }
    case Op::Shl:
      if (UB >= E.Type.Bits)
        return std::nullopt;
      return norm(UA << UB, E.Type);
    case Op::Shr:
      if (UB >= E.Type.Bits)
        return std::nullopt;
      return norm(E.Type.Signed ? uint64_t(*A >> UB) : UA >> UB, E.Type);
    case Op::And:
      return norm(UA & UB, E.Type);
    case Op::Or:
      return norm(UA | UB, E.Type);
    case Op::Xor:
      return norm(UA ^ UB, E.Type);
    case Op::Lt:
      return S ? *A < *B : UA < UB;
    case Op::Le:
      return S ? *A <= *B : UA <= UB;
    case Op::Gt:
      return S ? *A > *B : UA > UB;
    case Op::Ge:
      return S ? *A >= *B : UA >= UB;
    case Op::Eq:
      return *A == *B;
    case Op::Ne:
      return *A != *B;
    case Op::Min:
      return E.Type.Signed ? std::min(*A, *B) : int64_t(std::min(UA, UB));
    case Op::Max:
      return E.Type.Signed ? std::max(*A, *B) : int64_t(std::max(UA, UB));
    default:
      return std::nullopt;
    }
  }

  enum Flow { Normal, Break, Continue, Return, Stop };

  Flow list(const std::vector<Stmt> &L) {
    for (const Stmt &S : L) {
      Flow F = stmt(S);
      if (F != Normal)
        return F;
    }
    return Normal;
  }

  Flow stmt(const Stmt &S) {
    switch (S.Kind) {
    case StmtKind::Assign: {
      auto V = eval(*S.Value);
      if (V)
        Slots[S.Slot] = norm(uint64_t(*V), K.Slots[S.Slot].Type);
      else
        Slots.erase(S.Slot);
      return Normal;
    }
    case StmtKind::If: {
      auto C = eval(*S.Cond);
      if (!C)
        return Stop; // Unknown control flow: a thread cannot follow it.
      return list(*C ? S.Then : S.Else);
    }
    case StmtKind::Loop:
      return loop(S);
    case StmtKind::Access: {
      const Access &A = K.Accesses[S.AccessId];
      Event E{A.Id, A.Kind, A.Sp, std::nullopt, A.Text};
      if (auto V = eval(*A.Address))
        E.Addr = uint64_t(*V);
      Run.Events.push_back(E);
      return Normal;
    }
    case StmtKind::Return:
      return Return;
    case StmtKind::Break:
      return Break;
    case StmtKind::Continue:
      return Continue;
    case StmtKind::Call: {
      Flow F = list(S.Body);
      return F == Return ? Normal : F;
    }
    }
    return Normal;
  }

  Flow loop(const Stmt &S) {
    bool First = true;
    while (true) {
      if (S.TestFirst || !First) {
        Flow F = list(S.CondPre);
        if (F != Normal)
          return F;
        auto C = eval(*S.Cond);
        if (!C)
          return Stop;
        if (!*C)
          return Normal;
      }
      First = false;
      if (StepsLeft-- == 0) {
        Run.Truncated = true;
        return Stop;
      }
      Flow F = list(S.Body);
      if (F == Break)
        return Normal;
      if (F == Return || F == Stop)
        return F;
      F = list(S.Step);
      if (F != Normal)
        return F;
    }
  }

  const Kernel &K;
  const ThreadEnv &Env;
  unsigned StepsLeft;
  std::map<int, int64_t> Slots;
  ThreadRun Run;
};

} // namespace

std::vector<uint64_t> ThreadRun::addresses(const std::string &Text) const {
  std::vector<uint64_t> R;
  for (const Event &E : Events)
    if (E.Text == Text && E.Addr)
      R.push_back(*E.Addr);
  return R;
}

ThreadRun runThread(const Kernel &K, const ThreadEnv &Env, unsigned MaxSteps) {
  Interp I(K, Env, MaxSteps);
  I.list(K.Body);
  return std::move(I.Run);
}

std::optional<int64_t> evalExpr(const Expr &E, const Kernel &K,
                                const ThreadEnv &Env,
                                const std::map<int, int64_t> &Slots) {
  Interp I(K, Env, 0);
  I.Slots = Slots;
  return I.eval(E);
}

} // namespace gmem::test
