//===- reconcile.h - What ptxas made of the PTX's memory instructions -------===//
//
// The executed path runs the PTX; the GPU runs what ptxas made of it. ptxas
// keeps almost every memory instruction as it is, but it merges runs of
// narrow loads or stores from one base at consecutive offsets into one
// wide instruction (four ld.shared.f32 into one LDS.128), lets one elected
// lane issue an atomic whose address every lane shares, and emits RED for
// an atom whose result is unused. Comparing each source line's memory
// instructions in the PTX with those in the SASS (by space, kind and
// width) tells which of these happened; the executed kernel's accesses get
// the same CompiledForm the model's get from the matcher, and the pricing
// follows it (executed.cpp), so that the counts are the binary's. Where
// the binary's line table puts an instruction on another line than the
// PTX's .loc (a load nvcc left on no line, a load given its neighbour's
// line), the access takes the binary's line (ExecutedKernel::Site), which
// a GPU's per-line counters use.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_COMPILED_RECONCILE_H
#define GMEM_ANALYZER_COMPILED_RECONCILE_H

#include "executed.h"
#include "sass.h"

#include <string>
#include <vector>

namespace gmem {

/// Annotates EK's accesses from the kernel's SASS. Returns notes on lines
/// whose instructions do not correspond (counted as the PTX has them).
std::vector<std::string> reconcileWithSass(ExecutedKernel &EK,
                                           const SassFunction &F);

} // namespace gmem

#endif // GMEM_ANALYZER_COMPILED_RECONCILE_H
