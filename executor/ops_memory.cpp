//===- ops_memory.cpp - ld, st, atom, red, cp.async and their kin
//-----------===//
//
// Each lane's address is resolved in its state space (a generic address by
// the window it falls in), its bytes read or written with their known bits,
// and every global or shared instruction is one request to the launch's
// sink, with the lanes' addresses. A lane whose address is known but lies
// outside every region faults, as on the GPU (the launch stops, naming the
// instruction); a lane whose address is unknown reads an unknown value.
//
//===----------------------------------------------------------------------===//
#include "decode.h"
#include "float_bits.h"
#include "lanes.h"
#include "launch.h"
#include "memory_ops.h"

#include <algorithm>

namespace gmem::exec {

/// Global addresses below this fault on every GPU: no allocation, of the
/// device's or the host's (whose kernel keeps them unmapped:
/// mmap_min_addr), lies there. A null pointer's accesses land there.
constexpr uint64_t NullPages = 65536;
const char *const NullPageFault =
    "an address in the first 64 KiB, where no allocation lies (a null "
    "pointer's): the GPU stops the launch with an illegal address";

/// A GPU maps its allocations (rounded to pages of at most 2 MiB) and the
/// driver's own memory; an address this far from every allocation is a
/// runaway index (globalCopy's wrapped loop bound walks on without end):
/// the H200 faulted at 16 MiB steps already (tests/data/measured/faults).
/// Nearer ones may land on something mapped and are only reported.
constexpr uint64_t FarAway = uint64_t(1) << 30;
const char *const FarFault =
    "an address more than 1 GiB from every allocation the program made, "
    "where none of its memory is mapped: the GPU stops the launch with an "
    "illegal address (unless memory of the driver's own lies there)";

/// Why a global access outside every allocation faults, or null where a
/// GPU may survive it (a stray access).
const char *outsideFault(const GlobalMemory &M, uint64_t A) {
  if (A < NullPages)
    return NullPageFault;
  return M.distance(A) > FarAway ? FarFault : nullptr;
}

Place resolve(Ctx &C, MemSpace S, uint64_t A, unsigned N, unsigned L) {
  Place P;
  if (S == MemSpace::Generic) {
    if (A - SharedWindow < WindowSize)
      S = MemSpace::Shared, A -= SharedWindow;
    else if (A - LocalWindow < WindowSize)
      S = MemSpace::Local, A -= LocalWindow;
    else if (A - ParamWindow < WindowSize)
      S = MemSpace::KernelParam, A -= ParamWindow;
    else
      S = MemSpace::Global;
  }
  if (S == MemSpace::Const)
    S = MemSpace::Global;
  P.Space = S;
  P.EventAddr = A;
  switch (S) {
  case MemSpace::Global:
    if (Region *R = C.L->Mem.find(A, N)) {
      P.R = R;
      P.Data = R->Data + (A - R->Base);
      P.Bits = R->Known;
      P.BitOff = A - R->Base;
    } else if (!C.L->Mem.Lenient) {
      P.Fault = outsideFault(C.L->Mem, A);
      P.Stray = !P.Fault;
    }
    break;
  case MemSpace::Shared:
    if (A + N <= C.B->Shared.size() && A + N >= A) {
      P.Data = C.B->Shared.data() + A;
      P.Bits = &C.B->SharedKnown;
      P.BitOff = A;
    } else {
      P.Fault = "a shared address beyond the block's shared memory";
    }
    break;
  case MemSpace::Local:
    if (A + N <= C.W->LocalStride && A + N >= A) {
      const uint64_t O = L * C.W->LocalStride + A;
      P.Data = C.W->Local.data() + O;
      P.Bits = &C.W->LocalKnown;
      P.BitOff = O;
    } else {
      P.Stray = true; // Beyond the thread's stack: whatever lies there.
    }
    break;
  case MemSpace::KernelParam:
    if (A + N <= C.L->KernelParams.size() && A + N >= A) {
      P.Data = C.L->KernelParams.data() + A;
      P.Bits = &C.L->KernelParamsKnown;
      P.BitOff = A;
    } else {
      P.Fault = "a parameter address beyond the kernel's parameters";
    }
    break;
  case MemSpace::Param: {
    const unsigned PB = C.Fr->Fn->ParamBytes;
    if (A + N <= PB) {
      P.Data = C.Fr->Params.data() + size_t(L) * PB + A;
      P.KnownBytes = C.Fr->ParamKnown.data() + size_t(L) * PB + A;
    } else {
      P.Fault = "a parameter address beyond the function's parameters";
    }
    break;
  }
  default:
    break;
  }
  return P;
}

bool placeKnown(const Place &P, unsigned N) {
  if (P.R && P.R->AllKnown)
    return true;
  if (P.Bits)
    return P.Bits->all(P.BitOff, N);
  if (P.KnownBytes) {
    for (unsigned I = 0; I < N; ++I)
      if (!P.KnownBytes[I])
        return false;
    return true;
  }
  return false;
}

void setPlaceKnown(const Place &P, unsigned N, bool Known) {
  if (P.R && !Known)
    P.R->AllKnown = false;
  if (P.Bits)
    P.Bits->set(P.BitOff, N, Known);
  else if (P.KnownBytes)
    std::memset(P.KnownBytes, Known ? 1 : 0, N);
}

uint64_t extend(uint64_t V, unsigned Width, bool Signed) {
  if (!Signed || Width >= 8)
    return V;
  const unsigned Shift = 64 - 8 * Width;
  return uint64_t(int64_t(V << Shift) >> Shift);
}

/// Under relocatable device code (Program::LinkerPlacesShared), whether a
/// shared access past the block's shared memory as gmem lays it out may lie
/// inside it where nvlink put the variable I indexes (another variable's
/// bytes then, or a fault: the GPU's layout decides). A dynamic array
/// starts after every static one in any order: its overrun is a fault.
static bool elsewhereUnderNvlink(Ctx &C, const XInstr &I, uint64_t A,
                                 unsigned N) {
  const Program &P = C.L->Prog;
  const XFunction &F = *C.Fr->Fn;
  if (!P.LinkerPlacesShared || I.Access < 0 ||
      size_t(I.Access) >= F.AccessOrigin.size())
    return false;
  const int32_t O = F.AccessOrigin[size_t(I.Access)];
  if (O < 0 || F.Origins[size_t(O)].rfind("shared:", 0) != 0)
    return false;
  // A variable of the function's body, or of its module (decode.cpp's
  // keys).
  const std::string Name = F.Origins[size_t(O)].substr(7),
                    Module = std::to_string(F.ModuleIndex) + ":";
  int V = P.sharedIndex(Module + F.Name + "/" + Name);
  if (V < 0)
    V = P.sharedIndex(Module + Name);
  if (V < 0 || size_t(V) >= C.L->Layout.Offset.size() ||
      P.shared()[size_t(V)].Dynamic)
    return false;
  // Its offset from the variable's start, and where the variable may lie.
  const int64_t Off = int64_t(A - C.L->Layout.Offset[size_t(V)]);
  const int64_t Window = int64_t(C.B->Shared.size()),
                Bytes = int64_t(P.shared()[size_t(V)].Bytes);
  return Off >= -(Window - Bytes) && Off + int64_t(N) <= Window;
}

/// Lane L's access of N bytes at shared offset A, outside the block's
/// shared memory, is a stray under relocatable device code (its store is
/// not made and the block's shared bytes are no longer known).
static bool sharedStray(Ctx &C, const XInstr &I, unsigned L, uint64_t A,
                        unsigned N, bool Store) {
  if (!elsewhereUnderNvlink(C, I, A, N))
    return false;
  C.L->stray(I, *C.W, L, A, Store, /*Shared=*/true);
  if (Store)
    C.B->SharedKnown.reset(C.B->Shared.size(), false);
  return true;
}

void faultAt(Ctx &C, const XInstr &I, const Place &P, unsigned L, uint64_t A) {
  if (P.Fault == FarFault && !C.L->Stop)
    C.L->Out.Runaway = true;
  char Hex[32];
  std::snprintf(Hex, sizeof Hex, "0x%llx", (unsigned long long)A);
  C.L->fail(I,
            std::string("lane ") + std::to_string(L) + " of warp " +
                std::to_string(C.W->Id) + " of block " +
                std::to_string(C.B->Linear) + " reads or writes " + Hex + ", " +
                P.Fault,
            DeviceFault::IllegalAddress);
}

bool reach(Ctx &C, const XInstr &I, MemSpace S, uint64_t A, unsigned N,
           unsigned L, bool AddrKnown, bool Reads, bool Writes, Place &P) {
  P = resolve(C, S, A, N, L);
  if (P.Fault && P.Space == MemSpace::Shared && AddrKnown &&
      !(C.Taint >> L & 1) && sharedStray(C, I, L, P.EventAddr, N, Writes)) {
    P.Fault = nullptr;
    return true;
  }
  // A lane on a path an unknown value chose (the other side of a fork) may
  // not run this on a GPU: its bad address is unknown, not a fault.
  if (P.Fault && AddrKnown && !(C.Taint >> L & 1)) {
    faultAt(C, I, P, L, A);
    return false;
  }
  if (P.Stray && AddrKnown && !(C.Taint >> L & 1))
    C.L->stray(I, *C.W, L, A, Writes);
  if (Reads)
    C.L->touched(P.R, false);
  if (Writes)
    C.L->touched(P.R, true);
  return true;
}

void readUnknownShared(Ctx &C, const XInstr &I, uint64_t A, unsigned N) {
  // A volatile or acquire load is how warps wait for each other's flags.
  if (I.Ordered)
    return;
  Block &B = *C.B;
  const uint64_t End =
      std::min<uint64_t>((A + N + 3) / 4, B.UnknownReader.size());
  for (uint64_t Word = A / 4; Word < End; ++Word)
    if (!B.UnknownReader[Word]) {
      B.UnknownReader[Word] = uint16_t(C.W->Id + 1);
      B.UnknownReadLine[Word] = I.Src ? I.Src->PtxLine : 0;
      B.UnknownReadWords.push_back(uint32_t(Word));
    }
}

void wroteShared(Ctx &C, const XInstr &I, uint64_t A, unsigned N) {
  Block &B = *C.B;
  const uint64_t End =
      std::min<uint64_t>((A + N + 3) / 4, B.UnknownReader.size());
  for (uint64_t Word = A / 4; Word < End; ++Word) {
    const unsigned Reader = B.UnknownReader[Word];
    if (Reader && Reader != C.W->Id + 1) {
      C.L->sharedRace(I, *C.W, Reader - 1, 4 * Word, B.UnknownReadLine[Word]);
      return;
    }
  }
}

namespace {

/// Emits the request of a scalar global or shared access.
void emitScalar(Ctx &C, const XInstr &I, bool Shared, const uint64_t *Addr,
                uint32_t Unknown) {
  RequestSink *S = C.L->Sink;
  if (!S || I.Access < 0)
    return;
  MemRequest Rq;
  Rq.Fn = C.Fr->Fn;
  Rq.Instr = uint32_t(&I - C.Fr->Fn->Code.data());
  Rq.Op = I.Mem;
  Rq.Space = Shared ? MemSpace::Shared : MemSpace::Global;
  Rq.Size = I.Width;
  Rq.Mask = C.Active;
  Rq.Unknown = Unknown;
  Rq.Uncertain = C.Taint & C.Active;
  Rq.Addr = Addr;
  Rq.Block = C.B->Linear;
  Rq.Warp = C.W->Id;
  S->request(Rq);
}

/// A scalar load of global or shared memory of W bytes: the common case.
/// When every active lane's address is known and inside one region (or the
/// block's shared memory), the lanes are read in one tight loop.
template <bool Shared, unsigned W> void loadScalar(Ctx &C, const XInstr &I) {
  using T = std::conditional_t<
      W == 1, uint8_t,
      std::conditional_t<W == 2, uint16_t,
                         std::conditional_t<W == 4, uint32_t, uint64_t>>>;
  const uint64_t *Base = C.lanes(I.Addr);
  const uint32_t Active = C.Active;
  const uint32_t Unknown = Active & ~C.known(I.Addr);
  const bool Signed = I.Sub & 1;
  uint64_t *D = C.lanes(I.D[0]);
  uint64_t Addr[32];
  uint64_t Lo = ~uint64_t(0), Hi = 0;
  forLanes(Active, [&](unsigned L) {
    const uint64_t A = addressOf(I, Base[L]);
    Addr[L] = A;
    Lo = std::min(Lo, A);
    Hi = std::max(Hi, A);
  });
  uint8_t *Data = nullptr;
  uint64_t From = 0, Size = 0;
  KnownBits *Bits = nullptr;
  bool All = false;
  if (Shared) {
    Data = C.B->Shared.data();
    Size = C.B->Shared.size();
    Bits = &C.B->SharedKnown;
  } else if (Region *R = C.L->Mem.find(Lo, W)) {
    Data = R->Data;
    From = R->Base;
    Size = R->Size;
    Bits = R->Known;
    All = R->AllKnown;
    C.L->touched(R, false);
  }
  uint32_t Known = 0;
  if (!Unknown && Data && Lo >= From && Hi - From + W <= Size) {
    forLanes(Active, [&](unsigned L) {
      T V;
      std::memcpy(&V, Data + (Addr[L] - From), W);
      D[L] = Signed ? uint64_t(int64_t(std::make_signed_t<T>(V))) : V;
    });
    if (All)
      Known = Active;
    else
      forLanes(Active, [&](unsigned L) {
        Known |= uint32_t(Bits->all(Addr[L] - From, W)) << L;
      });
    if (Shared)
      forLanes(Active & ~Known & ~C.Taint,
               [&](unsigned L) { readUnknownShared(C, I, Addr[L], W); });
  } else {
    // Lanes in several regions, outside every one, or of unknown address.
    Region *R = nullptr;
    std::vector<uint8_t> &Sh = C.B->Shared;
    for (uint32_t M = Active; M; M &= M - 1) {
      const unsigned L = ctz(M);
      const uint64_t A = Addr[L];
      const bool AddrKnown = !(Unknown >> L & 1);
      uint64_t Val = 0;
      if (Shared) {
        if (A + W <= Sh.size() && A + W >= A) {
          std::memcpy(&Val, Sh.data() + A, W);
          if (AddrKnown && C.B->SharedKnown.all(A, W))
            Known |= 1u << L;
          else if (AddrKnown && !(C.Taint >> L & 1))
            readUnknownShared(C, I, A, W);
        } else if (AddrKnown && !(C.Taint >> L & 1) &&
                   !sharedStray(C, I, L, A, W, false)) {
          Place P;
          P.Fault = "a shared address beyond the block's shared memory";
          return faultAt(C, I, P, L, A);
        }
      } else {
        if (!R || A - R->Base >= R->Size || A + W - R->Base > R->Size) {
          R = C.L->Mem.find(A, W);
          C.L->touched(R, false);
        }
        if (R) {
          std::memcpy(&Val, R->Data + (A - R->Base), W);
          if (AddrKnown && (R->AllKnown || R->Known->all(A - R->Base, W)))
            Known |= 1u << L;
        } else if (AddrKnown && !C.L->Mem.Lenient && !(C.Taint >> L & 1)) {
          if (const char *Why = outsideFault(C.L->Mem, A)) {
            Place P;
            P.Fault = Why;
            return faultAt(C, I, P, L, A);
          }
          C.L->stray(I, *C.W, L, A, false);
        }
      }
      D[L] = extend(Val, W, Signed);
    }
  }
  C.setKnown(I.D[0], Known);
  emitScalar(C, I, Shared, Addr, Unknown);
}

void loadH(Ctx &C, const XInstr &I) {
  const uint64_t *Base = C.lanes(I.Addr);
  const uint32_t BaseKnown = C.known(I.Addr);
  const unsigned W = I.Width, N = W * I.Vec;
  const bool Signed = I.Sub & 1;
  uint32_t Known[4] = {0, 0, 0, 0};
  Requests Req;
  uint64_t *D[4];
  for (unsigned V = 0; V < I.Vec; ++V)
    D[V] = C.lanes(I.D[V]);
  for (uint32_t M = C.Active; M; M &= M - 1) {
    const unsigned L = unsigned(ctz(M));
    const uint64_t A = addressOf(I, Base[L]);
    const bool AddrKnown = BaseKnown >> L & 1;
    Place P;
    if (!reach(C, I, I.Space, A, N, L, AddrKnown, true, false, P))
      return;
    Req.add(P, L, AddrKnown);
    if (P.Space == MemSpace::Shared && P.Data && AddrKnown &&
        !(C.Taint >> L & 1) && !placeKnown(P, N))
      readUnknownShared(C, I, P.EventAddr, N);
    for (unsigned V = 0; V < I.Vec; ++V) {
      uint64_t Val = 0;
      if (P.Data) {
        std::memcpy(&Val, P.Data + V * W, W);
        Val = extend(Val, W, Signed);
        Place Part = P;
        Part.BitOff += V * W;
        if (Part.KnownBytes)
          Part.KnownBytes += V * W;
        if (AddrKnown && placeKnown(Part, W))
          Known[V] |= 1u << L;
      }
      D[V][L] = Val;
    }
  }
  for (unsigned V = 0; V < I.Vec; ++V)
    C.setKnown(I.D[V], Known[V]);
  if (I.Ordered) {
    // A poll that reads what the warp's last poll of it read is a spin.
    uint64_t H = 0x9e3779b97f4a7c15ull;
    forLanes(C.Active,
             [&](unsigned L) { H = (H ^ D[0][L]) * 0x100000001b3ull; });
    forLanes(C.Active, [&](unsigned L) {
      H = (H ^ (addressOf(I, Base[L]))) * 0x100000001b3ull;
    });
    Req.Spin = C.W->LastPoll == &I && C.W->LastPollHash == H;
    const uint32_t Index = uint32_t(&I - C.Fr->Fn->Code.data());
    Req.Poll = Index < C.Fr->Fn->InLoop.size() && C.Fr->Fn->InLoop[Index];
    const LaunchConfig &LC = C.L->Config;
    Req.Lookback = !Req.Poll && I.Space != MemSpace::Shared &&
                   C.Fr->Fn->HasPolls &&
                   uint64_t(LC.Grid[0]) * LC.Grid[1] * LC.Grid[2] > 1;
    C.W->LastPoll = &I;
    C.W->LastPollHash = H;
    // Waiting for bytes nobody computed would never end.
    if (Req.Spin && (Known[0] & C.Active) != C.Active)
      return C.L->fail(I, "a spin-wait polls memory whose bytes are not "
                          "known (written by a launch that was not run, or "
                          "under a branch on such bytes): it would not end "
                          "here");
  }
  Req.emit(C, I, N);
}

/// The W bytes (1, 2, 4 or 8) at P, little-endian: a load of the width
/// itself (a memcpy of a variable width goes byte by byte).
uint64_t readBytes(const uint8_t *P, unsigned W) {
  switch (W) {
  case 1:
    return *P;
  case 2: {
    uint16_t V;
    std::memcpy(&V, P, 2);
    return V;
  }
  case 4: {
    uint32_t V;
    std::memcpy(&V, P, 4);
    return V;
  }
  default: {
    uint64_t V;
    std::memcpy(&V, P, 8);
    return V;
  }
  }
}

/// ld.param of the kernel's parameters (every thread reads them, usually
/// at one address): read directly when every active lane's address is
/// known and inside them; no request, no region.
void loadParam(Ctx &C, const XInstr &I) {
  const uint32_t Active = C.Active;
  const std::vector<uint8_t> &Params = C.L->KernelParams;
  const uint64_t *Base = C.lanes(I.Addr);
  const unsigned W = I.Width, N = W * I.Vec;
  bool Inside = (C.known(I.Addr) & Active) == Active;
  uint64_t Addr[32]; // A destination may be the address register.
  const uint64_t First = addressOf(I, Base[ctz(Active)]);
  bool Uniform = true;
  forLanes(Active, [&](unsigned L) {
    const uint64_t A = addressOf(I, Base[L]);
    Addr[L] = A;
    Inside = Inside && A + N <= Params.size() && A + N >= A;
    Uniform = Uniform && A == First;
  });
  if (!Inside)
    return loadH(C, I);
  const bool Signed = I.Sub & 1;
  for (unsigned V = 0; V < I.Vec; ++V) {
    uint64_t *D = C.lanes(I.D[V]);
    if (Uniform) {
      const uint64_t A = First + V * W;
      const uint64_t Val = extend(readBytes(Params.data() + A, W), W, Signed);
      forLanes(Active, [&](unsigned L) { D[L] = Val; });
      C.setKnown(I.D[V], C.L->KernelParamsKnown.all(A, W) ? Active : 0);
      continue;
    }
    uint32_t Known = 0;
    forLanes(Active, [&](unsigned L) {
      const uint64_t A = Addr[L] + V * W;
      D[L] = extend(readBytes(Params.data() + A, W), W, Signed);
      Known |= uint32_t(C.L->KernelParamsKnown.all(A, W)) << L;
    });
    C.setKnown(I.D[V], Known);
  }
}

void storeH(Ctx &C, const XInstr &I) {
  const uint64_t *Base = C.lanes(I.Addr);
  const uint32_t BaseKnown = C.known(I.Addr);
  const unsigned W = I.Width, N = W * I.Vec;
  Requests Req;
  const uint64_t *S[4];
  uint32_t SK[4];
  for (unsigned V = 0; V < I.Vec; ++V) {
    S[V] = C.lanes(I.S[V]);
    SK[V] = C.known(I.S[V]);
  }
  if (C.Taint && (I.Space == MemSpace::Global || I.Space == MemSpace::Generic))
    C.L->Out.UncertainWrites = true;
  for (uint32_t M = C.Active; M; M &= M - 1) {
    const unsigned L = unsigned(ctz(M));
    const uint64_t A = addressOf(I, Base[L]);
    const bool AddrKnown = BaseKnown >> L & 1;
    Place P;
    if (!reach(C, I, I.Space, A, N, L, AddrKnown, false, true, P))
      return;
    Req.add(P, L, AddrKnown);
    if (!AddrKnown) {
      // The GPU wrote somewhere else: which bytes is not known.
      if (P.Space == MemSpace::Global)
        C.L->Out.UncertainWrites = true;
      continue;
    }
    if (!P.Data)
      continue;
    if (P.Space == MemSpace::Shared && !C.B->UnknownReadWords.empty() &&
        !(C.Taint >> L & 1))
      wroteShared(C, I, P.EventAddr, N);
    for (unsigned V = 0; V < I.Vec; ++V) {
      std::memcpy(P.Data + V * W, &S[V][L], W);
      Place Part = P;
      Part.BitOff += V * W;
      if (Part.KnownBytes)
        Part.KnownBytes += V * W;
      setPlaceKnown(Part, W, (SK[V] >> L & 1) && !(C.Taint >> L & 1));
    }
  }
  Req.emit(C, I, N);
}

/// A scalar store of W bytes to global or shared memory: the common case.
/// When every active lane's address is known and inside one region (or the
/// block's shared memory) and no lane's value hangs on unknown data, the
/// lanes are written in one tight loop (in lane order, as storeH does).
template <bool Shared, unsigned W> void storeScalar(Ctx &C, const XInstr &I) {
  const uint32_t Active = C.Active;
  if ((C.known(I.Addr) & Active) != Active || (C.Taint & Active))
    return storeH(C, I);
  const uint64_t *Base = C.lanes(I.Addr);
  uint64_t Addr[32];
  uint64_t Lo = ~uint64_t(0), Hi = 0;
  forLanes(Active, [&](unsigned L) {
    const uint64_t A = addressOf(I, Base[L]);
    Addr[L] = A;
    Lo = std::min(Lo, A);
    Hi = std::max(Hi, A);
  });
  Region *R = nullptr;
  uint8_t *Data;
  uint64_t From = 0, Size;
  KnownBits *Bits;
  if (Shared) {
    Data = C.B->Shared.data();
    Size = C.B->Shared.size();
    Bits = &C.B->SharedKnown;
  } else {
    R = C.L->Mem.find(Lo, W);
    if (!R)
      return storeH(C, I);
    Data = R->Data;
    From = R->Base;
    Size = R->Size;
    Bits = R->Known;
  }
  if (Lo < From || Hi - From + W > Size || (R && !Bits))
    return storeH(C, I);
  if (R)
    C.L->touched(R, true);
  const uint64_t *S = C.lanes(I.S[0]);
  const uint32_t Known = C.known(I.S[0]) & Active;
  forLanes(Active,
           [&](unsigned L) { std::memcpy(Data + (Addr[L] - From), &S[L], W); });
  if (Shared && !C.B->UnknownReadWords.empty())
    forLanes(Active, [&](unsigned L) { wroteShared(C, I, Addr[L], W); });
  if (Known == Active) {
    // Known bytes over known bytes need no marking (the marks are atomic).
    if (!(R && R->AllKnown))
      forLanes(Active, [&](unsigned L) {
        if (!Bits->all(Addr[L] - From, W))
          Bits->set(Addr[L] - From, W, true);
      });
  } else {
    if (R)
      R->AllKnown = false;
    forLanes(Active, [&](unsigned L) {
      Bits->set(Addr[L] - From, W, Known >> L & 1);
    });
  }
  emitScalar(C, I, Shared, Addr, 0);
}

/// The scalar fast path of a load or store of W bytes (1, 2, 4 or 8).
template <bool Shared> Handler scalarAccess(bool Load, unsigned W) {
  switch (W) {
  case 1:
    return Load ? loadScalar<Shared, 1> : storeScalar<Shared, 1>;
  case 2:
    return Load ? loadScalar<Shared, 2> : storeScalar<Shared, 2>;
  case 4:
    return Load ? loadScalar<Shared, 4> : storeScalar<Shared, 4>;
  default:
    return Load ? loadScalar<Shared, 8> : storeScalar<Shared, 8>;
  }
}

/// Atomic operations (XInstr::Sub).
enum AtomOp : uint8_t {
  AAdd,
  AMin,
  AMax,
  AInc,
  ADec,
  AAnd,
  AOr,
  AXor,
  AExch,
  ACas,
};

/// The new value of an atomic on Old with operand B (and C for cas), of
/// type T (XInstr::Flags holds the Ty).
uint64_t atomicNew(uint8_t Op, Ty T, uint64_t Old, uint64_t B, uint64_t Cv) {
  const unsigned W = bytesOf(T);
  const uint64_t Mask = W >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * W)) - 1;
  switch (Op) {
  case AAdd:
    switch (T) {
    case Ty::F32:
      return bitsOf(asFloat(Old) + asFloat(B));
    case Ty::F64:
      return bitsOf(asDouble(Old) + asDouble(B));
    case Ty::F16:
      return doubleToHalf(halfToDouble(uint32_t(Old)) +
                          halfToDouble(uint32_t(B)));
    case Ty::BF16:
      return doubleToBf16(bf16ToDouble(uint32_t(Old)) +
                          bf16ToDouble(uint32_t(B)));
    case Ty::F16x2:
      return doubleToHalf(halfToDouble(uint32_t(Old)) +
                          halfToDouble(uint32_t(B))) |
             uint64_t(doubleToHalf(halfToDouble(uint32_t(Old >> 16)) +
                                   halfToDouble(uint32_t(B >> 16))))
                 << 16;
    case Ty::BF16x2:
      return doubleToBf16(bf16ToDouble(uint32_t(Old)) +
                          bf16ToDouble(uint32_t(B))) |
             uint64_t(doubleToBf16(bf16ToDouble(uint32_t(Old >> 16)) +
                                   bf16ToDouble(uint32_t(B >> 16))))
                 << 16;
    default:
      return (Old + B) & Mask;
    }
  case AMin:
  case AMax: {
    // Whether B is below Old, and above it, in the type's order.
    bool Below, Above;
    if (T == Ty::F32) {
      Below = asFloat(B) < asFloat(Old);
      Above = asFloat(B) > asFloat(Old);
    } else if (T == Ty::F64) {
      Below = asDouble(B) < asDouble(Old);
      Above = asDouble(B) > asDouble(Old);
    } else if (isSigned(T)) {
      const int64_t Bs = int64_t(extend(B & Mask, W, true)),
                    Os = int64_t(extend(Old & Mask, W, true));
      Below = Bs < Os;
      Above = Bs > Os;
    } else {
      Below = (B & Mask) < (Old & Mask);
      Above = (B & Mask) > (Old & Mask);
    }
    return (Op == AMin ? Below : Above) ? B & Mask : Old & Mask;
  }
  case AInc:
    return (Old & Mask) >= (B & Mask) ? 0 : (Old + 1) & Mask;
  case ADec:
    return ((Old & Mask) == 0 || (Old & Mask) > (B & Mask)) ? B & Mask
                                                            : (Old - 1) & Mask;
  case AAnd:
    return Old & B & Mask;
  case AOr:
    return (Old | B) & Mask;
  case AXor:
    return (Old ^ B) & Mask;
  case AExch:
    return B & Mask;
  case ACas:
    return (Old & Mask) == (B & Mask) ? Cv & Mask : Old & Mask;
  }
  return Old;
}

