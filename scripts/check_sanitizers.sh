#!/usr/bin/env bash
# The parts without Clang (the simulator, the executor, the SASS matcher,
# the measurement parsers and views) built once with clang-19,
# AddressSanitizer, UndefinedBehaviorSanitizer and libFuzzer's coverage in
# build-check/, their tests run there (the random properties on a prefix of
# their cases), then about 60 s of fuzzing from the same tree (fuzz/run.sh,
# docs/ROBUSTNESS.md). Needs scripts/setup.sh --fuzz's packages. About
# 640 s on 2 cores (2026-12-04: build 477 s, tests 68 s, fuzzing 91 s).
# The analyzer under ASan (a second build of every Clang-linked file and
# its golden tests) is left to the longer campaign of docs/ROBUSTNESS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
# -O1, as AddressSanitizer's documentation advises.
cmake -S . -B build-check -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS_RELEASE="-O1 -DNDEBUG" -DCMAKE_CXX_COMPILER=clang++-19 \
  -DGMEM_SANITIZE=address,undefined -DGMEM_BUILD_FUZZERS=ON \
  -DGMEM_BUILD_ANALYZER=OFF >/dev/null
cmake --build build-check -j "$(nproc)"
ctest --test-dir build-check --output-on-failure -j "$(nproc)"
echo "sanitizers: suite done after $((SECONDS - start)) s"
GMEM_FUZZ_BUILD=build-check GMEM_FUZZ_SEED=1 \
  fuzz/run.sh 10 model_json measured expr simulator matcher ptx
echo "sanitizers: fuzzing done after $((SECONDS - start)) s"
