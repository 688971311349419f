//===- sass.h - Memory instructions of nvdisasm -g/-gi output -------------===//
//
// Reads the text nvdisasm prints for a cubin built with -lineinfo
// (`nvdisasm -c -gi`): one function per `.text.<mangled name>` section, the
// instructions at their offsets, and the `//## File "...", line N` comments
// (with -gi, `... inlined at "...", line M` chains, innermost first) that
// give each instruction's source line. Only what gmem needs is kept: the
// memory instructions (LDG, STG, LDS, STS, LD, ST, ATOM*, RED) with their
// space, kind and width, and the address ranges of loops (backward
// branches).
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_COMPILED_SASS_H
#define GMEM_ANALYZER_COMPILED_SASS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace gmem {

struct SassLoc {
  std::string File;
  unsigned Line = 0;
};

enum class SassSpace : uint8_t { Global, Shared, Generic };
enum class SassKind : uint8_t { Load, Store, Atomic };

struct SassInstr {
  uint64_t Offset = 0;
  std::string Opcode; ///< With modifiers: "LDS.128", "LDG.E.64.CONSTANT".
  std::string Operands;
  bool Predicated = false; ///< Has a guard predicate (@P0, @!P1).
  SassSpace Space = SassSpace::Global;
  SassKind Kind = SassKind::Load;
  unsigned Width = 4; ///< Bytes per lane.
  /// Source location, innermost (the inlined callee) first, then each call
  /// site outwards; empty when the line table gives none.
  std::vector<SassLoc> Where;
};

struct SassFunction {
  std::string Name; ///< Mangled, as in the cubin's symbol table.
  std::vector<SassInstr> Memory;
  /// [first, last] offsets of each loop: a branch back to a lower address.
  std::vector<std::pair<uint64_t, uint64_t>> Loops;
  /// How many loops contain the instruction at Offset.
  unsigned loopDepth(uint64_t Offset) const;
};

/// Whether Opcode (with modifiers) is a memory instruction gmem models;
/// fills Space, Kind and Width when it is.
bool classifyMemoryOpcode(llvm::StringRef Opcode, SassSpace &Space,
                          SassKind &Kind, unsigned &Width);

/// Parses nvdisasm's text; fails when it holds no function at all.
llvm::Expected<std::vector<SassFunction>> parseSass(llvm::StringRef Text);

} // namespace gmem

#endif // GMEM_ANALYZER_COMPILED_SASS_H
