//===- access_facts.cpp - What ptxas can prove of a memory instruction ----===//
//
// ptxas emits RED for an atomic whose result nobody reads, and lets one
// elected lane issue an atomic for the whole warp when it can prove the
// address is the same on every lane (c[blockIdx.x]). The SASS line table
// does not always say which of a line's atomics became which (CUDA's
// atomic functions are all inlined from one header line); the PTX says it.
//
// Uniform: an address computed only from parameters, constants, module
// symbols and the block's coordinates and sizes; not one that reads %tid,
// %laneid, loaded data or a predicate that does. Flow-insensitive: a
// register is uniform when every instruction writing it is unguarded (or
// guarded by a uniform predicate) and reads only uniform operands. A
// register assigned uniform values in branches of a divergent condition
// would pass; ptxas would not prove it, so the result only decides between
// atomics the line table leaves alike.
//
// Raced and waiting: the registers computed from an atomic's result, or
// from the clock, a poll or an mbarrier's test, and the branches on them.
// What such a branch decides (how often a retry loop or a wait runs) is
// the hardware's timing, which the executor reports as such.
//
//===----------------------------------------------------------------------===//
#include "program.h"

namespace gmem::exec {

namespace {

bool uniformSpecial(const std::string &Name) {
  for (const char *Prefix :
       {"%ctaid", "%nctaid", "%ntid", "%nsmid", "%clusterid", "%nclusterid",
        "%cluster_ctaid", "%cluster_nctaid", "%gridid"})
    if (Name.rfind(Prefix, 0) == 0)
      return true;
  return false;
}

/// Loads whose value is the same on every lane when the address is: the
/// kernel's parameters and constant banks.
bool uniformLoad(const ptx::Instr &I) {
  return I.Op == "ld" && (I.has("param") || I.has("const"));
}

} // namespace

void computeUniformity(const ptx::Function &F, XFunction &X) {
  std::vector<char> Uniform(F.Regs.size(), 1);
  auto Reg = [&](int Index) {
    return size_t(Index) < Uniform.size() && Uniform[size_t(Index)];
  };
  auto Of = [&](const ptx::Operand &O) -> bool {
    switch (O.Kind) {
    case ptx::Operand::Reg:
      return Reg(O.Index);
    case ptx::Operand::Special:
      return uniformSpecial(O.Name);
    case ptx::Operand::Address:
      return O.Index < 0 || Reg(O.Index);
    case ptx::Operand::Vector:
      for (const ptx::Operand &E : O.Elems)
        if (E.Kind == ptx::Operand::Reg
                ? !Reg(E.Index)
                : E.Kind == ptx::Operand::Special && !uniformSpecial(E.Name))
          return false;
      return true;
    default:
      return true; // Immediates, symbols.
    }
  };
  auto Demote = [&](const ptx::Operand &O, bool &Changed) {
    if (O.Kind == ptx::Operand::Reg && size_t(O.Index) < Uniform.size() &&
        Uniform[size_t(O.Index)]) {
      Uniform[size_t(O.Index)] = 0;
      Changed = true;
    }
    if (O.Kind == ptx::Operand::Reg && O.Pair >= 0 &&
        size_t(O.Pair) < Uniform.size() && Uniform[size_t(O.Pair)]) {
      Uniform[size_t(O.Pair)] = 0;
      Changed = true;
    }
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const ptx::Instr &I : F.Body) {
      if (I.Ops.empty())
        continue;
      bool U = I.Guard < 0 ||
               (size_t(I.Guard) < Uniform.size() && Uniform[size_t(I.Guard)]);
      const bool Load = I.Op == "ld" || I.Op == "ldu" || I.Op == "atom" ||
                        I.Op == "tex" || I.Op == "suld" || I.Op == "call";
      if (Load && !uniformLoad(I))
        U = false; // Memory may differ per lane, whatever the address.
      for (size_t K = 1; U && K < I.Ops.size(); ++K)
        U = Of(I.Ops[K]);
      if (U)
        continue;
      // Every register the instruction writes: its destination (or
      // destinations, in braces); for calls, the returned values.
      const ptx::Operand &D = I.Ops[0];
      if (D.Kind == ptx::Operand::Vector)
        for (const ptx::Operand &E : D.Elems)
          Demote(E, Changed);
      else
        Demote(D, Changed);
    }
  }
  X.AccessUniform.assign(X.Accesses.size(), 0);
  for (size_t A = 0; A < X.Accesses.size(); ++A) {
    const ptx::Instr &I = F.Body[X.Accesses[A]];
    for (const ptx::Operand &O : I.Ops)
      if (O.Kind == ptx::Operand::Address) {
        X.AccessUniform[A] = Of(O);
        break;
      }
  }
  // Registers any instruction reads: an atom's result is read when its
  // destination is among them.
  std::vector<char> Read(F.Regs.size(), 0);
  auto MarkRead = [&](const ptx::Operand &O, auto &Self) -> void {
    if ((O.Kind == ptx::Operand::Reg || O.Kind == ptx::Operand::Address) &&
        size_t(O.Index) < Read.size())
      Read[size_t(O.Index)] = 1;
    for (const ptx::Operand &E : O.Elems)
      Self(E, Self);
  };
  for (const ptx::Instr &I : F.Body) {
    if (I.Guard >= 0 && size_t(I.Guard) < Read.size())
      Read[size_t(I.Guard)] = 1;
    // Stores, reductions and the like read their first operand too.
    const bool Writes = !I.Ops.empty() && I.Ops[0].Kind == ptx::Operand::Reg &&
                        I.Op != "st" && I.Op != "red";
    for (size_t K = Writes ? 1 : 0; K < I.Ops.size(); ++K)
      MarkRead(I.Ops[K], MarkRead);
  }
  X.AccessResultRead.assign(X.Accesses.size(), 1);
  for (size_t A = 0; A < X.Accesses.size(); ++A) {
    const ptx::Instr &I = F.Body[X.Accesses[A]];
    if (I.Op == "red")
      X.AccessResultRead[A] = 0;
    else if (I.Op == "atom" && !I.Ops.empty()) {
      const ptx::Operand &D = I.Ops[0];
      X.AccessResultRead[A] =
          D.Kind == ptx::Operand::Reg && size_t(D.Index) < Read.size()
              ? Read[size_t(D.Index)]
              : 0; // A sink (_): nobody reads it.
    }
  }
}

