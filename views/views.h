//===- views.h - Reports are views over one result ------------------------===//
//
// Each view prints the same collected data (a Report) in its own form. A new
// view is one file plus one line in the table in views.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_VIEWS_VIEWS_H
#define GMEM_VIEWS_VIEWS_H

#include "arch.h"
#include "diagnostic.h"
#include "explain.h"
#include "result.h"
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace gmem {

struct Report {
  std::string File;
  std::vector<LaunchResult> Launches;
  std::vector<std::string> Warnings; ///< What the analyzer could not model.
  CompilerInfo Compiler;             ///< Whose instructions the counts are of.
  /// Per launch, the findings of the rules where they ran (--format html
  /// draws a checked fix's picture).
  std::vector<std::vector<Diagnostic>> Findings;
  unsigned AccessLine = 0; ///< --format svg: the line whose access to draw.
  /// Kernels of the analysed files that no launch of the program reaches:
  /// named, so that none disappears without a word.
  std::vector<std::pair<std::string, SourceLoc>> NotLaunched;
};

using ViewFn = void (*)(const Report &, std::ostream &);

/// The view for a --format name ("text", "json"), or null.
ViewFn findView(const std::string &Format);
std::vector<std::string> viewNames();

void printTableView(const Report &R, std::ostream &OS);
void printJsonView(const Report &R, std::ostream &OS);
/// One self-contained page: tables, annotated source, pictures.
void printHtmlView(const Report &R, std::ostream &OS);
/// The picture of the access on line R.AccessLine alone.
void printSvgView(const Report &R, std::ostream &OS);

/// An SVG of request W of access A (svg_view.cpp): lanes, and the sectors
/// or banks they touch, with Title on top and the figures below.
std::string requestSvg(const Access &A, const WarpSample &W,
                       const ArchRules &Arch, const std::string &Title);
/// The access printSvgView draws (the first on R.AccessLine with a known
/// cost and a sample) and its launch, or null.
const Access *pictureAccess(const Report &R, const LaunchResult *&In);

/// The JSON of one launch (json_view.cpp); the comparison view reuses it.
nlohmann::json launchJson(const LaunchResult &R);

/// Whether the access's units are predicted: every request priced, and not
/// the shared side of an async copy.
inline bool costKnown(const Access &A, const AccessStats &S) {
  return !S.UnknownRequests && !asyncWavefrontsUnknown(A, S);
}

/// The one remedy every view offers for access A of launch Launch: the
/// fix a rule checked by re-simulation (fixText), or the finding's notes
/// beyond the cause ("the swap alone only moves the cost"); "" when no
/// finding has one (Report::Findings not computed, or the access is cheap).
std::string adviceFor(const Report &Rep, size_t Launch, const Access &A);

/// explainAccess's sentence followed by adviceFor's, as the text view and
/// the report's captions print an access.
std::string explainWithAdvice(const Report &Rep, size_t Launch,
                              const Access &A, const AccessStats &S);

/// Global sectors beyond the fewest that hold the bytes asked for, as
/// Nsight Compute's source view counts them ("L2 Theoretical Sectors
/// Global Excessive"), for loads (async copies' global side included) and
/// stores; Known false when an access's sectors are not known.
struct ExcessSectors {
  uint64_t Load = 0, Store = 0;       ///< Over the ideal.
  uint64_t LoadAll = 0, StoreAll = 0; ///< All sectors.
  bool Known = true;
};
ExcessSectors excessSectors(const LaunchResult &R);

/// A launch's metrics as the text view prints them (nvprof's layout and
/// units before Volta) and its excessive sectors; the report shows the
/// same block.
void printMetricBlock(const LaunchResult &R, std::ostream &OS);

/// "(x,y,z)".
std::string dimText(const Dim3 &D);
/// "load", "store" or "atomic".
const char *opWord(const Access &A);
/// S with <, >, & and " escaped, for HTML and SVG text.
std::string xmlEscaped(const std::string &S);

} // namespace gmem

#endif // GMEM_VIEWS_VIEWS_H
