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

/// Why an access costs more than it needs to; empty when it is as cheap as
/// its bytes allow (explain.cpp). What to do about it is not said here: a
/// remedy is offered only once a rule has re-simulated it (rules/), and
/// every view prints that one (views.h: adviceFor), so that no two outputs
/// advise differently.
std::string explainCost(const Access &A, const AccessStats &S);

/// The whole explanation in one sentence: the cost's, why it is not
/// modelled, or what an async copy counts; "" when there is nothing to say.
std::string explainAccess(const Access &A, const AccessStats &S);

/// The cause alone (or why it is not modelled), for a finding's note.
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
