//===- ptx_fuzzer.cpp - Arbitrary text as the executor's PTX --------------===//
//
// The bytes are parsed as a PTX module. A module that parses is linked, and
// each of its kernels is run for one block of 64 threads over memory that
// holds nothing (every load unknown), with a small instruction budget. The
// parser either reads the text or says why naming the file; a launch either
// finishes or says why; nothing crashes or hangs.
//
//===----------------------------------------------------------------------===//
#include "executed.h"
#include "fuzz_check.h"
#include "ptx_parser.h"

#include <cstdint>
#include <string>

using namespace gmem;
using namespace gmem::exec;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string Text(reinterpret_cast<const char *>(Data), Size);
  auto M = ptx::parseModule(Text, "fuzz.ptx");
  if (!M) {
    FUZZ_CHECK(M.error().find("fuzz.ptx") != std::string::npos,
               "error does not name the file: %s", M.error().c_str());
    return 0;
  }
  auto Mods = std::make_shared<std::vector<ptx::Module>>();
  Mods->push_back(std::move(*M));
  GlobalMemory Mem;
  Mem.Lenient = true;
  auto P = Program::link(Mods, Mem);
  if (!P)
    return 0;
  for (const ptx::Function &F : (*Mods)[0].Functions) {
    if (!F.Entry || !F.Defined)
      continue;
    const XFunction *K = (*P)->kernel(F.Name);
    if (!K)
      continue;
    LaunchConfig C;
    C.Block[0] = 64;
    C.Params.assign(256, 0);
    C.ParamsKnown.assign(256, false);
    C.MaxWarpInstructions = 20000;
    ExecutedKernel EK = executedKernel(*K);
    ExecutedCounts R =
        executeLaunch(**P, *K, EK, Mem, C, archOrDefault("sm_90"), 1);
    FUZZ_CHECK(R.Out.Finished || !R.Out.Error.empty(),
               "a launch that did not finish says nothing");
    FUZZ_CHECK(R.Stats.size() == EK.K.Accesses.size(),
               "counts for %zu accesses of %zu", R.Stats.size(),
               EK.K.Accesses.size());
  }
  return 0;
}
