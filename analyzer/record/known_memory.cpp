//===- known_memory.cpp - Which recorded bytes a launch may trust ---------===//
#include "known_memory.h"

#include "llvm/ADT/StringRef.h"
#include <set>

namespace gmem {

namespace {

/// The parameters a pointer may be based on; Opaque when it may be based
/// on anything (a pointer loaded from memory, integer tricks).
struct Bases {
  std::set<int> Params;
  bool Opaque = false;
  bool add(const Bases &O) {
    const size_t N = Params.size();
    const bool Was = Opaque;
    Params.insert(O.Params.begin(), O.Params.end());
    Opaque |= O.Opaque;
    return Params.size() != N || Opaque != Was;
  }
};

void collectAssigns(const std::vector<Stmt> &L,
                    std::vector<std::vector<const Expr *>> &Out) {
  for (const Stmt &S : L) {
    if (S.Kind == StmtKind::Assign && S.Value && S.Slot >= 0 &&
        size_t(S.Slot) < Out.size())
      Out[S.Slot].push_back(S.Value.get());
    for (const auto *Sub : {&S.Then, &S.Else, &S.CondPre, &S.Body, &S.Step})
      collectAssigns(*Sub, Out);
  }
}

/// Every parameter E reads, as possible bases.
void allParams(const Expr &E, const std::vector<Bases> &Slots, Bases &B) {
  if (E.Kind == Op::Param)
    B.Params.insert(E.Index);
  else if (E.Kind == Op::Var && E.Index >= 0 && size_t(E.Index) < Slots.size())
    B.add(Slots[E.Index]);
  else if (E.Kind == Op::Unknown)
    B.Opaque = true;
  else
    for (const ExprPtr &O : E.Ops)
      allParams(*O, Slots, B);
}

/// What the pointer value E is based on: pointer arithmetic keeps its
/// base; a loaded index (an unknown offset) does not make it opaque.
void baseOf(const Expr &E, const std::vector<Bases> &Slots, Bases &B) {
  switch (E.Kind) {
  case Op::Const:
    return;
  case Op::Add:
  case Op::Sub:
    if (E.PointerArith)
      return baseOf(*E.Ops[0], Slots, B);
    return allParams(E, Slots, B);
  case Op::Select:
    baseOf(*E.Ops[1], Slots, B);
    return baseOf(*E.Ops[2], Slots, B);
  case Op::Cast:
    return baseOf(*E.Ops[0], Slots, B);
  default:
    return allParams(E, Slots, B);
  }
}

} // namespace

KernelWrites kernelWrites(const Kernel &K) {
  KernelWrites W;
  W.Params.assign(K.Params.size(), false);
  std::vector<std::vector<const Expr *>> Assigns(K.Slots.size());
  collectAssigns(K.Body, Assigns);
  std::vector<Bases> Slots(K.Slots.size());
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (size_t S = 0; S < Slots.size(); ++S)
      for (const Expr *V : Assigns[S]) {
        Bases B;
        baseOf(*V, Slots, B);
        Changed |= Slots[S].add(B);
      }
  }
  for (const Access &A : K.Accesses) {
    if (A.Sp != Space::Global || A.Kind == AccessKind::Load)
      continue;
    Bases B;
    if (A.Address)
      baseOf(*A.Address, Slots, B);
    else
      B.Opaque = true;
    W.Any |= B.Opaque;
    for (int P : B.Params)
      if (P >= 0 && size_t(P) < W.Params.size())
        W.Params[P] = true;
  }
  for (const SassAccount::UnclaimedInstr &I : K.Sass.Unclaimed)
    W.Any |= I.Sp == Space::Global && I.Kind != AccessKind::Load;
  return W;
}

std::string KnownMemory::nameOf(const RecordedAlloc &A) {
  const char *Api = A.Kind == "managed" ? "cudaMallocManaged"
                    : A.Kind == "host"  ? "cudaMallocHost"
                    : A.Pitch           ? "cudaMallocPitch"
                                        : "cudaMalloc";
  return std::string(Api) + " #" + std::to_string(A.Id);
}

