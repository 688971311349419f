#!/usr/bin/env bash
# Builds and measures programs listed in a manifest with gmem-verify, on a
# GPU machine (as scripts/measure_examples.sh does for single files).
#
# Usage: scripts/measure_programs.sh MANIFEST OUTDIR
#
# Each manifest line is
#   NAME | NVCC ARGUMENTS | PROGRAM ARGUMENTS | GMEM-VERIFY OPTIONS
# (the last two may be empty), with every path relative to the manifest's
# folder, where nvcc and the program run (so that -lineinfo records the
# names the analyzer is given). Blank lines and lines starting with # are
# skipped. For each program: OUTDIR/NAME.out (what it printed on the GPU,
# unprofiled, and its exit status) and OUTDIR/NAME.json (gmem-verify).
# Environment: GMEM_MEASURE_ONLY (names to measure, space-separated; all by
# default), GMEM_BUILD_DIR, CMAKE_PREFIX_PATH and GMEM_MEASURE_TIMEOUT as
# scripts/measure_examples.sh has them.
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
manifest=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$(mkdir -p "$2" && cd "$2" && pwd)
build=${GMEM_BUILD_DIR:-$root/build-gpu}
only=" ${GMEM_MEASURE_ONLY:-} "
work=$(mktemp -d /tmp/gmem-programs.XXXXXX)
if [ ! -x "$build/bin/gmem-verify" ]; then
  cmake -S "$root" -B "$build" -DGMEM_BUILD_ANALYZER=OFF \
    -DGMEM_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=Release >"$work/cmake.log" 2>&1 ||
    { tail -5 "$work/cmake.log"; exit 2; }
  cmake --build "$build" -j "$(nproc)" --target gmem-verify gmem_inject \
    >"$work/build.log" 2>&1 || { tail -20 "$work/build.log"; exit 2; }
fi
verify=$build/bin/gmem-verify
trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; echo "${s%"${s##*[![:space:]]}"}"; }
status=0
cd "$(dirname "$manifest")" || exit 2
entries() {
  while IFS='|' read -r name flags args vflags; do
    name=$(trim "$name")
    { [ -z "$name" ] || [[ "$name" == \#* ]]; } && continue
    [ "$only" != "  " ] && [[ "$only" != *" $name "* ]] && continue
    printf '%s|%s|%s|%s\n' "$name" "$flags" "$args" "$vflags"
  done <"$manifest"
}
# nvcc runs for every program at once (builds are CPU-bound); the programs
# then run one at a time, since profiling wants the GPU to itself.
while IFS='|' read -r name flags _ _; do
  # shellcheck disable=SC2086
  (nvcc $flags -o "$work/$name" >"$work/$name.nvcc" 2>&1 ||
    rm -f "$work/$name") &
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n; done
done < <(entries)
wait
while IFS='|' read -r name flags args vflags; do
  echo "== $name"
  if [ ! -x "$work/$name" ]; then
    tail -5 "$work/$name.nvcc"
    echo "measure_programs: $name does not build" >&2; status=2; continue
  fi
  # shellcheck disable=SC2086
  timeout "${GMEM_MEASURE_TIMEOUT:-300}" "$work/$name" $args \
    >"$out/$name.out" 2>&1 </dev/null
  echo "exit status $?" >>"$out/$name.out"
  echo "   $(tail -1 "$out/$name.out") ($(tail -2 "$out/$name.out" | head -1 | cut -c1-80))"
  # shellcheck disable=SC2086
  timeout "${GMEM_MEASURE_TIMEOUT:-300}" "$verify" ${vflags:-} \
     --output "$out/$name.json" -- "$work/$name" $args >"$work/$name.verify" 2>&1 </dev/null ||
    { echo "   gmem-verify failed:"; tail -5 "$work/$name.verify"; status=1; }
done < <(entries)
exit $status
