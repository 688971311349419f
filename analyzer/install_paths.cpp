//===- install_paths.cpp - gmem's own files, installed or in the trees ----===//
#include "install_paths.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#if !defined(GMEM_CUDA_STUB_DIR) || !defined(GMEM_SOURCE_ROOT) ||              \
    !defined(GMEM_DOCS_URL)
#error "GMEM_CUDA_STUB_DIR, GMEM_SOURCE_ROOT and GMEM_DOCS_URL must be set"
#endif

namespace gmem {

std::string installedOr(const std::string &Relative,
                        const std::string &BuildPath) {
  // Linux reads /proc/self/exe: no argv[0] is needed.
  std::string Exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  if (!Exe.empty()) {
    llvm::SmallString<256> P(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
    llvm::sys::path::append(P, Relative);
    if (llvm::sys::fs::is_directory(P))
      return std::string(P);
  }
  return BuildPath;
}

std::string cudaStubDir() {
  static const std::string Dir =
      installedOr("share/gmem/cuda_stub", GMEM_CUDA_STUB_DIR);
  return Dir;
}

std::string docsBaseUri() {
  if (*GMEM_DOCS_URL)
    return llvm::StringRef(GMEM_DOCS_URL).rtrim('/').str();
  static const std::string Dir =
      installedOr("share/doc/gmem", GMEM_SOURCE_ROOT);
  return "file://" + Dir;
}

} // namespace gmem
