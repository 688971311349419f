//===- events.h - What an executed memory instruction tells ----------------===//
//
// Every warp-level global or shared memory instruction the executor runs is
// one MemRequest to the launch's sink: which instruction, its lanes, their
// addresses and width. gmem prices these with the same memory units and
// listeners as the kernel model's requests (executed_kernel.h).
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_EXECUTOR_EVENTS_H
#define GMEM_EXECUTOR_EVENTS_H

#include <cstddef>
#include <cstdint>

namespace gmem::exec {

struct XFunction;
enum class MemSpace : uint8_t;
enum class MemOp : uint8_t;

struct MemRequest {
  const XFunction *Fn = nullptr; ///< The function holding the instruction.
  uint32_t Instr = 0;            ///< Its index in Fn->Code.
  MemOp Op;
  MemSpace Space; ///< Global or Shared (a generic access, resolved).
  unsigned Size = 0; ///< Bytes per lane.
  uint32_t Mask = 0; ///< Lanes that issue it.
  /// Lanes whose address depends on unknown bytes: their addresses are not
  /// the GPU's.
  uint32_t Unknown = 0;
  /// Lanes that got here through a branch on an unknown value: the GPU may
  /// not have issued this request at all.
  uint32_t Uncertain = 0;
  /// A poll of a spin-wait that found what the warp's last poll found: how
  /// often a GPU polls is decided by timing, so this request may not be
  /// made there.
  bool Spin = false;
  /// A poll (an ordered load in a loop, as a spin-wait makes): made at
  /// least this once; how many more times a GPU makes it is decided by
  /// timing.
  bool Poll = false;
  /// An ordered global load outside a loop, in a function with polls in
  /// loops, of a launch of several blocks: a decoupled look-back's first
  /// read of a neighbour's status. Whether the GPU then polls depends on whether the
  /// neighbour was done, which timing decides: the polls of its function
  /// are made at least as often as here.
  bool Lookback = false;
  /// 32 addresses (active lanes only): global addresses, or offsets in the
  /// block's shared memory.
  const uint64_t *Addr = nullptr;
  uint64_t Block = 0; ///< Linear block index.
  unsigned Warp = 0;
  /// The instruction's second request: the shared side of an async copy
  /// (cp.async), whose first is the global side, or the lanes of a generic
  /// instruction that reached shared memory.
  uint8_t Part = 0;
  /// An async copy's other side's addresses: the shared side's wavefronts,
  /// and a copy bypassing L1 (cp.async.cg) its global side's sectors,
  /// follow both (simulator/async_copy_units.h).
  const uint64_t *Partner = nullptr;
  bool Bypass = false;
};

class RequestSink {
public:
  virtual ~RequestSink() = default;
  virtual void request(const MemRequest &R) = 0;
  /// A generic instruction whose lanes R.Mask reached shared memory
  /// (Part 1, after its shared request; R.Addr null) or local or parameter
  /// memory (Part 0; R.Addr their offsets there; Space Local where no lane
  /// reached global or shared memory, so that no request was made).
  virtual void elsewhere(const MemRequest &R) {}
  /// The N memory instructions Instrs of Fn reached by a warp with every
  /// lane off them (one whose guard is false on each, or those of a plain
  /// branch side the whole warp skips, XFunction::Skipped): no request,
  /// but a GPU executes them where ptxas predicated that code.
  virtual void predicatedOff(const XFunction *Fn, const uint32_t *Instrs,
                             size_t N) {}
};

} // namespace gmem::exec

#endif // GMEM_EXECUTOR_EVENTS_H
