//===- program.h - PTX modules decoded once, linked, ready to run -----------===//
//
// A Program is the PTX of every translation unit of a build (several with
// -rdc=true), linked as nvcc links them: a call to an .extern function
// finds the module that defines it. Each function is decoded once into
// XInstrs: a handler per instruction chosen by opcode and type, operands
// resolved to register slots, branch targets and their reconvergence
// points (the immediate post-dominator, cfg.cpp) computed.
//
// Operands live in five files of 32-lane slots (machine.h): the frame's
// registers, the function's constants (immediates, addresses of variables
// and parameters), the warp's special registers, the launch's constants
// (shared variables' offsets), and the frame's own (local variables'
// addresses). A handler reads any operand the same way.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_EXECUTOR_PROGRAM_H
#define GMEM_EXECUTOR_PROGRAM_H

#include "expected.h"
#include "memory.h"
#include "ptx.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gmem::exec {

/// V rounded up to a multiple of A (V itself when A is 0).
inline uint64_t alignUp(uint64_t V, uint64_t A) {
  return A ? (V + A - 1) / A * A : V;
}

/// Operand files.
enum FileId : uint32_t {
  FReg = 0,
  FConst = 1,
  FSpecial = 2,
  FLaunch = 3,
  FFrame = 4,
  FPred = 5, ///< A predicate register (its mask, not 32 lanes).
};
constexpr uint32_t SlotBits = 28;
using Opnd = uint32_t;
inline Opnd opnd(FileId F, uint32_t Slot) { return (F << SlotBits) | Slot; }
inline FileId fileOf(Opnd O) { return FileId(O >> SlotBits); }
inline uint32_t slotOf(Opnd O) { return O & ((1u << SlotBits) - 1); }

/// The warp's special registers (file FSpecial), by slot.
enum Special : uint32_t {
  STidX,
  STidY,
  STidZ,
  SNtidX,
  SNtidY,
  SNtidZ,
  SCtaidX,
  SCtaidY,
  SCtaidZ,
  SNctaidX,
  SNctaidY,
  SNctaidZ,
  SLaneid,
  SWarpid,
  SNwarpid,
  SLanemaskEq,
  SLanemaskLt,
  SLanemaskLe,
  SLanemaskGt,
  SLanemaskGe,
  SSmid,
  SNsmid,
  SGridid,
  SDynSmem,
  STotalSmem,
  SEnvreg0, // 32 of them
  SClusterCtarank = SEnvreg0 + 32,
  SClusterNctarank,
  SZero, ///< Cluster ids and the like: 0 in a launch without clusters.
  SOne,  ///< Cluster sizes: 1.
  NumSpecials
};

/// Param: the frame's per-lane parameter area (a function's parameters,
/// the .param variables of calls); KernelParam: the launch's parameters.
enum class MemSpace : uint8_t {
  Global,
  Shared,
  Local,
  Param,
  KernelParam,
  Const,
  Generic
};

/// What a memory instruction does, for request events.
enum class MemOp : uint8_t { None, Load, Store, Atomic, Reduction };

struct XInstr;
struct Ctx;
using Handler = void (*)(Ctx &, const XInstr &);

