//===- match_launches.cpp - Which launch to simulate for each measured one ===//
//
// Measurements name kernels the way the analyzer does (kernelBaseName), and
// carry what they know of each launch: gmem-verify everything, ncu grid and
// block, nvprof nothing but the kernel. The rest comes from the host code's
// launches of the same kernel, taken in order.
//
//===----------------------------------------------------------------------===//
#include "compare.h"
#include "device_name.h"
#include "views.h"

#include <algorithm>
#include <map>

namespace gmem {

namespace {

std::string baseOf(const std::string &Name) {
  return Name.substr(0, Name.find('<'));
}

const Kernel *findMeasuredKernel(const Module &M, const MeasuredLaunch &ML) {
  if (const Kernel *K = M.findKernel(ML.Kernel))
    return K;
  if (!ML.Mangled.empty())
    for (const Kernel &K : M.Kernels)
      if (sameDeviceName(K.MangledName, ML.Mangled))
        return &K;
  // "k" measured where the source has exactly one instance "k<...>".
  if (ML.Kernel.find('<') != std::string::npos)
    return nullptr;
  const Kernel *Found = nullptr;
  for (const Kernel &K : M.Kernels)
    if (baseOf(K.Name) == ML.Kernel) {
      if (Found)
        return nullptr;
      Found = &K;
    }
  return Found;
}

std::string kernelList(const Module &M) {
  std::string S;
  for (size_t I = 0; I < M.Kernels.size() && I < 8; ++I)
    S += (I ? ", " : "") + M.Kernels[I].Name;
  if (M.Kernels.size() > 8)
    S += ", ...";
  return S.empty() ? "none" : S;
}

bool known(const std::array<uint64_t, 3> &D) { return D[0] && D[1] && D[2]; }

Dim3 toDim3(const std::array<uint64_t, 3> &D) { return {D[0], D[1], D[2]}; }

std::string ordinal(size_t N) {
  std::string S = std::to_string(N);
  unsigned Tens = N % 100, Ones = N % 10;
  if (Tens >= 11 && Tens <= 13)
    return S + "th";
  return S + (Ones == 1 ? "st" : Ones == 2 ? "nd" : Ones == 3 ? "rd" : "th");
}

/// The argument for parameter P from the measured argument MA and the host
/// launch's HA (either may be null).
ArgValue buildArg(const Param &P, const MeasuredArg *MA, const ArgValue *HA) {
  ArgValue A;
  switch (P.Kind) {
  case ParamKind::Pointer:
    A.Kind = ArgValue::Pointer;
    if (HA && HA->Kind == ArgValue::Pointer) {
      A.Allocation = HA->Allocation;
      A.AlignOffset = HA->AlignOffset;
    }
    if (MA && MA->AlignOffset)
      A.AlignOffset = *MA->AlignOffset;
    return A;
  case ParamKind::Int:
    if (MA && MA->Value) {
      A.Kind = ArgValue::Int;
      A.IntValue = *MA->Value;
      return A;
    }
    break;
  case ParamKind::Float:
    if (MA && MA->FloatValue) {
      A.Kind = ArgValue::Float;
      A.FloatValue = *MA->FloatValue;
      return A;
    }
    break;
  case ParamKind::Other:
    break;
  }
  if (HA)
    return *HA;
  A.Reason = MA ? "the measurement has no value for it"
                : "neither the measurement nor the host code gives it";
  return A;
}

} // namespace

Expected<LaunchMatching> matchLaunches(const Module &M, const Measurement &Ms,
                                       const std::string &MeasurementName) {
  LaunchMatching Out;
  if (Ms.Launches.empty())
    return Failure{MeasurementName + ": the measurement has no launches" +
                   (Ms.GraphLaunches ? " outside CUDA graphs" : "")};
  // Host launches of each kernel, in host-code order.
  // gmem-verify does not see the kernels CUDA graphs run: the recording's
  // graph launches are not the measured launches of their kernel.
  std::map<std::string, std::vector<size_t>> HostOf;
  size_t InGraphs = 0;
  for (size_t I = 0; I < M.Launches.size(); ++I) {
    if (Ms.GraphLaunches && M.Launches[I].FromGraph) {
      ++InGraphs;
      continue;
    }
    HostOf[M.Launches[I].Kernel].push_back(I);
  }
  if (InGraphs)
    Out.Notes.push_back(
        std::to_string(InGraphs) +
        " recorded launch(es) ran from CUDA graphs, whose kernels " +
        MeasurementName + " does not hold (" +
        std::to_string(Ms.GraphLaunches) +
        " graph launch(es) measured as none): they are predicted, not "
        "compared, and not matched to the measured launches of their "
        "kernels");
  std::map<std::string, size_t> Seen; // Measured launches per kernel so far.
  std::map<std::string, size_t> LibraryKernels;
  std::vector<bool> Used(M.Launches.size(), false);
  // gmem-verify records dynamic shared memory; the CSV formats do not.
  bool HasSmem = Ms.Tool == "gmem-verify";

  for (size_t I = 0; I < Ms.Launches.size(); ++I) {
    const MeasuredLaunch &ML = Ms.Launches[I];
    std::string What = MeasurementName + ": launch " +
                       std::to_string(ML.Index) + " (" + ML.Kernel + ")";
    const Kernel *K = findMeasuredKernel(M, ML);
    if (!K && !M.Compiler.LibraryCalls.empty()) {
      // The NVIDIA libraries the program called (cuBLAS's GEMMs) run
      // kernels of their own, which the source does not hold.
      ++LibraryKernels[ML.Kernel];
      continue;
    }
    if (!K)
      return Failure{What + ": no kernel of that name in " + M.File +
                     " (it has " + kernelList(M) +
                     "); compare the measurement of this program"};
    size_t Occurrence = Seen[K->Name]++;
    const std::vector<size_t> &Hosts = HostOf[K->Name];
    const bool DimsKnown = known(ML.Grid) && known(ML.Block);
    // gmem-verify --launch-count measures the first N launches of each
    // configuration: where the next recorded launch of the kernel has
    // another, the measured one is the next recorded launch that has its
    // (PMPP's merge sort: 8 of 2048 two-block merges, then 8 of 1024
    // four-block ones).
    const auto SameShape = [&](size_t H) {
      const Launch &R = M.Launches[H];
      return R.Grid == toDim3(ML.Grid) && R.Block == toDim3(ML.Block) &&
             (!HasSmem || R.DynamicSmem == ML.DynamicSmem);
    };
    if (DimsKnown && Occurrence < Hosts.size() && !SameShape(Hosts[Occurrence]))
      for (size_t H = Occurrence + 1; H < Hosts.size(); ++H)
        if (!Used[Hosts[H]] && SameShape(Hosts[H])) {
          Occurrence = H;
          Seen[K->Name] = H + 1;
          break;
        }
    const Launch *Host = nullptr;
    MatchedLaunch ML2;
    ML2.Measured = I;
    ML2.K = K;
    if (Occurrence < Hosts.size()) {
      ML2.HostLaunch = int(Hosts[Occurrence]);
      Host = &M.Launches[Hosts[Occurrence]];
      Used[Hosts[Occurrence]] = true;
    }
    std::string HostText = Host ? "the host launch at " + locText(Host->Loc)
                                : std::string("no host launch");

    bool NeedArgs = ML.Args.empty() && !K->Params.empty();
    bool UsesDynamicSmem = false;
    for (const SharedArray &S : K->Shared)
      UsesDynamicSmem |= S.Dynamic;
    if (!Host && (!DimsKnown || NeedArgs))
      return Failure{
          What + ": the measurement has no " +
          std::string(!DimsKnown ? "grid and block" : "argument values") +
          " and " + M.File + " has " + std::to_string(Hosts.size()) +
          " launch(es) of " + K->Name + " to take them from (this is the " +
          ordinal(Occurrence + 1) +
          " measured); measure with gmem-verify or ncu to record them"};
    if (!ML.Args.empty() && ML.Args.size() != K->Params.size() && !K->NoModel)
      return Failure{What + ": " + std::to_string(ML.Args.size()) +
                     " arguments measured, but " + K->Name + " in " + M.File +
                     " has " + std::to_string(K->Params.size()) +
                     " parameters; was the program built from this source?"};

    Launch &L = ML2.L;
    L.Kernel = K->Name;
    if (DimsKnown) {
      L.Grid = toDim3(ML.Grid);
      L.Block = toDim3(ML.Block);
    } else {
      L.Grid = Host->Grid;
      L.Block = Host->Block;
      L.Unresolved = Host->Unresolved;
      ML2.Notes.push_back("grid and block from " + HostText);
    }
    if (HasSmem) {
      L.DynamicSmem = ML.DynamicSmem;
    } else if (Host) {
      L.DynamicSmem = Host->DynamicSmem;
      if (UsesDynamicSmem) {
        L.Unresolved = Host->Unresolved;
        ML2.Notes.push_back("dynamic shared memory from " + HostText);
      }
    }
    if (Host)
      L.Loc = Host->Loc;
    bool ArgsFromHost = false;
    for (size_t P = 0; P < K->Params.size(); ++P) {
      const MeasuredArg *MA = P < ML.Args.size() ? &ML.Args[P] : nullptr;
      const ArgValue *HA =
          Host && P < Host->Args.size() ? &Host->Args[P] : nullptr;
      L.Args.push_back(buildArg(K->Params[P], MA, HA));
      bool FromMeasurement = MA && (MA->Value || MA->FloatValue);
      if (K->Params[P].Kind != ParamKind::Pointer && !FromMeasurement && HA)
        ArgsFromHost = true;
    }
    if (ArgsFromHost)
      ML2.Notes.push_back("argument values from " + HostText);
    // A recorded launch of the same shape knows the bytes the host wrote:
    // its pointers (allocation and offset) name them. One without pointer
    // arguments (a kernel of __device__ variables) has no image to carry,
    // but its run counted as well.
    if (Host && (!Host->Memory.empty() || Host->Executed) &&
        L.Grid == Host->Grid && L.Block == Host->Block) {
      for (size_t P = 0; P < K->Params.size() && P < Host->Args.size(); ++P)
        if (K->Params[P].Kind == ParamKind::Pointer &&
            Host->Args[P].Kind == ArgValue::Pointer)
          L.Args[P] = Host->Args[P];
      L.Memory = Host->Memory;
      L.Caveat = Host->Caveat;
      // The same launch, recorded: its argument bytes and, where the
      // recording ran it, what that run counted.
      if (L.DynamicSmem == Host->DynamicSmem) {
        L.ArgBytes = Host->ArgBytes;
        L.Executed = Host->Executed;
      }
      // Said where the kernel reads them for an address.
      if (std::any_of(K->Accesses.begin(), K->Accesses.end(),
                      [](const Access &A) { return A.DataDependent; }))
        ML2.Notes.push_back("memory contents from the recorded run");
    }
    // A kernel without a model (Clang could not parse it, or a library's)
    // is priced by the recording's run of it alone.
    if (K->NoModel && Host && L.Grid == Host->Grid && L.Block == Host->Block &&
        L.DynamicSmem == Host->DynamicSmem) {
      L.ArgBytes = Host->ArgBytes;
      L.Executed = Host->Executed;
      L.Caveat = Host->Caveat;
    }
    Out.Launches.push_back(std::move(ML2));
  }
  if (!LibraryKernels.empty()) {
    size_t N = 0, Named = 0;
    std::string Kernels, Calls;
    for (const auto &[Name, Count] : LibraryKernels) {
      N += Count;
      if (Named++ < 3)
        Kernels += (Kernels.empty() ? "" : ", ") + Name;
    }
    if (Named > 3)
      Kernels += " and " + std::to_string(Named - 3) + " more";
    for (const auto &[Api, Count] : M.Compiler.LibraryCalls)
      Calls += (Calls.empty() ? "" : ", ") + Api +
               (Count > 1 ? " x" + std::to_string(Count) : std::string());
    Out.Notes.push_back(
        std::to_string(N) + " measured launch(es) of kernels that " + M.File +
        " does not define (" + Kernels +
        ") are taken as those of the NVIDIA library calls the program made (" +
        Calls + "): not compared");
  }
  if (Out.Launches.empty())
    return Failure{MeasurementName +
                   ": every measured launch is of a kernel the NVIDIA "
                   "libraries the program called run; nothing to compare"};
  for (size_t I = 0; I < M.Launches.size(); ++I)
    if (!Used[I])
      Out.Unmeasured.push_back(I);
  return Out;
}

} // namespace gmem
