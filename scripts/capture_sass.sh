#!/usr/bin/env bash
# Captures what nvcc emits for examples, as the tests read it without a
# toolkit: `nvdisasm -c -gi` of `nvcc -cubin -arch=sm_XX -lineinfo`.
#
# Usage: scripts/capture_sass.sh [--arch sm_XX]... [NAME...]
#   NAME: examples/NAME.cu (default: the examples whose SASS the tests use).
#   sm_90 goes to tests/data/sass/NAME.sass (the in-process analyses read
#   it), every other architecture to tests/data/sass/arch/sm_XX/NAME.sass.
#   Default architectures: sm_75 sm_80 sm_86 sm_89 sm_90.
#
# sm_50 to sm_72: CUDA 13's nvcc no longer builds them and its nvdisasm no
# longer reads them (tried 2026-11-24: PTX retargeted and assembled by CUDA
# 12.9's ptxas from PyPI, then nvdisasm 13.0 on the GPU machine: "does not
# contain Cuda architecture information"); gmem says for those that merging
# was not checked.
set -euo pipefail
cd "$(dirname "$0")/.."

archs=()
names=()
while (($#)); do
  case "$1" in
  --arch) archs+=("$2"); shift 2 ;;
  *) names+=("$1"); shift ;;
  esac
done
((${#archs[@]})) || archs=(sm_75 sm_80 sm_86 sm_89 sm_90)
((${#names[@]})) || names=(atomics async_copy device_calls half_precision
                           local_constant selected_loads)

nvdisasm=$(command -v nvdisasm || python3 -c "import nvidia, glob; print(
  next(iter(glob.glob(nvidia.__path__[0] + '/*/bin/nvdisasm')), ''))")
[ -n "$nvdisasm" ] || { echo "capture_sass: no nvdisasm" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

for name in "${names[@]}"; do
  src=examples/$name.cu
  for arch in "${archs[@]}"; do
    num=${arch#sm_}
    if ((num < 75)); then
      echo "capture_sass: CUDA 13 cannot build $arch" >&2
      exit 2
    fi
    # Compiled where the example lies, as the tests' line table expects.
    (cd examples && nvcc -cubin -arch="$arch" -lineinfo -o "$work/$name.cubin" "$name.cu")
    if [ "$arch" = sm_90 ]; then
      dest=tests/data/sass/$name.sass
    else
      mkdir -p "tests/data/sass/arch/$arch"
      dest=tests/data/sass/arch/$arch/$name.sass
    fi
    "$nvdisasm" -c -gi "$work/$name.cubin" >"$dest"
    echo "capture_sass: $dest"
  done
done
