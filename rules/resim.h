//===- resim.h - Check a remedy by re-simulating a changed model ----------===//
//
// A remedy is suggested only after it has been applied to a copy of the
// kernel model and the launch simulated again: these helpers build the
// changed copies.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_RULES_RESIM_H
#define GMEM_RULES_RESIM_H

#include "rule.h"
#include <functional>
#include <optional>
#include <set>

namespace gmem {

/// A kernel copy whose shared array ArrayIdx has its last dimension padded
/// by Pad elements, or nullopt when the array is not a static array of two
/// or more dimensions or an access's address does not show its row stride.
std::optional<Kernel> padSharedArray(const Kernel &K, int ArrayIdx,
                                     uint64_t Pad);

/// The kernel with the roles of x and y swapped in every built-in
/// (threadIdx, blockIdx, blockDim, gridDim), and the launch with block and
/// grid transposed: the same threads do the same work, but what threadIdx.y
/// indexed is now spread along the warp.
Kernel swapXY(const Kernel &K);
Launch swapXY(const Launch &L);

/// "over every block": the fast simulator re-checks whole launches.
std::string resimScope(const Launch &L);

/// Simulates K under the whole of L with the context's architecture.
LaunchResult resimulate(const Kernel &K, const Launch &L, const RuleContext &C);

/// The launch as the model simulates it, before any change: the context's
/// own result where the model priced the whole of it (no second
/// simulation), else resimulated into Storage.
const LaunchResult &unchanged(const RuleContext &C, LaunchResult &Storage);
/// Whether Base, the model re-simulated unchanged, makes A's requests and
/// units as reported: else the model does not stand for what was reported
/// (the executed PTX priced it), and a fix it re-simulates would be checked
/// against nothing.
bool reproduces(const RuleContext &C, const LaunchResult &Base,
                const Access &A);

/// The innermost loop of Body that contains access Id (in its body,
/// condition or step), or null when it runs outside every loop.
const Stmt *innermostLoop(const std::vector<Stmt> &Body, int Id);

/// The loop's induction slot: the one its step assigns from its own value
/// (i += 1, s *= 2, s >>= 1), or -1.
int inductionSlot(const Stmt &Loop);

/// The slots some statement of Ss (nested ones included) assigns.
void assignedSlots(const std::vector<Stmt> &Ss, std::set<int> &Out);

/// Whether E reads the slot.
bool readsSlot(const Expr &E, int Slot);

/// "; the launch's predicted duration goes from X us to Y us" between
/// Before and After (simulations of this launch and of its remedy) on the
/// board the launch was described on; empty where either is not known.
std::string durationChange(const RuleContext &C, const LaunchResult &Before,
                           const LaunchResult &After);

/// E with every node mapped by F (F returns null to keep a node, whose
/// operands are then rewritten).
ExprPtr rewriteExpr(const ExprPtr &E,
                    const std::function<ExprPtr(const Expr &)> &F);

} // namespace gmem

#endif // GMEM_RULES_RESIM_H
