//===- select_merge.h - Loads of exclusive branches made one load ---------===//
//
// nvcc turns `switch (x) { case 0: v = a[i]; break; case 1: v = b[i]; ... }`
// into one load of an address selected per lane (SEL, then one LDG): the
// warp issues one request where the source has one per branch. The model
// follows it by adding an access that stands for that instruction, before
// the branches, under the union of their conditions, whose address is the
// branch's address on each lane; the loads in the branches issue nothing.
// Stores are merged alike (`if (in) s[t] = a[i]; else s[t] = 0;` is one
// STS of a selected value), the access standing for them after the If.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_COMPILED_SELECT_MERGE_H
#define GMEM_ANALYZER_COMPILED_SELECT_MERGE_H

#include "model.h"
#include <optional>
#include <vector>

namespace gmem {

/// Groups of Ids (accesses of one space, kind and size) that lie in
/// pairwise exclusive branches of one If statement, two or more each, in
/// id order. Accesses in no such group are left out.
std::vector<std::vector<int>> exclusiveGroups(const Kernel &K,
                                              const std::vector<int> &Ids);

/// Adds the access standing for one instruction that serves every access
/// of Group (from exclusiveGroups) and marks them CompiledForm::Selected.
/// Returns its id, or nullopt (the model unchanged) when the branches'
/// conditions or addresses cannot all be evaluated before the If: a slot
/// they read changes inside it, or control flow (loops, calls, returns)
/// lies between the If and an access.
std::optional<int> mergeSelected(Kernel &K, const std::vector<int> &Group);

} // namespace gmem

#endif // GMEM_ANALYZER_COMPILED_SELECT_MERGE_H
