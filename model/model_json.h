//===- model_json.h - The kernel model as JSON ----------------------------===//
//
// `gmem-analyze --emit-model` prints this form; tests round-trip it. Enums are
// written as lower-case words, types as "u32"/"i64"/"bool".
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_MODEL_MODEL_JSON_H
#define GMEM_MODEL_MODEL_JSON_H

#include "model.h"
#include <nlohmann/json.hpp>
#include <string>

namespace gmem {

nlohmann::json toJson(const Module &M);
nlohmann::json toJson(const Kernel &K);
nlohmann::json toJson(const Launch &L);
nlohmann::json toJson(const CompiledForm &C);
nlohmann::json toJson(const CompilerInfo &C);
nlohmann::json toJson(const SassAccount &S);

/// Reads a module and checks its invariants (model_check.h); on failure
/// returns false with a one-line message in Error naming the JSON path.
bool fromJson(const nlohmann::json &J, Module &M, std::string &Error);

/// Reads a file written by --emit-model; errors are one line starting with
/// "Path:" (and the line and column where the JSON itself is broken).
bool readModelFile(const std::string &Path, Module &M, std::string &Error);

} // namespace gmem

#endif // GMEM_MODEL_MODEL_JSON_H
