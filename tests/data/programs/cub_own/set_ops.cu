// Set operations with Thrust, whose CUDA backend merges each tile's keys in
// shared memory serially per thread: a thread's cursors into the two key
// lists advance on comparisons, and once one list is used up the next
// comparison reads the word past its end, which no thread wrote. The GPU's
// result does not depend on that word (the cursor is already at its end);
// gmem runs both sides of such a comparison and keeps the cursor's range
// (executor/fork_join.cpp), so the results are known under recording too.
// Each result is checked against the host's; the program exits 1 on a
// wrong one.
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/set_operations.h>
#include <vector>

enum Op { Intersection, Difference, SymmetricDifference, Union };

template <class It> It run(Op O, It A0, It A1, It B0, It B1, It Out) {
  switch (O) {
  case Intersection:
    return thrust::set_intersection(A0, A1, B0, B1, Out);
  case Difference:
    return thrust::set_difference(A0, A1, B0, B1, Out);
  case SymmetricDifference:
    return thrust::set_symmetric_difference(A0, A1, B0, B1, Out);
  default:
    return thrust::set_union(A0, A1, B0, B1, Out);
  }
}

std::vector<int> expected(Op O, const std::vector<int> &A,
                          const std::vector<int> &B) {
  std::vector<int> R;
  auto Out = std::back_inserter(R);
  switch (O) {
  case Intersection:
    std::set_intersection(A.begin(), A.end(), B.begin(), B.end(), Out);
    break;
  case Difference:
    std::set_difference(A.begin(), A.end(), B.begin(), B.end(), Out);
    break;
  case SymmetricDifference:
    std::set_symmetric_difference(A.begin(), A.end(), B.begin(), B.end(), Out);
    break;
  default:
    std::set_union(A.begin(), A.end(), B.begin(), B.end(), Out);
  }
  return R;
}

int main() {
  int bad = 0;
  // One tile (Thrust's own example's sizes), then several.
  for (int n : {7, 3000}) {
    std::vector<int> A(n), B(n);
    for (int i = 0; i < n; ++i) {
      A[i] = 3 * i / 2; // 0 1 3 4 6 7 ...
      B[i] = 2 * i + (i % 3 == 0);
    }
    std::sort(B.begin(), B.end());
    B.erase(std::unique(B.begin(), B.end()), B.end());
    thrust::device_vector<int> dA(A.begin(), A.end()), dB(B.begin(), B.end());
    for (Op O : {Intersection, Difference, SymmetricDifference, Union}) {
      thrust::device_vector<int> out(A.size() + B.size());
      auto end = run(O, dA.begin(), dA.end(), dB.begin(), dB.end(),
                     out.begin());
      thrust::host_vector<int> got(out.begin(), end);
      const std::vector<int> want = expected(O, A, B);
      bad += got.size() != want.size() ||
             !std::equal(want.begin(), want.end(), got.begin());
    }
  }
  printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad != 0;
}
