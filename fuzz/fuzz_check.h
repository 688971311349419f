//===- fuzz_check.h - What a harness does when an invariant fails ---------===//
#ifndef GMEM_FUZZ_FUZZ_CHECK_H
#define GMEM_FUZZ_FUZZ_CHECK_H

#include <cstdio>
#include <cstdlib>

/// Aborts (libFuzzer saves the input as a crash) with the broken invariant.
#define FUZZ_CHECK(Cond, ...)                                                  \
  do {                                                                         \
    if (!(Cond)) {                                                             \
      std::fprintf(stderr, "%s:%d: invariant failed: %s: ", __FILE__,          \
                   __LINE__, #Cond);                                           \
      std::fprintf(stderr, __VA_ARGS__);                                       \
      std::fprintf(stderr, "\n");                                              \
      std::abort();                                                            \
    }                                                                          \
  } while (0)

#endif
