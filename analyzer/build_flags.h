//===- build_flags.h - A build's flags, for nvcc and for Clang ----------===//
//
// Users give gmem the flags of their own build (after "--"), as their
// Makefile gives them to nvcc. nvcc gets them all, but for the few gmem
// sets itself (-arch, -gencode, -o, -c); Clang gets what it understands
// as nvcc means it (-I, -D, -U, -include, -isystem, -std=...), and every
// flag it does not get is said in a note, never an error.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_BUILD_FLAGS_H
#define GMEM_ANALYZER_BUILD_FLAGS_H

#include <string>
#include <vector>

namespace gmem {

struct BuildFlags {
  std::vector<std::string> Clang; ///< For the parse.
  /// For nvcc alone; nvcc also gets what nvccFlagsFromClangArgs takes
  /// from Clang's (-I, -D, -U, -include, -isystem, -std=).
  std::vector<std::string> NvccOnly;
  /// Objects, archives and shared libraries named as inputs (libfoo.a):
  /// the link's, given to nvcc after the sources (an archive resolves only
  /// what the objects before it need).
  std::vector<std::string> LinkInputs;
  /// Source files named among the flags (`-- main.cpp`, as nvcc takes
  /// them): read and built with the files given before "--".
  std::vector<std::string> Sources;
  /// One per flag Clang does not get: what it is and where it goes.
  std::vector<std::string> Notes;
  /// An architecture-specific target the build names (sm_90a: wgmma and
  /// setmaxnreg compile only for it), which gmem's own build then uses.
  std::string ArchVariant;
};

/// The target gmem's nvcc builds for: Arch ("sm_90"), or the build's
/// architecture-specific variant of it (sm_90a).
std::string buildArch(const std::string &Arch, const BuildFlags &F);

/// Splits the build's flags (Args: as given after "--").
BuildFlags splitBuildFlags(const std::vector<std::string> &Args);

/// Whether nvcc's flags ask for relocatable device code (-rdc=true, -rdc
/// true, --relocatable-device-code=true, -dc): then nvlink, not ptxas,
/// places each kernel's shared variables.
bool relocatableDeviceCode(const std::vector<std::string> &NvccFlags);

} // namespace gmem

#endif // GMEM_ANALYZER_BUILD_FLAGS_H
