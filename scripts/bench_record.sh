#!/usr/bin/env bash
# The recording step's cost beside the host interpreter's (docs/PERFORMANCE.md):
# for each program, gmem-analyze --host record with an empty cache (nvcc
# builds it), again with the cache warm (the build is reused, the program
# runs again), and --host interpret. Each line: program, seconds, exit codes.
#   scripts/bench_record.sh [FILE.cu ...]   (default: tests/data/record/recorded_host.cu)
set -uo pipefail
cd "$(dirname "$0")/.."
A=build/bin/gmem-analyze
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(tests/data/record/recorded_host.cu)
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
secs() { local s=$(date +%s%N); "$@" > /dev/null 2>&1; local rc=$?
  local ms=$(( ($(date +%s%N) - s) / 1000000 ))
  printf "%d.%02d s (exit %d)" $((ms / 1000)) $((ms % 1000 / 10)) $rc; }
for f in "${files[@]}"; do
  echo "$f: record $(secs $A "$f" --host record --cache-dir "$cache"), cached $(secs $A "$f" --host record --cache-dir "$cache"), interpret $(secs $A "$f" --host interpret --cache-dir "$cache")"
done
