//===- model.h - The kernel model: the contract between the parts ---------===//
//
// The analyzer turns CUDA source into this plain data; the simulator runs it.
// Nothing here depends on Clang or CUDA. The model round-trips through JSON
// (model_json.h) and carries a schema version so stored models stay readable.
//
// A kernel body is a tree of statements (assignments to local slots, guards,
// loops, memory accesses, returns) whose values are integer expressions over
// the CUDA built-ins, kernel parameters and local slots, evaluated with C++
// integer semantics of the expression's type.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_MODEL_MODEL_H
#define GMEM_MODEL_MODEL_H

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gmem {

struct ExecutedCounts; // executor/executed.h

/// Bumped whenever the JSON form of the model changes incompatibly.
/// Version 2 added what the compiler emitted per access (Access::Compiled)
/// and which compiler was read (Module::Compiler); version 3 the accounting
/// of every SASS memory instruction (Kernel::Sass), reductions and async
/// copies (Access::Reduction, Access::AsyncPartner); version 4 the address
/// a loaded value came from (makeLoaded, Access::DataDependent). Fields
/// with a default may be added without a new version (an unknown's cause,
/// Expr::Cause and Access::ReasonCause, reads as Unmodelled when absent).
constexpr int ModelSchemaVersion = 4;

/// Why something is unknown, as code tells causes apart: rules and views
/// read the cause, never the sentence that says it to people.
enum class UnknownCause : uint8_t {
  Unmodelled,      ///< What the sentence says: a construct, an input, ...
  LoadedData,      ///< Depends on values the kernel loads from memory.
  PointerOverflow, ///< Its own pointer arithmetic leaves the address space.
  /// Decided by timing: how often it runs (a retry loop's atomics; the
  /// requests counted, each warp's alone, are the fewest a GPU makes), or
  /// its address (computed from racing atomics' results; the requests
  /// counted exactly). (A spin-wait's polls are neither: where blocks wait
  /// for each other the executor's order polls more than a GPU, whose
  /// blocks arrive at once.)
  Timing,
};
const char *causeName(UnknownCause C); ///< "loaded_data", as JSON spells it.
std::optional<UnknownCause> causeNamed(const std::string &Name);

/// An unknown's cause and its sentence.
struct Why {
  UnknownCause Cause = UnknownCause::Unmodelled;
  std::string Text;

  bool empty() const { return Text.empty(); }
  /// The same cause, said after Prefix ("its address cannot be computed: ").
  Why after(const std::string &Prefix) const { return {Cause, Prefix + Text}; }
  /// What code run under such a value (a condition, a loop bound) gets:
  /// data it depends on stays its cause; an overflow is not its own.
  Why under(const std::string &Prefix) const {
    return {Cause == UnknownCause::LoadedData ? Cause
                                              : UnknownCause::Unmodelled,
            Prefix + Text};
  }
};
inline Why unmodelled(std::string Text) {
  return {UnknownCause::Unmodelled, std::move(Text)};
}

struct SourceLoc {
  std::string File; ///< As given on the command line or as Clang names it.
  unsigned Line = 0;
  unsigned Col = 0;
};
/// "file:line:col", or "file:line" where the column is not known (a
/// recorded launch).
std::string locText(const SourceLoc &L);

/// An integer type as the device computes it: Bits is 1 (bool), 8, 16, 32 or
/// 64. Values are kept normalised in an int64_t: truncated to Bits, then
/// sign-extended (signed) or zero-extended (unsigned).
struct IntType {
  uint8_t Bits = 32;
  bool Signed = true;
  bool operator==(const IntType &O) const {
    return Bits == O.Bits && Signed == O.Signed;
  }
};

enum class Builtin : uint8_t {
  ThreadIdxX,
  ThreadIdxY,
  ThreadIdxZ,
  BlockIdxX,
  BlockIdxY,
  BlockIdxZ,
  BlockDimX,
  BlockDimY,
  BlockDimZ,
  GridDimX,
  GridDimY,
  GridDimZ,
  WarpSize,
};

enum class Op : uint8_t {
  Const,   ///< Value.
  Param,   ///< Index = kernel parameter; a pointer's value is its address.
  Var,     ///< Index = local slot.
  Builtin, ///< Index = static_cast<int>(Builtin).
  /// Not modelled; Reason says why (e.g. "depends on loaded data"). With
  /// one operand, a value loaded from global memory at that address (Type
  /// wide; Index 1 when it is a pointer): unknown unless the launch carries
  /// the memory's contents (Launch::Memory).
  Unknown,
  Cast, ///< Ops[0] converted to Type (truncation / extension).
  // Unary.
  Neg,
  BitNot,
  LNot,
  // Binary: operands already converted to a common type by the analyzer,
  // except shifts (result type of the left operand) and comparisons/logical
  // operators (result type bool {1, false}).
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  Shl,
  Shr,
  And,
  Or,
  Xor,
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,
  LAnd,
  LOr,
  Min,
  Max,
  Select, ///< Ops[0] ? Ops[1] : Ops[2].
  /// __shfl*_sync: Ops[0] read from another lane of the warp; Ops[1] the
  /// source lane (or delta, or xor mask), Ops[2] the width; Index a
  /// ShuffleMode.
  Shfl,
};

enum class ShuffleMode : uint8_t { Idx, Up, Down, Xor };

/// The lane whose value lane Lane of a shuffle receives, by CUDA's rules
/// (its own lane when the source is outside its width-sized segment, or in
/// a later segment for Xor); -1 when Width is not a power of two up to 32.
int shuffleSource(ShuffleMode M, unsigned Lane, int64_t B, int64_t Width);

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
  Op Kind = Op::Const;
  IntType Type;
  int64_t Value = 0;                             ///< Const only.
  int Index = -1;                                ///< Param, Var, Builtin.
  std::string Reason;                            ///< Unknown only.
  UnknownCause Cause = UnknownCause::Unmodelled; ///< Unknown only.
  /// Add, Sub, Mul: pointer arithmetic (pointer + index x element size).
  /// Mul: Ops[0] the index, Ops[1] the size; Add and Sub: Ops[0] the
  /// pointer, Ops[1] the offset. C++ leaves an overflow of it undefined, so
  /// a lane whose exact value leaves the address space is unknown, not
  /// wrapped (simulator/pointer_arith.h).
  bool PointerArith = false;
  std::vector<ExprPtr> Ops;
};

