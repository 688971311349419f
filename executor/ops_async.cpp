//===- ops_async.cpp - mbarrier and bulk copies (cp.async.bulk) -------------===//
//
// Hopper's asynchronous barriers and bulk copies, as CUB and
// cuda::memcpy_async use them: an mbarrier counts its expected arrivals and
// the bytes in flight (the transaction count); a phase completes when both
// reach zero, and waits compare the phase's parity. The executor makes every
// bulk copy at once, so its bytes arrive as it is issued. The barrier's
// state is kept beside the block's shared memory, by address (code that
// reads the 8 bytes themselves gets what the block last stored there).
// Bulk copies move data through the tensor memory accelerator, outside the
// load and store figures: they are no requests.
//
//===----------------------------------------------------------------------===//
#include "decode.h"
#include "lanes.h"
#include "launch.h"
#include "memory_ops.h"

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

void nopH(Ctx &, const XInstr &) {}

} // namespace

bool decodeAsync(Decoder &D, const ptx::Instr &I, XInstr &X) {
  if (I.Op == "fence" && I.has("proxy")) {
    X.Fn = nopH;
    return true;
  }
  if (I.Op == "cp" && I.has("async") && I.has("bulk")) {
    if (I.has("commit_group") || I.has("wait_group") ||
        I.has("wait_group.read") || I.has("prefetch")) {
      X.Fn = nopH;
      return true;
    }
    // Global to shared, completing on an mbarrier.
    if (I.has("tensor") || !I.has("global") || I.Ops.size() < 4 ||
        Decoder::space(I) == MemSpace::Global) {
      D.unsupported(X, "this form of cp.async.bulk (tensor maps, stores "
                       "to global memory)");
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
