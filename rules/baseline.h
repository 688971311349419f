//===- baseline.h - Figures recorded for the CI gate, and their diff ------===//
//
// A baseline is JSON with the toolchain each file's counts are of and one
// entry per launch and per access:
//
//   {"gmem_baseline": 1,
//    "toolchains": {"t.cu": {"compiler": "nvcc", "version": "13.0.88",
//                            "arch": "sm_90"}},
//    "entries": {
//     "t.cu|transposeNaive#0": {"kind": "launch", "line": 60, ...,
//        "figures": {"gld_transactions_per_request": 4, ...}},
//     "t.cu|transposeNaive#0|global load in|in[_*_+_]#0": {"kind": "access",
//        "line": 40, "col": 25, "label": "...",
//        "figures": {"per_request": 4, "units": 2097152, ...}}}}
//
// Keys hold no line numbers and no local names (an access's expression is
// reduced to its shape, identifiers other than the array and CUDA's
// built-ins becoming '_'), so edits that move code or rename locals still
// match. Launches are numbered per kernel in host-code order.
//
// Counts are of the instructions a compiler emitted (or of the source when
// no compiler was used), for one architecture: a file whose toolchain
// differs from the baseline's is reported once (gmem-baseline-toolchain),
// and its figures are not compared.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_RULES_BASELINE_H
#define GMEM_RULES_BASELINE_H

#include "diagnostic.h"
#include "expected.h"
#include "result.h"
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gmem {

/// The launches of one analysed file; File is the name keys use.
struct FileResults {
  std::string File;
  const std::vector<LaunchResult> *Launches = nullptr;
  const CompilerInfo *Compiler = nullptr; ///< Whose instructions; null: none.
};

/// "in[iy * nx + ix]" with Array "in" -> "in[_*_+_]".
std::string expressionShape(const std::string &Text, const std::string &Array);

nlohmann::json buildBaseline(const std::vector<FileResults> &Files);

/// Compares Current with Old: a figure worse by more than TolerancePct
/// percent is an error (gmem-baseline-regression); better figures, new and
/// vanished entries are remarks. Entries of files not in Current are
/// ignored (a partial run does not report them vanished).
std::vector<Diagnostic> diffBaseline(const nlohmann::json &Old,
                                     const nlohmann::json &Current,
                                     double TolerancePct);

/// Success when a parsed baseline has the shape buildBaseline writes;
/// otherwise a Failure naming the first thing wrong.
Expected<void> checkBaseline(const nlohmann::json &J);

} // namespace gmem

#endif // GMEM_RULES_BASELINE_H
