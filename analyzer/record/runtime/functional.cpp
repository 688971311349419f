//===- functional.cpp - Kernels run on their PTX while the program records
//--===//
#include "functional.h"
#include "executed_json.h"
#include "recorder.h"

#include "arch.h"
#include "executed.h"
#include "launch.h"
#include "ptx_parser.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>

namespace gmem::rec {

namespace {

struct State {
  bool On = false;
  bool Linked = false;
  std::string LinkError;
  exec::GlobalMemory Mem;
  std::unique_ptr<exec::Program> Prog;
  std::shared_ptr<std::vector<ptx::Module>> Modules;
  /// Built with relocatable device code (GMEM_RECORD_RDC).
  bool LinkerPlacesShared = false;
  /// Per allocation (by base): which of its bytes are known.
  std::map<uintptr_t, std::unique_ptr<exec::KnownBits>> Known;
  std::map<uintptr_t, std::string> Kinds;
  /// __device__ / __constant__ variables: device name -> host copy, size.
  std::map<std::string, std::pair<void *, size_t>> Vars;
  std::vector<std::unique_ptr<exec::KnownBits>> VarKnown;
  /// Executed kernels, by entry name, with gmem-analyze's reconciliation
  /// applied (GMEM_RECORD_COMPILED).
  std::map<std::string, ExecutedKernel> Kernels;
  std::map<std::string, std::vector<std::string>> Compiled;
  const ArchRules *Arch = nullptr;
  /// The execution budget in seconds, and what has been spent.
  double Budget = 60, Spent = 0;
  /// The last launches run: the same launch made again over the memory it
  /// read, unchanged since, while it wrote none of that memory, computes
  /// the same bytes and counts (a benchmark's repeats), so it is not run
  /// again. Each keeps the allocations written since (by the host or by
  /// other launches).
  struct Repeat {
    FunctionalLaunch L;
    std::vector<uint64_t> Read, Written;
    std::string Counts;
    uint64_t N = 0;
    std::set<uint64_t> Dirty;
  };
  std::vector<Repeat> Recent; ///< At most 8, the latest last.
  /// Kernels gmem-analyze prices without their results (GMEM_RECORD_DEFER:
  /// the model is complete and reads no data): their launches wait until
  /// something observes device memory, and those nothing observes never
  /// run. Launches waiting, in order.
  std::set<std::string> Deferrable;
  std::vector<std::pair<uint64_t, FunctionalLaunch>> Pending;
  bool Settling = false;
  bool Printf = false; ///< The PTX calls vprintf: nothing waits.
  /// Device allocations the last memset set whole to one byte, which
  /// nothing wrote since: base -> the byte.
  std::map<uintptr_t, uint8_t> Filled;
  /// Device allocations whose bytes may have become known since the last
  /// forgetAll (a host write, a launch run): what it has to forget. A
  /// program past its execution budget forgets at every launch.
  std::set<uintptr_t> Learned;
  void dirty(uint64_t Base) {
    for (Repeat &R : Recent)
      R.Dirty.insert(Base);
    Filled.erase(Base);
  }
};

State &state() {
  static State *S = [] {
    auto *New = new State();
    const char *Ptx = std::getenv("GMEM_RECORD_PTX");
    if (!Ptx || !*Ptx)
      return New;
    New->On = true;
    New->Modules = std::make_shared<std::vector<ptx::Module>>();
    // Colon-separated files.
    std::stringstream List(Ptx);
    for (std::string File; std::getline(List, File, ':');) {
      std::ifstream In(File);
      std::stringstream Text;
      Text << In.rdbuf();
      auto M = ptx::parseModule(Text.str(), File);
      if (!M) {
        New->LinkError = M.error();
        continue;
      }
      New->Modules->push_back(std::move(*M));
    }
    const char *Arch = std::getenv("GMEM_RECORD_ARCH");
    New->Arch = findArch(Arch ? Arch : "sm_90");
    if (!New->Arch)
      New->Arch = findArch("sm_90");
    New->LinkerPlacesShared = std::getenv("GMEM_RECORD_RDC") != nullptr;
    if (const char *B = std::getenv("GMEM_RECORD_EXEC_SECONDS"))
      New->Budget = std::atof(B);
    if (const char *D = std::getenv("GMEM_RECORD_DEFER")) {
      std::stringstream Names(D);
      for (std::string Name; std::getline(Names, Name, ',');)
        if (!Name.empty())
          New->Deferrable.insert(Name);
    }
    for (const ptx::Module &M : *New->Modules)
      for (const ptx::Function &F : M.Functions)
        New->Printf |= F.Name == "vprintf";
    if (const char *C = std::getenv("GMEM_RECORD_COMPILED")) {
      std::ifstream In(C);
      for (std::string Line; std::getline(In, Line);) {
        std::istringstream L(Line);
        std::string Kernel;
        if (L >> Kernel)
          New->Compiled[Kernel].push_back(Line);
      }
    }
    return New;
  }();
  return *S;
}

/// Links the modules once every variable is registered (before the first
/// launch): the program's own copies of its variables are their memory.
bool link() {
  State &S = state();
  if (S.Linked)
    return S.Prog != nullptr;
  S.Linked = true;
  if (!S.LinkError.empty())
    return false;
  auto P = exec::Program::link(
      S.Modules, S.Mem, [&S](const ptx::Variable &V) -> uint64_t {
        auto It = S.Vars.find(V.Name);
        if (It == S.Vars.end())
          return 0;
        auto [Host, Bytes] = It->second;
        S.VarKnown.push_back(std::make_unique<exec::KnownBits>(Bytes, true));
        S.Mem.addExternal(uintptr_t(Host), Bytes, static_cast<uint8_t *>(Host),
                          S.VarKnown.back().get(), V.Name);
        return uintptr_t(Host);
      });
  if (!P) {
    S.LinkError = P.error();
    return false;
  }
  S.Prog = std::move(*P);
  S.Prog->LinkerPlacesShared = S.LinkerPlacesShared;
  // Pointers among the initial bytes (`__device__ int *p = table;`), now
  // that every variable has its address.
  for (const ptx::Module &M : *S.Modules)
    for (const ptx::Variable &V : M.Globals) {
      auto It = S.Vars.find(V.Name);
      if (V.InitSymbols.empty() || It == S.Vars.end())
        continue;
      for (const auto &[Off, Sym] : V.InitSymbols) {
        const uint64_t Value =
            S.Prog->addressOf(Sym.first) + uint64_t(Sym.second);
        if (Off + 8 <= It->second.second)
          std::memcpy(static_cast<char *>(It->second.first) + Off, &Value, 8);
      }
    }
  return true;
}

/// The kernel's accesses, with what ptxas made of them.
ExecutedKernel &executedFor(const exec::XFunction &K) {
  State &S = state();
  auto It = S.Kernels.find(K.Name);
  if (It != S.Kernels.end())
    return It->second;
  ExecutedKernel &EK = S.Kernels[K.Name] = executedKernel(K);
  for (const std::string &Line : S.Compiled[K.Name])
    applyCompiledLine(EK, Line);
  return EK;
}

std::string quoted(const std::string &S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\')
      Out += '\\';
    if (static_cast<unsigned char>(C) < 0x20)
      Out += ' ';
    else
      Out += C;
  }
  return Out + "\"";
}

} // namespace