/// Normalises V to type T (truncate, then sign- or zero-extend).
inline int64_t normalize(uint64_t V, IntType T) {
  switch (T.Bits) {
  case 1:
    return V != 0;
  case 8:
    return T.Signed ? int64_t(int8_t(V)) : int64_t(uint8_t(V));
  case 16:
    return T.Signed ? int64_t(int16_t(V)) : int64_t(uint16_t(V));
  case 32:
    return T.Signed ? int64_t(int32_t(V)) : int64_t(uint32_t(V));
  default:
    return int64_t(V);
  }
}

/// Convenience constructors (model.cpp).
ExprPtr makeConst(int64_t V, IntType T = {});
ExprPtr makeParam(int Index, IntType T);
ExprPtr makeVar(int Index, IntType T);
ExprPtr makeBuiltin(Builtin B);
ExprPtr makeUnknown(std::string Reason, IntType T = {},
                    UnknownCause C = UnknownCause::Unmodelled);
ExprPtr makeUnknown(const Why &W, IntType T = {});
/// A value of type T loaded from global memory at Addr (see Op::Unknown;
/// its cause is LoadedData).
ExprPtr makeLoaded(std::string Reason, ExprPtr Addr, IntType T, bool Pointer);
ExprPtr makeCast(ExprPtr E, IntType T);
ExprPtr makeUnary(Op K, ExprPtr E, IntType T);
ExprPtr makeBinary(Op K, ExprPtr L, ExprPtr R, IntType T);
/// K (Add, Sub or Mul) as pointer arithmetic on 64-bit addresses.
ExprPtr makePointerArith(Op K, ExprPtr L, ExprPtr R);
ExprPtr makeSelect(ExprPtr C, ExprPtr T, ExprPtr F, IntType Ty);
ExprPtr makeShuffle(ShuffleMode M, ExprPtr V, ExprPtr B, ExprPtr Width);
/// Renders E as C-like text with slot/param names; for messages and tests.
std::string toString(const Expr &E, const struct Kernel *K = nullptr);

enum class Space : uint8_t { Global, Shared };
enum class AccessKind : uint8_t { Load, Store, Atomic };

