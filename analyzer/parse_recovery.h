//===- parse_recovery.h - What a file with errors still lets us analyse ---===//
//
// When Clang's errors all lie inside kernel bodies or main(), the other
// kernels are as written and can still be analysed; an error anywhere else
// (a device function, a type, a macro) may change any of them.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_PARSE_RECOVERY_H
#define GMEM_ANALYZER_PARSE_RECOVERY_H

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
}

namespace gmem {

struct Recovery {
  std::set<std::string> BrokenKernels; ///< Kernels with an error inside.
  bool BrokenMain = false;             ///< main() has an error inside.
};

/// Nullopt when some error line is outside every kernel and main().
std::optional<Recovery> recoverFromErrors(clang::ASTContext &Ctx,
                                          const std::vector<unsigned> &Lines);

} // namespace gmem

#endif // GMEM_ANALYZER_PARSE_RECOVERY_H
