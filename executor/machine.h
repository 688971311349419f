//===- machine.h - The state a launch runs in --------------------------------===//
//
// A warp is 32 lanes run together: each register is a slot of 32 64-bit
// values with a mask of the lanes whose value is known; each predicate a
// 32-bit mask. Control follows a reconvergence stack per call frame
// (GPGPU-Sim's scheme): a divergent branch pushes its two paths, which run
// one after the other and meet at the branch's immediate post-dominator.
// Lanes that return leave every entry of their frame; lanes that exit leave
// the warp.
//
// Handlers (ops_*.cpp) see one instruction and a Ctx: the operand files of
// the running frame, the active lanes, and the warp, block and launch.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_EXECUTOR_MACHINE_H
#define GMEM_EXECUTOR_MACHINE_H

#include "events.h"
#include "memory.h"
#include "program.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gmem::exec {

/// Bit counts (gmem is C++17: no <bit>).
inline unsigned popc(uint64_t V) { return unsigned(__builtin_popcountll(V)); }
/// The lowest set bit's index (V nonzero).
inline unsigned ctz(uint32_t V) { return unsigned(__builtin_ctz(V)); }
/// Leading zeros of V in its own width.
template <class T> inline unsigned clz(T V) {
  constexpr unsigned W = sizeof(T) * 8;
  return V ? unsigned(__builtin_clzll(uint64_t(V))) - (64 - W) : W;
}

struct StackEntry {
  uint32_t PC = 0, Mask = 0, Reconv = 0;
  /// Lanes whose path was decided by an unknown value, to restore when the
  /// entry's paths meet again (Ctx::Taint).
  uint32_t Taint = 0;
  /// Of those, the lanes that run both sides of the branch in turn, whose
  /// registers are joined where the sides meet (fork_join.cpp): what they
  /// write to registers stays known until then.
  uint32_t Fork = 0;
  /// >= 0: no path but the meeting point of Frame::Forks[Join].
  int32_t Join = -1;
};

/// Registers and predicates of a fork region (XFunction::ForkRegion), for
/// some lanes: values, known lanes, ranges.
struct RegionState {
  std::vector<uint64_t> R, Lo;
  std::vector<uint32_t> K, RM;
  std::vector<uint8_t> N;
  std::vector<uint32_t> P, PK;
  uint32_t Carry = 0;
};

/// A branch on an unknown guard whose sides both run (fork_join.cpp): the
/// lanes it forked, which of them took the branch, and the state before the
/// sides and after the first.
struct ForkState {
  uint32_t Branch = 0, Region = 0;
  uint32_t Lanes = 0, Taken = 0;
  bool Second = false;
  RegionState Before, After;
  /// The launch's and warp's instruction counts when the second sides
  /// began: the GPU runs only one side, so those of the second are not
  /// counted.
  uint64_t Counts[5] = {};
};

struct Frame {
  const XFunction *Fn = nullptr;
  std::vector<uint64_t> R; ///< NumRegs x 32.
  std::vector<uint32_t> K; ///< Known lanes per register.
  std::vector<uint32_t> P, PK; ///< Predicates and their known lanes.
  std::vector<uint64_t> FrameConsts;
  std::vector<uint32_t> FrameKnown;
  std::vector<StackEntry> Stack;
  uint64_t LocalBase = 0; ///< Per-thread offset of this frame's locals.
  /// Per-lane parameter area, lane-major: lane L at L * Fn->ParamBytes.
  std::vector<uint8_t> Params;
  std::vector<uint8_t> ParamKnown; ///< 1 per known byte, lane-major.
  uint32_t CallMask = 0;    ///< The lanes that entered it.
  int32_t CallIndex = -1;   ///< The caller's CallInfo (results to copy).
  uint32_t Taint = 0;
  uint32_t Carry = 0; ///< The carry flag of add.cc and friends, per lane.
  /// Unknown values known to lie in a short range (ranges.h): per register
  /// the lanes that have one; per register and lane its lowest value and
  /// how many values above it (allocated when the first range is made).
  std::vector<uint32_t> RM;
  std::vector<uint64_t> RLo;
  std::vector<uint8_t> RN;
  bool Ranged = false;
  std::vector<ForkState> Forks; ///< Innermost last.
};

enum class WarpState : uint8_t { Ready, AtBarrier, Done };

struct Block;

struct Warp {
  unsigned Id = 0;
  Block *B = nullptr;
  uint32_t Live = 0; ///< Lanes of threads that have not exited.
  WarpState State = WarpState::Ready;
  unsigned BarrierId = 0;
  uint32_t BarrierMask = 0; ///< Lanes that arrived at the barrier.
  /// bar.red: the reduction (1 popc, 2 and, 3 or; 0 none), the lanes whose
  /// predicate is true, and the register that gets the result.
  uint8_t RedOp = 0;
  uint32_t RedBits = 0;
  Opnd RedDst = 0;
  std::vector<Frame> Frames;
  std::vector<uint64_t> Specials; ///< NumSpecials x 32.
  std::vector<uint32_t> SpecialKnown;
  /// Per-thread local memory, lane-major (lane L at L * LocalStride).
  std::vector<uint8_t> Local;
  KnownBits LocalKnown;
  uint64_t LocalStride = 0, LocalTop = 0;
  /// Registers and lanes of the last wmma/mma fragments... (none yet).
  uint64_t Executed = 0; ///< Warp instructions run.
  /// The last ordered load (volatile, acquire, relaxed) the warp made: its
  /// instruction and a hash of what its lanes read (spin-wait detection).
  const XInstr *LastPoll = nullptr;
  uint64_t LastPollHash = 0;
  uint64_t Wgmmas = 0; ///< wgmma.mma_async instructions issued.
};

