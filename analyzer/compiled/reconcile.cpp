//===- reconcile.cpp - What ptxas made of the PTX's memory instructions
//-----===//
#include "reconcile.h"
#include "guarded.h"
#include "place_match.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace gmem {

namespace {

/// A class of memory instruction, as both sides name it.
enum class Cls : uint8_t {
  GlobalLoad,
  GlobalStore,
  GlobalAtomic,
  SharedLoad,
  SharedStore,
  SharedAtomic
};

Cls clsOf(const Access &A) {
  const bool Shared = A.Sp == Space::Shared;
  switch (A.Kind) {
  case AccessKind::Load:
    return Shared ? Cls::SharedLoad : Cls::GlobalLoad;
  case AccessKind::Store:
    return Shared ? Cls::SharedStore : Cls::GlobalStore;
  default:
    return Shared ? Cls::SharedAtomic : Cls::GlobalAtomic;
  }
}

bool clsOf(const SassInstr &I, Cls &C) {
  bool Shared;
  switch (I.Space) {
  case SassSpace::Global:
  case SassSpace::Generic:
  case SassSpace::Async:
    Shared = false;
    break;
  case SassSpace::Shared:
    Shared = true;
    break;
  default:
    return false; // Local, texture, bulk: no executed access stands for them.
  }
  if (I.Matrix)
    return false;
  switch (I.Kind) {
  case SassKind::Load:
    C = Shared ? Cls::SharedLoad : Cls::GlobalLoad;
    break;
  case SassKind::Store:
    C = Shared ? Cls::SharedStore : Cls::GlobalStore;
    break;
  default:
    C = Shared ? Cls::SharedAtomic : Cls::GlobalAtomic;
    break;
  }
  return true;
}

using Widths = std::map<unsigned, unsigned>; // Width -> count.

int64_t floorDiv(int64_t A, int64_t B) {
  return A / B - (A % B != 0 && (A < 0) != (B < 0));
}

/// Whether S is P scaled by one whole factor (ptxas unrolls loops, which
/// repeats instructions in the binary but not their executions).
bool scaled(const Widths &P, const Widths &S) {
  if (P.empty() || S.empty() || P.size() != S.size())
    return false;
  unsigned K = 0;
  for (const auto &[W, N] : P) {
    auto It = S.find(W);
    if (It == S.end() || It->second % N)
      return false;
    const unsigned F = It->second / N;
    if (K && F != K)
      return false;
    K = F;
  }
  return K >= 1;
}

/// Whether S has the widths of P, each at least as often.
bool unrolled(const Widths &P, const Widths &S) {
  if (P.empty() || P.size() != S.size())
    return false;
  for (const auto &[W, N] : P) {
    auto It = S.find(W);
    if (It == S.end() || It->second < N)
      return false;
  }
  return true;
}

std::string widthsText(const Widths &W) {
  std::string S;
  for (const auto &[Width, N] : W)
    S += (S.empty() ? "" : ", ") + std::to_string(N) + " x " +
         std::to_string(Width * 8) + "-bit";
  return S;
}

/// The maximal runs of Ids: one block, one base, consecutive offsets, one
/// width; in address order, each run in program order.
std::vector<std::vector<int>> runsOf(const ExecutedKernel &EK,
                                     const std::vector<int> &Ids) {
  std::vector<int> Order = Ids;
  std::stable_sort(Order.begin(), Order.end(), [&](int A, int B) {
    const ExecutedKernel::Site &X = EK.Sites[size_t(A)],
                               &Y = EK.Sites[size_t(B)];
    return std::tie(X.Block, X.Base, X.Offset) <
           std::tie(Y.Block, Y.Base, Y.Offset);
  });
  std::vector<std::vector<int>> Runs;
  for (int Id : Order) {
    const ExecutedKernel::Site &S = EK.Sites[size_t(Id)];
    const unsigned Size = EK.K.Accesses[size_t(Id)].Size;
    if (!Runs.empty()) {
      const int Last = Runs.back().back();
      const ExecutedKernel::Site &T = EK.Sites[size_t(Last)];
      if (EK.K.Accesses[size_t(Last)].Size == Size && T.Block == S.Block &&
          T.Base == S.Base && S.Offset == T.Offset + int64_t(Size)) {
        Runs.back().push_back(Id);
        continue;
      }
    }
    Runs.push_back({Id});
  }
  for (std::vector<int> &R : Runs)
    std::sort(R.begin(), R.end());
  return Runs;
}

bool mergeAcrossIterations(ExecutedKernel &EK, const std::vector<int> &Ids,
                           unsigned W, unsigned SassCount) {
  uint64_t Bytes = 0;
  const std::vector<std::vector<int>> Runs = runsOf(EK, Ids);
  // Another line's access of the same base and block inside a run's
  // window holds the bytes the run's next iterations would (a 12-byte
  // struct's .y and .z beside its .x): the window is that line's too.
  const std::set<int> Mine(Ids.begin(), Ids.end());
  for (const std::vector<int> &R : Runs) {
    const Access &A = EK.K.Accesses[size_t(R.front())];
    const ExecutedKernel::Site &S = EK.Sites[size_t(R.front())];
    const int64_t Window = floorDiv(S.Offset, int64_t(W));
    for (size_t Id = 0; Id < EK.K.Accesses.size(); ++Id) {
      const Access &B = EK.K.Accesses[Id];
      const ExecutedKernel::Site &T = EK.Sites[Id];
      if (!Mine.count(int(Id)) && B.Sp == A.Sp && B.Kind == A.Kind &&
          T.Block == S.Block && T.Base == S.Base &&
          floorDiv(T.Offset, int64_t(W)) == Window)
        return false;
    }
  }
  for (const std::vector<int> &R : Runs) {
    const unsigned Size = EK.K.Accesses[size_t(R.front())].Size;
    const uint64_t Run = uint64_t(Size) * R.size();
    if (Run >= W || W % Run)
      return false;
    Bytes += Run;
  }
  if (Bytes % W || !SassCount || SassCount % (Bytes / W))
    return false;
  for (const std::vector<int> &R : Runs)
    for (int Id : R) {
      CompiledForm &C = EK.K.Accesses[size_t(Id)].Compiled;
      C.State = CompiledForm::Merged;
      C.Width = W;
      C.Leader = R.front();
      C.Loop = 0;
    }
  return true;
}

/// Makes the accesses G (the first in program order, or on the SASS's
/// line, leading) one W-byte instruction.
void markMerged(ExecutedKernel &EK, const std::vector<int> &G, unsigned W) {
  for (int Id : G) {
    CompiledForm &C = EK.K.Accesses[size_t(Id)].Compiled;
    C.State = CompiledForm::Merged;
    C.Width = W;
    C.Leader = G.front();
    EK.Sites[size_t(Id)].Parts = unsigned(G.size());
    C.Note = "ptxas made " + std::to_string(G.size()) +
             " accesses at neighbouring addresses one " +
             std::to_string(W * 8) + "-bit instruction" +
             (G.size() * EK.K.Accesses[size_t(Id)].Size < W
                  ? " (reading its whole aligned window)"
                  : "");
  }
}

/// Merges: runs of one width from one base at consecutive offsets in one
/// basic block, cut into aligned pieces of a width the SASS has and the PTX
/// lacks. True when that makes the PTX's widths the SASS's.
/// Where the runs span lines, the request is the instruction's on Home's
/// line (the SASS's), whichever comes first in the PTX.
/// Windows: the last resort, after the merges across iterations.
/// Unrolled: the SASS may have each width more often than scaling gives
/// (ptxas unrolled the loop further than nvcc, the body and the remainders
/// by different factors).
bool mergeRuns(ExecutedKernel &EK, const std::vector<int> &Ids, const Widths &P,
               const Widths &Sw, const std::set<int> *Home = nullptr,
               bool Windows = false, bool Unrolled = false) {
  for (unsigned W : {16u, 8u, 4u, 2u}) {
    if (!Sw.count(W) || P.count(W))
      continue;
    // Candidates in address order: one base, one block, by offset.
    std::vector<int> Order = Ids;
    std::stable_sort(Order.begin(), Order.end(), [&](int A, int B) {
      const ExecutedKernel::Site &X = EK.Sites[size_t(A)],
                                 &Y = EK.Sites[size_t(B)];
      return std::tie(X.Block, X.Base, X.Offset) <
             std::tie(Y.Block, Y.Base, Y.Offset);
    });
    Widths Merged;
    std::vector<std::vector<int>> Groups;
    size_t I = 0;
    while (I < Order.size()) {
      const Access &A = EK.K.Accesses[size_t(Order[I])];
      const ExecutedKernel::Site &Site = EK.Sites[size_t(Order[I])];
      const unsigned N = A.Size < W ? W / A.Size : 1;
      bool Run =
          N > 1 && Site.Offset % int64_t(W) == 0 && I + N <= Order.size();
      for (size_t J = 1; Run && J < N; ++J) {
        const Access &B = EK.K.Accesses[size_t(Order[I + J])];
        const ExecutedKernel::Site &T = EK.Sites[size_t(Order[I + J])];
        Run = B.Size == A.Size && T.Block == Site.Block &&
              T.Base == Site.Base &&
              T.Offset == Site.Offset + int64_t(J * A.Size);
      }
      if (Run) {
        std::vector<int> G(Order.begin() + long(I),
                           Order.begin() + long(I + N));
        // The leader is the first in program order (on Home's line).
        std::sort(G.begin(), G.end());
        if (Home)
          std::stable_partition(G.begin(), G.end(),
                                [&](int Id) { return Home->count(Id) != 0; });
        Groups.push_back(std::move(G));
        ++Merged[W];
        I += N;
      } else {
        ++Merged[A.Size];
        ++I;
      }
    }
    if (Windows) {
      // Windows: the accesses of one base within one aligned W-byte
      // window, some of it missing: ptxas reads the whole window (CUB's
      // block reduction reads 31 warp totals at +36..+156 of its storage
      // as eight 16-byte loads from +32). Across basic blocks too: the
      // remainder of a loop nvcc unrolled by 4 loads +0, +4 and +8 under
      // their own guards, and ptxas reads them with one LDS.128
      // (HeCBench's groupnorm_backward_kernel).
      Merged.clear();
      Groups.clear();
      std::stable_sort(Order.begin(), Order.end(), [&](int A, int B) {
        const ExecutedKernel::Site &X = EK.Sites[size_t(A)],
                                   &Y = EK.Sites[size_t(B)];
        return std::tie(X.Base, X.Offset) < std::tie(Y.Base, Y.Offset);
      });
      for (size_t I = 0, J; I < Order.size(); I = J) {
        const Access &A = EK.K.Accesses[size_t(Order[I])];
        const ExecutedKernel::Site &Site = EK.Sites[size_t(Order[I])];
        const int64_t Window = floorDiv(Site.Offset, int64_t(W));
        for (J = I + 1; A.Size < W && J < Order.size(); ++J) {
          const Access &B = EK.K.Accesses[size_t(Order[J])];
          const ExecutedKernel::Site &T = EK.Sites[size_t(Order[J])];
          const ExecutedKernel::Site &Prev = EK.Sites[size_t(Order[J - 1])];
          if (B.Size != A.Size || T.Base != Site.Base ||
              T.Offset <= Prev.Offset ||
              floorDiv(T.Offset, int64_t(W)) != Window)
            break;
        }
        if (J - I < 2) {
          ++Merged[A.Size];
          continue;
        }
        std::vector<int> G(Order.begin() + long(I), Order.begin() + long(J));
        std::sort(G.begin(), G.end());
        if (Home)
          std::stable_partition(G.begin(), G.end(),
                                [&](int Id) { return Home->count(Id) != 0; });
        Groups.push_back(std::move(G));
        ++Merged[W];
      }
    }
    if (!Groups.empty() &&
        (Unrolled ? unrolled(Merged, Sw) : scaled(Merged, Sw))) {
      for (const std::vector<int> &G : Groups)
        markMerged(EK, G, W);
      return true;
    }
  }
  return false;
}

/// Covers: ptxas reads the part of each aligned 16-byte window of shared
/// memory that one basic block's accesses of a variable touch with one
/// instruction, the narrowest aligned one that holds them. So the widths
/// follow where the variable lies: CUB's warp totals at +12..+36 of a
/// variable at 0 are LDS, LDS.128 and LDS.64; at 44, LDS.64, LDS.128 and
/// LDS (HeCBench's channelSum). Where the variable is named, its place is
/// known (Site::Placed); where a register holds its address, each place
/// modulo 16 is tried (Guess: after the merges that need no guess). True
/// when one gives the SASS's widths; at run time the addresses decide.
/// AcrossBlocks: the windows follow program order over basic blocks, as
/// where nvcc guarded the last of a run and ptxas, shared loads being safe
/// to speculate, read it with the rest (CUB's partial-tile reduction reads
/// +32 and, under a branch, +36 with one LDS.64).
bool mergeCovers(ExecutedKernel &EK, const std::vector<int> &Ids,
                 const Widths &Sw, bool Guess,
                 const std::set<int> *Home = nullptr,
                 bool AcrossBlocks = false) {
  std::vector<int> Order;
  Widths Apart;
  bool Named = true;
  unsigned Step = 16;
  for (int Id : Ids) {
    const Access &A = EK.K.Accesses[size_t(Id)];
    if (A.Sp != Space::Shared || A.Size >= 16) {
      ++Apart[A.Size];
      continue;
    }
    Order.push_back(Id);
    Named = Named && EK.Sites[size_t(Id)].Placed >= 0;
    Step = std::min(Step, A.Size);
  }
  if (Order.size() < 2 || Named == Guess)
    return false;
  for (int64_t Phase = 0; Phase < (Named ? 1 : 16); Phase += Step) {
    auto Place = [&](int Id) {
      const ExecutedKernel::Site &S = EK.Sites[size_t(Id)];
      return S.Placed >= 0 ? S.Placed : S.Offset + Phase;
    };
    // Placed, neighbouring variables share windows too (HeCBench's
    // accuracy_kernel2 stores its s_label and s_label_pred with one
    // STS.64).
    auto Base = [&](int Id) { return Named ? 0 : EK.Sites[size_t(Id)].Base; };
    if (AcrossBlocks)
      std::sort(Order.begin(), Order.end()); // Program order.
    else
      std::stable_sort(Order.begin(), Order.end(), [&](int A, int B) {
        return std::make_tuple(EK.Sites[size_t(A)].Block, Base(A), Place(A)) <
               std::make_tuple(EK.Sites[size_t(B)].Block, Base(B), Place(B));
      });
    auto SameBlock = [&](int A, int B) {
      return AcrossBlocks ||
             EK.Sites[size_t(A)].Block == EK.Sites[size_t(B)].Block;
    };
    Widths Merged = Apart;
    std::vector<std::pair<std::vector<int>, unsigned>> Groups;
    for (size_t I = 0, J; I < Order.size(); I = J) {
      const unsigned Size = EK.K.Accesses[size_t(Order[I])].Size;
      const int64_t Low = Place(Order[I]);
      for (J = I + 1; J < Order.size(); ++J) {
        // Widths may differ (nvcc read +36 as 4 bytes and +40 as 8, ptxas
        // all of +32..+47 with one LDS.128), never overlapping.
        const unsigned Prev = EK.K.Accesses[size_t(Order[J - 1])].Size;
        const int64_t Next = EK.K.Accesses[size_t(Order[J])].Size == Prev
                                 ? Place(Order[J - 1]) + 1
                                 : Place(Order[J - 1]) + Prev;
        if (!SameBlock(Order[J], Order[I]) ||
            Base(Order[J]) != Base(Order[I]) || Place(Order[J]) < Next ||
            floorDiv(Place(Order[J]), 16) != floorDiv(Low, 16))
          break;
      }
      if (J - I < 2) {
        ++Merged[Size];
        continue;
      }
      const int64_t High =
          Place(Order[J - 1]) + EK.K.Accesses[size_t(Order[J - 1])].Size - 1;
      unsigned W = Size;
      while (floorDiv(Low, W) != floorDiv(High, W))
        W *= 2;
      std::vector<int> G(Order.begin() + long(I), Order.begin() + long(J));
      std::sort(G.begin(), G.end());
      if (Home)
        std::stable_partition(G.begin(), G.end(),
                              [&](int Id) { return Home->count(Id) != 0; });
      Groups.push_back({std::move(G), W});
      ++Merged[W];
    }
    if (Groups.empty() || !scaled(Merged, Sw))
      continue;
    for (const auto &[G, W] : Groups)
      markMerged(EK, G, W);
    return true;
  }
  return false;
}

/// Split copies: every PTX access of one width, the SASS's instructions
/// all narrower, one group of them per access (by base register), each
/// group the same parts of one object (splitParts refuses instructions as
/// wide as the object).
bool splitCopies(ExecutedKernel &EK, const std::vector<int> &Ids,
                 const Widths &P, const std::vector<const SassInstr *> &S) {
  if (P.size() != 1 || S.empty())
    return false;
  const unsigned Size = P.begin()->first;
  std::map<std::string, std::vector<const SassInstr *>> ByBase;
  for (const SassInstr *I : S)
    ByBase[I->AddrBase].push_back(I);
  // One object on the line: its parts may be at several base registers
  // (ptxas computed the address twice).
  if (Ids.size() == 1 && ByBase.size() > 1 &&
      !splitParts(S, Size, /*SameBase=*/false).empty())
    ByBase = {{"", S}};
  // An instruction the line table put here from another line (a load of
  // selected addresses) is alone at its base: groups of one part are
  // counted only where the copies need them all.
  if (ByBase.size() > Ids.size())
    for (auto It = ByBase.begin(); It != ByBase.end();)
      It = It->second.size() == 1 ? ByBase.erase(It) : std::next(It);
  if (ByBase.size() != Ids.size())
    return false;
  std::vector<unsigned> Parts;
  for (const auto &[Base, Is] : ByBase) {
    std::vector<unsigned> These = splitParts(Is, Size, !Base.empty());
    if (These.empty() || (!Parts.empty() && These != Parts))
      return false;
    Parts = std::move(These);
  }
  for (int Id : Ids) {
    CompiledForm &C = EK.K.Accesses[size_t(Id)].Compiled;
    C.State = CompiledForm::Split;
    C.Width = S.front()->Width;
    C.Parts = Parts;
    C.Instruction = S.front()->Opcode;
  }
  return true;
}

/// Whether load Id's bytes lie inside a wider load of Ids from the same
/// base in the same basic block (ptxas may take its value from that one).
bool insideWiderLoad(const ExecutedKernel &EK, const std::vector<int> &Ids,
                     int Id) {
  const ExecutedKernel::Site &S = EK.Sites[size_t(Id)];
  const unsigned Size = EK.K.Accesses[size_t(Id)].Size;
  return std::any_of(Ids.begin(), Ids.end(), [&](int W) {
    const ExecutedKernel::Site &T = EK.Sites[size_t(W)];
    const Access &B = EK.K.Accesses[size_t(W)];
    return B.AsyncPartner < 0 && B.Size > Size && T.Base == S.Base &&
           T.Block == S.Block && T.Offset <= S.Offset &&
           S.Offset + int64_t(Size) <= T.Offset + int64_t(B.Size);
  });
}

/// Shared loads ptxas made alone with their whole aligned window: an
/// 8-byte load at +8 of the storage read as the 16 bytes at +0 (CUB's scan
/// by key reads a warp total so on one of its paths). Where the SASS has k
/// more loads of a width W and k fewer of a narrower width, and exactly k
/// of the narrower loads have a known place off W's alignment, those read
/// their window.
bool widenAlone(ExecutedKernel &EK, const std::vector<int> &Ids,
                const Widths &P, const Widths &Sw) {
  std::map<unsigned, int> D;
  for (const auto &[W, N] : Sw)
    D[W] += int(N);
  for (const auto &[W, N] : P)
    D[W] -= int(N);
  unsigned Narrow = 0, Wide = 0;
  int K = 0;
  for (const auto &[W, N] : D) {
    if (N < 0 && !Narrow) {
      Narrow = W;
      K = -N;
    } else if (N > 0 && !Wide) {
      Wide = W;
      if (N != K)
        return false;
    } else if (N) {
      return false;
    }
  }
  if (!Narrow || !Wide || Narrow >= Wide || Wide > 16 || !K)
    return false;
  std::vector<int> Off;
  for (int Id : Ids) {
    const Access &A = EK.K.Accesses[size_t(Id)];
    const int64_t Place = EK.Sites[size_t(Id)].Placed;
    if (A.Sp == Space::Shared && A.Size == Narrow && A.AsyncPartner < 0 &&
        A.Compiled.State == CompiledForm::AsWritten && Place >= 0 &&
        Place % Wide != 0 && Place % Wide + Narrow <= Wide)
      Off.push_back(Id);
  }
  if (Off.size() != size_t(K))
    return false;
  for (int Id : Off) {
    markMerged(EK, {Id}, Wide);
    EK.K.Accesses[size_t(Id)].Compiled.Note =
        "ptxas read it with its whole aligned window, one " +
        std::to_string(Wide * 8) + "-bit instruction";
  }
  return true;
}

/// Marks as reused the shared loads of Ids that the SASS's own loads of the
/// line, in order, pass over: each SASS load takes the next PTX load of its
/// width at its place (the offsets of a variable, alike on both sides up to
/// one shift), and a PTX load passed over must lie inside a wider load of
/// its base and block (CUB's select sweep keeps a total read alone at +16
/// and drops the ones at +32 and +40 that its window at +32 reads, on each
/// of four paths; dropping the last ones first took them from two paths).
bool dropPassedOver(ExecutedKernel &EK, const std::vector<int> &Ids,
                    const std::vector<const SassInstr *> &Sass) {
  std::vector<const SassInstr *> S(Sass.begin(), Sass.end());
  std::sort(S.begin(), S.end(), [](const SassInstr *A, const SassInstr *B) {
    return A->Offset < B->Offset;
  });
  std::vector<int> Order(Ids.begin(), Ids.end());
  std::sort(Order.begin(), Order.end()); // Program order.
  for (int Id : Order)
    if (EK.Sites[size_t(Id)].Placed < 0 ||
        EK.K.Accesses[size_t(Id)].Compiled.State != CompiledForm::AsWritten)
      return false;
  auto Inside = [&](int Id) { return insideWiderLoad(EK, Order, Id); };
  std::optional<int64_t> Shift;
  std::vector<int> Passed;
  size_t I = 0;
  for (const SassInstr *X : S) {
    for (;; ++I) {
      if (I == Order.size())
        return false;
      const int Id = Order[I];
      const int64_t Place = EK.Sites[size_t(Id)].Placed;
      if (EK.K.Accesses[size_t(Id)].Size == X->Width &&
          (!Shift || *Shift == X->AddrOffset - Place)) {
        Shift = X->AddrOffset - Place;
        ++I;
        break;
      }
      if (!Inside(Id))
        return false;
      Passed.push_back(Id);
    }
  }
  for (; I < Order.size(); ++I) {
    if (!Inside(Order[I]))
      return false;
    Passed.push_back(Order[I]);
  }
  if (Passed.empty())
    return false;
  for (int Id : Passed) {
    CompiledForm &C = EK.K.Accesses[size_t(Id)].Compiled;
    C.State = CompiledForm::Reused;
    C.Note = "ptxas took the value from a wider load of this line";
  }
  return true;
}

/// Marks as reused the loads of Ids that ptxas did not make (it kept a
/// value loaded before), the last first, as many as make the PTX's widths P
/// the SASS's Sw: loads of an address already loaded on the line, and with
/// Within, loads inside a wider one of the same base and basic block.
bool dropReloads(ExecutedKernel &EK, const std::vector<int> &Ids,
                 const Widths &P, const Widths &Sw, bool Within) {
  std::vector<int> Again;
  std::set<std::tuple<uint32_t, int64_t, unsigned>> Seen;
  for (int Id : Ids) {
    const ExecutedKernel::Site &S = EK.Sites[size_t(Id)];
    const Access &A = EK.K.Accesses[size_t(Id)];
    // An async copy's value goes to shared memory, not a register.
    if (A.AsyncPartner >= 0)
      continue;
    const bool Reload = !Seen.insert({S.Base, S.Offset, A.Size}).second ||
                        (Within && insideWiderLoad(EK, Ids, Id));
    if (Reload)
      Again.push_back(Id);
  }
  Widths Kept = P;
  size_t Dropped = 0;
  for (size_t J = Again.size(); J-- > 0 && !scaled(Kept, Sw);) {
    const unsigned Size = EK.K.Accesses[size_t(Again[J])].Size;
    if (!--Kept[Size])
      Kept.erase(Size);
    ++Dropped;
  }
  if (!Dropped || !scaled(Kept, Sw))
    return false;
  for (size_t J = Again.size() - Dropped; J < Again.size(); ++J) {
    CompiledForm &C = EK.K.Accesses[size_t(Again[J])].Compiled;
    C.State = CompiledForm::Reused;
    C.Note = Within ? "ptxas took the value from a wider load of this line"
                    : "ptxas kept the value of an earlier load of this address";
  }
  return true;
}

/// A source line's memory instructions of one class, on each side.
using LineKey = std::tuple<std::string, unsigned, Cls>;
using PtxLines = std::map<LineKey, std::vector<int>>;
using SassLines = std::map<LineKey, std::vector<const SassInstr *>>;

/// Loads ptxas moved past a kernel's last guarded exit. nvcc ends a kernel
/// with `@p bra END; <uses>; END: ret`, the last item's store guarded by
/// its bound, and its load made earlier with the others' (CUB's
/// BlockExchange::ScatterToStriped in a radix sort's single-tile kernel).
/// ptxas makes the branch `@P EXIT` and sinks into what follows the loads
/// whose values only that code reads: warps none of whose lanes are in
/// bounds run neither. Such a load (its register written once and read
/// only in that last block) is marked to take the lanes of the block's
/// first memory access (Site::SunkAnchor), where the SASS has as many
/// instructions of its line and class after the last guarded EXIT, and
/// one of the anchor's.
void markSunkLoads(ExecutedKernel &EK, const SassFunction &F,
                   const PtxLines &Ptx, const SassLines &Sass) {
  uint64_t Last = 0, End = ~uint64_t(0);
  bool Guarded = false;
  for (const auto &[Off, G] : F.Exits)
    if (G && Off >= Last) {
      Last = Off;
      Guarded = true;
    }
  if (!Guarded)
    return;
  for (const auto &[Off, G] : F.Exits)
    if (!G && Off > Last)
      End = std::min(End, Off);
  auto InTail = [&](const std::vector<const SassInstr *> &Is) {
    unsigned N = 0;
    for (const SassInstr *S : Is)
      N += S->Offset > Last && S->Offset < End && !S->Predicated;
    return N;
  };
  for (const auto &[K, Ids] : Ptx) {
    const Cls C = std::get<2>(K);
    if (C != Cls::SharedLoad && C != Cls::GlobalLoad)
      continue;
    auto SIt = Sass.find(K);
    const unsigned Tail = SIt == Sass.end() ? 0 : InTail(SIt->second);
    if (!Tail)
      continue;
    std::vector<std::pair<int, int>> Sunk; // Load, anchor.
    for (int Id : Ids) {
      const auto &[Fn, Instr] = EK.Where[size_t(Id)];
      const Access &A = EK.K.Accesses[size_t(Id)];
      // In the kernel itself: a called function's ret is no exit.
      if (!Fn->Src || !Fn->Src->Entry || A.AsyncPartner >= 0 ||
          A.Compiled.State != CompiledForm::AsWritten ||
          Fn->BlockOf.size() != Fn->Src->Body.size())
        continue;
      const std::vector<ptx::Instr> &Body = Fn->Src->Body;
      const ptx::Instr &L = Body[Instr];
      if (L.Guard >= 0 || L.Ops.empty())
        continue;
      std::set<int> Dest;
      if (L.Ops[0].Kind == ptx::Operand::Reg)
        Dest.insert(L.Ops[0].Index);
      for (const ptx::Operand &E : L.Ops[0].Elems)
        if (E.Kind == ptx::Operand::Reg)
          Dest.insert(E.Index);
      // Where each destination is read, and that nothing else writes it.
      std::function<bool(const ptx::Operand &)> Names =
          [&](const ptx::Operand &O) {
            if ((O.Kind == ptx::Operand::Reg ||
                 O.Kind == ptx::Operand::Address) &&
                (Dest.count(O.Index) || Dest.count(O.Pair)))
              return true;
            return std::any_of(O.Elems.begin(), O.Elems.end(), Names);
          };
      int64_t UseBlock = -1;
      bool Ok = !Dest.empty();
      for (size_t J = 0; Ok && J < Body.size(); ++J) {
        if (J == Instr ||
            !std::any_of(Body[J].Ops.begin(), Body[J].Ops.end(), Names))
          continue;
        const int64_t B = J < Fn->BlockOf.size() ? Fn->BlockOf[J] : -1;
        // A write of a destination elsewhere (stores write none).
        const ptx::Operand &D = Body[J].Ops[0];
        const bool Writes =
            Body[J].Op.rfind("st", 0) != 0 &&
            ((D.Kind == ptx::Operand::Reg && Dest.count(D.Index)) ||
             (D.Kind == ptx::Operand::Vector &&
              std::any_of(D.Elems.begin(), D.Elems.end(),
                          [&](const ptx::Operand &E) {
                            return Dest.count(E.Index) > 0;
                          })));
        Ok = !Writes && B >= 0 && B != int64_t(Fn->BlockOf[Instr]) &&
             (UseBlock < 0 || UseBlock == B);
        UseBlock = B;
      }
      if (!Ok || UseBlock < 0)
        continue;
      // The block: entered by falling through a guarded branch to a ret or
      // exit that follows it.
      size_t First = 0;
      while (First < Body.size() && Fn->BlockOf[First] != UseBlock)
        ++First;
      if (!First || First >= Fn->Code.size())
        continue;
      const ptx::Instr &Br = Body[First - 1];
      if (Br.Op != "bra" || Br.Guard < 0)
        continue;
      const uint32_t T = Fn->Code[First - 1].Target;
      if (T >= Body.size() || (Body[T].Op != "ret" && Body[T].Op != "exit"))
        continue;
      // Nothing it may not move past: a block barrier, a fence, a store
      // or atomic that may write its space (CUB's key-value sort reads the
      // last key before the values' exchange reuses the storage, and only
      // the value moves; stores of the other space do not stop it).
      const char *Space = C == Cls::SharedLoad ? "shared" : "global";
      for (size_t J = Instr + 1; Ok && J < First; ++J) {
        const ptx::Instr &X = Body[J];
        const bool Writes = X.Op == "st" || X.Op == "atom" || X.Op == "red";
        const bool Generic =
            !X.has("global") && !X.has("shared") && !X.has("local");
        Ok = !((X.Op == "bar" && !X.has("warp")) || X.Op == "barrier" ||
               X.Op == "membar" || X.Op == "fence" ||
               (Writes && (Generic || X.has(Space))));
      }
      int Anchor = -1;
      for (uint32_t J = uint32_t(First); J < T && Ok; ++J) {
        Ok = Fn->BlockOf[J] == UseBlock;
        if (Anchor < 0)
          Anchor = EK.id(Fn, J, 0);
      }
      if (!Ok || Anchor < 0)
        continue;
      const Access &An = EK.K.Accesses[size_t(Anchor)];
      const ExecutedKernel::Site &AS = EK.Sites[size_t(Anchor)];
      auto AIt =
          Sass.find({AS.SassLine ? AS.SassFile : An.Loc.File,
                     AS.SassLine ? AS.SassLine : An.Loc.Line, clsOf(An)});
      if (AIt == Sass.end() || !InTail(AIt->second))
        continue;
      Sunk.push_back({Id, Anchor});
    }
    if (Sunk.size() != Tail)
      continue;
    for (const auto &[Id, Anchor] : Sunk) {
      EK.Sites[size_t(Id)].SunkAnchor = Anchor;
      EK.K.Accesses[size_t(Id)].Compiled.Note =
          "ptxas moved it past the kernel's last guarded exit, to the code "
          "that uses it: warps with no lane left there do not run it";
    }
  }
}

/// The widths the accesses Ids are made with now: a merge at its width, on
/// its leader's line; a reused load not at all.
Widths madeWidths(const ExecutedKernel &EK, const std::vector<int> &Ids) {
  Widths Now;
  for (int Id : Ids) {
    const Access &A = EK.K.Accesses[size_t(Id)];
    if (A.Compiled.State == CompiledForm::Merged) {
      if (A.Compiled.Leader == Id)
        ++Now[A.Compiled.Width];
    } else if (A.Compiled.State != CompiledForm::Reused) {
      ++Now[A.Size];
    }
  }
  return Now;
}

Widths sassWidths(const SassLines &Sass, const LineKey &K) {
  Widths W;
  auto It = Sass.find(K);
  if (It != Sass.end())
    for (const SassInstr *I : It->second)
      ++W[I->Width];
  return W;
}

bool sameWidths(const Widths &Now, const Widths &S) {
  return (Now.empty() && S.empty()) || scaled(Now, S);
}

/// Merges ptxas made across lines that keep instructions of their own
/// (HeCBench's scan stores the last down-sweep step's two words, lines 135
/// and 136, with one STS.64 on line 136, and the earlier steps' words one
/// by one on each): aligned runs of K's accesses and other lines', one
/// block, one base, consecutive offsets, each led by one of K's (else by
/// its first in program order), at a width K's SASS has and its PTX
/// lacks. Kept where every line involved is then made with its SASS's
/// widths; else undone.
bool mergeAcrossLines(ExecutedKernel &EK, const LineKey &K, const PtxLines &Ptx,
                      const SassLines &Sass) {
  const std::vector<int> &Home = Ptx.at(K);
  const std::set<int> Mine(Home.begin(), Home.end());
  std::map<int, LineKey> LineOf;
  std::vector<int> Pool = Home;
  for (const auto &[L, Ids] : Ptx)
    if (L != K && std::get<0>(L) == std::get<0>(K) &&
        std::get<2>(L) == std::get<2>(K))
      for (int Id : Ids)
        if (EK.K.Accesses[size_t(Id)].Compiled.State ==
                CompiledForm::AsWritten ||
            EK.K.Accesses[size_t(Id)].Compiled.State ==
                CompiledForm::Unchecked) {
          Pool.push_back(Id);
          LineOf[Id] = L;
        }
  std::stable_sort(Pool.begin(), Pool.end(), [&](int A, int B) {
    const ExecutedKernel::Site &X = EK.Sites[size_t(A)],
                               &Y = EK.Sites[size_t(B)];
    return std::tie(X.Block, X.Base, X.Offset) <
           std::tie(Y.Block, Y.Base, Y.Offset);
  });
  Widths P;
  for (int Id : Home)
    ++P[EK.K.Accesses[size_t(Id)].Size];
  // Led by K's first; else each group led by its first access in program
  // order, wherever its line is: a 12-byte struct's fields read along an
  // unrolled loop make 16-byte windows that start on each field's line in
  // turn (Learn CUDA Programming's n-body: .x, .y and .z, two LDS.128
  // each).
  for (const bool AnyLeader : {false, true})
    for (const auto &[W, Count] : sassWidths(Sass, K)) {
      if (P.count(W))
        continue;
      std::vector<std::vector<int>> Groups;
      for (size_t I = 0; I < Pool.size();) {
        const unsigned Size = EK.K.Accesses[size_t(Pool[I])].Size;
        const ExecutedKernel::Site &First = EK.Sites[size_t(Pool[I])];
        const size_t N = Size < W ? W / Size : 0;
        bool Run =
            N > 1 && First.Offset % int64_t(W) == 0 && I + N <= Pool.size();
        bool Led = false;
        for (size_t J = 0; Run && J < N; ++J) {
          const ExecutedKernel::Site &T = EK.Sites[size_t(Pool[I + J])];
          Run = EK.K.Accesses[size_t(Pool[I + J])].Size == Size &&
                T.Block == First.Block && T.Base == First.Base &&
                T.Offset == First.Offset + int64_t(J * Size);
          Led |= Mine.count(Pool[I + J]) != 0;
        }
        if (!Run || (!Led && !AnyLeader)) {
          ++I;
          continue;
        }
        std::vector<int> G(Pool.begin() + long(I), Pool.begin() + long(I + N));
        std::sort(G.begin(), G.end());
        if (!AnyLeader)
          std::stable_partition(G.begin(), G.end(),
                                [&](int Id) { return Mine.count(Id) != 0; });
        Groups.push_back(std::move(G));
        I += N;
      }
      if (Groups.empty())
        continue;
      std::map<int, CompiledForm> Before;
      std::set<LineKey> Lines = {K};
      for (const std::vector<int> &G : Groups)
        for (int Id : G) {
          Before[Id] = EK.K.Accesses[size_t(Id)].Compiled;
          if (LineOf.count(Id))
            Lines.insert(LineOf.at(Id));
        }
      for (const std::vector<int> &G : Groups)
        markMerged(EK, G, W);
      if (std::all_of(Lines.begin(), Lines.end(), [&](const LineKey &L) {
            return sameWidths(madeWidths(EK, Ptx.at(L)), sassWidths(Sass, L));
          }))
        return true;
      for (const auto &[Id, C] : Before)
        EK.K.Accesses[size_t(Id)].Compiled = C;
    }
  return false;
}

/// Lines whose widths agree only together (place_match.h: CUB's select
/// sweep): K's shared accesses and those of other lines of its file and
/// class in the same basic blocks and 16-byte windows of one base, with
/// those lines' SASS, each instruction given the accesses its address
/// says, where only one way exists. Each access then takes its
/// instruction's line; accesses made together are merged. Every access
/// must have a known place and be made as written.
bool matchLinesByPlace(ExecutedKernel &EK, const LineKey &K,
                       const PtxLines &Ptx, const SassLines &Sass,
                       std::set<LineKey> &Done) {
  if (std::get<2>(K) != Cls::SharedLoad && std::get<2>(K) != Cls::SharedStore)
    return false;
  // Whether two accesses may be read by one instruction.
  auto Near = [&](int A, int B) {
    const ExecutedKernel::Site &X = EK.Sites[size_t(A)],
                               &Y = EK.Sites[size_t(B)];
    return EK.Where[size_t(A)].first == EK.Where[size_t(B)].first &&
           X.Block == Y.Block && X.Base == Y.Base && X.Placed >= 0 &&
           Y.Placed >= 0 && X.Placed / 16 == Y.Placed / 16;
  };
  std::set<LineKey> Lines = {K};
  std::vector<int> Ids = Ptx.at(K);
  std::map<int, const LineKey *> LineOf; // Each access's line, as keyed.
  for (int Id : Ids)
    LineOf[Id] = &K;
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const auto &[L, LIds] : Ptx)
      if (!Lines.count(L) && std::get<0>(L) == std::get<0>(K) &&
          std::get<2>(L) == std::get<2>(K) &&
          std::any_of(LIds.begin(), LIds.end(), [&](int A) {
            return std::any_of(Ids.begin(), Ids.end(),
                               [&](int B) { return Near(A, B); });
          })) {
        Lines.insert(L);
        Ids.insert(Ids.end(), LIds.begin(), LIds.end());
        for (int Id : LIds)
          LineOf[Id] = &L;
        Grew = true;
      }
  }
  if (Lines.size() < 2)
    return false;
  std::map<std::pair<const exec::XFunction *, uint32_t>, uint32_t> BlockNo;
  std::vector<PlacedPart> Parts;
  for (int Id : Ids) {
    const Access &A = EK.K.Accesses[size_t(Id)];
    const ExecutedKernel::Site &S = EK.Sites[size_t(Id)];
    if (S.Placed < 0 || A.AsyncPartner >= 0 ||
        (A.Compiled.State != CompiledForm::AsWritten &&
         A.Compiled.State != CompiledForm::Unchecked))
      return false;
    const auto Key = std::make_pair(EK.Where[size_t(Id)].first, S.Block);
    const uint32_t B =
        BlockNo.emplace(Key, uint32_t(BlockNo.size())).first->second;
    Parts.push_back({B, S.Placed, A.Size});
  }
  std::vector<const SassInstr *> S;
  std::map<std::pair<std::string, unsigned>, unsigned> LineNo;
  std::vector<PlacedInstr> Instrs;
  for (const LineKey &L : Lines) {
    auto It = Sass.find(L);
    if (It == Sass.end())
      continue;
    for (const SassInstr *I : It->second) {
      if (I->Copies != 1 || I->InSubroutine || I->Where.empty())
        return false;
      const auto Where =
          std::make_pair(I->Where.front().File, I->Where.front().Line);
      Instrs.push_back(
          {I->AddrOffset, I->Width,
           LineNo.emplace(Where, unsigned(LineNo.size())).first->second});
      S.push_back(I);
    }
  }
  const std::optional<std::vector<std::vector<size_t>>> Made =
      matchByPlace(Parts, Instrs);
  if (!Made)
    return false;
  for (size_t J = 0; J < S.size(); ++J) {
    std::vector<int> G;
    for (size_t P : (*Made)[J])
      G.push_back(Ids[P]);
    std::sort(G.begin(), G.end());
    const std::string &File = S[J]->Where.front().File;
    const unsigned Line = S[J]->Where.front().Line;
    // The instruction's request is counted at its leader: one of its line
    // if any.
    auto OnLine = [&](int Id) {
      const LineKey &L = *LineOf.at(Id);
      return std::get<0>(L) == File && std::get<1>(L) == Line;
    };
    std::stable_partition(G.begin(), G.end(), OnLine);
    ExecutedKernel::Site &Lead = EK.Sites[size_t(G.front())];
    if (!OnLine(G.front())) {
      Lead.SassFile = File;
      Lead.SassLine = Line;
    }
    if (G.size() > 1 || EK.K.Accesses[size_t(G.front())].Size != S[J]->Width)
      markMerged(EK, G, S[J]->Width);
    else
      EK.K.Accesses[size_t(G.front())].Compiled.State = CompiledForm::AsWritten;
  }
  Done.insert(Lines.begin(), Lines.end());
  return true;
}

