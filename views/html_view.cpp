//===- html_view.cpp - One self-contained HTML report ---------------------===//
//
// For each launch: the table of accesses (the text view's figures), the
// kernel's source with each access line annotated and coloured by cost, and
// for each access that costs more than its bytes need, a picture of its
// costliest request (svg_view.cpp), beside the picture after the fix a
// finding checked (CheckedFix::After). No script and no external file: the
// page opens anywhere, and a browser's print or screenshot is the report.
//
//===----------------------------------------------------------------------===//
#include "arch.h"
#include "views.h"

#include <cstdio>
#include <fstream>
#include <map>

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

void accessTable(const LaunchResult &R, std::ostream &OS) {
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
      OS << "<tr class=\"access " << costClass(A, S) << "\" data-access=\""
         << A.Id << "\" data-line=\"" << A.Loc.Line << "\" data-per-request=\""
         << F.PerRequest << "\"><td>" << xmlEscaped(locText(A.Loc))
         << "</td><td><code>" << xmlEscaped(A.Text) << "</code></td><td>"
         << opWord(A) << "</td><td>"
         << (A.Sp == Space::Shared ? "shared" : "global") << "</td><td>"
         << A.Size << "</td><td>"
         << (S.UncountedRequests ? "unknown" : std::to_string(S.Requests))
         << "</td><td>" << F.Units << "</td><td>" << F.PerRequest
         << "</td><td>"
         << (costKnown(A, S) && S.Requests
                 ? fixed(double(S.IdealUnits) / double(S.Requests))
                 : "-")
         << "</td><td>" << F.Efficiency << "</td><td>" << F.Ways
         << "</td><td>" << xmlEscaped(explainAccess(A, S)) << "</td></tr>\n";
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
    OS << "<figure class=\"picture\" data-access=\"" << A.Id << "\">\n"
       << requestSvg(A, *S.Costliest, Rules,
                     locText(A.Loc) + "  " + A.Text + " (" + opWord(A) + ")");
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
    "figcaption{font-size:13px;max-width:880px}";

} // namespace

void printHtmlView(const Report &Rep, std::ostream &OS) {
  OS << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
     << "<title>gmem: " << xmlEscaped(Rep.File) << "</title><style>" << Style
     << "</style></head><body>\n<h1>gmem: " << xmlEscaped(Rep.File)
     << "</h1>\n";
  for (const std::string &W : Rep.Warnings)
    OS << "<p class=\"note\">" << xmlEscaped(W) << "</p>\n";
  for (size_t I = 0; I < Rep.Launches.size(); ++I) {
    const LaunchResult &R = Rep.Launches[I];
    OS << "<section class=\"launch\" id=\"launch-" << I << "\"><h2>"
       << xmlEscaped(R.K->Name) << "&lt;&lt;&lt;" << dimText(R.L.Grid) << ", "
       << dimText(R.L.Block) << "&gt;&gt;&gt; at "
       << xmlEscaped(locText(R.L.Loc)) << " [" << xmlEscaped(R.Arch)
       << "]</h2>\n";
    if (!R.Incomplete.empty()) {
      OS << "<p class=\"note\">" << xmlEscaped(R.Incomplete)
         << "</p></section>\n";
      continue;
    }
    accessTable(R, OS);
    annotatedSource(R, OS);
    pictures(Rep, I, OS);
    OS << "</section>\n";
  }
  OS << "</body></html>\n";
}

} // namespace gmem
