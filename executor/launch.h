//===- launch.h - Run one kernel launch ---------------------------------------===//
//
// Runs every block of a launch, warp by warp, over a GlobalMemory: blocks
// one after another in linear order (so a block may wait for an earlier
// one, as decoupled look-back scans do), the warps of a block in turn up to
// each barrier. A cooperative launch keeps every block resident and turns
// between them, so that grid-wide synchronisation completes.
//
// What the launch could not do is said in Outcome::Error: an instruction
// the executor does not implement (with its opcode and line), a fault, a
// trap, a deadlock, or the instruction budget spent.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_EXECUTOR_LAUNCH_H
#define GMEM_EXECUTOR_LAUNCH_H

#include "events.h"
#include "machine.h"
#include "program.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gmem::exec {

struct LaunchConfig {
  uint32_t Grid[3] = {1, 1, 1}, Block[3] = {1, 1, 1};
  uint64_t DynamicSmem = 0;
  std::vector<uint8_t> Params; ///< The kernel's parameter bytes, laid out.
  std::vector<bool> ParamsKnown; ///< Per byte; empty: all known.
  bool Cooperative = false;
  unsigned SmCount = 132;
  uint64_t GridId = 1;
  /// Stop after this many warp instructions (0: no limit), or at this time
  /// (the epoch: none).
  uint64_t MaxWarpInstructions = 0;
  std::chrono::steady_clock::time_point Deadline{};
  /// Blocks to run (a contiguous range of linear indices); all by default.
  uint64_t FirstBlock = 0, BlockCount = ~uint64_t(0);
};

/// What a kernel's threads ask the device runtime for (dynamic
/// parallelism): a launch, or a copy or set of global memory. It runs, in
/// the order asked, once the launch that asked has finished (executed.cpp):
/// a kernel cannot wait for its children (CUDA 12 removed that), so a
/// program whose result does not depend on timing gets the same result.
/// Beyond this many device launches from one host launch (pending at once
/// from one launch, or run in all) the executor stops: a recursion that
/// does not end.
constexpr uint64_t MaxDeviceLaunches = 1 << 20;

struct DeviceWork {
  const XFunction *K = nullptr; ///< Null: a copy or a set.
  LaunchConfig Config;
  unsigned Depth = 0; ///< Its nesting depth (the host's launch is 0).
  uint64_t Dst = 0, Src = 0, Bytes = 0;
  int Value = -1; ///< A set's byte; -1: a copy from Src.
};

/// An error of the kernel's own that ends its launch on a GPU (not a limit
/// of the executor's): the program's next call that waits for the device
/// returns it, and every call after that.
enum class DeviceFault : uint8_t {
  None,
  Assert,             ///< cudaErrorAssert
  Trap,               ///< cudaErrorLaunchFailure
  IllegalAddress,     ///< cudaErrorIllegalAddress
  MisalignedAddress,  ///< cudaErrorMisalignedAddress
  IllegalInstruction, ///< cudaErrorIllegalInstruction
};

/// The CUDA runtime's name for F ("cudaErrorAssert").
const char *faultName(DeviceFault F);

/// Adds an allocation's base to a launch's list of those it read or wrote.
inline void addBase(std::vector<uint64_t> &V, uint64_t Base) {
  if ((V.empty() || V.back() != Base) &&
      std::find(V.begin(), V.end(), Base) == V.end())
    V.push_back(Base);
}

struct Outcome {
  bool Finished = false; ///< Every block ran to its end.
  std::string Error;     ///< Why not.
  DeviceFault Fault = DeviceFault::None;
  /// What the device prints on the program's standard error for the
  /// threads whose assert failed (each a line, as a GPU words it), and
  /// their number.
  std::string AssertLines;
  uint64_t AssertThreads = 0;
  uint64_t WarpInstructions = 0, ThreadInstructions = 0;
  /// For instruction issue: warp instructions reached (a GPU issues one
  /// whatever its guard), and of those the ones in loops; the PTX
  /// instructions of the kernel and the functions it may call, all, in
  /// loops, and memory ones in loops (with the SASS's counts, what a
  /// reached one stands for).
  uint64_t Issued = 0, IssuedInLoops = 0;
  uint64_t PtxInstructions = 0, PtxInLoops = 0, PtxMemoryInLoops = 0;
  /// A store or atomic made under a branch on unknown data: memory may hold
  /// bytes the GPU would not have written (they are marked unknown).
  bool UncertainWrites = false;
  /// printf output of the launch, in order.
  std::string Printed;
  /// Lanes that read or wrote a global address outside every allocation
  /// (a GPU may fault there, or read or overwrite another buffer), and the
  /// first of them, in words.
  uint64_t StrayLanes = 0;
  std::string FirstStray;
  /// Shared stores to bytes another warp of the block had read, unknown,
  /// since the last barrier (a race: on a GPU timing decides what the
  /// reader got), and the first of them, in words.
  uint64_t SharedRaces = 0;
  std::string FirstSharedRace;
  /// The fault was an address far from every allocation: lanes that ran
  /// away (a loop bound that wrapped), in a launch that may have no end
  /// but the fault.
  bool Runaway = false;
  /// Per wgmma instruction (its function and index): the warps that
  /// issued it, and its warpgroups' operand wavefronts (LineShared).
  std::map<std::pair<const XFunction *, uint32_t>,
           std::pair<uint64_t, uint64_t>>
      Wgmma;
  /// The bases of the regions the launch read and wrote (a launch that
  /// writes none of what it reads leaves the same memory when run again).
  std::vector<uint64_t> ReadBases, WrittenBases;
};

