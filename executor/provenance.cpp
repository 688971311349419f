//===- provenance.cpp - Which array each memory instruction indexes ---------===//
//
// A memory instruction's address is a base plus arithmetic; the base comes
// from a kernel parameter (a pointer loaded by ld.param), a shared variable
// or a module variable. Following registers through moves, conversions and
// the arithmetic that offsets a pointer (add, sub, mad, and for alignment)
// names the array an access indexes, as the source names it: what lets an
// executed access stand beside the model's access to the same array, and
// what a report calls it.
//
//===----------------------------------------------------------------------===//
#include "program.h"

#include <map>

namespace gmem::exec {

namespace {

constexpr int32_t None = -1, Mixed = -2;

int32_t join(int32_t A, int32_t B) {
  if (A == None)
    return B;
  if (B == None || A == B)
    return A;
  return Mixed;
}

} // namespace

void computeOrigins(const ptx::Function &F, XFunction &X) {
  std::map<std::string, int32_t> ByName;
  auto Origin = [&](const std::string &Name) {
    auto It = ByName.find(Name);
    if (It != ByName.end())
      return It->second;
    X.Origins.push_back(Name);
    return ByName[Name] = int32_t(X.Origins.size() - 1);
  };
  // Symbols that name arrays: parameters (by index), shared and module
  // variables.
  std::map<std::string, int32_t> Param;
  for (size_t I = 0; I < F.Params.size(); ++I)
    Param[F.Params[I].Name] = int32_t(I);
  auto SymbolOrigin = [&](const std::string &Name) -> int32_t {
    if (Param.count(Name))
      return None; // A parameter's own address, not the pointer it holds.
    for (const ptx::Variable &V : F.Locals)
      if (V.Name == Name && V.Space == ptx::StateSpace::Shared)
        return Origin("shared:" + Name);
    if (X.Mod)
      for (const ptx::Variable &V : X.Mod->Globals)
        if (V.Name == Name)
          return Origin(std::string(V.Space == ptx::StateSpace::Shared
                                        ? "shared:"
                                        : "global:") +
                        Name);
    return None;
  };
  std::vector<int32_t> Reg(F.Regs.size(), None);
  auto OfOperand = [&](const ptx::Operand &O) -> int32_t {
    switch (O.Kind) {
    case ptx::Operand::Reg:
      return size_t(O.Index) < Reg.size() ? Reg[size_t(O.Index)] : None;
    case ptx::Operand::Symbol:
      return SymbolOrigin(O.Name);
    default:
      return None;
    }
  };
  auto Carries = [](const std::string &Op) {
    return Op == "mov" || Op == "cvta" || Op == "cvt" || Op == "add" ||
           Op == "sub" || Op == "mad" || Op == "and" || Op == "or";
  };
  for (unsigned Pass = 0; Pass < 8; ++Pass) {
    bool Changed = false;
    for (const ptx::Instr &I : F.Body) {
      if (I.Ops.empty() || I.Ops[0].Kind != ptx::Operand::Reg)
        continue;
      int32_t New = None;
      if (I.Op == "ld" && I.has("param") && I.Ops.size() > 1 &&
          I.Ops[1].Kind == ptx::Operand::Address && I.Ops[1].Index < 0) {
        auto It = Param.find(I.Ops[1].Name);
        if (It != Param.end() && F.Entry)
          New = Origin("param:" + std::to_string(It->second));
      } else if (Carries(I.Op)) {
        for (size_t K = 1; K < I.Ops.size(); ++K)
          New = join(New, OfOperand(I.Ops[K]));
      } else {
        continue;
      }
      int32_t &R = Reg[size_t(I.Ops[0].Index)];
      const int32_t Merged = Pass ? join(R, New) : New;
      if (Merged != R) {
        R = Merged;
        Changed = true;
      }
    }
    if (!Changed)
      break;
  }
  X.AccessOrigin.assign(X.Accesses.size(), None);
  for (size_t A = 0; A < X.Accesses.size(); ++A) {
    const ptx::Instr &I = F.Body[X.Accesses[A]];
    // The address operand: the first of a store, atom, red or cp.async,
    // the second of a load.
    for (const ptx::Operand &O : I.Ops)
      if (O.Kind == ptx::Operand::Address) {
        const int32_t V = O.Index >= 0 ? OfOperand({ptx::Operand::Reg, O.Index})
                                       : SymbolOrigin(O.Name);
        X.AccessOrigin[A] = V < 0 ? None : V;
        break;
      }
  }
}

} // namespace gmem::exec
