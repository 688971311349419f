// gmem: the host compiler's <omp.h> (found after Clang's own headers, see
// frontend.cpp), read by Clang. GCC's declares its allocators with
// __attribute__((__malloc__(omp_free))), an attribute form Clang 19 rejects:
// the argument is dropped while it is read.
#define __malloc__(...)
#include_next <omp.h>
#undef __malloc__
