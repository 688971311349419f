//===- memory.cpp - Device memory as the executor sees it -------------------===//
#include "memory.h"

#include <algorithm>

namespace gmem::exec {

void KnownBits::setRange(uint64_t Off, uint64_t N, bool Known) {
  uint64_t I = Off, E = Off + N;
  for (; I < E && (I & 63); ++I)
    set(I, 1, Known);
  if (I + 64 <= E) {
    const uint64_t Words = (E - I) >> 6;
    std::fill_n(Bits.begin() + long(I >> 6), Words,
                Known ? ~uint64_t(0) : uint64_t(0));
    I += Words << 6;
  }
  for (; I < E; ++I)
    set(I, 1, Known);
}

bool KnownBits::allKnown(uint64_t Bytes) const {
  for (uint64_t W = 0; W < Bytes / 64; ++W)
    if (Bits[W] != ~uint64_t(0))
      return false;
  for (uint64_t I = Bytes / 64 * 64; I < Bytes; ++I)
    if (!get(I))
      return false;
  return true;
}

static void insertSorted(std::vector<Region *> &Sorted, Region *R) {
  auto It = std::lower_bound(
      Sorted.begin(), Sorted.end(), R,
      [](const Region *A, const Region *B) { return A->Base < B->Base; });
  Sorted.insert(It, R);
}

Region &GlobalMemory::addOwned(uint64_t Base, uint64_t Size, std::string Name,
                               bool Known) {
  auto R = std::make_unique<Region>();
  R->Base = Base;
  R->Size = Size;
  R->Owned = std::shared_ptr<uint8_t[]>(new uint8_t[Size ? Size : 1]());
  R->Data = R->Owned.get();
  R->OwnedKnown = std::make_shared<KnownBits>(Size, Known);
  R->Known = R->OwnedKnown.get();
  R->AllKnown = Known;
  R->Name = std::move(Name);
  Regions.push_back(std::move(R));
  insertSorted(Sorted, Regions.back().get());
  return *Regions.back();
}

Region &GlobalMemory::allocate(uint64_t Bytes, uint64_t Align,
                               std::string Name) {
  const uint64_t Step = std::max<uint64_t>(Align, 256);
  const uint64_t Base = (NextFree + Step - 1) / Step * Step;
  NextFree = Base + (Bytes + 255) / 256 * 256;
  return addOwned(Base, Bytes, std::move(Name), false);
}

Region &GlobalMemory::addExternal(uint64_t Base, uint64_t Size, uint8_t *Data,
                                  KnownBits *Known, std::string Name) {
  auto R = std::make_unique<Region>();
  R->Base = Base;
  R->Size = Size;
  R->Data = Data;
  R->Known = Known;
  R->AllKnown = Known && Known->allKnown(Size);
  R->Name = std::move(Name);
  Regions.push_back(std::move(R));
  insertSorted(Sorted, Regions.back().get());
  return *Regions.back();
}

void GlobalMemory::remove(uint64_t Base) {
  for (size_t I = 0; I < Sorted.size(); ++I)
    if (Sorted[I]->Base == Base) {
      Region *R = Sorted[I];
      Sorted.erase(Sorted.begin() + long(I));
      for (size_t J = 0; J < Regions.size(); ++J)
        if (Regions[J].get() == R) {
          Regions.erase(Regions.begin() + long(J));
          break;
        }
      return;
    }
}

Region *GlobalMemory::find(uint64_t Addr, unsigned N) {
  auto It = std::upper_bound(
      Sorted.begin(), Sorted.end(), Addr,
      [](uint64_t A, const Region *R) { return A < R->Base; });
  if (It == Sorted.begin())
    return nullptr;
  Region *R = *--It;
  if (Addr - R->Base >= R->Size || Addr + N - R->Base > R->Size)
    return nullptr;
  return R;
}

uint64_t GlobalMemory::distance(uint64_t Addr) const {
  auto It =
      std::upper_bound(Sorted.begin(), Sorted.end(), Addr,
                       [](uint64_t A, const Region *R) { return A < R->Base; });
  uint64_t D = ~uint64_t(0);
  if (It != Sorted.end())
    D = (*It)->Base - Addr;
  if (It != Sorted.begin()) {
    const Region *R = *std::prev(It);
    if (Addr - R->Base < R->Size)
      return 0;
    D = std::min(D, Addr - (R->Base + R->Size) + 1);
  }
  return D;
}

} // namespace gmem::exec
