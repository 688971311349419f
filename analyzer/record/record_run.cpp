//===- record_run.cpp - Build the program, run it against the recorder ----===//
#include "record_run.h"
#include "cubin_attrs.h"
#include "executed_json.h"
#include "launch_sites.h"
#include "toolkit.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace gmem {

using nlohmann::json;

namespace {

std::string readFile(llvm::StringRef Path) {
  auto B = llvm::MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : std::string();
}

std::string tail(const std::string &S, size_t N) {
  return S.size() <= N ? S : "..." + S.substr(S.size() - N);
}

Dim3 dim3Of(const json &J) {
  return {J.at(0).get<uint64_t>(), J.at(1).get<uint64_t>(),
          J.at(2).get<uint64_t>()};
}

} // namespace

llvm::Expected<RecordedRun> parseRecordLog(llvm::StringRef Text,
                                           LaunchSites *Sites) {
  RecordedRun R;
  std::map<uint64_t, std::string> Execs; // Launch number -> exec event.
  llvm::SmallVector<llvm::StringRef, 64> Lines;
  Text.split(Lines, '\n', -1, false);
  for (size_t I = 0; I < Lines.size(); ++I) {
    // The last line may be cut short by a crash: it is dropped.
    json J = json::parse(Lines[I].str(), nullptr, false);
    if (J.is_discarded() || !J.is_object() || !J.contains("ev")) {
      if (I + 1 == Lines.size())
        break;
      return llvm::createStringError("recording log line " +
                                     std::to_string(I + 1) +
                                     " is not a recorder event");
    }
    try {
      const std::string Ev = J.at("ev").get<std::string>();
      if (Ev == "launch") {
        RecordedLaunch L;
        L.N = J.at("n").get<uint64_t>();
        L.Mangled = J.at("kernel").get<std::string>();
        L.Api = J.at("api").get<std::string>();
        L.Grid = dim3Of(J.at("grid"));
        L.Block = dim3Of(J.at("block"));
        L.Smem = J.at("smem").get<uint64_t>();
        L.Stream = J.at("stream").get<uint64_t>();
        L.Graph = J.value("graph", int64_t(-1));
        L.Error = J.value("error", std::string());
        if (Sites && J.contains("site"))
          L.Site = Sites->siteOf(J.at("site").get<std::vector<uint64_t>>());
        if (J.at("args").is_array()) {
          L.ArgsKnown = true;
          for (const json &A : J.at("args")) {
            if (A.is_null()) {
              L.Args.emplace_back();
              continue;
            }
            std::vector<uint8_t> Bytes;
            const std::string Hex = A.get<std::string>();
            for (size_t C = 0; C + 1 < Hex.size(); C += 2)
              Bytes.push_back(uint8_t(std::stoul(Hex.substr(C, 2), 0, 16)));
            L.Args.push_back(std::move(Bytes));
          }
        }
        if (J.contains("images"))
          for (const json &I : J.at("images")) {
            L.Images[I.at(0).get<uint64_t>()] = I.at(1).get<std::string>();
            if (I.size() > 2)
              L.ImageKnown[I.at(0).get<uint64_t>()] = I.at(2).get<int>() != 0;
          }
        R.Launches.push_back(std::move(L));
      } else if (Ev == "alloc") {
        R.Allocs.push_back(
            {J.at("id").get<uint64_t>(), J.at("base").get<uint64_t>(),
             J.at("bytes").get<uint64_t>(), J.value("pitch", uint64_t(0)),
             J.at("kind").get<std::string>(), uint64_t(R.Launches.size())});
      } else if (Ev == "free") {
        const uint64_t Id = J.at("id").get<uint64_t>();
        for (RecordedAlloc &A : R.Allocs)
          if (A.Id == Id)
            A.FreedBefore = uint64_t(R.Launches.size());
      } else if (Ev == "read") {
        R.Reads.push_back(
            {J.at("id").get<uint64_t>(), J.at("bytes").get<uint64_t>(),
             J.at("api").get<std::string>(), uint64_t(R.Launches.size())});
      } else if (Ev == "write") {
        R.Writes.push_back(
            {J.at("id").get<uint64_t>(), J.at("offset").get<uint64_t>(),
             J.at("bytes").get<uint64_t>(), J.at("from").get<uint64_t>(),
             J.at("api").get<std::string>(), uint64_t(R.Launches.size())});
      } else if (Ev == "crash") {
        if (Sites && J.contains("site"))
          R.CrashSite = Sites->siteOf(J.at("site").get<std::vector<uint64_t>>());
      } else if (Ev == "library") {
        R.Library.emplace_back(J.at("api").get<std::string>(),
                               uint64_t(R.Launches.size()));
        if (J.value("ran", false))
          ++R.LibraryComputed[R.Library.back().first];
      } else if (Ev == "exec") {
        R.Functional = true;
        Execs[J.at("n").get<uint64_t>()] = Lines[I].str();
      } else if (Ev == "forget") {
        R.Forgets.emplace_back(J.at("why").get<std::string>(),
                               uint64_t(R.Launches.size()));
      } else if (Ev == "stop") {
        R.AtLaunchCount = true;
      } else if (Ev == "fault") {
        if (!R.FirstFault)
          R.FirstFault = RecordedRun::Fault{J.at("n").get<uint64_t>(),
                                            J.at("error").get<std::string>(),
                                            J.at("why").get<std::string>()};
      } else if (Ev == "unmade") {
        ++R.Unmade;
      } else if (Ev == "missing") {
        R.Missing.push_back(J.at("api").get<std::string>());
      }
    } catch (const json::exception &E) {
      return llvm::createStringError("recording log line " +
                                     std::to_string(I + 1) + ": " + E.what());
    }
  }
  for (RecordedLaunch &L : R.Launches) {
    auto It = Execs.find(L.N);
    if (It == Execs.end())
      continue;
    auto C = countsFromJson(It->second);
    if (!C)
      return llvm::createStringError("recording log, launch " +
                                     std::to_string(L.N) + ": " + C.error());
    L.Exec = std::make_shared<const ExecutedCounts>(std::move(*C));
  }
  return R;
}

