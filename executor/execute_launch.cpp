//===- execute_launch.cpp - A launch of the model, run on its PTX
//-----------===//
#include "execute_launch.h"
#include "device_name.h"
#include "executed_json.h"
#include "metrics.h"
#include "ptx_parser.h"

#include <cctype>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace gmem {

using namespace exec;

namespace {

std::string canonical(const std::string &P) {
  char Buf[PATH_MAX];
  return ::realpath(P.c_str(), Buf) ? std::string(Buf) : P;
}

/// A file's lines (cached), for the words of accesses the model lacks.
const std::vector<std::string> &fileLines(const std::string &Path) {
  static std::map<std::string, std::vector<std::string>> Cache;
  auto It = Cache.find(Path);
  if (It != Cache.end())
    return It->second;
  std::vector<std::string> &Lines = Cache[Path];
  std::ifstream In(Path);
  for (std::string L; std::getline(In, L);)
    Lines.push_back(L);
  return Lines;
}

std::string trimmed(std::string S) {
  const size_t B = S.find_first_not_of(" \t");
  if (B == std::string::npos)
    return "";
  S = S.substr(B);
  while (!S.empty() &&
         (S.back() == ' ' || S.back() == '\t' || S.back() == '\r'))
    S.pop_back();
  return S;
}

bool systemFile(const std::string &F) {
  return F.find("/cuda") != std::string::npos ||
         F.rfind("/usr/include", 0) == 0 || F.rfind("/usr/lib", 0) == 0 ||
         F.find("/targets/") != std::string::npos;
}

/// The nearest nonzero source line around instruction I of F (after it
/// first): where an instruction nvcc put on line 0 (shared by several
/// lines) most likely belongs.
unsigned contextLine(const XFunction &F, uint32_t I) {
  for (uint32_t K = I + 1; K < F.Code.size(); ++K) {
    const std::vector<SourceLoc> C = sourceChain(F, K);
    if (!C.empty() && C.back().Line)
      return C.back().Line;
  }
  for (uint32_t K = I; K-- > 0;) {
    const std::vector<SourceLoc> C = sourceChain(F, K);
    if (!C.empty() && C.back().Line)
      return C.back().Line;
  }
  return 0;
}

/// The source name of a mangled local entity: _ZZ13transposeSmemPfS_iiE4tile
/// -> tile (a discriminator _N after it is dropped).
std::string localName(const std::string &Mangled) {
  if (Mangled.rfind("_Z", 0) != 0)
    return Mangled;
  const size_t E = Mangled.rfind('E');
  if (E == std::string::npos)
    return Mangled;
  size_t I = E + 1, Len = 0;
  while (I < Mangled.size() &&
         std::isdigit(static_cast<unsigned char>(Mangled[I])))
    Len = Len * 10 + size_t(Mangled[I++] - '0');
  if (!Len || I + Len > Mangled.size())
    return Mangled;
  return Mangled.substr(I, Len);
}

/// The array an executed access indexes, as the source names it.
std::string arrayName(const std::string &Origin, const Kernel &Model) {
  if (Origin.rfind("param:", 0) == 0) {
    const size_t N = std::strtoul(Origin.c_str() + 6, nullptr, 10);
    return N < Model.Params.size() ? Model.Params[N].Name : Origin;
  }
  const size_t Colon = Origin.find(':');
  return Colon == std::string::npos ? Origin
                                    : localName(Origin.substr(Colon + 1));
}

/// Where an executed access is in the program's own code: the innermost
/// position of its inline chain in a user file (the kernel's line at worst).
SourceLoc userLoc(const ExecutedKernel &EK, size_t I, const ExecOptions &O) {
  const std::vector<SourceLoc> Chain =
      sourceChain(*EK.Where[I].first, EK.Where[I].second);
  // Where the binary's line table gives it another line (reconcile.cpp):
  // a GPU counts it there.
  if (EK.Sites[I].SassLine)
    return {EK.Sites[I].SassFile, EK.Sites[I].SassLine, 0};
  for (const SourceLoc &S : Chain)
    if (O.UserFile ? O.UserFile(S.File) : !systemFile(S.File))
      return S;
  return Chain.empty() ? SourceLoc() : Chain.back();
}

/// The line the binary's line table gives access I: the innermost of its
/// PTX's, unless ptxas put its instruction on another (reconcile.cpp).
SourceLoc tableLoc(const ExecutedKernel &EK, size_t I) {
  const ExecutedKernel::Site &S = EK.Sites[I];
  return S.SassLine ? SourceLoc{S.SassFile, S.SassLine, 0}
                    : EK.K.Accesses[I].Loc;
}

/// The executed launch as a report shows it: each model access that the
/// PTX's instructions stand for (several, where nvcc unrolled it) is one
/// row with their summed counts; an instruction no model access stands for
/// is a row of its own, named by its source line. A PTX instruction matches
/// the model's accesses of its line, space, kind and array: all of them
/// when the model has one, the k-th the k-th (modulo their number: the
/// copies of a loop nvcc unrolled) when the PTX has a whole multiple of
/// them; one
/// nvcc put on line 0 takes the model access of its kind left without one
/// nearest its neighbours' line.
struct Presented {
  Kernel K;
  std::vector<AccessStats> Stats;
  std::vector<std::optional<FaultExample>> Misaligned;
  std::vector<int> ModelAccess; ///< Per row, as LaunchResult's.
};

Presented present(const ExecutedKernel &EK, const ExecutedCounts &C,
                  const Kernel &Model, const ExecOptions &O) {
  std::map<std::string, std::string> Canon;
  auto Canonical = [&](const std::string &F) -> const std::string & {
    auto It = Canon.find(F);
    if (It == Canon.end())
      It = Canon.emplace(F, canonical(F)).first;
    return It->second;
  };
  // An async copy's side is told from a plain access of its line and array
  // (a load ptxas put on the copy's line).
  using Key = std::tuple<std::string, unsigned, int, int, std::string>;
  auto KindOf = [](const Access &A) {
    return int(A.Kind) * 2 + (A.AsyncPartner >= 0);
  };
  auto Line = [](const Access &A) {
    const bool Moved = A.Compiled.Line && A.Compiled.File.empty();
    return Moved ? A.Compiled.Line : A.Loc.Line;
  };
  std::map<Key, std::vector<int>> ModelAt;
  for (const Access &A : Model.Accesses)
    ModelAt[{Canonical(A.Loc.File), Line(A), int(A.Sp), KindOf(A), A.Array}]
        .push_back(A.Id);
  for (auto &[K, V] : ModelAt)
    std::stable_sort(V.begin(), V.end(), [&](int A, int B) {
      return Model.Accesses[size_t(A)].Loc.Col <
             Model.Accesses[size_t(B)].Loc.Col;
    });
  const size_t N = EK.K.Accesses.size();
  std::vector<SourceLoc> Where(N);
  std::vector<std::string> Array(N);
  std::map<Key, std::vector<size_t>> PtxAt;
  std::vector<size_t> LineZero;
  for (size_t I = 0; I < N; ++I) {
    const Access &A = EK.K.Accesses[I];
    Where[I] = userLoc(EK, I, O);
    Array[I] = arrayName(A.Array, Model);
    if (!Where[I].Line)
      LineZero.push_back(I);
    else
      PtxAt[{Canonical(Where[I].File), Where[I].Line, int(A.Sp), KindOf(A),
             Array[I]}]
          .push_back(I);
  }
  // PTX access -> model access (-1: none).
  std::vector<int> To(N, -1);
  std::set<int> Claimed;
  // The array names differ where the PTX's base is a device function's
  // parameter (a __noinline__ callee's `p`): such an instruction takes its
  // line's model accesses that no instruction names.
  auto lineOf = [](const Key &K) {
    return Key{std::get<0>(K), std::get<1>(K), std::get<2>(K), std::get<3>(K),
               ""};
  };
  std::map<Key, std::vector<int>> Unnamed;
  for (const auto &[K, V] : ModelAt)
    if (!PtxAt.count(K)) {
      std::vector<int> &L = Unnamed[lineOf(K)];
      L.insert(L.end(), V.begin(), V.end());
    }
  for (const auto &[K, P] : PtxAt) {
    auto It = ModelAt.find(K);
    if (It == ModelAt.end() && (It = Unnamed.find(lineOf(K))) == Unnamed.end())
      continue;
    const std::vector<int> &M = It->second;
    for (size_t J = 0; J < P.size(); ++J) {
      // Unrolled copies of the model's accesses come in turn.
      const int Target = M.size() == 1              ? M[0]
                         : P.size() % M.size() == 0 ? M[J % M.size()]
                         : J < M.size()             ? M[J]
                                                    : -1;
      To[P[J]] = Target;
      if (Target >= 0)
        Claimed.insert(Target);
    }
  }
  for (size_t I : LineZero) {
    const Access &A = EK.K.Accesses[I];
    const unsigned Near = contextLine(*EK.Where[I].first, EK.Where[I].second);
    const Access *Best = nullptr;
    for (const Access &M : Model.Accesses)
      if (!Claimed.count(M.Id) && M.Sp == A.Sp && M.Kind == A.Kind &&
          Canonical(M.Loc.File) == Canonical(Where[I].File) &&
          (!Best || std::abs(int(M.Loc.Line) - int(Near)) <
                        std::abs(int(Best->Loc.Line) - int(Near))))
        Best = &M;
    if (Best) {
      To[I] = Best->Id;
      Claimed.insert(Best->Id);
    } else {
      Where[I].Line = Near;
    }
  }
  // The rows: claimed model accesses in the model's order, then the PTX's
  // own that ran.
  Presented Out;
  Out.K.Name = Model.Name;
  Out.K.MangledName = EK.K.MangledName;
  Out.K.Loc = Model.Loc;
  Out.K.Params = Model.Params;
  Out.K.Shared = Model.Shared;
  Out.K.UnmodelledGlobal = EK.K.UnmodelledGlobal;
  Out.K.DeviceHeap = EK.K.DeviceHeap;
  Out.K.LaunchesKernels = EK.K.LaunchesKernels;
  std::map<int, int> RowOfModel;
  for (const Access &M : Model.Accesses)
    if (Claimed.count(M.Id)) {
      Access Row = M;
      Row.Id = int(Out.K.Accesses.size());
      Row.Compiled.Leader = -1;
      RowOfModel[M.Id] = Row.Id;
      Out.K.Accesses.push_back(std::move(Row));
      Out.ModelAccess.push_back(M.Id);
    }
  // The program's files as the model spells them (the PTX's are absolute).
  std::map<std::string, std::string> Spelling;
  Spelling.emplace(Canonical(Model.Loc.File), Model.Loc.File);
  for (const Access &M : Model.Accesses)
    Spelling.emplace(Canonical(M.Loc.File), M.Loc.File);
  // Instructions of one source access (wmma's four loads, a loop's unrolled
  // copies) share one row, as the model's accesses do.
  // The line table's own line is part of it: a GPU counts per that line.
  using Same = std::tuple<std::string, unsigned, unsigned, int, int, unsigned,
                          std::string, bool, std::string, unsigned>;
  std::map<Same, int> RowOfSame;
  std::vector<int> Row(N, -1);
  for (size_t I = 0; I < N; ++I) {
    if (To[I] >= 0) {
      Row[I] = RowOfModel[To[I]];
      // A model access the SASS step placed nowhere takes the line table's
      // line of its instructions (the innermost, a library's), as a GPU's
      // per-line counters do.
      Access &R = Out.K.Accesses[size_t(Row[I])];
      const SourceLoc In = tableLoc(EK, I);
      if (!R.Compiled.Line && In.Line &&
          (In.Line != R.Loc.Line ||
           Canonical(In.File) != Canonical(R.Loc.File))) {
        R.Compiled.File = In.File;
        R.Compiled.Line = In.Line;
      }
      continue;
    }
    const AccessStats &S = C.Stats[I];
    if (!S.Requests && !S.UnknownRequests && !S.UncountedRequests &&
        !S.GenericElsewhere)
      continue;
    Access A = EK.K.Accesses[I];
    auto Spelt = Spelling.find(Canonical(Where[I].File));
    if (Spelt != Spelling.end())
      Where[I].File = Spelt->second;
    const Same Key{Canonical(Where[I].File),
                   Where[I].Line,
                   Where[I].Col,
                   int(A.Sp),
                   int(A.Kind) * 2 + A.Reduction,
                   A.Size,
                   Array[I],
                   A.Matrix,
                   A.Loc.File,
                   A.Loc.Line};
    if (A.AsyncPartner < 0) {
      auto It = RowOfSame.find(Key);
      if (It != RowOfSame.end()) {
        Row[I] = It->second;
        continue;
      }
    }
    A.Id = int(Out.K.Accesses.size());
    // The line table's line (the innermost: a library's), where the
    // program's own line is another: per-line comparisons with a GPU use it.
    const SourceLoc Table = tableLoc(EK, I);
    if (Table.Line != Where[I].Line || Table.File != Where[I].File) {
      A.Compiled.File = Table.File;
      A.Compiled.Line = Table.Line;
    }
    A.Loc = Where[I];
    A.Array = Array[I];
    A.Compiled.Leader = -1;
    const std::vector<std::string> &Lines = fileLines(A.Loc.File);
    const XInstr &X = EK.Where[I].first->Code[EK.Where[I].second];
    A.Text =
        A.Loc.Line && A.Loc.Line <= Lines.size()
            ? trimmed(Lines[A.Loc.Line - 1])
            : "(PTX line " + std::to_string(X.Src ? X.Src->PtxLine : 0) + ")";
    Row[I] = A.Id;
    if (A.AsyncPartner < 0)
      RowOfSame.emplace(Key, A.Id);
    Out.K.Accesses.push_back(std::move(A));
    Out.ModelAccess.push_back(-1);
  }
  // Async copies' partners, among the rows.
  for (Access &A : Out.K.Accesses)
    A.AsyncPartner = -1;
  for (size_t I = 0; I < N; ++I) {
    const int P = EK.K.Accesses[I].AsyncPartner;
    if (Row[I] >= 0 && P >= 0 && Row[size_t(P)] >= 0)
      Out.K.Accesses[size_t(Row[I])].AsyncPartner = Row[size_t(P)];
  }
  Out.Stats.resize(Out.K.Accesses.size());
  Out.Misaligned.resize(Out.K.Accesses.size());
  std::vector<uint64_t> Order(Out.K.Accesses.size(), ~uint64_t(0));
  for (size_t I = 0; I < N; ++I) {
    if (Row[I] < 0)
      continue;
    Out.Stats[size_t(Row[I])].add(C.Stats[I]);
    const OrderedExample &Ex = C.Misaligned[I];
    if (Ex.Order < Order[size_t(Row[I])]) {
      Order[size_t(Row[I])] = Ex.Order;
      Out.Misaligned[size_t(Row[I])] = FaultExample{
          Ex.Where.BlockIdx, uint64_t(Ex.Where.Warp) * 32 + Ex.Where.Lane,
          Ex.Where.Address};
    }
  }
  return Out;
}

} // namespace

