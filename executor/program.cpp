//===- program.cpp - Link PTX modules, place their variables ----------------===//
#include "program.h"

#include <algorithm>

namespace gmem::exec {

namespace {

/// Module-scope key: the module's index and the name.
std::string key(size_t Module, const std::string &Name) {
  return std::to_string(Module) + ":" + Name;
}

} // namespace

Expected<std::unique_ptr<Program>>
Program::link(std::shared_ptr<const std::vector<ptx::Module>> Modules,
              GlobalMemory &Mem, const VariablePlacer &Place,
              bool VariablesKnown) {
  auto P = std::unique_ptr<Program>(new Program());
  P->Modules = std::move(Modules);
  const std::vector<ptx::Module> &Mods = *P->Modules;
  // Functions: each module's own first, then any module's definition (an
  // .extern declaration is resolved as nvlink resolves it).
  for (size_t I = 0; I < Mods.size(); ++I) {
    const ptx::Module &M = Mods[I];
    for (const ptx::Function &F : M.Functions) {
      if (!F.Defined)
        continue;
      P->Defs[key(I, F.Name)] = {&M, &F};
      P->Defs.emplace(F.Name, std::make_pair(&M, &F));
    }
  }
  // Variables: placed by the caller (the program's own buffers) or in
  // memory the executor owns, with their initial bytes.
  for (size_t I = 0; I < Mods.size(); ++I) {
    const ptx::Module &M = Mods[I];
    for (const ptx::Variable &V : M.Globals) {
      if (V.Space == ptx::StateSpace::Shared) {
        SharedVar S{V.Name, V.Bytes, std::max(V.Align, 1u),
                    V.Extern || V.Unsized};
        P->SharedByName[key(I, V.Name)] = uint32_t(P->Shared.size());
        P->Shared.push_back(S);
        continue;
      }
      if (V.Extern || (V.Space != ptx::StateSpace::Global &&
                       V.Space != ptx::StateSpace::Const))
        continue;
      uint64_t A = Place ? Place(V) : 0;
      if (!A) {
        const uint64_t Bytes = std::max<uint64_t>(V.Bytes, 1);
        // Module variables are held in this process's memory.
        if (Bytes > (uint64_t(1) << 32))
          return Failure{"the module variable " + V.Name + " of " +
                         std::to_string(Bytes) +
                         " bytes is larger than the executor holds (4 GiB)"};
        A = alignUp(Mem.NextFree, std::max(V.Align, 16u));
        Mem.NextFree = A + alignUp(Bytes, 256);
        Region &R = Mem.addOwned(A, Bytes, V.Name, VariablesKnown);
        if (!VariablesKnown)
          R.UnknownWhy = "the host may have written it (cudaMemcpyToSymbol)";
        std::memcpy(R.Data, V.Init.data(),
                    std::min<uint64_t>(V.Init.size(), Bytes));
      }
      P->VarAddress[key(I, V.Name)] = A;
      P->VarAddress.emplace(V.Name, A);
    }
  }
  // Address initialisers (a pointer to another variable) in owned memory.
  for (size_t I = 0; I < Mods.size(); ++I)
    for (const ptx::Variable &V : Mods[I].Globals) {
      if (V.InitSymbols.empty())
        continue;
      auto Self = P->VarAddress.find(key(I, V.Name));
      if (Self == P->VarAddress.end())
        continue;
      Region *R = Mem.find(Self->second, 1);
      if (!R)
        continue;
      for (const auto &[Off, Sym] : V.InitSymbols) {
        // A function's address (a vtable's entries): the executor's, in
        // the program's own copy too, which cannot hold a GPU's.
        const std::string Def = P->definition(key(I, Sym.first), nullptr)
                                    ? key(I, Sym.first)
                                    : Sym.first;
        if (P->definition(Def, nullptr)) {
          const uint64_t Value = P->functionAddress(Def) + uint64_t(Sym.second);
          if (Off + 8 <= R->Size) {
            std::memcpy(R->Data + Off, &Value, 8);
            if (R->Known)
              R->Known->set(Off, 8, true);
          }
          continue;
        }
        if (!R->Owned)
          continue; // The program's own copy holds its own pointers.
        uint64_t Target = P->addressOf(key(I, Sym.first));
        if (!Target)
          Target = P->addressOf(Sym.first);
        const uint64_t Value = Target + uint64_t(Sym.second);
        if (Off + 8 <= R->Size)
          std::memcpy(R->Data + Off, &Value, 8);
      }
    }
  // Function-scope shared variables.
  for (size_t I = 0; I < Mods.size(); ++I)
    for (const ptx::Function &F : Mods[I].Functions)
      for (const ptx::Variable &V : F.Locals)
        if (V.Space == ptx::StateSpace::Shared) {
          P->SharedByName[key(I, F.Name + "/" + V.Name)] =
              uint32_t(P->Shared.size());
          P->Shared.push_back({V.Name, V.Bytes, std::max(V.Align, 1u),
                               V.Extern || V.Unsized, /*InFunction=*/true});
        }
  return std::move(P);
}

uint64_t Program::addressOf(const std::string &Name) const {
  auto It = VarAddress.find(Name);
  return It == VarAddress.end() ? 0 : It->second;
}

int Program::sharedIndex(const std::string &Name) const {
  auto It = SharedByName.find(Name);
  return It == SharedByName.end() ? -1 : int(It->second);
}

const ptx::Function *Program::definition(const std::string &Name,
                                         const ptx::Module **In) const {
  auto It = Defs.find(Name);
  if (It == Defs.end())
    return nullptr;
  if (In)
    *In = It->second.first;
  return It->second.second;
}

XFunction *Program::decodeFunction(const std::string &Name) {
  const ptx::Module *M = nullptr;
  const ptx::Function *F = definition(Name, &M);
  if (!F)
    return nullptr;
  auto It = Decoded.find(F);
  if (It != Decoded.end())
    return It->second.get();
  auto X = std::make_unique<XFunction>();
  XFunction *Raw = X.get();
  Decoded[F] = std::move(X);
  Raw->Src = F;
  Raw->Mod = M;
  Raw->Owner = this;
  Raw->Name = F->Name;
  Raw->ModuleIndex = unsigned(M - Modules->data());
  decode(*this, *M, *F, *Raw);
  computeReconvergence(*Raw);
  Raw->Decoded = true;
  return Raw;
}

const XFunction *Program::kernel(const std::string &Mangled) {
  const ptx::Function *F = definition(Mangled, nullptr);
  if (!F || !F->Entry)
    return nullptr;
  return decodeFunction(Mangled);
}

const XFunction *Program::function(const std::string &Name) {
  return decodeFunction(Name);
}

const SharedLayout &Program::layout(const XFunction &K) {
  auto It = Layouts.find(&K);
  if (It != Layouts.end())
    return It->second;
  // Every function the kernel may call (decoded on the way).
  const std::vector<const XFunction *> Reach = callees(K);
  std::vector<uint32_t> Used;
  for (const XFunction *F : Reach)
    for (uint32_t S : F->SharedVars)
      if (std::find(Used.begin(), Used.end(), S) == Used.end())
        Used.push_back(S);
  std::sort(Used.begin(), Used.end());
  SharedLayout L;
  L.Offset.assign(Shared.size(), ~uint64_t(0));
  // As ptxas places them: the functions' own variables (nvcc's "demoted"
  // ones) first, then the module's, each group in the order declared
  // (HeCBench's accuracy_kernel2: its two variables at 0 and 4, CUB's
  // storage, a module variable it shares with another kernel, at 8).
  uint64_t Top = 0;
  for (const bool InFunction : {true, false})
    for (uint32_t S : Used)
      if (!Shared[S].Dynamic && Shared[S].InFunction == InFunction) {
        Top = alignUp(Top, Shared[S].Align);
        L.Offset[S] = Top;
        Top += Shared[S].Bytes;
      }
  L.StaticBytes = Top;
  // Dynamic shared memory starts after the static, aligned as the most
  // aligned extern array asks (at least 16 bytes: code relies on it, as
  // pranjalssh/fast.cu's TMA boxes and wgmma descriptors do on 128), and
  // every extern array names its start.
  uint64_t DynAlign = 16;
  for (uint32_t S : Used)
    if (Shared[S].Dynamic)
      DynAlign = std::max<uint64_t>(DynAlign, Shared[S].Align);
  const uint64_t Dyn = alignUp(Top, DynAlign);
  L.DynamicOffset = Dyn;
  for (uint32_t S : Used)
    if (Shared[S].Dynamic)
      L.Offset[S] = Dyn;
  return Layouts.emplace(&K, std::move(L)).first->second;
}

uint64_t Program::functionAddress(const XFunction &F) {
  return functionAddress(key(F.ModuleIndex, F.Name));
}

uint64_t Program::functionAddress(const std::string &Def) {
  // One address per definition, however it is named.
  const ptx::Function *F = definition(Def, nullptr);
  size_t I = 0;
  while (I < FunctionTable.size() && definition(FunctionTable[I], nullptr) != F)
    ++I;
  if (I == FunctionTable.size())
    FunctionTable.push_back(Def);
  return (uint64_t(I) + 1) << 4 | (uint64_t(0xF0) << 40);
}

std::vector<const XFunction *> callees(const XFunction &K) {
  std::vector<const XFunction *> Reach = {&K};
  bool Indirect = false;
  auto Add = [&](const XFunction *F) {
    if (std::find(Reach.begin(), Reach.end(), F) == Reach.end())
      Reach.push_back(F);
  };
  for (size_t I = 0; I < Reach.size(); ++I) {
    for (const CallInfo &C : Reach[I]->Calls) {
      if (C.Callee)
        Add(C.Callee);
      else if (C.Name.empty() && !Indirect && K.Owner) {
        Indirect = true;
        for (const XFunction *F : K.Owner->addressTaken())
          Add(F);
      }
    }
  }
  return Reach;
}

std::vector<const XFunction *> withLaunches(const XFunction &K) {
  std::vector<const XFunction *> Reach = callees(K);
  const bool Launches =
      K.Owner &&
      std::any_of(Reach.begin(), Reach.end(), [](const XFunction *F) {
        return std::any_of(
            F->Calls.begin(), F->Calls.end(),
            [](const CallInfo &C) { return C.launchesKernel(); });
      });
  if (!Launches)
    return Reach;
  // Every kernel whose address is taken (those it launches, and theirs).
  for (const XFunction *F : K.Owner->addressTaken())
    if (F->Src && F->Src->Entry)
      for (const XFunction *G : callees(*F))
        if (std::find(Reach.begin(), Reach.end(), G) == Reach.end())
          Reach.push_back(G);
  return Reach;
}

std::vector<const XFunction *> Program::addressTaken() {
  std::vector<const XFunction *> Out;
  // Decoding may take more addresses: the table grows as it is read.
  for (size_t I = 0; I < FunctionTable.size(); ++I)
    if (const XFunction *F = decodeFunction(FunctionTable[I]))
      Out.push_back(F);
  return Out;
}

const XFunction *Program::functionAt(uint64_t A) {
  if ((A >> 40) != 0xF0 || (A & 15))
    return nullptr;
  const uint64_t I = ((A & ((uint64_t(1) << 40) - 1)) >> 4);
  return I && I <= FunctionTable.size() ? decodeFunction(FunctionTable[I - 1])
                                        : nullptr;
}

} // namespace gmem::exec