/// 90 for "sm_90" (0 when not of that form).
static unsigned smOf(const std::string &Arch) {
  return Arch.rfind("sm_", 0) == 0
             ? unsigned(std::strtoul(Arch.c_str() + 3, nullptr, 10))
             : 0;
}

/// The NVIDIA libraries gmem has stand-ins for (beside its runtime), which
/// the build may link without the user's -l: those not asked for already.
static std::vector<std::string> offeredLibraries(const RecordRequest &R) {
  std::vector<std::string> Out;
  // nvcc links against the toolkit's own copy, which must be there too.
  const std::string Toolkit =
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(R.Nvcc)).str();
  for (const char *L : {"cublas", "cublasLt"}) {
    const std::string Flag = std::string("-l") + L;
    const std::string So = std::string("/lib") + L + ".so";
    if (!R.RuntimeDir.empty() && llvm::sys::fs::exists(R.RuntimeDir + So) &&
        (llvm::sys::fs::exists(Toolkit + "/lib64" + So) ||
         llvm::sys::fs::exists(Toolkit + "/targets/x86_64-linux/lib" + So)) &&
        std::find(R.Flags.begin(), R.Flags.end(), Flag) == R.Flags.end())
      Out.push_back(L);
  }
  return Out;
}

/// The .cu files whose cubin the build keeps: nvcc's -keep names a cubin
/// after its file's stem, so two .cu files of one stem keep none.
static std::vector<std::string> keptUnits(const RecordRequest &R) {
  std::map<std::string, unsigned> Stems;
  for (const std::string &F : R.Files)
    if (llvm::sys::path::extension(F) == ".cu")
      ++Stems[llvm::sys::path::stem(F).str()];
  std::vector<std::string> Kept;
  for (const std::string &F : R.Files)
    if (llvm::sys::path::extension(F) == ".cu" &&
        Stems[llvm::sys::path::stem(F).str()] == 1)
      Kept.push_back(F);
  return Kept;
}