/// Forks nested deeper than this run one side, as other branches on
/// unknown values do (fork_join.cpp).
constexpr size_t MaxForkDepth = 4;

/// Runs I, whose guard is unknown on Lanes, on them as well as on Ran (the
/// lanes its executed guard lets through), its writes uncertain: a
/// register or predicate it sets is known on those lanes only where it
/// already held the same known value, else within the range of both
/// (fork_join.cpp). Outer: the lanes whose register writes are unknown
/// anyway.
void runGuardUnknown(Ctx &C, const XInstr &I, uint32_t Lanes, uint32_t Ran,
                     uint32_t Outer);

/// Runs call CI when it is one of the device runtime's for dynamic
/// parallelism (ops_device_runtime.cpp); false for any other.
bool deviceRuntimeCall(Ctx &C, const XInstr &I, const CallInfo &CI);

class Launch {
public:
  Launch(Program &P, const XFunction &K, GlobalMemory &Mem,
         const LaunchConfig &C, RequestSink *Sink);
  Outcome run();

  // For handlers.
  Program &Prog;
  const XFunction &Kernel;
  GlobalMemory &Mem;
  const LaunchConfig &Config;
  RequestSink *Sink;
  const SharedLayout &Layout;
  std::vector<uint64_t> LaunchConsts; ///< File FLaunch.
  std::vector<uint32_t> LaunchKnown;
  std::vector<uint8_t> KernelParams;
  KnownBits KernelParamsKnown;
  std::vector<uint8_t> GridWorkspace; ///< %envreg1/2 of a cooperative launch.
  uint64_t GridBarrier = 0;            ///< Its address.
  /// Dynamic parallelism: the parameter buffers handed out, by address,
  /// with the launch each was asked for; the work the threads asked for,
  /// in order; this launch's nesting depth.
  std::map<uint64_t, DeviceWork> ParamBuffers;
  std::vector<DeviceWork> DeviceQueue;
  unsigned Depth = 0;
  Outcome Out;
  bool Stop = false; ///< An error ended the launch.

  /// Ends the launch with Why, naming the instruction; F says how a GPU
  /// reports it to the program (None: a limit of the executor's).
  void fail(const XInstr &I, const std::string &Why,
            DeviceFault F = DeviceFault::None);
  /// Calls F from the current frame of W (lanes Active).
  void call(Ctx &C, const XInstr &I, const CallInfo &CI);
  /// Branch I's guard is unknown on Lanes (of which Taken took it): runs
  /// its sides one after the other and then, for those lanes, the other
  /// sides, and joins their registers where they meet (fork_join.cpp).
  void fork(Ctx &C, const XInstr &I, uint32_t Lanes, uint32_t Taken);
  /// Notes that the launch read (or wrote) region R.
  void touched(const Region *R, bool Write) {
    if (R)
      addBase(Write ? Out.WrittenBases : Out.ReadBases, R->Base);
  }
  /// The lanes leave the warp (exit).
  void exitLanes(Warp &W, uint32_t Lanes);
  /// A warp skipped the memory instructions Instrs of F with every lane.
  void predicatedOff(const XFunction &F, const std::vector<uint32_t> &Instrs) {
    if (Sink)
      Sink->predicatedOff(&F, Instrs.data(), Instrs.size());
  }
  /// Lane L of W touched global address A outside every allocation (or,
  /// Shared, shared offset A outside its variable where nvlink may have put
  /// another): its load gives an unknown value, its store is not made (and
  /// memory is no longer certain).
  void stray(const XInstr &I, const Warp &W, unsigned L, uint64_t A, bool Store,
             bool Shared = false);
  /// W's store at I wrote the shared word at Offset, which warp Reader had
  /// read unknown (at PTX line Line) with no barrier between.
  void sharedRace(const XInstr &I, const Warp &W, unsigned Reader,
                  uint64_t Offset, uint32_t Line);

private:
  void initBlock(Block &B, uint64_t Linear);
  void pushFrame(Warp &W, const XFunction &F, uint32_t Mask);
  void initFrame(Warp &W, Frame &Fr, const XFunction &F, uint32_t Mask);
  void bindCtx(Ctx &C, Warp &W);
  /// Runs W until it waits at a barrier, finishes, or Slice instructions
  /// have run (0: no slice).
  void runWarp(Block &B, Warp &W, uint64_t Slice);
  bool releaseBarriers(Block &B);
  void runBlock(Block &B);
  void runCooperative(uint64_t First, uint64_t Count);
  void returnFromFrame(Warp &W);
  /// The first sides of a fork have met: runs the second; or the second
  /// have: joins them (fork_join.cpp).
  void forkStep(Warp &W, Frame &Fr);
  uint64_t Budget = 0;
  std::vector<uint64_t> PredScratch;
  std::vector<uint32_t> PredScratchKnown;
};

std::string where(const XInstr &I, const XFunction &F);

} // namespace gmem::exec

#endif // GMEM_EXECUTOR_LAUNCH_H
