//===- sass.cpp - Memory instructions of nvdisasm -g/-gi output -----------===//
#include "sass.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <algorithm>
#include <map>

namespace gmem {

unsigned SassFunction::loopDepth(uint64_t Offset) const {
  unsigned N = 0;
  for (const auto &[First, Last] : Loops)
    N += Offset >= First && Offset <= Last;
  return N;
}

namespace {

struct OpcodeClass {
  const char *Base;
  SassSpace Space;
  SassKind Kind;
  bool Matrix = false;
};

// Every opcode that moves data between registers and memory (sm_50 to
// sm_120). Constant loads (LDC, ULDC) are left out on purpose.
const OpcodeClass Opcodes[] = {
    {"LDG", SassSpace::Global, SassKind::Load},
    {"STG", SassSpace::Global, SassKind::Store},
    {"ATOMG", SassSpace::Global, SassKind::Atomic},
    {"REDG", SassSpace::Global, SassKind::Reduction},
    {"LD", SassSpace::Generic, SassKind::Load},
    {"ST", SassSpace::Generic, SassKind::Store},
    {"ATOM", SassSpace::Generic, SassKind::Atomic},
    {"RED", SassSpace::Generic, SassKind::Reduction},
    {"LDS", SassSpace::Shared, SassKind::Load},
    {"STS", SassSpace::Shared, SassKind::Store},
    {"ATOMS", SassSpace::Shared, SassKind::Atomic},
    {"REDAS", SassSpace::Shared, SassKind::Reduction},
    {"LDSM", SassSpace::Shared, SassKind::Load, true},
    {"STSM", SassSpace::Shared, SassKind::Store, true},
    {"LDL", SassSpace::Local, SassKind::Load},
    {"STL", SassSpace::Local, SassKind::Store},
    {"LDGSTS", SassSpace::Async, SassKind::Load},
    {"TEX", SassSpace::Texture, SassKind::Load},
    {"TLD", SassSpace::Texture, SassKind::Load},
    {"TLD4", SassSpace::Texture, SassKind::Load},
    {"TXD", SassSpace::Texture, SassKind::Load},
    {"SULD", SassSpace::Texture, SassKind::Load},
    {"SUST", SassSpace::Texture, SassKind::Store},
    {"SUATOM", SassSpace::Texture, SassKind::Atomic},
    {"SURED", SassSpace::Texture, SassKind::Reduction},
    {"UBLKCP", SassSpace::Bulk, SassKind::Load},
    {"UBLKPF", SassSpace::Bulk, SassKind::Load},
    {"UBLKRED", SassSpace::Bulk, SassKind::Reduction},
    {"UTMALDG", SassSpace::Bulk, SassKind::Load},
    {"UTMAPF", SassSpace::Bulk, SassKind::Load},
    {"UTMASTG", SassSpace::Bulk, SassKind::Store},
    {"UTMAREDG", SassSpace::Bulk, SassKind::Reduction},
};

/// Bytes per lane a modifier says ("64", "U8", "F32x4"), or 0.
unsigned widthOf(llvm::StringRef P) {
  if (P == "64" || P == "F64" || P == "S64" || P == "U64")
    return 8;
  if (P == "128")
    return 16;
  if (P == "U8" || P == "S8")
    return 1;
  if (P == "U16" || P == "S16")
    return 2;
  // Packed and vector atomics: F16x2, BF16x2, F32x2, F32x4.
  size_t X = P.find('x');
  if (X == llvm::StringRef::npos)
    return 0;
  llvm::StringRef Elem = P.take_front(X).drop_while(
      [](char C) { return C == 'F' || C == 'B' || C == 'S' || C == 'U'; });
  unsigned Bits = 0, N = 0;
  if (Elem.getAsInteger(10, Bits) || P.drop_front(X + 1).getAsInteger(10, N))
    return 0;
  return Bits / 8 * N;
}

} // namespace

bool classifyMemoryOpcode(llvm::StringRef Opcode, SassSpace &Space,
                          SassKind &Kind, unsigned &Width) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Opcode.split(Parts, '.');
  const OpcodeClass *C = nullptr;
  for (const OpcodeClass &X : Opcodes)
    if (Parts[0] == X.Base)
      C = &X;
  if (!C)
    return false;
  Space = C->Space;
  Kind = C->Kind;
  Width = 4;
  for (llvm::StringRef P : llvm::ArrayRef(Parts).drop_front())
    if (unsigned W = widthOf(P))
      Width = W;
  if (C->Matrix) // LDSM.16.M88.4: four 8x8 tiles, 16 bytes per lane.
    Width = Parts.back() == "4" ? 16 : Parts.back() == "2" ? 8 : 4;
  return true;
}