void atomH(Ctx &C, const XInstr &I) {
  const uint64_t *Base = C.lanes(I.Addr);
  const uint32_t BaseKnown = C.known(I.Addr);
  const unsigned W = I.Width;
  const bool HasDst = I.ND > 0;
  const uint64_t *B = C.lanes(I.S[0]);
  const uint64_t *Cv = I.NS > 1 ? C.lanes(I.S[1]) : B;
  const uint32_t BK = C.known(I.S[0]) & (I.NS > 1 ? C.known(I.S[1]) : ~0u);
  uint64_t *D = HasDst ? C.lanes(I.D[0]) : nullptr;
  uint32_t Known = 0;
  Requests Req;
  if (C.Taint && I.Space != MemSpace::Shared)
    C.L->Out.UncertainWrites = true;
  // Lane by lane, in lane order: one order the hardware may serve them in.
  for (uint32_t M = C.Active; M; M &= M - 1) {
    const unsigned L = unsigned(ctz(M));
    const uint64_t A = addressOf(I, Base[L]);
    const bool AddrKnown = BaseKnown >> L & 1;
    Place P;
    if (!reach(C, I, I.Space, A, W, L, AddrKnown, true, true, P))
      return;
    Req.add(P, L, AddrKnown);
    uint64_t Old = 0;
    bool OldKnown = false;
    if (P.Data && AddrKnown) {
      std::memcpy(&Old, P.Data, W);
      OldKnown = placeKnown(P, W);
      const uint64_t New = atomicNew(I.Sub, Ty(I.Flags), Old, B[L], Cv[L]);
      std::memcpy(P.Data, &New, W);
      setPlaceKnown(P, W, OldKnown && (BK >> L & 1) && !(C.Taint >> L & 1));
    } else if (!AddrKnown && P.Space == MemSpace::Global) {
      C.L->Out.UncertainWrites = true;
    }
    if (D) {
      D[L] = extend(Old, W, isSigned(Ty(I.Flags)));
      if (OldKnown)
        Known |= 1u << L;
    }
  }
  if (HasDst)
    C.setKnown(I.D[0], Known);
  Req.emit(C, I, W);
}