/// Why a device allocation nothing has filled is not known.
static std::string uninitialised(const RecordedAlloc &A) {
  return "nothing has written all of it yet (" + KnownMemory::nameOf(A) +
         " leaves memory uninitialised)";
}

KnownMemory::KnownMemory(const RecordedRun &Run) : Run(Run) {
  for (const RecordedAlloc &A : Run.Allocs) {
    ByName[nameOf(A)] = &A;
    ById[A.Id] = &A;
    // Device memory holds whatever it held until a copy or set fills it
    // (the recorder's zeros are not a GPU's). The host writes managed and
    // pinned memory itself, which the recorder sees in their images.
    if (A.Kind == "device")
      Unknown[A.Id] = uninitialised(A);
  }
}

bool mayWriteMemory(llvm::StringRef Api) {
  for (const char *Quiet :
       {"Create", "Destroy", "Get", "Heuristic", "SetMathMode", "SetStream",
        "SetWorkspace", "SetAttribute", "SetPointerMode", "SetAtomicsMode"})
    if (Api.contains(Quiet))
      return false;
  return true;
}

void KnownMemory::advanceTo(size_t Index) {
  if (Run.Functional) {
    // The launches ran: what the host reads back is what a GPU computed,
    // unless memory stopped being known before (a launch not run, a
    // library call).
    for (; NextRead < Run.Reads.size() &&
           Run.Reads[NextRead].LaunchesBefore <= Index;
         ++NextRead) {
      const RecordedRead &Rd = Run.Reads[NextRead];
      for (const auto &[Why, Before] : Run.Forgets)
        if (Caveat.empty() && Before <= Rd.LaunchesBefore)
          Caveat = "made after the host read (" + Rd.Api + ") memory that " +
                   Why + ": if what the host did next depends on those "
                   "bytes, a GPU run may launch differently";
    }
    return;
  }
  for (; NextLibrary < Run.Library.size() &&
         Run.Library[NextLibrary].second <= Index;
       ++NextLibrary)
    if (mayWriteMemory(Run.Library[NextLibrary].first))
      for (const auto &[Id, A] : ById) {
        Unknown[Id] = "the library call " + Run.Library[NextLibrary].first +
                      " (not modelled) may have written it";
        Filled.erase(Id);
      }
  // Reads and writes between the same two launches are not ordered in the
  // log's summary; a read is taken first (the usual check, then reuse).
  for (; NextRead < Run.Reads.size() &&
         Run.Reads[NextRead].LaunchesBefore <= Index;
       ++NextRead) {
    const RecordedRead &Rd = Run.Reads[NextRead];
    auto Why = Unknown.find(Rd.Id);
    // Only what a kernel may have written changes under a GPU.
    if (!Caveat.empty() ||
        (Rd.Id ? Why == Unknown.end() ||
                     Why->second == uninitialised(*ById[Rd.Id])
               : !Launched))
      continue;
    Caveat = "made after the host read (" + Rd.Api + ") " +
             (Rd.Id ? nameOf(*ById[Rd.Id]) + ", which " + Why->second
                    : std::string("a __device__ variable a kernel may have "
                                  "written")) +
             ": if what the host did next depends on those bytes, a GPU "
             "run may launch differently";
  }
  for (; NextWrite < Run.Writes.size() &&
         Run.Writes[NextWrite].LaunchesBefore <= Index;
       ++NextWrite) {
    const RecordedWrite &W = Run.Writes[NextWrite];
    auto To = ById.find(W.Id);
    if (To == ById.end())
      continue;
    auto From = Unknown.find(W.From);
    if (W.From && From != Unknown.end()) {
      Unknown[W.Id] = "it was copied (" + W.Api + ") from " +
                      nameOf(*ById[W.From]) + ", and " + From->second;
      Filled.erase(W.Id);
      continue;
    }
    // Known again once the host (or known memory) has filled all of it
    // since it was last unknown, in one write or several.
    if (!Unknown.count(W.Id))
      continue;
    std::map<uint64_t, uint64_t> &F = Filled[W.Id]; // Start -> end.
    uint64_t Start = W.Offset, End = W.Offset + W.Bytes;
    auto It = F.upper_bound(Start);
    if (It != F.begin() && std::prev(It)->second >= Start)
      --It;
    while (It != F.end() && It->first <= End) {
      Start = std::min(Start, It->first);
      End = std::max(End, It->second);
      It = F.erase(It);
    }
    F[Start] = End;
    if (F.size() == 1 && F.begin()->first == 0 &&
        F.begin()->second >= To->second->Bytes) {
      Unknown.erase(W.Id);
      Filled.erase(W.Id);
    }
  }
}