/// One wgmma of a warpgroup (ops_tensor.cpp): the shared-memory operands
/// as the first of its warps to issue it found them, for all four.
struct WgmmaOperands {
  std::vector<double> A, B; ///< A's 64 rows (when in shared memory), B.
  bool Known = true;
  unsigned Taken = 0; ///< Warps that have used it.
};

/// An mbarrier's state (ops_async.cpp): the arrivals a phase expects and
/// still awaits, the bytes still in flight, and the phase's number.
struct MBarrier {
  int64_t Expected = 0, Pending = 0, Tx = 0;
  uint64_t Phase = 0;
};

/// A named barrier's count of arrived threads.
struct BarrierState {
  unsigned Arrived = 0;
  unsigned Expected = 0; ///< 0: every live thread of the block.
};

struct Block {
  uint64_t Linear = 0; ///< Linear block index, x fastest.
  uint64_t Idx[3] = {0, 0, 0};
  std::vector<Warp> Warps;
  std::vector<uint8_t> Shared;
  KnownBits SharedKnown;
  /// Per 4-byte word of shared memory, since the block's last barrier: 1 +
  /// the first warp that read it while it held no known value (0: none),
  /// and the PTX line of that read; another warp's store to it before the
  /// next barrier is a race (ops_memory.cpp). The words read, to clear.
  std::vector<uint16_t> UnknownReader;
  std::vector<uint32_t> UnknownReadLine;
  std::vector<uint32_t> UnknownReadWords;
  BarrierState Barriers[16];
  unsigned LiveThreads = 0;
  /// mbarrier objects, by shared-memory offset.
  std::map<uint64_t, MBarrier> MBarriers;
  /// wgmmas some warps of a warpgroup have issued and others not yet, by
  /// warpgroup and number.
  std::map<std::pair<unsigned, uint64_t>, WgmmaOperands> Wgmmas;
};

class Launch;

struct Ctx {
  uint64_t *F[6] = {};  ///< By FileId; FPred's are scratch lanes.
  uint32_t *KF[6] = {};
  uint32_t *P = nullptr, *PK = nullptr;
  uint32_t Active = 0;
  /// Lanes whose path an unknown value decided: their memory writes and
  /// requests are uncertain. RegTaint: those whose register writes are
  /// unknown too (all but the lanes running both sides of a branch).
  uint32_t Taint = 0, RegTaint = 0;
  /// The frame's ranged lanes per register; null while it has no range.
  uint32_t *RM = nullptr;
  Warp *W = nullptr;
  Frame *Fr = nullptr;
  Block *B = nullptr;
  Launch *L = nullptr;
  bool Yield = false;

  uint64_t *lanes(Opnd O) const {
    return F[fileOf(O)] + size_t(slotOf(O)) * 32;
  }
  uint32_t known(Opnd O) const { return KF[fileOf(O)][slotOf(O)]; }
  /// Sets the known lanes of register D among the active ones.
  void setKnown(Opnd D, uint32_t Lanes) {
    uint32_t &K = KF[fileOf(D)][slotOf(D)];
    K = ((K & ~Active) | (Active & Lanes)) & ~RegTaint;
    if (RM && fileOf(D) == FReg) // A new value, or maybe one: no range.
      RM[slotOf(D)] &= ~(Active | RegTaint);
  }
  // An immediate where a predicate belongs (nvcc writes `xor.pred p, q,
  // -1` for !q) is true on every lane when not 0. A value register there
  // (PTX ptxas would refuse) reads as false and unknown, and is not
  // written.
  uint32_t pred(Opnd O) const {
    if (fileOf(O) == FPred)
      return P[slotOf(O)];
    if (fileOf(O) == FConst)
      return lanes(O)[0] ? ~0u : 0u;
    return 0;
  }
  uint32_t predKnown(Opnd O) const {
    if (fileOf(O) == FPred)
      return PK[slotOf(O)];
    return fileOf(O) == FConst ? ~0u : 0u;
  }
  void setPred(Opnd D, uint32_t Bits, uint32_t Known) {
    if (fileOf(D) != FPred)
      return;
    const uint32_t S = slotOf(D);
    P[S] = (P[S] & ~Active) | (Bits & Active);
    PK[S] = ((PK[S] & ~Active) | (Known & Active)) & ~RegTaint;
  }
};

} // namespace gmem::exec

#endif // GMEM_EXECUTOR_MACHINE_H
