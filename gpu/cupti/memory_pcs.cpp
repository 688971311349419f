//===- memory_pcs.cpp - Which instructions of a cubin access memory -------===//
#include "memory_pcs.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <unistd.h>

namespace gmem {
namespace cupti {

bool isMemoryOpcode(const std::string &Opcode) {
  const std::string Base = Opcode.substr(0, Opcode.find('.'));
  static const std::set<std::string> Memory = {
      "LDG",   "STG",   "LD",  "ST",   "LDS",    "STS",  "ATOM",
      "ATOMG", "ATOMS", "RED", "REDG", "LDGSTS", "LDSM", "STSM"};
  return Memory.count(Base) != 0;
}

MemoryPcs parseMemoryPcs(const std::string &Disassembly) {
  MemoryPcs Out;
  std::istringstream In(Disassembly);
  std::string Line, Function;
  while (std::getline(In, Line)) {
    // A function's code: `.text._Z3fooPf:`.
    if (Line.rfind(".text.", 0) == 0 && Line.back() == ':') {
      Function = Line.substr(6, Line.size() - 7);
      continue;
    }
    // An instruction: `        /*0140*/    @!P1 LDG.E R26, desc[...] ;`.
    const size_t Open = Line.find("/*"), Close = Line.find("*/");
    if (Function.empty() || Open == std::string::npos ||
        Close == std::string::npos || Close < Open + 3)
      continue;
    const std::string Hex = Line.substr(Open + 2, Close - Open - 2);
    if (Hex.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
      continue;
    std::istringstream Words(Line.substr(Close + 2));
    std::string Op;
    Words >> Op;
    // `@!PT` never runs: ptxas pads with `@!PT LDS RZ, [RZ]` before async
    // copies, and the SASS counters count those issues at the copy's line
    // (3 a warp in cuda_hgemm's kernels), though they touch no memory.
    if (Op == "@!PT")
      continue;
    if (!Op.empty() && Op[0] == '@')
      Words >> Op;
    if (isMemoryOpcode(Op))
      Out[Function].insert(uint32_t(std::stoul(Hex, nullptr, 16)));
  }
  return Out;
}

namespace {

std::string nvdisasmPath() {
  if (const char *P = std::getenv("GMEM_NVDISASM"))
    return P;
  if (const char *Home = std::getenv("CUDA_HOME")) {
    const std::string P = std::string(Home) + "/bin/nvdisasm";
    if (access(P.c_str(), X_OK) == 0)
      return P;
  }
  if (std::system("command -v nvdisasm >/dev/null 2>&1") == 0)
    return "nvdisasm";
  return "/usr/local/cuda/bin/nvdisasm";
}

} // namespace

std::optional<MemoryPcs> memoryPcsOf(const std::vector<char> &Cubin,
                                     std::string &Error) {
  char Path[] = "/tmp/gmem-cubin-XXXXXX";
  const int Fd = mkstemp(Path);
  if (Fd < 0) {
    Error = "no temporary file for the cubin";
    return std::nullopt;
  }
  const bool Written =
      write(Fd, Cubin.data(), Cubin.size()) == ssize_t(Cubin.size());
  close(Fd);
  std::string Text;
  if (Written) {
    const std::string Cmd =
        "'" + nvdisasmPath() + "' -c '" + std::string(Path) + "' 2>/dev/null";
    if (FILE *P = popen(Cmd.c_str(), "r")) {
      std::array<char, 4096> Buf;
      size_t N;
      while ((N = fread(Buf.data(), 1, Buf.size(), P)) > 0)
        Text.append(Buf.data(), N);
      if (pclose(P) != 0)
        Text.clear();
    }
  }
  unlink(Path);
  if (Text.empty()) {
    Error = "nvdisasm (" + nvdisasmPath() +
            ") could not disassemble the cubin; set GMEM_NVDISASM";
    return std::nullopt;
  }
  return parseMemoryPcs(Text);
}

} // namespace cupti
} // namespace gmem
