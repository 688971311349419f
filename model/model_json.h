//===- model_json.h - The kernel model as JSON ----------------------------===//
//
// `gmem-analyze --emit-model` prints this form; tests round-trip it. Enums are
// written as lower-case words, types as "u32"/"i64"/"bool".
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_MODEL_MODEL_JSON_H
#define GMEM_MODEL_MODEL_JSON_H

#include "expected.h"
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

/// Reads a module and checks its invariants (model_check.h); a Failure is
/// one line naming the JSON path.
Expected<Module> fromJson(const nlohmann::json &J);

/// Reads a file written by --emit-model; a Failure is one line starting
/// with "Path:" (and the line and column where the JSON itself is broken).
Expected<Module> readModelFile(const std::string &Path);

} // namespace gmem

#endif // GMEM_MODEL_MODEL_JSON_H
