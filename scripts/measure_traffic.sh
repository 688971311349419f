#!/usr/bin/env bash
# Measures what issue 32's traffic and time model predicts, with Nsight
# Compute on a GPU machine: each launch's DRAM bytes read and written, L2
# sectors, L1 sectors and wavefronts, instructions, clocks and duration.
# ncu's defaults stay: caches flushed before each launch (--cache-control
# all) and clocks locked to base (--clock-control base), which is what the
# model assumes.
#
# Usage: scripts/measure_traffic.sh MANIFEST OUTDIR [MAX_LAUNCHES]
#   MANIFEST: lines "NAME | NVCC ARGUMENTS | PROGRAM ARGUMENTS [| KERNELS]"
#   (paths relative to the manifest's folder, where nvcc and the program
#   run; KERNELS: measure only the first launch of each, into NAME_KERNEL.csv), or
#   "examples" for every examples/*.cu built with -O3 -arch=sm_90 -lineinfo.
#   OUTDIR/NAME.csv: ncu --csv --page raw, one row per launch (at most
#   MAX_LAUNCHES, default 40, per program); OUTDIR/device.txt: the GPU.
#   GMEM_NCU_WARM=1: the caches kept from launch to launch instead
#   (--cache-control none), each pass a run of the whole program
#   (--replay-mode application, so that a pass sees what the launches
#   before it left in L2, not the pass before), DRAM, L2 and time only.
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
max=${3:-40}
work=$(mktemp -d /tmp/gmem-traffic.XXXXXX)
metrics=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
metrics+=,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum
metrics+=,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
metrics+=,smsp__inst_executed.sum,sm__cycles_elapsed.avg.per_second
metrics+=,dram__cycles_elapsed.avg.per_second,sm__warps_active.avg.pct_of_peak_sustained_active
metrics+=,launch__grid_size,launch__block_size,launch__registers_per_thread
ncu_mode=()
if [ "${GMEM_NCU_WARM:-}" = 1 ]; then
  metrics=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
  metrics+=,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum
  ncu_mode=(--cache-control none --replay-mode application)
fi
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem \
  --format=csv >"$out/device.txt" 2>&1
if [ "$1" = examples ]; then
  manifest=$work/examples.txt
  for f in "$root"/examples/*.cu; do
    n=$(basename "$f" .cu)
    [ "$n" = transpose_seed_printed ] && continue # Faults by design.
    echo "$n | -O3 -arch=sm_90 -lineinfo $n.cu |" >>"$manifest"
  done
  dir=$root/examples
else
  manifest=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  dir=$(dirname "$manifest")
fi
cd "$dir" || exit 2
entries() { grep -v '^[[:space:]]*\(#\|$\)' "$manifest"; }
trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; echo "${s%"${s##*[![:space:]]}"}"; }
while IFS='|' read -r name flags _; do
  name=$(trim "$name")
  # shellcheck disable=SC2086
  (nvcc $flags -o "$work/$name" >"$work/$name.nvcc" 2>&1 || rm -f "$work/$name") &
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n; done
done < <(entries)
wait
status=0
while IFS="|" read -r name _ args kernels; do
  name=$(trim "$name")
  if [ ! -x "$work/$name" ]; then
    echo "$name: does not build: $(tail -2 "$work/$name.nvcc")"; status=1; continue
  fi
  if [ -n "$(trim "${kernels:-}")" ]; then
    # The first launch of each kernel named, one file (program) each.
    for k in $kernels; do
      # shellcheck disable=SC2086
      timeout 300 ncu "${ncu_mode[@]}" --csv --page raw --metrics "$metrics" -k "regex:^$k\$" \
        -c 1 "$work/$name" $args >"$out/${name}_$k.csv" 2>"$work/$name.err" </dev/null
      echo "${name}_$k: exit $?, $(grep -c '^"[0-9]' "$out/${name}_$k.csv") launches"
    done
    continue
  fi
  # shellcheck disable=SC2086
  timeout 300 ncu "${ncu_mode[@]}" --csv --page raw --metrics "$metrics" -c "$max" \
    "$work/$name" $args >"$out/$name.csv" 2>"$work/$name.err" </dev/null
  echo "$name: exit $?, $(grep -c '^"[0-9]' "$out/$name.csv") launches"
done < <(entries)
exit $status
