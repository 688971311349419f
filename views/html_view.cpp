//===- html_view.cpp - One self-contained HTML report ---------------------===//
//
// First a summary: the costliest launches and source lines, each linked to
// its row, and every launch linked. Then for each launch: its metrics (the
// text view's block), the table of accesses (the text view's figures), the
// kernel's source with each access line annotated and coloured by cost, and
// for each access that costs more than its bytes need, a picture of its
// costliest request (svg_view.cpp) with the block, warp and request it is
// and each lane's byte offset, beside the picture after the fix a finding
// checked (CheckedFix::After). No script and no external file: the page
// opens anywhere, and a browser's print or screenshot is the report.
//
//===----------------------------------------------------------------------===//
#include "arch.h"
#include "views.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

namespace gmem {

namespace {

std::string fixed(double V, const char *F = "%.2f") {
  char B[32];
  snprintf(B, sizeof B, F, V);
  return B;
}

/// "good" as cheap as the bytes allow, "warn" up to twice that, "bad" more.
const char *costClass(const Access &A, const AccessStats &S) {
  if (!costKnown(A, S))
    return "unknown";
  if (S.Units <= S.IdealUnits)
    return "good";
  return S.Units <= 2 * S.IdealUnits ? "warn" : "bad";
}

bool costly(const Access &A, const AccessStats &S) {
  return costKnown(A, S) && S.Units > S.IdealUnits && S.Costliest;
}

/// Units beyond the fewest the bytes need (0 where not known).
uint64_t excess(const Access &A, const AccessStats &S) {
  return costKnown(A, S) && S.Units > S.IdealUnits ? S.Units - S.IdealUnits : 0;
}

std::string anchor(size_t Launch, int AccessId) {
  return "launch-" + std::to_string(Launch) + "-access-" +
         std::to_string(AccessId);
}

std::string launchTitle(const LaunchResult &R) {
  return R.K->Name + "<<<" + dimText(R.L.Grid) + ", " + dimText(R.L.Block) +
         ">>>";
}

/// The launch's worst class, for its mark in the list of launches.
const char *launchClass(const LaunchResult &R) {
  if (!R.Incomplete.empty())
    return "unknown";
  const char *Worst = "good";
  for (const Access &A : R.K->Accesses) {
    const char *C = costClass(A, R.PerAccess[A.Id]);
    if (std::string(C) == "bad")
      return "bad";
    if (std::string(C) != "good" && std::string(Worst) == "good")
      Worst = C;
  }
  return Worst;
}

/// The costliest launches and source lines (units over the ideal, sectors
/// and wavefronts apart), linked to their rows, and every launch linked.
void summary(const Report &Rep, std::ostream &OS) {
  struct Cost {
    uint64_t Sectors = 0, Wavefronts = 0;
    uint64_t total() const { return Sectors + Wavefronts; }
  };
  auto Add = [](Cost &C, const Access &A, const AccessStats &S) {
    (A.Sp == Space::Shared ? C.Wavefronts : C.Sectors) += excess(A, S);
  };
  std::vector<std::pair<Cost, size_t>> Launches;
  struct Line {
    Cost C;
    size_t Launch = 0;
    int AccessId = 0;
    std::string Where, Texts;
    unsigned InLaunches = 0;
  };
  std::map<std::pair<std::string, unsigned>, Line> Lines;
  for (size_t I = 0; I < Rep.Launches.size(); ++I) {
    const LaunchResult &R = Rep.Launches[I];
    if (!R.Incomplete.empty())
      continue;
    Cost L;
    std::map<std::pair<std::string, unsigned>, bool> Seen;
    for (const Access &A : R.K->Accesses) {
      const AccessStats &S = R.PerAccess[A.Id];
      if (!excess(A, S))
        continue;
      Add(L, A, S);
      Line &N = Lines[{A.Loc.File, A.Loc.Line}];
      if (N.Where.empty()) {
        N.Where = locText(A.Loc);
        N.Launch = I;
        N.AccessId = A.Id;
      }
      if (N.Texts.find(A.Text) == std::string::npos)
        N.Texts += (N.Texts.empty() ? "" : ", ") + A.Text;
      Add(N.C, A, S);
      if (!Seen[{A.Loc.File, A.Loc.Line}]) {
        Seen[{A.Loc.File, A.Loc.Line}] = true;
        ++N.InLaunches;
      }
    }
    if (L.total())
      Launches.push_back({L, I});
  }
  auto Costlier = [](const Cost &X, const Cost &Y) {
    return X.total() > Y.total();
  };
  std::stable_sort(
      Launches.begin(), Launches.end(),
      [&](const auto &X, const auto &Y) { return Costlier(X.first, Y.first); });
  std::vector<const Line *> Worst;
  for (const auto &KV : Lines)
    Worst.push_back(&KV.second);
  std::stable_sort(
      Worst.begin(), Worst.end(),
      [&](const Line *X, const Line *Y) { return Costlier(X->C, Y->C); });
  const size_t Top = 10;
  OS << "<nav id=\"summary\"><h2>Summary</h2>\n";
  if (Launches.empty()) {
    OS << "<p>No access costs more than its bytes need.</p>\n";
  } else {
    OS << "<p>Ordered by sectors and wavefronts over the fewest the bytes "
          "need"
       << (Launches.size() > Top ? " (the first " + std::to_string(Top) + ")"
                                 : "")
       << ".</p>\n<table class=\"costliest launches\"><tr><th>Launch</th>"
          "<th>Excess sectors</th><th>Excess wavefronts</th></tr>\n";
    for (size_t N = 0; N < std::min(Top, Launches.size()); ++N) {
      const auto &[C, I] = Launches[N];
      const LaunchResult &R = Rep.Launches[I];
      OS << "<tr class=\"" << launchClass(R) << "\"><td><a href=\"#launch-" << I
         << "\">" << xmlEscaped(launchTitle(R)) << "</a> at "
         << xmlEscaped(locText(R.L.Loc)) << "</td><td>" << C.Sectors
         << "</td><td>" << C.Wavefronts << "</td></tr>\n";
    }
    OS << "</table>\n<table class=\"costliest lines\"><tr><th>Line</th>"
          "<th>Accesses</th><th>Excess sectors</th><th>Excess wavefronts</th>"
          "<th>Launches</th></tr>\n";
    for (size_t N = 0; N < std::min(Top, Worst.size()); ++N) {
      const Line &L = *Worst[N];
      OS << "<tr><td><a href=\"#" << anchor(L.Launch, L.AccessId) << "\">"
         << xmlEscaped(L.Where) << "</a></td><td><code>" << xmlEscaped(L.Texts)
         << "</code></td><td>" << L.C.Sectors << "</td><td>" << L.C.Wavefronts
         << "</td><td>" << L.InLaunches << "</td></tr>\n";
    }
    OS << "</table>\n";
  }
  OS << "<p class=\"launches\">Launches:";
  for (size_t I = 0; I < Rep.Launches.size(); ++I)
    OS << " <a class=\"mark " << launchClass(Rep.Launches[I])
       << "\" href=\"#launch-" << I << "\">"
       << xmlEscaped(Rep.Launches[I].K->Name) << "</a>";
  OS << "</p></nav>\n";
}

/// Which request a picture is: its block, warp and threads, and which of
/// the warp's requests of that access; then each active lane's bytes, as
/// offsets from the lowest address in the request.
std::string sampleText(const LaunchResult &R, const Access &A,
                       const WarpSample &W) {
  const uint64_t Threads = std::max<uint64_t>(R.L.Block.count(), 1);
  const uint64_t PerBlock = (Threads + 31) / 32;
  const uint64_t Linear = W.Order / PerBlock, Warp = W.Order % PerBlock;
  const uint64_t GX = std::max<uint64_t>(R.L.Grid.X, 1),
                 GY = std::max<uint64_t>(R.L.Grid.Y, 1);
  std::ostringstream S;
  S << "Drawn: block (" << Linear % GX << "," << Linear / GX % GY << ","
    << Linear / (GX * GY) << "), warp " << Warp << " (threads " << Warp * 32
    << "-" << std::min<uint64_t>(Warp * 32 + 31, Threads - 1)
    << " of the block)";
  if (W.Execution)
    S << ", its request number " << W.Execution << " of this access"
      << (W.Execution == 1 ? " (its first)" : "");
  S << ": the first request in launch order with the most "
    << (A.Sp == Space::Shared ? "wavefronts." : "sectors.");
  return S.str();
}

void laneOffsets(const WarpSample &W, std::ostream &OS) {
  uint64_t Low = UINT64_MAX;
  for (uint32_t M = W.Mask; M; M &= M - 1)
    Low = std::min(Low, W.Addr[__builtin_ctz(M)]);
  OS << "<table class=\"lanes\"><caption>Bytes each lane touches, from "
        "the request's lowest address</caption>\n";
  for (unsigned Row = 0; Row < 4; ++Row) {
    OS << "<tr>";
    for (unsigned L = Row * 8; L < Row * 8 + 8; ++L) {
      OS << "<th>" << L << "</th><td>";
      if (W.Mask >> L & 1)
        OS << "+" << W.Addr[L] - Low << (W.Size > 1 ? "&hellip;+" : "")
           << (W.Size > 1 ? std::to_string(W.Addr[L] - Low + W.Size - 1) : "");
      else
        OS << "idle";
      OS << "</td>";
    }
    OS << "</tr>\n";
  }
  OS << "</table>\n";
}

/// The figures of one access, as the table view prints them.
struct Figures {
  std::string PerRequest, Efficiency, Ways, Units;
};
Figures figuresOf(const Access &A, const AccessStats &S,
                  const ArchRules &Rules) {
  if (!costKnown(A, S))
    return {"unknown", "unknown", "-", "unknown"};
  bool Shared = A.Sp == Space::Shared;
  return {fixed(S.perRequest()),
          S.Units ? fixed(S.efficiencyPct(Rules.unitBytes(A)), "%.1f") + "%"
                  : "-",
          Shared ? std::to_string(S.MaxWays) : "-", std::to_string(S.Units)};
}

/// Accesses that made no request (a value the compiler reused, a branch
/// no warp took): folded under the table, not among the rows that cost.
bool noRequest(const AccessStats &S) {
  return !S.Requests && !S.UncountedRequests && !S.UnknownRequests;
}

void accessTable(const LaunchResult &R, size_t LaunchIndex, std::ostream &OS) {
  const ArchRules &Rules = archOrDefault(R.Arch);
  // The rows of the accesses that made requests (Folded false), or of
  // those that made none.
  auto Table = [&](bool Folded) {
    OS << "<table class=\"accesses\"><tr><th>Location</th><th>Access</th>"
          "<th>Op</th><th>Space</th><th>Size</th><th>Requests</th>"
          "<th>Sectors / wavefronts</th><th>Per request</th><th>Ideal</th>"
          "<th>Efficiency</th><th>Ways</th><th>Why</th></tr>\n";
    for (const Access &A : R.K->Accesses) {
      const AccessStats &S = R.PerAccess[A.Id];
      if (noRequest(S) != Folded)
        continue;
      Figures F = figuresOf(A, S, Rules);
      OS << "<tr id=\"" << anchor(LaunchIndex, A.Id) << "\" class=\"access "
         << costClass(A, S) << "\" data-access=\"" << A.Id << "\" data-line=\""
         << A.Loc.Line << "\" data-per-request=\"" << F.PerRequest << "\"><td>"
         << xmlEscaped(locText(A.Loc)) << "</td><td><code>"
         << xmlEscaped(A.Text) << "</code></td><td>" << opWord(A) << "</td><td>"
         << (A.Sp == Space::Shared ? "shared" : "global") << "</td><td>"
         << A.Size << "</td><td>" << xmlEscaped(S.requestsText()) << "</td><td>"
         << F.Units << "</td><td>" << F.PerRequest << "</td><td>"
         << (costKnown(A, S) && S.Requests
                 ? fixed(double(S.IdealUnits) / double(S.Requests))
                 : "-")
         << "</td><td>" << F.Efficiency << "</td><td>" << F.Ways << "</td><td>"
         << xmlEscaped(explainAccess(A, S)) << "</td></tr>\n";
    }
    OS << "</table>\n";
  };
  Table(false);
  size_t None = 0;
  for (const Access &A : R.K->Accesses)
    None += noRequest(R.PerAccess[A.Id]);
  if (!None)
    return;
  OS << "<details class=\"no-requests\"><summary>" << None << " access"
     << (None == 1 ? "" : "es")
     << " with no request (a value the compiler reused, code no warp "
        "reached)</summary>\n";
  Table(true);
  OS << "</details>\n";
}

/// The source around the kernel's accesses (those in the first access's
/// file, from 3 lines above the first to 3 below the last), each access
/// line with its figures.
void annotatedSource(const LaunchResult &R, std::ostream &OS) {
  const ArchRules &Rules = archOrDefault(R.Arch);
  std::map<unsigned, std::vector<const Access *>> OnLine;
  std::string File;
  for (const Access &A : R.K->Accesses)
    if (A.Loc.Line && (File.empty() || A.Loc.File == File)) {
      File = A.Loc.File;
      OnLine[A.Loc.Line].push_back(&A);
    }
  std::ifstream In(File);
  if (OnLine.empty() || !In) {
    if (!OnLine.empty())
      OS << "<p class=\"note\">" << xmlEscaped(File)
         << " could not be read: the source is not shown.</p>\n";
    return;
  }
  const unsigned First =
      OnLine.begin()->first > 3 ? OnLine.begin()->first - 3 : 1;
  const unsigned Last = OnLine.rbegin()->first + 3;
  OS << "<table class=\"source\">\n";
  std::string Line;
  for (unsigned N = 1; std::getline(In, Line) && N <= Last; ++N) {
    if (N < First)
      continue;
    auto It = OnLine.find(N);
    OS << "<tr" << (It != OnLine.end() ? " class=\"hit\"" : "")
       << "><td class=\"ln\">" << N << "</td><td><pre>" << xmlEscaped(Line)
       << "</pre></td><td>";
    if (It != OnLine.end())
      for (const Access *A : It->second) {
        const AccessStats &S = R.PerAccess[A->Id];
        Figures F = figuresOf(*A, S, Rules);
        OS << "<span class=\"badge " << costClass(*A, S) << "\">"
           << xmlEscaped(A->Text) << ": " << opWord(*A) << ", " << F.PerRequest
           << (A->Sp == Space::Shared ? " wavefronts" : " sectors")
           << "/request, " << F.Efficiency << "</span> ";
      }
    OS << "</td></tr>\n";
  }
  OS << "</table>\n";
}

void pictures(const Report &Rep, size_t I, std::ostream &OS) {
  const LaunchResult &R = Rep.Launches[I];
  const ArchRules &Rules = archOrDefault(R.Arch);
  for (const Access &A : R.K->Accesses) {
    const AccessStats &S = R.PerAccess[A.Id];
    if (!costly(A, S))
      continue;
    OS << "<figure class=\"picture\" id=\"picture-" << I << "-" << A.Id
       << "\" data-access=\"" << A.Id << "\">\n<p class=\"sample\">"
       << xmlEscaped(sampleText(R, A, *S.Costliest)) << "</p>\n"
       << requestSvg(A, *S.Costliest, Rules,
                     locText(A.Loc) + "  " + A.Text + " (" + opWord(A) + ")");
    laneOffsets(*S.Costliest, OS);
    if (I < Rep.Findings.size())
      for (const Diagnostic &D : Rep.Findings[I])
        if (D.AccessId == A.Id && D.Fix && D.Fix->After)
          OS << "<div class=\"after\">"
             << requestSvg(A, *D.Fix->After, Rules,
                           "after the checked fix: " + D.Fix->Description)
             << "</div>\n";
    OS << "<figcaption>" << xmlEscaped(explainWithAdvice(Rep, I, A, S))
       << "</figcaption></figure>\n";
  }
}

const char *const Style =
    "body{font-family:sans-serif;margin:24px;color:#212121}"
    "h2{font-size:17px;margin-top:32px}"
    "table{border-collapse:collapse;font-size:13px;margin:8px 0}"
    "td,th{border:1px solid #ddd;padding:3px 6px;vertical-align:top}"
    "tr.good td:first-child,span.good{border-left:6px solid #43a047}"
    "tr.warn td:first-child,span.warn{border-left:6px solid #fb8c00}"
    "tr.bad td:first-child,span.bad{border-left:6px solid #e53935}"
    "tr.unknown td:first-child,span.unknown{border-left:6px solid #9e9e9e}"
    ".source td{border:none;padding:0 6px}.source pre{margin:0}"
    ".source tr.hit{background:#fff8e1}.ln{color:#9e9e9e;text-align:right}"
    ".badge{font-size:12px;padding:0 6px;margin-right:6px;background:#f5f5f5}"
    "figure{margin:16px 0;border-top:1px solid #eee;padding-top:8px}"
    "figcaption{font-size:13px;max-width:880px}"
    "nav p.launches a{margin-right:8px}"
    "a.mark{padding-left:4px}a.mark.good{border-left:6px solid #43a047}"
    "a.mark.warn{border-left:6px solid #fb8c00}"
    "a.mark.bad{border-left:6px solid #e53935}"
    "a.mark.unknown{border-left:6px solid #9e9e9e}"
    "a.top{font-size:12px;font-weight:normal;margin-left:12px}"
    "pre.metrics{font-size:12px;background:#fafafa;padding:6px;"
    "overflow-x:auto}"
    "table.lanes{font-size:11px}table.lanes "
    "caption{text-align:left}table.lanes th{color:#757575;"
    "font-weight:normal}p.sample{font-size:13px;margin:4px 0}";

} // namespace

void printHtmlView(const Report &Rep, std::ostream &OS) {
  OS << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
     << "<title>gmem: " << xmlEscaped(Rep.File) << "</title><style>" << Style
     << "</style></head><body>\n<h1>gmem: " << xmlEscaped(Rep.File)
     << "</h1>\n";
  for (const std::string &W : Rep.Warnings)
    OS << "<p class=\"note\">" << xmlEscaped(W) << "</p>\n";
  summary(Rep, OS);
  for (size_t I = 0; I < Rep.Launches.size(); ++I) {
    const LaunchResult &R = Rep.Launches[I];
    OS << "<section class=\"launch\" id=\"launch-" << I << "\"><h2>"
       << xmlEscaped(R.K->Name) << "&lt;&lt;&lt;" << dimText(R.L.Grid) << ", "
       << dimText(R.L.Block) << "&gt;&gt;&gt; at "
       << xmlEscaped(locText(R.L.Loc)) << " [" << xmlEscaped(R.Arch)
       << "]<a class=\"top\" href=\"#summary\">summary</a></h2>\n";
    if (!R.Incomplete.empty()) {
      OS << "<p class=\"note\">" << xmlEscaped(R.Incomplete)
         << "</p></section>\n";
      continue;
    }
    std::ostringstream Metrics;
    printMetricBlock(R, Metrics);
    OS << "<pre class=\"metrics\">" << xmlEscaped(Metrics.str()) << "</pre>\n";
    accessTable(R, I, OS);
    annotatedSource(R, OS);
    pictures(Rep, I, OS);
    OS << "</section>\n";
  }
  OS << "</body></html>\n";
}

} // namespace gmem
