//===- launch_columns.h - Columns of recorded launches from the AST -------===//
//
// A recorded launch knows its line from the binary's line table, not its
// column (nvcc's front end rewrites the launch). The parsed program has the
// launch expressions: on that line, the one of that kernel (a <<<>>> whose
// callee has the kernel's name, or a cudaLaunch* call) gives the column, as
// reading the host code gives it (the <<< of a launch).
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_TOOLS_LAUNCH_COLUMNS_H
#define GMEM_TOOLS_LAUNCH_COLUMNS_H

#include "model.h"
#include "clang/Frontend/ASTUnit.h"
#include <memory>
#include <vector>

namespace gmem {

/// Sets the column of each of M's launches that has a line and no column,
/// where exactly one launch expression of its kernel is on that line (or
/// starts on it: then the line becomes its <<<'s).
void placeLaunchColumns(
    Module &M, const std::vector<std::unique_ptr<clang::ASTUnit>> &Units);

} // namespace gmem

#endif // GMEM_TOOLS_LAUNCH_COLUMNS_H
