//===- memory_ops.h - What the memory instructions share ------*- C++ -*-===//
//
// Resolving a lane's address to its bytes in a state space, with their
// known bits, and gathering a warp's lanes into the requests the pipeline
// prices (ops_memory.cpp, ops_tensor.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_EXECUTOR_MEMORY_OPS_H
#define GMEM_EXECUTOR_MEMORY_OPS_H
#include "launch.h"
#include "machine.h"

namespace gmem::exec {

/// Where one lane's bytes are.
struct Place {
  uint8_t *Data = nullptr; ///< Null: no bytes (unknown value, or a fault).
  Region *R = nullptr;     ///< Global memory: the region.
  KnownBits *Bits = nullptr;
  uint64_t BitOff = 0;
  uint8_t *KnownBytes = nullptr;     ///< Parameter areas: a byte per byte.
  MemSpace Space = MemSpace::Global; ///< Resolved (never Generic).
  uint64_t EventAddr = 0;            ///< Global address, or shared offset.
  const char *Fault = nullptr;
  /// A global address outside every allocation the program made: a GPU
  /// may fault or touch whatever is mapped there (Launch::stray).
  bool Stray = false;
};

/// A lane's address: its base plus the instruction's offset, modulo 2^32
/// where the base is a 32-bit register.
inline uint64_t addressOf(const XInstr &I, uint64_t Base) {
  const uint64_t A = Base + uint64_t(I.Off);
  return I.Addr32 ? uint32_t(A) : A;
}

/// Lane L's N bytes at address A of space S (a generic address by the
/// window it falls in).
Place resolve(Ctx &C, MemSpace S, uint64_t A, unsigned N, unsigned L);
bool placeKnown(const Place &P, unsigned N);
void setPlaceKnown(const Place &P, unsigned N, bool Known);
/// V of Width bytes, sign-extended when Signed.
uint64_t extend(uint64_t V, unsigned Width, bool Signed);
/// A shared load read N bytes at offset A that hold no known value: kept
/// until the block's next barrier (Block::UnknownReader).
void readUnknownShared(Ctx &C, const XInstr &I, uint64_t A, unsigned N);
/// A shared store wrote N bytes at A: a race where another warp read them
/// unknown since the last barrier.
void wroteShared(Ctx &C, const XInstr &I, uint64_t A, unsigned N);

/// Stops the launch: lane L's address A is a fault (P.Fault says why).
void faultAt(Ctx &C, const XInstr &I, const Place &P, unsigned L, uint64_t A);
/// Lane L's N bytes at A of space S for instruction I, checked as every
/// memory instruction checks them: where the address is known, a fault
/// stops the launch (false) and a stray address is reported; the region is
/// noted as read and/or written (Launch::touched).
bool reach(Ctx &C, const XInstr &I, MemSpace S, uint64_t A, unsigned N,
           unsigned L, bool AddrKnown, bool Reads, bool Writes, Place &P);

/// The lanes of one instruction by resolved space, for events.
struct Requests {
  uint64_t Addr[2][32];
  uint64_t LocalAddr[32];    ///< Elsewhere's lanes: offsets in their space.
  uint32_t Mask[2] = {0, 0}; ///< Global, shared.
  uint32_t Unknown[2] = {0, 0};
  uint32_t Elsewhere = 0; ///< Lanes in local or parameter memory.
  bool Spin = false, Poll = false, Lookback = false;
  const uint64_t *Partner = nullptr; ///< MemRequest::Partner.
  bool Bypass = false;

  void add(const Place &P, unsigned L, bool AddrKnown) {
    const int K = P.Space == MemSpace::Global   ? 0
                  : P.Space == MemSpace::Shared ? 1
                                                : -1;
    if (K < 0) {
      Elsewhere |= 1u << L;
      LocalAddr[L] = P.EventAddr;
      return;
    }
    Addr[K][L] = P.EventAddr;
    Mask[K] |= 1u << L;
    if (!AddrKnown)
      Unknown[K] |= 1u << L;
  }
  void emit(Ctx &C, const XInstr &I, unsigned Size, uint8_t Part = 0) {
    RequestSink *S = C.L->Sink;
    if (!S || I.Access < 0)
      return;
    const bool Generic = I.Space == MemSpace::Generic;
    MemRequest R;
    R.Fn = C.Fr->Fn;
    R.Instr = uint32_t(&I - C.Fr->Fn->Code.data());
    R.Op = I.Mem;
    R.Size = Size;
    R.Block = C.B->Linear;
    R.Warp = C.W->Id;
    R.Spin = Spin;
    R.Poll = Poll;
    R.Lookback = Lookback;
    R.Partner = Partner;
    R.Bypass = Bypass;
    for (int K = 0; K < 2; ++K) {
      if (!Mask[K])
        continue;
      R.Space = K ? MemSpace::Shared : MemSpace::Global;
      R.Mask = Mask[K];
      R.Unknown = Unknown[K];
      R.Uncertain = C.Taint & Mask[K];
      R.Addr = Addr[K];
      // A generic instruction's shared lanes are its shared-side access.
      R.Part = Generic ? uint8_t(K) : Part;
      S->request(R);
    }
    if (!Generic)
      return;
    R.Unknown = 0;
    if (Mask[1]) { // The shared side's request was a generic one.
      R.Space = MemSpace::Shared;
      R.Mask = Mask[1];
      R.Uncertain = C.Taint & R.Mask;
      R.Addr = nullptr;
      R.Part = 1;
      S->elsewhere(R);
    }
    if (Elsewhere) { // Space Local: no request was made at all.
      R.Space = Mask[0] || Mask[1] ? MemSpace::Global : MemSpace::Local;
      R.Mask = Elsewhere;
      R.Uncertain = C.Taint & R.Mask;
      R.Addr = LocalAddr;
      R.Part = 0;
      S->elsewhere(R);
    }
  }
};

} // namespace gmem::exec

#endif // GMEM_EXECUTOR_MEMORY_OPS_H
