//===- sass.cpp - Memory instructions of nvdisasm -g/-gi output -----------===//
#include "sass.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

namespace gmem {

unsigned SassFunction::loopDepth(uint64_t Offset) const {
  unsigned N = 0;
  for (const auto &[First, Last] : Loops)
    N += Offset >= First && Offset <= Last;
  return N;
}

bool classifyMemoryOpcode(llvm::StringRef Opcode, SassSpace &Space,
                          SassKind &Kind, unsigned &Width) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Opcode.split(Parts, '.');
  llvm::StringRef Base = Parts[0];
  if (Base == "LDG" || Base == "LDS" || Base == "LD") {
    Kind = SassKind::Load;
  } else if (Base == "STG" || Base == "STS" || Base == "ST") {
    Kind = SassKind::Store;
  } else if (Base == "ATOMG" || Base == "ATOMS" || Base == "ATOM" ||
             Base == "RED") {
    Kind = SassKind::Atomic;
  } else {
    // LDC (constant), LDL/STL (local), LDSM, LDGSTS, TMA: not modelled.
    return false;
  }
  if (Base == "LDS" || Base == "STS" || Base == "ATOMS")
    Space = SassSpace::Shared;
  else if (Base == "LD" || Base == "ST" || Base == "ATOM")
    Space = SassSpace::Generic;
  else
    Space = SassSpace::Global;
  Width = 4;
  for (llvm::StringRef P : llvm::ArrayRef(Parts).drop_front()) {
    if (P == "64" || P == "F64" || P == "S64" || P == "U64")
      Width = 8;
    else if (P == "128")
      Width = 16;
    else if (P == "U8" || P == "S8")
      Width = 1;
    else if (P == "U16" || P == "S16")
      Width = 2;
  }
  return true;
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

struct PendingFunction {
  SassFunction F;
  llvm::StringMap<uint64_t> Labels;
  std::vector<std::pair<uint64_t, std::string>> Branches;
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
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef Raw : Lines) {
    llvm::StringRef S = Raw.trim();
    if (S.consume_front(".section")) {
      S = S.ltrim();
      if (S.consume_front(".text.")) {
        finish(Cur, Out);
        Cur = PendingFunction();
        Cur.F.Name = S.take_until([](char C) { return C == ','; }).str();
        Where.clear();
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
    bool Pred = false;
    if (S.starts_with("@")) {
      Pred = true;
      S = S.drop_until([](char C) { return C == ' '; }).ltrim();
    }
    llvm::StringRef Opcode = S.take_until([](char C) { return C == ' '; });
    llvm::StringRef Operands =
        S.drop_front(Opcode.size()).trim().rtrim(';').rtrim();
    if (Opcode == "BRA" || Opcode.starts_with("BRA.")) {
      size_t L = Operands.find(".L_");
      if (L != llvm::StringRef::npos)
        Cur.Branches.push_back(
            {Offset, Operands.substr(L)
                         .take_until([](char C) { return C == ')'; })
                         .str()});
      continue;
    }
    SassInstr I;
    if (!classifyMemoryOpcode(Opcode, I.Space, I.Kind, I.Width))
      continue;
    I.Offset = Offset;
    I.Opcode = Opcode.str();
    I.Operands = Operands.str();
    I.Predicated = Pred;
    I.Where = Where;
    Cur.F.Memory.push_back(std::move(I));
  }
  finish(Cur, Out);
  if (Out.empty())
    return llvm::createStringError(
        "no function found in the disassembly (expected nvdisasm output with "
        "'.section .text.<name>' headers)");
  return Out;
}

} // namespace gmem