Expected<std::unique_ptr<ExecutedProgram>> ExecutedProgram::create(
    const std::vector<std::pair<std::string, std::string>> &Units) {
  auto Mods = std::make_shared<std::vector<ptx::Module>>();
  for (const auto &[File, Text] : Units) {
    auto M = ptx::parseModule(Text, File + " (PTX)");
    if (!M)
      return Failure{M.error()};
    Mods->push_back(std::move(*M));
  }
  auto P = std::unique_ptr<ExecutedProgram>(new ExecutedProgram());
  P->Modules = std::move(Mods);
  return std::move(P);
}

std::string ExecutedProgram::entryFor(const Kernel &K) const {
  const std::string Want = K.MangledName.empty() ? K.Name : K.MangledName;
  for (const ptx::Module &M : *Modules)
    for (const ptx::Function &F : M.Functions)
      if (F.Entry && F.Defined && sameDeviceName(F.Name, Want))
        return F.Name;
  return "";
}

Expected<LaunchResult> ExecutedProgram::execute(const Kernel &K,
                                                const gmem::Launch &L,
                                                const ArchRules &A,
                                                const ExecOptions &O) {
  const auto Start = std::chrono::steady_clock::now();
  const std::string Entry = entryFor(K);
  if (Entry.empty())
    return Failure{"the PTX has no kernel " + K.Name};
  // A fresh memory and program per launch: the launch's images at their
  // addresses, module variables at their initial bytes (unknown: the host
  // may have written them).
  GlobalMemory Mem;
  Mem.Lenient = true;
  auto Prog = Program::link(Modules, Mem, nullptr, false);
  if (!Prog)
    return Failure{Prog.error()};
  (*Prog)->LinkerPlacesShared = O.LinkerPlacesShared;
  const XFunction *X = (*Prog)->kernel(Entry);
  if (!X)
    return Failure{"the PTX has no kernel " + Entry};
  // Pointer arguments: a recorded image's real address, else a base of
  // its own (2^36 apart, as the model's).
  std::map<std::string, uint64_t> Bases;
  for (const auto &[Name, Img] : L.Memory) {
    if (!Img.RealBase)
      continue;
    Bases[Name] = Img.RealBase;
    if (Img.Data && Img.Bytes && Img.Data->size() >= Img.Bytes) {
      Region &R = Mem.addOwned(Img.RealBase, Img.Bytes, Name, true);
      std::memcpy(R.Data, Img.Data->data(), Img.Bytes);
    }
  }
  LaunchConfig C;
  C.Grid[0] = uint32_t(L.Grid.X);
  C.Grid[1] = uint32_t(L.Grid.Y);
  C.Grid[2] = uint32_t(L.Grid.Z);
  C.Block[0] = uint32_t(L.Block.X);
  C.Block[1] = uint32_t(L.Block.Y);
  C.Block[2] = uint32_t(L.Block.Z);
  C.DynamicSmem = L.DynamicSmem;
  C.MaxWarpInstructions = O.MaxWarpInstructions;
  uint64_t ParamBytes = 0;
  for (const auto &[Off, Bytes] : X->ParamSlots)
    ParamBytes = std::max<uint64_t>(ParamBytes, Off + Bytes);
  C.Params.assign(ParamBytes, 0);
  C.ParamsKnown.assign(ParamBytes, false);
  for (size_t I = 0; I < X->ParamSlots.size() && I < L.Args.size(); ++I) {
    const auto [Off, Bytes] = X->ParamSlots[I];
    const ArgValue &V = L.Args[I];
    auto Put = [&](const void *Src, size_t N) {
      std::memcpy(&C.Params[Off], Src, std::min<size_t>(N, Bytes));
      std::fill_n(C.ParamsKnown.begin() + Off, std::min<size_t>(N, Bytes),
                  true);
    };
    if (I < L.ArgBytes.size() && L.ArgBytes[I].size() == Bytes &&
        V.Kind != ArgValue::Pointer) {
      Put(L.ArgBytes[I].data(), Bytes);
      continue;
    }
    switch (V.Kind) {
    case ArgValue::Int:
      Put(&V.IntValue, 8);
      break;
    case ArgValue::Float:
      if (Bytes == 4) {
        const float F = float(V.FloatValue);
        Put(&F, 4);
      } else {
        Put(&V.FloatValue, 8);
      }
      break;
    case ArgValue::Pointer: {
      uint64_t P = 0;
      if (V.Allocation != NullPointer) {
        auto It = Bases.find(V.Allocation);
        if (It == Bases.end())
          It = Bases.emplace(V.Allocation, (Bases.size() + 1) << 36).first;
        P = It->second + V.AlignOffset;
      }
      Put(&P, 8);
      break;
    }
    default:
      break; // Unknown bytes.
    }
  }
  ExecutedKernel EK = executedKernel(*X, &(*Prog)->layout(*X));
  if (O.Annotate)
    O.Annotate(EK);
  ExecutedCounts Counts = executeLaunch(**Prog, *X, EK, Mem, C, A);
  return result(EK, Counts, K, L, A, O, Start);
}