bool functional() { return state().On; }

bool ptxParamSizes(const std::string &Kernel, std::vector<unsigned> &Out) {
  if (!functional() || !link())
    return false;
  const exec::XFunction *K = state().Prog->kernel(Kernel);
  if (!K)
    return false;
  Out.clear();
  for (const auto &Slot : K->ParamSlots)
    Out.push_back(Slot.second);
  return true;
}

bool layoutParams(const std::string &Kernel, void **Args,
                  std::vector<uint8_t> &Out) {
  if (!functional() || !link())
    return false;
  const exec::XFunction *K = state().Prog->kernel(Kernel);
  if (!K)
    return false;
  uint64_t Bytes = 0;
  for (const auto &[Off, N] : K->ParamSlots)
    Bytes = std::max<uint64_t>(Bytes, Off + N);
  Out.assign(Bytes, 0);
  for (size_t I = 0; I < K->ParamSlots.size(); ++I)
    if (Args && Args[I])
      std::memcpy(&Out[K->ParamSlots[I].first], Args[I],
                  K->ParamSlots[I].second);
  return true;
}

void run(uint64_t N, const FunctionalLaunch &L);
void forget(void *P);

/// Runs the first Count launches kept, in order.
void runKept(size_t Count) {
  State &S = state();
  if (!Count || S.Settling)
    return;
  S.Settling = true;
  std::vector<std::pair<uint64_t, FunctionalLaunch>> Run(
      S.Pending.begin(), S.Pending.begin() + long(Count));
  S.Pending.erase(S.Pending.begin(), S.Pending.begin() + long(Count));
  for (const auto &[N, L] : Run)
    run(N, L);
  S.Settling = false;
}

