//===- kernel_names.h - How kernels are named in the model ----------------===//
//
// Kernel::Name is the name a user writes: "transposeSmem",
// "sgemm_coalescing<32>", "ns::kern<float, 4>". Host-launch matching and the
// --kernel flag use the same spelling, so both come from here.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_KERNEL_NAMES_H
#define GMEM_ANALYZER_KERNEL_NAMES_H

#include "clang/AST/Decl.h"
#include <string>

namespace gmem {

/// Qualified by its named namespaces, with template arguments as in source
/// (integers in decimal without 'U'/'L' suffixes, types as written).
std::string kernelDisplayName(const clang::FunctionDecl *FD);

/// The device-side (Itanium) mangled name, e.g. "_Z9naiveGmemPfS_ii".
std::string kernelMangledName(const clang::FunctionDecl *FD);

} // namespace gmem

#endif // GMEM_ANALYZER_KERNEL_NAMES_H
