//===- arch.cpp - The architecture table ----------------------------------===//
#include "arch.h"

#include <algorithm>

namespace gmem {

static std::vector<ArchRules> makeTable() {
  // From Maxwell (sm_50) to Blackwell global loads and stores are counted in
  // 32-byte sectors and shared memory has 32 four-byte banks; 8- and 16-byte
  // shared accesses are split into half and quarter warps. Opt-in shared
  // memory per block: the CUDA C++ Programming Guide's table of technical
  // specifications per compute capability.
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
    // nvprof counted a coalesced 4-byte load request as 8 transactions on
    // a GTX 980 and 16 on Pascal (seed 000's Quadro P2000; TITAN Xp, GTX
    // 1080 Ti, 1060, GT 1030): one per 16 or 8 bytes. What it counts for
    // requests whose sectors are not full is not established
    // (docs/ARCHITECTURES.md). Stores count sectors.
    if (R.Sm < 70) {
      A.NvprofLoads = ArchRules::NvprofCount::PerBytes;
      A.NvprofLoadBytes = R.Sm < 60 ? 16 : 8;
    }
    T.push_back(A);
  }
  // Fermi and Kepler: 48 KiB of shared memory per block, 65535 blocks along
  // x on Fermi. Fermi caches global loads in L1 in 128-byte lines by default
  // (-Xptxas -dlcm=ca); Kepler loads go to L2 in 32-byte segments unless
  // L1 caching is asked for. Kepler's banks deliver 64 bits: in the default
  // 4-byte mode words i and i + 32 of an aligned 64-word row do not
  // conflict, and a warp's 8-byte accesses are served together; the 8-byte
  // mode (cudaDeviceSetSharedMemConfig) maps 8-byte words to banks, "sm_35:8"
  // here. Programming Guide, compute capabilities 2.x and 3.x.
  auto Old = [&](const char *Name, unsigned Sm, const char *Family) {
    ArchRules A;
    A.Name = Name;
    A.Sm = Sm;
    A.Family = Family;
    A.PackedPairLoads = false;
    A.NvprofStores = ArchRules::NvprofCount::NotModelled;
    if (Sm < 30) {
      A.LoadTransactionBytes = 128;
      A.MaxGridDim[0] = 65535;
    } else {
      A.NvprofLoads = ArchRules::NvprofCount::NotModelled;
      A.BankRowBytes = 256;
      A.GroupLanes8 = 32;
      A.GroupLanes16 = 16;
    }
    return A;
  };
  T.push_back(Old("sm_20", 20, "Fermi"));
  T.push_back(Old("sm_21", 21, "Fermi"));
  for (auto [Name, Sm] : {std::pair{"sm_30", 30u},
                          {"sm_32", 32u},
                          {"sm_35", 35u},
                          {"sm_37", 37u}}) {
    T.push_back(Old(Name, Sm, "Kepler"));
    ArchRules Wide = T.back();
    Wide.Name += ":8";
    Wide.BankBytes = 8;
    T.push_back(Wide);
  }
  std::stable_sort(
      T.begin(), T.end(),
      [](const ArchRules &X, const ArchRules &Y) { return X.Sm < Y.Sm; });
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

const ArchRules &archOrDefault(const std::string &Name) {
  const ArchRules *A = findArch(Name);
  return A ? *A : *findArch("sm_90");
}

std::vector<std::string> archNames() {
  std::vector<std::string> Names;
  for (const ArchRules &A : table())
    Names.push_back(A.Name);
  return Names;
}

} // namespace gmem
