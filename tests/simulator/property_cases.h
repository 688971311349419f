//===- property_cases.h - How many random cases a property test runs ------===//
//
// The sanitizer tree runs each property on a prefix of its random cases
// (GMEM_PROPERTY_DIVISOR=8 there, tests/simulator/CMakeLists.txt): under
// AddressSanitizer a case costs ten times as much, and the main tree runs
// them all.
//
//===----------------------------------------------------------------------===//
#ifndef GMEM_TESTS_PROPERTY_CASES_H
#define GMEM_TESTS_PROPERTY_CASES_H

#include <algorithm>
#include <cstdint>
#include <cstdlib>

namespace gmem::test {

inline uint64_t propertyCases(uint64_t All) {
  uint64_t Divisor = 1;
  if (const char *E = std::getenv("GMEM_PROPERTY_DIVISOR"))
    Divisor = std::max<uint64_t>(1, std::strtoull(E, nullptr, 10));
  return std::max<uint64_t>(1, All / Divisor);
}

} // namespace gmem::test

#endif
