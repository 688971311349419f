//===- svg_view.cpp - Pictures of one warp's request ----------------------===//
//
// One request of an access (AccessStats::Costliest), drawn as the seeds draw
// it: the 32 lanes on top; below them, for global memory, the sectors (or
// lines) the lanes' bytes fall in, a line from each lane to its first one;
// for shared memory, the 32 banks, each with one row per distinct word it
// must serve, the lanes that hit that word written in it. The figures in the
// caption are the simulator's; the drawing is worked out from the same
// addresses.
//
//===----------------------------------------------------------------------===//
#include "arch.h"
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

std::string escaped(const std::string &S) {
  std::string R;
  for (char C : S) {
    switch (C) {
    case '<':
      R += "&lt;";
      break;
    case '>':
      R += "&gt;";
      break;
    case '&':
      R += "&amp;";
      break;
    case '"':
      R += "&quot;";
      break;
    default:
      R += C;
    }
  }
  return R;
}

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
     << escaped(S) << "</text>\n";
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
            std::to_string(W.IdealUnits) +
            "): " + num(100.0 * Bytes.size() / (U * Units.size())) +
            "% of the bytes moved are used";
  text(OS, 8, Height - 18, Caption, "class=\"caption\"");
}

/// Shared: each bank's distinct words in rows; the lanes on a word share it
/// (a broadcast), a second word in the same bank waits for another pass.
void sharedPicture(std::ostream &OS, const WarpSample &W, const ArchRules &Arch,
                   int &Height, std::string &Caption) {
  const uint64_t BB = Arch.BankBytes;
  // Bank -> word -> lanes.
  std::map<uint64_t, std::map<uint64_t, std::vector<unsigned>>> Banks;
  for (uint32_t M = W.Mask; M; M &= M - 1) {
    unsigned L = __builtin_ctz(M);
    for (uint64_t Wd = W.Addr[L] / BB; Wd <= (W.Addr[L] + W.Size - 1) / BB;
         ++Wd)
      Banks[Wd % Arch.Banks][Wd].push_back(L);
  }
  size_t Rows = 1;
  for (const auto &KV : Banks)
    Rows = std::max(Rows, KV.second.size());
  text(OS, 8, LaneTop + 16, "banks");
  const int Top = LaneTop + LaneH + 8, RowH = 22;
  for (unsigned B = 0; B < Arch.Banks && B < 32; ++B) {
    OS << "<rect x=\"" << Left + B * Cell << "\" y=\"" << LaneTop
       << "\" width=\"" << Cell - 2 << "\" height=\"" << LaneH << "\" fill=\""
       << Idle << "\"/>\n";
    text(OS, Left + B * Cell + (Cell - 2) / 2, LaneTop + 16, std::to_string(B),
         "class=\"n\"");
  }
  for (size_t R = 0; R < Rows; ++R)
    text(OS, 8, Top + R * RowH + 15, "word " + std::to_string(R + 1));
  for (const auto &[Bank, Words] : Banks) {
    size_t R = 0;
    for (const auto &[Word, Lanes] : Words) {
      int X = Left + int(Bank) * Cell, Y = Top + int(R) * RowH;
      OS << "<rect class=\"word\" data-bank=\"" << Bank << "\" data-row=\"" << R
         << "\" x=\"" << X << "\" y=\"" << Y << "\" width=\"" << Cell - 2
         << "\" height=\"" << RowH - 2 << "\" fill=\"" << (R ? Bad : Good)
         << "\"><title>bank " << Bank << ", word at byte " << Word * BB
         << ": lanes " << laneList(Lanes) << "</title></rect>\n";
      text(OS, X + (Cell - 2) / 2, Y + 14,
           std::to_string(Lanes[0]) + (Lanes.size() > 1 ? "+" : ""),
           "class=\"n\" fill=\"white\"");
      ++R;
    }
  }
  Height = Top + int(Rows) * RowH + 40;
  Caption = std::to_string(W.Units) + " wavefront" + (W.Units == 1 ? "" : "s") +
            " (ideal " + std::to_string(W.IdealUnits) + "): " +
            (Rows > 1 ? std::to_string(Rows) + "-way bank conflict, the " +
                            "busiest bank serves " + std::to_string(Rows) +
                            " distinct words"
                      : "no bank conflict");
  if (W.Size > 4)
    Caption += "; " + std::to_string(W.Size) + "-byte accesses are served " +
               "in groups of " + std::to_string(Arch.groupLanes(W.Size)) +
               " lanes";
  text(OS, 8, Height - 14, Caption, "class=\"caption\"");
}

} // namespace

std::string requestSvg(const Access &A, const WarpSample &W,
                       const ArchRules &Arch, const std::string &Title) {
  std::ostringstream Body;
  int Height = 0;
  std::string Caption;
  if (A.Sp == Space::Shared)
    sharedPicture(Body, W, Arch, Height, Caption);
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
     << "<title>" << escaped(Title + ": " + Caption) << "</title>\n";
  text(OS, 8, 16, Title, "font-weight=\"bold\"");
  OS << "<g transform=\"translate(0,6)\">\n" << Body.str() << "</g>\n</svg>\n";
  return OS.str();
}

} // namespace gmem
