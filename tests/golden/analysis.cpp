//===- analysis.cpp - Analyse and simulate a file in-process for tests ----===//
#include "analysis.h"
#include "frontend.h"
#include "host_launches.h"
#include "matcher.h"
#include "sass.h"
#include "simulate.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <memory>
#include <sstream>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

namespace gmem::test {

std::string groundTruthDir() {
  return std::string(GMEM_SOURCE_DIR) + "/tests/data/groundtruth";
}

static std::string slurp(const std::string &Path) {
  std::ifstream F(Path);
  std::stringstream S;
  S << F.rdbuf();
  return S.str();
}

ToolRun runTool(const std::string &Args) {
  // Per process: another suite may run beside this one (TempDir is /tmp).
  const std::string Dir = ::testing::TempDir(),
                    Id = std::to_string(::getpid());
  std::string Out = Dir + "/gmem_out." + Id + ".txt",
              Err = Dir + "/gmem_err." + Id + ".txt";
  std::string Cmd = std::string("cd ") + GMEM_SOURCE_DIR + " && " +
                    GMEM_ANALYZE_EXE + " " + Args + " >" + Out + " 2>" + Err;
  int Status = std::system(Cmd.c_str());
  ToolRun R;
  R.Exit = WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
  R.Out = slurp(Out);
  R.Err = slurp(Err);
  return R;
}
std::string sourceDir() { return GMEM_SOURCE_DIR; }

std::string writeTemp(const std::string &Name, const std::string &Text) {
  std::string Path = ::testing::TempDir() + "/" + Name;
  std::ofstream(Path) << Text;
  return Path;
}

LaunchOverrides measuredDeviceOverrides(const std::string &Path) {
  LaunchOverrides O;
  if (std::filesystem::path(Path).stem() == "bank_contention")
    O.SmCount = 132;
  return O;
}

const Analysis &analyze(const std::string &Path, const LaunchOverrides &O) {
  static std::map<std::string, std::unique_ptr<Analysis>> Cache;
  std::string Key = Path;
  if (O.Block)
    Key += "|block=" + std::to_string(O.Block->X) + "," +
           std::to_string(O.Block->Y) + "," + std::to_string(O.Block->Z);
  if (O.SmCount)
    Key += "|sm-count=" + std::to_string(*O.SmCount);
  auto &Slot = Cache[Key];
  if (Slot)
    return *Slot;
  Slot = std::make_unique<Analysis>();
  auto AST = parseCudaFile(Path, FrontendOptions());
  if (!AST) {
    ADD_FAILURE() << llvm::toString(AST.takeError());
    return *Slot;
  }
  clang::ASTContext &Ctx = (*AST)->getASTContext();
  Slot->M.File = Path;
  Slot->M.Kernels = translateKernels(Ctx);
  Slot->M.Launches = findHostLaunches(Ctx, Slot->M.Kernels, O).Launches;
  // What nvcc 13.0 emitted for the example, where recorded (tests/data/sass,
  // so that no toolkit is needed): the counts are of those instructions.
  std::string Stem = std::filesystem::path(Path).stem().string();
  std::ifstream Sass(sourceDir() + "/tests/data/sass/" + Stem + ".sass");
  if (Sass) {
    std::stringstream Text;
    Text << Sass.rdbuf();
    auto Fs = parseSass(Text.str());
    if (!Fs) {
      ADD_FAILURE() << llvm::toString(Fs.takeError());
      return *Slot;
    }
    for (Kernel &K : Slot->M.Kernels)
      matchCompiled(K, *Fs);
  }
  auto CpuNow = [] {
    rusage U;
    getrusage(RUSAGE_SELF, &U);
    return U.ru_utime.tv_sec + U.ru_stime.tv_sec +
           1e-6 * (U.ru_utime.tv_usec + U.ru_stime.tv_usec);
  };
  double CpuStart = CpuNow();
  auto Start = std::chrono::steady_clock::now();
  for (const Launch &L : Slot->M.Launches) {
    const Kernel *K = Slot->M.findKernel(L.Kernel);
    if (!K) {
      ADD_FAILURE() << "launch of unknown kernel " << L.Kernel;
      continue;
    }
    if (auto Valid = validateLaunch(*K, L, *findArch("sm_90")); !Valid) {
      ADD_FAILURE() << L.Kernel << ": " << Valid.error();
      continue;
    }
    Slot->Results.push_back(simulate(*K, L, SimOptions()));
  }
  Slot->CpuSeconds = CpuNow() - CpuStart;
  Slot->Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  return *Slot;
}

const LaunchResult *launchOf(const Analysis &A, const std::string &Kernel) {
  for (const LaunchResult &R : A.Results)
    if (R.K->Name == Kernel)
      return &R;
  ADD_FAILURE() << "no launch of " << Kernel;
  return nullptr;
}

const AccessStats *accessByText(const LaunchResult &R,
                                const std::string &Text) {
  for (const Access &A : R.K->Accesses)
    if (A.Text == Text)
      return &R.PerAccess[A.Id];
  return nullptr;
}

} // namespace gmem::test
