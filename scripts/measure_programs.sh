#!/usr/bin/env bash
# Builds and measures programs listed in a manifest with gmem-verify, on a
# GPU machine (as scripts/measure_examples.sh does for single files).
#
# Usage: scripts/measure_programs.sh MANIFEST OUTDIR
#
# Each manifest line is `NAME | NVCC ARGUMENTS | PROGRAM ARGUMENTS`, the
# files named relative to the manifest's folder, where nvcc runs (so that
# -lineinfo records the names the analyzer is given). Blank lines and lines
# starting with # are skipped. For each program: OUTDIR/NAME.out (what it
# printed on the GPU, unprofiled) and OUTDIR/NAME.json (gmem-verify).
# Environment as scripts/measure_examples.sh (GMEM_BUILD_DIR,
# CMAKE_PREFIX_PATH, GMEM_MEASURE_TIMEOUT).
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
manifest=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$(mkdir -p "$2" && cd "$2" && pwd)
build=${GMEM_BUILD_DIR:-$root/build-gpu}
work=$(mktemp -d /tmp/gmem-programs.XXXXXX)
if [ ! -x "$build/bin/gmem-verify" ]; then
  cmake -S "$root" -B "$build" -DGMEM_BUILD_ANALYZER=OFF \
    -DGMEM_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=Release >"$work/cmake.log" 2>&1 ||
    { tail -5 "$work/cmake.log"; exit 2; }
  cmake --build "$build" -j "$(nproc)" --target gmem-verify gmem_inject \
    >"$work/build.log" 2>&1 || { tail -20 "$work/build.log"; exit 2; }
fi
verify=$build/bin/gmem-verify
status=0
cd "$(dirname "$manifest")" || exit 2
while IFS='|' read -r name flags args; do
  name=$(echo "$name" | xargs)
  [ -z "$name" ] || [[ "$name" == \#* ]] && continue
  echo "== $name"
  # shellcheck disable=SC2086
  if ! nvcc $flags -o "$work/$name"; then
    echo "measure_programs: $name does not build" >&2; status=2; continue
  fi
  # shellcheck disable=SC2086
  (cd "$work" && timeout "${GMEM_MEASURE_TIMEOUT:-300}" "./$name" $args) \
    >"$out/$name.out" 2>&1
  echo "   exit $? ($(tail -1 "$out/$name.out"))"
  # shellcheck disable=SC2086
  (cd "$work" && timeout "${GMEM_MEASURE_TIMEOUT:-300}" "$verify" \
     --output "$out/$name.json" -- "./$name" $args) >"$work/$name.verify" 2>&1 ||
    { echo "   gmem-verify failed:"; tail -5 "$work/$name.verify"; status=1; }
done <"$manifest"
exit $status
