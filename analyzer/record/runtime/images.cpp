//===- images.cpp - The bytes of the allocations a launch is given --------===//
//
// Kernels do not run here, but the host's own writes do: what a launch's
// pointer arguments point at is, unless an earlier kernel wrote it, what a
// GPU would read. Each such allocation is saved at the launch, once per
// distinct content (files named by a hash of the bytes, in the folder
// GMEM_RECORD_MEMORY names), so that the analyzer can read index arrays,
// histogram input and the like. Which images it may trust is its call: it
// knows which kernels write which parameters.
//
//===----------------------------------------------------------------------===//
#include "images.h"
#include "functional.h"
#include "recorder.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>

namespace gmem::rec {

namespace {

// Large buffers are not saved: the analyzer then treats their contents as
// unknown, as without a recording.
constexpr size_t MaxImage = size_t(64) << 20, MaxTotal = size_t(512) << 20;

struct Images {
  const char *Dir = std::getenv("GMEM_RECORD_MEMORY");
  size_t Written = 0;
  /// Allocation id -> the hash and file of its last saved content.
  std::map<uint64_t, std::pair<uint64_t, std::string>> Last;
};

Images &images() {
  static Images *I = new Images();
  return *I;
}

uint64_t hashOf(const unsigned char *P, size_t N) {
  uint64_t H = 0x9e3779b97f4a7c15ull ^ N;
  size_t I = 0;
  for (; I + 8 <= N; I += 8) {
    uint64_t W;
    std::memcpy(&W, P + I, 8);
    H = (H ^ W) * 0xff51afd7ed558ccdull;
    H ^= H >> 32;
  }
  for (; I < N; ++I)
    H = (H ^ P[I]) * 0x100000001b3ull;
  return H;
}

std::string hex64(uint64_t V) {
  static const char *Digits = "0123456789abcdef";
  std::string S(16, '0');
  for (int I = 15; I >= 0; --I, V >>= 4)
    S[I] = Digits[V & 15];
  return S;
}

/// Saves the allocation at Base; returns the file name, or "" when not.
std::string save(uintptr_t Base, Allocation &A) {
  Images &I = images();
  auto Last = I.Last.find(A.Id);
  if (Last != I.Last.end() && !A.Changed && !std::strcmp(A.Kind, "device"))
    return Last->second.second;
  const auto *P = reinterpret_cast<const unsigned char *>(Base);
  const uint64_t H = hashOf(P, A.Bytes);
  const std::string Name = hex64(H) + "-" + std::to_string(A.Bytes) + ".bin";
  if (Last != I.Last.end() && Last->second.first == H) {
    A.Changed = false;
    return Name;
  }
  I.Last.erase(A.Id); // Its saved image is out of date.
  if (I.Written + A.Bytes > MaxTotal)
    return "";
  const std::string Path = std::string(I.Dir) + "/" + Name;
  if (FILE *F = std::fopen(Path.c_str(), "wb")) {
    const bool Ok = std::fwrite(P, 1, A.Bytes, F) == A.Bytes;
    if (std::fclose(F) == 0 && Ok) {
      I.Written += A.Bytes;
      I.Last[A.Id] = {H, Name};
      A.Changed = false;
      return Name;
    }
  }
  return "";
}

} // namespace

std::vector<uintptr_t> argumentAllocations(void **Args,
                                           const std::vector<unsigned> &Sizes) {
  std::vector<uintptr_t> Bases;
  for (size_t I = 0; Args && I < Sizes.size(); ++I) {
    if (Sizes[I] != sizeof(void *) || !Args[I])
      continue;
    void *P;
    std::memcpy(&P, Args[I], sizeof P);
    if (const auto *In = allocationOf(P))
      if (std::find(Bases.begin(), Bases.end(), In->first) == Bases.end())
        Bases.push_back(In->first);
  }
  return Bases;
}

std::string imagesField(const std::vector<uintptr_t> &Bases) {
  if (!images().Dir || Bases.empty())
    return "";
  std::string Field = ",\"images\":[";
  bool First = true;
  for (uintptr_t B : Bases) {
    // Freed since a graph captured it: nothing to save.
    auto It = recorder().Allocs.find(B);
    if (It == recorder().Allocs.end() || It->second.Bytes > MaxImage)
      continue;
    const std::string Name = save(B, It->second);
    if (Name.empty())
      continue;
    Field += First ? "" : ",";
    Field += "[" + std::to_string(It->second.Id) + ",\"" + Name + "\"";
    // Functional recording knows which bytes are what a GPU holds.
    if (functional())
      Field += allKnown(B) && settled(B) ? ",1" : ",0";
    Field += "]";
    First = false;
  }
  return Field + "]";
}

} // namespace gmem::rec