std::optional<bool> atomicsAllReductions(const SassFunction &F, bool Shared) {
  unsigned Red = 0, Atom = 0;
  for (const SassInstr &I : F.Memory) {
    const bool Global =
        I.Space == SassSpace::Global || I.Space == SassSpace::Generic;
    if (I.Matrix || !(Shared ? I.Space == SassSpace::Shared : Global))
      continue;
    Red += I.Kind == SassKind::Reduction;
    Atom += I.Kind == SassKind::Atomic;
  }
  if (!Red == !Atom)
    return std::nullopt;
  return Red != 0;
}

bool entersLsuFigures(SassSpace S) {
  return S == SassSpace::Global || S == SassSpace::Generic ||
         S == SassSpace::Shared || S == SassSpace::Async;
}

std::string describe(SassSpace S, SassKind K) {
  static const char *const Spaces[] = {"global",   "shared",     "global",
                                       "local",    "async copy", "texture",
                                       "bulk copy"};
  static const char *const Kinds[] = {"load", "store", "atomic", "reduction"};
  if (S == SassSpace::Async)
    return "async copy (global to shared)";
  return std::string(Spaces[int(S)]) + " " + Kinds[int(K)];
}

namespace {

/// `"path", line N` at the start of S; S keeps what follows.
bool parseQuotedLine(llvm::StringRef &S, SassLoc &L) {
  S = S.ltrim();
  if (!S.consume_front("\""))
    return false;
  size_t Q = S.find('"');
  if (Q == llvm::StringRef::npos)
    return false;
  L.File = S.substr(0, Q).str();
  S = S.substr(Q + 1).ltrim();
  if (!S.consume_front(", line"))
    return false;
  S = S.ltrim();
  return !S.consumeInteger(10, L.Line);
}

/// One `File "..", line N [inlined at "..", line M]` comment's locations,
/// innermost first.
std::vector<SassLoc> parseLocLine(llvm::StringRef S) {
  std::vector<SassLoc> Out;
  SassLoc L;
  S = S.ltrim();
  if (!S.consume_front("File") || !parseQuotedLine(S, L))
    return Out;
  Out.push_back(L);
  S = S.ltrim();
  SassLoc Site;
  if (S.consume_front("inlined at") && parseQuotedLine(S, Site))
    Out.push_back(Site);
  return Out;
}

/// The address operand of a memory instruction: the last bracket that names
/// a register (`desc[UR4][R2.64+0x10]`, `[R0+-0x4]`, `[R1+UR4]`).
void parseAddress(llvm::StringRef Operands, std::string &Base,
                  int64_t &Offset) {
  size_t Close = Operands.rfind(']');
  while (Close != llvm::StringRef::npos) {
    size_t Open = Operands.rfind('[', Close);
    if (Open == llvm::StringRef::npos)
      return;
    llvm::StringRef In = Operands.slice(Open + 1, Close).trim();
    if (In.starts_with("R") || In.starts_with("UR")) {
      size_t Plus = In.rfind("+0x");
      size_t Minus = In.rfind("+-0x");
      int64_t Sign = 1;
      llvm::StringRef Imm;
      if (Minus != llvm::StringRef::npos) {
        Sign = -1;
        Imm = In.drop_front(Minus + 4);
        In = In.take_front(Minus);
      } else if (Plus != llvm::StringRef::npos) {
        Imm = In.drop_front(Plus + 3);
        In = In.take_front(Plus);
      }
      uint64_t V = 0;
      if (!Imm.empty() && Imm.getAsInteger(16, V))
        return;
      Base = In.str();
      Offset = Sign * int64_t(V);
      return;
    }
    Close = Open ? Operands.rfind(']', Open - 1) : llvm::StringRef::npos;
  }
}

/// The registers an instruction's operand list starts with (its
/// destinations come first in SASS).
llvm::StringRef firstOperand(llvm::StringRef Operands) {
  return Operands.take_until([](char C) { return C == ','; }).trim();
}

/// Recognises nvcc's warp-aggregated atomics: a predicate that is true on
/// one lane, `ISETP.EQ.U32.AND Pn, PT, Rflo, Rlane` where Rflo is the FLO
/// of a vote and Rlane is SR_LANEID.
class LeaderTracker {
public:
  void see(llvm::StringRef Opcode, llvm::StringRef Operands) {
    llvm::StringRef Dst = firstOperand(Operands);
    llvm::SmallVector<llvm::StringRef, 6> Ops;
    Operands.split(Ops, ',');
    for (llvm::StringRef &O : Ops)
      O = O.trim();
    if ((Opcode.starts_with("FLO.U32") || Opcode.starts_with("UFLO.U32")) &&
        !Opcode.contains(".SH")) {
      Kind[Dst] = 'f';
      return;
    }
    if (Opcode == "S2R" && Ops.size() == 2 && Ops[1] == "SR_LANEID") {
      Kind[Dst] = 'l';
      return;
    }
    if (Opcode.starts_with("ISETP.EQ.U32") && Ops.size() >= 4 &&
        Ops[1] == "PT") {
      char A = kindOf(Ops[2]), B = kindOf(Ops[3]);
      if ((A == 'f' && B == 'l') || (A == 'l' && B == 'f')) {
        Leader.insert(Ops[0]);
        return;
      }
    }
    // Anything else that writes a register or predicate forgets it. The
    // predicates right after the first destination are destinations too
    // (a compare's second result, an add's carries, a vote's predicate);
    // a compare's sources start at its third operand.
    Kind.erase(Dst);
    Leader.erase(Dst);
    const bool Compare = Opcode.contains("SETP") || Opcode.starts_with("PLOP3");
    const size_t Last = Compare || Opcode.starts_with("VOTE") ? 2 : 3;
    for (size_t I = 1; I < Last && I < Ops.size() && isPredicate(Ops[I]); ++I)
      Leader.erase(Ops[I]);
  }
  bool isLeader(llvm::StringRef Pred) const { return Leader.count(Pred); }
  void clear() {
    Kind.clear();
    Leader.clear();
  }

private:
  static bool isPredicate(llvm::StringRef R) {
    return R.size() == 2 && R[0] == 'P' && (llvm::isDigit(R[1]) || R[1] == 'T');
  }
  char kindOf(llvm::StringRef R) const {
    auto It = Kind.find(R);
    return It == Kind.end() ? 0 : It->second;
  }
  llvm::StringMap<char> Kind;
  llvm::StringSet<> Leader;
};

struct PendingFunction {
  SassFunction F;
  llvm::StringMap<uint64_t> Labels;
  std::vector<std::pair<uint64_t, std::string>> Branches;
  /// Per instruction of Memory: the subroutine it is in ("" for the body).
  std::vector<std::string> SubOf;
  /// Calls: (caller subroutine, callee subroutine), and the call's line.
  std::vector<std::pair<std::string, std::string>> Calls;
  std::vector<unsigned> CallLine;
  /// The offsets of the instructions SassFunction::Instructions counts.
  std::vector<uint64_t> Counted;
};

void finish(PendingFunction &P, std::vector<SassFunction> &Out) {
  if (P.F.Name.empty())
    return;
  for (const auto &[At, Label] : P.Branches) {
    auto It = P.Labels.find(Label);
    // Every function ends in a branch to itself (padding after EXIT): not
    // a loop of the program.
    if (It != P.Labels.end() && It->second < At)
      P.F.Loops.push_back({It->second, At});
    if (It != P.Labels.end() && It->second == At)
      P.Counted.erase(std::remove(P.Counted.begin(), P.Counted.end(), At),
                      P.Counted.end()); // That branch never runs.
  }
  P.F.Instructions = unsigned(P.Counted.size());
  for (uint64_t At : P.Counted)
    P.F.LoopInstructions += P.F.loopDepth(At) > 0;
  // Runs per pass of each subroutine: its call sites, each weighted by the
  // runs of the code it is called from (nested calls; recursion, which
  // would never settle, is cut at a depth of 16).
  std::map<std::string, unsigned> Runs = {{"", 1}};
  for (int Round = 0; Round < 16; ++Round) {
    std::map<std::string, unsigned> Next = {{"", 1}};
    for (const auto &[From, To] : P.Calls) {
      auto It = Runs.find(From);
      if (It != Runs.end())
        Next[To] += It->second;
    }
    if (Next == Runs)
      break;
    Runs = std::move(Next);
  }
  for (size_t I = 0; I < P.F.Memory.size(); ++I) {
    auto It = Runs.find(P.SubOf[I]);
    P.F.Memory[I].Copies = It == Runs.end() ? 0 : It->second;
    P.F.Memory[I].InSubroutine = !P.SubOf[I].empty();
    for (size_t C = 0; C < P.Calls.size(); ++C)
      if (P.Calls[C].second == P.SubOf[I] && P.CallLine[C])
        P.F.Memory[I].CallLines.push_back(P.CallLine[C]);
  }
  Out.push_back(std::move(P.F));
}

} // namespace

