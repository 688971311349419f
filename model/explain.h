//===- explain.h - An access's figures in words ---------------------------===//
//
// Why an access costs what it costs, from its typed causes and statistics:
// the sentences the views print beside an access and the rules attach to a
// finding as notes. Both read them here, so a rule never parses a view.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_MODEL_EXPLAIN_H
#define GMEM_MODEL_EXPLAIN_H

#include "model.h"
#include "result.h"
#include <string>

namespace gmem {

/// Why an access costs more than it needs to: the cause, and general
/// advice on what would change it (empty when none applies); both empty
/// when it is as cheap as its bytes allow (explain.cpp).
struct CostExplanation {
  std::string Cause, Advice;
  /// "Cause; Advice", as the text and JSON views print it.
  std::string sentence() const;
};
CostExplanation explainCost(const Access &A, const AccessStats &S);

/// The whole explanation in one sentence: the cost's, why it is not
/// modelled, or what an async copy counts; "" when there is nothing to say.
std::string explainAccess(const Access &A, const AccessStats &S);

/// The cause alone (or why it is not modelled), for findings that carry
/// a checked fix of their own instead of general advice.
std::string explainCause(const Access &A, const AccessStats &S);

/// What the compiler made of the access (Access::Compiled), in one
/// sentence, or "" when it is as written or was not checked. Executed: the
/// launch was priced by running its PTX, not by the model.
std::string explainCompiled(const Access &A, const AccessStats &S,
                            bool Executed = false);

/// What the kernel's SASS holds and how the model accounts for it, in one
/// line, or "" when no SASS was read (explain.cpp).
std::string explainSass(const SassAccount &S);

} // namespace gmem

#endif // GMEM_MODEL_EXPLAIN_H
