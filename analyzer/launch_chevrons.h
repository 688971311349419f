//===- launch_chevrons.h - Launch chevrons split by blanks ------*- C++ -*-===//
//
// nvcc reads `kernel << < grid, block >> > (args)` as a launch (some editors'
// formatters space the chevrons so); Clang lexes `<<<` and `>>>` only as
// single tokens and rejects the file. The source Clang is given has such
// chevrons joined, every other character on its line and column.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_LAUNCH_CHEVRONS_H
#define GMEM_ANALYZER_LAUNCH_CHEVRONS_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace gmem {

/// Text with each launch's `<< <` (blanks between any of the three `<`)
/// written `<<<` and its closing `>> >` written `>>>`, the blanks moved
/// after them; empty where the text has none. `operator<< <T>` and a
/// template's `>> >` outside a launch are left as they are.
std::string joinSplitChevrons(llvm::StringRef Text);

} // namespace gmem

#endif // GMEM_ANALYZER_LAUNCH_CHEVRONS_H
