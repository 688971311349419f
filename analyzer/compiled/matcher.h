//===- matcher.h - Which SASS instructions each source access became ------===//
//
// Matches the memory instructions of a kernel's SASS to the Access
// statements of its model by source line (through the inline chain of
// nvdisasm -gi, so inlined __device__ functions and unrolled loops map
// back), space, kind and width, and records the result in
// Access::Compiled:
//
// - as written: the instructions on the line have the source widths;
// - merged: wider instructions cover several accesses written in a row
//   (a[4*i], a[4*i+1], ...) or Width/Size consecutive iterations of a loop
//   along which the address advances by the element size (a row read by an
//   unrolled loop); the counts on the line must agree;
// - reused: fewer instructions than accesses, and the missing ones load an
//   address equal to an earlier load's with no store to the array between;
// - hoisted: no instruction on the line, a load whose address does not
//   change in its loop (nor the array), and a load of the same width the
//   line table puts on a line with no access;
// - ambiguous otherwise, with the reason; the source count stays.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_COMPILED_MATCHER_H
#define GMEM_ANALYZER_COMPILED_MATCHER_H

#include "model.h"
#include "sass.h"
#include <string>
#include <vector>

namespace gmem {

/// K's function in Functions: by K.MangledName, or, where Clang mangles a
/// parameter's dependent template argument apart from nvcc, the only
/// function of the same demangled name and template arguments; null if
/// none.
const SassFunction *findSassFunction(const Kernel &K,
                                     const std::vector<SassFunction> &Fns);

/// Annotates every access of K from its function in Functions
/// (findSassFunction; K.MangledName becomes the binary's). Returns notes
/// for the report: kernels not found and accesses whose mapping is
/// ambiguous.
std::vector<std::string>
matchCompiled(Kernel &K, const std::vector<SassFunction> &Functions);

} // namespace gmem

#endif // GMEM_ANALYZER_COMPILED_MATCHER_H
