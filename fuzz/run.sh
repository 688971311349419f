#!/usr/bin/env bash
# Runs every libFuzzer harness for SECONDS each (default 20), one process on
# one core at a time, from the seeds in fuzz/corpus/<name>/ (and examples/
# for the analyzer). Builds build-fuzz/ with clang-19 first if needed.
# New inputs and any crash go to build-fuzz/corpus/<name>/ and
# build-fuzz/artifacts/; the repository's corpus is only read.
# Usage: fuzz/run.sh [SECONDS] [HARNESS...]; exits 1 if a harness failed.
# GMEM_FUZZ_SEED fixes libFuzzer's random seed (CI uses one, so that a run
# is a prefix of the same sequence on any machine); unset, it is random.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
shift || true
build=${GMEM_FUZZ_BUILD:-build-fuzz}
harnesses=("$@")
((${#harnesses[@]})) ||
  harnesses=(model_json measured expr simulator matcher ptx analyzer)

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_COMPILER=clang++-19 -DGMEM_BUILD_FUZZERS=ON \
    -DGMEM_SANITIZE=address,undefined -DGMEM_BUILD_TESTS=OFF \
    -DGMEM_BUILD_GPU=OFF ${GMEM_FUZZ_CMAKE_ARGS:-} >/dev/null
fi
targets=()
for h in "${harnesses[@]}"; do targets+=("${h}_fuzzer"); done
cmake --build "$build" -j "${GMEM_FUZZ_JOBS:-2}" --target "${targets[@]}"

# Inputs larger than these teach nothing new and slow each execution.
declare -A max_len=([model_json]=4096 [measured]=4096 [expr]=512
                    [simulator]=512 [analyzer]=16384 [matcher]=65536
                    [ptx]=16384)
status=0
mkdir -p "$build/artifacts"
for h in "${harnesses[@]}"; do
  work="$build/corpus/$h"
  mkdir -p "$work"
  seeds=("fuzz/corpus/$h")
  extra=()
  if [ "$h" = analyzer ]; then
    seeds+=(examples)
    extra+=(-close_fd_mask=2) # Clang's diagnostics on mutated sources.
  fi
  log="$build/$h.log"
  echo "fuzz: $h for ${seconds}s"
  if ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$build/bin/${h}_fuzzer" "$work" "${seeds[@]}" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -max_len="${max_len[$h]}" -print_final_stats=1 \
      -seed="${GMEM_FUZZ_SEED:-0}" \
      -artifact_prefix="$build/artifacts/${h}-" "${extra[@]}" >"$log" 2>&1
  then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz: $h: ${runs:-?} executions, no failure"
  else
    status=1
    echo "fuzz: $h FAILED; the input is in $build/artifacts/, log $log:"
    grep -E "ERROR|invariant failed|SUMMARY|Test unit written" "$log" |
      head -20 || tail -30 "$log"
  fi
done
exit $status