namespace {

/// Whether O reads a register of From.
bool taintedBy(const ptx::Operand &O, const std::vector<char> &From) {
  if ((O.Kind == ptx::Operand::Reg || O.Kind == ptx::Operand::Address) &&
      O.Index >= 0 && size_t(O.Index) < From.size() && From[size_t(O.Index)])
    return true;
  for (const ptx::Operand &E : O.Elems)
    if (taintedBy(E, From))
      return true;
  return false;
}

/// The branches whose guard is computed from a value Source says an
/// instruction makes (flow-insensitive, to a fixed point), and the
/// registers so computed (From).
template <class SourceFn>
std::vector<uint32_t> branchesOn(const ptx::Function &F, const XFunction &X,
                                 SourceFn Source, std::vector<char> &From) {
  From.assign(F.Regs.size(), 0);
  auto Mark = [&](const ptx::Operand &O, bool &Changed, auto &Self) -> void {
    if (O.Kind == ptx::Operand::Reg && O.Index >= 0 &&
        size_t(O.Index) < From.size() && !From[size_t(O.Index)]) {
      From[size_t(O.Index)] = 1;
      Changed = true;
    }
    for (const ptx::Operand &E : O.Elems)
      Self(E, Changed, Self);
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const ptx::Instr &I : F.Body) {
      if (I.Ops.empty() || I.Op == "st" || I.Op == "red")
        continue;
      bool Taints = Source(I);
      for (size_t K = 1; K < I.Ops.size() && !Taints; ++K)
        Taints = taintedBy(I.Ops[K], From);
      if (Taints)
        Mark(I.Ops[0], Changed, Mark);
    }
  }
  std::vector<uint32_t> Branches;
  for (uint32_t K = 0; K < X.Code.size(); ++K) {
    const int G = F.Body[K].Guard; // A register of F, as From's.
    if (X.Code[K].Ctl == XInstr::Branch && G >= 0 && size_t(G) < From.size() &&
        From[size_t(G)])
      Branches.push_back(K);
  }
  return Branches;
}

} // namespace