void settle() { runKept(state().Pending.size()); }

void settle(const void *P) {
  State &S = state();
  exec::Region *R = P ? S.Mem.find(uintptr_t(P), 1) : nullptr;
  if (!R) // Not device memory: nothing kept can touch it.
    return;
  size_t Count = 0;
  for (size_t I = 0; I < S.Pending.size(); ++I) {
    const std::vector<uintptr_t> &T = S.Pending[I].second.Touches;
    if (std::find(T.begin(), T.end(), R->Base) != T.end())
      Count = I + 1;
  }
  runKept(Count);
}

bool settled(uintptr_t Base) {
  for (const auto &[N, L] : state().Pending)
    if (std::find(L.Touches.begin(), L.Touches.end(), Base) != L.Touches.end())
      return false;
  return true;
}

/// The first misaligned access of a launch, in words.
static std::string misalignment(const ExecutedCounts &C) {
  const OrderedExample *First = nullptr;
  for (const OrderedExample &E : C.Misaligned)
    if (E.Order != ~uint64_t(0) && (!First || E.Order < First->Order))
      First = &E;
  if (!First)
    return "a misaligned access";
  const FaultLane &F = First->Where;
  char Hex[32];
  std::snprintf(Hex, sizeof Hex, "0x%llx", (unsigned long long)F.Address);
  return "a misaligned access: lane " + std::to_string(F.Lane) + " of warp " +
         std::to_string(F.Warp) + " of block (" + std::to_string(F.BlockIdx.X) +
         "," + std::to_string(F.BlockIdx.Y) + "," +
         std::to_string(F.BlockIdx.Z) + ") at " + Hex;
}

/// The runtime's error for a fault of a launch.
static cudaError_t cudaErrorOf(exec::DeviceFault F) {
  switch (F) {
  case exec::DeviceFault::None:
    return cudaSuccess;
  case exec::DeviceFault::Assert:
    return cudaErrorAssert;
  case exec::DeviceFault::Trap:
    return cudaErrorLaunchFailure;
  case exec::DeviceFault::IllegalAddress:
    return cudaErrorIllegalAddress;
  case exec::DeviceFault::MisalignedAddress:
    return cudaErrorMisalignedAddress;
  case exec::DeviceFault::IllegalInstruction:
    return cudaErrorIllegalInstruction;
  }
  return cudaErrorUnknown;
}

bool waits(const FunctionalLaunch &L) {
  State &S = state();
  if (S.On && link())
    if (const exec::XFunction *K = S.Prog->kernel(L.Kernel))
      for (const exec::XFunction *F : reachable(*K))
        // The arrays behind texture and surface objects are not among a
        // launch's pointers; a fault's error is for the program's next wait
        // for the device, which need not read the launch's memory.
        if (F->Textures || F->MayFault)
          return false;
  // Host memory the host reads and writes without a call, and printf's
  // output, are observed as the kernel runs: nothing waits then.
  const bool HostMemory =
      std::any_of(S.Kinds.begin(), S.Kinds.end(),
                  [](const auto &K) { return K.second != "device"; });
  return S.On && !L.Kernel.empty() && L.TouchesKnown &&
         S.Deferrable.count(L.Kernel) && !S.Printf && !HostMemory;
}

void execute(uint64_t N, const FunctionalLaunch &L) {
  if (waits(L)) {
    state().Pending.emplace_back(N, L);
    return;
  }
  settle();
  run(N, L);
}

