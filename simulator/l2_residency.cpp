//===- l2_residency.cpp - What a warm L2 holds from launch to launch ------===//
#include "l2_residency.h"
#include "dram_traffic.h"

#include <algorithm>

namespace gmem {

std::list<L2Residency::Entry>::iterator
L2Residency::find(const std::string &Name) {
  return std::find_if(Lru.begin(), Lru.end(),
                      [&](const Entry &E) { return E.Name == Name; });
}

void L2Residency::touch(const std::string &Name, uint64_t Resident,
                        uint64_t Dirty) {
  auto It = find(Name);
  if (It != Lru.end())
    Lru.erase(It);
  Resident = std::min(Resident, Capacity);
  Lru.push_back({Name, Resident, std::min(Dirty, Resident)});
}

uint64_t L2Residency::evict() {
  uint64_t Held = 0, Dirty = 0;
  for (const Entry &E : Lru)
    Held += E.Resident;
  // Oldest first; a partly evicted entry keeps its most recent bytes and
  // loses its dirty ones in proportion.
  for (auto It = Lru.begin(); It != Lru.end() && Held > Capacity;) {
    const uint64_t Out = std::min(It->Resident, Held - Capacity);
    const uint64_t DirtyOut =
        It->Resident
            ? uint64_t(double(It->Dirty) * double(Out) / double(It->Resident))
            : 0;
    Dirty += DirtyOut;
    Held -= Out;
    It->Resident -= Out;
    It->Dirty -= DirtyOut;
    It = It->Resident ? std::next(It) : Lru.erase(It);
  }
  return Dirty;
}

void L2Residency::hostWrote(const std::string &Name, uint64_t Bytes,
                            bool Dirty) {
  auto It = find(Name);
  const uint64_t Old = It == Lru.end() ? 0 : It->Resident;
  const uint64_t OldDirty = It == Lru.end() ? 0 : It->Dirty;
  // What is pushed out before the next launch costs it nothing.
  const uint64_t Kept = uint64_t(L2SetRetention * double(Capacity));
  touch(Name, std::max(Old, Bytes),
        Dirty ? std::min(Kept, std::max(OldDirty, Bytes)) : OldDirty);
  evict();
}

DramTraffic L2Residency::launch(const DramTraffic &Cold,
                                const std::string &Code) {
  DramTraffic W = Cold;
  W.Warm = true;
  const uint64_t Footprint = Cold.Footprint + Cold.LaunchBytes;
  const bool Fits = Footprint <= Capacity;
  // The launch's code and parameters (fetched first), then each buffer:
  // what L2 holds of it is found there, unless the launch streams through
  // L2.
  auto Resident =
      [&](const std::string &Name) -> std::pair<uint64_t, uint64_t> {
    auto It = find(Name);
    return It == Lru.end() ? std::make_pair(uint64_t(0), uint64_t(0))
                           : std::make_pair(It->Resident, It->Dirty);
  };
  W.ReadBytes =
      Cold.LaunchBytes - std::min(Cold.LaunchBytes, Resident(Code).first);
  W.WriteBytes = Cold.WriteBytes;
  // Of what the launch writes, the share the flushed L2 keeps dirty at its
  // end (the rest Cold.WriteBytes writes back).
  uint64_t Written = 0;
  for (const auto &[Name, B] : Cold.Buffers)
    Written += B.Written;
  const double Kept =
      Written
          ? 1.0 - double(std::min(Cold.WriteBytes, Written)) / double(Written)
          : 0.0;
  for (const auto &[Name, B] : Cold.Buffers) {
    const auto [Held, Dirty] = Resident(Name);
    W.ReadBytes += B.Read - (Fits ? std::min(B.Read, Held) : 0);
    // Streaming through L2 pushes the buffer's old dirty lines out too.
    if (!Fits)
      W.WriteBytes += Dirty;
    const uint64_t Now = Fits ? std::max(Held, B.Footprint)
                              : uint64_t(double(B.Footprint) *
                                         double(Capacity) / double(Footprint));
    touch(Name, Now, uint64_t(double(B.Written) * Kept) + (Fits ? Dirty : 0));
  }
  touch(Code, Cold.LaunchBytes, 0);
  W.WriteBytes += evict();
  return W;
}

} // namespace gmem
