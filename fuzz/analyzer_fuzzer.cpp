//===- analyzer_fuzzer.cpp - Mutated CUDA sources through the analyzer ----===//
//
// Seeded with examples/*.cu. Each input is parsed (against the stand-in CUDA
// headers, which is quick), translated and its host code interpreted, in
// process. Whatever the source, the model the analyzer builds must satisfy
// every invariant of model_check.h (so the simulator can run it), survive a
// JSON round trip, and its loop-free kernels must simulate.
// Run with -max_len=16384 and -close_fd_mask=2 (Clang's diagnostics).
//
//===----------------------------------------------------------------------===//
#include "frontend.h"
#include "fuzz_check.h"
#include "has_loop.h"
#include "host_launches.h"
#include "model_check.h"
#include "model_json.h"
#include "simulate.h"
#include "translate.h"

#include <fstream>
#include <unistd.h>

using namespace gmem;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size > 16384)
    return 0;
  static const std::string Path =
      "/tmp/gmem_analyzer_fuzz_" + std::to_string(getpid()) + ".cu";
  std::ofstream(Path, std::ios::binary)
      .write(reinterpret_cast<const char *>(Data), std::streamsize(Size));
  FrontendOptions FO;
  FO.CudaPath = "none";
  auto AST = parseCudaFile(Path, FO);
  if (!AST) {
    llvm::consumeError(AST.takeError());
    return 0;
  }
  clang::ASTContext &Ctx = (*AST)->getASTContext();
  Module M;
  M.File = Path;
  M.Kernels = translateKernels(Ctx);
  M.Launches = findHostLaunches(Ctx, M.Kernels, {}).Launches;
  Expected<void> Valid = checkModule(M);
  FUZZ_CHECK(Valid, "the analyzer built an invalid model: %s",
             Valid.error().c_str());
  nlohmann::json J = toJson(M);
  Expected<Module> Back = fromJson(J);
  FUZZ_CHECK(Back, "re-read: %s", Back.error().c_str());
  FUZZ_CHECK(toJson(*Back) == J, "round trip changed the model");

  const ArchRules &A = *findArch("sm_90");
  for (const Launch &L : M.Launches) {
    const Kernel *K = M.findKernel(L.Kernel);
    if (!K || fuzz::hasLoop(K->Body) || !validateLaunch(*K, L, A) ||
        L.Grid.count() * L.Block.count() > 4096)
      continue;
    SimOptions O;
    O.Threads = 1;
    simulate(*K, L, O);
  }
  return 0;
}