void run(uint64_t N, const FunctionalLaunch &L) {
  State &S = state();
  auto Log = [&](const std::string &Fields) {
    logLine("{\"ev\":\"exec\",\"n\":" + std::to_string(N) + "," + Fields + "}");
  };
  if (!link()) {
    Log("\"error\":" + quoted("the PTX could not be read: " + S.LinkError));
    forgetAll("a kernel was not run");
    return;
  }
  const exec::XFunction *K = S.Prog->kernel(L.Kernel);
  if (!K) {
    Log("\"error\":" + quoted("the PTX has no kernel " + L.Kernel));
    forgetAll("launch " + std::to_string(N + 1) + " was not run");
    return;
  }
  // A repeat of a recent launch over unchanged memory: its counts again.
  for (const State::Repeat &R : S.Recent) {
    const FunctionalLaunch &P = R.L;
    if (P.Kernel != L.Kernel || P.Grid.x != L.Grid.x || P.Grid.y != L.Grid.y ||
        P.Grid.z != L.Grid.z || P.Block.x != L.Block.x ||
        P.Block.y != L.Block.y || P.Block.z != L.Block.z || P.Smem != L.Smem ||
        P.Params != L.Params)
      continue;
    // What it read must be as it was, and what it wrote too (else running
    // it again would write its bytes back over another's).
    const bool Changed =
        std::any_of(R.Read.begin(), R.Read.end(),
                    [&](uint64_t B) {
                      // The host writes its own memory without telling.
                      auto Kind = S.Kinds.find(B);
                      return R.Dirty.count(B) || (Kind != S.Kinds.end() &&
                                                  Kind->second != "device");
                    }) ||
        std::any_of(R.Written.begin(), R.Written.end(),
                    [&](uint64_t B) { return R.Dirty.count(B) != 0; });
    if (Changed)
      break;
    Log(R.Counts + ",\"repeat_of\":" + std::to_string(R.N));
    return;
  }
  if (S.Spent >= S.Budget) {
    Log("\"error\":" +
        quoted("not run: the execution budget of " +
               std::to_string(int(S.Budget)) + " s was spent (--exec-budget)"));
    forgetAll("launch " + std::to_string(N + 1) + " was not run");
    return;
  }
  // Managed and host memory the host may have written directly.
  for (auto &[Base, Kind] : S.Kinds)
    if (Kind != "device")
      if (exec::Region *R = S.Mem.find(Base, 1)) {
        S.Known[Base]->setRange(0, R->Size, true);
        R->AllKnown = true;
      }
  exec::LaunchConfig C;
  C.Grid[0] = L.Grid.x;
  C.Grid[1] = L.Grid.y;
  C.Grid[2] = L.Grid.z;
  C.Block[0] = L.Block.x;
  C.Block[1] = L.Block.y;
  C.Block[2] = L.Block.z;
  C.DynamicSmem = L.Smem;
  C.Params = L.Params;
  C.Cooperative = L.Cooperative;
  C.GridId = N + 1;
  C.SmCount = unsigned(recorder().Gpu->SMs);
  C.Deadline = std::chrono::steady_clock::now() +
               std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                   std::chrono::duration<double>(S.Budget - S.Spent));
  const auto Start = std::chrono::steady_clock::now();
  ExecutedKernel &EK = executedFor(*K);
  // Priced even where the model prices the launch from its configuration
  // alone: the run is the reference the model's figures are checked
  // against (tools/analyze_file.cpp, executedPath).
  ExecutedCounts Counts = executeLaunch(*S.Prog, *K, EK, S.Mem, C, *S.Arch, 0);
  const double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  S.Spent += Seconds;
  if (!Counts.Out.Printed.empty()) {
    std::fputs(Counts.Out.Printed.c_str(), stdout);
    std::fflush(stdout);
  }
  if (!Counts.Out.AssertLines.empty()) {
    std::fputs(Counts.Out.AssertLines.c_str(), stderr);
    std::fflush(stderr);
  }
  const std::string Fields = countsJson(Counts, Seconds);
  Log(Fields);
  // What it wrote changes what earlier launches read; it can be repeated
  // when it read nothing it wrote and ended well.
  const std::vector<uint64_t> &Rd = Counts.Out.ReadBases,
                              &Wr = Counts.Out.WrittenBases;
  for (uint64_t B : Wr) {
    S.dirty(B);
    S.Learned.insert(uintptr_t(B));
  }
  if (Counts.Out.Finished && !Counts.Out.UncertainWrites &&
      !Counts.Out.StrayLanes &&
      std::none_of(Rd.begin(), Rd.end(), [&](uint64_t B) {
        return std::find(Wr.begin(), Wr.end(), B) != Wr.end();
      })) {
    S.Recent.erase(std::remove_if(S.Recent.begin(), S.Recent.end(),
                                  [&](const State::Repeat &R) {
                                    return R.L.Kernel == L.Kernel &&
                                           R.L.Params == L.Params;
                                  }),
                   S.Recent.end());
    if (S.Recent.size() >= 8)
      S.Recent.erase(S.Recent.begin());
    S.Recent.push_back({L, Rd, Wr, Fields, N, {}});
  }
  if (Counts.Out.Fault != exec::DeviceFault::None) {
    recorder().Fault = cudaErrorOf(Counts.Out.Fault);
    logLine("{\"ev\":\"fault\",\"n\":" + std::to_string(N) + ",\"error\":" +
            quoted(exec::faultName(Counts.Out.Fault)) + ",\"why\":" +
            quoted(Counts.Out.Error.empty() ? misalignment(Counts)
                                            : Counts.Out.Error) +
            "}");
  }
  // Launches are numbered from 1 in what gmem-analyze prints.
  const std::string Launch = "launch " + std::to_string(N + 1);
  if (!Counts.Out.Finished)
    forgetAll(Launch + " stopped before its end (" + Counts.Out.Error + ")");
  else if (Counts.Out.UncertainWrites)
    forgetAll(Launch + (Counts.Out.StrayLanes
                            ? " touched memory outside every allocation (the "
                              "first lane: " +
                                  Counts.Out.FirstStray +
                                  "), where a GPU may overwrite another "
                                  "buffer or fault"
                            : " stored under a branch on unknown data"));
}

