//===- partial_warp.cpp - gmem-partial-warp -------------------------------===//
#include "rule.h"

namespace gmem {

static void checkPartialWarp(const RuleContext &C,
                             std::vector<Diagnostic> &Out) {
  const Launch &L = C.R.L;
  uint64_t Threads = L.Block.count(), Warp = C.Arch.WarpSize;
  if (!Threads || Threads % Warp == 0)
    return;
  uint64_t Lanes = (Threads + Warp - 1) / Warp * Warp;
  uint64_t Idle = Lanes - Threads;
  Diagnostic D;
  D.Rule = "gmem-partial-warp";
  D.Level = Severity::Warning;
  D.Loc = L.Loc.Line ? L.Loc : C.K.Loc;
  D.Kernel = C.K.Name;
  double Pct = 100.0 * double(Idle) / double(Lanes);
  D.Figures = {{"kernel", C.K.Name},
               {"block_threads", Threads},
               {"idle_lanes_per_block", Idle},
               {"idle_pct", Pct}};
  D.Message = "launch of " + C.K.Name + " with " + std::to_string(Threads) +
              " threads per block leaves " + std::to_string(Idle) + " of " +
              std::to_string(Lanes) + " lanes idle in every block (" +
              figure(Pct) + "% of the warps' lanes)";
  D.Notes.push_back({D.Loc, "the last warp of each block has only " +
                                std::to_string(Threads % Warp) +
                                " active lanes; a block of a multiple of " +
                                std::to_string(Warp) +
                                " threads uses them all"});
  Out.push_back(std::move(D));
}

extern const RuleInfo PartialWarpRule = {
    "gmem-partial-warp",
    Severity::Warning,
    "Block size that is not a multiple of the warp size",
    "Warps are 32 consecutive threads of a block; when the block's thread "
    "count is not a multiple of 32, every block's last warp runs with idle "
    "lanes that still occupy a warp slot and issue slots.",
    "any block whose thread count is not a multiple of 32",
    checkPartialWarp};

} // namespace gmem
