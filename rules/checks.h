//===- checks.h - Which findings are reported, and how seriously ----------===//
//
// --checks, --fail-on and --warnings-as-errors take clang-tidy's glob lists:
// comma-separated globs where '*' matches any run of characters and a
// leading '-' removes; the last glob that matches a name decides.
// A "// NOLINT" or "// NOLINT(gmem-rule,...)" comment on a finding's line,
// or "// NOLINTNEXTLINE(...)" on the line before, suppresses it.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_RULES_CHECKS_H
#define GMEM_RULES_CHECKS_H

#include "diagnostic.h"
#include <map>
#include <string>
#include <vector>

namespace gmem {

class GlobList {
public:
  /// Empty globs match nothing.
  explicit GlobList(const std::string &Globs = "");
  bool contains(const std::string &Name) const;

private:
  struct Item {
    bool Positive;
    std::string Pattern;
  };
  std::vector<Item> Items;
};

bool globMatch(const std::string &Pattern, const std::string &Name);

/// Reads source files once and answers NOLINT questions.
class NolintFilter {
public:
  /// True when the finding's line (or the one before, with NOLINTNEXTLINE)
  /// carries a NOLINT comment naming its rule or none, or the line lies in
  /// a NOLINTBEGIN ... NOLINTEND block that does (clang-tidy's rules: an
  /// END closes the latest BEGIN with the same list; both lines belong to
  /// the block; a BEGIN never closed reaches the end of the file).
  bool suppressed(const Diagnostic &D);

private:
  const std::vector<std::string> &lines(const std::string &File);
  std::map<std::string, std::vector<std::string>> Files;
};

/// The rule lists of Marker's occurrences on Line ("" for a bare marker,
/// which names every rule; the text in its parentheses otherwise).
std::vector<std::string> nolintLists(const std::string &Line,
                                     const std::string &Marker);

/// Whether Comment ("... NOLINT(a,b) ...") suppresses Rule; Marker is
/// "NOLINT" or "NOLINTNEXTLINE".
bool nolintSuppresses(const std::string &Line, const std::string &Marker,
                      const std::string &Rule);

} // namespace gmem

#endif // GMEM_RULES_CHECKS_H