void KnownMemory::unmodelled(size_t Index, const std::string &Why) {
  advanceTo(Index);
  ++Launched;
  for (const auto &[Id, A] : ById)
    Unknown[Id] = Why;
  Filled.clear();
}

std::map<std::string, MemoryImage>
KnownMemory::launch(size_t Index, const Launch &L, const Kernel &K) {
  advanceTo(Index);
  ++Launched;
  const RecordedLaunch &R = Run.Launches[Index];
  const KernelWrites W = kernelWrites(K);
  const std::string Self = "this launch may write it";
  const std::string Later = "launch " + std::to_string(R.N + 1) + " (" +
                            K.Name + ") may have written it";
  // Every allocation, so that pointers loaded from memory map back; in a
  // run of very many, those the launch is given.
  std::set<std::string> Given, Written;
  for (size_t P = 0; P < L.Args.size(); ++P)
    if (L.Args[P].Kind == ArgValue::Pointer &&
        ByName.count(L.Args[P].Allocation)) {
      Given.insert(L.Args[P].Allocation);
      if (W.Any || (P < W.Params.size() && W.Params[P]))
        Written.insert(L.Args[P].Allocation);
    }
  std::map<std::string, MemoryImage> Out;
  for (const auto &[Name, A] : ByName) {
    if (ByName.size() > 256 && !Given.count(Name))
      continue;
    MemoryImage &I = Out[Name];
    I.RealBase = A->Base;
    I.Bytes = A->Bytes;
    auto Why = Unknown.find(A->Id);
    auto File = R.Images.find(A->Id);
    auto Data = File == R.Images.end() ? Run.Images.end()
                                       : Run.Images.find(File->second);
    if (Run.Functional) {
      // The recorder ran every launch and says which images are known.
      auto Known = R.ImageKnown.find(A->Id);
      if (Data == Run.Images.end())
        I.Unknown = "the bytes of " + Name +
                    " were not saved (the launch was not given it, or it is "
                    "larger than 64 MiB)";
      else if (Known == R.ImageKnown.end() || !Known->second)
        I.Unknown = "the bytes of " + Name + " are not known: " +
                    (Run.Forgets.empty() || A->Kind == "device"
                         ? uninitialised(*A) + ", or were computed from "
                                               "bytes that are not"
                         : Run.Forgets.back().first);
      else if (Written.count(Name) || W.Any)
        I.Unknown = "the bytes of " + Name + " are not known: " + Self;
      else
        I.Data = Data->second;
      continue;
    }
    if (Why != Unknown.end())
      I.Unknown = "the bytes of " + Name + " are not known: " + Why->second;
    else if (Written.count(Name) || W.Any)
      I.Unknown = "the bytes of " + Name + " are not known: " + Self;
    else if (Data == Run.Images.end())
      I.Unknown = "the bytes of " + Name +
                  " were not saved (the launch was not given it, or it is "
                  "larger than 64 MiB)";
    else
      I.Data = Data->second;
  }
  for (const auto &[Name, A] : ByName)
    if (W.Any || Written.count(Name)) {
      Unknown[A->Id] = Later;
      Filled.erase(A->Id);
    }
  return Out;
}

} // namespace gmem
