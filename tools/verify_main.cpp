//===- verify_main.cpp - gmem-verify: measure an unmodified CUDA program --===//
//
// gmem-verify [options] -- PROGRAM [ARGS...]
//
// Runs PROGRAM with libgmem_inject.so as its CUDA injection: once for the
// Range Profiler counters of every selected launch, once for its DRAM
// bytes, L2 sectors and duration with the L2 emptied before each launch
// (apart: the counters need several replays of a launch, which would warm
// the L2), then once per measured launch for its SASS metrics per source
// line (instruction patching would disturb the counters, and CUPTI counts
// only one patched kernel per process). Merges the runs by launch index
// into one measured.json (schema in gpu/measured/measurement.h).
//
//===----------------------------------------------------------------------===//
#include "launch_filter.h"
#include "measured_json.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <set>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace gmem::cupti;

namespace {

const char *const Usage =
    "usage: gmem-verify [--output FILE] [--launch-count N] [--launch-skip N]\n"
    "                   [--kernel REGEX] [--no-lines] [--line-runs N]\n"
    "                   [--no-traffic] [--no-replay] [--debug]\n"
    "                   [--version]\n"
    "                   -- PROGRAM [ARGS...]\n"
    "Measures every kernel launch of PROGRAM with CUPTI and writes\n"
    "measured.json (or FILE).\n"
    "  --launch-skip N   of each kernel and configuration, skip the first N\n"
    "  --launch-count N  of each kernel and configuration, measure N\n"
    "  --kernel REGEX    measure only kernels whose name matches\n"
    "  --no-lines        skip the per-line SASS metrics (one more run of\n"
    "                    PROGRAM per measured launch)\n"
    "  --line-runs N     per-line metrics of at most N launches (default\n"
    "                    100): each kernel's first, then in order\n"
    "  --no-traffic      skip DRAM bytes, L2 sectors and duration (one run\n"
    "                    of PROGRAM, the L2 emptied before each launch)\n"
    "  --no-replay       take the counters in one pass per run of PROGRAM\n"
    "                    (a run per group of metrics) instead of replaying\n"
    "                    each launch: for kernels that use the device heap,\n"
    "                    which kernel replay does not restore\n"
    "  --debug           log every launch the injection sees\n";

struct Options {
  std::string Output = "measured.json";
  std::string Skip, Count, Kernel, LineRuns = "100";
  uint64_t LineLimit = 100; ///< LineRuns, parsed.
  bool Lines = true, Traffic = true, Debug = false;
  bool NoReplay = false;
  std::vector<std::string> Program;
};

[[noreturn]] void fail(const std::string &Msg) {
  std::fprintf(stderr, "gmem-verify: %s\n", Msg.c_str());
  std::exit(2);
}

Options parseArgs(int Argc, char **Argv) {
  Options O;
  int I = 1;
  auto Value = [&](const char *Flag) -> std::string {
    if (I + 1 >= Argc)
      fail(std::string(Flag) + " needs a value; see --help");
    return Argv[++I];
  };
  for (; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--") {
      ++I;
      break;
    }
    if (A == "-h" || A == "--help") {
      std::fputs(Usage, stdout);
      std::exit(0);
    } else if (A == "--version") {
      std::puts("gmem-verify " GMEM_VERSION " (CUPTI of CUDA " GMEM_CUDA_VERSION
                ")");
      std::exit(0);
    } else if (A == "-o" || A == "--output")
      O.Output = Value("--output");
    else if (A == "--launch-count" || A == "-c")
      O.Count = Value("--launch-count");
    else if (A == "--launch-skip" || A == "-s")
      O.Skip = Value("--launch-skip");
    else if (A == "--kernel" || A == "-k")
      O.Kernel = Value("--kernel");
    else if (A == "--no-lines")
      O.Lines = false;
    else if (A == "--line-runs")
      O.LineRuns = Value("--line-runs");
    else if (A == "--no-traffic")
      O.Traffic = false;
    else if (A == "--no-replay")
      O.NoReplay = true;
    else if (A == "--debug")
      O.Debug = true;
    else if (!A.empty() && A[0] == '-')
      fail("unknown option '" + A + "'; see --help");
    else
      break; // The program, without a "--" before it.
  }
  for (; I < Argc; ++I)
    O.Program.push_back(Argv[I]);
  if (O.Program.empty())
    fail(
        "no program to run; usage: gmem-verify [options] -- PROGRAM [ARGS...]");
  uint64_t N = 0;
  if (!O.Skip.empty() && !parseCount(O.Skip, N))
    fail("--launch-skip needs an unsigned integer, not '" + O.Skip + "'");
  if (!O.Count.empty() && (!parseCount(O.Count, N) || N == 0))
    fail("--launch-count needs a positive integer, not '" + O.Count + "'");
  if (!parseCount(O.LineRuns, O.LineLimit))
    fail("--line-runs needs an unsigned integer, not '" + O.LineRuns + "'");
  LaunchFilterOptions F;
  F.KernelRegex = O.Kernel;
  if (auto Filter = LaunchFilter::create(F); !Filter)
    fail(Filter.error());
  return O;
}

