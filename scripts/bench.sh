#!/usr/bin/env bash
# Times gmem-analyze (fast path and --exhaustive) on the seeds' program and
# the examples, and the growth 1x/4x/64x of bench/growth.cu; writes
# docs/PERFORMANCE.md. Usage: scripts/bench.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 scripts/bench.py "$@"