llvm::Expected<std::vector<SassFunction>> parseSass(llvm::StringRef Text) {
  std::vector<SassFunction> Out;
  PendingFunction Cur;
  std::vector<SassLoc> Where;
  bool LocOpen = false; // The previous line was a location comment.
  std::vector<std::string> OpenLabels;
  std::string Sub; // The subroutine being read ("" for the body).
  LeaderTracker Leaders;
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Raw : Lines) {
    llvm::StringRef S = Raw.trim();
    // ".section .text.NAME": a function; any other section (.sectioninfo
    // included, which nvdisasm prints for sm_75 to sm_89) is not a header.
    if (S.starts_with(".section") &&
        (S.size() == 8 || S[8] == ' ' || S[8] == '\t')) {
      S = S.drop_front(8).ltrim();
      if (S.consume_front(".text.")) {
        finish(Cur, Out);
        Cur = PendingFunction();
        Cur.F.Name = S.take_until([](char C) { return C == ','; }).str();
        Where.clear();
        Sub.clear();
        Leaders.clear();
      } else if (!Cur.F.Name.empty()) {
        finish(Cur, Out);
        Cur = PendingFunction();
      }
      continue;
    }
    if (Cur.F.Name.empty())
      continue;
    if (S.consume_front("//##")) {
      std::vector<SassLoc> Ls = parseLocLine(S);
      if (!LocOpen)
        Where.clear();
      LocOpen = true;
      // Each line adds its location unless the chain already ends with it.
      for (const SassLoc &L : Ls)
        if (Where.empty() || Where.back().File != L.File ||
            Where.back().Line != L.Line)
          Where.push_back(L);
      continue;
    }
    if (S.starts_with(".L_") && S.ends_with(":")) {
      OpenLabels.push_back(S.drop_back().str());
      continue;
    }
    // A subroutine: "$<kernel>$<callee>:".
    if (S.starts_with("$") && S.ends_with(":")) {
      Sub = S.drop_back().str();
      Leaders.clear();
      continue;
    }
    // An instruction: /*0120*/  [@P0 ]OPCODE operands ;
    if (!S.consume_front("/*"))
      continue;
    uint64_t Offset = 0;
    if (S.consumeInteger(16, Offset) || !S.consume_front("*/"))
      continue;
    LocOpen = false;
    for (const std::string &L : OpenLabels)
      Cur.Labels[L] = Offset;
    OpenLabels.clear();
    S = S.ltrim();
    S.consume_front("{");
    S = S.ltrim();
    llvm::StringRef Guard;
    if (S.starts_with("@")) {
      Guard = S.drop_front().take_until([](char C) { return C == ' '; });
      S = S.drop_until([](char C) { return C == ' '; }).ltrim();
    }
    // @!PT never runs (nvcc pads with such loads); @PT always does.
    if (Guard == "!PT" || Guard == "!UPT")
      continue;
    const bool Pred = !Guard.empty() && Guard != "PT" && Guard != "UPT";
    llvm::StringRef Opcode = S.take_until([](char C) { return C == ' '; });
    if (Opcode.rtrim(';') != "NOP")
      Cur.Counted.push_back(Offset);
    if (Opcode.starts_with("BAR.") || Opcode.starts_with("MEMBAR"))
      Cur.F.Barriers.push_back(Offset);
    if (Opcode.rtrim(';') == "EXIT")
      Cur.F.Exits.push_back({Offset, Pred});
    // sm_50 to sm_61 group dual-issued pairs in braces: `{ A ; B }`.
    llvm::StringRef Operands = S.drop_front(Opcode.size())
                                   .trim()
                                   .rtrim('}')
                                   .rtrim()
                                   .rtrim(';')
                                   .rtrim();
    if (Opcode == "BRA" || Opcode.starts_with("BRA.")) {
      size_t L = Operands.find(".L_");
      if (L != llvm::StringRef::npos)
        Cur.Branches.push_back(
            {Offset, Operands.substr(L)
                         .take_until([](char C) { return C == ')'; })
                         .str()});
      continue;
    }
    if (Opcode.starts_with("CALL.REL")) {
      size_t L = Operands.find("($");
      if (L != llvm::StringRef::npos) {
        Cur.Calls.push_back(
            {Sub, Operands.substr(L + 1)
                      .take_until([](char C) { return C == ')'; })
                      .str()});
        // The call's own line: the innermost frame (a call in an inlined
        // function is at that function's line).
        Cur.CallLine.push_back(Where.empty() ? 0 : Where.front().Line);
      }
      LocOpen = false;
      continue;
    }
    SassInstr I;
    if (!classifyMemoryOpcode(Opcode, I.Space, I.Kind, I.Width)) {
      Leaders.see(Opcode, Operands);
      continue;
    }
    I.Offset = Offset;
    I.Opcode = Opcode.str();
    I.Operands = Operands.str();
    I.Predicated = Pred;
    I.Matrix = Opcode.starts_with("LDSM") || Opcode.starts_with("STSM");
    I.OneLane = Pred &&
                (I.Kind == SassKind::Atomic || I.Kind == SassKind::Reduction) &&
                Leaders.isLeader(Guard);
    I.Where = Where;
    parseAddress(Operands, I.AddrBase, I.AddrOffset);
    Cur.F.Memory.push_back(std::move(I));
    Cur.SubOf.push_back(Sub);
    // An atomic's first operand may be a predicate or a destination
    // register: either way it is no longer what the tracker knew.
    Leaders.see(Opcode, Operands);
  }
  finish(Cur, Out);
  if (Out.empty())
    return llvm::createStringError(
        "no function found in the disassembly (expected nvdisasm output with "
        "'.section .text.<name>' headers)");
  return Out;
}

