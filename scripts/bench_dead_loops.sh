#!/usr/bin/env bash
# Times the model's evaluation of SGEMM_CUDA's 2-D block-tiled kernel at
# 2048 x 2048 (docs/PUBLIC_PROGRAMS.md, "SGEMM_CUDA"): the kernel from its
# header, launched once by a ten-line main, analysed without running it
# (--exec-budget 0). Its register tile's loops are what
# simulator/dead_loops.h drops; run it on a build before that change to see
# what it saved.
#
# Usage: scripts/bench_dead_loops.sh SGEMM_CUDA_CHECKOUT
# (siboehm/SGEMM_CUDA, 60cba6f). Environment: GMEM_ANALYZE (default
# build/bin/gmem-analyze).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$1" && pwd)/src
analyze=${GMEM_ANALYZE:-$root/build/bin/gmem-analyze}
work=$(mktemp -d /tmp/gmem-dead-loops.XXXXXX)
trap 'rm -rf "$work"' EXIT
cat >"$work/k5.cu" <<'CU'
#include "kernels/5_kernel_2D_blocktiling.cuh"
#include <cstdio>
int main() {
  const int n = 2048;
  float *a, *b, *c;
  cudaMalloc(&a, sizeof(float) * n * n);
  cudaMalloc(&b, sizeof(float) * n * n);
  cudaMalloc(&c, sizeof(float) * n * n);
  sgemm2DBlocktiling<128, 128, 8, 8, 8>
      <<<dim3(n / 128, n / 128), 256>>>(n, n, n, 0.5f, a, b, 3.0f, c);
  cudaDeviceSynchronize();
  printf("done\n");
}
CU
# The first run builds (and caches) the program; the second is timed.
"$analyze" "$work/k5.cu" --exec-budget 0 --format json -- "-I$src" \
  >/dev/null 2>&1
start=$(date +%s.%N)
"$analyze" "$work/k5.cu" --exec-budget 0 --format json -- "-I$src" \
  >"$work/k5.json" 2>/dev/null
wall=$(echo "$(date +%s.%N) - $start" | bc)
python3 - "$work/k5.json" "$wall" <<'PY'
import json, sys
l = json.load(open(sys.argv[1]))["launches"][0]
print("%.1f s, warps evaluated %d, derived %d, gld_transactions_per_request %.4f"
      % (float(sys.argv[2]), l["warps_evaluated"], l["warps_derived"],
         l["metrics"]["gld_transactions_per_request"]))
PY
