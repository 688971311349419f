//===- compile_db.h - A file's arguments from compile_commands.json -------===//
//
// -p BUILD_DIR is read with Clang's JSONCompilationDatabase, as Clang tools
// do. A CUDA project's entries are nvcc command lines: the flags that say
// what the code means (-I, -isystem, -D, -U, -include, -std=, and nvcc's
// --options-file response files CMake writes) are kept, made absolute
// against the entry's directory; nvcc's code-generation and host-compiler
// flags (-gencode, -arch, -code, -Xcompiler, -rdc, -dc, -x cu,
// --use_fast_math, --expt-relaxed-constexpr, -ccbin, -M*, -o, -c, ...) are
// dropped: gmem parses with Clang for --arch and simulates --arch.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_COMPILE_DB_H
#define GMEM_ANALYZER_COMPILE_DB_H

#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace gmem {

/// The Clang arguments for one nvcc (or clang) command line of the database;
/// Directory is the entry's "directory".
std::vector<std::string>
translateNvccCommand(const std::vector<std::string> &CommandLine,
                     const std::string &Directory);

/// File's Clang arguments from BuildDir/compile_commands.json; an error
/// (saying what to do) when the database cannot be read or has no entry
/// for File.
llvm::Expected<std::vector<std::string>>
argumentsFromDatabase(const std::string &BuildDir, const std::string &File);

/// Every CUDA file (.cu) BuildDir/compile_commands.json compiles, sorted:
/// what `-p BUILD_DIR` with no file name analyses, as clang-tidy does.
/// An error when the database cannot be read or holds none.
llvm::Expected<std::vector<std::string>>
cudaFilesOfDatabase(const std::string &BuildDir);

} // namespace gmem

#endif // GMEM_ANALYZER_COMPILE_DB_H