std::string ExecutedProgram::compiledLines(const ExecOptions &O) {
  if (!O.Annotate)
    return "";
  GlobalMemory Mem;
  auto Prog = Program::link(Modules, Mem, nullptr, false);
  if (!Prog)
    return "";
  std::string Out;
  for (const ptx::Module &M : *Modules)
    for (const ptx::Function &F : M.Functions)
      if (F.Entry && F.Defined)
        if (const XFunction *X = (*Prog)->kernel(F.Name)) {
          ExecutedKernel EK = executedKernel(*X, &(*Prog)->layout(*X));
          O.Annotate(EK);
          Out += gmem::compiledLines(EK);
        }
  return Out;
}

Expected<LaunchResult> ExecutedProgram::fromRecording(const Kernel &K,
                                                      const gmem::Launch &L,
                                                      const ArchRules &A,
                                                      const ExecOptions &O) {
  const auto Start = std::chrono::steady_clock::now();
  if (!L.Executed)
    return Failure{"the recording did not run this launch"};
  const std::string Entry = entryFor(K);
  if (Entry.empty())
    return Failure{"the PTX has no kernel " + K.Name};
  GlobalMemory Mem;
  auto Prog = Program::link(Modules, Mem, nullptr, false);
  if (!Prog)
    return Failure{Prog.error()};
  const XFunction *X = (*Prog)->kernel(Entry);
  if (!X)
    return Failure{"the PTX has no kernel " + Entry};
  ExecutedKernel EK = executedKernel(*X, &(*Prog)->layout(*X));
  if (O.Annotate)
    O.Annotate(EK);
  if (L.Executed->Stats.size() != EK.K.Accesses.size() &&
      L.Executed->Out.Finished)
    return Failure{"the recording counted " +
                   std::to_string(L.Executed->Stats.size()) + " accesses of " +
                   Entry + " where its PTX has " +
                   std::to_string(EK.K.Accesses.size())};
  ExecutedCounts Counts = *L.Executed;
  Counts.Stats.resize(EK.K.Accesses.size());
  Counts.Misaligned.resize(EK.K.Accesses.size());
  return result(EK, Counts, K, L, A, O, Start);
}

