//===- svg_view.cpp - Pictures of one warp's request ----------------------===//
//
// One request of an access (AccessStats::Costliest), drawn as the seeds draw
// it: the 32 lanes on top; below them, for global memory, the sectors (or
// lines) the lanes' bytes fall in, a line from each lane to its first one;
// for shared memory, the 32 banks and, for each group of lanes served
// together, one row per distinct word a bank must serve, the lanes that hit
// that word written in it. The figures in the caption are the simulator's;
// the drawing is worked out from the same addresses. --format svg prints one
// such picture alone (printSvgView).
//
//===----------------------------------------------------------------------===//
#include "arch.h"
#include "memory_units.h"
#include "views.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace gmem {

namespace {

constexpr int Left = 92, Cell = 24, LaneTop = 34, LaneH = 24;
constexpr int Width = Left + 32 * Cell + 16;
const char *const Good = "#43a047", *const Bad = "#e53935",
                  *const Idle = "#eeeeee";

std::string num(double V) {
  char B[32];
  snprintf(B, sizeof B, "%.4g", V);
  return B;
}

std::string laneList(const std::vector<unsigned> &Lanes) {
  std::string R;
  for (unsigned L : Lanes)
    R += (R.empty() ? "" : ", ") + std::to_string(L);
  return R;
}

void text(std::ostream &OS, int X, int Y, const std::string &S,
          const char *Extra = "") {
  OS << "<text x=\"" << X << "\" y=\"" << Y << "\" " << Extra << ">"
     << xmlEscaped(S) << "</text>\n";
}

void lanesRow(std::ostream &OS, const WarpSample &W) {
  text(OS, 8, LaneTop + 16, "lanes");
  for (unsigned L = 0; L < 32; ++L) {
    bool On = W.Mask >> L & 1;
    OS << "<rect class=\"lane\" data-lane=\"" << L << "\" x=\""
       << Left + L * Cell << "\" y=\"" << LaneTop << "\" width=\"" << Cell - 2
       << "\" height=\"" << LaneH << "\" fill=\"" << (On ? "#1e88e5" : Idle)
       << "\"/>\n";
    text(OS, Left + L * Cell + (Cell - 2) / 2, LaneTop + 16, std::to_string(L),
         On ? "class=\"n\" fill=\"white\"" : "class=\"n\"");
  }
}

/// Global: the distinct units (sectors, or lines) the active lanes' bytes
/// fall in, and a line from each lane to the first of its units.
void globalPicture(std::ostream &OS, const Access &A, const WarpSample &W,
                   const ArchRules &Arch, int &Height, std::string &Caption) {
  const uint64_t U = Arch.globalBytes(A.Kind);
  std::map<uint64_t, uint64_t> Used; // Unit -> bytes of it the lanes use.
  std::set<uint64_t> Bytes;
  for (uint32_t M = W.Mask; M; M &= M - 1) {
    uint64_t Lo = W.Addr[__builtin_ctz(M)];
    for (uint64_t B = Lo; B < Lo + W.Size; ++B)
      if (Bytes.insert(B).second)
        ++Used[B / U];
  }
  std::vector<uint64_t> Units;
  for (const auto &KV : Used)
    Units.push_back(KV.first);
  const int Top = LaneTop + LaneH + 90;
  const double BoxW = std::min<double>(Cell, 32.0 * Cell / Units.size());
  auto X = [&](uint64_t Unit) {
    size_t I =
        std::lower_bound(Units.begin(), Units.end(), Unit) - Units.begin();
    return Left + I * BoxW;
  };
  for (uint32_t M = W.Mask; M; M &= M - 1) {
    unsigned L = __builtin_ctz(M);
    OS << "<line x1=\"" << Left + L * Cell + (Cell - 2) / 2 << "\" y1=\""
       << LaneTop + LaneH << "\" x2=\"" << num(X(W.Addr[L] / U) + BoxW / 2 - 1)
       << "\" y2=\"" << Top << "\" stroke=\"#90a4ae\"/>\n";
  }
  const char *Name = U == 32 ? "sectors" : "lines";
  text(OS, 8, Top + 16, Name);
  for (uint64_t Unit : Units) {
    bool Full = Used[Unit] == U;
    OS << "<rect class=\"unit\" x=\"" << num(X(Unit)) << "\" y=\"" << Top
       << "\" width=\"" << num(std::max(1.0, BoxW - 2)) << "\" height=\"24\" "
       << "fill=\"" << (Full ? Good : Bad) << "\"><title>" << Used[Unit]
       << " of its " << U << " bytes used</title></rect>\n";
  }
  Height = Top + 64;
  const uint64_t Lanes = __builtin_popcount(W.Mask);
  Caption = std::to_string(W.Units) + " " + Name + " of " + std::to_string(U) +
            " bytes for " + std::to_string(Lanes) + " lanes of " +
            std::to_string(W.Size) + " bytes (ideal " +
            std::to_string(W.IdealUnits) + "): " +
            (A.Kind == AccessKind::Atomic
                 ? std::to_string(Units.size()) +
                       " drawn, each counted once per lane on its busiest "
                       "address (atomics on one address are served one "
                       "after another)"
                 : num(100.0 * Bytes.size() / (U * Units.size())) +
                       "% of the bytes moved are used");
  text(OS, 8, Height - 18, Caption, "class=\"caption\"");
}

/// Shared: the lanes in the groups the hardware serves together (the whole
/// warp; half or quarter warps for 8- and 16-byte accesses, twice as many
/// lanes for loads in equal pairs: memory_units.h), and in each group every
/// bank's distinct words in rows (on Kepler a bank row's two words are one).
/// The lanes on one word share it (a broadcast); each row below a group's
/// first is one more wavefront for that group.
void sharedPicture(std::ostream &OS, const Access &A, const WarpSample &W,
                   const ArchRules &Arch, int &Height, std::string &Caption) {
  const unsigned Group = sharedGroupLanes(Arch, W.Addr, W.Mask, W.Size,
                                          A.Kind == AccessKind::Load);
  const unsigned WordShift = __builtin_ctz(Arch.BankBytes);
  const unsigned RowShift = __builtin_ctz(Arch.BankRowBytes) - WordShift;
  const uint64_t BankMask = Arch.Banks - 1;
  text(OS, 8, LaneTop + 16, "banks");
  for (unsigned B = 0; B < Arch.Banks && B < 32; ++B) {
    OS << "<rect x=\"" << Left + B * Cell << "\" y=\"" << LaneTop
       << "\" width=\"" << Cell - 2 << "\" height=\"" << LaneH << "\" fill=\""
       << Idle << "\"/>\n";
    text(OS, Left + B * Cell + (Cell - 2) / 2, LaneTop + 16, std::to_string(B),
         "class=\"n\"");
  }
  const int RowH = 22;
  int Y = LaneTop + LaneH + 8;
  size_t Worst = 1;
  for (unsigned First = 0; First < 32; First += Group) {
    const uint32_t Lanes =
        Group >= 32 ? W.Mask : W.Mask & (((1u << Group) - 1) << First);
    if (!Lanes)
      continue;
    // Bank -> (row and bank, as the simulator keys words) -> lanes.
    std::map<uint64_t, std::map<uint64_t, std::vector<unsigned>>> Banks;
    for (uint32_t M = Lanes; M; M &= M - 1) {
      unsigned L = __builtin_ctz(M);
      for (uint64_t Wd = W.Addr[L] >> WordShift;
           Wd <= (W.Addr[L] + W.Size - 1) >> WordShift; ++Wd) {
        std::vector<unsigned> &On =
            Banks[Wd & BankMask][(Wd >> RowShift << 32) | (Wd & BankMask)];
        if (On.empty() || On.back() != L)
          On.push_back(L);
      }
    }
    size_t Rows = 1;
    for (const auto &KV : Banks)
      Rows = std::max(Rows, KV.second.size());
    Worst = std::max(Worst, Rows);
    for (size_t R = 0; R < Rows; ++R) {
      std::string Label = "word " + std::to_string(R + 1);
      if (Group < 32)
        Label = R ? ""
                  : "lanes " + std::to_string(First) + "-" +
                        std::to_string(First + Group - 1);
      text(OS, 8, Y + int(R) * RowH + 15, Label);
    }
    for (const auto &[Bank, Words] : Banks) {
      size_t R = 0;
      for (const auto &[Key, On] : Words) {
        int X = Left + int(Bank) * Cell, CellY = Y + int(R) * RowH;
        OS << "<rect class=\"word\" data-group=\"" << First / Group
           << "\" data-bank=\"" << Bank << "\" data-row=\"" << R << "\" x=\""
           << X << "\" y=\"" << CellY << "\" width=\"" << Cell - 2
           << "\" height=\"" << RowH - 2 << "\" fill=\"" << (R ? Bad : Good)
           << "\"><title>bank " << Bank << ": lanes " << laneList(On)
           << "</title></rect>\n";
        text(OS, X + (Cell - 2) / 2, CellY + 14,
             std::to_string(On[0]) + (On.size() > 1 ? "+" : ""),
             "class=\"n\" fill=\"white\"");
        ++R;
      }
    }
    Y += int(Rows) * RowH + (Group < 32 ? 6 : 0);
  }
  Height = Y + 32;
  Caption = std::to_string(W.Units) + " wavefront" + (W.Units == 1 ? "" : "s") +
            " (ideal " + std::to_string(W.IdealUnits) + "): " +
            (Worst > 1 ? std::to_string(Worst) +
                             "-way bank conflict, the busiest bank serves " +
                             std::to_string(Worst) + " distinct words"
                       : "no bank conflict");
  if (Group < 32)
    Caption += "; the lanes are served " + std::to_string(Group) +
               " at a time (" + std::to_string(W.Size) + "-byte accesses)";
  text(OS, 8, Height - 14, Caption, "class=\"caption\"");
}

} // namespace

