//===- uncoalesced_store.cpp - gmem-uncoalesced-store ---------------------===//
#include "coalescing.h"

namespace gmem {

static void checkUncoalescedStore(const RuleContext &C,
                                  std::vector<Diagnostic> &Out) {
  checkUncoalesced(C, Out, AccessKind::Store, "gmem-uncoalesced-store");
}

extern const RuleInfo UncoalescedStoreRule = {
    "gmem-uncoalesced-store",
    Severity::Warning,
    "Global store that touches more 32-byte sectors than its bytes need",
    "A warp's global store is served in 32-byte sectors. When the lanes' "
    "addresses are spread out (a stride, a misaligned start), one request "
    "touches more sectors than its distinct bytes fill, and the memory "
    "system moves bytes nobody uses. gmem counts the sectors of every "
    "request of the launch and compares them with the fewest that would "
    "hold the same bytes.",
    "sectors per request above 1.1 times the ideal; with --min-efficiency "
    "PCT, also any store whose efficiency is below PCT (an error)",
    checkUncoalescedStore};

} // namespace gmem
