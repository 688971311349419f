#!/usr/bin/env bash
# Predicts, on this machine, the programs of a manifest that
# scripts/measure_programs.sh measured on a GPU, and compares each with its
# measurement.
#
# Usage: scripts/compare_programs.sh MANIFEST MEASURED_DIR [OUTDIR]
#
# For each program NAME of the manifest with MEASURED_DIR/NAME.json (or
# NAME.h100.json, as tests/data/measured/public names them):
# gmem-analyze is given the program's source files and, after --, the rest
# of its nvcc arguments (the flags gmem's own build adds, -arch and
# -lineinfo, are left out), its arguments as --run-args, and --compare. It
# prints the comparison's last line and wall time; OUTDIR/NAME.txt (default
# /tmp/gmem-compare) keeps the whole report. GMEM_MEASURE_ONLY selects
# programs as for measure_programs.sh; GMEM_ANALYZE names the binary
# (default build/bin/gmem-analyze); GMEM_ANALYZE_FLAGS adds options to
# every run (e.g. --sim-budget 60). Each run may take GMEM_COMPARE_TIME_LIMIT
# seconds (default 600: a program that runs thousands of launches may
# outlast gmem's default 120 s on 2 cores).
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
manifest=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
measured=$(cd "$2" && pwd)
out=$(mkdir -p "${3:-/tmp/gmem-compare}" && cd "${3:-/tmp/gmem-compare}" && pwd)
analyze=${GMEM_ANALYZE:-$root/build/bin/gmem-analyze}
only=" ${GMEM_MEASURE_ONLY:-} "
trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; echo "${s%"${s##*[![:space:]]}"}"; }
cd "$(dirname "$manifest")" || exit 2
status=0
while IFS='|' read -r name flags args _; do
  name=$(trim "$name")
  { [ -z "$name" ] || [[ "$name" == \#* ]]; } && continue
  [ "$only" != "  " ] && [[ "$only" != *" $name "* ]] && continue
  json=$measured/$name.json
  [ -f "$json" ] || json=$measured/$name.h100.json
  [ -f "$json" ] || { echo "$name: not measured"; continue; }
  files=() rest=()
  for a in $flags; do
    case $a in
    *.cu | *.cpp | *.cc | *.c) files+=("$a") ;;
    -arch=* | -lineinfo) ;;
    *) rest+=("$a") ;;
    esac
  done
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$analyze" "${files[@]}" --run-args="$(trim "$args")" ${GMEM_ANALYZE_FLAGS:-} \
    --time-limit "${GMEM_COMPARE_TIME_LIMIT:-600}" \
    --compare "$json" -- "${rest[@]}" >"$out/$name.txt" 2>&1
  rc=$?
  wall=$(echo "$(date +%s.%N) - $start" | bc)
  printf '%s: exit %d, %.1f s: %s\n' "$name" $rc "$wall" "$(tail -1 "$out/$name.txt")"
  [ $rc -le 1 ] || status=2
done <"$manifest"
exit $status