/// How the GPU serves a shared-memory atomic's lanes, as ptxas compiles it
/// (measured on an H200: tests/data/programs/atomics_own/
/// shared_contention.cu, one warp under 13 lane patterns).
enum class SharedAtomicForm : uint8_t {
  /// ATOMS.ADD, .MAX, .INC, .EXCH...: each lane is an access of its bank of
  /// its own, lanes on one word too: the busiest bank's lanes (32 lanes on
  /// one word, 32 wavefronts).
  PerLane,
  /// ATOMS.POPC.INC, an add of 1 whose result is unused (a histogram's):
  /// lanes on one word are one access, as a store's.
  PerWord,
  /// ATOMS.CAS: twice PerLane (the compared and the new value).
  PerLanePair,
  /// ATOMS.CAST.SPIN: ptxas makes a float or 64-bit add a loop of rounds,
  /// each a shared load of the lanes left and this compare-and-swap (2
  /// wavefronts); in a 32-bit float add's the lowest lane of each bank
  /// succeeds, a 64-bit add's rounds follow a rule not found (unknown).
  SpinRound,
};

/// What nvcc emitted for one source access (analyzer/compiled reads it from
/// the SASS line table). Unchecked: counted as written.
struct CompiledForm {
  enum StateT : uint8_t {
    Unchecked, ///< No SASS read (or no toolkit): count the source.
    AsWritten, ///< One instruction of the source's width per execution.
    Merged,    ///< Part of a wider instruction (see Width, Leader, Loop).
    Hoisted,   ///< Loaded once before the loops it left (see Loop).
    Reused,    ///< No instruction: the value of an equal load is reused.
    Ambiguous, ///< The SASS does not say which; counted as written.
    /// Fully unrolled loops (see Loop): one instruction per distinct address
    /// over their iterations; a load of an address already loaded reuses
    /// the value, a store to it replaces the earlier one.
    OncePerAddress,
    /// The SASS has no instruction for it and no reason was proven: counted
    /// as the SASS says, no request (Note says what was looked for).
    NoInstruction,
    /// Loads in exclusive branches (a switch, an if/else) compiled into one
    /// load of an address selected per lane: access Leader, which the
    /// analyzer added before the branches, stands for that instruction.
    Selected,
    /// Narrower instructions of Width bytes at the byte offsets Parts of the
    /// object: a struct or vector copy of which only some members are used
    /// (`float4 q = v[i]; ... q.x + q.w` loads 4 bytes at 0 and 12).
    Split,
  } State = Unchecked;
  /// Merged: bytes per lane of the emitted instruction (8 or 16). Split:
  /// of each part.
  unsigned Width = 0;
  /// Split: the byte offsets of the parts in the object, ascending.
  std::vector<unsigned> Parts;
  /// Merged across accesses: the access whose line holds the instruction
  /// that covers the group (Width / Size accesses in a row); members before
  /// it in the source open the group, those after it only join an open
  /// one. -1 for merges
  /// across loop iterations (Loop >= 0). Selected: the access standing for
  /// the one instruction.
  int Leader = -1;
  /// An atomic nvcc aggregated across the warp (the address is the same on
  /// every lane): one elected lane issues it for all.
  bool OneLane = false;
  /// The access added for one load of a selected address: how many loads
  /// of exclusive branches it serves (their accesses are Selected).
  unsigned Branches = 0;
  /// Merged across iterations: Width / Size consecutive iterations of the
  /// enclosing loop this many loops out (0 = innermost) form one request.
  /// Hoisted: out of the innermost Loop + 1 loops.
  /// OncePerAddress: within one run of the innermost Loop + 1 loops.
  int Loop = -1;
  std::string Instruction; ///< The SASS opcode, e.g. "LDS.128".
  std::string Note;        ///< Why (Ambiguous: what was not established).
  /// The source line the line table gives the instruction (its innermost
  /// inlined frame), where it is not the access's own (a statement over
  /// several lines, a hoisted load, an atomic inside CUDA's headers): 0
  /// otherwise; File is empty when it is the access's own file. Per-line
  /// comparisons with the GPU use them.
  unsigned Line = 0;
  std::string File;
  /// Every SASS instruction of its line and class carries a guard predicate
  /// (@P0): ptxas predicated the access instead of branching around it, so
  /// a warp whose lanes all skip it still executes it, with no request
  /// (AccessStats::PredicatedOff).
  bool Guarded = false;
};

