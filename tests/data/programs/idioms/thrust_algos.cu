// Thrust's fill, transform, sort and reduce on device vectors, checked on
// the host.
#include <thrust/device_vector.h>
#include <thrust/fill.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <cstdio>

struct Scramble {
  __host__ __device__ int operator()(int x) const {
    return (x * 7919) % 10007;
  }
};

int main() {
  const int n = 1 << 16;
  thrust::device_vector<int> a(n), b(n);
  thrust::fill(b.begin(), b.end(), 3);
  thrust::sequence(a.begin(), a.end());
  thrust::transform(a.begin(), a.end(), a.begin(), Scramble());
  thrust::transform(a.begin(), a.end(), b.begin(), a.begin(),
                    thrust::plus<int>());
  thrust::sort(a.begin(), a.end());
  const long long sum = thrust::reduce(a.begin(), a.end(), 0ll);
  thrust::host_vector<int> h = a;
  long long want = 0;
  for (int i = 0; i < n; ++i)
    want += (i * 7919) % 10007 + 3;
  for (int i = 1; i < n; ++i)
    if (h[i - 1] > h[i]) {
      printf("not sorted at %d\n", i);
      return 1;
    }
  if (sum != want) {
    printf("sum %lld, expected %lld\n", sum, want);
    return 1;
  }
  printf("thrust: ok\n");
  return 0;
}