void allocated(void *P, size_t Bytes, const char *Kind) {
  State &S = state();
  if (!S.On || !P)
    return;
  // Device memory is unknown until written; the host's and managed memory
  // are the host's own bytes.
  const bool Host = std::string(Kind) != "device";
  auto &K = S.Known[uintptr_t(P)];
  K = std::make_unique<exec::KnownBits>(Bytes, Host);
  S.Kinds[uintptr_t(P)] = Kind;
  S.Mem.addExternal(uintptr_t(P), Bytes, static_cast<uint8_t *>(P), K.get(),
                    std::string(Kind) + " allocation");
}

void freed(void *P, const std::function<void()> &Release) {
  State &S = state();
  if (S.On && P) {
    settle(P);
    forget(P);
  }
  Release();
}

void forget(void *P) {
  State &S = state();
  S.Mem.remove(uintptr_t(P));
  S.dirty(uintptr_t(P));
  S.Known.erase(uintptr_t(P));
  S.Kinds.erase(uintptr_t(P));
  S.Learned.erase(uintptr_t(P));
}

void written(void *Dst, const void *Src, size_t Bytes) {
  State &S = state();
  if (!S.On || !Bytes)
    return;
  // A copy reads what launches wrote, or changes what they read.
  settle(Dst);
  settle(Src);
  exec::Region *To = S.Mem.find(uintptr_t(Dst), 1);
  if (!To || !To->Known)
    return;
  S.dirty(To->Base);
  S.Learned.insert(uintptr_t(To->Base));
  const uint64_t Off = uintptr_t(Dst) - To->Base;
  const uint64_t N = std::min<uint64_t>(Bytes, To->Size - Off);
  exec::Region *From = S.Mem.find(uintptr_t(Src), 1);
  if (!From || !From->Known) {
    To->Known->setRange(Off, N, true);
    if (Off == 0 && N == To->Size)
      To->AllKnown = true;
    return;
  }
  To->AllKnown = false;
  const uint64_t FromOff = uintptr_t(Src) - From->Base;
  for (uint64_t I = 0; I < N && FromOff + I < From->Size; ++I)
    To->Known->set(Off + I, 1, From->Known->get(FromOff + I));
}

void set(void *Dst, size_t Bytes) { written(Dst, nullptr, Bytes); }

