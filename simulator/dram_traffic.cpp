//===- dram_traffic.cpp - What a launch moves between L2 and DRAM ---------===//
//
// Per buffer (a recorded allocation, shared by every parameter that points
// into it): the bytes of its load and store sectors, and its size from the
// point the parameter points to. A buffer's reads from DRAM are the fewer
// of its load bytes (sectors that may be alone in their 64-byte block
// counted twice) and that size; its footprint the fewer of everything it
// moved and that size. A launch small enough for l2_traffic.cpp to run
// every block has its reads counted instead: the distinct 64-byte blocks
// of the whole launch (blocks sharing data, as a merge of partial
// histograms or halos, read it once). Without sizes (launches read from
// the host code, not recorded) the load and store bytes are only upper
// bounds.
//
//===----------------------------------------------------------------------===//
#include "dram_traffic.h"
#include "arch.h"

#include <algorithm>
#include <map>

namespace gmem {

namespace {

struct Buffer {
  uint64_t Loaded = 0, Stored = 0;
  /// Load bytes of sectors that may sit alone in their 64-byte block: L2
  /// fetches DRAM in pairs of sectors, so a sparse read costs twice its
  /// sectors (an H200 read 0.56 MB for llm.c crossentropy_forward's 0.29
  /// MB of lanes 201 KB apart).
  uint64_t Lone = 0;
  std::optional<uint64_t> Size; ///< From the parameter's pointer on.
};

uint64_t roundUp(uint64_t V, uint64_t To) { return (V + To - 1) / To * To; }

} // namespace

DramTraffic predictDram(const LaunchResult &R, const MemorySystem &M,
                        const SassAccount &Sass) {
  DramTraffic T;
  T.Board = M.Product;
  T.L2Bytes = M.L2Bytes;
  T.DramBytesPerSecond = M.DramBytesPerSecond;
  if (!R.Incomplete.empty() || !R.K) {
    T.Why = "the launch's accesses are not all known";
    return T;
  }
  if (R.K->LaunchesKernels) {
    T.Why = launchesKernelsWhy();
    return T;
  }
  // Set with a reason that leaves no bound either.
  bool Unbounded = false;
  // Texture fetches, surface accesses and bulk copies move global memory
  // that no access prices.
  if (Sass.Read && (Sass.Texture || Sass.Bulk)) {
    T.Why = "its texture, surface or bulk-copy instructions move global "
            "memory gmem does not price";
    Unbounded = true;
  }
  const ArchRules &Rules = archOrDefault(R.Arch);
  std::map<std::string, Buffer> Buffers;
  for (const Access &A : R.K->Accesses) {
    if (A.Sp != Space::Global)
      continue;
    const AccessStats &S = R.PerAccess[size_t(A.Id)];
    if (!S.Requests)
      continue;
    // A copy bypassing L1 whose L1 count is only bounded: the sectors its
    // lanes read are known, and those are what L2 fetches.
    const std::optional<uint64_t> Units = S.trafficUnits();
    if (!Units && !Unbounded) {
      T.Why = "the sectors of " + A.Text + " at " + locText(A.Loc) +
              " are not known";
      Unbounded = true;
    }
    int P = -1;
    for (size_t I = 0; I < R.K->Params.size(); ++I)
      if (R.K->Params[I].Name == A.Array)
        P = int(I);
    std::string Name = "?" + A.Array;
    std::optional<uint64_t> Size;
    if (P >= 0 && size_t(P) < R.L.Args.size() &&
        R.L.Args[size_t(P)].Kind == ArgValue::Pointer) {
      const ArgValue &V = R.L.Args[size_t(P)];
      Name = V.Allocation;
      auto It = R.L.Memory.find(V.Allocation);
      if (It != R.L.Memory.end() && It->second.Bytes >= V.AlignOffset)
        Size = roundUp(It->second.Bytes - V.AlignOffset, 32);
    }
    if (!Size && T.Why.empty())
      T.Why = "the size of the buffer " + A.Text + " reads or writes is not " +
              (R.L.Memory.empty()
                   ? "known (the launch was not recorded)"
                   : "known (its pointer is not a kernel parameter's value)");
    Buffer &B = Buffers[Name];
    if (Size)
      B.Size = std::max(B.Size.value_or(0), *Size);
    const uint64_t Bytes = Units.value_or(S.Units) * Rules.unitBytes(A);
    if (A.Kind != AccessKind::Store) {
      B.Loaded += Bytes; // An atomic reads and writes its sectors.
      if (!(S.HasStride && S.Stride < 64 && S.Stride > -64))
        B.Lone += Bytes;
    }
    if (A.Kind != AccessKind::Load)
      B.Stored += Bytes;
  }
  T.LaunchBytes = launchReadBytes(Sass);
  T.ReadBytes = T.LaunchBytes;
  uint64_t WrittenFootprint = 0;
  for (const auto &[Name, B] : Buffers) {
    const uint64_t Cap = B.Size.value_or(UINT64_MAX);
    DramTraffic::BufferBytes &Out = T.Buffers[Name];
    Out.Read = std::min(B.Loaded + B.Lone, Cap);
    Out.Written = std::min(B.Stored, Cap);
    Out.Footprint = std::min(B.Loaded + B.Stored, Cap);
    T.ReadBytes += Out.Read;
    WrittenFootprint += Out.Written;
    T.Footprint += Out.Footprint;
  }
  T.Known = T.Why.empty();
  // A launch run block by block in full: its 64-byte blocks counted once
  // over the launch, however many blocks share them (each buffer's share
  // scaled alike).
  if (T.Known && R.L2 && R.L2->Known && R.L2->LaunchLoadBlocks) {
    const uint64_t PerBuffer = T.ReadBytes - T.LaunchBytes;
    T.ReadBytes = T.LaunchBytes + 64 * *R.L2->LaunchLoadBlocks;
    T.ReadCounted = true;
    if (PerBuffer)
      for (auto &[Name, B] : T.Buffers)
        B.Read = uint64_t(double(B.Read) * double(T.ReadBytes - T.LaunchBytes) /
                          double(PerBuffer));
  }
  if (!T.Known) {
    // Every L1 sector fetches at most one 64-byte block from DRAM, and
    // every stored sector is written back at most once per store.
    T.Bounded = !Unbounded;
    T.WriteBytes = 0;
    for (const auto &[Name, B] : Buffers)
      T.WriteBytes += B.Stored;
    return T;
  }
  // Written lines beyond what L2 keeps go back to DRAM during the launch.
  const double Kept = L2WriteRetention * double(M.L2Bytes);
  const double Share =
      T.Footprint ? std::max(0.0, 1.0 - Kept / double(T.Footprint)) : 0.0;
  T.WriteBytes = uint64_t(double(WrittenFootprint) * Share);
  return T;
}

} // namespace gmem
