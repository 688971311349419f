#!/usr/bin/env bash
# Loop nests counted by periods against the every-iteration reference.
#
# Usage: scripts/bench_nests.sh [--no-reference] [FILE.cu:KERNEL[:FLAGS] ...]
#
# For each kernel, times `gmem-analyze FILE --kernel KERNEL` (wall and CPU
# seconds, best of 3, SASS cache and recorded build warm) and, unless
# --no-reference, the same with --every-iteration (once: it can take
# minutes), and says whether the two JSON reports give the same counts.
# FLAGS (commas for spaces) go to the compiler after `--`. Without files it
# runs examples/loop_nests.cu at PolyBench's sizes (-DNEST_N=2048,
# -DNEST_STEPS=500). Prints a Markdown table for docs/PERFORMANCE.md.
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${GMEM_ANALYZE:-$root/build/bin/gmem-analyze}
reference=1
if [ "${1-}" = --no-reference ]; then
  reference=0
  shift
fi
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  for k in covariance rowSums suffixSums tileJacobi; do
    cases+=("$root/examples/loop_nests.cu:$k:-DNEST_N=2048,-DNEST_STEPS=500")
  done
fi
work=$(mktemp -d /tmp/gmem-nests.XXXXXX)
trap 'rm -rf "$work"' EXIT

# Seconds of wall and CPU time of one run; its JSON in $2.
timed() {
  local out=$1
  shift
  /usr/bin/time -f "%e %U %S" -o "$work/time" "$@" >"$out" 2>"$work/err"
  local rc=$?
  awk '{printf "%.2f %.2f", $1, $2 + $3}' "$work/time"
  return $rc
}

echo "| program | kernel | by periods: wall / CPU | every iteration: wall / CPU | same counts |"
echo "| --- | --- | --- | --- | --- |"
for c in "${cases[@]}"; do
  IFS=: read -r file kernel flags <<<"$c"
  extra=()
  [ -n "$flags" ] && extra=(-- ${flags//,/ })
  args=("$file" --kernel "$kernel" --format json)
  (cd "$(dirname "$file")" && "$bin" "${args[@]}" "${extra[@]}" >/dev/null 2>&1) # warm
  best=
  for i in 1 2 3; do
    t=$(cd "$(dirname "$file")" && timed "$work/fast.json" "$bin" "${args[@]}" "${extra[@]}")
    if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN{split(a,x," ");split(b,y," ");exit !(x[1]<y[1])}'; then
      best=$t
    fi
  done
  ref="-"
  same="-"
  if [ $reference = 1 ]; then
    ref=$(cd "$(dirname "$file")" && timed "$work/ref.json" "$bin" "${args[@]}" --every-iteration "${extra[@]}")
    same=$(python3 - "$work/fast.json" "$work/ref.json" <<'EOF'
import json, sys
def counts(path):
    d = json.load(open(path))
    for l in d["launches"]:
        # How the warps were run, not what they count.
        for key in ("time", "warps_evaluated", "warps_derived"):
            l.pop(key, None)
    return d["launches"]
print("yes" if counts(sys.argv[1]) == counts(sys.argv[2]) else "NO")
EOF
)
    ref="${ref% *} s / ${ref#* } s"
  fi
  name=$(basename "$file")
  [ -n "$flags" ] && name="$name ${flags//,/ }"
  echo "| $name | $kernel | ${best% *} s / ${best#* } s | $ref | $same |"
done