/// Where the binary's line table puts a memory instruction on another line
/// than the PTX's .loc says (ptxas gave the second load of HeCBench's
/// scan's next-to-last down-sweep step, line 135, line 134; a GPU counts it
/// there): when a class's instructions as made (a merge at its leader, a
/// reused load none) are as many as the SASS's, of the same widths in
/// order, an instruction on a line the PTX has more of than the SASS,
/// which the SASS puts on a line it has more of than the PTX, takes the
/// SASS's line. Kernels without calls, instructions not inlined, only.
void relineInOrder(ExecutedKernel &EK, const SassFunction &F,
                   const PtxLines &Ptx) {
  if (EK.Ids.size() != 1)
    return;
  for (Cls C :
       {Cls::GlobalLoad, Cls::GlobalStore, Cls::SharedLoad, Cls::SharedStore}) {
    std::vector<std::pair<int, const LineKey *>> Made;
    bool Plain = true;
    for (const auto &[K, Ids] : Ptx)
      if (std::get<2>(K) == C)
        for (int Id : Ids) {
          const CompiledForm &CF = EK.K.Accesses[size_t(Id)].Compiled;
          Plain &= CF.State != CompiledForm::Split &&
                   sourceChain(*EK.Where[size_t(Id)].first,
                               EK.Where[size_t(Id)].second)
                           .size() <= 1;
          if (CF.State == CompiledForm::Reused ||
              (CF.State == CompiledForm::Merged && CF.Leader != Id))
            continue;
          Made.push_back({Id, &K});
        }
    std::sort(Made.begin(), Made.end());
    std::vector<const SassInstr *> S;
    for (const SassInstr &I : F.Memory) {
      Cls Of;
      if (I.Space == SassSpace::Async || !clsOf(I, Of) || Of != C)
        continue;
      Plain &= !I.InSubroutine && I.Copies == 1 && I.Where.size() == 1;
      S.push_back(&I);
    }
    if (!Plain || Made.empty() || Made.size() != S.size())
      continue;
    std::map<std::pair<std::string, unsigned>, int> Surplus; // SASS - PTX.
    bool Same = true;
    for (size_t I = 0; I < S.size() && Same; ++I) {
      const CompiledForm &CF = EK.K.Accesses[size_t(Made[I].first)].Compiled;
      const unsigned W = CF.State == CompiledForm::Merged
                             ? CF.Width
                             : EK.K.Accesses[size_t(Made[I].first)].Size;
      Same = W == S[I]->Width;
      --Surplus[{std::get<0>(*Made[I].second), std::get<1>(*Made[I].second)}];
      ++Surplus[{S[I]->Where.front().File, S[I]->Where.front().Line}];
    }
    if (!Same)
      continue;
    for (size_t I = 0; I < S.size(); ++I) {
      const std::pair<std::string, unsigned> From = {
          std::get<0>(*Made[I].second), std::get<1>(*Made[I].second)};
      const std::pair<std::string, unsigned> To = {S[I]->Where.front().File,
                                                   S[I]->Where.front().Line};
      if (From == To || Surplus[From] >= 0 || Surplus[To] <= 0 || !To.second)
        continue;
      ExecutedKernel::Site &Site = EK.Sites[size_t(Made[I].first)];
      Site.SassFile = To.first;
      Site.SassLine = To.second;
      ++Surplus[From];
      --Surplus[To];
    }
  }
}

} // namespace

