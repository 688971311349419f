//===- model_check.h - The kernel model's invariants ----------------------===//
//
// What the simulator relies on: every index names something that exists,
// every operator has its operands, sizes and types are ones the hardware
// has, nesting is bounded. The analyzer builds models that hold them; a model
// read from a file (or built by a fuzzer) is checked here before anything
// runs it.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_MODEL_MODEL_CHECK_H
#define GMEM_MODEL_MODEL_CHECK_H

#include "expected.h"
#include "model.h"

namespace gmem {

/// Deepest expression and statement nesting a model may have: the evaluator
/// recurses that deep on a thread's stack.
constexpr unsigned MaxExprDepth = 1000;
constexpr unsigned MaxStmtDepth = 200;

/// Operands an operator takes (0 for leaves, 3 for Select).
unsigned operandCount(Op K);

/// Success when K can be simulated; otherwise a Failure naming its first
/// broken invariant as "where: what", e.g. "accesses[2].address.ops[1]:
/// parameter index 5 is out of range (the kernel has 3 parameters)".
Expected<void> checkKernel(const Kernel &K);

/// checkKernel for every kernel, paths starting with "kernels[I]".
Expected<void> checkModule(const Module &M);

} // namespace gmem

#endif // GMEM_MODEL_MODEL_CHECK_H