/// One memory instruction as written in the source (a device function inlined
/// twice yields two accesses with the same location).
struct Access {
  int Id = -1; ///< Index in Kernel::Accesses.
  Space Sp = Space::Global;
  AccessKind Kind = AccessKind::Load;
  unsigned Size = 4; ///< Bytes per lane: 1, 2, 4, 8 or 16.
  /// Byte address. Global: starts from a pointer Param (its value is the
  /// allocation's address). Shared: starts from the array's Offset constant.
  ExprPtr Address;
  SourceLoc Loc;
  std::string Text;     ///< The expression as written, e.g. "in[iy * nx + ix]".
  std::string Array;    ///< Base name: parameter or shared array.
  int SharedArray = -1; ///< Index in Kernel::Shared when Sp == Shared.
  /// An atomic whose old value is not used: the GPU's reduction (RED),
  /// counted in Nsight's op_red figures rather than op_atom.
  bool Reduction = false;
  /// A shared-memory atomic: how its lanes are served.
  SharedAtomicForm SharedAtomic = SharedAtomicForm::PerLane;
  /// An asynchronous global-to-shared copy (cp.async, LDGSTS) is two
  /// accesses, a global load and a shared store, each naming the other
  /// here. The load counts in the L1 global load requests and sectors but
  /// not in the SASS instruction and byte counts of global loads; the store
  /// in no shared load or store figure.
  int AsyncPartner = -1;
  /// A tensor-core matrix load or store (LDSM, STSM): the GPU's counters
  /// count its shared wavefronts and bytes but no shared load or store
  /// instruction.
  bool Matrix = false;
  /// Set when the address cannot be modelled; the access still counts as
  /// executed but its sectors/wavefronts are unknown.
  std::optional<std::string> UnknownReason;
  UnknownCause ReasonCause = UnknownCause::Unmodelled; ///< UnknownReason's.
  /// The address is unknown only through values loaded from memory: where
  /// a launch carries the memory's contents, it is evaluated after all.
  bool DataDependent = false;
  CompiledForm Compiled;
};

/// Marks shared atomic A, which ptxas makes a compare-and-swap loop
/// (SharedAtomicForm::SpinRound), unknown to the model: its rounds depend
/// on the lanes' banks round by round, which the executed run counts
/// (executor/executed.cpp). Said alike where the call or the SASS tells.
inline void markSpinLoop(Access &A) {
  A.SharedAtomic = SharedAtomicForm::SpinRound;
  if (A.UnknownReason)
    return;
  A.UnknownReason = "ptxas makes this shared atomic a loop of loads and "
                    "compare-and-swaps (sm_90 has no shared atomic for its "
                    "type) whose rounds the model does not count";
  A.ReasonCause = UnknownCause::Unmodelled;
}

/// Whether Call is one of the device heap's (malloc, free).
inline bool deviceHeapCall(const std::string &Call) {
  return Call == "malloc" || Call == "free" ||
         Call == "__nv_aligned_device_malloc" ||
         Call == "__cuda_syscall_aligned_malloc"; // What the former calls.
}

/// Why a kernel that calls the device runtime's Call (printf, malloc, free,
/// a device launch's) moves global memory that no access stands for
/// (Kernel::UnmodelledGlobal), Where placing the call ("at f.cu:3:5");
/// empty for any other call. The model and the executed path say it alike.
inline std::string runtimeCallGlobal(const std::string &Call,
                                     const std::string &Where) {
  if (Call == "printf" || Call == "vprintf")
    return "printf " + Where +
           " writes its arguments to the printf buffer in global memory (not "
           "modelled)";
  if (deviceHeapCall(Call))
    return Call + " " + Where +
           " works on the device heap in global memory (not modelled)";
  if (Call.rfind("__cudaCDP2", 0) == 0)
    return "the device runtime's " + Call.substr(10) + " " + Where +
           " (dynamic parallelism) works in global memory of its own (not "
           "modelled)";
  return "";
}

/// Why a kernel that launches kernels (Kernel::LaunchesKernels) has no DRAM,
/// L2 or time estimate.
inline std::string launchesKernelsWhy() {
  return "it launches kernels itself (dynamic parallelism): the device "
         "runtime's own traffic and its children's launches are not modelled";
}

/// Whether ptxas made A an instruction of its own where it is written (not
/// a value reused or hoisted, a part of another's wide instruction, or an
/// async copy's shared side).
inline bool hasOwnInstruction(const Access &A) {
  const CompiledForm &C = A.Compiled;
  return C.State != CompiledForm::Reused &&
         C.State != CompiledForm::NoInstruction &&
         C.State != CompiledForm::Hoisted &&
         C.State != CompiledForm::Selected &&
         !(C.State == CompiledForm::Merged && C.Leader != A.Id) &&
         !(A.AsyncPartner >= 0 && A.Sp == Space::Shared);
}