std::vector<std::string> reconcileWithSass(ExecutedKernel &EK,
                                           const SassFunction &F) {
  std::vector<std::string> Notes;
  using Key = LineKey;
  PtxLines Ptx;
  SassLines Sass;
  for (size_t I = 0; I < EK.K.Accesses.size(); ++I) {
    const Access &A = EK.K.Accesses[I];
    if (A.AsyncPartner >= 0 && A.Sp == Space::Shared)
      continue; // The shared side of cp.async: its LDGSTS is the global's.
    if (EK.sharedSideOfGeneric(I))
      continue; // Its instruction is the global side's LD or ST.
    const auto &[Fn, Instr] = EK.Where[I];
    const std::vector<SourceLoc> Chain = sourceChain(*Fn, Instr);
    const SourceLoc Inner = Chain.empty() ? SourceLoc() : Chain.front();
    Ptx[{Inner.File, Inner.Line, clsOf(A)}].push_back(int(I));
  }
  for (const SassInstr &S : F.Memory) {
    Cls C;
    if (!clsOf(S, C))
      continue;
    const SassLoc L = S.Where.empty() ? SassLoc() : S.Where.front();
    Sass[{L.File, L.Line, C}].push_back(&S);
  }
  // Instructions nvcc put on line 0 (a load of an address it selected
  // between an if's two sides) take the line of the last instruction
  // before them that has one (the side that falls through: ptxas's choice
  // in HeCBench's sampling), where the SASS has instructions of their
  // class and the PTX none (async copies' LDGSTS aside).
  std::set<Key> Free;
  for (const SassInstr &S : F.Memory) {
    Cls C;
    if (S.Space != SassSpace::Async && !S.Where.empty() &&
        S.Where.front().Line && clsOf(S, C) &&
        !Ptx.count({S.Where.front().File, S.Where.front().Line, C}))
      Free.insert({S.Where.front().File, S.Where.front().Line, C});
  }
  // Else the one line of their file where the SASS has their class and the
  // PTX none (HeCBench's scan: nvcc forwarded the last down-sweep's stores
  // to the copy out, loading the two words once on line 0 after a barrier;
  // ptxas put the LDS.64 on the loop's line).
  auto OnlyFree = [&](const std::string &File, Cls C) -> const Key * {
    const Key *Only = nullptr;
    for (const Key &K : Free)
      if (std::get<0>(K) == File && std::get<2>(K) == C) {
        if (Only)
          return nullptr;
        Only = &K;
      }
    return Only;
  };
  std::vector<int> Moved;
  for (auto &[K, Ids] : Ptx) {
    if (std::get<1>(K))
      continue;
    std::vector<int> Left;
    for (int Id : Ids) {
      const auto &[Fn, Instr] = EK.Where[size_t(Id)];
      SourceLoc Before;
      for (uint32_t I = Instr; I-- > 0 && !Before.Line;) {
        const std::vector<SourceLoc> Ch = sourceChain(*Fn, I);
        if (!Ch.empty())
          Before = Ch.front();
      }
      Key To{Before.File, Before.Line, std::get<2>(K)};
      if (!Free.count(To)) {
        const Key *Only = OnlyFree(Before.File, std::get<2>(K));
        if (!Only) {
          Left.push_back(Id);
          continue;
        }
        To = *Only;
      }
      EK.Sites[size_t(Id)].SassFile = std::get<0>(To);
      EK.Sites[size_t(Id)].SassLine = std::get<1>(To);
      Moved.push_back(Id);
    }
    Ids = std::move(Left);
  }
  for (int Id : Moved) {
    const ExecutedKernel::Site &S = EK.Sites[size_t(Id)];
    const Key To{S.SassFile, S.SassLine, clsOf(EK.K.Accesses[size_t(Id)])};
    Ptx[To].push_back(Id);
  }
  for (auto It = Ptx.begin(); It != Ptx.end();)
    It = It->second.empty() ? Ptx.erase(It) : std::next(It);
  std::set<Key> Joined; // Lines without SASS merged into another's.
  std::set<Key> ByPlace; // Lines matched with others by place.
  // Lines counted as the PTX has them, with the SASS line they took.
  std::vector<std::pair<Key, Key>> Unmatched;
  for (auto &[K, Ids] : Ptx) {
    if (ByPlace.count(K))
      continue;
    auto SIt = Sass.find(K);
    if (SIt == Sass.end()) {
      // The line table may name another file for the line (an included
      // header's, whose own line it is not): the one SASS line of this
      // number and class that no PTX access claims.
      std::vector<decltype(SIt)> Alike;
      for (auto It = Sass.begin(); It != Sass.end(); ++It)
        if (std::get<1>(It->first) == std::get<1>(K) &&
            std::get<2>(It->first) == std::get<2>(K) && !Ptx.count(It->first))
          Alike.push_back(It);
      if (Alike.size() != 1)
        continue; // Placed on another line by the line table: as written.
      SIt = Alike.front();
      // ptxas starts no new row where only the file changes: an atomicAdd
      // called on line 112 stays on the caller's row, not the header's
      // line 112, and a GPU counts it there (PMPP's histogram, H200).
      const std::string &File = std::get<0>(SIt->first);
      for (int Id : Ids) {
        const auto &[Fn, Instr] = EK.Where[size_t(Id)];
        for (const SourceLoc &L : sourceChain(*Fn, Instr))
          if (L.File == File && L.Line == std::get<1>(K)) {
            EK.Sites[size_t(Id)].SassFile = File;
            EK.Sites[size_t(Id)].SassLine = L.Line;
          }
      }
    }
    const std::vector<const SassInstr *> &S = SIt->second;
    // Atomics: RED where the result is unused, one lane where nvcc
    // aggregated them.
    if (std::get<2>(K) == Cls::GlobalAtomic ||
        std::get<2>(K) == Cls::SharedAtomic) {
      const bool AllRed = std::all_of(S.begin(), S.end(), [](auto *I) {
        return I->Kind == SassKind::Reduction;
      });
      const bool AllAtom = std::all_of(S.begin(), S.end(), [](auto *I) {
        return I->Kind == SassKind::Atomic;
      });
      const size_t Elected = size_t(std::count_if(
          S.begin(), S.end(), [](auto *I) { return I->OneLane; }));
      for (int Id : Ids) {
        // CUDA's atomic functions are all inlined from one header line, and
        // the SASS's line table does not tell which call each instruction
        // is. Where the line's instructions differ, the PTX says what
        // ptxas decides by: RED where nobody reads the result, one elected
        // lane where the address is the same on every lane.
        const ExecutedKernel::Site &Site = EK.Sites[size_t(Id)];
        Access &A = EK.K.Accesses[size_t(Id)];
        if (AllRed)
          A.Reduction = true;
        else if (AllAtom)
          A.Reduction = false;
        else
          A.Reduction = !Site.ResultRead;
        A.Compiled.OneLane = Elected == S.size() || (Elected && Site.Uniform);
      }
    }
    Widths P, Sw;
    for (int Id : Ids)
      ++P[EK.K.Accesses[size_t(Id)].Size];
    for (const SassInstr *I : S)
      ++Sw[I->Width];
    // A line an earlier line's merge across lines reached is made as that
    // merge says, where it gives the SASS's widths.
    if (std::any_of(Ids.begin(), Ids.end(),
                    [&](int Id) {
                      return EK.K.Accesses[size_t(Id)].Compiled.State ==
                             CompiledForm::Merged;
                    }) &&
        sameWidths(madeWidths(EK, Ids), Sw))
      continue;
    for (int Id : Ids)
      EK.K.Accesses[size_t(Id)].Compiled.State = CompiledForm::AsWritten;
    // Every width as often or more (a whole multiple among them): ptxas
    // unrolled the line's loop, or unrolled it further and kept its loads
    // (simpleMultiCopy's reloads through a pointer that may alias the
    // store's: 5 PTX loads, 29 LDGs, 5 executed a warp on an H200).
    if (unrolled(P, Sw))
      continue;
    if (mergeCovers(EK, Ids, Sw, /*Guess=*/false))
      continue;
    if (mergeRuns(EK, Ids, P, Sw))
      continue;
    // Runs narrower than the SASS's one width, which ptxas merged across
    // the iterations of a loop it unrolled further (a run at +0 and +4
    // twice makes one LDS.128): each run's parts are gathered over its
    // executions, W / size parts to a request.
    if (Sw.size() == 1 &&
        mergeAcrossIterations(EK, Ids, Sw.begin()->first, Sw.begin()->second))
      continue;
    if (mergeCovers(EK, Ids, Sw, /*Guess=*/true))
      continue;
    if (mergeCovers(EK, Ids, Sw, /*Guess=*/false, nullptr,
                    /*AcrossBlocks=*/true))
      continue;
    if (mergeRuns(EK, Ids, P, Sw, nullptr, /*Windows=*/true))
      continue;
    if (mergeRuns(EK, Ids, P, Sw, nullptr, /*Windows=*/false,
                  /*Unrolled=*/true))
      continue;
    // Vector or struct copies of which ptxas moves only the parts used
    // (`float4 q = v[i]; ... q.x + q.w`: two 4-byte loads at 0 and 12).
    if (splitCopies(EK, Ids, P, S))
      continue;
    // Loads of an address loaded before on this line, from the same base,
    // that ptxas did not make again (it kept the value): as many as the
    // SASS lacks. Failing that, also loads whose bytes a wider load of the
    // line reads, from the same base in the same basic block, before or
    // after them (CUB's block scan reads a warp total alone and the four
    // around it with one LDS.128; ptxas reads it once).
    if ((std::get<2>(K) == Cls::SharedLoad ||
         std::get<2>(K) == Cls::GlobalLoad) &&
        (dropReloads(EK, Ids, P, Sw, /*Within=*/false) ||
         (std::get<2>(K) == Cls::SharedLoad &&
          dropPassedOver(EK, Ids, SIt->second)) ||
         dropReloads(EK, Ids, P, Sw, /*Within=*/true)))
      continue;
    if (std::get<2>(K) == Cls::SharedLoad && widenAlone(EK, Ids, P, Sw))
      continue;
    if (SIt->first == K && matchLinesByPlace(EK, K, Ptx, Sass, ByPlace))
      continue;
    // A run ptxas merged across lines (s[2t] read on one line, s[2t + 1]
    // on the next: one LDS.64 on the first): with the accesses of this
    // class on lines the SASS has none of.
    if (!Sw.empty()) {
      std::vector<int> With = Ids;
      std::vector<Key> Lines;
      for (const auto &[L, LIds] : Ptx)
        if (std::get<0>(L) == std::get<0>(K) &&
            std::get<2>(L) == std::get<2>(K) && L != K && !Sass.count(L) &&
            !Joined.count(L)) {
          With.insert(With.end(), LIds.begin(), LIds.end());
          Lines.push_back(L);
        }
      Widths Pw;
      for (int Id : With)
        ++Pw[EK.K.Accesses[size_t(Id)].Size];
      const std::set<int> Home(Ids.begin(), Ids.end());
      if (!Lines.empty() && (mergeCovers(EK, With, Sw, false, &Home) ||
                             mergeRuns(EK, With, Pw, Sw, &Home))) {
        // Lines whose accesses all joined a merge are spoken for.
        for (const Key &L : Lines)
          if (std::all_of(Ptx[L].begin(), Ptx[L].end(), [&](int Id) {
                return EK.K.Accesses[size_t(Id)].Compiled.State ==
                       CompiledForm::Merged;
              }))
            Joined.insert(L);
        continue;
      }
    }
    if (SIt->first == K && mergeAcrossLines(EK, K, Ptx, Sass))
      continue;
    Unmatched.push_back({K, SIt->first});
  }
  // A line left unmatched may have been matched since, by a merge a later
  // line made across lines: its accesses as they are now made, the leaders
  // of merged ones at their width, the others of a merge nothing.
  for (const auto &[K, SassKey] : Unmatched) {
    if (ByPlace.count(K))
      continue;
    Widths P;
    for (int Id : Ptx[K])
      ++P[EK.K.Accesses[size_t(Id)].Size];
    const Widths Sw = sassWidths(Sass, SassKey);
    if (sameWidths(madeWidths(EK, Ptx[K]), Sw))
      continue;
    const Access &First = EK.K.Accesses[size_t(Ptx[K].front())];
    Notes.push_back(First.Loc.File + ":" + std::to_string(std::get<1>(K)) +
                    ": the PTX has " + widthsText(P) + " " +
                    (First.Sp == Space::Shared ? "shared" : "global") +
                    " accesses where ptxas emitted " + widthsText(Sw) +
                    "; counted as the PTX has them");
  }
  relineInOrder(EK, F, Ptx);
  markSunkLoads(EK, F, Ptx, Sass);
  // Atomics of one kind only in a space of the SASS: every atomic access of
  // that space is that kind, wherever the line table put its instruction.
  for (const Cls C : {Cls::GlobalAtomic, Cls::SharedAtomic})
    if (const std::optional<bool> Red =
            atomicsAllReductions(F, C == Cls::SharedAtomic))
      for (size_t I = 0; I < EK.K.Accesses.size(); ++I)
        if (clsOf(EK.K.Accesses[I]) == C && !EK.sharedSideOfGeneric(I))
          EK.K.Accesses[I].Reduction = *Red;
  // A generic instruction's shared side is made where its global side is
  // (merges of generic instructions are left as written).
  for (size_t I = 0; I < EK.K.Accesses.size(); ++I)
    if (EK.sharedSideOfGeneric(I)) {
      const auto &[Fn, Instr] = EK.Where[I];
      const int G = EK.id(Fn, Instr, 0);
      CompiledForm &C = EK.K.Accesses[I].Compiled;
      const CompiledForm &Of = EK.K.Accesses[size_t(G)].Compiled;
      C.State = Of.State == CompiledForm::Reused ? CompiledForm::Reused
                                                 : CompiledForm::AsWritten;
      C.Note = Of.State == CompiledForm::Reused ? Of.Note : std::string();
    }
  const GuardedLines Guarded(F);
  for (size_t I = 0; I < EK.K.Accesses.size(); ++I) {
    Access &A = EK.K.Accesses[I];
    const ExecutedKernel::Site &S = EK.Sites[I];
    if (EK.sharedSideOfGeneric(I))
      A.Compiled.Guarded = false; // The global side's instruction counts.
    else
      Guarded.mark(A, S.SassLine ? S.SassFile : A.Loc.File,
                   S.SassLine ? S.SassLine : A.Loc.Line);
  }
  return Notes;
}

} // namespace gmem
