//===- host_value.h - Values of the host-code interpreter -----------------===//
//
// What the host interpreter (host_interpreter.h) knows about a host variable
// or expression: an integer of a C++ type, a floating value, a pointer into
// an allocation, the address of a host variable, a set of functions (a kernel
// pointer chosen by a switch), a dim3, a small array, a C string (argv's
// strings, literals); or Unknown, with the
// reason a user can act on ("read from argv at transpose.cu:88").
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_ANALYZER_RECORD_VALUE_H
#define GMEM_ANALYZER_RECORD_VALUE_H

#include "model.h"
#include <cstdint>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
} // namespace clang

namespace gmem {

/// Allocation id of a null pointer.
constexpr int NullAllocation = -2;

struct HostValue {
  enum KindT : uint8_t {
    Unknown,
    Int,      ///< I, normalised to Ty.
    Float,    ///< F (already rounded when the type is float).
    Pointer,  ///< Alloc + byte offset I; offset unknown when Reason is set.
    AddrOf,   ///< The address of interpreter slot Alloc (&local).
    Function, ///< One of Fns (merging paths unites the sets).
    Dim3,     ///< Elems = x, y, z: each Int (unsigned 32) or Unknown.
    Array,    ///< Elems: a small local array, or argv's strings.
    String,   ///< A pointer to the C string Str, I bytes in (argv[1], "-n").
  } Kind = Unknown;
  int64_t I = 0;
  IntType Ty;
  double F = 0;
  int Alloc = -1;
  std::vector<const clang::FunctionDecl *> Fns;
  std::vector<HostValue> Elems;
  std::string Str;
  std::string Reason;
  /// Unknown because it comes from the command line or the program's input.
  bool FromInput = false;

  static HostValue unknown(std::string Reason, bool FromInput = false);
  static HostValue integer(int64_t V, IntType T);
  static HostValue floating(double V);
  static HostValue pointer(int Alloc, int64_t ByteOffset);
  static HostValue dim3(uint64_t X, uint64_t Y, uint64_t Z);
  static HostValue string(std::string S);

  bool isUnknown() const { return Kind == Unknown; }
  bool isInt() const { return Kind == Int; }
  /// Int, or Float truncated (for conditions and indices).
  bool isNumber() const { return Kind == Int || Kind == Float; }
  /// A pointer whose offset is not known.
  bool isVaguePointer() const { return Kind == Pointer && !Reason.empty(); }
};

bool sameValue(const HostValue &A, const HostValue &B);

/// The value a variable has after two paths join. Equal values stay; an
/// Unknown side wins (its reason explains the value); two different known
/// values become Unknown with WhyDiffer. Function sets unite.
HostValue mergeValues(const HostValue &A, const HostValue &B,
                      const std::string &WhyDiffer, bool DifferFromInput);

} // namespace gmem

#endif // GMEM_ANALYZER_RECORD_VALUE_H
