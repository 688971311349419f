//===- rule.h - A rule: one check over one simulated launch ---------------===//
//
// Each rule lives in one file of rules/ and defines a RuleInfo; registry.cpp
// lists them, one line each. A rule reads the launch's per-access statistics
// (and may re-simulate a changed copy of the kernel to check a remedy) and
// appends Diagnostics.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_RULES_RULE_H
#define GMEM_RULES_RULE_H

#include "arch.h"
#include "diagnostic.h"
#include "result.h"
#include <optional>
#include <vector>

namespace gmem {

/// Thresholds the command line may tighten (--min-efficiency,
/// --max-conflict-ways); findings past a policy are errors.
struct RulePolicy {
  std::optional<double> MinEfficiencyPct;
  std::optional<uint64_t> MaxConflictWays;
  /// Uncoalesced rules fire when sectors exceed the ideal by this factor.
  double ExcessFactor = 1.1;
};

struct RuleContext {
  const Kernel &K;
  const LaunchResult &R;
  const ArchRules &Arch;
  const RulePolicy &Policy;
  unsigned Threads = 0; ///< For re-simulations.
};

using RuleFn = void (*)(const RuleContext &, std::vector<Diagnostic> &);

struct RuleInfo {
  const char *Id;
  Severity Default;
  const char *Short;     ///< One line: what it finds.
  const char *Full;      ///< What it means and why it costs.
  const char *Threshold; ///< When it fires by default.
  RuleFn Check;          ///< Null for the baseline's findings.
};

/// Every registered rule, in registry order.
const std::vector<const RuleInfo *> &allRules();
/// The findings of the baseline diff (baseline.h); Check is null.
const std::vector<const RuleInfo *> &baselineRules();
const RuleInfo *findRule(const std::string &Id);

/// Runs the enabled rules over one launch.
std::vector<Diagnostic> runRules(const RuleContext &C,
                                 const std::vector<const RuleInfo *> &Enabled);

/// Helpers shared by rules (rule_util.cpp).
std::string figure(double V);        ///< "32", "2.5", "12.5".
std::string opText(const Access &A); ///< "load", "store", "atomic".
/// " of 'ARRAY'", or of an array the access does not name (an address the
/// executed PTX computes from several arrays).
std::string ofArray(const Access &A, const char *Of = " of ");
Diagnostic accessDiagnostic(const RuleContext &C, const Access &A,
                            const char *Rule, Severity Level);

} // namespace gmem

#endif // GMEM_RULES_RULE_H