LaunchResult
ExecutedProgram::result(const ExecutedKernel &EK, const ExecutedCounts &Counts,
                        const Kernel &K, const gmem::Launch &L,
                        const ArchRules &A, const ExecOptions &O,
                        std::chrono::steady_clock::time_point Start) {
  Presented P = present(EK, Counts, K, O);

  LaunchResult R;
  R.L = L;
  auto Owned = std::make_shared<Kernel>(std::move(P.K));
  R.K = Owned.get();
  R.OwnedKernel = std::move(Owned);
  R.Arch = A.Name;
  R.Path = "executed";
  R.ThreadInstructions = Counts.Out.ThreadInstructions;
  if (Counts.Out.Finished)
    R.Issue = PtxIssue{Counts.Out.Issued, Counts.Out.IssuedInLoops,
                       Counts.Out.PtxInstructions, Counts.Out.PtxInLoops,
                       Counts.Out.PtxMemoryInLoops};
  if (Counts.Priced)
    R.L1MissSectors = Counts.L1MissSectors;
  R.ExecSeconds = Counts.Seconds;
  R.PerAccess = std::move(P.Stats);
  R.LineOnly = Counts.LineOnly;
  R.Warps = L.Grid.count() * ((L.Block.count() + 31) / 32);
  R.WarpsEvaluated = R.Warps;
  R.FirstOutOfBounds.resize(R.K->Accesses.size());
  R.FirstMisaligned = std::move(P.Misaligned);
  R.ModelAccess = std::move(P.ModelAccess);
  if (Counts.Out.StrayLanes)
    R.Diagnostics.push_back(
        std::to_string(Counts.Out.StrayLanes) +
        " lane accesses fall outside every allocation the program made, or "
        "outside the shared variable they index where nvlink placed it (a GPU "
        "may fault, or read or overwrite whatever lies there): the first " +
        Counts.Out.FirstStray);
  if (Counts.Out.SharedRaces)
    R.Diagnostics.push_back(
        std::to_string(Counts.Out.SharedRaces) +
        " shared stores wrote bytes that another warp of the block had read "
        "before, unknown, with no barrier between (a race: on a GPU, timing "
        "decides whether the reader gets the stored value): the first: " +
        Counts.Out.FirstSharedRace);
  if (!Counts.Out.Finished)
    R.Incomplete = "the execution of its PTX stopped: " + Counts.Out.Error;
  computeMetrics(R);
  if (!R.Incomplete.empty())
    withdrawFigures(R);
  R.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  return R;
}

} // namespace gmem
