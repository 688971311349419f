//===- guarded.cpp - Accesses ptxas predicated instead of branching -------===//
#include "guarded.h"

#include "llvm/Support/Path.h"

namespace gmem {

namespace {

constexpr int AsyncKind = 3;

std::string fileName(const std::string &F) {
  return llvm::sys::path::filename(F).str();
}

} // namespace

GuardedLines::GuardedLines(const SassFunction &F) {
  for (const SassInstr &I : F.Memory) {
    // An elected lane's atomic is guarded by the election, not a branch.
    if (I.Where.empty() || I.Matrix || I.OneLane ||
        !(I.Space == SassSpace::Global || I.Space == SassSpace::Generic ||
          I.Space == SassSpace::Shared || I.Space == SassSpace::Async))
      continue;
    const int Kind = I.Space == SassSpace::Async ? AsyncKind
                     : I.Kind == SassKind::Load  ? int(AccessKind::Load)
                     : I.Kind == SassKind::Store ? int(AccessKind::Store)
                                                 : int(AccessKind::Atomic);
    const Key K{fileName(I.Where.front().File), I.Where.front().Line,
                I.Space == SassSpace::Shared, Kind};
    auto [It, New] = All.insert({K, I.Predicated});
    if (!New)
      It->second = It->second && I.Predicated;
  }
}

void GuardedLines::mark(Access &A, const std::string &File,
                        unsigned Line) const {
  CompiledForm &C = A.Compiled;
  C.Guarded = false;
  const bool Own = C.State == CompiledForm::AsWritten ||
                   C.State == CompiledForm::Split ||
                   (C.State == CompiledForm::Merged && C.Leader == A.Id);
  if (!Own || A.Matrix || C.OneLane ||
      (A.AsyncPartner >= 0 && A.Sp == Space::Shared))
    return;
  const int Kind = A.AsyncPartner >= 0 ? AsyncKind : int(A.Kind);
  auto It = All.find({fileName(File), Line, A.Sp == Space::Shared, Kind});
  C.Guarded = It != All.end() && It->second;
}

} // namespace gmem