/// One decoded instruction.
struct XInstr {
  Handler Fn = nullptr;
  Opnd D[4] = {}, S[4] = {};
  uint8_t ND = 0, NS = 0;
  int32_t Guard = -1;
  bool GuardNot = false;
  /// Control instructions (bra, ret, exit, bar...) see their guard
  /// themselves; others run on the lanes it lets through.
  bool GuardInHandler = false;
  uint8_t Width = 0; ///< Bytes per element (memory), or the type's.
  uint8_t Vec = 1;   ///< Elements per lane (vector memory operations).
  MemSpace Space = MemSpace::Global;
  MemOp Mem = MemOp::None;
  uint8_t Sub = 0;    ///< Sub-operation: comparison, atomic op, mode...
  /// A load with memory-order semantics (volatile, acquire, relaxed): what
  /// spin-waits poll with.
  bool Ordered = false;
  /// ldmatrix, stmatrix and the wmma.loads ptxas makes LDSM of: the GPU's
  /// counters see their wavefronts but no shared load or store
  /// instruction (Access::Matrix).
  bool Matrix = false;
  /// The address base is a 32-bit register: the GPU computes the address
  /// modulo 2^32 (a shared pointer strength-reduced below 0 and stepped
  /// back, HeCBench's convolution1D).
  bool Addr32 = false;
  uint16_t Flags = 0; ///< Modifiers (ftz, sat, rounding...), per handler.
  Opnd Addr = 0;      ///< Address base (memory operations).
  int64_t Off = 0;    ///< Address offset, or an immediate.
  uint32_t Target = 0, Reconv = 0; ///< Branches: target, reconvergence.
  /// A guarded forward branch over at most 16 plain instructions (no
  /// control, barrier or call): how many. ptxas predicates such bodies, so
  /// a GPU issues them even when the whole warp branches over them
  /// (cfg.cpp).
  uint8_t IfConverted = 0;
  /// Branches one of whose sides only returns: cfg.cpp leaves that side out
  /// of where the sides meet, so the lanes that go on past the meeting
  /// point may have returned where the guard is unknown (ops_control.cpp).
  bool SideReturns = false;
  /// Forward guarded branches over plain code: the XFunction::Skipped list
  /// of the memory instructions the whole warp skips when it takes the
  /// branch, and when it does not (the else side of an if/else); -1: none.
  int32_t SkipTaken = -1, SkipNot = -1;
  uint8_t InLoop = 0; ///< XFunction::InLoop's, at hand in the hot loop.
  /// Control: a branch (Target, or Extras' targets for brx), leaving the
  /// function (ret, exit, trap), or none.
  enum CtlT : uint8_t { None, Branch, MultiBranch, Leave } Ctl = None;
  int32_t Extra = -1; ///< Index into XFunction::Extras (long operand lists).
  int32_t Access = -1; ///< Memory instructions: index in the kernel's list.
  /// Branches whose sides may both run for a lane with an unknown guard:
  /// index in XFunction::ForkRegions, or -1 (cfg.cpp, fork_join.cpp).
  int32_t Fork = -1;
  /// Branches whose sides ptxas predicates into one path: index in
  /// XFunction::Diamonds, or -1 (cfg.cpp, ops_control.cpp).
  int32_t Diamond = -1;
  /// Branches to the else block of `if (a && b)` whose second test ptxas
  /// runs before the lanes meet there: index in XFunction::ShortJoins, or
  /// -1 (cfg.cpp, ops_control.cpp).
  int32_t ShortJoin = -1;
  const ptx::Instr *Src = nullptr;
};

struct XFunction;
class Program;

/// A call's operands: the callee, the arguments' and results' variables.
struct CallInfo {
  const XFunction *Callee = nullptr; ///< Null: indirect or external.
  std::string Name;                  ///< The callee's name.
  Opnd Target = 0;                   ///< Indirect: the function's address.
  std::vector<std::pair<uint32_t, unsigned>> Args; ///< Param offset, bytes.
  std::vector<std::pair<uint32_t, unsigned>> Rets;
  /// A kernel launch through the device runtime (dynamic parallelism).
  bool launchesKernel() const {
    return !Callee && Name == "__cudaCDP2LaunchDeviceV2";
  }
};

