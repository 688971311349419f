//===- diagnostic.h - A finding as an object ------------------------------===//
//
// Rules (rules/) produce Diagnostics; views (clang-style text, JSON, SARIF,
// HTML, baseline diff) print them. Nothing here depends on Clang: the text
// and SARIF views that use Clang's engine live in views/diagnostic_views.*.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_MODEL_DIAGNOSTIC_H
#define GMEM_MODEL_DIAGNOSTIC_H

#include "model.h"
#include "result.h"
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace gmem {

enum class Severity : uint8_t { Remark, Warning, Error };
const char *severityName(Severity S); ///< "remark", "warning", "error".

struct DiagNote {
  SourceLoc Loc; ///< Line 0: no location (printed after the finding).
  std::string Message;
};

/// Text to insert before the character at At (1-based line and column).
struct TextEdit {
  SourceLoc At;
  std::string Insert;
};

/// A remedy the tool applied to a copy of the kernel model and re-simulated.
struct CheckedFix {
  std::string Description; ///< "pad the last dimension of 'tile' by 1".
  std::string Outcome;     ///< What the re-simulation gave.
  /// The same remedy as an edit of the source, where the declaration
  /// spells it plainly (--export-fixes).
  std::optional<TextEdit> Edit;
  /// The access's costliest request once the fix is applied, for the
  /// picture of it beside the one before.
  std::optional<WarpSample> After;
};

struct Diagnostic {
  std::string Rule; ///< Stable id, e.g. "gmem-bank-conflict".
  Severity Level = Severity::Warning;
  SourceLoc Loc;
  std::string Message; ///< Without the "[rule]" suffix.
  std::vector<DiagNote> Notes;
  std::optional<CheckedFix> Fix;
  std::string Kernel; ///< Which kernel (empty for file-level findings).
  int AccessId = -1;  ///< Kernel::Accesses index, or -1.
  nlohmann::json Figures = nlohmann::json::object(); ///< For JSON and SARIF.
};

/// "fix, checked by re-simulating the changed model: DESCRIPTION
/// (OUTCOME)": the words every output gives a checked fix in.
std::string fixText(const CheckedFix &F);

/// The findings as JSON: [{"rule", "severity", "file", "line", "col",
/// "message", "notes": [...], "fix": {...}, "figures": {...}}].
nlohmann::json diagnosticsJson(const std::vector<Diagnostic> &Ds);

} // namespace gmem

#endif // GMEM_MODEL_DIAGNOSTIC_H