bool isExecutable(const std::string &Path) {
  struct stat St;
  return stat(Path.c_str(), &St) == 0 && S_ISREG(St.st_mode) &&
         access(Path.c_str(), X_OK) == 0;
}

/// PROGRAM as execv needs it: a path, searched in PATH when it has no '/'.
std::string resolveProgram(const std::string &Name) {
  if (Name.find('/') != std::string::npos) {
    if (!isExecutable(Name))
      fail("program '" + Name + "' not found or not executable");
    return Name;
  }
  const char *Path = std::getenv("PATH");
  std::string Dirs = Path ? Path : "/usr/bin:/bin";
  size_t Start = 0;
  while (Start <= Dirs.size()) {
    size_t End = Dirs.find(':', Start);
    if (End == std::string::npos)
      End = Dirs.size();
    std::string Dir = Dirs.substr(Start, End - Start);
    std::string Candidate = (Dir.empty() ? "." : Dir) + "/" + Name;
    if (isExecutable(Candidate))
      return Candidate;
    Start = End + 1;
  }
  fail("program '" + Name + "' not found in PATH (give a path such as ./" +
       Name + ")");
}

std::string dirName(const std::string &Path) {
  size_t Slash = Path.find_last_of('/');
  return Slash == std::string::npos ? "." : Path.substr(0, Slash);
}

/// libgmem_inject.so: $GMEM_INJECT_LIBRARY, beside this executable (build
/// tree), or in ../lib (install tree).
std::string findInjection() {
  if (const char *E = std::getenv("GMEM_INJECT_LIBRARY")) {
    if (access(E, R_OK) != 0)
      fail(std::string("GMEM_INJECT_LIBRARY names '") + E +
           "', which cannot be read");
    return E;
  }
  char Self[PATH_MAX] = {0};
  ssize_t N = readlink("/proc/self/exe", Self, sizeof(Self) - 1);
  if (N <= 0)
    fail("cannot find this executable's folder to locate libgmem_inject.so");
  std::string Dir = dirName(std::string(Self, N));
  for (const std::string &C :
       {Dir + "/libgmem_inject.so", Dir + "/../lib/libgmem_inject.so"})
    if (access(C.c_str(), R_OK) == 0)
      return C;
  fail("libgmem_inject.so is not beside gmem-verify nor in ../lib; rebuild "
       "gpu/ or set GMEM_INJECT_LIBRARY");
}

struct RunResult {
  int ExitCode = 0; ///< 128 + signal when killed by one.
};

