#!/usr/bin/env bash
# Measures the examples on a GPU machine with gmem-verify.
#
# Usage (from anywhere, on a machine with a GPU, nvcc, CUDA with CUPTI and
# cmake; run as root or with profiling allowed):
#   scripts/measure_examples.sh [EXTRA.cu ...]
#
# Builds gpu/ (analyzer and tests off), compiles every examples/*.cu and each
# EXTRA.cu with `nvcc -arch=sm_90 -lineinfo`, runs `gmem-verify` on it and
# writes tests/data/measured/<name>.json, then prints one row per launch in
# the columns of ../shared/groundtruth/h200_summary.txt.
#
# Environment: GMEM_BUILD_DIR (default build-gpu), GMEM_MEASURED_DIR (default
# tests/data/measured), GMEM_MEASURE_SKIP (names not to run; default
# transpose_seed_printed, which faults by design, see examples/README.md),
# GMEM_NVCC_FLAGS (default "-arch=sm_90 -lineinfo"), GMEM_VERIFY_FLAGS (extra
# gmem-verify options), GMEM_MEASURE_TIMEOUT (seconds per program, default
# 300), CMAKE_PREFIX_PATH (e.g. a carried nlohmann_json).
set -u -o pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${GMEM_BUILD_DIR:-$root/build-gpu}
outdir=${GMEM_MEASURED_DIR:-$root/tests/data/measured}
skip=" ${GMEM_MEASURE_SKIP-transpose_seed_printed} "
nvcc_flags=${GMEM_NVCC_FLAGS:--arch=sm_90 -lineinfo}
work=$(mktemp -d /tmp/gmem-measure.XXXXXX)
mkdir -p "$outdir"

command -v nvcc >/dev/null || { echo "measure_examples: nvcc not found" >&2; exit 2; }
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

# The whole tree first; should another part not configure yet, gpu/ alone.
cfg=(-DGMEM_BUILD_ANALYZER=OFF -DGMEM_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=Release)
if ! cmake -S "$root" -B "$build" "${cfg[@]}" >"$work/cmake.log" 2>&1; then
  echo "measure_examples: the full tree does not configure; building gpu/ alone" >&2
  tail -5 "$work/cmake.log" >&2
  build=$build-gpuonly
  cmake -S "$root/gpu" -B "$build" "${cfg[@]}" || exit 2
fi
grep -h "gmem:" "$work/cmake.log" || true
cmake --build "$build" -j "$(nproc)" --target gmem-verify gmem_inject || exit 2
verify=$build/bin/gmem-verify
[ -x "$verify" ] || { echo "measure_examples: gmem-verify was not built" >&2; exit 2; }

status=0
sources=("$root"/examples/*.cu "$@")
for src in "${sources[@]}"; do
  [ -f "$src" ] || { echo "measure_examples: no such file $src" >&2; status=2; continue; }
  name=$(basename "$src" .cu)
  if [[ "$skip" == *" $name "* ]]; then
    echo "== $name: skipped (GMEM_MEASURE_SKIP)"
    continue
  fi
  echo "== $name"
  # Compile where the source lies so that -lineinfo records its own name.
  if ! (cd "$(dirname "$src")" && nvcc $nvcc_flags -o "$work/$name" "$(basename "$src")"); then
    echo "measure_examples: $name does not compile" >&2; status=2; continue
  fi
  # shellcheck disable=SC2086
  if ! (cd "$work" && timeout "${GMEM_MEASURE_TIMEOUT:-300}" "$verify" ${GMEM_VERIFY_FLAGS:-} \
        --output "$outdir/$name.json" -- "./$name"); then
    echo "measure_examples: gmem-verify failed on $name" >&2; status=2
  fi
done

# One row per launch, the columns of h200_summary.txt (table.py).
python3 - "$outdir" "${sources[@]}" <<'EOF'
import json, os, sys
outdir, sources = sys.argv[1], sys.argv[2:]
G = 'l1tex__t_%s_pipe_lsu_mem_global_op_%s.sum'
W = 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_%s.sum'
B = 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_%s.sum'
def ratio(a, b): return a / b if b else 0.0
for src in sources:
    path = os.path.join(outdir, os.path.basename(src)[:-3] + '.json')
    if not os.path.exists(path): continue
    d = json.load(open(path))
    dev = d['device']
    print('%s  (%s, driver %s, CUDA %s, %s)' % (path, dev['name'], dev['driver_version'], dev['cuda_version'], d['date']))
    print('%-26s %-12s %9s %6s %6s %6s %6s %6s %6s %8s %8s %9s %5s' % ('kernel', 'block', 'ld_req', 'ld/r', 'st/r', 'ldeff', 'steff', 'shl/r', 'shs/r', 'bc_ld', 'bc_st', 'time_ns', 'lines'))
    for l in d['launches']:
        m = l['metrics']; g = lambda k: float(m.get(k, 0))
        blk = '(%d, %d, %d)' % tuple(l['block'])
        print('%-26s %-12s %9d %6.2f %6.2f %6.1f %6.1f %6.2f %6.2f %8d %8d %9d %5d' % (
            l['kernel'][:26], blk, g(G % ('requests', 'ld')),
            ratio(g(G % ('sectors', 'ld')), g(G % ('requests', 'ld'))),
            ratio(g(G % ('sectors', 'st')), g(G % ('requests', 'st'))),
            g('smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct'),
            g('smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct'),
            ratio(g(W % 'ld'), g('smsp__sass_inst_executed_op_shared_ld.sum')),
            ratio(g(W % 'st'), g('smsp__sass_inst_executed_op_shared_st.sum')),
            g(B % 'ld'), g(B % 'st'), g('gpu__time_duration.sum'), len(l.get('lines', []))))
EOF
rm -rf "$work"
exit $status
