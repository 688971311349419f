#!/usr/bin/env bash
# The differential test on random programs at scale (issue 30): seeds 1 to
# SEEDS of tests/differential/random_kernels_test.cpp, 40 kernels each
# (default 250 seeds: 10 000 kernels), each program analysed with --path
# model and --path executed; every figure of every launch must agree except
# in launches the model says it is unsure of (gmem-analyze executes those).
# Prints the kernels compared and the launches the model was unsure of, and
# exits 1 if any launch differed; failing programs are kept in $TMPDIR.
# Usage: scripts/differential_random.sh [SEEDS] [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-250}
build=${2:-build}
out=$(mktemp -d)
status=0
GMEM_DIFF_SEEDS=$seeds "$build/bin/gmem_differential_tests" \
  --gtest_filter='Seeds/RandomKernels.*' \
  --gtest_output="json:$out/random.json" >"$out/log.txt" 2>&1 || status=1
python3 - "$out/random.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
tests = [t for s in d["testsuites"] for t in s["testsuite"]]
launches = sum(int(t.get("launches", 0)) for t in tests)
unsure = sum(int(t.get("model_unsure", 0)) for t in tests)
failed = [t["name"] for t in tests if t.get("failures")]
print(f"{len(tests)} programs, {launches} kernels launched: "
      f"{launches - unsure} compared figure by figure, {unsure} left to the "
      f"executor by the model's own word; {len(failed)} programs differ")
for f in failed:
    print("  differs:", f)
PY
[ "$status" = 0 ] || echo "log: $out/log.txt"
exit "$status"