/// Runs the program with the injection and the pass's settings in its
/// environment; an exec failure comes back through a close-on-exec pipe.
RunResult runPass(const Options &O, const std::string &Exe,
                  const std::string &Injection, const char *Pass,
                  const std::string &Out, long OnlyLaunch = -1,
                  int Group = -1) {
  int Pipe[2];
  if (pipe2(Pipe, O_CLOEXEC) != 0)
    fail(std::string("pipe: ") + std::strerror(errno));
  pid_t Pid = fork();
  if (Pid < 0)
    fail(std::string("fork: ") + std::strerror(errno));
  if (Pid == 0) {
    close(Pipe[0]);
    setenv("CUDA_INJECTION64_PATH", Injection.c_str(), 1);
    setenv("GMEM_VERIFY_PASS", Pass, 1);
    setenv("GMEM_VERIFY_OUTPUT", Out.c_str(), 1);
    setenv("GMEM_VERIFY_LAUNCH_SKIP", O.Skip.empty() ? "0" : O.Skip.c_str(), 1);
    if (O.Count.empty())
      unsetenv("GMEM_VERIFY_LAUNCH_COUNT");
    else
      setenv("GMEM_VERIFY_LAUNCH_COUNT", O.Count.c_str(), 1);
    setenv("GMEM_VERIFY_KERNEL", O.Kernel.c_str(), 1);
    setenv("GMEM_VERIFY_DEBUG", O.Debug ? "1" : "0", 1);
    if (OnlyLaunch >= 0)
      setenv("GMEM_VERIFY_LINES_LAUNCH", std::to_string(OnlyLaunch).c_str(), 1);
    else
      unsetenv("GMEM_VERIFY_LINES_LAUNCH");
    if (Group >= 0)
      setenv("GMEM_VERIFY_METRIC_GROUP", std::to_string(Group).c_str(), 1);
    else
      unsetenv("GMEM_VERIFY_METRIC_GROUP");
    std::vector<char *> Argv;
    for (const std::string &A : O.Program)
      Argv.push_back(const_cast<char *>(A.c_str()));
    Argv.push_back(nullptr);
    execv(Exe.c_str(), Argv.data());
    int Err = errno;
    (void)!write(Pipe[1], &Err, sizeof(Err));
    _exit(127);
  }
  close(Pipe[1]);
  int Err = 0;
  ssize_t Got = read(Pipe[0], &Err, sizeof(Err));
  close(Pipe[0]);
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  if (Got == static_cast<ssize_t>(sizeof(Err)))
    fail("cannot run '" + Exe + "': " + std::strerror(Err));
  RunResult R;
  if (WIFEXITED(Status))
    R.ExitCode = WEXITSTATUS(Status);
  else if (WIFSIGNALED(Status))
    R.ExitCode = 128 + WTERMSIG(Status);
  return R;
}

bool readJson(const std::string &Path, OrderedJson &Out) {
  std::ifstream In(Path);
  if (!In)
    return false;
  try {
    In >> Out;
  } catch (const std::exception &) {
    return false;
  }
  return Out.is_object();
}

/// --no-replay: run 1 took the first one-pass group of metrics and says
/// how many there are; one more run each takes the others, merged by
/// launch. Returns the launches some run could not measure.
unsigned measureOtherGroups(const Options &O, const std::string &Exe,
                            const std::string &Injection, OrderedJson &Doc,
                            std::vector<std::string> &Warnings) {
  const size_t Groups = Doc.value("metric_groups", size_t(0));
  bool OnePass = Doc.value("group_passes", size_t(0)) == 1;
  Doc.erase("metric_groups");
  Doc.erase("group_passes");
  unsigned Failed = 0;
  const std::string Tmp = O.Output + ".group.tmp";
  for (size_t G = 1; G < Groups; ++G) {
    std::fprintf(stderr, "gmem-verify: counters, group %zu of %zu: %s\n", G + 1,
                 Groups, Exe.c_str());
    std::remove(Tmp.c_str());
    runPass(O, Exe, Injection, "counters", Tmp, -1, int(G));
    OrderedJson Part;
    if (!readJson(Tmp, Part) || Part.contains("error")) {
      Warnings.push_back("the run of metric group " + std::to_string(G + 1) +
                         " measured nothing" +
                         (Part.contains("error")
                              ? ": " + Part["error"].get<std::string>()
                              : std::string()));
      OnePass = false;
      continue;
    }
    Failed += Part.value("failed_launches", 0u);
    OnePass = OnePass && Part.value("group_passes", size_t(0)) == 1;
    MergeOutcome M =
        mergeTrafficPass(std::move(Doc), Part,
                         "counters of metric group " + std::to_string(G + 1));
    Doc = std::move(M.Doc);
    Warnings.insert(Warnings.end(), M.Warnings.begin(), M.Warnings.end());
  }
  std::remove(Tmp.c_str());
  if (Groups && OnePass)
    Doc["kernel_replay"] = false;
  else if (Groups)
    Warnings.push_back("--no-replay: some counters took more than one pass "
                       "(or a group's run failed): the launches were "
                       "replayed for them");
  return Failed;
}

} // namespace