void computeRaced(const ptx::Function &F, XFunction &X) {
  // Registers that carry an atom's result, and every register computed
  // from one: a racing warp's atomic returns what the warps before it left,
  // in the order the GPU ran them.
  std::vector<char> From;
  X.AtomicBranches = branchesOn(
      F, X, [](const ptx::Instr &I) { return I.Op == "atom"; }, From);
  X.AccessRaced.assign(X.Accesses.size(), 0);
  for (size_t A = 0; A < X.Accesses.size(); ++A)
    for (const ptx::Operand &O : F.Body[X.Accesses[A]].Ops)
      if (O.Kind == ptx::Operand::Address) {
        X.AccessRaced[A] = taintedBy(O, From);
        break;
      }
  // A read of the clock, a volatile or ordered load (a poll of what another
  // thread writes) or an mbarrier's test: a wait that ends when time has
  // passed or the other threads have written or arrived (cuda::barrier's
  // backoff).
  std::vector<char> Waits;
  X.WaitBranches = branchesOn(
      F, X,
      [](const ptx::Instr &I) {
        if ((I.Op == "ld" &&
             (I.has("volatile") || I.has("acquire") || I.has("relaxed"))) ||
            (I.Op == "mbarrier" && (I.has("try_wait") || I.has("test_wait"))))
          return true;
        for (const ptx::Operand &O : I.Ops)
          if (O.Kind == ptx::Operand::Special &&
              (O.Name.rfind("%clock", 0) == 0 ||
               O.Name.rfind("%globaltimer", 0) == 0))
            return true;
        return false;
      },
      Waits);
}

void computeAddressBases(const ptx::Function &F, XFunction &X) {
  // Where each register is written: its one definition, or -1 for none or
  // several (a loop's induction variable, both sides of an if).
  std::vector<int> Def(F.Regs.size(), -1), Defs(F.Regs.size(), 0);
  auto Writes = [&](const ptx::Operand &O, int K) {
    for (int R : {O.Index, O.Pair})
      if (R >= 0 && size_t(R) < Def.size()) {
        Def[size_t(R)] = K;
        ++Defs[size_t(R)];
      }
  };
  for (size_t K = 0; K < F.Body.size(); ++K) {
    const ptx::Instr &I = F.Body[K];
    if (I.Ops.empty())
      continue;
    const ptx::Operand &D = I.Ops[0];
    if (D.Kind == ptx::Operand::Reg)
      Writes(D, int(K));
    for (const ptx::Operand &E : D.Elems)
      if (E.Kind == ptx::Operand::Reg)
        Writes(E, int(K));
  }
  auto Once = [&](int R) {
    return R >= 0 && size_t(R) < Def.size() && Defs[size_t(R)] == 1;
  };
  X.AccessBaseReg.assign(X.Accesses.size(), -1);
  X.AccessBaseOff.assign(X.Accesses.size(), 0);
  for (size_t A = 0; A < X.Accesses.size(); ++A)
    for (const ptx::Operand &O : F.Body[X.Accesses[A]].Ops) {
      if (O.Kind != ptx::Operand::Address)
        continue;
      int R = O.Index;
      int64_t Off = 0;
      // An unguarded integer add of a constant to a register written once
      // (so holding one value wherever it is read): R's value is that
      // register's plus the constant.
      for (int Hops = 0; Once(R) && Hops < 8; ++Hops) {
        const ptx::Instr &I = F.Body[size_t(Def[size_t(R)])];
        if (I.Op != "add" || I.Guard >= 0 || I.Ops.size() != 3 ||
            I.has("sat") ||
            !(I.has("s32") || I.has("u32") || I.has("s64") || I.has("u64")))
          break;
        const ptx::Operand *Reg = &I.Ops[1], *Imm = &I.Ops[2];
        if (Reg->Kind == ptx::Operand::Imm)
          std::swap(Reg, Imm);
        if (Reg->Kind != ptx::Operand::Reg || Imm->Kind != ptx::Operand::Imm ||
            !Once(Reg->Index))
          break;
        R = Reg->Index;
        Off += Imm->Value;
      }
      X.AccessBaseReg[A] = R;
      X.AccessBaseOff[A] = Off;
      break;
    }
}

} // namespace gmem::exec
