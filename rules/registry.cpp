//===- registry.cpp - Every rule, one line each ---------------------------===//
#include "rule.h"

namespace gmem {

extern const RuleInfo UncoalescedLoadRule, UncoalescedStoreRule,
    MisalignedAccessRule, BankConflictRule, SharedOutOfBoundsRule,
    DataDependentAccessRule, PartialWarpRule;
extern const RuleInfo BaselineRegressionRule, BaselineToolchainRule,
    BaselineImprovementRule, BaselineNewRule, BaselineVanishedRule;

const std::vector<const RuleInfo *> &allRules() {
  static const std::vector<const RuleInfo *> Rules = {
      &UncoalescedLoadRule, &UncoalescedStoreRule,  &MisalignedAccessRule,
      &BankConflictRule,    &SharedOutOfBoundsRule, &DataDependentAccessRule,
      &PartialWarpRule,
  };
  return Rules;
}

const std::vector<const RuleInfo *> &baselineRules() {
  static const std::vector<const RuleInfo *> Rules = {
      &BaselineRegressionRule, &BaselineToolchainRule, &BaselineImprovementRule,
      &BaselineNewRule,        &BaselineVanishedRule,
  };
  return Rules;
}

} // namespace gmem