/// Whether A, on a branch side, tells that ptxas branched around the side
/// rather than predicating it: its own instruction has no guard. Then no
/// access of the side is executed predicated off.
inline bool branchedAround(const Access &A) {
  return hasOwnInstruction(A) && !A.Compiled.Guarded;
}

/// The instructions a warp executes with every lane off where it skips A:
/// ptxas predicated A (CompiledForm::Guarded), one per part it kept.
inline unsigned predicatedOffInstructions(const Access &A) {
  if (!A.Compiled.Guarded)
    return 0;
  return A.Compiled.State == CompiledForm::Split
             ? unsigned(A.Compiled.Parts.size())
             : 1;
}

enum class StmtKind : uint8_t {
  Assign, ///< Slot = Value (for the active lanes).
  If,     ///< Cond ? Then : Else.
  Loop,   ///< while (CondPre; Cond) { Body; Step }  (TestFirst=false: do-while)
  Access, ///< Execute Kernel::Accesses[AccessId].
  Return, ///< Active lanes leave the innermost Call (or the kernel).
  Break,  ///< Active lanes leave the innermost Loop.
  Continue, ///< Active lanes skip to the innermost Loop's Step.
  Call,     ///< An inlined __device__ function: Body, with its own Return.
};

struct Stmt {
  StmtKind Kind = StmtKind::Assign;
  SourceLoc Loc;
  int Slot = -1;                ///< Assign.
  ExprPtr Value;                ///< Assign.
  ExprPtr Cond;                 ///< If, Loop.
  std::vector<Stmt> Then, Else; ///< If.
  std::vector<Stmt> CondPre;    ///< Loop: accesses made by the condition.
  std::vector<Stmt> Body;       ///< Loop, Call.
  std::vector<Stmt> Step;       ///< Loop: the for-increment.
  bool TestFirst = true;        ///< Loop.
  int AccessId = -1;            ///< Access.
  std::string Callee;           ///< Call: the function's name.
};

enum class ParamKind : uint8_t { Int, Pointer, Float, Other };

struct Param {
  std::string Name;
  std::string TypeName; ///< As written, e.g. "const float *".
  ParamKind Kind = ParamKind::Int;
  IntType Type;             ///< Int: its type; Pointer: {64, false}.
  unsigned PointeeSize = 0; ///< Pointer: sizeof(*p).
  unsigned Bytes = 0;       ///< sizeof the parameter (0: not known).
};

struct SharedArray {
  std::string Name;
  bool Dynamic = false; ///< extern __shared__: size comes from the launch.
  uint64_t Offset = 0;  ///< Byte offset in the block's shared memory.
  uint64_t Bytes = 0;   ///< Static size; 0 for dynamic.
  unsigned ElemSize = 4;
  std::vector<uint64_t> Dims; ///< Static extents, outermost first.
  SourceLoc Loc;
};

struct Slot {
  std::string Name; ///< Source name, made unique by the analyzer if needed.
  IntType Type;
};

/// What the kernel's SASS holds and how much of it the model accounts for
/// (analyzer/compiled fills it; Read stays false without a toolkit).
struct SassAccount {
  bool Read = false;
  /// Memory instructions, each subroutine's counted once per call site.
  unsigned Instructions = 0;
  /// Every instruction of the function, memory or not, those in loops, and
  /// the memory instructions in loops (SassFunction's).
  unsigned AllInstructions = 0, LoopInstructions = 0, LoopMemory = 0;
  /// Of those, claimed by an access of the model.
  unsigned Claimed = 0;
  /// Outside every figure gmem predicts, so reported, not priced: local
  /// memory (LDL, STL: local arrays, register spills), the texture pipe
  /// and bulk copies (TMA).
  unsigned Local = 0, Texture = 0, Bulk = 0;
  /// An instruction of the LSU figures that no access claims: the figures
  /// of its kind are unknown.
  struct UnclaimedInstr {
    std::string Opcode;
    uint64_t Offset = 0;
    SourceLoc Loc; ///< Its line (Col 0); Line 0 when the table gives none.
    Space Sp = Space::Global;
    AccessKind Kind = AccessKind::Load;
    bool Reduction = false, Async = false;
    unsigned Copies = 1; ///< Call sites of the subroutine it is in.
  };
  std::vector<UnclaimedInstr> Unclaimed;
};

