#!/usr/bin/env bash
# Times gmem-analyze on the whole seeds program (examples/
# seeds_gt.cu: 31 launches, about 160 million warp-level requests).
# Usage: scripts/bench_seeds.sh [BUILD_DIR] [THREADS]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
threads=${2:-$(nproc)}
src=examples/seeds_gt.cu
echo "machine: $(nproc) cores; simulating with $threads threads"
/usr/bin/time -f "seeds_gt.cu: %e s wall, %U s user CPU" \
  "$build/bin/gmem-analyze" "$src" --threads "$threads" --format json >/dev/null