struct XFunction {
  const ptx::Function *Src = nullptr;
  const ptx::Module *Mod = nullptr;
  /// The program that decoded it: where an indirect call finds the
  /// functions whose address was taken.
  Program *Owner = nullptr;
  unsigned ModuleIndex = 0;
  std::string Name;
  std::vector<XInstr> Code;
  uint32_t NumRegs = 0, NumPreds = 0;
  std::vector<uint64_t> Consts; ///< Slots x 32 lanes.
  std::vector<uint32_t> ConstKnown;
  /// Frame constants (file FFrame): the byte offset of a local variable in
  /// the frame's local memory; the frame adds its base.
  std::vector<uint64_t> FrameOffsets;
  uint32_t LocalBytes = 0; ///< The frame's local memory per thread.
  /// Per-lane parameter area: this function's parameters, its results,
  /// and the .param variables of the calls it makes.
  uint32_t ParamBytes = 0;
  std::vector<std::pair<uint32_t, unsigned>> ParamSlots; ///< Offset, bytes.
  std::vector<std::pair<uint32_t, unsigned>> ReturnSlots;
  std::vector<CallInfo> Calls;
  std::vector<std::vector<Opnd>> Extras;
  /// Memory instructions in order (their XInstr::Access).
  std::vector<uint32_t> Accesses;
  /// The basic block of each instruction (cfg.cpp), and whether it lies in
  /// a loop (between a backward branch and its target).
  std::vector<uint32_t> BlockOf;
  std::vector<char> InLoop;
  /// Lists of memory instructions a branch skips (XInstr::SkipTaken).
  std::vector<std::vector<uint32_t>> Skipped;
  /// The registers and predicates (slots) the sides of a forward branch
  /// write, for branches whose sides are short, acyclic code without
  /// barriers, calls, atomics or warp-wide exchanges (XInstr::Fork).
  struct ForkRegion {
    std::vector<uint32_t> Regs, Preds;
  };
  std::vector<ForkRegion> ForkRegions;
  /// A branch both of whose sides are a few plain instructions (no memory,
  /// no guard) ending in a conditional branch to the same two places, as
  /// nvcc writes `(up && a > b) || (!up && a < b)`: per side (taken, not
  /// taken) where its body starts and its branch lies; the branch's target
  /// and where it goes otherwise (past unconditional jumps).
  struct DiamondSides {
    uint32_t Body[2], Branch[2], To[2], Else[2];
  };
  std::vector<DiamondSides> Diamonds;
  /// `if (a && b) X; else Y;` as nvcc writes it: a guarded branch to Y
  /// (Join) when a fails, then b's test, loads included, up to a guarded
  /// branch (Branch) whose lanes go to X (Other) or to Y. ptxas makes the
  /// lanes that failed a wait at Y for those that failed b (BSSY/BSYNC
  /// before Y: PMPP's co-rank search, one LDS issue where a stack that
  /// meets at the post-dominator makes two).
  struct ShortJoinSides {
    uint32_t Body, Branch, Join, Other;
  };
  std::vector<ShortJoinSides> ShortJoins;
  /// The arrays memory instructions index (provenance.cpp): "param:N" (the
  /// kernel's N-th parameter), "shared:NAME", "global:NAME"; and each
  /// access's (parallel to Accesses), or -1 when not known.
  std::vector<std::string> Origins;
  std::vector<int32_t> AccessOrigin;
  /// Per access (access_facts.cpp): whether its address is the same on
  /// every lane of a warp by construction, and whether an atom's result is
  /// read (1 for other instructions).
  std::vector<char> AccessUniform;
  std::vector<char> AccessResultRead;
  /// Per access: whether its address is computed from an atom's result,
  /// which the order of racing atomics decides (access_facts.cpp).
  std::vector<char> AccessRaced;
  /// Per access: the register its address adds an offset to, after
  /// following adds of a constant to registers written once (nvcc computes
  /// r + 8 afresh for each of two neighbouring stores, which ptxas makes
  /// one STS.64), or -1 where the address is a symbol's; and that offset,
  /// beside the instruction's own (access_facts.cpp).
  std::vector<int32_t> AccessBaseReg;
  std::vector<int64_t> AccessBaseOff;
  /// Conditional branches on an atom's result (access_facts.cpp), and per
  /// access whether it lies in a loop such a branch repeats or leaves (a
  /// compare-and-swap retry loop, a lock): how often a GPU runs it is
  /// decided by how the warps' atomics race (cfg.cpp).
  std::vector<uint32_t> AtomicBranches;
  std::vector<char> AccessRetried;
  /// Likewise for branches on a read of the clock (%clock, %globaltimer),
  /// a poll (a volatile or ordered load) or an mbarrier's try_wait or
  /// test_wait, and accesses in a loop one repeats or leaves (a wait, a
  /// backoff): how often it runs where warps wait for each other is
  /// decided by timing.
  std::vector<uint32_t> WaitBranches;
  std::vector<char> AccessWaiting;
  /// Static shared variables it refers to (indices in Program::Shared).
  std::vector<uint32_t> SharedVars;
  /// Whether its blocks may talk to each other through global memory
  /// (atomics, volatile or ordered accesses, fences, device malloc, calls
  /// through pointers): then they run in order on one thread.
  bool Communicates = false;
  /// Whether it reads or writes through texture or surface objects (tex,
  /// tld4, suld, sust).
  bool Textures = false;
  /// Whether it may stop its launch with an error of its own (trap, a
  /// device assert).
  bool MayFault = false;
  /// Whether it has ordered loads of global memory in loops (a spin-wait's
  /// polls of another block's flag).
  bool HasPolls = false;
  bool Decoded = false;
  std::string DecodeError; ///< Why it cannot run (an unknown opcode...).
};

/// A .shared variable of any module or function.
struct SharedVar {
  std::string Name;
  uint64_t Bytes = 0;
  unsigned Align = 4;
  bool Dynamic = false; ///< extern []: the launch's dynamic shared memory.
  bool InFunction = false; ///< Declared in a function's body.
};

/// The shared memory layout of one kernel.
struct SharedLayout {
  uint64_t StaticBytes = 0;
  uint64_t DynamicOffset = 0; ///< Where dynamic shared memory starts.
  /// Offset of each SharedVar (index in Program::Shared), ~0 when unused.
  std::vector<uint64_t> Offset;
};

/// Places module variables in global memory: returns the address of a
/// variable (its bytes and initial value given), or 0 to let the memory
/// place it.
using VariablePlacer = std::function<uint64_t(const ptx::Variable &)>;