bool refills(void *P, int Value, size_t Bytes) {
  State &S = state();
  if (!S.On)
    return false;
  settle(P); // A launch kept may write it.
  auto It = S.Filled.find(uintptr_t(P));
  const exec::Region *R = S.Mem.find(uintptr_t(P), 1);
  return It != S.Filled.end() && It->second == uint8_t(Value) && R &&
         R->Base == uintptr_t(P) && R->Size == Bytes;
}

void filled(void *P, int Value, size_t Bytes) {
  State &S = state();
  auto Kind = S.Kinds.find(uintptr_t(P));
  const exec::Region *R = S.On ? S.Mem.find(uintptr_t(P), 1) : nullptr;
  if (R && R->Base == uintptr_t(P) && R->Size == Bytes &&
      Kind != S.Kinds.end() && Kind->second == "device")
    S.Filled[uintptr_t(P)] = uint8_t(Value);
}

void variable(const char *DeviceName, void *Host, size_t Bytes) {
  State &S = state();
  if (!S.On || !DeviceName)
    return;
  S.Vars[DeviceName] = {Host, Bytes};
  // The host's copy stands for device memory, which the module's load
  // fills with the variable's initial bytes (nvcc leaves the host's copy
  // zero): `__constant__ short Q[] = {32, 33, ...}` reads as written.
  for (const ptx::Module &M : *S.Modules)
    if (const ptx::Variable *V = M.global(DeviceName))
      if (!V->Extern && !V->Init.empty()) {
        std::memcpy(Host, V->Init.data(), std::min(Bytes, V->Init.size()));
        break;
      }
}

void textureMade(uint64_t Handle, const exec::TextureView &V) {
  if (state().On)
    state().Mem.Textures[Handle] = V;
}

void textureDestroyed(uint64_t Handle) {
  if (state().On)
    state().Mem.Textures.erase(Handle);
}

void forgetAll(const std::string &Why) {
  State &S = state();
  if (!S.On)
    return;
  settle();
  S.Recent.clear();
  // What gmem's bytes hold stays (nothing ran): Filled stands.
  for (uintptr_t Base : S.Learned) {
    auto Kind = S.Kinds.find(Base);
    auto K = S.Known.find(Base);
    if (Kind != S.Kinds.end() && Kind->second == "device" && K != S.Known.end())
      if (exec::Region *R = S.Mem.find(Base, 1)) {
        K->second->setRange(0, R->Size, false);
        R->AllKnown = false;
      }
  }
  S.Learned.clear();
  logLine("{\"ev\":\"forget\",\"why\":" + quoted(Why) + "}");
}

bool allKnown(uintptr_t Base) {
  State &S = state();
  auto It = S.Known.find(Base);
  exec::Region *R = S.Mem.find(Base, 1);
  return It != S.Known.end() && R && It->second->allKnown(R->Size);
}

bool budgetLeft() { return state().On && state().Spent < state().Budget; }

void spend(double Seconds) { state().Spent += Seconds; }

bool deviceRange(const void *P, size_t Bytes) {
  State &S = state();
  exec::Region *R = S.On ? S.Mem.find(uintptr_t(P), 1) : nullptr;
  auto Kind = R ? S.Kinds.find(R->Base) : S.Kinds.end();
  return R && R->Known && Kind != S.Kinds.end() && Kind->second == "device" &&
         uintptr_t(P) - R->Base + Bytes <= R->Size;
}

bool knownRange(const void *P, size_t Bytes) {
  if (!deviceRange(P, Bytes))
    return false;
  const exec::Region *R = state().Mem.find(uintptr_t(P), 1);
  if (R->AllKnown)
    return true;
  for (uint64_t Off = uintptr_t(P) - R->Base, End = Off + Bytes; Off < End;
       Off += 64)
    if (!R->Known->all(Off, unsigned(std::min<uint64_t>(64, End - Off))))
      return false;
  return true;
}

void computed(void *Dst, size_t Bytes, bool Known) {
  State &S = state();
  if (!deviceRange(Dst, Bytes))
    return;
  exec::Region *R = S.Mem.find(uintptr_t(Dst), 1);
  S.dirty(R->Base);
  S.Learned.insert(R->Base);
  R->Known->setRange(uintptr_t(Dst) - R->Base, Bytes, Known);
  if (!Known)
    R->AllKnown = false;
}

} // namespace gmem::rec
