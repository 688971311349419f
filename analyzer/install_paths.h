//===- install_paths.h - gmem's own files, installed or in the trees ------===//
//
// gmem-analyze reads files of its own at run time: the stand-in CUDA headers
// (analyzer/cuda_stub) and the recording runtime (libcudart.so.N). An
// installed binary finds them beside it, <prefix>/share/gmem/cuda_stub and
// <prefix>/lib/gmem-record; a binary in its build tree finds them in the
// source and build trees it was built from. The documentation the SARIF
// log links to is found the same way. So an installation keeps
// working once the source is gone.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_INSTALL_PATHS_H
#define GMEM_ANALYZER_INSTALL_PATHS_H

#include <string>

namespace gmem {

/// <prefix>/Relative when the running binary is <prefix>/bin/NAME and that
/// path exists; BuildPath otherwise.
std::string installedOr(const std::string &Relative,
                        const std::string &BuildPath);

/// The stand-in CUDA headers in use.
std::string cudaStubDir();

/// Where gmem's documentation is, as a URI the README.md and docs/ are
/// under: GMEM_DOCS_URL when the build was configured with one (a hosted
/// copy), else the installed <prefix>/share/doc/gmem or the source tree,
/// as file:// URIs. SARIF's informationUri and helpUri point there.
std::string docsBaseUri();

} // namespace gmem

#endif // GMEM_ANALYZER_INSTALL_PATHS_H
