//===- compiled.cpp - Annotate a module with what nvcc emitted ------------===//
#include "compiled.h"
#include "matcher.h"
#include "sass.h"
#include "toolkit.h"

namespace gmem {

llvm::Expected<std::vector<std::string>>
applyCompiled(Module &M, const CompiledOptions &O) {
  std::vector<std::string> Notes;
  M.Compiler = CompilerInfo();
  M.Compiler.Arch = O.Arch;
  if (O.Compiler == "source") {
    M.Compiler.NotChecked = "--compiler source: counts are of the source's "
                            "accesses; compiler merging was not checked";
    return Notes;
  }
  const bool Required = O.Compiler == "nvcc";
  auto NotChecked =
      [&](llvm::Error E) -> llvm::Expected<std::vector<std::string>> {
    std::string Why = llvm::toString(std::move(E));
    if (Required)
      return llvm::createStringError("--compiler nvcc: " + Why);
    M.Compiler.NotChecked = Why + "; compiler merging was not checked";
    Notes.push_back(M.Compiler.NotChecked);
    return Notes;
  };
  auto T = findToolkit(O.Nvcc);
  if (!T)
    return NotChecked(T.takeError());
  M.Compiler.Version = T->Version;
  SassRequest R;
  R.File = M.File;
  R.Arch = O.Arch;
  R.Flags = nvccFlagsFromClangArgs(O.ClangArgs);
  R.KeyInputs = O.KeyInputs;
  R.CacheDir = O.CacheDir;
  auto Text = compileToSass(*T, R);
  if (!Text)
    return NotChecked(Text.takeError());
  auto Functions = parseSass(Text->Text);
  if (!Functions)
    return NotChecked(Functions.takeError());
  M.Compiler.Used = "nvcc";
  M.Compiler.FromCache = Text->FromCache;
  for (Kernel &K : M.Kernels)
    for (std::string &N : matchCompiled(K, *Functions))
      Notes.push_back(std::move(N));
  return Notes;
}

} // namespace gmem
