//===- record_run.h - Build the program, run it against the recorder ------===//
//
// gmem-analyze --host record: nvcc builds the user's files as the user
// would (plus -cudart shared and -lineinfo), the binary is cached by
// content like the SASS, and it runs with the user's arguments against
// gmem's recording libcudart (record/runtime), which logs every allocation,
// read-back and launch with its argument bytes. Nothing runs on a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_RECORD_RECORD_RUN_H
#define GMEM_ANALYZER_RECORD_RECORD_RUN_H

#include "executed.h"
#include "model.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <map>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gmem {

class LaunchSites;

struct RecordRequest {
  std::string Nvcc;               ///< The toolkit's nvcc.
  std::string Nvdisasm;           ///< Empty: the build keeps no disassembly.
  std::string NvccVersion;        ///< Keys the cache.
  /// .cu, .cpp and .c files, then the build's linker inputs (libfoo.a).
  std::vector<std::string> Files;
  std::vector<std::string> Flags; ///< nvcc flags (includes, macros...).
  /// Flags ask for relocatable device code (-rdc=true): the executor is
  /// told nvlink placed the kernels' shared variables.
  bool RelocatableDeviceCode = false;
  std::vector<std::string> KeyInputs; ///< Files whose content keys the cache.
  std::string Arch = "sm_90";
  std::string Board; ///< The GPU cudaGetDeviceProperties describes.
  std::vector<std::string> RunArgs;
  unsigned TimeLimit = 120; ///< Seconds the program may run.
  uint64_t LaunchCount = 0; ///< Stop the program after this many (0: not).
  std::string CacheDir;     ///< Empty: no cache.
  std::string RuntimeDir;   ///< Holds the recording libcudart.so.N.
  std::string Toolkit; ///< The toolkit's root: launch sites skip its headers.
  /// Kernels whose launch parameter sizes the recorder is told.
  const std::vector<Kernel> *Kernels = nullptr;
  /// Functional recording: run the launches on the build's PTX for at most
  /// this many seconds in all (0: record without running them), and what
  /// ptxas made of each kernel's accesses (executed_json.h's lines).
  double ExecSeconds = 0;
  std::string CompiledLines;
  /// Kernels whose launches need not run unless their results are read
  /// (device names): the model prices them without data.
  std::vector<std::string> Deferrable;
  /// How much of the end of the program's output RecordedRun keeps.
  size_t OutputBytes = 2000;
  /// While the program runs, about once a second: the launches it has made
  /// and the seconds it has run (a terminal shows them); null: nothing.
  std::function<void(uint64_t Launches, unsigned Seconds)> Progress;
};

struct RecordedLaunch {
  uint64_t N = 0;      ///< Order among all launches of the run.
  std::string Mangled; ///< The kernel's device name.
  std::string Api;     ///< "<<<>>>", "cudaLaunchKernel", ...
  Dim3 Grid, Block;
  uint64_t Smem = 0, Stream = 0;
  int64_t Graph = -1;     ///< Replayed from this captured graph.
  SourceLoc Site;         ///< Its line in the program (Line 0: not known).
  std::string Error;      ///< The runtime refused it (then it did not run).
  bool ArgsKnown = false; ///< The recorder knew the parameter sizes.
  /// Each argument's bytes (none where its size was not known).
  std::vector<std::optional<std::vector<uint8_t>>> Args;
  /// The allocations its pointer arguments point into, as they were at the
  /// launch: allocation id -> image file (a key of RecordedRun::Images).
  std::map<uint64_t, std::string> Images;
  /// Functional recording: whether each image's bytes were all known (what
  /// a GPU would hold), and what running the launch counted.
  std::map<uint64_t, bool> ImageKnown;
  std::shared_ptr<const ExecutedCounts> Exec;
};

struct RecordedAlloc {
  uint64_t Id = 0, Base = 0, Bytes = 0, Pitch = 0;
  std::string Kind; ///< "device", "managed", "host".
  /// Launches logged before it was made, and before it was freed (never:
  /// UINT64_MAX). A freed base given out again is another allocation.
  uint64_t LaunchesBefore = 0, FreedBefore = UINT64_MAX;
};

