//===- coalescing.h - What the two uncoalesced-access rules share ---------===//
#ifndef GMEM_RULES_COALESCING_H
#define GMEM_RULES_COALESCING_H

#include "rule.h"

namespace gmem {

/// Reports global accesses of kind Kind whose sectors per request exceed the
/// ideal by the policy's factor, or whose efficiency is under
/// --min-efficiency (then as errors).
void checkUncoalesced(const RuleContext &C, std::vector<Diagnostic> &Out,
                      AccessKind Kind, const char *Rule);

} // namespace gmem

#endif // GMEM_RULES_COALESCING_H