/// cp.async: the copy is made at once (the commit and wait that follow
/// have nothing left to wait for); a global load and a shared store.
void cpAsyncH(Ctx &C, const XInstr &I) {
  const uint64_t *Dst = C.lanes(I.Addr), *Src = C.lanes(I.S[0]);
  const uint32_t DK = C.known(I.Addr), SK = C.known(I.S[0]);
  const unsigned N = I.Width;
  const uint64_t *SrcSize = I.NS > 1 ? C.lanes(I.S[1]) : nullptr;
  Requests Load, Store;
  for (uint32_t M = C.Active; M; M &= M - 1) {
    const unsigned L = unsigned(ctz(M));
    Place G, S;
    if (!reach(C, I, MemSpace::Global, Src[L], N, L, SK >> L & 1, true, false,
               G) ||
        !reach(C, I, MemSpace::Shared, addressOf(I, Dst[L]), N, L, DK >> L & 1,
               false, true, S))
      return;
    Load.add(G, L, SK >> L & 1);
    Store.add(S, L, DK >> L & 1);
    if (!S.Data || !(DK >> L & 1))
      continue;
    // Bytes beyond src-size are zero-filled.
    const unsigned Copy =
        SrcSize ? unsigned(std::min<uint64_t>(SrcSize[L], N)) : N;
    std::memset(S.Data, 0, N);
    S.Bits->set(S.BitOff, N, true);
    if (G.Data && Copy) {
      std::memcpy(S.Data, G.Data, Copy);
      const bool Known = (SK >> L & 1) && placeKnown(G, Copy);
      S.Bits->set(S.BitOff, Copy, Known && !(C.Taint >> L & 1));
    } else if (Copy) {
      S.Bits->set(S.BitOff, Copy, false);
    }
  }
  // Bypassing L1, the global side's sectors follow both sides' addresses
  // too (simulator/async_copy_units.h).
  if (I.Sub == 1) {
    Load.Unknown[0] |= Store.Unknown[1];
    Load.Partner = Store.Addr[1];
    Load.Bypass = true;
  }
  Load.emit(C, I, N, 0);
  // The shared side's wavefronts follow both sides' addresses: a lane whose
  // global address is unknown leaves them unknown.
  Store.Unknown[1] |= Load.Unknown[0];
  Store.Partner = Load.Addr[0];
  Store.Bypass = I.Sub == 1;
  Store.emit(C, I, N, 1);
}