struct RecordedRead {
  uint64_t Id = 0; ///< The allocation (0: a __device__ variable).
  uint64_t Bytes = 0;
  std::string Api;
  uint64_t LaunchesBefore = 0; ///< Launches logged before the read.
};

/// A copy or set into an allocation.
struct RecordedWrite {
  uint64_t Id = 0, Offset = 0, Bytes = 0;
  uint64_t From = 0; ///< The allocation copied from; 0: the host.
  std::string Api;
  uint64_t LaunchesBefore = 0;
};

struct RecordedRun {
  std::vector<RecordedLaunch> Launches;
  std::vector<RecordedAlloc> Allocs;
  std::vector<RecordedRead> Reads;
  std::vector<RecordedWrite> Writes;
  /// Calls of recorded libraries (cuBLAS...): API and launches before.
  std::vector<std::pair<std::string, uint64_t>> Library;
  /// Of them, the calls gmem computed on the host (cuBLAS's GEMMs), by API.
  std::map<std::string, unsigned> LibraryComputed;
  /// Functional recording: the launches were run; and when device memory
  /// stopped being known (a launch not run, a library call), with why and
  /// the launches logged before.
  bool Functional = false;
  std::vector<std::pair<std::string, uint64_t>> Forgets;
  /// The saved contents of allocations, by file name.
  std::map<std::string, std::shared_ptr<const std::string>> Images;
  std::vector<std::string> Missing; ///< API calls not answered, in order.
  /// The first launch that faulted when run (an assert, a trap, a bad
  /// address): its number, the runtime's error and why; and the launches
  /// the program asked for after it, which a GPU does not make.
  struct Fault {
    uint64_t N = 0;
    std::string Error, Why;
  };
  std::optional<Fault> FirstFault;
  uint64_t Unmade = 0;
  int ExitCode = 0;
  /// Empty when the program exited with 0; else how it stopped ("exited
  /// with 1", "killed by signal ...", "stopped after 120 s").
  std::string Stopped;
  bool Crashed = false;   ///< A signal or the time limit ended it.
  /// Where a signal stopped the program: its innermost frame in one of the
  /// program's lines (Line 0: not known).
  SourceLoc CrashSite;
  std::string OutputTail; ///< The end of what the program printed.
  /// The recorder ended the program at the launch count asked for.
  bool AtLaunchCount = false;
  bool FromCache = false; ///< The binary was built before.
};

/// Reads the recorder's log; a line it cannot read is an error naming it.
/// Sites, when given, turns each launch's stack into its source line.
llvm::Expected<RecordedRun> parseRecordLog(llvm::StringRef Text,
                                           LaunchSites *Sites = nullptr);

/// The program as nvcc built it, once for both steps: the executable that
/// is run, and the disassembly of each .cu file's cubin for the --arch in
/// use (kept from the same build), which the SASS step reads.
struct BuiltProgram {
  std::string Binary;
  bool FromCache = false;
  bool Temporary = false; ///< No cache: removed after the run.
  /// .cu file as given -> `nvdisasm -c -gi` of its cubin. A file is missing
  /// when its cubin was not kept (two .cu files of one name, no nvdisasm).
  std::map<std::string, std::string> Sass;
  /// .cu file as given -> the PTX of the same build (the executed path).
  std::map<std::string, std::string> Ptx;
  /// NVIDIA libraries gmem linked without being asked, because the program
  /// calls them (-lcublas...): they run as gmem's stand-ins.
  std::vector<std::string> AddedLibraries;
};

/// Builds the program (or takes it from the cache). Fails when nvcc
/// rejects it, with nvcc's words.
llvm::Expected<BuiltProgram> buildProgram(const RecordRequest &R);

/// Runs a built program against the recorder. Fails only when it cannot be
/// started; a program that stops early or is stopped still gives the
/// launches it made.
llvm::Expected<RecordedRun> runRecorded(const RecordRequest &R,
                                        const BuiltProgram &B);

/// buildProgram, then runRecorded.
llvm::Expected<RecordedRun> recordProgram(const RecordRequest &R);

} // namespace gmem

#endif // GMEM_ANALYZER_RECORD_RECORD_RUN_H
