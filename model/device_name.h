//===- device_name.h - A kernel's name as Clang and nvcc mangle it -----===//
//
// Clang and nvcc mangle external kernels alike, but not internal ones:
// `static __global__ void k(float *)` is _ZL1kPf to Clang and _Z1kPf to
// nvcc, and a kernel in an anonymous namespace is _ZN12_GLOBAL__N_11kE...
// to Clang and _ZN33_GLOBAL__N__<hash>_<file>_...1kE... to nvcc, the hash
// being nvcc's own. Recorded launches, SASS functions and measured kernels
// carry nvcc's name; the model carries Clang's. Both are compared through
// this key. Header-only: the recording runtime, built without the model,
// uses it too.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_MODEL_DEVICE_NAME_H
#define GMEM_MODEL_DEVICE_NAME_H

#include <cctype>
#include <string>

namespace gmem {

/// Name without the prefix nvcc gives a static kernel under separate
/// compilation (-rdc=true), which makes it unique among the linked files:
/// "__nv_static_" N "_" (N characters of file hash and name) "_" then the
/// kernel's own name (cuda-samples' jacobiCudaGraphs: __nv_static_30__
/// 00cde091_9_jacobi_cu_3dc991e0__Z10finalErrorPdS_ is _Z10finalErrorPdS_).
inline std::string withoutStaticPrefix(const std::string &Name) {
  static const std::string Prefix = "__nv_static_";
  if (Name.rfind(Prefix, 0) != 0)
    return Name;
  size_t I = Prefix.size(), Len = 0;
  if (I >= Name.size() || !std::isdigit(static_cast<unsigned char>(Name[I])))
    return Name;
  while (I < Name.size() && std::isdigit(static_cast<unsigned char>(Name[I])))
    Len = Len * 10 + size_t(Name[I++] - '0');
  I += 1 + Len; // The separator, then the unique part.
  if (I + 1 >= Name.size() || Name[I] != '_')
    return Name;
  return Name.substr(I + 1);
}

/// Mangled with internal linkage marks dropped and every anonymous
/// namespace spelt as Clang spells it.
inline std::string deviceNameKey(const std::string &Name) {
  const std::string Mangled = withoutStaticPrefix(Name);
  if (Mangled.rfind("_Z", 0) != 0)
    return Mangled;
  static const std::string Anon = "_GLOBAL__N_";
  std::string Out;
  size_t I = 0;
  while (I < Mangled.size()) {
    const char C = Mangled[I];
    // A <source-name>: its length, then that many characters.
    if (std::isdigit(static_cast<unsigned char>(C))) {
      size_t J = I, Len = 0;
      while (J < Mangled.size() &&
             std::isdigit(static_cast<unsigned char>(Mangled[J])))
        Len = Len * 10 + size_t(Mangled[J++] - '0');
      if (Len == 0 || J + Len > Mangled.size()) {
        Out.append(Mangled, I, J - I);
        I = J;
        continue;
      }
      if (Mangled.compare(J, Anon.size(), Anon) == 0)
        Out += "12_GLOBAL__N_1";
      else
        Out.append(Mangled, I, J + Len - I);
      I = J + Len;
      continue;
    }
    // L before a source name: internal linkage, which nvcc does not mark.
    if (C == 'L' && I + 1 < Mangled.size() &&
        std::isdigit(static_cast<unsigned char>(Mangled[I + 1]))) {
      ++I;
      continue;
    }
    Out += C;
    ++I;
  }
  return Out;
}

/// Whether a and b name the same kernel (see deviceNameKey).
inline bool sameDeviceName(const std::string &A, const std::string &B) {
  return A == B || deviceNameKey(A) == deviceNameKey(B);
}

} // namespace gmem

#endif // GMEM_MODEL_DEVICE_NAME_H
