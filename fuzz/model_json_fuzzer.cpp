//===- model_json_fuzzer.cpp - Kernel-model files as a user may give them -===//
//
// Bytes -> JSON -> fromJson. A model that reads must survive a round trip
// unchanged, and its loop-free kernels must simulate (loops are the
// simulator fuzzer's: a model file may legitimately run 2^26 iterations).
//
//===----------------------------------------------------------------------===//
#include "fuzz_check.h"
#include "has_loop.h"
#include "model_json.h"
#include "simulate.h"

#include <cstdint>
#include <string>

using namespace gmem;
using gmem::fuzz::hasLoop;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  nlohmann::json J = nlohmann::json::parse(Data, Data + Size, nullptr,
                                           /*allow_exceptions=*/false);
  if (J.is_discarded())
    return 0;
  Expected<Module> Read = fromJson(J);
  if (!Read) {
    const std::string &Error = Read.error();
    FUZZ_CHECK(!Error.empty() && Error.find('\n') == std::string::npos,
               "error message '%s'", Error.c_str());
    return 0;
  }
  const Module &M = *Read;
  nlohmann::json Out = toJson(M);
  Expected<Module> Back = fromJson(Out);
  FUZZ_CHECK(Back, "re-read: %s", Back.error().c_str());
  FUZZ_CHECK(toJson(*Back) == Out, "round trip changed the model");

  const ArchRules &A = *findArch("sm_90");
  for (const Launch &L : M.Launches) {
    const Kernel *K = M.findKernel(L.Kernel);
    if (!K || hasLoop(K->Body) || !validateLaunch(*K, L, A))
      continue;
    if (L.Grid.count() * L.Block.count() > 1024)
      continue; // Bounded work per input.
    SimOptions O;
    O.Threads = 1;
    LaunchResult R = simulate(*K, L, O);
    FUZZ_CHECK(R.PerAccess.size() == K->Accesses.size(), "per-access stats");
  }
  return 0;
}
