//===- matcher.cpp - Which SASS instructions each source access became ----===//
#include "matcher.h"
#include "device_name.h"
#include "guarded.h"
#include "int_semantics.h"
#include "select_merge.h"
#include "stmt_walk.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"

#include "llvm/Support/Path.h"
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace gmem {

namespace {

/// The shared-atomic form (SharedAtomicForm) the opcodes of Is say, where
/// they agree.
std::optional<SharedAtomicForm>
sassSharedAtomicForm(const std::vector<const SassInstr *> &Is) {
  std::optional<SharedAtomicForm> Form;
  for (const SassInstr *I : Is) {
    const std::string &Op = I->Opcode;
    const SharedAtomicForm F =
        Op.rfind("ATOMS.POPC.INC", 0) == 0    ? SharedAtomicForm::PerWord
        : Op.rfind("ATOMS.CAST.SPIN", 0) == 0 ? SharedAtomicForm::SpinRound
        : Op.rfind("ATOMS.CAS", 0) == 0       ? SharedAtomicForm::PerLanePair
                                              : SharedAtomicForm::PerLane;
    if (Form && *Form != F)
      return std::nullopt;
    Form = F;
  }
  return Form;
}

/// Where each access sits: its enclosing loops, innermost first.
struct Context {
  std::vector<std::vector<const Stmt *>> Loops; ///< Per access id.
  /// The statement before each loop (where `int i = 0` is).
  std::map<const Stmt *, const Stmt *> Before;
};

void walk(const std::vector<Stmt> &L, std::vector<const Stmt *> &Stack,
          Context &C) {
  for (const Stmt &S : L) {
    if (S.Kind == StmtKind::Loop && &S != &L.front())
      C.Before[&S] = &S - 1;
    if (S.Kind == StmtKind::Access && S.AccessId >= 0 &&
        S.AccessId < (int)C.Loops.size())
      C.Loops[S.AccessId].assign(Stack.rbegin(), Stack.rend());
    bool IsLoop = S.Kind == StmtKind::Loop;
    if (IsLoop)
      Stack.push_back(&S);
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      walk(*Sub, Stack, C);
    if (IsLoop)
      Stack.pop_back();
  }
}

/// Slots assigned in L (at any depth) and how often.
void assignments(const std::vector<Stmt> &L, std::map<int, const Expr *> &Def,
                 std::map<int, int> &Count) {
  for (const Stmt &S : L) {
    if (S.Kind == StmtKind::Assign) {
      Def[S.Slot] = S.Value.get();
      ++Count[S.Slot];
    }
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      assignments(*Sub, Def, Count);
  }
}

bool usesSlots(const Expr &E, const std::map<int, int> &Slots) {
  if (E.Kind == Op::Var && Slots.count(E.Index))
    return true;
  if (E.Kind == Op::Unknown)
    return true;
  for (const ExprPtr &O : E.Ops)
    if (usesSlots(*O, Slots))
      return true;
  return false;
}

/// A loop's induction slot and step: its Step assigns v = v + c.
bool inductionOf(const Stmt &Loop, int &Slot, int64_t &Step) {
  for (const Stmt &S : Loop.Step) {
    if (S.Kind != StmtKind::Assign || !S.Value)
      continue;
    const Expr *V = S.Value.get();
    while (V->Kind == Op::Cast)
      V = V->Ops[0].get();
    if (V->Kind != Op::Add && V->Kind != Op::Sub)
      continue;
    const Expr *L = V->Ops[0].get(), *R = V->Ops[1].get();
    while (L->Kind == Op::Cast)
      L = L->Ops[0].get();
    while (R->Kind == Op::Cast)
      R = R->Ops[0].get();
    if (L->Kind == Op::Var && L->Index == S.Slot && R->Kind == Op::Const &&
        R->Value != INT64_MIN) {
      Slot = S.Slot;
      Step = V->Kind == Op::Add ? R->Value : -R->Value;
      return true;
    }
  }
  return false;
}

/// Evaluates E with every leaf given an arbitrary but fixed value, except
/// the slots in Fixed and those defined once in Defs (expanded). Fails on
/// unknowns and undefined operations.
struct ScalarEval {
  const std::map<int, int64_t> &Fixed;
  const std::map<int, const Expr *> &Defs;
  uint64_t Seed;
  unsigned Depth = 0;

  int64_t leaf(int Kind, int Index) const {
    // Distinct, moderately sized values; pointers get aligned bases.
    uint64_t H = (Seed * 0x9e3779b97f4a7c15ull) ^ (uint64_t(Kind) << 32) ^
                 uint64_t(Index + 1) * 0xff51afd7ed558ccdull;
    return int64_t((H >> 33) % 61 + 3);
  }

  bool eval(const Expr &E, int64_t &Out) {
    if (++Depth > 2000)
      return false;
    bool Ok = evalImpl(E, Out);
    --Depth;
    if (Ok)
      Out = normalize(uint64_t(Out), E.Type);
    return Ok;
  }

  bool evalImpl(const Expr &E, int64_t &Out) {
    switch (E.Kind) {
    case Op::Const:
      Out = E.Value;
      return true;
    case Op::Param:
      // Pointers: aligned bases 2^36 apart, shifted by the seed so that two
      // different pointers are never a fixed distance apart (they may
      // alias, or not).
      Out = E.Type.Bits == 64 && !E.Type.Signed
                ? int64_t((uint64_t(E.Index + 1) << 36) +
                          (Seed * uint64_t(E.Index + 1) << 24))
                : leaf(1, E.Index);
      return true;
    case Op::Var: {
      auto F = Fixed.find(E.Index);
      if (F != Fixed.end()) {
        Out = F->second;
        return true;
      }
      auto D = Defs.find(E.Index);
      if (D != Defs.end())
        return eval(*D->second, Out);
      Out = leaf(2, E.Index);
      return true;
    }
    case Op::Builtin:
      Out = E.Index == int(Builtin::WarpSize) ? 32 : leaf(3, E.Index);
      return true;
    case Op::Unknown:
      return false;
    default:
      break;
    }
    std::vector<int64_t> V(E.Ops.size());
    for (size_t I = 0; I < E.Ops.size(); ++I)
      if (!eval(*E.Ops[I], V[I]))
        return false;
    if (isIntBinary(E.Kind)) {
      // C++'s operators (int_semantics.h): a comparison in its operands'
      // type, the rest in the result's; undefined ones have no value.
      return intBinary(E.Kind, isComparison(E.Kind) ? E.Ops[0]->Type : E.Type,
                       V[0], V[1], Out,
                       E.Ops[1]->Type.Signed) == IntFault::None;
    }
    auto U = [](int64_t X) { return uint64_t(X); };
    switch (E.Kind) {
    case Op::Cast:
      Out = V[0];
      return true;
    case Op::Neg:
      Out = int64_t(0 - U(V[0]));
      return true;
    case Op::BitNot:
      Out = int64_t(~U(V[0]));
      return true;
    case Op::LNot:
      Out = V[0] == 0;
      return true;
    case Op::LAnd:
      Out = V[0] && V[1];
      return true;
    case Op::LOr:
      Out = V[0] || V[1];
      return true;
    case Op::Select:
      Out = V[0] ? V[1] : V[2];
      return true;
    default:
      return false;
    }
  }
};

/// The loop (0 = innermost) along whose iterations A's address advances by
/// exactly A.Size, or -1: such an access can be widened by unrolling.
int contiguousLoop(const Kernel &K, const Access &A,
                   const std::vector<const Stmt *> &Loops) {
  if (!A.Address || A.UnknownReason)
    return -1;
  for (size_t M = 0; M < Loops.size(); ++M) {
    int Slot;
    int64_t Step;
    if (!inductionOf(*Loops[M], Slot, Step) || Step == 0 ||
        Step > (int64_t(1) << 40) || Step < -(int64_t(1) << 40))
      continue;
    // Slots assigned once inside this loop are expanded to their value.
    std::map<int, const Expr *> Def;
    std::map<int, int> Count;
    assignments(Loops[M]->Body, Def, Count);
    for (const auto &[S, N] : Count)
      if (N != 1)
        Def.erase(S);
    Def.erase(Slot);
    bool Contiguous = true;
    for (uint64_t Seed = 1; Contiguous && Seed <= 3; ++Seed)
      for (int64_t Base : {int64_t(0), int64_t(4) * Step}) {
        int64_t A0, A1;
        std::map<int, int64_t> F0 = {{Slot, Base}}, F1 = {{Slot, Base + Step}};
        ScalarEval E0{F0, Def, Seed}, E1{F1, Def, Seed};
        if (!E0.eval(*A.Address, A0) || !E1.eval(*A.Address, A1) ||
            int64_t(uint64_t(A1) - uint64_t(A0)) != int64_t(A.Size)) {
          Contiguous = false;
          break;
        }
      }
    if (Contiguous)
      return int(M);
  }
  (void)K;
  return -1;
}

/// Whether L (at any depth) leaves or skips ahead in its loop or function.
bool hasJump(const std::vector<Stmt> &L) {
  for (const Stmt &S : L) {
    if (S.Kind == StmtKind::Break || S.Kind == StmtKind::Continue ||
        S.Kind == StmtKind::Return)
      return true;
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      if (hasJump(*Sub))
        return true;
  }
  return false;
}

/// The induction values of a loop whose trip count is a compile-time
/// constant (given the values of the loops around it in Fixed): `for (v =
/// c0; cond(v, constants); v += c)`. Such a loop is what nvcc unrolls fully.
bool constantIterations(const Stmt &Loop, const Context &C,
                        const std::map<int, int64_t> &Fixed,
                        std::vector<int64_t> &Out) {
  int Slot;
  int64_t Step;
  auto Prev = C.Before.find(&Loop);
  if (!Loop.TestFirst || !Loop.Cond || !Loop.CondPre.empty() ||
      !inductionOf(Loop, Slot, Step) || Step == 0 || Prev == C.Before.end() ||
      Prev->second->Kind != StmtKind::Assign || Prev->second->Slot != Slot ||
      !Prev->second->Value || hasJump(Loop.Body))
    return false;
  std::map<int, const Expr *> Def;
  std::map<int, int> Count;
  assignments(Loop.Body, Def, Count);
  if (Count.count(Slot))
    return false;
  // Constant: the same under two arbitrary assignments of the other leaves.
  const std::map<int, const Expr *> None;
  auto Constant = [&](const Expr &E, const std::map<int, int64_t> &F,
                      int64_t &V) {
    int64_t V2;
    ScalarEval E1{F, None, 1}, E2{F, None, 2};
    return E1.eval(E, V) && E2.eval(E, V2) && V == V2;
  };
  int64_t V;
  if (!Constant(*Prev->second->Value, Fixed, V))
    return false;
  Out.clear();
  for (;;) {
    std::map<int, int64_t> F = Fixed;
    F[Slot] = V;
    int64_t Go;
    if (!Constant(*Loop.Cond, F, Go))
      return false;
    if (!Go)
      return true;
    if (Out.size() >= 4096)
      return false; // Too long to be unrolled fully.
    Out.push_back(V);
    if (__builtin_add_overflow(V, Step, &V))
      return false;
  }
}

/// Over the iterations of A's Levels innermost loops, all of constant trip
/// count: how many executions (Runs) and how many distinct addresses
/// (Distinct, per thread, whatever the other values).
bool unrolledAddresses(const Access &A, const std::vector<const Stmt *> &Loops,
                       unsigned Levels, const Context &C, size_t &Runs,
                       size_t &Distinct) {
  if (!A.Address || A.UnknownReason || Levels == 0 || Levels > Loops.size())
    return false;
  // Slots assigned once in the outermost of them are expanded.
  std::map<int, const Expr *> Def;
  std::map<int, int> Count, Multi;
  assignments(Loops[Levels - 1]->Body, Def, Count);
  for (const auto &[S, N] : Count)
    if (N != 1) {
      Def.erase(S);
      Multi[S] = N;
    }
  // The loops' own induction variables are enumerated below.
  for (unsigned Level = 0; Level < Levels; ++Level) {
    int Slot;
    int64_t Step;
    if (inductionOf(*Loops[Level], Slot, Step)) {
      Def.erase(Slot);
      Multi.erase(Slot);
    }
  }
  // Another slot that changes from one iteration to the next: its values
  // are not followed here.
  if (usesSlots(*A.Address, Multi))
    return false;
  std::set<std::vector<int64_t>> Seen;
  Runs = 0;
  std::map<int, int64_t> Fixed;
  // Outermost (Levels - 1) to innermost (0).
  std::function<bool(int)> Enumerate = [&](int Level) -> bool {
    if (Level < 0) {
      std::vector<int64_t> Addr;
      for (uint64_t Seed = 1; Seed <= 3; ++Seed) {
        int64_t V;
        ScalarEval E{Fixed, Def, Seed};
        if (!E.eval(*A.Address, V))
          return false;
        Addr.push_back(V);
      }
      Seen.insert(Addr);
      return ++Runs <= 65536;
    }
    const Stmt &L = *Loops[size_t(Level)];
    int Slot;
    int64_t Step;
    std::vector<int64_t> Values;
    if (!inductionOf(L, Slot, Step) || !constantIterations(L, C, Fixed, Values))
      return false;
    for (int64_t V : Values) {
      Fixed[Slot] = V;
      if (!Enumerate(Level - 1))
        return false;
    }
    Fixed.erase(Slot);
    return true;
  };
  if (!Enumerate(int(Levels) - 1))
    return false;
  Distinct = Seen.size();
  return true;
}

/// What an instruction can stand for: global or shared memory, and a load,
/// store, atomic (reductions included) or async copy. Generic addresses are
/// global memory in gmem's kernels; an async copy is keyed by its global
/// side (its shared side follows it, Access::AsyncPartner).
struct Class {
  bool Shared = false;
  int Kind = 0; ///< AccessKind, or AsyncKind.
  bool operator==(const Class &O) const {
    return Shared == O.Shared && Kind == O.Kind;
  }
};
constexpr int AsyncKind = 3;

Class classOf(const Access &A) {
  if (A.AsyncPartner >= 0)
    return {false, AsyncKind};
  return {A.Sp == Space::Shared, int(A.Kind)};
}

Class classOf(const SassInstr &I) {
  if (I.Space == SassSpace::Async)
    return {false, AsyncKind};
  int Kind = I.Kind == SassKind::Load    ? int(AccessKind::Load)
             : I.Kind == SassKind::Store ? int(AccessKind::Store)
                                         : int(AccessKind::Atomic);
  return {I.Space == SassSpace::Shared, Kind};
}

/// How far the line table puts I from source lines [Lo, Hi]: 0 inside, a
/// line after counts 1, a line before 2 (nvcc puts the instruction of a
/// selected address after the branches, where the value is used).
uint64_t lineDistance(const SassInstr &I, unsigned Lo, unsigned Hi) {
  if (I.Where.empty())
    return ~uint64_t(0) - 1;
  unsigned L = I.Where[0].Line;
  return L < Lo ? 2 * uint64_t(Lo - L) : L > Hi ? uint64_t(L - Hi) : 0;
}

/// Per access, the line of the call of the innermost inlined function it is
/// in (0 outside any).
std::vector<unsigned> callSites(const Kernel &K) {
  std::vector<unsigned> Out(K.Accesses.size(), 0);
  std::function<void(const std::vector<Stmt> &, unsigned)> Walk =
      [&](const std::vector<Stmt> &L, unsigned Site) {
        for (const Stmt &S : L) {
          if (S.Kind == StmtKind::Access && S.AccessId >= 0 &&
              size_t(S.AccessId) < Out.size())
            Out[S.AccessId] = Site;
          unsigned Inner = S.Kind == StmtKind::Call ? S.Loc.Line : Site;
          for (const auto *Sub :
               {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
            Walk(*Sub, Inner);
        }
      };
  Walk(K.Body, 0);
  return Out;
}

/// Files are compared by name: the SASS has nvcc's absolute paths, the
/// model the path Clang was given.
std::string fileKey(const std::string &F) {
  return llvm::sys::path::filename(F).str();
}

std::string lineText(const Access &A) {
  return A.Loc.File + ":" + std::to_string(A.Loc.Line);
}

std::string instrName(const Access &A) {
  std::string Op = A.Kind == AccessKind::Load    ? "load"
                   : A.Kind == AccessKind::Store ? "store"
                                                 : "atomic";
  return std::string(A.Sp == Space::Shared ? "shared " : "global ") + Op;
}

/// The fixed distance from A's address to B's, whatever the values of the
/// leaves (slots assigned once expanded to their value), or nullopt.
std::optional<int64_t> distance(const Access &A, const Access &B,
                                const std::map<int, const Expr *> &Defs) {
  if (!A.Address || !B.Address || A.UnknownReason || B.UnknownReason)
    return std::nullopt;
  const std::map<int, int64_t> None;
  int64_t D = 0;
  for (uint64_t Seed = 1; Seed <= 3; ++Seed) {
    int64_t VA, VB;
    ScalarEval EA{None, Defs, Seed}, EB{None, Defs, Seed};
    if (!EA.eval(*A.Address, VA) || !EB.eval(*B.Address, VB))
      return std::nullopt;
    int64_t Diff = int64_t(uint64_t(VB) - uint64_t(VA));
    if (Seed > 1 && Diff != D)
      return std::nullopt;
    D = Diff;
  }
  return D;
}

/// Whether a store or atomic that may write A's bytes comes between the
/// accesses with ids From and To (ids follow the source order): in shared
/// memory one to A's array, in global memory one through any pointer (they
/// may alias), unless its bytes lie a fixed distance away from A's (h[i + 1]
/// beside h[i]).
bool storeBetween(const Kernel &K, const Access &A, int From, int To,
                  const std::map<int, const Expr *> &Defs) {
  for (const Access &B : K.Accesses) {
    if (B.Id <= From || B.Id >= To || B.Kind == AccessKind::Load ||
        B.Sp != A.Sp || (A.Sp == Space::Shared && B.Array != A.Array))
      continue;
    std::optional<int64_t> D = distance(A, B, Defs);
    if (!D || (*D < int64_t(A.Size) && -*D < int64_t(B.Size)))
      return true;
  }
  return false;
}

/// The branches (If statement, then 1 or else 2) around the statement of
/// access Id in L, outermost first; false when Id is not in L.
bool armsOf(const std::vector<Stmt> &L, int Id,
            std::vector<std::pair<const Stmt *, int>> &Arms) {
  for (const Stmt &S : L) {
    if (S.Kind == StmtKind::Access && S.AccessId == Id)
      return true;
    const std::pair<const std::vector<Stmt> *, int> Subs[] = {
        {&S.CondPre, 0}, {&S.Then, 1}, {&S.Else, 2}, {&S.Body, 0}, {&S.Step, 0}};
    for (const auto &[Sub, Arm] : Subs) {
      if (Arm)
        Arms.push_back({&S, Arm});
      if (armsOf(*Sub, Id, Arms))
        return true;
      if (Arm)
        Arms.pop_back();
    }
  }
  return false;
}

/// Whether every lane that makes access A made access B before it: B lies
/// in no branch that A is not in too.
bool madeBefore(const Kernel &K, const Access &B, const Access &A) {
  std::vector<std::pair<const Stmt *, int>> AB, AA;
  if (!armsOf(K.Body, B.Id, AB) || !armsOf(K.Body, A.Id, AA))
    return false;
  return AB.size() <= AA.size() && std::equal(AB.begin(), AB.end(), AA.begin());
}

/// The earlier load A repeats, or the earlier store whose value it reads
/// back (same address and size, no other store between, made by every lane
/// that makes A): the compiler keeps the value in a register.
const Access *repeatedLoad(const Kernel &K, const Access &A,
                           const std::map<int, const Expr *> &Defs) {
  if (A.Kind != AccessKind::Load || !A.Address || A.UnknownReason)
    return nullptr;
  const Access *Found = nullptr;
  for (const Access &B : K.Accesses) {
    if (B.Id >= A.Id)
      break;
    if ((B.Kind == AccessKind::Load || B.Kind == AccessKind::Store) &&
        B.AsyncPartner < 0 && B.Sp == A.Sp && B.Size == A.Size &&
        B.Compiled.State != CompiledForm::Reused &&
        distance(A, B, Defs) == std::optional<int64_t>(0) &&
        !storeBetween(K, A, B.Id, A.Id, Defs) && madeBefore(K, B, A))
      Found = &B; // The latest one.
  }
  return Found;
}

/// Whether the statement of access A follows the load B's in one list with
/// nothing but assignments and loads between them: one straight run of
/// code, where the compiler reads an address it has just read from the
/// register that holds it.
bool straightAfter(const Kernel &K, const std::vector<Stmt> &L, int B, int A) {
  for (size_t I = 0; I < L.size(); ++I) {
    const Stmt &S = L[I];
    if (S.Kind == StmtKind::Access && S.AccessId == B) {
      for (size_t J = I + 1; J < L.size(); ++J) {
        const Stmt &T = L[J];
        if (T.Kind == StmtKind::Access && T.AccessId == A)
          return true;
        if (T.Kind != StmtKind::Assign &&
            !(T.Kind == StmtKind::Access &&
              K.Accesses[T.AccessId].Kind == AccessKind::Load))
          return false;
      }
      return false;
    }
    for (const std::vector<Stmt> *Sub :
         {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      if (straightAfter(K, *Sub, B, A))
        return true;
  }
  return false;
}

/// Whether A's address is the same in every iteration of Loop: no slot it
/// reads is assigned in the loop's body, step or condition.
bool addressInvariantIn(const Access &A, const Stmt &Loop) {
  std::map<int, const Expr *> Def;
  std::map<int, int> Assigned;
  assignments(Loop.Body, Def, Assigned);
  assignments(Loop.Step, Def, Assigned);
  assignments(Loop.CondPre, Def, Assigned);
  return !usesSlots(*A.Address, Assigned);
}

/// The store in loop L that rewrites exactly load A's bytes, or null.
/// Kept false when A's address changes in L or another store there may
/// write its bytes: then the loop does not carry A's value.
const Access *carriedIn(const Kernel &K, const Access &A, const Stmt &L,
                        const std::map<int, const Expr *> &Defs, bool &Kept) {
  Kept = addressInvariantIn(A, L);
  if (!Kept)
    return nullptr;
  const Access *Carried = nullptr;
  std::set<int> Inside;
  accessesIn(L.Body, Inside);
  for (int Id : Inside) {
    const Access &S = K.Accesses[Id];
    if (S.Kind == AccessKind::Load || S.Sp != A.Sp ||
        (A.Sp == Space::Shared && S.Array != A.Array))
      continue;
    std::optional<int64_t> D = distance(A, S, Defs);
    if (D == std::optional<int64_t>(0) && S.Size == A.Size &&
        S.Kind == AccessKind::Store && S.AsyncPartner < 0) {
      Carried = &S;
      continue;
    }
    if (!D || (*D < int64_t(A.Size) && -*D < int64_t(S.Size))) {
      Kept = false;
      return nullptr;
    }
  }
  return Carried;
}

/// The store whose value load A reads back in every iteration of the loops
/// around A that do not hold B, the access A repeats from before them (an
/// accumulator: `c[i] = 0; for (k ...) c[i] += a[k] * b[k];`): A's address
/// does not change in those loops, a store there rewrites exactly its bytes,
/// and no other store there may write them; the compiler then keeps the
/// value in a register across iterations. Null when any of that fails.
const Access *carriedStore(const Kernel &K, const Access &A, const Access &B,
                           const std::vector<const Stmt *> &LoopsOfA,
                           const std::vector<const Stmt *> &LoopsOfB,
                           const std::map<int, const Expr *> &Defs) {
  const Access *Carried = nullptr;
  for (const Stmt *L : LoopsOfA) {
    if (std::find(LoopsOfB.begin(), LoopsOfB.end(), L) != LoopsOfB.end())
      break; // From here on B is inside as well: straight-line order.
    bool Kept = false;
    if (const Access *S = carriedIn(K, A, *L, Defs, Kept))
      Carried = S;
    else if (!Kept)
      return nullptr;
  }
  return Carried;
}

/// Whether a loop of F, Depth or more loops deep, holds a barrier or fence
/// and a store of A's space: a value that loop stores is not kept in a
/// register across the barrier, as another thread may have stored it
/// (SHOC's Scan: one thread stores the seed, all read it after
/// __syncthreads(), and ptxas loads it in every iteration).
bool barrierInStoringLoop(const SassFunction &F, const Access &A,
                          unsigned Depth) {
  const bool Shared = A.Sp == Space::Shared;
  for (const std::pair<uint64_t, uint64_t> &Loop : F.Loops) {
    auto Inside = [&Loop](uint64_t At) {
      return At >= Loop.first && At <= Loop.second;
    };
    if (F.loopDepth(Loop.first) < Depth ||
        std::none_of(F.Barriers.begin(), F.Barriers.end(), Inside))
      continue;
    for (const SassInstr &I : F.Memory)
      if (Inside(I.Offset) && I.Kind == SassKind::Store &&
          (I.Space == SassSpace::Shared) == Shared)
        return true;
  }
  return false;
}

/// How many of A's loops (innermost first) carry its value in a register
/// with no access of it before them (`d[i] += s[i]` in a loop: nvcc loads
/// d[i] once before the loop and stores it in every iteration; HeCBench's
/// interleave): each keeps A's bytes and stores them.
unsigned promotedLoops(const Kernel &K, const Access &A,
                       const std::vector<const Stmt *> &Loops,
                       const std::map<int, const Expr *> &Defs) {
  unsigned Levels = 0;
  for (const Stmt *L : Loops) {
    bool Kept = false;
    if (!carriedIn(K, A, *L, Defs, Kept))
      break;
    ++Levels;
  }
  return Levels;
}

/// One wide instruction per access of Ids (a line whose W-byte instructions
/// are as many as its accesses): each access is part of a run of
/// consecutive Size-byte addresses whose other parts are accesses with no
/// instruction on their own line (p[i].x here, p[i].y on the next line; or
/// s[2*t] on the line before, s[2*t+1] here, a store nvcc merged). Taken
/// only when every access finds its whole run; partners are claimed from
/// Free.
bool mergeAcrossLines(Kernel &K, const std::vector<int> &Ids, unsigned W,
                      const std::string &WideOp, std::set<int> &Free,
                      const std::map<int, const Expr *> &Defs) {
  const std::map<int, int64_t> None;
  auto Offset = [&](const Access &A, const Access &B, int64_t &D) {
    if (!A.Address || !B.Address || A.UnknownReason || B.UnknownReason)
      return false;
    for (uint64_t Seed = 1; Seed <= 3; ++Seed) {
      int64_t VA, VB;
      ScalarEval EA{None, Defs, Seed}, EB{None, Defs, Seed};
      if (!EA.eval(*A.Address, VA) || !EB.eval(*B.Address, VB))
        return false;
      int64_t Diff = int64_t(uint64_t(VB) - uint64_t(VA)); // Wraps, no UB.
      if (Seed > 1 && Diff != D)
        return false;
      D = Diff;
    }
    return true;
  };
  // Each access on the line is part Pos of a run of W / Size accesses in a
  // row, the others with no instruction of their own: a merged load sits on
  // the first access's line, a merged store on the last's.
  std::vector<std::vector<int>> Runs;
  std::set<int> Taken;
  for (int Id : Ids) {
    const Access &A = K.Accesses[Id];
    const int Parts = int(W / A.Size);
    std::map<int64_t, int> At; // Offset in accesses from A -> access.
    for (int P : Free) {
      const Access &B = K.Accesses[P];
      int64_t D = 0;
      if (!Taken.count(P) && B.Sp == A.Sp && B.Kind == A.Kind &&
          B.Size == A.Size && B.Array == A.Array && Offset(A, B, D) &&
          D % int64_t(A.Size) == 0 && D != 0 && D / int64_t(A.Size) > -Parts &&
          D / int64_t(A.Size) < Parts)
        At.emplace(D / int64_t(A.Size), P);
    }
    std::vector<int> Run;
    for (int Pos = 0; Pos < Parts && Run.empty(); ++Pos) {
      Run = {Id};
      for (int J = 0; J < Parts && !Run.empty(); ++J) {
        auto It = At.find(J - Pos);
        if (J == Pos)
          continue;
        if (It == At.end())
          Run.clear();
        else
          Run.push_back(It->second);
      }
    }
    if (Run.empty())
      return false;
    Taken.insert(Run.begin() + 1, Run.end());
    Runs.push_back(Run);
  }
  for (const std::vector<int> &Run : Runs) {
    const Access &Lead = K.Accesses[Run[0]];
    for (int Id : Run) {
      CompiledForm &CF = K.Accesses[Id].Compiled;
      CF.State = CompiledForm::Merged;
      CF.Width = W;
      CF.Leader = Run[0];
      CF.Instruction = WideOp;
      std::string Rest;
      for (size_t I = 1; I < Run.size(); ++I)
        Rest += (I > 1 ? ", " : "") + K.Accesses[Run[I]].Text + " (" +
                lineText(K.Accesses[Run[I]]) + ")";
      CF.Note = Id == Run[0] ? "one " + WideOp + " covers it and " + Rest
                             : "merged into " + Lead.Text + "'s " + WideOp +
                                   " (" + lineText(Lead) + ")";
      Free.erase(Id);
    }
  }
  return true;
}

/// Accesses in loops nvcc unrolled fully (the SASS has fewer loops around
/// the line's Is than the source around the access) whose Scalar
/// instructions are as many as the distinct addresses over the unrolled
/// iterations, fewer than the iterations: the compiler loaded each address
/// once and reused the value (or kept the last of the stores to it).
bool oncePerAddress(Kernel &K, const std::vector<int> &Ids,
                    const std::vector<const SassInstr *> &Is,
                    const SassFunction &F, const Context &C, size_t Scalar,
                    std::string &Fewer) {
  std::set<unsigned> Depths;
  for (const SassInstr *I : Is)
    Depths.insert(F.loopDepth(I->Offset));
  if (Depths.size() != 1)
    return false;
  const unsigned Depth = *Depths.begin();
  struct Unrolled {
    int Id;
    unsigned Levels;
    size_t Runs, Distinct;
  };
  std::vector<Unrolled> U;
  size_t Runs = 0, Distinct = 0;
  for (int Id : Ids) {
    const Access &A = K.Accesses[Id];
    const std::vector<const Stmt *> &Loops = C.Loops[Id];
    Unrolled X{Id, unsigned(Loops.size() > Depth ? Loops.size() - Depth : 0), 1,
               1};
    if (X.Levels &&
        !unrolledAddresses(A, Loops, X.Levels, C, X.Runs, X.Distinct))
      return false;
    if (X.Distinct < X.Runs) {
      // A load is reused only if nothing stores to its array in between; a
      // store is dropped only if nothing reads the array in between.
      std::set<int> Inside;
      accessesIn(Loops[X.Levels - 1]->Body, Inside);
      for (int B : Inside) {
        const Access &O = K.Accesses[B];
        if (O.Array == A.Array && O.Sp == A.Sp &&
            (A.Kind == AccessKind::Load ? O.Kind != AccessKind::Load
                                        : O.Kind != AccessKind::Store))
          return false;
      }
    }
    Runs += X.Runs;
    Distinct += X.Distinct;
    U.push_back(X);
  }
  if (Distinct == Runs && Scalar < Runs &&
      std::any_of(U.begin(), U.end(),
                  [](const Unrolled &X) { return X.Levels != 0; })) {
    // Fully unrolled, every address distinct, and still fewer instructions:
    // nvcc kept the value of a load made elsewhere (b[i] before a loop
    // over b[i + j]). Which iterations that spares is not established.
    Fewer = "its unrolled loops run " + std::to_string(Runs) +
            " times and the SASS has " + std::to_string(Scalar) + " " +
            Is[0]->Opcode + " on its line (nvcc kept values loaded elsewhere)";
    return false;
  }
  if (Distinct >= Runs || Distinct != Scalar)
    return false;
  for (const Unrolled &X : U) {
    CompiledForm &CF = K.Accesses[X.Id].Compiled;
    CF.Instruction = Is[0]->Opcode;
    if (X.Distinct == X.Runs) {
      CF.State = CompiledForm::AsWritten;
      continue;
    }
    CF.State = CompiledForm::OncePerAddress;
    CF.Loop = int(X.Levels) - 1;
    CF.Note = std::to_string(X.Distinct) + " " + CF.Instruction + " for " +
              std::to_string(X.Runs) + " iterations of " +
              (X.Levels == 1
                   ? std::string("its unrolled loop")
                   : "its " + std::to_string(X.Levels) + " unrolled loops") +
              ": each address is " +
              (K.Accesses[X.Id].Kind == AccessKind::Load
                   ? "loaded once and the value reused"
                   : "stored once, the last value");
  }
  return true;
}

/// One line of an inlined function called from several lines: ptxas's line
/// table may give all of its instructions to one call site ("line 3 inlined
/// at line 21" twice, none at line 22). Where every site's count is known
/// and the line holds exactly as many instructions as its sites run, each
/// site takes its own, in the order of the calls, so that no call looks
/// reused while another holds its instruction. The sites' lines follow
/// their instructions: the GPU counts each where the line table puts it.
template <typename KeyT, typename ExpectFn>
void balanceCallSites(
    const Kernel &K, const std::map<KeyT, std::vector<int>> &Accesses,
    std::map<KeyT, std::vector<const SassInstr *>> &Instrs,
    std::map<KeyT, std::set<std::pair<std::string, unsigned>>> &InstrLines,
    ExpectFn Expect) {
  std::map<KeyT, std::vector<KeyT>> Lines; // By the key without its site.
  for (const auto &[Kx, Ids] : Accesses) {
    KeyT Line = Kx;
    std::get<4>(Line) = 0;
    Lines[Line].push_back(Kx);
  }
  for (const auto &[Line, Sites] : Lines) {
    if (Sites.size() < 2)
      continue;
    std::vector<const SassInstr *> All;
    for (const KeyT &Kx : Sites)
      if (auto It = Instrs.find(Kx); It != Instrs.end())
        All.insert(All.end(), It->second.begin(), It->second.end());
    const unsigned Size = K.Accesses[Accesses.at(Sites[0])[0]].Size;
    if (All.empty() || std::any_of(All.begin(), All.end(), [&](auto *I) {
          return I->Copies != 1 || I->Matrix || I->Width != Size;
        }))
      continue;
    std::vector<size_t> Counts;
    bool Unbalanced = false, Known = true;
    size_t Total = 0;
    for (const KeyT &Kx : Sites) {
      const std::vector<int> &Ids = Accesses.at(Kx);
      size_t Expected = 0;
      Known = Known && Expect(Ids, All, Expected) &&
              std::all_of(Ids.begin(), Ids.end(), [&](int Id) {
                return K.Accesses[Id].Size == Size;
              });
      auto It = Instrs.find(Kx);
      Unbalanced = Unbalanced ||
                   (It == Instrs.end() ? 0 : It->second.size()) != Expected;
      Counts.push_back(Expected);
      Total += Expected;
    }
    if (!Known || !Unbalanced || Total != All.size())
      continue;
    // Keys sort by call line; instructions by address.
    std::sort(All.begin(), All.end(),
              [](auto *A, auto *B) { return A->Offset < B->Offset; });
    size_t Next = 0;
    for (size_t S = 0; S < Sites.size(); ++S) {
      std::vector<const SassInstr *> &Is = Instrs[Sites[S]];
      Is.assign(All.begin() + Next, All.begin() + Next + Counts[S]);
      Next += Counts[S];
      auto &Lines = InstrLines[Sites[S]];
      Lines.clear();
      for (const SassInstr *I : Is)
        if (!I->Where.empty())
          Lines.insert({I->Where[0].File, I->Where[0].Line});
    }
  }
}

/// The demangled function name of Mangled, template arguments and scopes
/// included, parameters left out ("" when it does not demangle).
std::string functionNameOf(const std::string &Mangled) {
  llvm::ItaniumPartialDemangler D;
  if (D.partialDemangle(Mangled.c_str()))
    return "";
  char *Name = D.getFunctionName(nullptr, nullptr);
  std::string Out = Name ? Name : "";
  std::free(Name);
  return Out;
}

} // namespace

const SassFunction *findSassFunction(const Kernel &K,
                                     const std::vector<SassFunction> &Fns) {
  if (K.MangledName.empty())
    return nullptr;
  for (const SassFunction &X : Fns)
    if (sameDeviceName(X.Name, K.MangledName))
      return &X;
  // Clang and nvcc mangle some dependent template arguments of parameter
  // types apart (CUB's ScanTileState<T, detail::is_primitive<T>::value>):
  // the one function of the same name and template arguments is K's.
  const std::string Name = functionNameOf(K.MangledName);
  const SassFunction *Same = nullptr;
  for (const SassFunction &X : Fns)
    if (!Name.empty() && functionNameOf(X.Name) == Name) {
      if (Same)
        return nullptr;
      Same = &X;
    }
  return Same;
}

std::vector<std::string>
matchCompiled(Kernel &K, const std::vector<SassFunction> &Functions) {
  std::vector<std::string> Notes;
  const SassFunction *F = findSassFunction(K, Functions);
  if (F)
    K.MangledName = F->Name; // The binary's name, where Clang's differs.
  if (!F) {
    Notes.push_back(K.Name + ": not found in the SASS (no function named '" +
                    K.MangledName + "'); its accesses are counted as written");
    return Notes;
  }
  K.Sass = SassAccount();
  K.Sass.Read = true;
  K.Sass.AllInstructions = F->Instructions;
  K.Sass.LoopInstructions = F->LoopInstructions;
  for (const SassInstr &I : F->Memory)
    K.Sass.LoopMemory += F->loopDepth(I.Offset) > 0;
  // Slots assigned once, expanded where addresses are compared.
  std::map<int, const Expr *> KernelDefs;
  {
    std::map<int, int> Count;
    assignments(K.Body, KernelDefs, Count);
    for (const auto &[S, N] : Count)
      if (N != 1)
        KernelDefs.erase(S);
  }
  // Without LDGSTS (before sm_80, or when the copy cannot be asynchronous)
  // cp.async is a plain load and store: so are the model's copies.
  if (std::none_of(F->Memory.begin(), F->Memory.end(), [](const SassInstr &I) {
        return I.Space == SassSpace::Async;
      }))
    for (Access &A : K.Accesses)
      if (A.AsyncPartner >= 0) {
        A.AsyncPartner = -1;
        A.Compiled.Note =
            "no LDGSTS in the SASS: the async copy is a plain " +
            std::string(A.Sp == Space::Global ? "global load" : "shared store");
      }
  // Buckets: the accesses of one line with one space and kind, and the
  // instructions the line table puts there. An async copy's shared side
  // follows its global side (below), so only the latter is bucketed.
  // An access in an inlined __device__ function is told apart from the same
  // line inlined elsewhere by its call's line, as nvdisasm -gi tells the
  // instruction's ("line 55 inlined at line 394").
  using Key = std::tuple<std::string, unsigned, bool, int, unsigned>;
  auto KeyOf = [](const std::string &File, unsigned Line, Class Cl,
                  unsigned Site = 0) {
    return Key{fileKey(File), Line, Cl.Shared, Cl.Kind, Site};
  };
  const std::vector<unsigned> Sites = callSites(K);
  auto KeyOfAccess = [&](const Access &A) {
    return KeyOf(A.Loc.File, A.Loc.Line, classOf(A),
                 size_t(A.Id) < Sites.size() ? Sites[A.Id] : 0);
  };
  std::map<Key, std::vector<int>> Accesses;
  for (const Access &A : K.Accesses)
    if (A.AsyncPartner < 0 || A.Sp == Space::Global)
      Accesses[KeyOfAccess(A)].push_back(A.Id);
  // The bucket of a line whatever the call site, when the line has one.
  auto LineBucket = [&](const std::string &File, unsigned Line,
                        Class Cl) -> std::optional<Key> {
    auto It = Accesses.lower_bound(KeyOf(File, Line, Cl, 0));
    if (It == Accesses.end() || std::get<0>(It->first) != fileKey(File) ||
        std::get<1>(It->first) != Line || std::get<2>(It->first) != Cl.Shared ||
        std::get<3>(It->first) != Cl.Kind)
      return std::nullopt;
    auto Next = std::next(It);
    if (Next != Accesses.end() && std::get<0>(Next->first) == fileKey(File) &&
        std::get<1>(Next->first) == Line &&
        std::get<2>(Next->first) == Cl.Shared &&
        std::get<3>(Next->first) == Cl.Kind)
      return std::nullopt; // Several call sites: which one is not known.
    return It->first;
  };
  std::map<Key, std::vector<const SassInstr *>> Instrs;
  // Where the line table puts them: the innermost frame, which is what the
  // GPU's per-line counters report (an atomicAdd counts in CUDA's header).
  std::map<Key, std::set<std::pair<std::string, unsigned>>> InstrLines;
  std::vector<const SassInstr *> Orphans;
  // A subroutine's instruction runs once per call site.
  auto Place = [&](const SassInstr &I, const Key &Kx, const SassLoc &At) {
    for (unsigned C = 0; C < I.Copies; ++C)
      Instrs[Kx].push_back(&I);
    InstrLines[Kx].insert({At.File, At.Line});
  };
  for (const SassInstr &I : F->Memory) {
    K.Sass.Instructions += I.Copies;
    // Outside every figure gmem predicts: counted, not matched.
    if (!entersLsuFigures(I.Space)) {
      unsigned &N = I.Space == SassSpace::Local     ? K.Sass.Local
                    : I.Space == SassSpace::Texture ? K.Sass.Texture
                                                    : K.Sass.Bulk;
      N += I.Copies;
      continue;
    }
    if (!I.Copies)
      continue; // A subroutine nothing calls.
    // A subroutine's instruction: one copy for each call site's accesses.
    if (I.InSubroutine && !I.Where.empty() && !I.Matrix) {
      const SassLoc &L = I.Where[0];
      std::vector<Key> Sites;
      for (auto It = Accesses.lower_bound(KeyOf(L.File, L.Line, classOf(I), 0));
           It != Accesses.end() && std::get<0>(It->first) == fileKey(L.File) &&
           std::get<1>(It->first) == L.Line &&
           std::get<2>(It->first) == classOf(I).Shared &&
           std::get<3>(It->first) == classOf(I).Kind;
           ++It)
        Sites.push_back(It->first);
      // The calls nvcc kept, by their lines (it may drop a call whose
      // result an earlier one gives).
      std::vector<Key> Called;
      for (const Key &Kx : Sites)
        if (std::count(I.CallLines.begin(), I.CallLines.end(), std::get<4>(Kx)))
          Called.push_back(Kx);
      if (Called.size() != I.Copies)
        Called = Sites.size() == I.Copies ? Sites : std::vector<Key>();
      if (I.Copies > 1 || Sites.size() > 1) {
        for (const Key &Kx : Called) {
          Instrs[Kx].push_back(&I);
          InstrLines[Kx].insert({L.File, L.Line});
        }
        if (!Called.empty())
          continue;
      }
    }
    // Innermost frame first: the line of its call site, or any call site
    // when the line has one; then the next frame out.
    bool Placed = false;
    for (size_t P = 0; P < I.Where.size() && !Placed && !I.Matrix; ++P) {
      const SassLoc &L = I.Where[P];
      unsigned Site = P + 1 < I.Where.size() ? I.Where[P + 1].Line : 0;
      std::optional<Key> Kx = KeyOf(L.File, L.Line, classOf(I), Site);
      if (!Accesses.count(*Kx))
        Kx = LineBucket(L.File, L.Line, classOf(I));
      if (Kx) {
        Place(I, *Kx, I.Where[0]);
        Placed = true;
      }
    }
    if (!Placed)
      Orphans.push_back(&I);
  }

  // More instructions on a line than its accesses can run: where each
  // access's executions are known (outside loops, or in loops nvcc unrolled
  // fully), the rest may belong to an access whose line has none (the line
  // table follows the address arithmetic nvcc shared). They are offered to
  // the selected loads below, and given back to their line if unused.
  std::map<const SassInstr *, Key> Surplus;
  // Lines with fewer instructions than their accesses run (known counts):
  // how many more of their width they can take from what is left over.
  std::map<Key, size_t> Deficit;
  // Which accesses lie in loops, before the model changes below.
  std::vector<bool> InLoop(K.Accesses.size(), false);
  {
    Context Pre;
    Pre.Loops.resize(K.Accesses.size());
    std::vector<const Stmt *> Stack;
    walk(K.Body, Stack, Pre);
    for (size_t Id = 0; Id < K.Accesses.size(); ++Id)
      InLoop[Id] = !Pre.Loops[Id].empty();
    // How many times a bucket's accesses run, if that is known.
    auto Expect = [&](const std::vector<int> &Ids,
                      const std::vector<const SassInstr *> &Is,
                      size_t &Expected) {
      bool Known = true;
      Expected = 0;
      for (int Id : Ids) {
        const Access &A = K.Accesses[Id];
        const std::vector<const Stmt *> &Loops = Pre.Loops[Id];
        size_t Runs = 1, Distinct = 1;
        if (!Loops.empty()) {
          // No instruction at all: whether nvcc unrolled is not known, but
          // the count taken from elsewhere is checked below all the same.
          bool Unrolled = std::all_of(Is.begin(), Is.end(), [&](auto *I) {
            return F->loopDepth(I->Offset) == 0;
          });
          Known = Known && Unrolled &&
                  unrolledAddresses(A, Loops, unsigned(Loops.size()), Pre, Runs,
                                    Distinct);
        }
        Known = Known && A.AsyncPartner < 0;
        Expected += Runs;
      }
      return Known;
    };
    balanceCallSites(K, Accesses, Instrs, InstrLines, Expect);
    for (auto &[Kx, Ids] : Accesses) {
      const std::vector<const SassInstr *> &Is = Instrs[Kx];
      size_t Expected = 0;
      const bool Known = Expect(Ids, Is, Expected);
      // Instructions of the accesses' width that run as often as the
      // accesses do leave the others over: those of other widths (no merge
      // is needed) and the same-width ones beyond the count.
      const unsigned Size = K.Accesses[Ids[0]].Size;
      bool OneSize = std::all_of(Ids.begin(), Ids.end(), [&](int Id) {
        return K.Accesses[Id].Size == Size;
      });
      std::vector<const SassInstr *> Same, Other;
      for (const SassInstr *I : Is)
        (I->Width == Size ? Same : Other).push_back(I);
      bool Single = std::all_of(Is.begin(), Is.end(),
                                [](auto *I) { return I->Copies == 1; });
      // One object moved in narrower parts: the parts at one base register
      // stay, narrower instructions at other bases are left over.
      if (Known && OneSize && Single && Same.empty() && Expected == 1 &&
          Ids.size() == 1) {
        std::map<std::string, std::vector<const SassInstr *>> ByBase;
        for (const SassInstr *I : Is)
          if (I->Width < Size)
            ByBase[I->AddrBase].push_back(I);
        const std::vector<const SassInstr *> *Keep = nullptr;
        for (const auto &[Base, Group] : ByBase)
          if (!splitParts(Group, Size).empty() &&
              (!Keep || Group.size() > Keep->size()))
            Keep = &Group;
        if (Keep && Keep->size() < Is.size())
          for (const SassInstr *I : Is)
            if (std::find(Keep->begin(), Keep->end(), I) == Keep->end())
              Surplus.emplace(I, Kx);
        continue;
      }
      // (A load whose value an earlier access holds needs none.)
      bool Reuses =
          Same.empty() && std::any_of(Ids.begin(), Ids.end(), [&](int Id) {
            return repeatedLoad(K, K.Accesses[Id], KernelDefs);
          });
      if (Known && OneSize && Single && Other.empty() && !Reuses &&
          Same.size() < Expected)
        Deficit[Kx] = Expected - Same.size();
      if (!Known || !OneSize || !Single || Same.size() < Expected ||
          Is.size() == Expected)
        continue;
      // Of the same width, the ones furthest from the line's others.
      std::sort(Same.begin(), Same.end(),
                [](auto *A, auto *B) { return A->Offset < B->Offset; });
      uint64_t Median = Same[Same.size() / 2]->Offset;
      std::stable_sort(Same.begin(), Same.end(), [&](auto *A, auto *B) {
        auto D = [&](uint64_t X) {
          return X > Median ? X - Median : Median - X;
        };
        return D(A->Offset) > D(B->Offset);
      });
      for (size_t N = 0; N < Same.size() - Expected; ++N)
        Surplus.emplace(Same[N], Kx);
      for (const SassInstr *I : Other)
        Surplus.emplace(I, Kx);
    }
    for (auto &[I, Kx] : Surplus) {
      std::vector<const SassInstr *> &Is = Instrs[Kx];
      Is.erase(std::find(Is.begin(), Is.end(), I));
      Orphans.push_back(I);
    }
  }

  // Loads (stores) of exclusive branches compiled into one load (store) of
  // a selected address (and value): the instruction is left over, or on
  // one of their lines with the others' lines empty. Done before the other
  // forms are looked for, as it changes the model.
  {
    std::vector<int> Candidates;
    std::map<int, Key> Holder; // Holds its line's one instruction alone.
    for (const auto &[Kx, Ids] : Accesses) {
      // Of stores, shared ones only: both sides' global stores made one STG
      // (pick_source.cu) still count where the line table puts the STG, as
      // the executed path does.
      const bool SharedStore = std::get<3>(Kx) == int(AccessKind::Store) &&
                               !Ids.empty() &&
                               K.Accesses[Ids[0]].Sp == Space::Shared;
      if (std::get<3>(Kx) != int(AccessKind::Load) && !SharedStore)
        continue;
      auto It = Instrs.find(Kx);
      size_t N = It == Instrs.end() ? 0 : It->second.size();
      if (N == 0)
        Candidates.insert(Candidates.end(), Ids.begin(), Ids.end());
      else if (N == 1 && Ids.size() == 1 &&
               It->second[0]->Width == K.Accesses[Ids[0]].Size) {
        Candidates.push_back(Ids[0]);
        Holder.emplace(Ids[0], Kx);
      }
    }
    std::sort(Candidates.begin(), Candidates.end());
    for (const std::vector<int> &G : exclusiveGroups(K, Candidates)) {
      std::vector<int> Holders;
      for (int Id : G)
        if (Holder.count(Id))
          Holders.push_back(Id);
      const Access &First = K.Accesses[G[0]];
      const SassInstr *I = nullptr;
      size_t Orphan = Orphans.size();
      if (Holders.size() == 1) {
        I = Instrs[Holder.at(Holders[0])][0];
      } else if (Holders.empty()) {
        // The left-over instruction nearest the branches in the source.
        unsigned Lo = ~0u, Hi = 0;
        for (int Id : G) {
          Lo = std::min(Lo, K.Accesses[Id].Loc.Line);
          Hi = std::max(Hi, K.Accesses[Id].Loc.Line);
        }
        uint64_t Best = ~uint64_t(0);
        for (size_t O = 0; O < Orphans.size(); ++O)
          if (classOf(First) == classOf(*Orphans[O]) &&
              Orphans[O]->Width == First.Size && Orphans[O]->Copies == 1 &&
              !Orphans[O]->Matrix && lineDistance(*Orphans[O], Lo, Hi) < Best) {
            Best = lineDistance(*Orphans[O], Lo, Hi);
            I = Orphans[O];
            Orphan = O;
          }
      }
      const bool Store = First.Kind == AccessKind::Store;
      // A guarded store may be one branch's own: not established.
      if (!I || G.size() == Holders.size() || (Store && I->Predicated))
        continue;
      // The group's accesses are spoken for by the one instruction.
      auto Claim = [&] {
        K.Sass.Claimed += 1;
        if (Orphan < Orphans.size())
          Orphans.erase(Orphans.begin() + Orphan);
        for (int M : G) {
          const Access &A = K.Accesses[M];
          Key Kx = KeyOfAccess(A);
          std::vector<int> &Ids = Accesses[Kx];
          Ids.erase(std::find(Ids.begin(), Ids.end(), M));
          Deficit.erase(Kx); // Its count no longer holds.
          if (Ids.empty()) {
            Accesses.erase(Kx);
            Instrs.erase(Kx);
            InstrLines.erase(Kx);
          }
        }
      };
      // A branch loading what an earlier load holds may reuse that value,
      // the instruction then serving the other branches alone; or nvcc
      // selected addresses over every branch. The SASS does not say which
      // (nvcc does both in one kernel). A guarded instruction serves only
      // some lanes: the earlier load may be one the model does not pair
      // (an unrolled loop's).
      if (!Store &&
          (I->Predicated || std::any_of(G.begin(), G.end(), [&](int M) {
             return repeatedLoad(K, K.Accesses[M], KernelDefs) != nullptr;
           }))) {
        Claim();
        for (int M : G) {
          Access &A = K.Accesses[M];
          A.Compiled.State = CompiledForm::Ambiguous;
          A.Compiled.Instruction = I->Opcode;
          A.Compiled.Note =
              "one " + I->Opcode + " for loads of exclusive branches, " +
              (I->Predicated ? std::string("guarded")
                             : std::string("one of which loads an address "
                                           "loaded before")) +
              ": whether it selects addresses or an earlier value is reused "
              "is not established";
          Notes.push_back(lineText(A) + ": " + A.Text + ": " + A.Compiled.Note +
                          "; counted as written");
        }
        continue;
      }
      std::optional<int> Id = mergeSelected(K, G);
      if (!Id)
        continue;
      Claim();
      Access &N = K.Accesses[*Id];
      N.Compiled.State = CompiledForm::AsWritten;
      N.Compiled.Instruction = I->Opcode;
      N.Compiled.Branches = unsigned(G.size());
      std::string Where = "no line";
      if (!I->Where.empty()) {
        Where = "line " + std::to_string(I->Where[0].Line);
        if (fileKey(I->Where[0].File) != fileKey(N.Loc.File))
          N.Compiled.File = I->Where[0].File;
        if (!N.Compiled.File.empty() || I->Where[0].Line != N.Loc.Line)
          N.Compiled.Line = I->Where[0].Line;
      }
      N.Compiled.Note =
          "one " + I->Opcode + " (on " + Where + ") for the " +
          std::to_string(G.size()) +
          (Store ? " stores of exclusive branches: each lane stores its "
                   "branch's value at its branch's address"
                 : " loads of exclusive branches: each lane loads the "
                   "address of its branch");
      for (int M : G)
        K.Accesses[M].Compiled.Note = std::string(Store ? "stored" : "loaded") +
                                      " by the one " + I->Opcode + " of " +
                                      N.Text + " (" + Where + ")";
    }
  }

  // Accesses outside loops whose line has no instruction, and as many
  // instructions left over of their class and width: the line table put
  // them elsewhere (nvcc shared their address arithmetic); paired in source
  // and program order. A load whose value an earlier load already holds is
  // no such access.
  {
    std::map<std::pair<Key, unsigned>, std::vector<int>> Want;
    for (const auto &[Kx, Ids] : Accesses) {
      auto It = Instrs.find(Kx);
      if (It != Instrs.end() && !It->second.empty())
        continue;
      for (int Id : Ids) {
        const Access &A = K.Accesses[Id];
        if (size_t(Id) < InLoop.size() && !InLoop[Id] &&
            !repeatedLoad(K, A, KernelDefs))
          Want[{KeyOf("", 0, classOf(A)), A.Size}].push_back(Id);
      }
    }
    for (auto &[Class, Ids] : Want) {
      std::vector<size_t> Have;
      for (size_t O = 0; O < Orphans.size(); ++O)
        // Orphans placed for an earlier class are null until erased below.
        if (Orphans[O] && KeyOf("", 0, classOf(*Orphans[O])) == Class.first &&
            Orphans[O]->Width == Class.second && Orphans[O]->Copies == 1 &&
            !Orphans[O]->Matrix)
          Have.push_back(O);
      if (Have.size() != Ids.size())
        continue;
      std::sort(Ids.begin(), Ids.end());
      std::sort(Have.begin(), Have.end(), [&](size_t A, size_t B) {
        return Orphans[A]->Offset < Orphans[B]->Offset;
      });
      for (size_t N = 0; N < Ids.size(); ++N) {
        const Access &A = K.Accesses[Ids[N]];
        const SassInstr *I = Orphans[Have[N]];
        Place(*I, KeyOfAccess(A),
              I->Where.empty() ? SassLoc{A.Loc.File, A.Loc.Line} : I->Where[0]);
        Orphans[Have[N]] = nullptr;
      }
    }
    Orphans.erase(std::remove(Orphans.begin(), Orphans.end(), nullptr),
                  Orphans.end());
    // A struct or vector copy whose line has nothing: narrower left-over
    // instructions at one base register that fit the object are its parts.
    for (auto &[Class, Ids] : Want)
      for (int Id : Ids) {
        const Access &A = K.Accesses[Id];
        Key Own = KeyOfAccess(A);
        if (!Instrs[Own].empty())
          continue;
        std::map<std::string, std::vector<size_t>> ByBase;
        for (size_t O = 0; O < Orphans.size(); ++O)
          if (Orphans[O] && classOf(*Orphans[O]) == classOf(A) &&
              Orphans[O]->Width < A.Size)
            ByBase[Orphans[O]->AddrBase].push_back(O);
        const std::vector<size_t> *Best = nullptr;
        uint64_t BestDistance = ~uint64_t(0);
        for (const auto &[Base, Os] : ByBase) {
          std::vector<const SassInstr *> Is;
          for (size_t O : Os)
            Is.push_back(Orphans[O]);
          uint64_t D = lineDistance(*Is[0], A.Loc.Line, A.Loc.Line);
          if (!splitParts(Is, A.Size).empty() && D < BestDistance) {
            Best = &Os;
            BestDistance = D;
          }
        }
        if (!Best)
          continue;
        for (size_t O : *Best) {
          Place(*Orphans[O], Own,
                Orphans[O]->Where.empty() ? SassLoc{A.Loc.File, A.Loc.Line}
                                          : Orphans[O]->Where[0]);
          Orphans[O] = nullptr;
        }
      }
    Orphans.erase(std::remove(Orphans.begin(), Orphans.end(), nullptr),
                  Orphans.end());
  }

  // Lines short of instructions take left-over ones of their class and
  // width, the nearest in the code first (the line table may follow the
  // instruction scheduled beside another statement's).
  for (auto &[Kx, Need] : Deficit) {
    if (!Accesses.count(Kx))
      continue;
    const std::vector<const SassInstr *> &Have = Instrs[Kx];
    const unsigned Size = K.Accesses[Accesses[Kx][0]].Size;
    const unsigned Line = K.Accesses[Accesses[Kx][0]].Loc.Line;
    for (; Need > 0; --Need) {
      size_t Best = Orphans.size();
      uint64_t BestGap = ~uint64_t(0);
      for (size_t O = 0; O < Orphans.size(); ++O) {
        const SassInstr *I = Orphans[O];
        if (!I || Surplus.count(I) || I->Copies != 1 || I->Width != Size ||
            KeyOf("", 0, classOf(*I)) !=
                KeyOf("", 0, Class{std::get<2>(Kx), std::get<3>(Kx)}))
          continue;
        // Nearest in the code to the line's instructions, or without any,
        // nearest in the source.
        uint64_t Gap =
            Have.empty() ? lineDistance(*I, Line, Line) : ~uint64_t(0);
        if (Have.empty() && Gap > 8)
          continue; // Too far to be this line's.
        for (const SassInstr *H : Have)
          Gap = std::min(Gap, H->Offset > I->Offset ? H->Offset - I->Offset
                                                    : I->Offset - H->Offset);
        if (Gap < BestGap) {
          BestGap = Gap;
          Best = O;
        }
      }
      if (Best == Orphans.size())
        break;
      Place(*Orphans[Best], Kx,
            Orphans[Best]->Where.empty() ? SassLoc{} : Orphans[Best]->Where[0]);
      Orphans.erase(Orphans.begin() + Best);
    }
  }

  // A statement written over several lines: the line table may put its
  // instruction on a later line of it; take the nearest line above (at
  // most 3) with accesses of this space and kind. Surplus instructions no
  // access took go back to their line.
  {
    std::vector<const SassInstr *> Left;
    for (const SassInstr *I : Orphans) {
      if (auto It = Surplus.find(I);
          It != Surplus.end() && Accesses.count(It->second)) {
        Instrs[It->second].push_back(I);
        continue;
      }
      bool Placed = false;
      if (!I->Where.empty() && !I->Matrix) {
        const SassLoc &L = I->Where[0];
        for (unsigned D = 1; D <= 3 && D < L.Line && !Placed; ++D) {
          if (std::optional<Key> Kx =
                  LineBucket(L.File, L.Line - D, classOf(*I))) {
            Place(*I, *Kx, L);
            Placed = true;
          }
        }
      }
      if (!Placed)
        Left.push_back(I);
    }
    Orphans = std::move(Left);
  }

  Context C;
  C.Loops.resize(K.Accesses.size());
  std::vector<const Stmt *> Stack;
  walk(K.Body, Stack, C);

  auto Ambiguous = [&](Access &A, const std::string &Why) {
    A.Compiled.State = CompiledForm::Ambiguous;
    A.Compiled.Note = Why;
    Notes.push_back(lineText(A) + ": " + A.Text + ": " + Why +
                    "; counted as written");
  };

  // Accesses with no instruction on their line: partners a wider
  // instruction on another line may cover (mergeAcrossLines).
  std::set<int> NoInstruction;
  for (auto &[Kx, Ids] : Accesses)
    if (Instrs[Kx].empty())
      NoInstruction.insert(Ids.begin(), Ids.end());

  std::vector<int> Vanished;
  for (auto &[Kx, Ids] : Accesses) {
    std::vector<const SassInstr *> &Is = Instrs[Kx];
    if (Is.empty()) {
      Vanished.insert(Vanished.end(), Ids.begin(), Ids.end());
      continue;
    }
    unsigned Size = K.Accesses[Ids[0]].Size;
    bool SameSize = true;
    for (int Id : Ids)
      SameSize = SameSize && K.Accesses[Id].Size == Size;
    std::map<unsigned, std::vector<const SassInstr *>> ByWidth;
    for (const SassInstr *I : Is)
      ByWidth[I->Width].push_back(I);
    if (!SameSize) {
      std::set<unsigned> Sizes;
      for (int Id : Ids)
        Sizes.insert(K.Accesses[Id].Size);
      bool All = true;
      for (const auto &[W, L] : ByWidth)
        All = All && Sizes.count(W);
      for (int Id : Ids) {
        Access &A = K.Accesses[Id];
        if (All) {
          A.Compiled.State = CompiledForm::AsWritten;
          A.Compiled.Instruction =
              ByWidth[A.Size].empty() ? "" : ByWidth[A.Size][0]->Opcode;
        } else {
          Ambiguous(A, "accesses of several sizes on one line and " +
                           std::to_string(Is.size()) +
                           " instructions of other widths");
        }
      }
      continue;
    }
    const size_t Scalar = ByWidth.count(Size) ? ByWidth[Size].size() : 0;
    std::vector<unsigned> Wider;
    bool Narrower = false;
    for (const auto &[W, L] : ByWidth) {
      if (W > Size)
        Wider.push_back(W);
      Narrower = Narrower || W < Size;
    }
    // One struct or vector copy of which nvcc loads only some members.
    if (Narrower && Wider.empty() && !Scalar && Ids.size() == 1) {
      std::vector<unsigned> Parts = splitParts(Is, Size);
      if (Parts.empty())
        Parts = splitParts(Is, Size, /*SameBase=*/false);
      if (!Parts.empty()) {
        CompiledForm &CF = K.Accesses[Ids[0]].Compiled;
        CF.State = CompiledForm::Split;
        CF.Width = Is[0]->Width;
        CF.Parts = Parts;
        CF.Instruction = Is[0]->Opcode;
        std::string At;
        for (unsigned P : Parts)
          At += (At.empty() ? "" : ", ") + std::to_string(P);
        CF.Note = std::to_string(Parts.size()) + " " + CF.Instruction + " of " +
                  std::to_string(CF.Width) + " bytes at byte offset" +
                  (Parts.size() > 1 ? "s " : " ") + At + " of the " +
                  std::to_string(Size) +
                  "-byte object: only the parts used are moved";
        continue;
      }
    }
    if (Narrower || Wider.size() > 1) {
      for (int Id : Ids)
        Ambiguous(K.Accesses[Id],
                  Narrower ? "the line's instructions are narrower than the "
                             "access (split by the compiler)"
                           : "instructions of several wider widths");
      continue;
    }
    std::string Fewer;
    if (Wider.empty() && oncePerAddress(K, Ids, Is, *F, C, Scalar, Fewer))
      continue;
    if (!Fewer.empty()) {
      for (int Id : Ids)
        Ambiguous(K.Accesses[Id], Fewer);
      continue;
    }
    if (Wider.empty()) {
      // Every instruction as wide as the source: as written, unless there
      // are fewer instructions than accesses (a value reused).
      std::vector<int> Left;
      for (int Id : Ids) {
        Access &A = K.Accesses[Id];
        A.Compiled.Instruction = ByWidth[Size][0]->Opcode;
        const Access *B = repeatedLoad(K, A, KernelDefs);
        auto From = [&](const Access &X) {
          return X.Text + " (" + lineText(X) + ":" + std::to_string(X.Loc.Col) +
                 ")";
        };
        // Fewer instructions than accesses, or, in a loop whose unrolled
        // copies make the count say nothing, a load repeated in one straight
        // run of code.
        if (B && (Ids.size() > Scalar ||
                  (!C.Loops[Id].empty() && B->Kind == AccessKind::Load &&
                   straightAfter(K, K.Body, B->Id, Id)))) {
          A.Compiled.State = CompiledForm::Reused;
          A.Compiled.Note =
              std::string("the value ") +
              (B->Kind == AccessKind::Store ? "stored" : "loaded") + " by " +
              From(*B) + " is reused";
          continue;
        }
        // Unrolled loops put several copies of every access on the line,
        // so the count cannot tell a load carried in a register across
        // iterations: no load of the line may read where the store that
        // carries it writes (the same base register and offset).
        const Access *S =
            B ? carriedStore(K, A, *B, C.Loops[Id], C.Loops[B->Id], KernelDefs)
              : nullptr;
        if (S) {
          const std::vector<const SassInstr *> &Stores =
              Instrs[KeyOfAccess(*S)];
          bool ReadsBack = Stores.empty();
          for (const SassInstr *St : Stores)
            for (const SassInstr *Ld : Is)
              ReadsBack = ReadsBack || (Ld->AddrBase == St->AddrBase &&
                                        Ld->AddrOffset == St->AddrOffset);
          if (!ReadsBack) {
            A.Compiled.State = CompiledForm::Reused;
            A.Compiled.Note =
                "the value stored by " + From(*S) +
                " in the iteration before, and " +
                (B->Kind == AccessKind::Store ? "stored" : "loaded") + " by " +
                From(*B) + " before its loop, is kept in a register (no " +
                A.Compiled.Instruction +
                " of the line reads where the store writes)";
            continue;
          }
        }
        // Promoted: the loops carry A's value, and the binary has a load
        // of the line outside them.
        const unsigned Levels =
            !B && A.Kind == AccessKind::Load && !A.UnknownReason && A.Address
                ? promotedLoops(K, A, C.Loops[Id], KernelDefs)
                : 0;
        if (Levels &&
            std::any_of(Is.begin(), Is.end(),
                        [&](auto *I) {
                          return F->loopDepth(I->Offset) + Levels <=
                                 C.Loops[Id].size();
                        }) &&
            !barrierInStoringLoop(*F, A, C.Loops[Id].size() - Levels + 1)) {
          A.Compiled.State = CompiledForm::Hoisted;
          A.Compiled.Loop = int(Levels) - 1;
          A.Compiled.Note =
              "loaded once before " +
              (Levels == 1
                   ? std::string("its loop")
                   : "its " + std::to_string(Levels) + " innermost loops") +
              ", which store to it: the value is kept in a register";
          continue;
        }
        Left.push_back(Id);
      }
      for (int Id : Left) {
        Access &A = K.Accesses[Id];
        if (Left.size() <= Scalar)
          A.Compiled.State = CompiledForm::AsWritten;
        else
          Ambiguous(A, std::to_string(Left.size()) + " " + instrName(A) +
                           "s on the line but " + std::to_string(Scalar) +
                           " instructions");
      }
      continue;
    }
    // Wider instructions: accesses merged across loop iterations ...
    const unsigned W = Wider[0], Factor = W / Size;
    const size_t WideCount = ByWidth[W].size();
    const std::string WideOp = ByWidth[W][0]->Opcode;
    std::vector<std::pair<int, int>> Along; // (access, loop level)
    std::vector<int> Across;
    for (int Id : Ids) {
      int M = contiguousLoop(K, K.Accesses[Id], C.Loops[Id]);
      if (M >= 0)
        Along.push_back({Id, M});
      else
        Across.push_back(Id);
    }
    bool LoopMerge = false;
    if (!Along.empty() && W % Size == 0) {
      if (!Across.empty())
        LoopMerge =
            Scalar % Across.size() == 0 &&
            WideCount * Factor == Along.size() * (Scalar / Across.size());
      else
        LoopMerge = Scalar == 0 && (WideCount * Factor) % Along.size() == 0;
    }
    if (LoopMerge) {
      for (auto [Id, M] : Along) {
        CompiledForm &CF = K.Accesses[Id].Compiled;
        CF.State = CompiledForm::Merged;
        CF.Width = W;
        CF.Loop = M;
        CF.Instruction = WideOp;
        CF.Note = std::to_string(Factor) + " consecutive iterations of " +
                  (M == 0 ? std::string("its loop")
                          : "the loop " + std::to_string(M) + " levels out") +
                  " load one " + std::to_string(W) + "-byte run per lane";
      }
      for (int Id : Across) {
        K.Accesses[Id].Compiled.State = CompiledForm::AsWritten;
        K.Accesses[Id].Compiled.Instruction = ByWidth[Size][0]->Opcode;
      }
      continue;
    }
    // ... or accesses written in a row (a[4*i], a[4*i+1], ...).
    if (Scalar == 0 && W % Size == 0 && Ids.size() == WideCount * Factor) {
      for (size_t I = 0; I < Ids.size(); ++I) {
        CompiledForm &CF = K.Accesses[Ids[I]].Compiled;
        CF.State = CompiledForm::Merged;
        CF.Width = W;
        CF.Leader = Ids[I - I % Factor];
        CF.Instruction = WideOp;
        CF.Note = "merged with the next " + std::to_string(Factor - 1) +
                  " accesses of the line into one " + WideOp;
        if (I % Factor)
          CF.Note =
              "merged into " + K.Accesses[CF.Leader].Text + "'s " + WideOp;
      }
      continue;
    }
    if (Scalar == 0 && W % Size == 0 && Ids.size() == WideCount &&
        mergeAcrossLines(K, Ids, W, WideOp, NoInstruction, KernelDefs))
      continue;
    for (int Id : Ids)
      Ambiguous(K.Accesses[Id],
                std::to_string(WideCount) + " " + WideOp + " and " +
                    std::to_string(Scalar) +
                    " instructions of the source width on the line do not "
                    "tell which accesses were merged");
  }

  // Accesses whose instructions the line table puts on one other line.
  for (auto &[Kx, Ids] : Accesses) {
    const auto &Lines = InstrLines[Kx];
    if (Lines.size() != 1)
      continue;
    const auto &[File, Line] = *Lines.begin();
    for (int Id : Ids) {
      Access &A = K.Accesses[Id];
      if (A.Compiled.State == CompiledForm::Reused ||
          (fileKey(File) == fileKey(A.Loc.File) && Line == A.Loc.Line))
        continue;
      A.Compiled.Line = Line;
      if (fileKey(File) != fileKey(A.Loc.File))
        A.Compiled.File = File;
    }
  }

  // What the SASS says of atomics: RED or ATOM, and whether one elected
  // lane issues it for the warp. CUDA's atomic functions are inlined from
  // one header line, and the line table may give a call's instruction to
  // another call: where the line's instructions are some RED and some ATOM,
  // the source's word (whether the result is used) stands; where some are
  // issued by an elected lane and some by every lane, which access each
  // stands for is not established.
  struct LineAtomics {
    unsigned All = 0, Elected = 0, Red = 0;
  };
  std::map<std::pair<std::string, unsigned>, LineAtomics> AtomicLines;
  for (auto &[Kx, Ids] : Accesses)
    if (std::get<3>(Kx) == int(AccessKind::Atomic))
      for (const SassInstr *I : Instrs[Kx])
        if (!I->Where.empty()) {
          LineAtomics &L = AtomicLines[{I->Where[0].File, I->Where[0].Line}];
          ++L.All;
          L.Elected += I->OneLane;
          L.Red += I->Kind == SassKind::Reduction;
        }
  for (auto &[Kx, Ids] : Accesses) {
    const std::vector<const SassInstr *> &Is = Instrs[Kx];
    K.Sass.Claimed += unsigned(Is.size());
    if (Is.empty() || std::get<3>(Kx) != int(AccessKind::Atomic))
      continue;
    if (std::any_of(Is.begin(), Is.end(), [&](const SassInstr *I) {
          if (I->Where.empty())
            return false;
          const LineAtomics &L =
              AtomicLines[{I->Where[0].File, I->Where[0].Line}];
          return L.Elected && L.Elected < L.All;
        })) {
      for (int Id : Ids)
        if (K.Accesses[Id].Compiled.State == CompiledForm::AsWritten)
          Ambiguous(K.Accesses[Id],
                    "the atomics inlined from one header line are issued "
                    "some by one elected lane, some by every lane, and the "
                    "line table does not say which is which");
      continue;
    }
    const bool KindsMixed =
        std::any_of(Is.begin(), Is.end(), [&](const SassInstr *I) {
          if (I->Where.empty())
            return false;
          const LineAtomics &L =
              AtomicLines[{I->Where[0].File, I->Where[0].Line}];
          return L.Red && L.Red < L.All;
        });
    bool AllRed = true, AnyRed = false, AllOne = true;
    for (const SassInstr *I : Is) {
      bool Red = I->Kind == SassKind::Reduction;
      AllRed = AllRed && Red;
      AnyRed = AnyRed || Red;
      AllOne = AllOne && I->OneLane;
    }
    // The opcode says how a shared atomic's lanes are served, where every
    // instruction of the access's line and site agrees.
    std::optional<SharedAtomicForm> Form;
    if (std::get<2>(Kx))
      Form = sassSharedAtomicForm(Is);
    for (int Id : Ids) {
      Access &A = K.Accesses[Id];
      if (Form == SharedAtomicForm::SpinRound)
        markSpinLoop(A);
      else if (Form)
        A.SharedAtomic = *Form;
      if ((AllRed || !AnyRed) && !KindsMixed)
        A.Reduction = AllRed;
      A.Compiled.OneLane =
          AllOne && A.Compiled.State == CompiledForm::AsWritten;
      if (A.Compiled.OneLane && A.Compiled.Note.empty())
        A.Compiled.Note = "nvcc aggregated it across the warp (every lane "
                          "has the same address): one elected lane issues " +
                          Is[0]->Opcode + " for all";
    }
  }

  // A kernel whose SASS has atomics of one kind only in a space (every one
  // ATOM, or every one RED) makes each atomic access of that space that
  // kind, also one whose instruction the line table gave to another call
  // (binaryPartitionCG: ptxas kept ATOM with no result for an unused one).
  for (const bool Shared : {false, true})
    if (const std::optional<bool> Red = atomicsAllReductions(*F, Shared))
      for (Access &A : K.Accesses)
        if (classOf(A) == Class{Shared, int(AccessKind::Atomic)})
          A.Reduction = *Red;

  // Accesses with no instruction on their line.
  std::sort(Vanished.begin(), Vanished.end());
  std::vector<bool> Claimed(Orphans.size(), false);
  auto Claim = [&](size_t O) {
    Claimed[O] = true;
    K.Sass.Claimed += Orphans[O]->Copies;
  };
  /// The first unclaimed orphan that can stand for A's class and size.
  auto FreeOrphan = [&](const Access &A) {
    for (size_t O = 0; O < Orphans.size(); ++O)
      if (!Claimed[O] && classOf(A) == classOf(*Orphans[O]) &&
          Orphans[O]->Width == A.Size && Orphans[O]->Copies == 1 &&
          !Orphans[O]->Matrix)
        return O;
    return Orphans.size();
  };
  auto OrphanLine = [&](Access &A, const SassInstr &I) {
    if (I.Where.empty())
      return std::string("no line");
    const SassLoc &L = I.Where[0];
    if (fileKey(L.File) != fileKey(A.Loc.File))
      A.Compiled.File = L.File;
    if (!A.Compiled.File.empty() || L.Line != A.Loc.Line)
      A.Compiled.Line = L.Line;
    return "line " + std::to_string(L.Line);
  };
  std::vector<int> Left;
  for (int Id : Vanished) {
    Access &A = K.Accesses[Id];
    if (A.Compiled.State == CompiledForm::Merged)
      continue; // Covered by a wider instruction on another line.
    if (const Access *B = repeatedLoad(K, A, KernelDefs)) {
      A.Compiled.State = CompiledForm::Reused;
      A.Compiled.Note = std::string("no instruction: the value ") +
                        (B->Kind == AccessKind::Store ? "stored" : "loaded") +
                        " by " + B->Text + " (" + lineText(*B) + ") is reused";
      continue;
    }
    const std::vector<const Stmt *> &Loops = C.Loops[Id];
    // The loops (innermost first) in which neither the address nor the
    // array changes: the load can be hoisted out of them.
    unsigned Invariant = 0;
    if (A.Kind == AccessKind::Load && A.Address && !A.UnknownReason)
      for (const Stmt *L : Loops) {
        std::set<int> Inside;
        accessesIn(L->Body, Inside);
        bool Stored = false;
        for (int B : Inside)
          Stored = Stored ||
                   (K.Accesses[B].Kind != AccessKind::Load &&
                    K.Accesses[B].Array == A.Array && K.Accesses[B].Sp == A.Sp);
        if (Stored || !addressInvariantIn(A, *L))
          break;
        ++Invariant;
      }
    if (Invariant > 0) {
      size_t O = FreeOrphan(A);
      if (O < Orphans.size()) {
        // Out of how many loops: the source's nesting less the SASS loops
        // around the instruction (fewer when loops were unrolled away).
        unsigned Depth = F->loopDepth(Orphans[O]->Offset);
        unsigned Levels =
            Loops.size() > Depth ? unsigned(Loops.size() - Depth) : 1;
        if (Levels <= Invariant) {
          Claim(O);
          A.Compiled.State = CompiledForm::Hoisted;
          A.Compiled.Loop = int(Levels) - 1;
          A.Compiled.Instruction = Orphans[O]->Opcode;
          std::string Where = OrphanLine(A, *Orphans[O]);
          A.Compiled.Note = "loaded once before " +
                            (Levels == 1 ? std::string("its loop")
                                         : "its " + std::to_string(Levels) +
                                               " innermost loops") +
                            " (the " + Orphans[O]->Opcode +
                            " the line table puts on " + Where + ")";
          continue;
        }
      }
    }
    Left.push_back(Id);
  }

  // One access and one instruction of a class left over: the line table
  // put the instruction on another line.
  for (int Id : Left) {
    Access &A = K.Accesses[Id];
    size_t Candidates = 0, O = Orphans.size();
    for (size_t X = 0; X < Orphans.size(); ++X)
      if (!Claimed[X] && classOf(A) == classOf(*Orphans[X]) &&
          Orphans[X]->Width == A.Size && Orphans[X]->Copies == 1) {
        ++Candidates;
        O = X;
      }
    size_t Peers = 0;
    for (int B : Left)
      Peers += classOf(K.Accesses[B]) == classOf(A) &&
               K.Accesses[B].Size == A.Size &&
               K.Accesses[B].Compiled.State == CompiledForm::Unchecked;
    if (Candidates != 1 || Peers != 1)
      continue;
    Claim(O);
    A.Compiled.State = CompiledForm::AsWritten;
    A.Compiled.Instruction = Orphans[O]->Opcode;
    A.Compiled.Note = "the line table puts its " + Orphans[O]->Opcode + " on " +
                      OrphanLine(A, *Orphans[O]);
  }

  // The rest is as the SASS says: accesses without an instruction issue
  // none, instructions without an access make their figures unknown.
  for (int Id : Left) {
    Access &A = K.Accesses[Id];
    if (A.Compiled.State != CompiledForm::Unchecked)
      continue;
    A.Compiled.State = CompiledForm::NoInstruction;
    A.Compiled.Note = "no " + instrName(A) +
                      " instruction for it in the SASS (on this line or "
                      "left over elsewhere), and neither a reuse nor a "
                      "hoist could be proved";
    Notes.push_back(lineText(A) + ": " + A.Text + ": " + A.Compiled.Note +
                    "; counted as the SASS says: no request");
  }
  for (size_t O = 0; O < Orphans.size(); ++O) {
    if (Claimed[O])
      continue;
    const SassInstr &I = *Orphans[O];
    SassAccount::UnclaimedInstr U;
    U.Opcode = I.Opcode;
    U.Offset = I.Offset;
    if (!I.Where.empty()) {
      U.Loc.File = I.Where[0].File;
      U.Loc.Line = I.Where[0].Line;
    }
    const Class Cl = classOf(I);
    U.Sp = Cl.Shared ? Space::Shared : Space::Global;
    U.Async = Cl.Kind == AsyncKind;
    U.Kind = U.Async ? AccessKind::Load : AccessKind(Cl.Kind);
    U.Reduction = I.Kind == SassKind::Reduction;
    U.Copies = I.Copies;
    K.Sass.Unclaimed.push_back(U);
    Notes.push_back(K.Name + ": " + I.Opcode + " at SASS offset " +
                    llvm::utohexstr(I.Offset, true) +
                    (I.Where.empty() ? std::string(" (no line)")
                                     : " (" + U.Loc.File + ":" +
                                           std::to_string(U.Loc.Line) + ")") +
                    " stands for no access of the model: the " +
                    describe(I.Space, I.Kind) + " figures are unknown");
  }
  const GuardedLines Guarded(*F);
  for (Access &A : K.Accesses)
    Guarded.mark(A,
                 A.Compiled.Line
                     ? (A.Compiled.File.empty() ? A.Loc.File : A.Compiled.File)
                     : A.Loc.File,
                 A.Compiled.Line ? A.Compiled.Line : A.Loc.Line);
  // An async copy's shared side is what its global side became.
  for (Access &A : K.Accesses)
    if (A.AsyncPartner >= 0 && A.Sp == Space::Shared) {
      A.Compiled = K.Accesses[A.AsyncPartner].Compiled;
      A.Compiled.Guarded = false;
    }
  return Notes;
}

} // namespace gmem
