//===- toolkit.cpp - Find nvcc and nvdisasm, compile to SASS with a cache -===//
#include "toolkit.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <thread>
#include <unistd.h>

namespace gmem {

namespace {

/// runProcess with stderr, or why the program did not run or end, in Err.
int runProgram(const std::vector<std::string> &Args, std::string &Out,
               std::string &Err, unsigned TimeoutSeconds = 300) {
  std::string Why;
  int RC = runProcess(Args, TimeoutSeconds, Out, Err, Why);
  if (!Why.empty())
    Err = Why;
  return RC;
}

std::string existing(const std::string &P) {
  return llvm::sys::fs::can_execute(P) ? P : std::string();
}

/// nvdisasm from PyPI's nvidia-cuda-nvdisasm (nvidia/cu13/bin/nvdisasm;
/// older wheels nvidia/cuda_nvdisasm/bin) in the user's and the system's
/// Python site directories, in that fixed order, without running python3.
/// An active virtual environment's come last, so that activating one does
/// not change which nvdisasm a run gets, and so its counts.
std::string nvdisasmFromPip() {
  std::vector<std::string> Roots;
  if (const char *Home = std::getenv("HOME"))
    Roots.push_back(std::string(Home) + "/.local/lib");
  Roots.push_back("/usr/local/lib");
  Roots.push_back("/usr/lib");
  if (const char *Venv = std::getenv("VIRTUAL_ENV"))
    Roots.push_back(std::string(Venv) + "/lib");
  auto Entries = [](const std::string &Dir) {
    std::vector<std::string> Out;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Dir, EC), End; !EC && It != End;
         It.increment(EC))
      Out.push_back(It->path());
    std::sort(Out.begin(), Out.end());
    return Out;
  };
  for (const std::string &Root : Roots) {
    std::vector<std::string> Found;
    for (const std::string &Py : Entries(Root)) {
      if (!llvm::StringRef(llvm::sys::path::filename(Py))
               .starts_with("python3"))
        continue;
      for (const char *Site :
           {"/site-packages/nvidia", "/dist-packages/nvidia"})
        for (const std::string &Pkg : Entries(Py + Site))
          if (llvm::sys::fs::can_execute(Pkg + "/bin/nvdisasm"))
            Found.push_back(Pkg + "/bin/nvdisasm");
    }
    if (!Found.empty()) {
      std::sort(Found.begin(), Found.end()); // cu12 before cu13: take last.
      return Found.back();
    }
  }
  return "";
}

} // namespace

