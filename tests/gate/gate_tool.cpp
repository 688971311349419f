//===- gate_tool.cpp - Run gmem-analyze from the source directory ---------===//
#include "gate_tool.h"

#include <cstdlib>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace gmem::test {

std::string readFile(const std::string &Path) {
  std::ifstream In(Path);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

std::string sourcePath(const std::string &Relative) {
  return std::string(GMEM_SOURCE_DIR) + "/" + Relative;
}

GateRun runGate(const std::string &Args) {
  std::string Dir = ::testing::TempDir();
  // CTest runs tests as parallel processes: one pair of files each.
  std::string Id = std::to_string(getpid());
  std::string Out = Dir + "/gate_out" + Id + ".txt",
              Err = Dir + "/gate_err" + Id + ".txt";
  std::string Cmd = std::string("cd ") + GMEM_SOURCE_DIR + " && " +
                    GMEM_ANALYZE_EXE + " " + Args + " >" + Out + " 2>" + Err;
  int Status = std::system(Cmd.c_str());
  GateRun R;
  R.Exit = WIFEXITED(Status) ? WEXITSTATUS(Status) : -1;
  R.Out = readFile(Out);
  R.Err = readFile(Err);
  return R;
}

} // namespace gmem::test
