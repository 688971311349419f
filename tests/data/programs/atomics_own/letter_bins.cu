// Letters of a text counted into bins of four letters, twice: by a global
// atomic per character, and through a privatised shared histogram whose
// bins are added to the global ones at the end. main() checks both against
// a count on the host.
//
// The first kernel's atomicAdd is on line 112 on purpose: CUDA 13's
// device_atomic_functions.hpp defines atomicAdd on its own line 112, and
// ptxas starts no new line-table row where only the file changes, so the
// REDG it makes keeps the caller's row (this file, line 112) while the
// PTX's .loc names the header's line; a GPU counts it on this file's line.
// The second kernel's atomics are on other lines and keep the header's.
#include <cstdio>
#include <cstdlib>
#include <vector>

constexpr int kBins = 7; // 26 letters in bins of four.
constexpr unsigned kBlock = 256;

// Launches the global-atomic kernel (defined at the end of the file, where
// its call lands on line 112) on zeroed bins.
void letterBins(const char *text, unsigned n, unsigned *bins, unsigned grid,
                unsigned block);

// A text of letters with a space about every eighth character, from a
// fixed seed so that every run counts the same.
std::vector<char> makeText(unsigned n, unsigned seed) {
  std::vector<char> text(n);
  srand(seed);
  for (unsigned i = 0; i < n; ++i)
    text[i] = rand() % 8 == 0 ? ' ' : char('a' + rand() % 26);
  return text;
}

std::vector<unsigned> countOnHost(const std::vector<char> &text) {
  std::vector<unsigned> bins(kBins, 0);
  for (char c : text)
    if (c >= 'a' && c <= 'z')
      ++bins[(c - 'a') / 4];
  return bins;
}

// Copies the device's bins back and counts the ones that differ from the
// host's.
int mismatches(const unsigned *dBins, const std::vector<unsigned> &expect,
               const char *name) {
  std::vector<unsigned> got(kBins);
  cudaMemcpy(got.data(), dBins, kBins * sizeof(unsigned),
             cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < kBins; ++b)
    if (got[b] != expect[b]) {
      printf("%s: bin %d is %u, expected %u\n", name, b, got[b], expect[b]);
      ++bad;
    }
  return bad;
}

__global__ void letterBinsShared(const char *text, unsigned n, unsigned *bins) {
  __shared__ unsigned local[kBins];
  for (unsigned b = threadIdx.x; b < kBins; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int letter = text[i] - 'a';
    if (letter >= 0 && letter < 26)
      atomicAdd(&local[letter / 4], 1);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < kBins; b += blockDim.x)
    if (local[b])
      atomicAdd(&bins[b], local[b]);
}

int main() {
  const unsigned n = 1 << 16;
  const std::vector<char> text = makeText(n, 7);
  const std::vector<unsigned> expect = countOnHost(text);
  for (int b = 0; b < kBins; ++b)
    printf("letters %c-%c: %u\n", 'a' + 4 * b,
           b == kBins - 1 ? 'z' : 'a' + 4 * b + 3, expect[b]);

  char *dText;
  unsigned *dBins;
  cudaMalloc(&dText, n);
  cudaMalloc(&dBins, kBins * sizeof(unsigned));
  cudaMemcpy(dText, text.data(), n, cudaMemcpyHostToDevice);
  int failures = 0;

  letterBins(dText, n, dBins, n / kBlock, kBlock);
  failures += mismatches(dBins, expect, "global atomics");

  cudaMemset(dBins, 0, kBins * sizeof(unsigned));
  letterBinsShared<<<n / kBlock, kBlock>>>(dText, n, dBins);
  failures += mismatches(dBins, expect, "shared bins");

  printf("%s\n", failures ? "FAILED" : "PASSED");
  cudaFree(dText);
  cudaFree(dBins);
  return failures != 0;
}

// One thread a character, each adding 1 to its letter's bin in global
// memory: every warp's adds land on at most seven words.
__global__ void letterBinsGlobal(const char *text, unsigned n, unsigned *bins) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int letter = text[i] - 'a';
    // The add below is on line 112, the header's atomicAdd line (see the
    // top of the file).
    if (letter >= 0 && letter < 26)
      atomicAdd(&bins[letter / 4], 1);
  }
}

void letterBins(const char *text, unsigned n, unsigned *bins, unsigned grid,
                unsigned block) {
  cudaMemset(bins, 0, kBins * sizeof(unsigned));
  letterBinsGlobal<<<grid, block>>>(text, n, bins);
}
