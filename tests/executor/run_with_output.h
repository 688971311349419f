//===- run_with_output.h - One hand-written kernel, one output buffer -----===//
//
// The executor tests' common harness: a PTX module parsed and linked alone
// (linkAlone), its
// kernel (whose one parameter is the output buffer's address) run in
// LaunchConfig's default shape on one core, the buffer's bytes read back.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_TESTS_EXECUTOR_RUN_WITH_OUTPUT_H
#define GMEM_TESTS_EXECUTOR_RUN_WITH_OUTPUT_H

#include "executed.h"
#include "ptx_parser.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace gmem::exec::test {

/// What the kernel left in its output buffer, or why it did not end.
struct Output {
  std::string Error;
  std::vector<uint8_t> Bytes;
  std::vector<bool> Known; ///< Per byte: the executor knows its value.
  bool known(size_t Off, size_t N) const {
    return std::all_of(Known.begin() + long(Off), Known.begin() + long(Off + N),
                       [](bool K) { return K; });
  }
};

/// Module Ptx parsed and linked alone, its variables placed in Mem; null
/// with Error set where it cannot be.
inline std::unique_ptr<Program> linkAlone(const std::string &Ptx,
                                          const std::string &File,
                                          GlobalMemory &Mem,
                                          std::string &Error) {
  auto M = ptx::parseModule(Ptx, File);
  if (!M) {
    Error = M.error();
    return nullptr;
  }
  auto Mods = std::make_shared<std::vector<ptx::Module>>();
  Mods->push_back(std::move(*M));
  auto P = Program::link(Mods, Mem);
  if (!P) {
    Error = P.error();
    return nullptr;
  }
  return std::move(*P);
}

/// Runs kernel Name of module Ptx with a Bytes-byte output buffer.
inline Output runWithOutput(const char *Ptx, const std::string &Name,
                            size_t Bytes) {
  Output O;
  GlobalMemory Mem;
  std::unique_ptr<Program> P = linkAlone(Ptx, Name + ".ptx", Mem, O.Error);
  if (!P)
    return O;
  const uint64_t Base = uint64_t(1) << 40;
  Region &R = Mem.addOwned(Base, Bytes, "out", true);
  const XFunction *K = P->kernel(Name);
  if (!K) {
    O.Error = "no kernel " + Name;
    return O;
  }
  LaunchConfig C;
  C.Params.resize(8);
  std::memcpy(C.Params.data(), &Base, 8);
  ExecutedKernel EK = executedKernel(*K);
  ExecutedCounts Counts =
      executeLaunch(*P, *K, EK, Mem, C, archOrDefault("sm_90"), 1);
  if (!Counts.Out.Finished) {
    O.Error = Counts.Out.Error.empty() ? "did not finish" : Counts.Out.Error;
    return O;
  }
  O.Bytes.assign(R.Data, R.Data + Bytes);
  for (size_t I = 0; I < Bytes; ++I)
    O.Known.push_back(R.Known->all(I, 1));
  return O;
}

} // namespace gmem::exec::test

#endif // GMEM_TESTS_EXECUTOR_RUN_WITH_OUTPUT_H
