//===- executed.h - An executed launch, priced as a modelled one is ---------===//
//
// The executor's requests go through the simulator's pipeline (memory units
// and listeners), so that an executed launch has the same AccessStats as a
// simulated one. Its accesses are the PTX's memory instructions: one Access
// per global or shared instruction of the kernel and of every function it
// may call (two for cp.async: its global and its shared side), in an order
// that depends on the PTX alone, so that the recording runtime (which runs
// the launch) and gmem-analyze (which reports it) number them alike.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_EXECUTOR_EXECUTED_H
#define GMEM_EXECUTOR_EXECUTED_H

#include "arch.h"
#include "launch.h"
#include "model.h"
#include "request_listeners.h"
#include "result.h"

#include <map>
#include <optional>
#include <vector>

namespace gmem {

struct ExecutedKernel {
  /// Name, mangled name and accesses (space, kind, width, reduction, async
  /// partner; Loc is the innermost source position, Text empty): what
  /// pricing needs. gmem-analyze adds the source's words.
  Kernel K;
  /// Per function: instruction index x 2 + part -> access id, or -1.
  std::map<const exec::XFunction *, std::vector<int>> Ids;
  /// Per access: its function and instruction.
  std::vector<std::pair<const exec::XFunction *, uint32_t>> Where;
  /// Per access, what tells whether ptxas may have merged it with its
  /// neighbours into one wider instruction: its basic block, its address
  /// base (a register slot, or a constant) and offset.
  struct Site {
    uint32_t Block = 0;
    uint32_t Base = 0;
    int64_t Offset = 0;
    /// The address is the same on every lane by construction; the result
    /// (of an atom) is read.
    bool Uniform = false;
    bool ResultRead = true;
    /// Where a shared variable's own name is the base: the access's byte
    /// offset in the kernel's shared memory (Program::layout, as ptxas
    /// lays it out), else -1.
    int64_t Placed = -1;
    /// Where nvcc gave the instruction no line (`.loc 1 0 0`: a load of an
    /// address selected between two branches' accesses), or the binary's
    /// line table gives it another line than the PTX's: that line, which a
    /// GPU counts it at (0: none).
    unsigned SassLine = 0;
    std::string SassFile;
    /// Merged by one window of a variable: how many accesses make the
    /// instruction (fewer than Width / Size where ptxas reads a whole
    /// window, of several sizes); 0 where its parts come over a loop's
    /// iterations (Width / Size of them).
    unsigned Parts = 0;
    /// A load ptxas sank into the code that uses it (reconcile.cpp,
    /// markSunkLoads): made with the lanes that reach that code's first
    /// memory access, this one; -1 for none.
    int SunkAnchor = -1;
  };
  std::vector<Site> Sites;

  int id(const exec::XFunction *F, uint32_t Instr, uint8_t Part) const;
  /// Access Id is the shared side of a generic instruction (its lanes that
  /// reached shared memory); the instruction's first access is the global
  /// side, and ptxas's one instruction stands for both.
  bool sharedSideOfGeneric(size_t Id) const;
};

/// The accesses of kernel K and the functions it may call; Shared, K's
/// shared layout, places the accesses to shared variables by name.
ExecutedKernel executedKernel(const exec::XFunction &K,
                              const exec::SharedLayout *Shared = nullptr);

/// K and the functions it may call, K first.
std::vector<const exec::XFunction *> reachable(const exec::XFunction &K);

/// The source positions of a PTX instruction, innermost (the inlined
/// library line) first, outermost (the kernel's own line) last.
std::vector<SourceLoc> sourceChain(const exec::XFunction &F, uint32_t Instr);

/// What executing a launch counted, per access of its ExecutedKernel.
struct ExecutedCounts {
  std::vector<AccessStats> Stats;
  double Seconds = 0; ///< How long the run took.
  std::vector<OrderedExample> Misaligned;
  /// Global load sectors new to their block: what the L1s ask of the L2
  /// (simulator/l2_traffic.h), over every block run.
  std::optional<uint64_t> L1MissSectors;
  exec::Outcome Out;
  /// Out.Wgmma by source line (the innermost of its inline chain).
  std::vector<LineShared> LineOnly;
  /// False for a run made for its results alone (a launch the model
  /// prices): no request was priced, Stats and Misaligned are empty.
  bool Priced = true;
};

/// Runs the launch over Mem and prices every request with Arch's memory
/// units. Blocks run on Threads threads (0: one per core) when no block may
/// talk to another (XFunction::Communicates); in order on one otherwise.
/// Price false runs it for what it writes alone (ExecutedCounts::Priced).
ExecutedCounts executeLaunch(exec::Program &P, const exec::XFunction &K,
                             const ExecutedKernel &EK, exec::GlobalMemory &Mem,
                             const exec::LaunchConfig &C, const ArchRules &A,
                             unsigned Threads = 0, bool Price = true);

} // namespace gmem

#endif // GMEM_EXECUTOR_EXECUTED_H