llvm::Expected<BuiltProgram> buildProgram(const RecordRequest &R) {
  // The binary's key: what nvcc sees and how it is called (the files'
  // order is the link order), and the nvdisasm that read its cubins.
  std::vector<std::string> Fields = {"gmem-record-5", R.Nvcc, R.NvccVersion,
                                     R.Nvdisasm, R.Arch};
  Fields.insert(Fields.end(), R.Flags.begin(), R.Flags.end());
  // Where the files are, not only how they were named: the binary's line
  // tables hold their absolute paths, which name the launches' lines.
  for (const std::string &F : R.Files)
    Fields.push_back(realPath(F));
  std::vector<std::string> Inputs = R.KeyInputs;
  Inputs.insert(Inputs.end(), R.Files.begin(), R.Files.end());
  const std::string Key = contentKey(Fields, Inputs);
  const std::vector<std::string> Kept = keptUnits(R);
  auto SassFile = [&](const std::string &Binary, size_t I) {
    return Binary + "." + std::to_string(I) + ".sass";
  };
  auto PtxFile = [&](const std::string &Binary, size_t I) {
    return Binary + "." + std::to_string(I) + ".ptx";
  };

  BuiltProgram B;
  if (!R.CacheDir.empty()) {
    llvm::sys::fs::create_directories(R.CacheDir + "/bin");
    B.Binary = R.CacheDir + "/bin/" + Key;
    B.FromCache = llvm::sys::fs::can_execute(B.Binary);
    for (size_t I = 0; I < Kept.size(); ++I)
      B.FromCache = B.FromCache &&
                    llvm::sys::fs::exists(SassFile(B.Binary, I)) &&
                    llvm::sys::fs::exists(PtxFile(B.Binary, I));
  } else {
    llvm::SmallString<128> Temp;
    if (auto EC = llvm::sys::fs::createTemporaryFile("gmem-program", "", Temp))
      return llvm::createStringError("cannot create a temporary file: " +
                                     EC.message());
    B.Binary = std::string(Temp);
    B.Temporary = true;
  }
  if (!B.FromCache) {
    const std::string Out = B.Binary + ".tmp" + std::to_string(::getpid());
    // -g: host line tables, which name each launch's line (launch_sites.h);
    // the device code is the same with or without it.
    std::vector<std::string> Args = {R.Nvcc};
    const std::vector<std::string> ArchArgs = nvccArchArgs(R.Arch);
    Args.insert(Args.end(), ArchArgs.begin(), ArchArgs.end());
    Args.insert(Args.end(), {"-lineinfo", "-g", "-cudart", "shared"});
    // The intermediates are kept for the cubins: their disassembly (the
    // SASS step) and their kernels' attributes (the runtime's answers).
    llvm::SmallString<128> Keep;
    if (llvm::sys::fs::createUniqueDirectory("gmem-build", Keep))
      return llvm::createStringError("cannot create a temporary folder");
    Args.insert(Args.end(), {"-keep", "-keep-dir", std::string(Keep)});
    Args.insert(Args.end(), R.Flags.begin(), R.Flags.end());
    // The libraries gmem stands in for, linked only where the program
    // names their symbols (nvcc puts -Xlinker before every -l).
    const std::vector<std::string> Offered = offeredLibraries(R);
    if (!Offered.empty())
      Args.insert(Args.end(), {"-Xlinker", "--as-needed"});
    for (const std::string &L : Offered)
      Args.push_back("-l" + L);
    Args.insert(Args.end(), R.Files.begin(), R.Files.end());
    Args.insert(Args.end(), {"-o", Out});
    std::string Text, Err, Why;
    int RC = runProcess(Args, 600, Text, Err, Why, std::nullopt,
                        /*MergeOutput=*/true);
    std::vector<std::string> Sass(Kept.size()), Ptx(Kept.size());
    for (size_t I = 0; RC == 0 && I < Kept.size(); ++I)
      Ptx[I] = readFile(std::string(Keep) + "/" +
                        llvm::sys::path::stem(Kept[I]).str() + ".ptx");
    for (size_t I = 0; RC == 0 && !R.Nvdisasm.empty() && I < Kept.size();
         ++I) {
      // -gencode names a cubin after its file alone.
      std::string Cubin = std::string(Keep) + "/" +
                          llvm::sys::path::stem(Kept[I]).str() + "." + R.Arch +
                          ".cubin";
      if (!llvm::sys::fs::exists(Cubin))
        Cubin = std::string(Keep) + "/" + llvm::sys::path::stem(Kept[I]).str() +
                ".cubin";
      std::string DisErr, DisWhy;
      if (!llvm::sys::fs::exists(Cubin) ||
          runProcess({R.Nvdisasm, "-c", "-gi", Cubin}, 600, Sass[I], DisErr,
                     DisWhy) != 0)
        Sass[I].clear(); // The SASS step compiles this file on its own.
    }
    std::string Attributes;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Keep, EC), End;
         RC == 0 && It != End && !EC; It.increment(EC))
      if (llvm::sys::path::extension(It->path()) == ".cubin")
        Attributes += attributeLines(
            readCubinKernels(readFile(It->path()), smOf(R.Arch)));
    llvm::sys::fs::remove_directories(Keep);
    if (RC != 0) {
      llvm::sys::fs::remove(Out);
      return llvm::createStringError(
          "nvcc could not build the program: " +
          (Why.empty() ? tail(llvm::StringRef(Text).trim().str(), 1500) : Why));
    }
    for (size_t I = 0; I < Kept.size(); ++I) {
      writeAtomically(PtxFile(B.Binary, I), Ptx[I]);
      writeAtomically(SassFile(B.Binary, I), Sass[I]);
    }
    writeAtomically(B.Binary + ".attrs", Attributes);
    llvm::sys::fs::rename(Out, B.Binary);
  }
  // What --as-needed kept: the binary names each library it needs.
  const std::string Image = readFile(B.Binary);
  for (const std::string &L : offeredLibraries(R))
    if (Image.find("lib" + L + ".so.") != std::string::npos)
      B.AddedLibraries.push_back(L);
  for (size_t I = 0; I < Kept.size(); ++I) {
    std::string Text = readFile(SassFile(B.Binary, I));
    if (!Text.empty())
      B.Sass[Kept[I]] = std::move(Text);
    std::string PtxText = readFile(PtxFile(B.Binary, I));
    if (!PtxText.empty())
      B.Ptx[Kept[I]] = std::move(PtxText);
    if (B.Temporary) {
      llvm::sys::fs::remove(SassFile(B.Binary, I));
      llvm::sys::fs::remove(PtxFile(B.Binary, I));
    }
  }
  return B;
}