class Program {
public:
  /// Links the modules (their text parsed already) and places their
  /// variables in Mem. Fails on a symbol defined twice.
  /// Variables the memory places hold their initial bytes, known when
  /// VariablesKnown (a run whose host may have written them says no).
  static Expected<std::unique_ptr<Program>>
  link(std::shared_ptr<const std::vector<ptx::Module>> Modules,
       GlobalMemory &Mem, const VariablePlacer &Place = nullptr,
       bool VariablesKnown = true);

  /// The entry function of that mangled name, decoded; null when none.
  /// A function that cannot be decoded says why in DecodeError.
  const XFunction *kernel(const std::string &Mangled);
  const XFunction *function(const std::string &Name);
  const std::vector<ptx::Module> &modules() const { return *Modules; }
  const std::vector<SharedVar> &shared() const { return Shared; }
  /// The shared layout of K and every function it may call.
  const SharedLayout &layout(const XFunction &K);
  /// Each module variable's address.
  uint64_t addressOf(const std::string &Name) const;
  /// The function whose address (as `mov rd, func` gives it) is A.
  const XFunction *functionAt(uint64_t A);
  uint64_t functionAddress(const XFunction &F);
  /// The address of the function defined as Def ("module:name", or a name
  /// any module defines), decoded when first called through it.
  uint64_t functionAddress(const std::string &Def);
  /// The functions whose address was taken (a vtable's, `mov rd, func`):
  /// those an indirect call may reach. Decodes them.
  std::vector<const XFunction *> addressTaken();

  /// Built with relocatable device code (-rdc=true): nvlink, not ptxas,
  /// placed each kernel's shared variables, in an order gmem does not know
  /// (scripts/probe_shared_layout.py: neither declared nor named), so an
  /// access past its variable may read another one on the GPU
  /// (ops_memory.cpp).
  bool LinkerPlacesShared = false;

  // Used by decode.cpp.
  int sharedIndex(const std::string &Name) const;
  const ptx::Function *definition(const std::string &Name,
                                  const ptx::Module **In) const;
  XFunction *decodeFunction(const std::string &Name);

private:
  std::shared_ptr<const std::vector<ptx::Module>> Modules;
  std::map<std::string, std::pair<const ptx::Module *, const ptx::Function *>>
      Defs;
  std::map<const ptx::Function *, std::unique_ptr<XFunction>> Decoded;
  std::vector<SharedVar> Shared;
  std::map<std::string, uint32_t> SharedByName;
  std::map<std::string, uint64_t> VarAddress;
  std::map<const XFunction *, SharedLayout> Layouts;
  /// The functions whose address was taken, as definitions' keys.
  std::vector<std::string> FunctionTable;
};

/// K and the functions it may call, K first: those it calls directly and,
/// where one calls through an address, every function whose address was
/// taken (decoded on the way).
std::vector<const XFunction *> callees(const XFunction &K);

/// callees(K) and, where one of them launches kernels itself (dynamic
/// parallelism), every kernel whose address the program takes and their
/// callees: all the code a launch of K may run before it completes. A
/// device launch's counters count its children's requests too.
std::vector<const XFunction *> withLaunches(const XFunction &K);

/// Decodes F (ptx) of module M into X. Unknown opcodes are decoded into a
/// handler that stops the launch naming them.
void decode(Program &P, const ptx::Module &M, const ptx::Function &F,
            XFunction &X);

/// Names the array each memory instruction of X indexes (X.Origins).
void computeOrigins(const ptx::Function &F, XFunction &X);
/// Which memory instructions of X have warp-uniform addresses and which
/// atomics' results are read (X.AccessUniform, X.AccessResultRead).
void computeUniformity(const ptx::Function &F, XFunction &X);
/// Which memory instructions of X have addresses computed from an atomic's
/// result (X.AccessRaced), which branches test one (X.AtomicBranches), and
/// which test the clock, a poll or an mbarrier wait (X.WaitBranches).
void computeRaced(const ptx::Function &F, XFunction &X);
/// The register and offset each memory instruction's address adds up to
/// (X.AccessBaseReg, X.AccessBaseOff).
void computeAddressBases(const ptx::Function &F, XFunction &X);

/// Computes each branch's reconvergence point (XInstr::Reconv): the first
/// instruction of the immediate post-dominator of its block, or the end of
/// the function.
void computeReconvergence(XFunction &X);
/// The memory instructions each forward branch over plain code skips
/// (XInstr::SkipTaken, SkipNot): what ptxas predicates instead, so that a
/// warp none of whose lanes runs them still executes them.
void computeSkips(XFunction &X);
/// Marks the branches whose two sides can both be run (XInstr::Fork).
void computeForks(XFunction &X);

} // namespace gmem::exec

#endif // GMEM_EXECUTOR_PROGRAM_H
