//===- uncoalesced_load.cpp - gmem-uncoalesced-load -----------------------===//
#include "coalescing.h"

namespace gmem {

static void checkUncoalescedLoad(const RuleContext &C,
                                 std::vector<Diagnostic> &Out) {
  checkUncoalesced(C, Out, AccessKind::Load, "gmem-uncoalesced-load");
}

extern const RuleInfo UncoalescedLoadRule = {
    "gmem-uncoalesced-load",
    Severity::Warning,
    "Global load that touches more 32-byte sectors than its bytes need",
    "A warp's global load is served in 32-byte sectors. When the lanes' "
    "addresses are spread out (a stride, a misaligned start), one request "
    "touches more sectors than its distinct bytes fill, and the memory "
    "system moves bytes nobody uses. gmem counts the sectors of every "
    "request of the launch and compares them with the fewest that would "
    "hold the same bytes.",
    "sectors per request above 1.1 times the ideal; with --min-efficiency "
    "PCT, also any load whose efficiency is below PCT (an error)",
    checkUncoalescedLoad};

} // namespace gmem
