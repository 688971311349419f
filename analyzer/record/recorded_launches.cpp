//===- recorded_launches.cpp - A recorded run as launches to simulate -----===//
#include "recorded_launches.h"
#include "device_name.h"
#include "importers.h"
#include "known_memory.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

namespace gmem {

namespace {

uint64_t little(const std::vector<uint8_t> &B) {
  uint64_t V = 0;
  std::memcpy(&V, B.data(), std::min<size_t>(B.size(), 8));
  return V;
}

ArgValue decode(const Param &P, const std::optional<std::vector<uint8_t>> &B,
                const std::map<uint64_t, const RecordedAlloc *> &ByBase) {
  ArgValue A;
  if (!B || B->empty() || (P.Bytes && B->size() != P.Bytes)) {
    A.Reason = "its bytes were not recorded";
    return A;
  }
  const uint64_t V = little(*B);
  switch (P.Kind) {
  case ParamKind::Pointer: {
    A.Kind = ArgValue::Pointer;
    if (V == 0) {
      A.Allocation = NullPointer;
      return A;
    }
    auto It = ByBase.upper_bound(V);
    if (It != ByBase.begin() &&
        V - std::prev(It)->first <
            std::max<uint64_t>(1, std::prev(It)->second->Bytes)) {
      A.Allocation = KnownMemory::nameOf(*std::prev(It)->second);
      A.AlignOffset = V - std::prev(It)->first;
    } else {
      // Memory the recorder did not allocate (a __device__ variable's
      // address, a registered host buffer): only its alignment is known.
      A.Allocation = "address " + std::to_string(V);
      A.AlignOffset = V % 256;
    }
    return A;
  }
  case ParamKind::Int: {
    A.Kind = ArgValue::Int;
    A.IntValue = normalize(V, P.Type);
    return A;
  }
  case ParamKind::Float:
    A.Kind = ArgValue::Float;
    if (B->size() == 4) {
      float F;
      std::memcpy(&F, B->data(), 4);
      A.FloatValue = F;
    } else if (B->size() == 8) {
      double D;
      std::memcpy(&D, B->data(), 8);
      A.FloatValue = D;
    } else {
      A.Kind = ArgValue::Unknown;
      A.Reason = "a " + std::to_string(B->size()) + "-byte floating value";
    }
    return A;
  case ParamKind::Other:
    A.Reason = "a " + std::to_string(B->size()) + "-byte " + P.TypeName +
               " is not read";
    return A;
  }
  return A;
}

/// Launch R of kernel K as the recording gives it: where and how it was
/// launched, and what running it counted (a run for its results alone has
/// no figures: the model prices it).
Launch recorded(const RecordedLaunch &R, const Kernel &K) {
  Launch L;
  L.Kernel = K.Name;
  L.Loc = R.Site;
  L.Grid = R.Grid;
  L.Block = R.Block;
  L.DynamicSmem = R.Smem;
  L.FromGraph = R.Graph >= 0;
  if (R.Exec && R.Exec->Priced)
    L.Executed = R.Exec;
  if (R.Exec && R.Exec->Out.Finished)
    L.Ran = PtxIssue{R.Exec->Out.Issued, R.Exec->Out.IssuedInLoops,
                     R.Exec->Out.PtxInstructions, R.Exec->Out.PtxInLoops,
                     R.Exec->Out.PtxMemoryInLoops};
  return L;
}

/// Launches a functional recording did not run (nothing read what they
/// wrote: a timing loop's) issue what a run of the same kernel with the
/// same configuration and argument bytes issued.
void lendIssueCounts(std::vector<Launch> &Launches) {
  auto Key = [](const Launch &L) {
    std::string K = L.Kernel;
    for (uint64_t V : {L.Grid.X, L.Grid.Y, L.Grid.Z, L.Block.X, L.Block.Y,
                       L.Block.Z, L.DynamicSmem})
      K += "," + std::to_string(V);
    for (const std::vector<uint8_t> &A : L.ArgBytes)
      K += "|" + std::string(A.begin(), A.end());
    return K;
  };
  std::map<std::string, PtxIssue> Ran;
  for (const Launch &L : Launches)
    if (L.Ran)
      Ran.emplace(Key(L), *L.Ran);
  if (Ran.empty())
    return;
  for (Launch &L : Launches)
    if (!L.Ran)
      if (auto It = Ran.find(Key(L)); It != Ran.end())
        L.Ran = It->second;
}

} // namespace

RecordedLaunches launchesFromRecording(const RecordedRun &Run,
                                       const std::vector<Kernel> &Kernels) {
  RecordedLaunches Out;
  std::map<std::string, const Kernel *> ByMangled;
  // Clang and nvcc mangle some dependent template arguments apart (CUB's
  // ScanTileState<T, detail::is_primitive<T>::value>: nvcc's name holds
  // the inline namespace cub::CUB_300001_SM_900, Clang's does not): a
  // launch whose mangled name matches no kernel takes the one kernel of
  // its demangled name, when its arguments (sized by the PTX) are as many
  // and as large as its parameters.
  std::map<std::string, const Kernel *> ByName;
  std::set<std::string> SharedNames;
  for (const Kernel &K : Kernels) {
    if (!K.MangledName.empty())
      ByMangled[deviceNameKey(K.MangledName)] = &K;
    const std::string Name = kernelBaseName(K.Name);
    if (!ByName.emplace(Name, &K).second)
      SharedNames.insert(Name);
  }
  auto ByDemangled = [&](const RecordedLaunch &R) -> const Kernel * {
    const std::string Name = kernelBaseName(R.Mangled);
    auto It = ByName.find(Name);
    if (It == ByName.end() || SharedNames.count(Name) || !R.ArgsKnown ||
        R.Args.size() != It->second->Params.size())
      return nullptr;
    for (size_t P = 0; P < R.Args.size(); ++P) {
      const unsigned Bytes = It->second->Params[P].Bytes;
      if (Bytes && R.Args[P] && R.Args[P]->size() != Bytes)
        return nullptr;
    }
    return It->second;
  };
  // The allocations live at each launch, by base address: a base freed
  // and given out again names the allocation made last before the launch.
  std::map<uint64_t, const RecordedAlloc *> ByBase;
  std::vector<const RecordedAlloc *> ByMade, ByFreed;
  for (const RecordedAlloc &A : Run.Allocs) {
    ByMade.push_back(&A);
    if (A.FreedBefore != UINT64_MAX)
      ByFreed.push_back(&A);
  }
  std::stable_sort(ByFreed.begin(), ByFreed.end(), [](auto *A, auto *B) {
    return A->FreedBefore < B->FreedBefore;
  });
  size_t Made = 0, Freed = 0;
  auto LiveAt = [&](uint64_t I) {
    // In log order, allocations before frees of the same interval: a free
    // only removes the base while it still names the freed allocation.
    for (; Made < ByMade.size() && ByMade[Made]->LaunchesBefore <= I; ++Made)
      ByBase[ByMade[Made]->Base] = ByMade[Made];
    for (; Freed < ByFreed.size() && ByFreed[Freed]->FreedBefore <= I;
         ++Freed) {
      auto It = ByBase.find(ByFreed[Freed]->Base);
      if (It != ByBase.end() && It->second == ByFreed[Freed])
        ByBase.erase(It);
    }
  };

  std::set<std::string> Unknown;
  std::map<std::string, Kernel> Library; // By mangled name.
  KnownMemory Known(Run);
  std::string FirstCaveat;
  // The host's copies and sets since the launch before, for a warm L2.
  std::map<uint64_t, const RecordedAlloc *> AllocById;
  for (const RecordedAlloc &A : Run.Allocs)
    AllocById[A.Id] = &A;
  std::vector<Launch::HostWrite> HostWrites;
  size_t NextWrite = 0;
  for (size_t I = 0; I < Run.Launches.size(); ++I) {
    const RecordedLaunch &R = Run.Launches[I];
    const std::string Label = "launch " + std::to_string(R.N + 1);
    LiveAt(I);
    for (; NextWrite < Run.Writes.size() &&
           Run.Writes[NextWrite].LaunchesBefore <= I;
         ++NextWrite) {
      const RecordedWrite &W = Run.Writes[NextWrite];
      auto A = AllocById.find(W.Id);
      if (A != AllocById.end() && W.Bytes)
        HostWrites.push_back({KnownMemory::nameOf(*A->second), W.Bytes,
                              W.Api.find("Memset") != std::string::npos});
    }
    auto K = ByMangled.find(deviceNameKey(R.Mangled));
    if (K == ByMangled.end())
      if (const Kernel *Same = ByDemangled(R)) {
        K = ByMangled.emplace(deviceNameKey(R.Mangled), Same).first;
        Out.Renamed[Same->MangledName] = R.Mangled;
      }
    if (K == ByMangled.end() && R.Error.empty() && R.Exec && R.Exec->Priced) {
      // Its PTX ran: the execution prices it, with no model.
      Kernel &Lib = Library[R.Mangled];
      if (Lib.Name.empty()) {
        Lib.Name = kernelBaseName(R.Mangled);
        Lib.MangledName = R.Mangled;
        Lib.NoModel = true;
        Lib.Warnings.push_back(
            Lib.Name +
            " has no model (a library's own kernel, or one in a file Clang "
            "could not parse): the figures are its executed PTX's");
      }
      Known.unmodelled(I, Label + " (" + Lib.Name +
                              ", a kernel not in the analysed source) may "
                              "have written it");
      Launch L = recorded(R, Lib);
      for (const auto &Bytes : R.Args)
        L.ArgBytes.push_back(Bytes ? *Bytes : std::vector<uint8_t>());
      L.HostWrites = std::move(HostWrites);
      HostWrites.clear();
      Out.Launches.push_back(std::move(L));
      continue;
    }
    if (K == ByMangled.end()) {
      if (R.Error.empty())
        Known.unmodelled(I, Label + " (" + R.Mangled +
                                ", a kernel not in the analysed source) may "
                                "have written it");
      if (Unknown.insert(R.Mangled).second)
        Out.Warnings.push_back(Label + " is of " + R.Mangled +
                               ", a kernel not in the analysed source: not "
                               "simulated");
      continue;
    }
    const Kernel &Kn = *K->second;
    if (!R.Error.empty()) {
      Out.Warnings.push_back(Label + " of " + Kn.Name +
                             " was refused by the CUDA runtime (" + R.Error +
                             "): a GPU does not run it either");
      ++Out.Refused;
      continue;
    }
    Launch L = recorded(R, Kn);
    for (size_t P = 0; P < Kn.Params.size(); ++P) {
      std::optional<std::vector<uint8_t>> None;
      const auto &Bytes = R.ArgsKnown && P < R.Args.size() ? R.Args[P] : None;
      L.Args.push_back(decode(Kn.Params[P], Bytes, ByBase));
      L.ArgBytes.push_back(Bytes ? *Bytes : std::vector<uint8_t>());
    }
    L.Memory = Known.launch(I, L, Kn);
    L.Caveat = Known.caveat();
    L.HostWrites = std::move(HostWrites);
    HostWrites.clear();
    if (FirstCaveat.empty() && !L.Caveat.empty())
      FirstCaveat = "launches from " + std::to_string(R.N + 1) + " on were " +
                    L.Caveat + " (each says so)";
    Out.Launches.push_back(std::move(L));
  }
  lendIssueCounts(Out.Launches);
  for (auto &[Mangled, K] : Library)
    Out.Library.push_back(std::move(K));
  if (!FirstCaveat.empty())
    Out.Warnings.push_back(FirstCaveat);
  if (!Run.Library.empty()) {
    std::map<std::string, unsigned> Calls;
    for (const auto &[Api, Before] : Run.Library) {
      ++Calls[Api];
      if (mayWriteMemory(Api))
        ++Out.LibraryCalls[Api];
    }
    auto ListOf = [](const std::map<std::string, unsigned> &Calls) {
      std::string List;
      for (const auto &[Api, N] : Calls)
        List += (List.empty() ? "" : ", ") + Api +
                (N > 1 ? " x" + std::to_string(N) : std::string());
      return List;
    };
    for (const auto &[Api, N] : Run.LibraryComputed)
      if ((Calls[Api] -= N) == 0)
        Calls.erase(Api);
    if (!Calls.empty())
      Out.Warnings.push_back(
          "the program called NVIDIA libraries that gmem does not model (" +
          ListOf(Calls) +
          "): the recording libraries returned success and ran nothing, so "
          "their kernels are not in this report");
    if (!Run.LibraryComputed.empty())
      Out.Warnings.push_back(
          "gmem computed the program's cuBLAS matrix products on the host (" +
          ListOf(Run.LibraryComputed) +
          "), each element summed in double and rounded once, so device "
          "memory holds their results to within cuBLAS's rounding; their "
          "kernels are NVIDIA's and not in this report");
  }
  if (const auto &F = Run.FirstFault)
    Out.Warnings.push_back(
        "launch " + std::to_string(F->N + 1) + " faulted when run: " + F->Why +
        "; as a GPU does, the recording returned " + F->Error +
        " to the program's next call that waits for the device and to every "
        "call after it" +
        (Run.Unmade ? ", and did not make the " + std::to_string(Run.Unmade) +
                          " launch" + (Run.Unmade > 1 ? "es" : "") +
                          " the program asked for after it"
                    : std::string()));
  for (const std::string &M : Run.Missing)
    Out.Warnings.push_back("the program called " + M +
                           ", which gmem's recording runtime does not answer "
                           "(it returned cudaErrorNotSupported)");
  if (!Run.Stopped.empty()) {
    const std::string How =
        "the program " + Run.Stopped + " after " +
        std::to_string(Run.Launches.size()) +
        " launches; later launches are not known" +
        (Run.Launches.empty() ? "; if it needs arguments, pass --run-args "
                                "\"ARGS\""
                              : "") +
        (Run.OutputTail.empty() ? std::string()
                                : "; its output ended with: " + Run.OutputTail);
    (Run.Crashed ? Out.Stopped : Out.Warnings.emplace_back()) = How;
  }
  return Out;
}

} // namespace gmem
