//===- gate_tool.h - Run gmem-analyze from the source directory -----------===//
#ifndef GMEM_TESTS_GATE_GATE_TOOL_H
#define GMEM_TESTS_GATE_GATE_TOOL_H

#include <string>

namespace gmem::test {

struct GateRun {
  int Exit = -1;
  std::string Out, Err;
};

/// `gmem-analyze ARGS` run in the source directory.
GateRun runGate(const std::string &Args);
std::string readFile(const std::string &Path);
std::string sourcePath(const std::string &Relative);

} // namespace gmem::test

#endif