llvm::Expected<RecordedRun> recordProgram(const RecordRequest &R) {
  auto B = buildProgram(R);
  if (!B)
    return B.takeError();
  return runRecorded(R, *B);
}

llvm::Expected<RecordedRun> runRecorded(const RecordRequest &R,
                                        const BuiltProgram &B) {
  const std::string &Binary = B.Binary;
  // Sizes of each kernel's parameters, for the recorder to copy arguments.
  llvm::SmallString<128> Params, Log, Memory;
  if (llvm::sys::fs::createTemporaryFile("gmem-params", "txt", Params) ||
      llvm::sys::fs::createTemporaryFile("gmem-record", "jsonl", Log) ||
      llvm::sys::fs::createUniqueDirectory("gmem-memory", Memory))
    return llvm::createStringError("cannot create a temporary file");
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Params, EC);
    if (R.Kernels)
      for (const Kernel &K : *R.Kernels) {
        if (K.MangledName.empty())
          continue;
        OS << K.MangledName;
        for (const Param &P : K.Params)
          OS << ' ' << P.Bytes;
        OS << '\n';
      }
  }
  std::vector<std::string> Env;
  const char *Old = std::getenv("LD_LIBRARY_PATH");
  for (char **E = environ; *E; ++E)
    if (!llvm::StringRef(*E).starts_with("LD_LIBRARY_PATH=") &&
        !llvm::StringRef(*E).starts_with("GMEM_RECORD_"))
      Env.push_back(*E);
  Env.push_back("LD_LIBRARY_PATH=" + R.RuntimeDir +
                (Old && *Old ? ":" + std::string(Old) : ""));
  Env.push_back("GMEM_RECORD_LOG=" + std::string(Log));
  Env.push_back("GMEM_RECORD_PARAMS=" + std::string(Params));
  Env.push_back("GMEM_RECORD_GPU=" + R.Board);
  Env.push_back("GMEM_RECORD_MEMORY=" + std::string(Memory));
  if (R.LaunchCount)
    Env.push_back("GMEM_RECORD_LAUNCH_COUNT=" + std::to_string(R.LaunchCount));
  // The kernels' attributes from the build's cubins (cubin_attrs.h).
  const std::string Attributes = Binary + ".attrs";
  if (llvm::sys::fs::exists(Attributes))
    Env.push_back("GMEM_RECORD_ATTRS=" + Attributes);
  Env.push_back("GMEM_RECORD_SM=" + std::to_string(smOf(R.Arch)));
  // Functional recording: the kernels run on the build's PTX.
  std::vector<std::string> PtxFiles;
  llvm::SmallString<128> Compiled;
  if (R.ExecSeconds > 0 && !B.Ptx.empty()) {
    std::string List;
    for (const auto &[File, Text] : B.Ptx) {
      llvm::SmallString<128> P;
      if (llvm::sys::fs::createTemporaryFile("gmem-unit", "ptx", P))
        continue;
      writeAtomically(std::string(P), Text);
      PtxFiles.push_back(std::string(P));
      List += (List.empty() ? "" : ":") + std::string(P);
    }
    if (!llvm::sys::fs::createTemporaryFile("gmem-compiled", "txt",
                                            Compiled)) {
      writeAtomically(std::string(Compiled), R.CompiledLines);
      Env.push_back("GMEM_RECORD_COMPILED=" + std::string(Compiled));
    }
    Env.push_back("GMEM_RECORD_PTX=" + List);
    Env.push_back("GMEM_RECORD_ARCH=" + R.Arch);
    if (R.RelocatableDeviceCode)
      Env.push_back("GMEM_RECORD_RDC=1");
    Env.push_back("GMEM_RECORD_EXEC_SECONDS=" + std::to_string(R.ExecSeconds));
    std::string Defer;
    for (const std::string &K : R.Deferrable)
      Defer += (Defer.empty() ? "" : ",") + K;
    Env.push_back("GMEM_RECORD_DEFER=" + Defer);
  }
  std::vector<std::string> Argv = {Binary};
  Argv.insert(Argv.end(), R.RunArgs.begin(), R.RunArgs.end());
  std::string Output, Err, Why;
  // The launches so far are the log's launch events.
  std::function<void(unsigned)> Tick;
  if (R.Progress)
    Tick = [&](unsigned Seconds) {
      const std::string Text = readFile(Log);
      uint64_t Launches = 0;
      for (size_t At = Text.find("{\"ev\":\"launch\""); At != std::string::npos;
           At = Text.find("{\"ev\":\"launch\"", At + 1))
        ++Launches;
      R.Progress(Launches, Seconds);
    };
  int RC = runProcess(Argv, R.TimeLimit, Output, Err, Why, Env,
                      /*MergeOutput=*/true, Tick);
  std::string LogText = readFile(Log);
  // The saved allocations (at most 512 MiB, images.cpp) are read now, and
  // the folder goes with the other temporary files.
  std::map<std::string, std::shared_ptr<const std::string>> Images;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Memory, EC), End; It != End && !EC;
       It.increment(EC)) {
    Images[llvm::sys::path::filename(It->path()).str()] =
        std::make_shared<const std::string>(readFile(It->path()));
    llvm::sys::fs::remove(It->path());
  }
  llvm::sys::fs::remove(Memory);
  llvm::sys::fs::remove(Params);
  llvm::sys::fs::remove(Log);
  for (const std::string &P : PtxFiles)
    llvm::sys::fs::remove(P);
  if (!Compiled.empty())
    llvm::sys::fs::remove(Compiled);
  if (RC == -1) {
    if (B.Temporary) {
      llvm::sys::fs::remove(Binary);
      llvm::sys::fs::remove(Attributes);
    }
    return llvm::createStringError("cannot run the program: " + Why);
  }
  LaunchSites Sites(Binary, R.Files, R.Toolkit);
  auto Parsed = parseRecordLog(LogText, &Sites);
  if (B.Temporary) {
    llvm::sys::fs::remove(Binary);
    llvm::sys::fs::remove(Attributes);
  }
  if (!Parsed)
    return Parsed.takeError();
  Parsed->FromCache = B.FromCache;
  Parsed->Images = std::move(Images);
  Parsed->ExitCode = RC;
  Parsed->OutputTail = tail(Output, R.OutputBytes);
  Parsed->Crashed = RC == -2;
  if (RC == -2)
    Parsed->Stopped = llvm::StringRef(Why).contains("timed out")
                          ? "stopped after the time limit of " +
                                std::to_string(R.TimeLimit) + " s"
                          : "was killed (" + Why + ")";
  else if (RC != 0)
    Parsed->Stopped = "exited with " + std::to_string(RC);
  if (RC == -2 && Parsed->CrashSite.Line)
    Parsed->Stopped += " at " + Parsed->CrashSite.File + ":" +
                       std::to_string(Parsed->CrashSite.Line);
  return Parsed;
}

} // namespace gmem
