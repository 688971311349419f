//===- kernel_signature.h - Kernel names and arguments from a symbol ------===//
//
// What gmem-verify records about a launch that is not a counter: the kernel's
// name as gmem-analyze prints it ("sgemm_coalescing<32>", no return type, no
// parameters, no literal suffixes), its full demangled signature, and each
// argument's value decoded by the parameter type the signature gives.
// Pure C++ (no CUDA), so that it is tested on machines without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_GPU_CUPTI_KERNEL_SIGNATURE_H
#define GMEM_GPU_CUPTI_KERNEL_SIGNATURE_H

#include "measurement.h"

#include <string>
#include <vector>

namespace gmem {
namespace cupti {

struct KernelSignature {
  std::string Kernel;    ///< "sgemm_coalescing<32>".
  std::string Demangled; ///< "void sgemm_coalescing<32u>(int, ...)".
  /// Parameter types as the demangler spells them ("float const*"); empty
  /// when the symbol is not a mangled C++ name (extern "C" kernels).
  std::vector<std::string> ParamTypes;
  bool Demangles = false;
};

/// Demangles \p Symbol (Itanium ABI) and splits it; a symbol that does not
/// demangle is its own name with unknown parameters.
KernelSignature parseKernelSymbol(const std::string &Symbol);

/// Splits an already demangled signature; exposed for tests.
KernelSignature parseDemangled(const std::string &Demangled);

enum class ArgKind { Pointer, Signed, Unsigned, Bool, Float, Unknown };

ArgKind classifyType(const std::string &Type);

/// Bytes a parameter of \p Type takes in a launch (0 when unknown).
unsigned naturalSize(const std::string &Type);

/// "float const*" -> "const float*": the spelling source code uses.
std::string normalizeType(const std::string &Type);

/// Decodes one argument: pointers keep only address % 256, integers their
/// value, floating types their value; \p Size bytes are read from \p Value.
MeasuredArg decodeArg(const std::string &Type, const void *Value,
                      unsigned Size);

} // namespace cupti
} // namespace gmem

#endif // GMEM_GPU_CUPTI_KERNEL_SIGNATURE_H
