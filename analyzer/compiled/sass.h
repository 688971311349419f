//===- sass.h - Memory instructions of nvdisasm -g/-gi output -------------===//
//
// Reads the text nvdisasm prints for a cubin built with -lineinfo
// (`nvdisasm -c -gi`): one function per `.text.<mangled name>` section, the
// instructions at their offsets, and the `//## File "...", line N` comments
// (with -gi, `... inlined at "...", line M` chains, innermost first) that
// give each instruction's source line. Only what gmem needs is kept: every
// memory instruction (global, generic, shared, local, the async global to
// shared copy, texture and bulk copies) with its space, kind and width, the
// address ranges of loops (backward branches), and how often each
// subroutine (a __noinline__ function placed in the kernel's section) is
// called. Instructions that can never run (`@!PT`) are dropped.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_COMPILED_SASS_H
#define GMEM_ANALYZER_COMPILED_SASS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gmem {

struct SassLoc {
  std::string File;
  unsigned Line = 0;
};

enum class SassSpace : uint8_t {
  Global,  ///< LDG, STG, ATOMG, REDG.
  Shared,  ///< LDS, STS, ATOMS, LDSM, STSM.
  Generic, ///< LD, ST, ATOM, RED: global memory in gmem's kernels.
  Local,   ///< LDL, STL: local arrays and register spills.
  Async,   ///< LDGSTS: a global load whose data goes to shared memory.
  Texture, ///< TEX, TLD, SULD, SUST, ...: the texture pipe.
  Bulk,    ///< UBLKCP, UTMALDG, ...: the tensor memory accelerator.
};

enum class SassKind : uint8_t {
  Load,
  Store,
  Atomic,    ///< Returns the old value (ATOM, ATOMG, ATOMS).
  Reduction, ///< Returns nothing (RED, REDG).
};

struct SassInstr {
  uint64_t Offset = 0;
  std::string Opcode; ///< With modifiers: "LDS.128", "LDG.E.64.CONSTANT".
  std::string Operands;
  bool Predicated = false; ///< Has a guard predicate (@P0, @!P1).
  SassSpace Space = SassSpace::Global;
  SassKind Kind = SassKind::Load;
  unsigned Width = 4; ///< Bytes per lane.
  /// A warp-aggregated atomic: guarded by "this lane is the elected one"
  /// (FLO of a vote, compared with SR_LANEID), so one lane issues it.
  bool OneLane = false;
  /// ldmatrix/stmatrix: lanes supply row addresses of 8x8 tiles.
  bool Matrix = false;
  /// How many times it runs per pass through the kernel's code: 1, or the
  /// number of call sites of the subroutine it is in.
  unsigned Copies = 1;
  /// In a subroutine: the line table gives its own lines, not its calls';
  /// CallLines holds the lines of the CALLs that reach it.
  bool InSubroutine = false;
  std::vector<unsigned> CallLines;
  /// Its address operand: a register (expression) and an immediate byte
  /// offset, `[R8.64+0xc]` -> "R8.64", 12; Base is empty when there is none.
  std::string AddrBase;
  int64_t AddrOffset = 0;
  /// Source location, innermost (the inlined callee) first, then each call
  /// site outwards; empty when the line table gives none.
  std::vector<SassLoc> Where;
};

struct SassFunction {
  std::string Name; ///< Mangled, as in the cubin's symbol table.
  std::vector<SassInstr> Memory;
  /// Every instruction that can run (NOP padding, `@!PT` and the closing
  /// branch to itself left out),
  /// memory or not, subroutines' once: with the PTX's own count, how many
  /// SASS instructions each executed PTX one stands for.
  unsigned Instructions = 0;
  /// Of those, the ones inside a loop (Loops).
  unsigned LoopInstructions = 0;
  /// [first, last] offsets of each loop: a branch back to a lower address.
  std::vector<std::pair<uint64_t, uint64_t>> Loops;
  /// The offsets of barriers and memory fences (BAR, MEMBAR): the compiler
  /// keeps no memory value in a register across them.
  std::vector<uint64_t> Barriers;
  /// The offsets of EXITs, and whether each is guarded (`@P0 EXIT`: ptxas
  /// made a branch around a kernel's last code an exit of the lanes that
  /// skip it, and may sink loads after it).
  std::vector<std::pair<uint64_t, bool>> Exits;
  /// How many loops contain the instruction at Offset.
  unsigned loopDepth(uint64_t Offset) const;
};

/// Whether Opcode (with modifiers) is a memory instruction; fills Space,
/// Kind and Width when it is. Constant loads (LDC) are not: they read
/// kernel parameters and __constant__ data, outside every figure gmem
/// predicts.
bool classifyMemoryOpcode(llvm::StringRef Opcode, SassSpace &Space,
                          SassKind &Kind, unsigned &Width);

/// Whether instructions of this space and kind enter the global or shared
/// load, store, atomic or reduction figures (the LSU pipe's counters).
bool entersLsuFigures(SassSpace S);

/// Whether every global (Shared false) or shared atomic instruction of F
/// is a RED (true) or every one an ATOM (false); none where F has both or
/// neither. ptxas decides it; the line table may not say which call each
/// instruction is.
std::optional<bool> atomicsAllReductions(const SassFunction &F, bool Shared);

/// "global load", "shared store", "async copy", ... for messages.
std::string describe(SassSpace S, SassKind K);

/// Parses nvdisasm's text; fails when it holds no function at all.
llvm::Expected<std::vector<SassFunction>> parseSass(llvm::StringRef Text);

/// The byte offsets at which Is (narrower than Size, all of one width, at
/// one base register) read or write parts of a Size-byte object, ascending;
/// empty when they do not fit one object. The base register is taken to hold
/// the object's address, as nvcc computes it (`[R8.64]`, `[R8.64+0xc]`), or
/// that of an array of such objects (`[R8.64+0x10]`, `[R8.64+0x1c]`).
/// SameBase false accepts parts at different base registers (ptxas may
/// compute the address twice), for a line with one such object alone.
std::vector<unsigned> splitParts(const std::vector<const SassInstr *> &Is,
                                 unsigned Size, bool SameBase = true);

} // namespace gmem

#endif // GMEM_ANALYZER_COMPILED_SASS_H
