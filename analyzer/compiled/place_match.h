//===- place_match.h - PTX shared accesses matched to SASS by address -----===//
//
// ptxas may move a memory instruction to another source line and, on
// another path, widen two lines' loads into one (CUB's select sweep reads
// a block aggregate at +76 on line 1337 and the line table gives its LDS
// line 1325; on another path a 4-byte read at +68 of line 1325 and an
// 8-byte one at +72 of line 1337 become one LDS.128 at +64 on line 1337).
// Line by line, neither is visible: the lines' widths only agree together.
// Where every access has a known place, the instructions' addresses say
// which accesses each one makes; this finds that assignment when it is
// the only one.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_COMPILED_PLACE_MATCH_H
#define GMEM_ANALYZER_COMPILED_PLACE_MATCH_H

#include <cstdint>
#include <optional>
#include <vector>

namespace gmem {

/// A PTX access at a known byte place, in a basic block.
struct PlacedPart {
  uint32_t Block = 0;
  int64_t Place = 0;
  unsigned Size = 4;
};

/// A SASS instruction: its address's immediate offset, its width and its
/// source line (any number that tells lines apart).
struct PlacedInstr {
  int64_t Addr = 0;
  unsigned Width = 4;
  unsigned Line = 0;
};

/// For each instruction, the parts it makes: every part made by exactly one
/// instruction, an instruction's parts in one block, each aligned to its
/// size and apart from the others inside the instruction's window, at one
/// shift between places and addresses for all. Empty where no such
/// assignment exists, or where two differ in what they make of a part
/// (its instruction's line, width or companions), or the search is too
/// large.
std::optional<std::vector<std::vector<size_t>>>
matchByPlace(const std::vector<PlacedPart> &Parts,
             const std::vector<PlacedInstr> &Instrs);

} // namespace gmem

#endif // GMEM_ANALYZER_COMPILED_PLACE_MATCH_H
