//===- diagnostic_views.h - Findings printed through Clang ----------------===//
//
// The clang-style text view goes through Clang's own DiagnosticsEngine and
// TextDiagnosticPrinter (source line, caret, colours on a terminal); the
// SARIF view through clang::SarifDocumentWriter. Both read files into one
// clang::SourceManager to turn file:line:col into source locations.
//
//   transpose.cu:40:25: warning: uncoalesced global load from 'in': 32
//         sectors per request, ideal 4 (12.5% efficiency) in naive
//         [gmem-uncoalesced-load]
//      40 |   out[ix * ny + iy] = in[iy * nx + ix];
//         |                       ^
//   transpose.cu:40:25: note: neighbouring lanes are 16384 bytes apart...
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_VIEWS_DIAGNOSTIC_VIEWS_H
#define GMEM_VIEWS_DIAGNOSTIC_VIEWS_H

#include "diagnostic.h"
#include "llvm/Support/raw_ostream.h"
#include <vector>

namespace gmem {

/// Prints Ds clang-style to OS; Color as -f(no-)color-diagnostics; Notes
/// false (--quiet): each finding's line alone, without its notes.
void printClangDiagnostics(const std::vector<Diagnostic> &Ds,
                           llvm::raw_ostream &OS, bool Color,
                           bool Notes = true);

/// Writes Ds as a SARIF 2.1.0 log with every rule described; paths relative
/// to the current directory (uriBaseId %SRCROOT%).
/// The findings in clang-tidy's --export-fixes YAML
/// (clang::tooling::TranslationUnitDiagnostics), each checked fix that has
/// a source edit as its replacement, for clang-apply-replacements.
/// Applies the edits of Ds' checked fixes to their files, each distinct edit
/// once (several findings may carry one padding), as clang-tidy --fix does.
/// Offered: the distinct edits; Applied: those written.
llvm::Error applyFixes(const std::vector<Diagnostic> &Ds, unsigned &Applied,
                       unsigned &Offered);

void printExportFixes(const std::vector<Diagnostic> &Ds, llvm::raw_ostream &OS);

/// Errors: why the run stopped (exit 2), written as the invocation's
/// notifications with executionSuccessful false.
void printSarif(const std::vector<Diagnostic> &Ds, llvm::raw_ostream &OS,
                const std::vector<std::string> &Errors = {});

} // namespace gmem

#endif // GMEM_VIEWS_DIAGNOSTIC_VIEWS_H
