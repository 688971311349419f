#!/usr/bin/env bash
# The seeds' measured figures and the program they were measured on are kept
# in this repository (tests/data/groundtruth/, examples/seeds_gt.cu) as copies
# of the project's shared ground truth. Where that folder is present beside
# the checkout (CI has it; a user's clone does not), check that the copies
# have not drifted; without it, say so and succeed. Not part of ctest: the
# test suite reads only the repository.
# Usage: scripts/check_groundtruth_copies.sh [SHARED_DIR] (default ../shared)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
shared=${1:-$root/../shared}
if [ ! -d "$shared/groundtruth" ]; then
  echo "check_groundtruth_copies: no $shared/groundtruth; nothing to compare"
  exit 0
fi
status=0
for copy in tests/data/groundtruth/h200_ncu_seeds.csv \
            tests/data/groundtruth/h200_summary.txt examples/seeds_gt.cu; do
  if cmp -s "$shared/groundtruth/$(basename "$copy")" "$root/$copy"; then
    echo "check_groundtruth_copies: $copy matches"
  else
    echo "check_groundtruth_copies: $copy differs from $shared/groundtruth/$(basename "$copy")" >&2
    status=1
  fi
done
exit $status
