//===- ops_async.cpp - mbarrier and bulk copies (cp.async.bulk)
//-------------===//
//
// Hopper's asynchronous barriers and bulk copies, as CUB and
// cuda::memcpy_async use them: an mbarrier counts its expected arrivals and
// the bytes in flight (the transaction count); a phase completes when both
// reach zero, and waits compare the phase's parity. The executor makes every
// bulk copy at once, so its bytes arrive as it is issued. The barrier's
// state is kept beside the block's shared memory, by address (code that
// reads the 8 bytes themselves gets what the block last stored there).
// Bulk copies move data through the tensor memory accelerator, outside the
// load and store figures: they are no requests (an H200 counts none for
// them: tests/data/programs/hopper/tma_wgmma.cu). Tensor copies read their
// tensor map (tensor_map.h) and move a box of it, densely and swizzled as
// the map says; a box's elements outside the tensor load as zeros and are
// not stored.
//
//===----------------------------------------------------------------------===//
#include "decode.h"
#include "lanes.h"
#include "launch.h"
#include "memory_ops.h"
#include "tensor_map.h"

#include <cstring>

namespace gmem::exec {

namespace {

enum MbarOp : uint8_t {
  MInit,
  MArrive,
  MArriveTx,
  MExpectTx,
  MCompleteTx,
  MTestWait,
  MTestWaitParity,
  MInval,
  MArriveDrop,
  MPendingCount,
};

/// The mbarrier at shared offset A, made on first use as an init would.
MBarrier &barrierAt(Ctx &C, uint64_t A) { return C.B->MBarriers[A]; }

void complete(MBarrier &M) {
  if (M.Pending <= 0 && M.Tx <= 0) {
    M.Phase ^= 1;
    M.Pending = M.Expected;
    M.Tx = 0;
  }
}

/// mbarrier.OP: S[0] the address (a shared offset or a generic address),
/// S[1] the count, transaction bytes, state or parity; D[0] the result.
void mbarrierH(Ctx &C, const XInstr &I) {
  const uint64_t *Addr = C.lanes(I.S[0]);
  const uint64_t *V = I.NS > 1 ? C.lanes(I.S[1]) : nullptr;
  uint64_t *D = I.ND ? (fileOf(I.D[0]) == FPred ? nullptr : C.lanes(I.D[0]))
                     : nullptr;
  uint32_t Done = 0;
  // Each active lane acts in turn, as the hardware serves them.
  forLanes(C.Active, [&](unsigned L) {
    uint64_t A = addressOf(I, Addr[L]);
    if (A - SharedWindow < WindowSize)
      A -= SharedWindow;
    MBarrier &M = barrierAt(C, A);
    const int64_t Arg = V ? int64_t(V[L]) : 1;
    switch (I.Sub) {
    case MInit:
      M = MBarrier();
      M.Expected = M.Pending = Arg;
      break;
    case MArriveTx:
      M.Tx += Arg;
      [[fallthrough]];
    case MArrive:
      if (D)
        D[L] = M.Phase;
      M.Pending -= I.Sub == MArrive && V ? Arg : 1;
      complete(M);
      break;
    case MArriveDrop:
      if (D)
        D[L] = M.Phase;
      M.Pending -= V ? Arg : 1;
      M.Expected -= V ? Arg : 1;
      complete(M);
      break;
    case MExpectTx:
      M.Tx += Arg;
      break;
    case MCompleteTx:
      M.Tx -= Arg;
      complete(M);
      break;
    case MTestWait:
    case MTestWaitParity:
      // The phase the token or parity names has completed when the
      // barrier's phase is no longer it.
      if ((M.Phase & 1) != (uint64_t(Arg) & 1))
        Done |= 1u << L;
      break;
    case MPendingCount:
      if (D)
        D[L] = uint64_t(M.Pending);
      break;
    default:
      M = MBarrier();
      break;
    }
  });
  if (I.ND && fileOf(I.D[0]) == FPred)
    C.setPred(I.D[0], Done, ~0u);
  else if (D)
    C.setKnown(I.D[0], ~0u);
}

/// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
/// [dst], [src], size, [mbar]: the bytes are copied at once and the
/// barrier's transaction count decreased by them.
void bulkCopyH(Ctx &C, const XInstr &I) {
  const uint64_t *Dst = C.lanes(I.Addr), *Src = C.lanes(I.S[0]),
                 *Size = C.lanes(I.S[1]), *Bar = C.lanes(I.S[2]);
  const uint32_t Known = C.known(I.Addr) & C.known(I.S[0]) & C.known(I.S[1]);
  forLanes(C.Active, [&](unsigned L) {
    uint64_t To = Dst[L];
    if (To - SharedWindow < WindowSize)
      To -= SharedWindow;
    const uint64_t N = Size[L];
    std::vector<uint8_t> &Sh = C.B->Shared;
    if (!(Known >> L & 1) || To + N > Sh.size()) {
      C.L->fail(I, "a bulk copy into shared memory the executor cannot "
                   "place (its address or size is not known, or it "
                   "overruns the block's shared memory)");
      return;
    }
    Region *R = C.L->Mem.find(Src[L], unsigned(std::min<uint64_t>(N, 1)));
    C.L->touched(R, false);
    if (R && Src[L] + N <= R->Base + R->Size) {
      std::memcpy(Sh.data() + To, R->Data + (Src[L] - R->Base), N);
      for (uint64_t K = 0; K < N; ++K)
        C.B->SharedKnown.set(To + K, 1,
                             R->AllKnown || R->Known->get(Src[L] - R->Base + K));
    } else {
      C.B->SharedKnown.setRange(To, N, false);
      if (!C.L->Mem.Lenient)
        C.L->stray(I, *C.W, L, Src[L], false);
    }
    uint64_t B = Bar[L];
    if (B - SharedWindow < WindowSize)
      B -= SharedWindow;
    MBarrier &M = barrierAt(C, B);
    M.Tx -= int64_t(N);
    complete(M);
  });
}

/// The tensor map at generic address A for lane L, if gmem encoded it.
std::optional<TensorMap> mapAt(Ctx &C, uint64_t A, bool Known, unsigned L) {
  uint8_t Bytes[128];
  for (unsigned K = 0; Known && K < 16; ++K) {
    const Place P = resolve(C, MemSpace::Generic, A + 8 * K, 8, L);
    if (!P.Data || !placeKnown(P, 8))
      return std::nullopt;
    std::memcpy(Bytes + 8 * K, P.Data, 8);
  }
  return Known ? decodeTensorMap(Bytes) : std::nullopt;
}

/// cp.async.bulk.tensor.Nd, tile mode: a load global -> shared completing
/// on an mbarrier (Sub 0), or a store shared -> global (Sub 1). Addr the
/// shared box, S[0] the tensor map's generic address, S[1] the mbarrier;
/// Extras: the coordinates, innermost first.
void tensorCopyH(Ctx &C, const XInstr &I) {
  const std::vector<Opnd> &Coord = C.Fr->Fn->Extras[size_t(I.Extra)];
  const bool Store = I.Sub == 1;
  forLanes(C.Active, [&](unsigned L) {
    const auto M = mapAt(C, C.lanes(I.S[0])[L], C.known(I.S[0]) >> L & 1, L);
    if (!M) {
      C.L->fail(I, "a tensor copy through a tensor map gmem did not encode "
                   "(unknown bytes, or not made by cuTensorMapEncodeTiled "
                   "under gmem's recording)");
      return;
    }
    const unsigned E = M->ElemBytes;
    if (!E || M->Interleave || Coord.size() != M->Rank) {
      C.L->fail(I, "a tensor copy of a packed type, an interleaved layout or "
                   "another rank than its map's (not executed)");
      return;
    }
    int64_t At[5] = {0, 0, 0, 0, 0};
    for (size_t D = 0; D < Coord.size(); ++D) {
      if (!(C.known(Coord[D]) >> L & 1)) {
        C.L->fail(I, "a tensor copy at coordinates that are not known");
        return;
      }
      At[D] = int32_t(C.lanes(Coord[D])[L]);
      if (M->ElemStrides[D] != 1) {
        C.L->fail(I, "a tensor copy with element strides other than 1 "
                     "(not executed)");
        return;
      }
    }
    // Measured on an H200: 7 boxes whose innermost coordinate was not at
    // a multiple of 16 bytes stopped their launches (illegal instruction).
    if ((At[0] * int64_t(E)) % 16) {
      C.L->fail(I,
                "a tensor copy whose innermost coordinate (" +
                    std::to_string(At[0]) +
                    ") is not at a multiple of "
                    "16 bytes: a GPU stops the launch with an illegal "
                    "instruction",
                DeviceFault::IllegalInstruction);
      return;
    }
    uint64_t Box = E;
    for (unsigned D = 0; D < 5; ++D)
      Box *= M->Box[D];
    uint64_t To = addressOf(I, C.lanes(I.Addr)[L]);
    if (To - SharedWindow < WindowSize)
      To -= SharedWindow;
    std::vector<uint8_t> &Sh = C.B->Shared;
    if (!(C.known(I.Addr) >> L & 1) || To + Box > Sh.size()) {
      C.L->fail(I, "a tensor copy whose shared box the executor cannot place "
                   "(its address is not known, or it overruns the block's "
                   "shared memory)");
      return;
    }
    const unsigned Swz = M->swizzleBytes();
    const uint64_t Row = uint64_t(M->Box[0]) * E;
    // Row by row of the box (dimensions 1 to 4), element by element.
    uint64_t Off = 0;
    for (uint32_t I4 = 0; I4 < M->Box[4]; ++I4)
      for (uint32_t I3 = 0; I3 < M->Box[3]; ++I3)
        for (uint32_t I2 = 0; I2 < M->Box[2]; ++I2)
          for (uint32_t I1 = 0; I1 < M->Box[1]; ++I1, Off += Row) {
            const int64_t G[5] = {At[0], At[1] + I1, At[2] + I2, At[3] + I3,
                                  At[4] + I4};
            bool RowIn = true;
            uint64_t Base = M->Address;
            for (unsigned D = 1; D < 5; ++D) {
              RowIn &= G[D] >= 0 && uint64_t(G[D]) < M->Dims[D];
              Base += uint64_t(G[D]) * M->Strides[D];
            }
            for (uint64_t X = 0; X < M->Box[0]; ++X) {
              const int64_t GX = At[0] + int64_t(X);
              const bool In = RowIn && GX >= 0 && uint64_t(GX) < M->Dims[0];
              const uint64_t S = swizzleAddress(To + Off + X * E, Swz);
              const uint64_t A = Base + uint64_t(GX) * E;
              Region *R = In ? C.L->Mem.find(A, E) : nullptr;
              if (In && !R && !C.L->Mem.Lenient)
                C.L->stray(I, *C.W, L, A, Store);
              if (Store) {
                if (!R)
                  continue;
                std::memcpy(R->Data + (A - R->Base), Sh.data() + S, E);
                const bool K = C.B->SharedKnown.all(S, E);
                if (!K)
                  R->AllKnown = false;
                R->Known->set(A - R->Base, E, K);
                C.L->touched(R, true);
              } else if (R) {
                std::memcpy(Sh.data() + S, R->Data + (A - R->Base), E);
                C.B->SharedKnown.set(
                    S, E, R->AllKnown || R->Known->all(A - R->Base, E));
                C.L->touched(R, false);
              } else {
                // Outside the tensor: zeros (or NaN when the map asks);
                // outside every allocation: unknown.
                uint64_t Fill = 0;
                if (M->OobNan)
                  Fill = E == 2 ? 0x7fff : E == 4 ? 0x7fffffff : ~0ull >> 1;
                std::memcpy(Sh.data() + S, &Fill, E);
                C.B->SharedKnown.set(S, E, !In);
              }
            }
          }
    if (Store)
      return;
    uint64_t B = C.lanes(I.S[1])[L];
    if (B - SharedWindow < WindowSize)
      B -= SharedWindow;
    MBarrier &Bar = barrierAt(C, B);
    Bar.Tx -= int64_t(Box);
    complete(Bar);
  });
}

/// Decodes cp.async.bulk.tensor (tile mode, one CTA).
void decodeTensorCopy(Decoder &D, const ptx::Instr &I, XInstr &X) {
  const bool Store = I.has("bulk_group"); // Loads complete on an mbarrier.
  if (I.has("im2col") || I.has("multicast::cluster") || I.Op != "cp" ||
      I.Ops.size() < 2) {
    D.unsupported(X, "this form of cp.async.bulk.tensor (im2col, multicast "
                     "across a cluster, reductions)");
    return;
  }
  const ptx::Operand &MapOp = I.Ops[Store ? 0 : 1];
  if (MapOp.Kind != ptx::Operand::Address || MapOp.Elems.size() != 1 ||
      MapOp.Elems[0].Kind != ptx::Operand::Vector) {
    D.unsupported(X, "a cp.async.bulk.tensor without [map, {coordinates}]");
    return;
  }
  ptx::Operand Base = MapOp;
  Base.Elems.clear();
  XInstr Map, Bar;
  if (!D.address(Base, Map) || !D.address(I.Ops[Store ? 1 : 0], X) ||
      (!Store && (I.Ops.size() < 3 || !D.address(I.Ops[2], Bar))) || Map.Off ||
      Bar.Off) {
    D.unsupported(X, "a cp.async.bulk.tensor with offset addresses");
    return;
  }
  std::vector<Opnd> Coord;
  for (const ptx::Operand &C : MapOp.Elems[0].Elems)
    Coord.push_back(D.src(C, Ty::S32));
  X.S[0] = Map.Addr;
  X.S[1] = Store ? Opnd(0) : Bar.Addr;
  X.NS = Store ? 1 : 2;
  X.Sub = Store ? 1 : 0;
  X.Extra = D.extra(std::move(Coord));
  X.Fn = tensorCopyH;
}

} // namespace

bool decodeAsync(Decoder &D, const ptx::Instr &I, XInstr &X) {
  if (I.Op == "fence" && I.has("proxy")) {
    X.Fn = nopHandler;
    return true;
  }
  if (I.Op == "cp" && I.has("async") && I.has("bulk")) {
    if (I.has("commit_group") || I.has("wait_group") ||
        I.has("wait_group.read") || I.has("prefetch")) {
      X.Fn = nopHandler;
      return true;
    }
    if (I.has("tensor"))
      return decodeTensorCopy(D, I, X), true;
    // Global to shared, completing on an mbarrier.
    if (!I.has("global") || I.Ops.size() < 4 ||
        Decoder::space(I) == MemSpace::Global) {
      D.unsupported(X, "this form of cp.async.bulk (stores to global "
                       "memory)");
      return true;
    }
    XInstr Src, Bar;
    if (!D.address(I.Ops[0], X) || !D.address(I.Ops[1], Src) ||
        !D.address(I.Ops[3], Bar) || Src.Off || Bar.Off || X.Off)
      return D.unsupported(X, "a cp.async.bulk with offset addresses"), true;
    X.S[0] = Src.Addr;
    X.S[1] = D.src(I.Ops[2], Ty::U32);
    X.S[2] = Bar.Addr;
    X.NS = 3;
    X.Fn = bulkCopyH;
    return true;
  }
  const bool AsyncArrive = I.Op == "cp" && I.has("async") && I.has("mbarrier");
  if (I.Op != "mbarrier" && !AsyncArrive)
    return false;
  X.Fn = mbarrierH;
  size_t K = 0;
  auto Result = [&] {
    X.D[0] = D.dst(I.Ops.at(K++));
    X.ND = 1;
  };
  auto Address = [&] {
    XInstr A;
    if (!D.address(I.Ops.at(K++), A))
      return false;
    X.S[0] = A.Addr;
    X.Off = A.Off;
    X.NS = 1;
    return true;
  };
  auto Value = [&] {
    if (K < I.Ops.size())
      X.S[X.NS++] = D.src(I.Ops[K++], Ty::U64);
  };
  if (AsyncArrive) {
    // cp.async.mbarrier.arrive: the copies are made; it arrives now.
    X.Sub = MArrive;
    return Address(), true;
  }
  if (I.has("init")) {
    X.Sub = MInit;
    Address();
    Value();
  } else if (I.has("arrive") && I.has("expect_tx")) {
    X.Sub = MArriveTx;
    Result();
    Address();
    Value();
  } else if (I.has("arrive_drop")) {
    X.Sub = MArriveDrop;
    Result();
    Address();
    Value();
  } else if (I.has("arrive")) {
    X.Sub = MArrive;
    Result();
    Address();
    Value();
  } else if (I.has("expect_tx")) {
    X.Sub = MExpectTx;
    Address();
    Value();
  } else if (I.has("complete_tx")) {
    X.Sub = MCompleteTx;
    Address();
    Value();
  } else if (I.has("test_wait") || I.has("try_wait")) {
    X.Sub = I.has("parity") ? MTestWaitParity : MTestWait;
    Result();
    Address();
    Value();
  } else if (I.has("pending_count")) {
    D.unsupported(X, "mbarrier.pending_count");
  } else if (I.has("inval")) {
    X.Sub = MInval;
    Address();
  } else {
    D.unsupported(X, "this form of mbarrier");
  }
  return true;
}

} // namespace gmem::exec
