//===- matcher_fuzzer.cpp - Kernel models against real SASS ---------------===//
//
// An input is a kernel model (as --emit-model writes it), a line
// "//== SASS ==", and nvdisasm's listing of a cubin. Each kernel is matched
// against the listing's function of its name, or, when there is none, the
// first function: the mutations reach the matcher with real instructions
// under models they were not compiled from, as a program gmem has never
// seen does. The seeds (fuzz/corpus/matcher) are examples' models beside
// their own SASS, and tests/data/programs/tree_scan.cu's, whose matching
// once crashed (issue 29).
//
//===----------------------------------------------------------------------===//
#include "fuzz_check.h"
#include "matcher.h"
#include "model_json.h"
#include "sass.h"

#include <cstdint>
#include <string>

using namespace gmem;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string Input(reinterpret_cast<const char *>(Data), Size);
  const std::string Mark = "\n//== SASS ==\n";
  const size_t At = Input.find(Mark);
  if (At == std::string::npos)
    return 0;
  nlohmann::json J = nlohmann::json::parse(Input.substr(0, At), nullptr,
                                           /*allow_exceptions=*/false);
  if (J.is_discarded())
    return 0;
  Expected<Module> Read = fromJson(J);
  if (!Read)
    return 0;
  auto Functions = parseSass(Input.substr(At + Mark.size()));
  if (!Functions) {
    llvm::consumeError(Functions.takeError());
    return 0;
  }
  if (Functions->empty())
    return 0;
  for (Kernel &K : Read->Kernels) {
    bool Named = false;
    for (const SassFunction &F : *Functions)
      Named |= F.Name == K.MangledName;
    if (!Named)
      K.MangledName = Functions->front().Name;
    const std::vector<std::string> Notes = matchCompiled(K, *Functions);
    for (const std::string &N : Notes)
      FUZZ_CHECK(!N.empty(), "an empty note on %s", K.Name.c_str());
    // Every group the matcher made points at an access of the kernel.
    for (const Access &A : K.Accesses)
      FUZZ_CHECK(A.Compiled.Leader < int(K.Accesses.size()),
                 "leader %d of %zu accesses", A.Compiled.Leader,
                 K.Accesses.size());
  }
  return 0;
}