std::string requestSvg(const Access &A, const WarpSample &W,
                       const ArchRules &Arch, const std::string &Title) {
  std::ostringstream Body;
  int Height = 0;
  std::string Caption;
  if (A.Sp == Space::Shared)
    sharedPicture(Body, A, W, Arch, Height, Caption);
  else
    globalPicture(Body, A, W, Arch, Height, Caption);
  // Shared pictures write the lanes in the banks' cells instead.
  if (A.Sp == Space::Global)
    lanesRow(Body, W);
  std::ostringstream OS;
  OS << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"request\" "
     << "data-units=\"" << W.Units << "\" width=\"" << Width << "\" height=\""
     << Height + 22 << "\" viewBox=\"0 0 " << Width << " " << Height + 22
     << "\" font-family=\"sans-serif\" font-size=\"12\">\n"
     << "<style>.n{font-size:10px;text-anchor:middle}"
     << ".caption{font-size:13px}</style>\n"
     << "<title>" << xmlEscaped(Title + ": " + Caption) << "</title>\n";
  text(OS, 8, 16, Title, "font-weight=\"bold\"");
  OS << "<g transform=\"translate(0,6)\">\n" << Body.str() << "</g>\n</svg>\n";
  return OS.str();
}

const Access *pictureAccess(const Report &Rep, const LaunchResult *&In) {
  // The line is the analysed file's, where an access of that file is on it.
  for (bool SameFile : {true, false})
    for (const LaunchResult &R : Rep.Launches)
      for (const Access &A : R.K->Accesses) {
        const AccessStats &S = R.PerAccess[A.Id];
        if (A.Loc.Line == Rep.AccessLine &&
            (!SameFile || A.Loc.File == Rep.File) && S.Costliest &&
            costKnown(A, S)) {
          In = &R;
          return &A;
        }
      }
  return nullptr;
}

void printSvgView(const Report &Rep, std::ostream &OS) {
  const LaunchResult *R = nullptr;
  if (const Access *A = pictureAccess(Rep, R))
    OS << requestSvg(*A, *R->PerAccess[A->Id].Costliest, archOrDefault(R->Arch),
                     locText(A->Loc) + "  " + A->Text + " (" + opWord(*A) +
                         ")");
}

} // namespace gmem
