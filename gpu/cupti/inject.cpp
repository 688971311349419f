//===- inject.cpp - libgmem_inject.so, loaded through CUDA_INJECTION64_PATH
//===//
//
// The CUDA driver calls InitializeInjection() during cuInit. It subscribes to
// the launch APIs and to module loads and context teardown; per selected
// launch it measures one of three passes (GMEM_VERIFY_PASS): "counters", the
// Range Profiler metrics gmem predicts exactly; "traffic", DRAM bytes, L2
// sectors and duration with the L2 emptied before the launch (l2_flush.h);
// or "lines", the SASS metrics per source line. At
// exit it writes the launches it measured to GMEM_VERIFY_OUTPUT in the
// schema of measurement.h. gmem-verify sets these variables and merges the
// passes; README.md lists them all.
//
//===----------------------------------------------------------------------===//
#include "cupti_status.h"
#include "device_info.h"
#include "kernel_signature.h"
#include "l2_flush.h"
#include "launch_filter.h"
#include "launch_site.h"
#include "measured_json.h"
#include "range_profiler.h"
#include "sass_collector.h"

#include <cupti.h>
#include <cupti_profiler_target.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>

using namespace gmem;
using namespace gmem::cupti;

namespace {

enum class Pass { Counters, Traffic, Lines };

struct Settings {
  std::string Output = "gmem_measured.json";
  Pass Which = Pass::Counters;
  LaunchFilterOptions Filter;
  /// Line pass: measure only the launch with this index (gmem-verify runs
  /// the program once per launch, see sass_collector.h).
  long OnlyLaunch = -1;
  /// Counters pass under --no-replay: the one-pass group of metrics to
  /// collect (RangeProfiler); -1 for all of them, with kernel replay.
  int MetricGroup = -1;
  bool Debug = false;
};

/// How a launch call holds the gate (see gate()).
enum class GateHeld { None, Shared, Alone };

/// The launch between its API's enter and exit callbacks, per thread.
struct ActiveLaunch {
  bool Valid = false;
  CUpti_CallbackDomain Domain = CUPTI_CB_DOMAIN_INVALID;
  CUpti_CallbackId Cbid = 0;
  CUcontext Ctx = nullptr;
  bool Selected = false;
  bool Started = false;
  bool HaveLayout = false;
  GateHeld Held = GateHeld::None;
  std::vector<std::string> ParamTypes;
  MeasuredLaunch Record;
};
thread_local ActiveLaunch Current;
/// Set while the traffic pass's own flush kernel is launched: its launch
/// callbacks are not the program's.
thread_local bool InFlush = false;

struct State {
  // Recursive: CUPTI may load modules (a resource callback) while a launch
  // callback holds it on the same thread.
  std::recursive_mutex Mu;
  Settings Set;
  std::unique_ptr<LaunchFilter> Filter;
  std::unique_ptr<RangeProfiler> Range; ///< Counters and traffic passes.
  L2Flush Flush;                        ///< Traffic pass.
  SassCollector Sass;
  Measurement Result;
  bool DeviceKnown = false;
  std::string Fatal;
  unsigned NextIndex = 0;
  unsigned Failed = 0;
  bool Written = false;
  bool ProfilerReady = false;
  CUpti_SubscriberHandle Subscriber = nullptr;
  /// Line pass: a launch was patched already (only one works per process).
  bool LinesTaken = false;
};

/// Never destroyed: the exit handler runs while static objects are torn
/// down.
State &state() {
  static State *S = new State;
  return *S;
}

/// The measured launch runs alone: SASS metrics count every kernel that
/// runs on the context while they are enabled, and the range profiler
/// cannot replay a launch while another thread's runs. Each launch call
/// holds the gate shared from its enter to its exit callback; a measured
/// one holds it alone (after the calls of other threads, as OpenMP threads
/// each launching on its own stream make them) and waits for the work
/// other streams have queued before it starts.
std::shared_mutex &gate() {
  static std::shared_mutex *G = new std::shared_mutex;
  return *G;
}

void debug(const std::string &Msg) {
  if (state().Set.Debug)
    std::fprintf(stderr, "gmem-inject: %s\n", Msg.c_str());
}

void warn(const std::string &Msg) {
  std::fprintf(stderr, "gmem-verify: warning: %s\n", Msg.c_str());
}

void setFatal(State &S, const std::string &Msg) {
  if (!S.Fatal.empty())
    return;
  S.Fatal = Msg;
  std::fprintf(stderr, "gmem-verify: %s\n", Msg.c_str());
}

/// cuptiProfilerInitialize, once, at the first context (before any kernel
/// runs) or else at the first selected launch; not during cuInit.
bool ensureProfiler(State &S) {
  if (S.ProfilerReady)
    return true;
  CUpti_Profiler_Initialize_Params P = {
      CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  CUptiResult R = cuptiProfilerInitialize(&P);
  if (R != CUPTI_SUCCESS) {
    setFatal(S, cuptiMessage("cuptiProfilerInitialize", R));
    return false;
  }
  S.ProfilerReady = true;
  return true;
}

std::string envOr(const char *Name, const std::string &Default) {
  const char *V = std::getenv(Name);
  return V && *V ? std::string(V) : Default;
}

std::vector<std::string> readCmdline() {
  std::vector<std::string> Argv;
  std::ifstream In("/proc/self/cmdline", std::ios::binary);
  std::string Arg;
  while (std::getline(In, Arg, '\0'))
    Argv.push_back(Arg);
  return Argv;
}

std::string describe(const MeasuredLaunch &R) {
  return "launch " + std::to_string(R.Index) + " (" + R.Kernel + " grid " +
         std::to_string(R.Grid[0]) + "x" + std::to_string(R.Grid[1]) + "x" +
         std::to_string(R.Grid[2]) + " block " + std::to_string(R.Block[0]) +
         "x" + std::to_string(R.Block[1]) + "x" + std::to_string(R.Block[2]) +
         ")";
}

void writeResult() {
  State &S = state();
  std::lock_guard<std::recursive_mutex> G(S.Mu);
  if (S.Written)
    return;
  S.Written = true;
  S.Result.Tool = "gmem-verify";
  S.Result.Date = utcNowIso8601();
  S.Result.Program = readCmdline();
  OrderedJson Doc = measurementToJson(S.Result, S.Fatal);
  if (S.Failed)
    Doc["failed_launches"] = S.Failed; // For gmem-verify, which removes it.
  if (S.Range && S.Range->groups()) {  // Likewise.
    Doc["metric_groups"] = S.Range->groups();
    Doc["group_passes"] = S.Range->passes();
  }
  std::ofstream Out(S.Set.Output);
  Out << Doc.dump(1) << "\n";
  if (!Out)
    std::fprintf(stderr, "gmem-verify: cannot write %s\n",
                 S.Set.Output.c_str());
  debug("wrote " + std::to_string(S.Result.Launches.size()) + " launches to " +
        S.Set.Output);
}

/// Fills the record's argument list once a parameter layout or signature is
/// known; an inner driver callback may improve on the outer runtime one.
void fillArgs(ActiveLaunch &A, const LaunchSite &Site) {
  if (A.HaveLayout)
    return;
  auto Layout = paramLayout(Site);
  if (Layout.empty() && !A.Record.Args.empty())
    return; // Keep what the signature alone gave.
  A.Record.Args = decodeArgs(Site, A.ParamTypes, Layout);
  A.HaveLayout = !Layout.empty();
}

void onLaunchEnter(CUpti_CallbackDomain Domain, CUpti_CallbackId Cbid,
                   const CUpti_CallbackData *Data) {
  LaunchSite Site;
  if (!readLaunchSite(Domain, Cbid, Data, Site))
    return;
  if (Current.Valid) {
    // The driver call inside a runtime launch: same launch, maybe more info.
    if (!Current.HaveLayout)
      fillArgs(Current, Site);
    debug("  inner driver callback " + std::to_string(Cbid));
    return;
  }
  // Captured into a graph, the launch runs nothing now; profiling it would
  // invalidate the capture (the program's own calls would then fail).
  if (launchIsCaptured(Site)) {
    debug("a launch captured into a graph via callback " +
          std::to_string(Cbid) + ": left alone");
    return;
  }
  std::string Symbol = Data->symbolName ? Data->symbolName : "";
  if (Symbol.empty())
    Symbol = driverSymbolName(Site);
  // A runtime launch with no context yet, or no name to select it by (a
  // host stub, not a CUkernel): the driver launch inside will handle it.
  if (Domain == CUPTI_CB_DOMAIN_RUNTIME_API &&
      (!Data->context || Symbol.empty()))
    return;

  State &S = state();
  gate().lock_shared();
  std::unique_lock<std::recursive_mutex> G(S.Mu);
  ActiveLaunch A;
  A.Held = GateHeld::Shared;
  A.Valid = true;
  A.Domain = Domain;
  A.Cbid = Cbid;
  A.Ctx = Data->context;
  KernelSignature Sig = parseKernelSymbol(Symbol);
  MeasuredLaunch &R = A.Record;
  R.Index = S.NextIndex++;
  R.Kernel = Sig.Kernel;
  R.Demangled = Sig.Demangled;
  R.Mangled = Symbol;
  R.Grid = Site.Grid;
  R.Block = Site.Block;
  R.DynamicSmem = Site.DynamicSmem;
  A.ParamTypes = Sig.ParamTypes;
  fillArgs(A, Site);

  bool Selected =
      S.Fatal.empty() &&
      S.Filter->select(R.Kernel, R.Mangled, R.Grid, R.Block, R.DynamicSmem);
  if (S.Set.Which == Pass::Lines && S.Set.OnlyLaunch >= 0)
    Selected = Selected && R.Index == S.Set.OnlyLaunch;
  if (S.Set.Which == Pass::Lines && Selected && S.LinesTaken) {
    static bool Told = false;
    if (!Told && (Told = true))
      warn("per-line metrics are measured for one launch per run; later "
           "launches are left out (gmem-verify runs the program once per "
           "launch)");
    Selected = false;
  }
  A.Selected = Selected;
  if (Selected) {
    G.unlock(); // Others' launch calls may need it to reach their exit.
    gate().unlock_shared();
    gate().lock();
    A.Held = GateHeld::Alone;
    cuCtxSynchronize();
    G.lock();
    if (!S.DeviceKnown) {
      CUdevice Dev = 0;
      if (cuCtxGetDevice(&Dev) == CUDA_SUCCESS) {
        describeDevice(Dev, S.Result);
        S.DeviceKnown = true;
      }
    }
    std::string Error;
    bool IsFatal = false;
    // Without a flush the launch's DRAM bytes would be another's: none.
    auto Flush = [&] {
      InFlush = true;
      bool Done = S.Flush.flush(A.Ctx, Error);
      InFlush = false;
      return Done;
    };
    bool Ok =
        ensureProfiler(S) && (S.Set.Which != Pass::Traffic || Flush()) &&
        (S.Set.Which == Pass::Lines ? S.Sass.begin(A.Ctx, Error, IsFatal)
                                    : S.Range->begin(A.Ctx, Error, IsFatal));
    if (!Ok && S.Fatal.empty()) { // Else ensureProfiler reported it.
      if (IsFatal)
        setFatal(S, Error);
      else
        warn(describe(R) + ": " + Error);
    }
    A.Started = Ok;
    if (S.Set.Which == Pass::Lines)
      S.LinesTaken = true;
    if (S.Range) {
      for (const std::string &M : S.Range->takeRejected())
        warn("the GPU does not provide " + M + "; it is left out");
      static bool Logged = false;
      if (Ok && !Logged && (Logged = true))
        debug("chip " + S.Range->chip() + ", " +
              std::to_string(S.Range->passes()) + " replay passes");
      // A replayed launch runs again after CUPTI restored its memory, which
      // leaves its data in the L2: its DRAM bytes would not be cold.
      static bool Replayed = false;
      if (Ok && S.Set.Which == Pass::Traffic && S.Range->passes() > 1 &&
          !Replayed && (Replayed = true))
        warn("the traffic metrics need " + std::to_string(S.Range->passes()) +
             " replay passes on this GPU; DRAM bytes after the first are "
             "not those of a cold L2");
    }
  }
  debug(describe(R) + " via " +
        (Domain == CUPTI_CB_DOMAIN_RUNTIME_API ? "runtime" : "driver") +
        " callback " + std::to_string(Cbid) + ", " +
        std::to_string(R.Args.size()) + " args: " +
        (Selected ? (A.Started ? "profiling" : "failed") : "not selected"));
  Current = std::move(A);
}

void onLaunchExit(CUpti_CallbackDomain Domain, CUpti_CallbackId Cbid,
                  const CUpti_CallbackData *Data) {
  if (!Current.Valid || Current.Domain != Domain || Current.Cbid != Cbid)
    return;
  ActiveLaunch A = std::move(Current);
  Current = ActiveLaunch();
  struct Release { // After the counts are read.
    GateHeld H;
    ~Release() {
      if (H == GateHeld::Shared)
        gate().unlock_shared();
      else if (H == GateHeld::Alone)
        gate().unlock();
    }
  } Released{A.Held};
  if (!A.Started)
    return;
  State &S = state();
  std::lock_guard<std::recursive_mutex> G(S.Mu);
  int Code = 0;
  bool Launched = launchSucceeded(Domain, Data, Code);
  std::string Error;
  bool Ok = S.Set.Which == Pass::Lines
                ? S.Sass.end(A.Ctx, A.Record.Lines, Error)
                : S.Range->end(A.Record.Metrics, Error);
  if (S.Set.Which == Pass::Lines)
    debug(describe(A.Record) + ": " + std::to_string(S.Sass.lastRecords()) +
          " SASS records");
  if (!Launched) {
    warn(describe(A.Record) + ": the launch failed with error " +
         std::to_string(Code) + "; not recorded");
    ++S.Failed;
    return;
  }
  if (!Ok) {
    warn(describe(A.Record) + ": " + Error + "; not recorded");
    ++S.Failed;
    return;
  }
  debug(describe(A.Record) + " measured");
  S.Result.Launches.push_back(std::move(A.Record));
}

void onResource(CUpti_CallbackId Cbid, const CUpti_ResourceData *Data) {
  State &S = state();
  std::lock_guard<std::recursive_mutex> G(S.Mu);
  if (Cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED && S.Set.Which == Pass::Lines) {
    const auto *Mod =
        static_cast<const CUpti_ModuleResourceData *>(Data->resourceDescriptor);
    if (Mod) {
      debug("module " + std::to_string(Mod->moduleId) + " loaded, cubin " +
            std::to_string(Mod->cubinSize) + " bytes");
      S.Sass.onModuleLoaded(Mod->pCubin, Mod->cubinSize);
    }
  } else if (Cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
    ensureProfiler(S);
  } else if (Cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
    if (S.Range) {
      S.Range->release(Data->context);
      S.Flush.release(Data->context);
    } else {
      S.Sass.release(Data->context);
    }
  }
}

void CUPTIAPI onCallback(void *, CUpti_CallbackDomain Domain,
                         CUpti_CallbackId Cbid, const void *Data) {
  if (Domain == CUPTI_CB_DOMAIN_RESOURCE) {
    onResource(Cbid, static_cast<const CUpti_ResourceData *>(Data));
    return;
  }
  if (InFlush)
    return;
  const auto *CB = static_cast<const CUpti_CallbackData *>(Data);
  if (isGraphLaunch(Domain, Cbid)) {
    if (CB->callbackSite == CUPTI_API_ENTER) {
      State &S = state();
      std::lock_guard<std::recursive_mutex> G(S.Mu);
      ++S.Result.GraphLaunches;
    }
    return;
  }
  if (CB->callbackSite == CUPTI_API_ENTER)
    onLaunchEnter(Domain, Cbid, CB);
  else
    onLaunchExit(Domain, Cbid, CB);
}

Expected<void> readSettings(Settings &Set) {
  Set.Output = envOr("GMEM_VERIFY_OUTPUT", Set.Output);
  std::string Which = envOr("GMEM_VERIFY_PASS", "counters");
  if (Which == "lines")
    Set.Which = Pass::Lines;
  else if (Which == "traffic")
    Set.Which = Pass::Traffic;
  else if (Which != "counters")
    return Failure{
        "GMEM_VERIFY_PASS must be 'counters', 'traffic' or 'lines', not '" +
        Which + "'"};
  std::string Skip = envOr("GMEM_VERIFY_LAUNCH_SKIP", "0");
  std::string Count = envOr("GMEM_VERIFY_LAUNCH_COUNT", "");
  if (!parseCount(Skip, Set.Filter.Skip) ||
      (!Count.empty() && !parseCount(Count, Set.Filter.Count)))
    return Failure{"GMEM_VERIFY_LAUNCH_SKIP/COUNT must be unsigned integers"};
  Set.Filter.KernelRegex = envOr("GMEM_VERIFY_KERNEL", "");
  std::string Only = envOr("GMEM_VERIFY_LINES_LAUNCH", "");
  uint64_t OnlyIndex = 0;
  if (!Only.empty()) {
    if (!parseCount(Only, OnlyIndex))
      return Failure{"GMEM_VERIFY_LINES_LAUNCH must be a launch index"};
    Set.OnlyLaunch = static_cast<long>(OnlyIndex);
  }
  std::string Group = envOr("GMEM_VERIFY_METRIC_GROUP", "");
  uint64_t GroupIndex = 0;
  if (!Group.empty()) {
    if (!parseCount(Group, GroupIndex) || GroupIndex > 1000)
      return Failure{"GMEM_VERIFY_METRIC_GROUP must be a group index"};
    Set.MetricGroup = static_cast<int>(GroupIndex);
  }
  Set.Debug = envOr("GMEM_VERIFY_DEBUG", "0") != "0";
  return {};
}

} // namespace

extern "C" __attribute__((visibility("default"))) int
InitializeInjection(void) {
  State &S = state();
  std::lock_guard<std::recursive_mutex> G(S.Mu);
  static bool Done = false;
  if (Done)
    return 1;
  Done = true;
  std::atexit(writeResult);
  Expected<void> Read = readSettings(S.Set);
  auto Filter =
      Read ? LaunchFilter::create(S.Set.Filter) : Failure{Read.error()};
  if (!Filter) {
    setFatal(S, Filter.error());
    S.Filter = std::move(*LaunchFilter::create(LaunchFilterOptions()));
    return 1;
  }
  S.Filter = std::move(*Filter);
  if (S.Set.Which == Pass::Counters)
    S.Range.reset(
        new RangeProfiler(defaultCounterMetrics(), S.Set.MetricGroup));
  else if (S.Set.Which == Pass::Traffic)
    S.Range.reset(new RangeProfiler(trafficCounterMetrics()));

  CUptiResult R = cuptiSubscribe(&S.Subscriber, onCallback, nullptr);
  if (R != CUPTI_SUCCESS) {
    setFatal(S, cuptiMessage("cuptiSubscribe", R) +
                    " (is another CUDA profiler attached?)");
    return 1;
  }
  for (const auto &DC : launchCallbacks())
    cuptiEnableCallback(1, S.Subscriber, DC.first, DC.second);
  cuptiEnableCallback(1, S.Subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                      CUPTI_CBID_RESOURCE_MODULE_LOADED);
  cuptiEnableCallback(1, S.Subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                      CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
  cuptiEnableCallback(1, S.Subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                      CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
  debug(std::string("injected, pass ") +
        (S.Set.Which == Pass::Counters  ? "counters"
         : S.Set.Which == Pass::Traffic ? "traffic"
                                        : "lines") +
        ", output " + S.Set.Output);
  return 1;
}
