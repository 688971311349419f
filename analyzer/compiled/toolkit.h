//===- toolkit.h - Find nvcc and nvdisasm, compile to SASS with a cache ---===//
//
// gmem counts the memory instructions nvcc emits. This part runs the
// toolkit: `nvcc -cubin -arch=sm_XX -lineinfo` (device code only, one
// architecture), then `nvdisasm -c -gi` on the cubin, and keeps the
// disassembly in a cache keyed by the translation unit's content (every
// file it read), the flags and the toolkit version, so that a second run
// does not compile again.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_COMPILED_TOOLKIT_H
#define GMEM_ANALYZER_COMPILED_TOOLKIT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gmem {

struct Toolkit {
  std::string Nvcc, Nvdisasm;
  std::string Version; ///< "13.0.88", from `nvcc --version`.
};

/// Finds nvcc (NvccPath when given, else $PATH, $CUDA_PATH/bin,
/// /usr/local/cuda/bin) and nvdisasm (beside nvcc, $PATH, or PyPI's
/// nvidia-cuda-nvdisasm package: nvidia/cu*/bin under python3's site
/// directories). Fails with the reason when either is missing.
llvm::Expected<Toolkit> findToolkit(const std::string &NvccPath);

struct SassRequest {
  std::string File;                   ///< The .cu file.
  std::string Arch = "sm_90";         ///< -arch.
  std::vector<std::string> Flags;     ///< -I, -D, -U, -include, -std=.
  std::vector<std::string> KeyInputs; ///< Files whose content keys the cache.
  std::string CacheDir;               ///< Empty: no cache.
};

struct SassText {
  std::string Text;
  bool FromCache = false;
  /// The PTX the same compile emitted (empty where it was not kept).
  std::string Ptx;
};

/// nvcc's options that build for Arch: -arch=sm_90, or for an
/// architecture-specific target (sm_90a) its -gencode, since nvcc's
/// -arch=sm_90a also builds compute_90 PTX, which wgmma fails.
std::vector<std::string> nvccArchArgs(const std::string &Arch);

/// The disassembly of File's device code for Arch (and its PTX), from the
/// cache or by compiling. Fails with nvcc's first error lines when it does
/// not compile.
llvm::Expected<SassText> compileToSass(const Toolkit &T, const SassRequest &R);

/// The nvcc flags among Clang arguments (include paths, macros, standard).
std::vector<std::string>
nvccFlagsFromClangArgs(const std::vector<std::string> &ClangArgs);

/// Runs Args (Args[0] the program; Env the whole environment when given;
/// stdin from /dev/null) for at most TimeoutSeconds. Out gets its stdout,
/// Err its stderr (both streams, interleaved, in both when MergeOutput),
/// Why why it could not start or was stopped. Returns its exit code, -1
/// when it could not start, -2 when a signal or the time limit ended it.
/// Tick, when given, is called about once a second with the seconds run.
int runProcess(
    const std::vector<std::string> &Args, unsigned TimeoutSeconds,
    std::string &Out, std::string &Err, std::string &Why,
    const std::optional<std::vector<std::string>> &Env = std::nullopt,
    bool MergeOutput = false,
    const std::function<void(unsigned)> &Tick = nullptr);

/// A cache key: the SHA-256 of Fields and of each of Inputs (a file's
/// name and content, in sorted order), in hex.
std::string contentKey(const std::vector<std::string> &Fields,
                       std::vector<std::string> Inputs);

/// $XDG_CACHE_HOME/gmem, else ~/.cache/gmem.
std::string defaultCacheDir();

/// Writes Text to Path through a file beside it, then renames it: a
/// concurrent reader of the cache never sees half.
void writeAtomically(const std::string &Path, const std::string &Text);

/// P with symbolic links and dots resolved; P itself when it does not exist.
std::string realPath(llvm::StringRef P);

} // namespace gmem

#endif // GMEM_ANALYZER_COMPILED_TOOLKIT_H
