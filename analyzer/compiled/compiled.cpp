//===- compiled.cpp - Annotate a module with what nvcc emitted ------------===//
#include "compiled.h"
#include "matcher.h"
#include "sass.h"
#include "toolkit.h"

#include <algorithm>

namespace gmem {

llvm::Expected<std::vector<CompiledNote>>
applyCompiled(Module &M, const CompiledOptions &O,
              const std::vector<CompiledUnit> &Units) {
  std::vector<CompiledNote> Notes;
  M.Compiler = CompilerInfo();
  M.Compiler.Arch = O.Arch;
  if (O.Compiler == "source") {
    M.Compiler.NotChecked = "--compiler source: counts are of the source's "
                            "accesses; compiler merging was not checked";
    return Notes;
  }
  const bool Required = O.Compiler == "nvcc";
  // Why one unit (or all, File empty) could not be read; its kernels keep
  // the source's accesses.
  std::vector<std::string> Failed;
  auto NotChecked = [&](const std::string &File, llvm::Error E) -> llvm::Error {
    std::string Why = llvm::toString(std::move(E));
    if (Required)
      return llvm::createStringError("--compiler nvcc: " + Why);
    Failed.push_back(Units.size() > 1 && !File.empty() ? File + ": " + Why
                                                       : Why);
    return llvm::Error::success();
  };
  auto Finish = [&]() {
    if (!Failed.empty()) {
      std::string Why;
      for (const std::string &F : Failed)
        Why += (Why.empty() ? "" : "; ") + F;
      M.Compiler.NotChecked = Why + "; compiler merging was not checked";
      Notes.push_back({"", M.Compiler.NotChecked});
    }
    return Notes;
  };
  auto T = findToolkit(O.Nvcc);
  if (!T) {
    if (auto E = NotChecked("", T.takeError()))
      return std::move(E);
    return Finish();
  }
  M.Compiler.Version = T->Version;
  bool AllFromCache = true, AnyRead = false;
  for (const CompiledUnit &U : Units) {
    if (U.Kernels.empty())
      continue; // Host code only: nothing to count.
    SassRequest R;
    R.File = U.File;
    R.Arch = O.Arch;
    R.Flags = nvccFlagsFromClangArgs(O.ClangArgs);
    R.Flags.insert(R.Flags.end(), O.NvccFlags.begin(), O.NvccFlags.end());
    R.KeyInputs = U.KeyInputs;
    R.CacheDir = O.CacheDir;
    auto Text =
        U.Sass ? llvm::Expected<SassText>(*U.Sass) : compileToSass(*T, R);
    if (!Text) {
      if (auto E = NotChecked(U.File, Text.takeError()))
        return std::move(E);
      continue;
    }
    auto Functions = parseSass(Text->Text);
    if (!Functions) {
      if (auto E = NotChecked(U.File, Functions.takeError()))
        return std::move(E);
      continue;
    }
    AnyRead = true;
    AllFromCache = AllFromCache && Text->FromCache;
    if (!Text->Ptx.empty()) {
      M.DevicePtx.push_back({U.File, Text->Ptx});
      M.DeviceSass.push_back({U.File, Text->Text});
    }
    for (Kernel &K : M.Kernels)
      if (std::find(U.Kernels.begin(), U.Kernels.end(), K.Name) !=
          U.Kernels.end())
        for (std::string &N : matchCompiled(K, *Functions))
          Notes.push_back({K.Name, std::move(N)});
  }
  if (AnyRead) {
    M.Compiler.Used = "nvcc";
    M.Compiler.FromCache = AllFromCache;
  }
  return Finish();
}

} // namespace gmem
