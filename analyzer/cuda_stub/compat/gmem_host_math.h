// gmem: the host-side min/max overloads that nvcc's math_functions.hpp makes
// __host__ __device__ and Clang's CUDA headers declare for the device only,
// so that host code calling max(a, b) parses as nvcc reads it. Mixed
// signedness converts both operands to the unsigned result type first, as
// nvcc's do; the host interpreter computes these calls by name.
#ifndef GMEM_HOST_MATH_H
#define GMEM_HOST_MATH_H

#define GMEM_HOST_MINMAX(R, A, B)                                              \
  static inline __host__ R min(A a, B b) {                                     \
    return (R)a < (R)b ? (R)a : (R)b;                                          \
  }                                                                            \
  static inline __host__ R max(A a, B b) { return (R)a < (R)b ? (R)b : (R)a; }

GMEM_HOST_MINMAX(int, int, int)
GMEM_HOST_MINMAX(unsigned int, unsigned int, unsigned int)
GMEM_HOST_MINMAX(unsigned int, int, unsigned int)
GMEM_HOST_MINMAX(unsigned int, unsigned int, int)
GMEM_HOST_MINMAX(long, long, long)
GMEM_HOST_MINMAX(unsigned long, unsigned long, unsigned long)
GMEM_HOST_MINMAX(unsigned long, long, unsigned long)
GMEM_HOST_MINMAX(unsigned long, unsigned long, long)
GMEM_HOST_MINMAX(long long, long long, long long)
GMEM_HOST_MINMAX(unsigned long long, unsigned long long, unsigned long long)
GMEM_HOST_MINMAX(unsigned long long, long long, unsigned long long)
GMEM_HOST_MINMAX(unsigned long long, unsigned long long, long long)
GMEM_HOST_MINMAX(float, float, float)
GMEM_HOST_MINMAX(double, double, double)
GMEM_HOST_MINMAX(double, float, double)
GMEM_HOST_MINMAX(double, double, float)
#undef GMEM_HOST_MINMAX

#endif // GMEM_HOST_MATH_H