struct Kernel;
/// A kernel warning as a recorded launch reads it: an address the model
/// calls not modelled because of loaded data is computed where the launch
/// knows the bytes, and the warning says so.
std::string recordedWarning(const Kernel &K, const std::string &W);

struct Kernel {
  std::string Name;        ///< As a user names it: "sgemm_coalescing<32>".
  std::string MangledName; ///< As the device sees it, when known.
  SourceLoc Loc;
  std::vector<Param> Params;
  std::vector<SharedArray> Shared;
  std::vector<Slot> Slots;
  std::vector<Access> Accesses;
  std::vector<Stmt> Body;
  /// Constructs the analyzer could not model and what it did about them.
  std::vector<std::string> Warnings;
  /// Those of them that no path counts, named whichever prices a launch:
  /// texture and surface instructions, on the texture pipe.
  std::vector<std::string> Uncounted;
  /// Why the kernel moves global memory that no access stands for (printf
  /// writes its arguments to the printf buffer); empty when it does not.
  /// Its global figures are then unknown.
  std::string UnmodelledGlobal;
  /// It calls malloc or free: it uses the device heap, which kernel replay
  /// (how gmem-verify's counters are taken) does not restore between
  /// passes.
  bool DeviceHeap = false;
  /// It launches kernels itself (dynamic parallelism): its launch counts
  /// its children's requests, and a GPU's DRAM, L2 and time for it include
  /// the device runtime's traffic and launch latency, which no access
  /// stands for (it has no estimate of them: launchesKernelsWhy).
  bool LaunchesKernels = false;
  /// No analysed file defines it (a library's own kernel, one in a file
  /// Clang could not parse): a recording added it for launches it ran, and
  /// only their execution prices them.
  bool NoModel = false;
  SassAccount Sass;

  int paramIndex(const std::string &Name) const;
  /// Per parameter, whether any expression of the body reads it.
  std::vector<bool> paramsRead() const;
};

struct Dim3 {
  uint64_t X = 1, Y = 1, Z = 1;
  uint64_t count() const { return X * Y * Z; }
  bool operator==(const Dim3 &O) const {
    return X == O.X && Y == O.Y && Z == O.Z;
  }
};

/// A kernel argument's value for one launch.
/// The Allocation of a null pointer argument (NULL, nullptr, 0).
inline const char *const NullPointer = "nullptr";

struct ArgValue {
  enum KindT : uint8_t { Int, Float, Pointer, Unknown } Kind = Unknown;
  int64_t IntValue = 0;
  double FloatValue = 0;
  /// Pointer: which allocation (host variable name, or the recorded
  /// allocation's; equal names alias, and NullPointer is address 0) and the
  /// offset into it (from host code: modulo 256, as cudaMalloc aligns to
  /// 256; recorded: exact).
  std::string Allocation;
  uint64_t AlignOffset = 0;
  std::string Reason; ///< Unknown: why (e.g. "read from argv").
};

/// One allocation as a recorded launch finds it: where the program saw it
/// and, when no kernel or library may have written it, its bytes.
struct MemoryImage {
  uint64_t RealBase = 0, Bytes = 0;
  std::shared_ptr<const std::string> Data; ///< Null: contents not known.
  std::string Unknown;                     ///< Why Data is null.
};

/// A kernel launch as found in host code (or built from the command line).
/// What running a launch's PTX counted for its instruction issue
/// (exec::Outcome's): warp instructions reached, those in loops, and the
/// kernel's static PTX instructions, all, in loops, and memory ones in
/// loops.
struct PtxIssue {
  uint64_t Issued = 0, IssuedInLoops = 0;
  uint64_t Static = 0, StaticInLoops = 0, StaticMemoryInLoops = 0;
};