int main(int Argc, char **Argv) {
  Options O = parseArgs(Argc, Argv);
  std::string Exe = resolveProgram(O.Program[0]);
  std::string Injection = findInjection();
  std::string Date = utcNowIso8601();
  if (access(dirName(O.Output).c_str(), W_OK) != 0)
    fail("cannot write '" + O.Output + "': its folder is not writable");
  std::string CountersTmp = O.Output + ".counters.tmp";
  std::string LinesTmp = O.Output + ".lines.tmp";
  std::string TrafficTmp = O.Output + ".traffic.tmp";
  std::remove(CountersTmp.c_str());
  std::remove(LinesTmp.c_str());
  std::remove(TrafficTmp.c_str());

  std::fprintf(stderr, "gmem-verify: run 1 (counters%s): %s\n",
               O.NoReplay ? ", the first group of one pass" : "", Exe.c_str());
  RunResult First = runPass(O, Exe, Injection, "counters", CountersTmp, -1,
                            O.NoReplay ? 0 : -1);
  OrderedJson Doc;
  if (!readJson(CountersTmp, Doc))
    fail("the program wrote no measurement (exit status " +
         std::to_string(First.ExitCode) +
         "): it made no CUDA call, or the CUDA driver could not load the "
         "injection (is there a GPU? see nvidia-smi)");
  std::remove(CountersTmp.c_str());
  if (Doc.contains("error"))
    fail(Doc["error"].get<std::string>());
  unsigned Failed = Doc.value("failed_launches", 0u);
  Doc.erase("failed_launches");

  std::vector<std::string> Warnings;
  if (O.NoReplay)
    Failed += measureOtherGroups(O, Exe, Injection, Doc, Warnings);
  const size_t LineRuns =
      O.Lines ? std::min<size_t>(Doc["launches"].size(), O.LineLimit) : 0;
  const size_t Runs = 1 + (O.Traffic ? 1 : 0) + LineRuns;
  if (O.Traffic && !Doc["launches"].empty()) {
    std::fprintf(stderr,
                 "gmem-verify: run 2/%zu (DRAM bytes, L2 sectors, duration; "
                 "the L2 emptied before each launch): %s\n",
                 Runs, Exe.c_str());
    runPass(O, Exe, Injection, "traffic", TrafficTmp);
    OrderedJson Traffic;
    if (!readJson(TrafficTmp, Traffic))
      Warnings.push_back("the traffic run wrote no measurement");
    else if (Traffic.contains("error"))
      Warnings.push_back("DRAM bytes and duration: " +
                         Traffic["error"].get<std::string>());
    else {
      if (Traffic.value("failed_launches", 0u))
        Warnings.push_back("some launches' DRAM bytes and duration could not "
                           "be measured");
      MergeOutcome M = mergeTrafficPass(std::move(Doc), Traffic);
      Doc = std::move(M.Doc);
      Warnings.insert(Warnings.end(), M.Warnings.begin(), M.Warnings.end());
    }
    std::remove(TrafficTmp.c_str());
  }
  // A program whose grid changes every launch (an LU's shrinking trailing
  // matrix) has as many configurations as launches: past --line-runs, the
  // launches not chosen keep no per-line figures.
  OrderedJson Unlined = OrderedJson::array();
  if (O.Lines) {
    Unlined = setAsideFromLineRuns(Doc, O.LineLimit);
    if (!Unlined.empty())
      Warnings.push_back("per-line metrics measured for " +
                         std::to_string(LineRuns) + " of " +
                         std::to_string(LineRuns + Unlined.size()) +
                         " launches (--line-runs " + O.LineRuns +
                         "): each kernel's first, then in order");
  }
  if (O.Lines && !Doc["launches"].empty()) {
    // One run per measured launch, patching only that launch: CUPTI counts
    // the first patched kernel of a process only (sass_collector.h).
    std::vector<long> Indices;
    for (const OrderedJson &L : Doc["launches"])
      Indices.push_back(L.value("index", 0L));
    OrderedJson LinesDoc = {{"launches", OrderedJson::array()}};
    for (size_t I = 0; I < Indices.size(); ++I) {
      std::fprintf(stderr,
                   "gmem-verify: run %zu/%zu (per-line SASS metrics of launch "
                   "%ld): %s\n",
                   Runs - LineRuns + I + 1, Runs, Indices[I], Exe.c_str());
      runPass(O, Exe, Injection, "lines", LinesTmp, Indices[I]);
      OrderedJson One;
      if (!readJson(LinesTmp, One)) {
        Warnings.push_back("a per-line run wrote no measurement");
      } else if (One.contains("error")) {
        Warnings.push_back("per-line metrics: " +
                           One["error"].get<std::string>());
        break;
      } else {
        if (One.value("failed_launches", 0u))
          Warnings.push_back("launch " + std::to_string(Indices[I]) +
                             ": per-line metrics could not be measured");
        for (OrderedJson &L : One["launches"])
          LinesDoc["launches"].push_back(std::move(L));
      }
      std::remove(LinesTmp.c_str());
    }
    MergeOutcome M = mergeLinePass(std::move(Doc), LinesDoc);
    Doc = std::move(M.Doc);
    Warnings.insert(Warnings.end(), M.Warnings.begin(), M.Warnings.end());
  }
  if (!Unlined.empty())
    putBackLaunches(Doc, std::move(Unlined));
  Doc["date"] = Date;
  Doc["program"] = O.Program;
  Doc.erase("error");

  std::ofstream Out(O.Output, std::ios::trunc);
  Out << Doc.dump(1) << "\n";
  Out.close();
  if (!Out)
    fail("cannot write '" + O.Output + "'");
  if (uint64_t Graphs = Doc.value("graph_launches", uint64_t(0)))
    Warnings.push_back(
        "the program launched CUDA graphs " + std::to_string(Graphs) +
        " time(s); the kernels a graph runs are not measured (gmem-verify "
        "profiles the launches made through the launch API), and "
        "gmem-analyze --compare leaves the recording's graph launches out");
  for (const std::string &W : Warnings)
    std::fprintf(stderr, "gmem-verify: warning: %s\n", W.c_str());

  size_t Launches = Doc["launches"].size();
  std::set<std::string> Kernels;
  for (const OrderedJson &L : Doc["launches"])
    Kernels.insert(L.value("kernel", std::string()));
  const OrderedJson &Dev = Doc["device"];
  std::fprintf(
      stderr,
      "gmem-verify: %zu launch(es) of %zu kernel(s) measured on %s "
      "(driver %s, CUDA %s) -> %s\n",
      Launches, Kernels.size(), Dev.value("name", std::string("?")).c_str(),
      Dev.value("driver_version", std::string("?")).c_str(),
      Dev.value("cuda_version", std::string("?")).c_str(), O.Output.c_str());
  if (First.ExitCode != 0)
    fail("the program exited with status " + std::to_string(First.ExitCode) +
         "; " + O.Output + " holds the launches measured before that");
  if (Launches == 0 && Doc.value("graph_launches", uint64_t(0)))
    fail("no kernel launch outside CUDA graphs was measured");
  if (Launches == 0)
    fail("no kernel launch was measured" +
         std::string(O.Kernel.empty() ? "" : " (does --kernel match?)"));
  if (Failed)
    fail(std::to_string(Failed) +
         " selected launch(es) could not be measured (see the warnings)");
  return 0;
}
