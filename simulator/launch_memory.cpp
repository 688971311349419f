//===- launch_memory.cpp - What a recorded launch's memory holds ----------===//
#include "launch_memory.h"

#include <algorithm>
#include <cstring>

namespace gmem {

void LaunchMemory::add(uint64_t Base, const MemoryImage &Image) {
  Region R{Base, Image};
  Regions.insert(std::upper_bound(Regions.begin(), Regions.end(), R,
                                  [](const Region &A, const Region &B) {
                                    return A.Base < B.Base;
                                  }),
                 R);
}

bool LaunchMemory::read(uint64_t Addr, unsigned Bytes, IntType T, int64_t &V,
                        std::string &Why) const {
  auto It =
      std::upper_bound(Regions.begin(), Regions.end(), Addr,
                       [](uint64_t A, const Region &R) { return A < R.Base; });
  if (It == Regions.begin())
    return false; // Not in a recorded allocation: the load's own reason.
  const MemoryImage &I = std::prev(It)->Image;
  const uint64_t Off = Addr - std::prev(It)->Base;
  if (Off >= I.Bytes)
    return false;
  if (!I.Data) {
    Why = I.Unknown;
    return false;
  }
  if (Bytes > I.Bytes - Off || I.Data->size() < I.Bytes) {
    Why = "a load runs past the end of its allocation";
    return false;
  }
  uint64_t Raw = 0;
  std::memcpy(&Raw, I.Data->data() + Off, Bytes);
  V = normalize(Raw, T);
  return true;
}

bool LaunchMemory::translate(uint64_t Real, uint64_t &Sim) const {
  for (const Region &R : Regions)
    if (Real - R.Image.RealBase < std::max<uint64_t>(R.Image.Bytes, 1)) {
      Sim = R.Base + (Real - R.Image.RealBase);
      return true;
    }
  return false;
}

} // namespace gmem
