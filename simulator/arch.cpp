//===- arch.cpp - The architecture table ----------------------------------===//
#include "arch.h"

namespace gmem {

static std::vector<ArchRules> makeTable() {
  // From Maxwell (sm_50) to Hopper (sm_90) global loads and stores are
  // counted in 32-byte sectors and shared memory has 32 four-byte banks;
  // 8- and 16-byte shared accesses are split into half and quarter warps.
  struct Row {
    const char *Name;
    unsigned Sm;
    const char *Family;
  } Rows[] = {{"sm_50", 50, "Maxwell"}, {"sm_52", 52, "Maxwell"},
              {"sm_60", 60, "Pascal"},  {"sm_61", 61, "Pascal"},
              {"sm_70", 70, "Volta"},   {"sm_75", 75, "Turing"},
              {"sm_80", 80, "Ampere"},  {"sm_86", 86, "Ampere"},
              {"sm_89", 89, "Ada"},     {"sm_90", 90, "Hopper"}};
  std::vector<ArchRules> T;
  for (const Row &R : Rows) {
    ArchRules A;
    A.Name = R.Name;
    A.Sm = R.Sm;
    A.Family = R.Family;
    T.push_back(A);
  }
  return T;
}

static const std::vector<ArchRules> &table() {
  static const std::vector<ArchRules> T = makeTable();
  return T;
}

const ArchRules *findArch(const std::string &Name) {
  std::string N = Name;
  if (N.size() == 3 && N[1] == '.')
    N = N.substr(0, 1) + N.substr(2); // "9.0" -> "90"
  if (N.rfind("sm_", 0) != 0)
    N = "sm_" + N;
  for (const ArchRules &A : table())
    if (A.Name == N)
      return &A;
  return nullptr;
}

std::vector<std::string> archNames() {
  std::vector<std::string> Names;
  for (const ArchRules &A : table())
    Names.push_back(A.Name);
  return Names;
}

} // namespace gmem