struct Launch {
  std::string Kernel; ///< Kernel::Name.
  Dim3 Grid, Block;
  uint64_t DynamicSmem = 0;
  std::vector<ArgValue> Args; ///< One per kernel parameter.
  SourceLoc Loc;              ///< The <<<...>>> in the host code.
  /// Why grid, block or shared size could not be computed (empty when all
  /// were); the simulator refuses such launches.
  std::vector<std::string> Unresolved;
  /// Recorded runs: every allocation of the run at this launch, by the
  /// name pointer arguments give (ArgValue::Allocation).
  std::map<std::string, MemoryImage> Memory;
  /// Recorded runs: why a GPU run may not make this launch as recorded
  /// (the host read back memory a kernel may have written before it).
  std::string Caveat;
  /// Functional recordings: what running the launch on its PTX counted,
  /// per access of its executed kernel (executor/executed.h). Not in the
  /// JSON.
  std::shared_ptr<const ExecutedCounts> Executed;
  /// Functional recordings: what the launch's run to its end counted for
  /// instruction issue. Not in the JSON.
  std::optional<PtxIssue> Ran;
  /// Recorded runs: each argument's bytes as the program passed them
  /// (empty where not recorded), for the executed path. Not in the JSON.
  std::vector<std::vector<uint8_t>> ArgBytes;
  /// Where this launch came from when it is not where the module's
  /// launches come from (CompilerInfo::Launches): "interpreted" for one
  /// that reading the host code found after a recorded run stopped.
  std::string Origin;
  /// Recorded runs: a kernel node of a CUDA graph, run by cudaGraphLaunch
  /// (gmem-verify does not measure those). Not in the JSON.
  bool FromGraph = false;
  /// Recorded runs: the host's copies and sets into allocations since the
  /// launch before, which a warm L2 holds (simulator/l2_residency.h). Not
  /// in the JSON.
  struct HostWrite {
    std::string Allocation;
    uint64_t Bytes = 0;
    bool Set = false; ///< cudaMemset*, not a copy.
  };
  std::vector<HostWrite> HostWrites;
};

/// Which instructions the counts are of.
struct CompilerInfo {
  std::string Used = "source"; ///< "source" or "nvcc".
  std::string Version;         ///< nvcc's release, e.g. "13.0.88".
  std::string Arch;            ///< The -arch compiled for.
  /// Empty when the SASS was read; otherwise why compiler merging was not
  /// checked (no toolkit, --compiler source, nvcc failed).
  std::string NotChecked;
  bool FromCache = false;
  /// Where the launches came from: "interpreted" (host code read by
  /// gmem), "recorded" (the program run against the recording runtime).
  std::string Launches = "interpreted";
  /// Why --host auto interpreted instead of recording (no main(), no
  /// toolkit, nvcc's error); empty otherwise.
  std::string LaunchesWhy;
  /// A recorded program that crashed or ran past the time limit: how it
  /// stopped (its launches before that are kept; gmem-analyze exits 2).
  std::string HostStopped;
  /// A recorded program's exit status and the end of what it printed (a
  /// result check's verdict, now that its kernels run).
  int ProgramExit = 0;
  std::string ProgramOutput;
  /// What the recorded build got beyond the given files and flags, and
  /// which of the given flags Clang did not get (a sentence each).
  std::vector<std::string> BuildNotes;
  /// The recorded program's calls of NVIDIA libraries that run kernels of
  /// their own (cuBLAS's GEMMs), by API and count: a GPU's measurement
  /// holds those kernels, which the source does not.
  std::map<std::string, unsigned> LibraryCalls;
  /// Recorded launches the CUDA runtime refused (a block of more than 1024
  /// threads): a GPU runs none of them either.
  unsigned RefusedLaunches = 0;
};

/// Everything the analyzer found in one translation unit.
struct Module {
  int SchemaVersion = ModelSchemaVersion;
  std::string File;
  CompilerInfo Compiler;
  std::vector<Kernel> Kernels;
  std::vector<Launch> Launches; ///< In host-code order.
  /// Notes of the SASS step on a kernel's model (kernel, text), held back
  /// until a launch of that kernel takes the model's figures: where the
  /// executed PTX gives them, they are about nothing reported. Not in the
  /// JSON.
  std::vector<std::pair<std::string, std::string>> ModelNotes;
  /// The PTX nvcc emitted for each translation unit that has device code
  /// (its file, the text), which the executed path runs. Not in the JSON.
  std::vector<std::pair<std::string, std::string>> DevicePtx;
  /// The same units' SASS (nvdisasm -c -gi). Not in the JSON.
  std::vector<std::pair<std::string, std::string>> DeviceSass;
  /// Built with relocatable device code (-rdc=true): nvlink placed the
  /// kernels' shared variables (exec::Program::LinkerPlacesShared). Not in
  /// the JSON.
  bool RelocatableDeviceCode = false;

  const Kernel *findKernel(const std::string &Name) const;
};

} // namespace gmem

#endif // GMEM_MODEL_MODEL_H
