//===- command_line.h - gmem-analyze's options through llvm::cl -----------===//
//
// One parser for the analysis and the CI gate: "--opt value" and
// "--opt=value" alike, --help generated from the options' descriptions,
// and the gate's flags spelled as clang-tidy's.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_TOOLS_COMMAND_LINE_H
#define GMEM_TOOLS_COMMAND_LINE_H

#include "gate_options.h"
#include "options.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <functional>
#include <string>

namespace gmem {

/// Parses argv (words after "--" are Clang's) into O and G. --help prints
/// the generated help and --version calls PrintVersion; both then exit 0.
/// An error on a usage error. FilesOptional is decided from the flags:
/// with -p, no file named means every file of the database.
llvm::Error
parseCommandLine(int Argc, const char *const *Argv, Options &O, GateOptions &G,
                 std::function<void(llvm::raw_ostream &)> PrintVersion);

} // namespace gmem

#endif // GMEM_TOOLS_COMMAND_LINE_H