/// ExecuteAndWait, polling so that Tick can report each second.
static int waitTicking(llvm::ArrayRef<llvm::StringRef> Refs,
                       std::optional<llvm::ArrayRef<llvm::StringRef>> EnvRefs,
                       llvm::ArrayRef<std::optional<llvm::StringRef>> Redirects,
                       unsigned TimeoutSeconds, std::string &Why,
                       const std::function<void(unsigned)> &Tick) {
  bool Failed = false;
  llvm::sys::ProcessInfo PI = llvm::sys::ExecuteNoWait(
      Refs[0], Refs, EnvRefs, Redirects, 0, &Why, &Failed);
  if (Failed)
    return -1;
  const auto Start = std::chrono::steady_clock::now();
  unsigned Told = 0;
  for (;;) {
    llvm::sys::ProcessInfo Done = llvm::sys::Wait(PI, 0, &Why);
    if (Done.Pid == PI.Pid)
      return Done.ReturnCode;
    const double Ran = std::chrono::duration<double>(
                           std::chrono::steady_clock::now() - Start)
                           .count();
    if (TimeoutSeconds && Ran >= TimeoutSeconds) {
      ::kill(PI.Pid, SIGKILL);
      llvm::sys::Wait(PI, std::nullopt);
      Why = "Child timed out";
      return -2;
    }
    if (unsigned(Ran) > Told)
      Tick(Told = unsigned(Ran));
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

int runProcess(const std::vector<std::string> &Args, unsigned TimeoutSeconds,
               std::string &Out, std::string &Err, std::string &Why,
               const std::optional<std::vector<std::string>> &Env,
               bool MergeOutput, const std::function<void(unsigned)> &Tick) {
  llvm::SmallString<128> OutFile, ErrFile;
  if (llvm::sys::fs::createTemporaryFile("gmem-run", "out", OutFile) ||
      llvm::sys::fs::createTemporaryFile("gmem-run", "err", ErrFile)) {
    Why = "cannot create a temporary file";
    return -1;
  }
  std::vector<llvm::StringRef> Refs(Args.begin(), Args.end());
  std::optional<std::vector<llvm::StringRef>> EnvRefs;
  if (Env)
    EnvRefs.emplace(Env->begin(), Env->end());
  std::optional<llvm::StringRef> Redirects[] = {
      llvm::StringRef("/dev/null"), llvm::StringRef(OutFile),
      llvm::StringRef(MergeOutput ? OutFile : ErrFile)};
  int RC = Tick ? waitTicking(Refs, EnvRefs, Redirects, TimeoutSeconds, Why,
                              Tick)
               : llvm::sys::ExecuteAndWait(Args[0], Refs, EnvRefs, Redirects,
                                           TimeoutSeconds, 0, &Why);
  auto Read = [](llvm::StringRef P) {
    auto B = llvm::MemoryBuffer::getFile(P);
    return B ? (*B)->getBuffer().str() : std::string();
  };
  Out = Read(OutFile);
  Err = MergeOutput ? Out : Read(ErrFile);
  llvm::sys::fs::remove(OutFile);
  llvm::sys::fs::remove(ErrFile);
  return RC;
}

std::string contentKey(const std::vector<std::string> &Fields,
                       std::vector<std::string> Inputs) {
  llvm::SHA256 H;
  auto Add = [&](llvm::StringRef S) {
    H.update(S);
    H.update(llvm::StringRef("\0", 1));
  };
  for (const std::string &F : Fields)
    Add(F);
  std::sort(Inputs.begin(), Inputs.end());
  Inputs.erase(std::unique(Inputs.begin(), Inputs.end()), Inputs.end());
  for (const std::string &F : Inputs) {
    Add(F);
    if (auto B = llvm::MemoryBuffer::getFile(F))
      Add((*B)->getBuffer());
  }
  return llvm::toHex(H.final(), true);
}

llvm::Expected<Toolkit> findToolkit(const std::string &NvccPath) {
  Toolkit T;
  if (!NvccPath.empty()) {
    T.Nvcc = existing(NvccPath);
    if (T.Nvcc.empty())
      return llvm::createStringError("--nvcc " + NvccPath +
                                     ": not an executable file");
  } else if (auto P = llvm::sys::findProgramByName("nvcc")) {
    T.Nvcc = *P;
  } else {
    if (const char *CP = std::getenv("CUDA_PATH"))
      T.Nvcc = existing(std::string(CP) + "/bin/nvcc");
    if (T.Nvcc.empty())
      T.Nvcc = existing("/usr/local/cuda/bin/nvcc");
  }
  if (T.Nvcc.empty())
    return llvm::createStringError(
        "no CUDA toolkit found (nvcc is not on PATH, in $CUDA_PATH/bin or "
        "/usr/local/cuda/bin; give --nvcc PATH)");
  std::string Out, Err;
  if (runProgram({T.Nvcc, "--version"}, Out, Err, 60) != 0)
    return llvm::createStringError(T.Nvcc + " --version failed: " + Err);
  size_t V = Out.find(", V");
  if (V != std::string::npos)
    T.Version = llvm::StringRef(Out)
                    .substr(V + 3)
                    .take_until([](char C) { return C == '\n' || C == ' '; })
                    .str();
  else
    T.Version = "unknown";

  std::string Beside = llvm::sys::path::parent_path(T.Nvcc).str();
  T.Nvdisasm = existing(Beside + "/nvdisasm");
  if (T.Nvdisasm.empty())
    if (auto P = llvm::sys::findProgramByName("nvdisasm"))
      T.Nvdisasm = *P;
  if (T.Nvdisasm.empty())
    T.Nvdisasm = nvdisasmFromPip();
  if (T.Nvdisasm.empty())
    return llvm::createStringError(
        "nvdisasm not found (not beside " + T.Nvcc +
        ", not on PATH, no PyPI nvidia-cuda-nvdisasm in ~/.local/lib, "
        "/usr/local/lib or /usr/lib); scripts/setup.sh installs it");
  return T;
}

std::vector<std::string>
nvccFlagsFromClangArgs(const std::vector<std::string> &ClangArgs) {
  std::vector<std::string> Out;
  for (size_t I = 0; I < ClangArgs.size(); ++I) {
    llvm::StringRef A = ClangArgs[I];
    bool Joined = A.size() > 2 && (A.starts_with("-I") || A.starts_with("-D") ||
                                   A.starts_with("-U"));
    if (Joined || A.starts_with("-std=")) {
      Out.push_back(A.str());
    } else if ((A == "-I" || A == "-D" || A == "-U" || A == "-include" ||
                A == "-isystem") &&
               I + 1 < ClangArgs.size()) {
      Out.push_back(A.str());
      Out.push_back(ClangArgs[++I]);
    }
  }
  return Out;
}

std::string defaultCacheDir() {
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X)
    return std::string(X) + "/gmem";
  if (const char *H = std::getenv("HOME"); H && *H)
    return std::string(H) + "/.cache/gmem";
  return "";
}

void writeAtomically(const std::string &Path, const std::string &Text) {
  const std::string Tmp = Path + ".tmp" + std::to_string(::getpid());
  std::error_code EC;
  {
    llvm::raw_fd_ostream OS(Tmp, EC);
    if (!EC)
      OS << Text;
  }
  if (!EC)
    llvm::sys::fs::rename(Tmp, Path);
}

std::string realPath(llvm::StringRef P) {
  llvm::SmallString<256> Out;
  if (llvm::sys::fs::real_path(P, Out))
    return P.str();
  return std::string(Out);
}

std::vector<std::string> nvccArchArgs(const std::string &Arch) {
  if (!Arch.empty() && (Arch.back() == 'a' || Arch.back() == 'f') &&
      Arch.rfind("sm_", 0) == 0)
    return {"-gencode", "arch=compute_" + Arch.substr(3) + ",code=" + Arch};
  return {"-arch=" + Arch};
}

llvm::Expected<SassText> compileToSass(const Toolkit &T, const SassRequest &R) {
  // The key: what nvcc would see (file contents), how it is called, and
  // which nvcc/nvdisasm it is.
  std::vector<std::string> Fields = {"gmem-sass-2", T.Version, T.Nvcc,
                                     T.Nvdisasm, R.Arch};
  Fields.insert(Fields.end(), R.Flags.begin(), R.Flags.end());
  std::vector<std::string> Inputs = R.KeyInputs;
  Inputs.push_back(R.File);
  std::string Key = contentKey(Fields, Inputs);
  std::string CacheFile;
  if (!R.CacheDir.empty()) {
    CacheFile = R.CacheDir + "/sass/" + Key + ".sass";
    auto B = llvm::MemoryBuffer::getFile(CacheFile);
    auto P = llvm::MemoryBuffer::getFile(CacheFile + ".ptx");
    if (B && P)
      return SassText{(*B)->getBuffer().str(), true, (*P)->getBuffer().str()};
  }

  llvm::SmallString<128> Cubin;
  if (auto EC =
          llvm::sys::fs::createTemporaryFile("gmem-device", "cubin", Cubin))
    return llvm::createStringError("cannot create a temporary file: " +
                                   EC.message());
  // The PTX of the same compile is kept for the executed path.
  llvm::SmallString<128> Keep;
  if (llvm::sys::fs::createUniqueDirectory("gmem-ptx", Keep))
    return llvm::createStringError("cannot create a temporary folder");
  std::vector<std::string> Args = {T.Nvcc, "-cubin"};
  const std::vector<std::string> ArchArgs = nvccArchArgs(R.Arch);
  Args.insert(Args.end(), ArchArgs.begin(), ArchArgs.end());
  Args.insert(Args.end(),
              {"-lineinfo", "-keep", "-keep-dir", std::string(Keep)});
  Args.insert(Args.end(), R.Flags.begin(), R.Flags.end());
  Args.insert(Args.end(), {"-o", std::string(Cubin), R.File});
  std::string Out, Err;
  int RC = runProgram(Args, Out, Err);
  std::string Ptx;
  if (auto P = llvm::MemoryBuffer::getFile(
          std::string(Keep) + "/" + llvm::sys::path::stem(R.File).str() +
          ".ptx"))
    Ptx = (*P)->getBuffer().str();
  llvm::sys::fs::remove_directories(Keep);
  if (RC != 0) {
    llvm::sys::fs::remove(Cubin);
    llvm::StringRef First = llvm::StringRef(Err).trim();
    First = First.take_front(First.find('\n') == llvm::StringRef::npos
                                 ? First.size()
                                 : std::min<size_t>(First.size(), 600));
    return llvm::createStringError("nvcc could not compile " + R.File +
                                   " for " + R.Arch + ": " + First.str());
  }
  RC = runProgram({T.Nvdisasm, "-c", "-gi", std::string(Cubin)}, Out, Err);
  llvm::sys::fs::remove(Cubin);
  if (RC != 0)
    return llvm::createStringError("nvdisasm failed on the cubin of " + R.File +
                                   ": " + Err);
  if (!CacheFile.empty()) {
    llvm::sys::fs::create_directories(R.CacheDir + "/sass");
    writeAtomically(CacheFile + ".ptx", Ptx);
    writeAtomically(CacheFile, Out);
  }
  return SassText{Out, false, Ptx};
}

} // namespace gmem
