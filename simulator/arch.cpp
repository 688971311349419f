//===- arch.cpp - The architecture table ----------------------------------===//
#include "arch.h"

namespace gmem {

static std::vector<ArchRules> makeTable() {
  // From Maxwell (sm_50) to Hopper (sm_90) global loads and stores are
  // counted in 32-byte sectors and shared memory has 32 four-byte banks;
  // 8- and 16-byte shared accesses are split into half and quarter warps.
  // Opt-in shared memory per block: the CUDA C++ Programming Guide's table
  // of technical specifications per compute capability.
  struct Row {
    const char *Name;
    unsigned Sm;
    const char *Family;
    unsigned OptInKiB;
  } Rows[] = {{"sm_50", 50, "Maxwell", 48},
              {"sm_52", 52, "Maxwell", 48},
              {"sm_60", 60, "Pascal", 48},
              {"sm_61", 61, "Pascal", 48},
              {"sm_70", 70, "Volta", 96},
              {"sm_75", 75, "Turing", 64},
              {"sm_80", 80, "Ampere", 163},
              {"sm_86", 86, "Ampere", 99},
              {"sm_89", 89, "Ada", 99},
              {"sm_90", 90, "Hopper", 227},
              // Blackwell: the same memory rules (32-byte sectors, 32 banks
              // of 4 bytes); the opt-in shared memory per block of the
              // Programming Guide's table (232448 and 101376 bytes).
              {"sm_100", 100, "Blackwell", 227},
              {"sm_103", 103, "Blackwell", 227},
              {"sm_120", 120, "Blackwell", 99}};
  std::vector<ArchRules> T;
  for (const Row &R : Rows) {
    ArchRules A;
    A.Name = R.Name;
    A.Sm = R.Sm;
    A.Family = R.Family;
    A.MaxSharedOptIn = R.OptInKiB * 1024ull;
    A.PackedPairLoads = R.Sm >= 70; // Not measured before Volta.
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
  size_t Dot = N.find('.');
  if (Dot != std::string::npos && Dot + 2 == N.size())
    N.erase(Dot, 1); // "9.0" -> "90", "12.0" -> "120"
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
