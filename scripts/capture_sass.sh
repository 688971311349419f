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
# sm_50 to sm_72: CUDA 13 no longer builds or disassembles them. Debian 12's
# non-free CUDA 11.8 does; unpacked without installing it (so that it does
# not shadow the CUDA 13 nvcc), with Debian's component enabled:
#   apt-get download nvidia-cuda-toolkit nvidia-cuda-dev libnvvm4
#   for d in *.deb; do dpkg -x "$d" /tmp/cuda11; done
#   GMEM_CUDA11=/tmp/cuda11 scripts/capture_sass.sh --arch sm_61 atomics
# (host compiler clang-14, which that nvcc accepts). Its packages lack
# libcu++, so examples that include <cuda/...> or cooperative_groups do not
# build there.
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
      root=${GMEM_CUDA11:?"$arch needs GMEM_CUDA11 (see the header)"}
      mkdir -p "tests/data/sass/arch/$arch"
      (cd examples &&
        PATH=$root/usr/lib/nvidia-cuda-toolkit/bin:$root/usr/bin:$PATH \
        LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu \
        "$root/usr/lib/nvidia-cuda-toolkit/bin/nvcc" -ccbin clang-14 -cubin \
          -arch="$arch" -lineinfo -I"$root/usr/include" \
          -o "$work/$name.cubin" "$name.cu") || continue
      "$root/usr/bin/nvdisasm" -c -gi "$work/$name.cubin" \
        >"tests/data/sass/arch/$arch/$name.sass"
      echo "capture_sass: tests/data/sass/arch/$arch/$name.sass"
      continue
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
