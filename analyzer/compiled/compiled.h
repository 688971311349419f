//===- compiled.h - Annotate a module with what nvcc emitted --------------===//
//
// The entry point of analyzer/compiled: finds the toolkit, compiles the
// translation unit's device code (or takes it from the cache), parses the
// SASS and matches it to every kernel's accesses (matcher.h). Records in
// Module::Compiler which instructions the counts are of.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_COMPILED_COMPILED_H
#define GMEM_ANALYZER_COMPILED_COMPILED_H

#include "model.h"
#include "toolkit.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace gmem {

struct CompiledOptions {
  /// "nvcc": must compile (an error otherwise); "source": do not; empty:
  /// nvcc when a toolkit is found.
  std::string Compiler;
  std::string Nvcc;     ///< --nvcc; empty: search.
  std::string CacheDir; ///< Empty: no cache.
  std::string Arch = "sm_90";
  std::vector<std::string> ClangArgs; ///< -I, -D... are passed to nvcc.
  std::vector<std::string> NvccFlags; ///< The build's flags for nvcc alone.
};

/// One translation unit of the program and the kernels it defines.
struct CompiledUnit {
  std::string File;
  std::vector<std::string> KeyInputs; ///< Files the translation unit read.
  std::vector<std::string> Kernels;   ///< Kernel::Name of M's kernels.
  /// The disassembly of this unit from the program's own build (--host
  /// record), read instead of compiling the unit again; none: compile.
  std::optional<SassText> Sass;
};

/// A note for the report, about one kernel (Kernel::Name) or, with Kernel
/// empty, the whole program: notes on kernels no launch reaches can then be
/// left out.
struct CompiledNote {
  std::string Kernel, Text;
};

/// Annotates the accesses of M's kernels, compiling each unit that defines
/// some. Returns notes for the report (ambiguous mappings, why merging was
/// not checked); fails only when nvcc was asked for and cannot be used.
llvm::Expected<std::vector<CompiledNote>>
applyCompiled(Module &M, const CompiledOptions &O,
              const std::vector<CompiledUnit> &Units);

} // namespace gmem

#endif // GMEM_ANALYZER_COMPILED_COMPILED_H
