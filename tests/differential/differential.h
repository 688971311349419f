//===- differential.h - The model's report against the executed PTX's -----===//
//
// Shared by the differential tests: gmem-analyze's JSON report of a program
// priced by the kernel model or executed, and the check that both give the
// same figures.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_TESTS_DIFFERENTIAL_DIFFERENTIAL_H
#define GMEM_TESTS_DIFFERENTIAL_DIFFERENTIAL_H

#include <nlohmann/json.hpp>

#include <string>

namespace gmem::test {

/// What the shell command Cmd prints on its standard output.
std::string commandOutput(const std::string &Cmd);

/// gmem-analyze's JSON report of File, run from Dir, with --path Path
/// (model or executed) and --exec-budget ExecSeconds (0: record without
/// running the kernels); a discarded value when the tool printed no JSON.
nlohmann::json analyzeAs(const std::string &Dir, const std::string &File,
                         const std::string &Path, unsigned ExecSeconds = 900);

/// Whether the model said of a launch (its JSON) that it could not tell
/// what some source access compiled to (the SASS's instructions do not say
/// which executions they stand for): its figures are counted as written,
/// and gmem-analyze executes such launches instead.
bool modelUnsure(const nlohmann::json &Launch);

/// Fails the current test where Run (--path executed) does not give, launch
/// by launch, every figure Model (--path model) gives, except in launches
/// the model is unsure of. Launches the executor stopped are accepted only
/// when an instruction it does not implement stopped them. Returns the
/// number of launches compared.
unsigned expectSameFigures(const nlohmann::json &Model,
                           const nlohmann::json &Run);

} // namespace gmem::test

#endif