std::vector<unsigned> splitParts(const std::vector<const SassInstr *> &Is,
                                 unsigned Size, bool SameBase) {
  std::vector<unsigned> Parts;
  if (Is.empty() || Is[0]->AddrBase.empty() || !Size)
    return {};
  const unsigned W = Is[0]->Width;
  // The base register may hold the array's address and the offset the
  // element's (`v[i + 1]`: [R2.64+0x10] and [R2.64+0x1c]): the object
  // starts at the lowest offset's multiple of Size.
  int64_t Lo = Is[0]->AddrOffset;
  for (const SassInstr *I : Is)
    Lo = std::min(Lo, I->AddrOffset);
  if (Lo < 0)
    return {};
  const int64_t Object = Lo - Lo % int64_t(Size);
  for (const SassInstr *I : Is) {
    const int64_t Off = I->AddrOffset - Object;
    if (I->Width != W || W >= Size ||
        (SameBase && I->AddrBase != Is[0]->AddrBase) ||
        Off % W || uint64_t(Off) + W > Size || I->Copies != 1)
      return {};
    Parts.push_back(unsigned(Off));
  }
  std::sort(Parts.begin(), Parts.end());
  if (std::adjacent_find(Parts.begin(), Parts.end()) != Parts.end())
    return {};
  return Parts;
}

} // namespace gmem