/// createpolicy: an L2 cache policy is an opaque value; its bits do not
/// matter here.
void zeroH(Ctx &C, const XInstr &I) {
  uint64_t *D = C.lanes(I.D[0]);
  for (unsigned L = 0; L < 32; ++L)
    if (C.Active >> L & 1)
      D[L] = 0;
  C.setKnown(I.D[0], ~0u);
}

bool vectorOf(const ptx::Instr &I, uint8_t &Vec) {
  Vec = 1;
  for (const std::string &M : I.Mods)
    if (M == "v2")
      Vec = 2;
    else if (M == "v4")
      Vec = 4;
    else if (M == "v8")
      return false;
  return true;
}

} // namespace

bool decodeMemory(Decoder &D, const ptx::Instr &I, XInstr &X) {
  const std::string &Op = I.Op;
  if (Op == "prefetch" || Op == "prefetchu" || Op == "fence" ||
      Op == "membar" || Op == "applypriority" || Op == "discard") {
    X.Fn = nopHandler;
    return true;
  }
  if (Op == "createpolicy") {
    X.Fn = zeroH;
    X.D[0] = D.dst(I.Ops.at(0));
    X.ND = 1;
    return true;
  }
  if (Op == "cp" && I.has("async")) {
    if (I.has("commit_group") || I.has("wait_group") || I.has("wait_all")) {
      X.Fn = nopHandler;
      return true;
    }
    if (I.has("bulk") || I.has("tensor") || I.has("mbarrier")) {
      D.unsupported(X, "cp.async.bulk (a TMA copy)");
      return true;
    }
    // cp.async.ca.shared.global [dst], [src], cp-size{, src-size}
    if (I.Ops.size() < 3 || !D.address(I.Ops[0], X))
      return D.unsupported(X, "a cp.async of an unexpected form"), true;
    const ptx::Operand &SrcA = I.Ops[1];
    XInstr Tmp;
    if (!D.address(SrcA, Tmp))
      return true;
    if (Tmp.Off) {
      D.unsupported(X, "a cp.async whose source has an offset");
      return true;
    }
    X.S[0] = Tmp.Addr;
    X.NS = 1;
    if (I.Ops.size() > 3 && I.Ops[3].Kind != ptx::Operand::Symbol)
      X.S[X.NS++] = D.src(I.Ops[3], Ty::U32);
    X.Width = uint8_t(I.Ops[2].Value);
    if (I.Ops[2].Value != 4 && I.Ops[2].Value != 8 && I.Ops[2].Value != 16)
      return D.unsupported(X, "a cp.async of other than 4, 8 or 16 bytes"),
             true;
    X.Sub = I.has("cg"); // Bypassing L1 (LDGSTS.BYPASS).
    X.Mem = MemOp::Load;
    X.Space = MemSpace::Shared;
    X.Fn = cpAsyncH;
    return true;
  }
  const bool Load = Op == "ld" || Op == "ldu";
  const bool Store = Op == "st";
  const bool Atom = Op == "atom";
  const bool Red = Op == "red";
  if (!Load && !Store && !Atom && !Red)
    return false;
  if (I.has("async") || I.has("shared::cluster") || I.has("b128")) {
    D.unsupported(X, Op + " of this form (cluster memory, async, b128)");
    return true;
  }
  const Ty T = Decoder::lastType(I);
  X.Space = Decoder::space(I);
  if (X.Space == MemSpace::Param) {
    const ptx::Operand &A = Load ? I.Ops.at(1) : I.Ops.at(0);
    if (D.kernelParam(A))
      X.Space = MemSpace::KernelParam;
  }
  X.Width = uint8_t(bytesOf(T));
  if (!X.Width || !vectorOf(I, X.Vec)) {
    D.unsupported(X, "a memory instruction of an unexpected type");
    return true;
  }
  if (Load || Store) {
    X.Mem = Load ? MemOp::Load : MemOp::Store;
    X.Sub = isSigned(T) ? 1 : 0;
    const ptx::Operand &Val = Load ? I.Ops.at(0) : I.Ops.at(1);
    if (!D.address(Load ? I.Ops.at(1) : I.Ops.at(0), X))
      return true;
    auto Elems = Val.Kind == ptx::Operand::Vector
                     ? Val.Elems
                     : std::vector<ptx::Operand>{Val};
    if (Elems.size() != X.Vec) {
      D.unsupported(X, "a vector access of the wrong length");
      return true;
    }
    for (unsigned V = 0; V < X.Vec; ++V) {
      if (Load)
        X.D[V] = D.dst(Elems[V]);
      else
        X.S[V] = D.src(Elems[V], T);
    }
    X.ND = Load ? X.Vec : 0;
    X.NS = Load ? 0 : X.Vec;
    X.Fn = Load ? loadH : storeH;
    X.Ordered = Load && (I.has("volatile") || I.has("acquire") ||
                         I.has("relaxed") || I.has("mmio"));
    if (X.Ordered)
      return true;
    if (Load && X.Space == MemSpace::KernelParam && X.Width <= 8)
      X.Fn = loadParam;
    if (X.Vec != 1 || X.Width > 8) // b128 and vectors: the general path.
      return true;
    // A constant bank is a global region here (resolve): ld.const in an
    // inner loop (a __constant__ template) takes the same fast path.
    if (X.Space == MemSpace::Global || (Load && X.Space == MemSpace::Const))
      X.Fn = scalarAccess<false>(Load, X.Width);
    else if (X.Space == MemSpace::Shared)
      X.Fn = scalarAccess<true>(Load, X.Width);
    return true;
  }
  // atom{.sem}{.scope}{.space}.op.type d, [a], b{, c};  red: no d.
  static const std::pair<const char *, AtomOp> Ops[] = {
      {"add", AAdd},   {"min", AMin}, {"max", AMax}, {"inc", AInc},
      {"dec", ADec},   {"and", AAnd}, {"or", AOr},   {"xor", AXor},
      {"exch", AExch}, {"cas", ACas}};
  bool Found = false;
  for (auto &[N, A] : Ops)
    if (I.has(N)) {
      X.Sub = A;
      Found = true;
    }
  if (!Found || X.Vec != 1) {
    D.unsupported(X, "an atomic of this operation or vector form");
    return true;
  }
  X.Flags = uint16_t(T);
  X.Mem = Atom ? MemOp::Atomic : MemOp::Reduction;
  size_t K = 0;
  if (Atom) {
    X.D[0] = D.dst(I.Ops.at(K++));
    X.ND = 1;
  }
  if (!D.address(I.Ops.at(K++), X))
    return true;
  X.S[0] = D.src(I.Ops.at(K++), T);
  X.NS = 1;
  if (K < I.Ops.size() && I.Ops[K].Kind != ptx::Operand::Symbol &&
      X.Sub == ACas)
    X.S[X.NS++] = D.src(I.Ops[K], T);
  X.Fn = atomH;
  return true;
}

} // namespace gmem::exec
